"""What a node runs: the daide-mcts version and a fingerprint of its code.

Every node of a cluster tournament must play with the same bots.  The
version alone does not show a changed source checkout, so the fingerprint
hashes every source file of the four packages (the Python files and the
Cython sources of the compiled hot paths) and the installed version of each
of the project's dependencies: a node with another release of, say,
pydantic or psutil runs other code too.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.metadata
import platform
import re
import socket
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import bot

PACKAGES = ("protocol", "adjudicator", "search", "bot")
"""The packages whose source makes up the bots."""

SOURCE_SUFFIXES = (".py", ".pyx", ".pxd", ".h")
"""The source files of the packages: Python, Cython's sources and declarations, C headers."""

DISTRIBUTION = "daide-mcts"
"""The project's distribution name, whose metadata lists its dependencies."""

NOT_INSTALLED = "not installed"
"""The version recorded for a dependency missing from this environment."""

_ROOT = Path(bot.__file__).resolve().parent.parent

_REQUIREMENT_NAME = re.compile(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)")


def source_files(root: Path) -> list[Path]:
    """Every source file of the bots under ``root``, in a fixed order."""
    return sorted(
        path
        for package in PACKAGES
        for path in (root / package).rglob("*")
        if path.suffix in SOURCE_SUFFIXES and path.is_file()
    )


def _requirement_name(requirement: str) -> str | None:
    """The distribution a requirement line names, or None for a line that names none."""
    found = _REQUIREMENT_NAME.match(requirement)
    return None if found is None else found.group(1)


def project_dependencies() -> list[str]:
    """The distributions the project requires (not its optional extras), normalised and sorted.

    Read from the installed metadata, or from ``pyproject.toml`` beside the
    source when the project is run from a checkout without being installed.
    """
    try:
        lines = [
            line
            for line in importlib.metadata.requires(DISTRIBUTION) or []
            if "extra ==" not in line.replace('"', "").replace("'", "")
        ]
    except importlib.metadata.PackageNotFoundError:
        with open(_ROOT / "pyproject.toml", "rb") as fh:
            lines = list(tomllib.load(fh)["project"]["dependencies"])
    names = {_requirement_name(line) for line in lines}
    return sorted({re.sub(r"[-_.]+", "-", n).lower() for n in names if n is not None})


def dependency_versions(names: Iterable[str]) -> dict[str, str]:
    """The installed version of each distribution (:data:`NOT_INSTALLED` when missing)."""
    versions = {}
    for name in names:
        try:
            versions[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            versions[name] = NOT_INSTALLED
    return versions


def fingerprint(root: Path, dependencies: Mapping[str, str]) -> str:
    """SHA-256 (first 12 hex digits) over the sources under ``root`` and the dependencies' versions.

    Each source file counts with its path and content; each dependency with its
    name and version.
    """
    digest = hashlib.sha256()
    for path in source_files(root):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    for name, version in sorted(dependencies.items()):
        digest.update(f"{name}=={version}".encode() + b"\0")
    return digest.hexdigest()[:12]


@functools.cache
def code_hash() -> str:
    """The fingerprint of the bots this process runs (:func:`fingerprint`, computed once)."""
    return fingerprint(_ROOT, dependency_versions(project_dependencies()))


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
            return (
                f"daide-mcts code {other.code} there, {self.code} here (both {self.version}; "
                "the sources or the dependencies' versions differ)"
            )
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
