"""The lifecycle the project's local servers share: a subprocess on loopback with a private folder.

Parlance, MILA's DAIDE server and mosquitto are each started the same way:
a fresh port (never in TIME_WAIT), a private working folder, output to a log
file, a wait until the port accepts connections (failing with the server's
own output if it never does or dies first), and on stop a polite terminate
then a kill, the log copied out of the folder when it should outlive it, and
the folder removed.  A server also dies with the process that started it
(:mod:`bot.servers.lifeline`), so a killed game leaves no server behind.
:class:`ServerProcess` holds that once; each server's class is a dataclass
with the attributes it names and only says how it starts.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import TracebackType
from typing import IO, ClassVar, Self

from bot.servers.lifeline import SERVER_SIGNAL, tied
from bot.servers.ports import free_port, wait_listening


class ServerProcess:
    """Start/stop/log mixin for a loopback server subprocess (see the module docstring).

    The class using it defines ``host``, ``port``, ``log_path`` and the private
    ``_proc``, ``_workdir`` and ``_log`` (all ``None`` before the start), and
    the class attributes :attr:`unavailable` (the error it raises) and
    :attr:`what` (its name in messages).  ``keep_log`` copies the log out of
    the private folder on stop so that it can still be read.
    """

    unavailable: ClassVar[type[Exception]] = RuntimeError
    what: ClassVar[str] = "the server"
    keep_log: ClassVar[bool] = True

    host: str
    port: int
    log_path: Path | None
    _proc: subprocess.Popen[bytes] | None
    _workdir: Path | None
    _log: IO[bytes] | None

    def _prepare(self, prefix: str) -> Path:
        """Pick a fresh port if none is set and make the private folder (kept across restarts)."""
        if self.port == 0:
            self.port = free_port(self.host)
        if self._workdir is None:
            self._workdir = Path(tempfile.mkdtemp(prefix=prefix))
        return self._workdir

    def _spawn(
        self, argv: Sequence[str], env: Mapping[str, str] | None, log_path: Path, timeout: float
    ) -> None:
        """Run ``argv`` in the private folder, output to ``log_path``; wait until it listens."""
        self._log = open(log_path, "ab")  # noqa: SIM115 - closed in _terminate()
        try:
            self._proc = subprocess.Popen(
                tied(argv, SERVER_SIGNAL),
                cwd=self._workdir,
                env=None if env is None else dict(env),
                stdin=subprocess.DEVNULL,
                stdout=self._log,
                stderr=subprocess.STDOUT,
            )
        except OSError as exc:
            self._terminate()
            raise self.unavailable(f"cannot run {argv[0]}: {exc}") from exc
        if not wait_listening(self.host, self.port, timeout, alive=self.running):
            output = self.output()
            self.stop()
            raise self.unavailable(
                f"{self.what} did not listen on {self.host}:{self.port} within {timeout:.0f}s; "
                f"its output:\n{output[-3000:]}"
            )

    def running(self) -> bool:
        """True while the server process is alive."""
        return self._proc is not None and self._proc.poll() is None

    def output(self) -> str:
        """What the server has logged so far."""
        path = self.log_path
        if path is None or not path.exists():
            return ""
        return path.read_text(errors="replace")

    def _terminate(self) -> None:
        """Stop the process (terminate, then kill after 5 s) and close its log."""
        if self._proc is not None and self._proc.poll() is None:
            self._proc.terminate()
            try:
                self._proc.wait(5)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait()
        if self._log is not None:
            self._log.close()
            self._log = None

    def stop(self) -> None:
        """Terminate the server (if running) and remove its private folder."""
        self._terminate()
        workdir = self._workdir
        if workdir is None:
            return
        log = self.log_path
        if self.keep_log and log is not None and log.exists() and workdir in log.parents:
            kept = Path(tempfile.gettempdir()) / f"{workdir.name.split('-')[0]}-{self.port}.log"
            shutil.copyfile(log, kept)
            self.log_path = kept
        shutil.rmtree(workdir, ignore_errors=True)
        self._workdir = None

    def __enter__(self) -> Self:
        if self._proc is None:
            self.start()  # type: ignore[attr-defined]
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()
