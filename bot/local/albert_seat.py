"""Albert 5.5 (Jason van Hal's DAIDE bot) as a seat of a local game, from the user's files.

Albert is a Win32 program (``Albert.exe`` and its ``cspdll.dll``); the project
never carries it.  The user names the folder holding both files with
``--albert-dir DIR`` or the environment variable :data:`ALBERT_DIR_ENV`.  It
runs headless under Debian's Wine, on a virtual X display, with no human-like
delays (``-t``) and, unless the seat is ``albert:press``, never allying (``-n``)::

    xvfb-run -a -s '-screen 0 800x600x16' wine DIR/Albert.exe -t -n -iHOST -pPORT

Each seat has its own Wine prefix (``WINEPREFIX``), copied from one template
prefix that :meth:`AlbertInstall.prepare` initialises once under
``.local/albert/`` (a fresh prefix takes tens of seconds to boot).  The seat's
process is this module run as a program (:func:`main`): it copies the
template, starts the line above in the seat's folder (where Albert writes its
own logs), and when it is told to stop — or Albert ends — it stops Albert's
Wine server, the virtual display and everything they started, then deletes
the prefix copy.  Without it a stopped ``xvfb-run`` would leave ``Albert.exe``,
``wineserver`` and ``Xvfb`` running.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import FrameType

from bot.servers.wine import missing_wine_programs
from bot.toolkit.paths import local_dir

ALBERT_DIR_ENV = "DAIDE_MCTS_ALBERT"
"""The environment variable naming the folder of Albert's files (``--albert-dir`` wins)."""

ALBERT_EXE = "Albert.exe"
"""Albert's program."""

ALBERT_FILES = (ALBERT_EXE, "cspdll.dll")
"""The files the Albert folder must hold."""

ALBERT_FLAGS = ("-t", "-n")
"""Tournament mode (no human-like delays) and never ally."""

ALBERT_PRESS_FLAGS = ("-t",)
"""Tournament mode with Albert's press on: it proposes, accepts and keeps peace and alliances."""

SCREEN = "-screen 0 800x600x16"
"""The virtual display Albert's window lives on."""

WINE_QUIET = {"WINEDEBUG": "-all", "WINEDLLOVERRIDES": "mscoree,mshtml="}
"""Wine's environment for Albert: no debug output, and no offer to install Mono or Gecko
(a dialog nobody could answer on the virtual display)."""

CRASH_DIALOG_KEY = r"HKCU\Software\Wine\WineDbg"
"""Registry key whose ``ShowCrashDialog`` 0 makes a crash end the program, not wait on a dialog."""

TEMPLATE_MARKER = ".ready"
"""File in the template prefix saying it was initialised completely."""

BOOT_TIMEOUT = 300
"""Seconds Wine may take to initialise the template prefix."""

STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)
"""The signals that stop a seat (SIGTERM from the runner, or from the kernel when it dies)."""

STOP_TIMEOUT = 1.5
"""Seconds each clean-up step may take: three of them stay within the runner's 5 s grace."""


class AlbertUnavailableError(RuntimeError):
    """Albert cannot run here (no folder given, a file or a Wine program missing); says why."""


def albert_dir_from(flag: str | Path | None, env: Mapping[str, str] | None = None) -> Path | None:
    """Albert's folder: the flag's, else the environment variable's, else None."""
    if flag is not None and str(flag):
        return Path(flag)
    value = (os.environ if env is None else env).get(ALBERT_DIR_ENV, "")
    return Path(value) if value else None


def template_prefix() -> Path:
    """Where the template Wine prefix lives (``.local/albert/prefix``)."""
    return local_dir() / "albert" / "prefix"


def albert_command(folder: Path, host: str, port: int, *, press: bool = False) -> list[str]:
    """The line that plays Albert from ``folder`` on ``host:port`` (run it in a Wine prefix).

    ``press``: Albert negotiates (no ``-n``) where the game allows press.
    """
    flags = ALBERT_PRESS_FLAGS if press else ALBERT_FLAGS
    return [
        "xvfb-run", "-a", "-s", SCREEN,
        "wine", str(folder / ALBERT_EXE), *flags, f"-i{host}", f"-p{port}",
    ]  # fmt: skip


def wine_env(prefix: Path, base: Mapping[str, str] | None = None) -> dict[str, str]:
    """``base`` (default: this process's environment) with Wine set to use ``prefix``, quietly."""
    return {**(os.environ if base is None else base), **WINE_QUIET, "WINEPREFIX": str(prefix)}


@dataclass(frozen=True)
class AlbertInstall:
    """A folder with Albert's files, Wine to run them, and the template prefix seats copy."""

    folder: Path
    template: Path

    @classmethod
    def locate(
        cls,
        folder: Path | None,
        *,
        missing_programs: Callable[[], str] = missing_wine_programs,
        template: Path | None = None,
    ) -> AlbertInstall:
        """Albert in ``folder``; :class:`AlbertUnavailableError` naming what is missing.

        Checks that ``folder`` holds :data:`ALBERT_FILES` and that Wine's
        programs are installed (``missing_programs`` says which are not, in
        one line).  Does not start Wine.
        """
        if folder is None:
            raise AlbertUnavailableError(
                f"Albert needs its files ({' and '.join(ALBERT_FILES)}, from bots/albert55/ of "
                f"the public bpodgursky/victorybot repository): give --albert-dir DIR or set "
                f"{ALBERT_DIR_ENV}"
            )
        if not folder.is_dir():
            raise AlbertUnavailableError(f"Albert's folder {folder} is not a folder")
        absent = [name for name in ALBERT_FILES if not (folder / name).is_file()]
        if absent:
            raise AlbertUnavailableError(
                f"{' and '.join(absent)} {'is' if len(absent) == 1 else 'are'} not in {folder} "
                f"(Albert needs {' and '.join(ALBERT_FILES)} side by side)"
            )
        missing = missing_programs()
        if missing:
            raise AlbertUnavailableError(missing)
        return cls(folder.resolve(), template if template is not None else template_prefix())

    def ready(self) -> bool:
        """True when the template prefix is initialised by this Wine version."""
        try:
            return (self.template / TEMPLATE_MARKER).read_text().strip() == wine_version()
        except OSError:
            return False

    def prepare(self, notes: Callable[[str], None] = lambda _: None) -> None:
        """Initialise the template prefix once (slow: Wine boots a fresh prefix); idempotent.

        Raises :class:`AlbertUnavailableError` if Wine cannot initialise it.
        """
        if self.ready():
            return
        notes(f"Initialising a Wine prefix for Albert in {self.template} (once)...")
        self.template.parent.mkdir(parents=True, exist_ok=True)
        partial = Path(tempfile.mkdtemp(prefix="prefix.partial-", dir=self.template.parent))
        env = wine_env(partial)
        try:
            _wine_step(["wineboot", "--init"], env, "wineboot --init")
            no_dialog = ["/v", "ShowCrashDialog", "/t", "REG_DWORD", "/d", "0", "/f"]
            _wine_step(
                ["wine", "reg", "add", CRASH_DIALOG_KEY, *no_dialog],
                env,
                "turning off Wine's crash dialog",
            )
            _wine_step(["wineserver", "-w"], env, "waiting for the Wine server")
            (partial / TEMPLATE_MARKER).write_text(wine_version() + "\n")
            shutil.rmtree(self.template, ignore_errors=True)
            partial.rename(self.template)
        finally:
            shutil.rmtree(partial, ignore_errors=True)

    def command(self, host: str, port: int, *, seat_dir: Path, press: bool = False) -> list[str]:
        """The argv of an Albert seat on ``host:port`` (this module), its prefix in ``seat_dir``.

        ``press``: Albert with its press on (``albert:press`` in a lineup).
        """
        return [
            sys.executable, "-m", "bot.local.albert_seat",
            "--folder", str(self.folder),
            "--template", str(self.template.resolve()),
            "--prefix", str(seat_dir.resolve() / "prefix"),
            "--host", host,
            "--port", str(port),
            *(["--press"] if press else []),
        ]  # fmt: skip


def wine_version() -> str:
    """What ``wine --version`` says (``wine-8.0 (Debian 8.0~repack-4)``), or ``""``."""
    try:
        proc = subprocess.run(["wine", "--version"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return proc.stdout.strip()


def copy_prefix(template: Path, prefix: Path) -> None:
    """A Wine prefix for one seat: ``template``'s files hard-linked, its registry files copied.

    Wine rewrites only the registry (``*.reg``) of an initialised prefix, so
    the seats share the rest (about 600 MB) instead of copying it.  Where
    hard links are impossible (another file system) the files are copied.
    """

    def link_or_copy(source: str, target: str) -> object:
        if source.endswith(".reg"):
            return shutil.copy2(source, target)
        try:
            os.link(source, target)
        except OSError:
            return shutil.copy2(source, target)
        return target

    shutil.copytree(template, prefix, symlinks=True, copy_function=link_or_copy)


def _wine_step(argv: list[str], env: dict[str, str], what: str) -> None:
    try:
        proc = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=BOOT_TIMEOUT)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise AlbertUnavailableError(f"{what} failed: {exc}") from exc
    if proc.returncode != 0:
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-1:] or ["no output"]
        raise AlbertUnavailableError(f"{what} failed (exit {proc.returncode}): {tail[0]}")


# --- the seat's process ----------------------------------------------------------------------


class _Stop(Exception):
    """A signal asked the seat to stop."""


def _raise_stop(signum: int, _frame: FrameType | None) -> None:
    raise _Stop(signal.Signals(signum).name)


def _stop_albert(proc: subprocess.Popen[bytes], env: dict[str, str]) -> None:
    """End Albert, its Wine server and the virtual display (the whole process group).

    Further stop signals are ignored meanwhile, so they cannot cut the clean-up short.
    """
    for sig in STOP_SIGNALS:
        signal.signal(sig, signal.SIG_IGN)
    with contextlib.suppress(OSError, subprocess.TimeoutExpired):
        subprocess.run(["wineserver", "-k"], env=env, timeout=STOP_TIMEOUT, check=False)
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        try:
            proc.wait(STOP_TIMEOUT)
            return
        except subprocess.TimeoutExpired:
            continue


def run_seat(
    folder: Path, template: Path, prefix: Path, host: str, port: int, *, press: bool = False
) -> int:
    """Play Albert as one seat until it ends or a signal stops it; its exit code (0 if stopped)."""
    for sig in STOP_SIGNALS:
        signal.signal(sig, _raise_stop)
    env = wine_env(prefix)
    proc: subprocess.Popen[bytes] | None = None
    try:
        if not prefix.exists():
            copy_prefix(template, prefix)
        argv = albert_command(folder, host, port, press=press)
        print(f"albert: {' '.join(argv)} (WINEPREFIX={prefix})", flush=True)
        proc = subprocess.Popen(argv, env=env, stdin=subprocess.DEVNULL, start_new_session=True)
        code = proc.wait()
        print(f"albert: Albert.exe ended (exit code {code})", flush=True)
        return code
    except _Stop as stop:
        print(f"albert: stopped by {stop}", flush=True)
        return 0
    except OSError as exc:
        print(f"albert: cannot start Albert: {exc}", flush=True)
        return 1
    finally:
        if proc is not None:
            _stop_albert(proc, env)
        shutil.rmtree(prefix, ignore_errors=True)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m bot.local.albert_seat --folder F --template T --prefix P --host H --port N``."""
    p = argparse.ArgumentParser(prog="python -m bot.local.albert_seat", description=__doc__)
    p.add_argument("--folder", type=Path, required=True, help="folder of Albert.exe and cspdll.dll")
    p.add_argument("--template", type=Path, required=True, help="initialised Wine prefix to copy")
    p.add_argument("--prefix", type=Path, required=True, help="this seat's Wine prefix (copied)")
    p.add_argument("--host", required=True, help="the DAIDE server's address")
    p.add_argument("--port", type=int, required=True, help="the DAIDE server's port")
    p.add_argument("--press", action="store_true", help="Albert negotiates (no -n)")
    args = p.parse_args(argv)
    if not (args.template / TEMPLATE_MARKER).is_file():
        print(f"albert: {args.template} is not an initialised Wine prefix", file=sys.stderr)
        return 2
    return run_seat(args.folder, args.template, args.prefix, args.host, args.port, press=args.press)


if __name__ == "__main__":
    sys.exit(main())
