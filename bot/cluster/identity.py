"""What a node runs: the daide-mcts version and a fingerprint of its code.

Every node of a cluster tournament must play with the same bots.  The
version alone does not show a changed source checkout, so the fingerprint
also hashes every Python file of the four packages.
"""

from __future__ import annotations

import functools
import hashlib
import platform
import socket
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import bot

PACKAGES = ("protocol", "adjudicator", "search", "bot")
"""The packages whose source makes up the bots."""

_ROOT = Path(bot.__file__).resolve().parent.parent


@functools.cache
def code_hash() -> str:
    """SHA-256 (first 12 hex digits) over the path and content of every ``.py`` of the bots."""
    digest = hashlib.sha256()
    for package in PACKAGES:
        for path in sorted((_ROOT / package).rglob("*.py")):
            digest.update(path.relative_to(_ROOT).as_posix().encode() + b"\0")
            digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:12]


@dataclass(frozen=True)
class Build:
    """The daide-mcts a process runs: version, code fingerprint and Python version."""

    version: str
    code: str
    python: str

    def __str__(self) -> str:
        return f"daide-mcts {self.version} (code {self.code}, Python {self.python})"

    def difference(self, other: Build) -> str | None:
        """Why ``other`` is not this build (None when it is)."""
        if other.version != self.version:
            return f"daide-mcts {other.version} there, {self.version} here"
        if other.code != self.code:
            return f"daide-mcts code {other.code} there, {self.code} here (both {self.version})"
        if other.python.rsplit(".", 1)[0] != self.python.rsplit(".", 1)[0]:
            return f"Python {other.python} there, {self.python} here"
        return None

    def as_dict(self) -> dict[str, str]:
        """JSON-ready."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Build:
        """The inverse of :meth:`as_dict`."""
        return cls(str(data["version"]), str(data["code"]), str(data["python"]))


def this_build() -> Build:
    """The build of this process."""
    return Build(bot.__version__, code_hash(), platform.python_version())


def hostname() -> str:
    """The name of this machine."""
    return socket.gethostname()
