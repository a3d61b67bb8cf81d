"""Debian packages unpacked into a project-local folder, without root or touching the system.

Mosquitto (the telemetry tests' broker) and Chromium (the viewer's browser
tests) are installed the same way: ``apt-get download`` fetches the ``.deb``
files of the wanted packages and of those of their library dependencies
(``lib*``, followed transitively) that the machine lacks, ``dpkg-deb -x``
unpacks them into one tree, and the program runs with ``LD_LIBRARY_PATH``
pointing at the tree's library folders.  :func:`unpack_packages` does that
once into ``<root>/tree`` and marks the folder complete; each caller says
which packages, which binary, and which error to raise.  apt is called
through :class:`bot.servers.apt.Apt`: package lists that are missing or stale
are refreshed once (as root), and a refresh that fails in part does not stop
the install.
"""

from __future__ import annotations

import functools
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, TypeVar

from bot.servers.apt import Apt, AptError

MARKER = ".installed"
"""File in the install folder that says the install is complete (holds the version)."""

TOOLS = ("apt-get", "apt-cache", "dpkg", "dpkg-deb", "dpkg-query")


@dataclass(frozen=True)
class UnpackedTree:
    """A folder of unpacked packages: where it is and the folders its shared libraries are in."""

    tree: Path
    library_dirs: tuple[Path, ...] = ()

    def env(self, base: dict[str, str] | None = None) -> dict[str, str]:
        """Environment for running a program of the tree (its private libraries first)."""
        return library_env(self.library_dirs, base)


def library_env(
    library_dirs: tuple[Path, ...], base: dict[str, str] | None = None
) -> dict[str, str]:
    """``base`` (default: this process's environment), ``library_dirs`` first to load from."""
    env = dict(os.environ if base is None else base)
    if library_dirs:
        paths = [str(d) for d in library_dirs]
        if env.get("LD_LIBRARY_PATH"):
            paths.append(env["LD_LIBRARY_PATH"])
        env["LD_LIBRARY_PATH"] = os.pathsep.join(paths)
    return env


def tree_of(root: Path) -> UnpackedTree:
    """The unpacked tree under ``root`` and its multiarch library folders, with their subfolders.

    Libraries sit in ``usr/lib/x86_64-linux-gnu`` and sometimes a private
    subfolder of it (``.../pulseaudio``), so every folder there holding a
    shared object counts.
    """
    tree = root / "tree"
    dirs: set[Path] = set()
    for base in (*tree.glob("usr/lib/*-linux-*"), *tree.glob("lib/*-linux-*")):
        if base.is_dir():
            dirs.add(base)
            dirs.update(p.parent for p in base.rglob("*.so*") if p.parent != base)
    return UnpackedTree(tree, tuple(sorted(dirs)))


def installed_tree(root: Path) -> UnpackedTree | None:
    """The tree under ``root`` if a complete install is there, else None."""
    if (root / MARKER).is_file() and (root / "tree").is_dir():
        return tree_of(root)
    return None


def unpack_packages(
    root: Path,
    packages: Sequence[str],
    *,
    binary: str,
    check: Callable[[UnpackedTree], str],
    error: type[Exception],
    quiet: bool = True,
) -> UnpackedTree:
    """Download ``packages`` and their missing ``lib*`` dependencies, unpack them into ``root``.

    ``binary`` is the program's path inside the tree, ``check`` runs it and
    returns its version (raising ``error`` if it does not run); the version
    and the packages are written to the marker.  Raises ``error`` with the
    reason when apt or dpkg are missing or fail, or libraries stay missing.
    """
    for tool in TOOLS:
        if shutil.which(tool) is None:
            raise error(
                f"`{tool}` not found: the project installs Debian's {packages[0]} package "
                "with apt and dpkg"
            )
    apt = Apt()
    wanted = packages_to_fetch(packages, error, apt=apt)
    partial = root / "tree.partial"
    downloads = root / "debs"
    shutil.rmtree(partial, ignore_errors=True)
    shutil.rmtree(downloads, ignore_errors=True)
    partial.mkdir(parents=True)
    downloads.mkdir(parents=True)
    # apt drops privileges to _apt while downloading: let it write here.
    downloads.chmod(0o777)
    _download(wanted, downloads, error, apt, quiet=quiet)
    for deb in sorted(downloads.glob("*.deb")):
        _run(["dpkg-deb", "-x", str(deb), str(partial)], f"unpacking {deb.name}", error)
    staged = root / "tree"
    shutil.rmtree(staged, ignore_errors=True)
    partial.rename(staged)
    shutil.rmtree(downloads, ignore_errors=True)
    candidate = tree_of(root)
    program = candidate.tree / binary
    if not program.is_file():
        raise error(f"the {packages[0]} package held no {binary}")
    missing = missing_libraries(program, candidate)
    if missing:
        raise error(
            f"{packages[0]} needs libraries this machine lacks and apt did not provide: "
            + ", ".join(missing)
        )
    version = check(candidate)
    (root / MARKER).write_text(f"{version} {' '.join(wanted)}\n")
    return candidate


def packages_to_fetch(
    roots: Sequence[str],
    error: type[Exception],
    *,
    admindir: Path | None = None,
    apt: Apt | None = None,
) -> list[str]:
    """``roots`` and, transitively, the ``lib*`` packages they need that are not installed.

    ``admindir`` is dpkg's database folder to ask (default: the system's);
    ``apt`` the apt session asked (default: a new one).
    """
    apt = apt or Apt()
    wanted = list(roots)
    queue = list(roots)
    seen = set(roots)
    while queue:
        for dep in depends(queue.pop(), error, apt):
            if dep in seen or not dep.startswith("lib"):
                continue
            seen.add(dep)
            if is_installed(dep, admindir=admindir):
                continue
            wanted.append(dep)
            queue.append(dep)
    return wanted


def depends(package: str, error: type[Exception], apt: Apt | None = None) -> list[str]:
    """The packages ``package`` depends on (no recommends or suggests).

    ``error`` with apt's one-line reason if apt knows no such package, even
    after refreshing its lists (when ``apt`` may).
    """
    try:
        out = (apt or Apt()).run(
            ["apt-cache", "depends", "--no-recommends", "--no-suggests", package]
        )
    except AptError as exc:
        raise error(f"apt knows no package {package!r}: {exc}") from exc
    names = re.findall(r"^\s+\|?(?:Pre)?Depends: (\S+)", out.stdout, flags=re.MULTILINE)
    return [n for n in names if not n.startswith("<")]


@functools.cache
def machine_architecture() -> str:
    """The name dpkg gives this machine's architecture (``amd64``, ``arm64`` ...)."""
    out = subprocess.run(
        ["dpkg", "--print-architecture"], capture_output=True, text=True, timeout=60, check=True
    )
    return out.stdout.strip()


ARCHITECTURE_INDEPENDENT = "all"
"""dpkg's architecture of packages that suit every machine (data, scripts)."""


def is_installed(
    package: str, *, admindir: Path | None = None, architecture: str | None = None
) -> bool:
    """True when dpkg has ``package`` installed for this machine's architecture.

    On a multi-arch machine another architecture's copy (``libopus0:i386``
    beside Wine) does not count: the programs we unpack load native libraries.
    ``admindir`` is dpkg's database folder to ask (default: the system's);
    ``architecture`` defaults to :func:`machine_architecture`.
    """
    wanted = {architecture or machine_architecture(), ARCHITECTURE_INDEPENDENT}
    database = [f"--admindir={admindir}"] if admindir is not None else []
    out = subprocess.run(
        ["dpkg-query", *database, "-W", "-f=${Status} ${Architecture}\\n", package],
        capture_output=True,
        text=True,
        timeout=60,
    )
    if out.returncode != 0:
        return False
    # One line per architecture the package is known for: "install ok installed amd64".
    for line in out.stdout.splitlines():
        status, _, arch = line.rpartition(" ")
        if arch in wanted and status.endswith(" installed"):
            return True
    return False


def _download(
    packages: Sequence[str], folder: Path, error: type[Exception], apt: Apt, *, quiet: bool
) -> None:
    try:
        proc = apt.run(["apt-get", "download", *packages], cwd=folder)
    except AptError as exc:
        raise error(str(exc)) from exc
    if not quiet:
        print(proc.stdout.strip(), file=sys.stderr)


def missing_libraries(program: Path, tree: UnpackedTree) -> list[str]:
    """The shared libraries ``program`` needs that neither the machine nor the tree has."""
    try:
        out = subprocess.run(
            ["ldd", str(program)], capture_output=True, text=True, env=tree.env(), timeout=20
        )
    except (OSError, subprocess.TimeoutExpired):
        return []  # no ldd: the version check that follows still runs the binary
    return re.findall(r"^\s*(\S+) => not found", out.stdout, flags=re.MULTILINE)


def _run(argv: list[str], what: str, error: type[Exception]) -> None:
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=300)
    if proc.returncode != 0:
        raise error(f"{what} failed: {proc.stderr[-1500:]}")


class InstalledProgram(Protocol):
    """What :func:`install_command` needs of an installed program."""

    @property
    def binary(self) -> Path:
        """The program's executable."""

    def version(self) -> str:
        """The program's version, as it reports it."""


def install_command(
    name: str, install: Callable[[], InstalledProgram], error: type[Exception]
) -> int:
    """A ``python -m bot.servers.NAME`` entry point: install, print where, 1 on ``error``."""
    try:
        inst = install()
        version = inst.version()
    except error as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(f"{name} {version} ready: {inst.binary}")
    return 0


Program = TypeVar("Program", bound=InstalledProgram)


def install_program(
    root: Path,
    packages: Sequence[str],
    *,
    binary: str,
    override_env: str,
    given: Callable[[Path], Program],
    in_tree: Callable[[UnpackedTree], Program],
    error: type[Exception],
    quiet: bool = True,
) -> Program:
    """A runnable program from Debian's ``packages``, unpacked into ``root`` if needed; idempotent.

    The environment variable ``override_env``, if set, names a binary to use
    instead (made by ``given`` and checked by asking its version); ``in_tree``
    makes the program of an unpacked tree.  Raises ``error`` with the reason.
    """
    override = os.environ.get(override_env)
    if override:
        program = given(Path(override))
        program.version()
        return program
    done = installed_tree(root)
    if done is not None:
        program = in_tree(done)
        if program.binary.is_file():
            return program
    tree = unpack_packages(
        root,
        packages,
        binary=binary,
        check=lambda t: in_tree(t).version(),
        error=error,
        quiet=quiet,
    )
    return in_tree(tree)
