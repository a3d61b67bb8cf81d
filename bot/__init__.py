"""The bot: the asyncio DAIDE client, the command line and the local game runners."""

from importlib.metadata import PackageNotFoundError, version

DISTRIBUTION = "daide-mcts"
"""The name the project is installed under; its metadata holds the one version number."""

UNKNOWN_VERSION = "unknown"
"""The version reported by a source tree that was never installed (no package metadata)."""


def _installed_version() -> str:
    try:
        return version(DISTRIBUTION)
    except PackageNotFoundError:
        return UNKNOWN_VERSION


__version__ = _installed_version()
