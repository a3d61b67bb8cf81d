"""Parlance 1.4.1 (the reference DAIDE server) and Parang's bots, as subprocesses.

Parlance is Python 2 only.  :func:`install` finds a Python 2.7 interpreter,
installs ``parlance`` and ``parang`` from the package registry into a
project-local folder, and :class:`ParlanceServer` runs ``parlance-server`` on
loopback with every option given on its command line, a private HOME and a
private working directory, so no user configuration file can leak in.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import IO, ClassVar

from bot.servers.lifeline import SEAT_SIGNAL, tied
from bot.servers.process import ServerProcess
from bot.toolkit.paths import local_dir

PARLANCE_VERSION = "1.4.1"
PARANG_VERSION = "1.4.1"
PARTERRE_VERSION = "1.4.1"
"""Parterre: Parlance's variant maps (``hundred3`` ... ``world3``), installed beside it."""

DEADLINE_KEEPER = Path(__file__).with_name("parlance_deadline.py")
"""The Python 2 launcher of Parlance's server that keeps passed deadlines (see its docstring)."""

INSTALLED_MARKER = f".installed-{PARLANCE_VERSION}-{PARANG_VERSION}-{PARTERRE_VERSION}"
"""The file :func:`install` leaves in the package folder once all three are in."""


class ParlanceUnavailableError(RuntimeError):
    """Parlance cannot be installed or started here; the message says why."""


def find_python2() -> Path:
    """Locate a Python 2.7 interpreter.

    Looks at ``DAIDE_PYTHON2``, then pyenv's 2.7 versions, then ``python2.7``
    and ``python2`` on the PATH.
    """
    candidates: list[Path] = []
    override = os.environ.get("DAIDE_PYTHON2")
    if override:
        candidates.append(Path(override))
    pyenv_root = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv"))
    versions = pyenv_root / "versions"
    if versions.is_dir():
        candidates.extend(sorted(versions.glob("2.7*/bin/python2.7"), reverse=True))
    for name in ("python2.7", "python2"):
        found = shutil.which(name)
        if found:
            candidates.append(Path(found))
    for candidate in candidates:
        if candidate.is_file() and _is_python27(candidate):
            return candidate
    raise ParlanceUnavailableError(
        "no Python 2.7 interpreter found (Parlance needs one): set DAIDE_PYTHON2, "
        "or install 2.7 with pyenv (`pyenv install 2.7.18`)"
    )


def _is_python27(path: Path) -> bool:
    try:
        out = subprocess.run(
            [str(path), "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
            capture_output=True,
            text=True,
            timeout=20,
            env=_clean_env(),
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return out.returncode == 0 and out.stdout.strip() == "2.7"


def _clean_env(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env.pop("PYENV_VERSION", None)
    if extra:
        env.update(extra)
    return env


@dataclass(frozen=True)
class ParlanceInstall:
    """An installed Parlance + Parang: the interpreter and the package folder."""

    python2: Path
    site: Path

    def script(self, name: str) -> Path:
        """Path of one of the installed entry scripts (``parlance-server``, ``dumbbot``...)."""
        return self.site / "bin" / name

    def env(self, home: Path) -> dict[str, str]:
        """Environment for running the installed scripts with a private HOME."""
        return _clean_env({"PYTHONPATH": str(self.site), "HOME": str(home)})

    def command(self, name: str, *args: str) -> list[str]:
        """Argv that runs the script ``name`` with ``args`` under Python 2.7."""
        return [str(self.python2), str(self.script(name)), *args]


def is_installed(root: Path | None = None) -> bool:
    """True when :func:`install` has already put Parlance and Parang into ``root``."""
    site = (root or (local_dir() / "parlance")) / "site"
    marker = site / INSTALLED_MARKER
    return marker.is_file() and (site / "bin" / "parlance-server").is_file()


def install(root: Path | None = None, *, quiet: bool = True) -> ParlanceInstall:
    """Install Parlance, Parang and Parterre into ``root`` (``.local/parlance``); idempotent."""
    root = root or (local_dir() / "parlance")
    python2 = find_python2()
    site = root / "site"
    marker = site / INSTALLED_MARKER
    if marker.is_file() and (site / "bin" / "parlance-server").is_file():
        return ParlanceInstall(python2, site)
    tmp = root / "site.partial"
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    argv = [
        str(python2),
        "-m",
        "pip",
        "install",
        "--disable-pip-version-check",
        "--no-warn-script-location",
        "--target",
        str(tmp),
        f"parlance=={PARLANCE_VERSION}",
        f"parang=={PARANG_VERSION}",
        f"parterre=={PARTERRE_VERSION}",
    ]
    if quiet:
        argv.insert(4, "--quiet")
    proc = subprocess.run(argv, capture_output=True, text=True, env=_clean_env(), timeout=600)
    if proc.returncode != 0:
        raise ParlanceUnavailableError(
            f"pip could not install Parlance {PARLANCE_VERSION} with {python2}:\n"
            f"{proc.stdout[-2000:]}{proc.stderr[-2000:]}"
        )
    shutil.rmtree(site, ignore_errors=True)
    tmp.rename(site)
    marker.write_text("ok\n")
    return ParlanceInstall(python2, site)


def server_arguments(
    host: str,
    port: int | str,
    games: int = 1,
    options: Mapping[str, object] | None = None,
    variant: str = "standard",
) -> list[str]:
    """The arguments of ``parlance-server`` (after the script) for these settings.

    ``LVL=0`` (no press) and ``DSD=no`` (deadlines run on when a player
    disconnects) come first unless ``options`` say otherwise.  The local game
    runner and ``docker-compose.yml`` both start the server with these.
    """
    opts = {"LVL": 0, "DSD": "no", **(options or {})}
    args = [f"-g{games}", f"--host={host}", f"--port={port}"]
    for name, value in opts.items():
        if isinstance(value, bool):
            value = "yes" if value else "no"
        args.append(f"--{name}={value}")
    args.append(variant)
    return args


@dataclass
class ParlanceServer(ServerProcess):
    """A ``parlance-server`` subprocess on loopback; use as a context manager.

    ``options`` are Parlance configuration options (``MTL``, ``RTL``, ``BTL``,
    ``LVL``, ``DSD``, ``draw``, ``quit``...), passed as ``--NAME=value``.
    Deadlines are in seconds.
    """

    unavailable: ClassVar[type[Exception]] = ParlanceUnavailableError
    what: ClassVar[str] = "parlance-server"

    install: ParlanceInstall
    host: str = "127.0.0.1"
    port: int = 0
    games: int = 1
    variant: str = "standard"
    options: Mapping[str, object] = field(default_factory=dict)
    log_path: Path | None = None
    _proc: subprocess.Popen[bytes] | None = field(default=None, init=False, repr=False)
    _workdir: Path | None = field(default=None, init=False, repr=False)
    _log: IO[bytes] | None = field(default=None, init=False, repr=False)

    def argv(self) -> list[str]:
        """The full command line the server runs with.

        Parlance's own server, started through :mod:`bot.servers.parlance_deadline`,
        which keeps it from losing a deadline that passed while a message came in.
        """
        args = server_arguments(self.host, self.port, self.games, self.options, self.variant)
        return [str(self.install.python2), str(DEADLINE_KEEPER), *args]

    def start(self, timeout: float = 30.0) -> ParlanceServer:
        """Start the server and wait until it accepts connections."""
        workdir = self._prepare("parlance-")
        self.log_path = self.log_path or workdir / "server.log"
        self._spawn(self.argv(), self.install.env(workdir), self.log_path, timeout)
        return self

    def wait(self, timeout: float | None = None) -> int:
        """Wait for the server to exit by itself (e.g. after its last game)."""
        assert self._proc is not None
        return self._proc.wait(timeout)


@dataclass
class ParangBots:
    """Several Parang bots (``dumbbot`` by default) connected to one server."""

    install: ParlanceInstall
    host: str
    port: int
    count: int
    bot: str = "dumbbot"
    _procs: list[subprocess.Popen[bytes]] = field(default_factory=list, init=False)
    _home: Path | None = field(default=None, init=False)

    def start(self) -> ParangBots:
        """Launch the bots; each connects by itself."""
        self._home = Path(tempfile.mkdtemp(prefix="parang-"))
        for _ in range(self.count):
            self._procs.append(
                subprocess.Popen(
                    tied(self.install.command(self.bot, f"{self.host}:{self.port}"), SEAT_SIGNAL),
                    cwd=self._home,
                    env=self.install.env(self._home),
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
            )
        return self

    def stop(self) -> None:
        """Terminate every bot still running."""
        for proc in self._procs:
            if proc.poll() is None:
                proc.terminate()
        for proc in self._procs:
            try:
                proc.wait(5)
            except subprocess.TimeoutExpired:
                proc.kill()
        self._procs.clear()
        if self._home is not None:
            shutil.rmtree(self._home, ignore_errors=True)

    def __enter__(self) -> ParangBots:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m bot.servers.parlance_install``: install Parlance and print where."""
    try:
        inst = install(quiet=False)
    except ParlanceUnavailableError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(f"Parlance {PARLANCE_VERSION} installed in {inst.site} (python: {inst.python2})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
