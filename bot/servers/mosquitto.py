"""Mosquitto, the MQTT broker the telemetry tests (and local watchers) talk to.

:func:`install` puts Debian's ``mosquitto`` package into a project-local
folder (``.local/mosquitto``) without touching the system: it downloads the
``.deb`` files of mosquitto and of those of its libraries that the machine
lacks (``apt-get download``, no root needed), unpacks them with
``dpkg -x``, and runs the broker with ``LD_LIBRARY_PATH`` pointing at the
unpacked libraries (:mod:`bot.servers.debian`).  ``DAIDE_MOSQUITTO`` names a mosquitto binary to use
instead.  :class:`MosquittoBroker` runs one broker on loopback on a fresh
port, from a generated configuration file in a private folder.
"""

from __future__ import annotations

import os
import pwd
import re
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, ClassVar

from bot.servers.debian import UnpackedTree, install_command, install_program, library_env
from bot.servers.process import ServerProcess
from bot.toolkit.paths import local_dir

PACKAGE = "mosquitto"
BINARY = "usr/sbin/mosquitto"
"""The broker's path inside the unpacked package."""


class MosquittoUnavailableError(RuntimeError):
    """Mosquitto cannot be installed or started here; the message says why."""


@dataclass(frozen=True)
class MosquittoInstall:
    """A runnable mosquitto: the binary and the folders its libraries are in."""

    binary: Path
    library_dirs: tuple[Path, ...] = ()

    def env(self) -> dict[str, str]:
        """Environment for running the binary (its private libraries first)."""
        return library_env(self.library_dirs)

    def version(self) -> str:
        """The version the binary reports, e.g. ``2.0.11``; MosquittoUnavailableError if none."""
        try:
            proc = subprocess.run(
                [str(self.binary), "-h"], capture_output=True, text=True, env=self.env(), timeout=20
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise MosquittoUnavailableError(f"cannot run {self.binary}: {exc}") from exc
        found = re.search(r"mosquitto version (\S+)", proc.stdout + proc.stderr)
        if found is None:
            raise MosquittoUnavailableError(
                f"{self.binary} does not run as mosquitto:\n{(proc.stdout + proc.stderr)[-2000:]}"
            )
        return found.group(1)


def install(root: Path | None = None, *, quiet: bool = True) -> MosquittoInstall:
    """A runnable mosquitto, installing Debian's package into ``root`` if needed; idempotent.

    ``root`` defaults to ``.local/mosquitto``.  ``DAIDE_MOSQUITTO`` (a path to a
    mosquitto binary) skips the install.
    """
    return install_program(
        root or (local_dir() / "mosquitto"),
        [PACKAGE],
        binary=BINARY,
        override_env="DAIDE_MOSQUITTO",
        given=MosquittoInstall,
        in_tree=_install_in,
        error=MosquittoUnavailableError,
        quiet=quiet,
    )


def _install_in(tree: UnpackedTree) -> MosquittoInstall:
    """The binary and the library folders of an unpacked tree."""
    return MosquittoInstall(tree.tree / BINARY, tree.library_dirs)


@dataclass
class MosquittoBroker(ServerProcess):
    """A mosquitto process listening on ``host:port``; use as a context manager.

    The configuration is generated in a private folder: one listener on
    ``host``, anonymous access, and (with ``persistent``) sessions and queued
    messages kept across :meth:`restart`.
    """

    unavailable: ClassVar[type[Exception]] = MosquittoUnavailableError
    what: ClassVar[str] = "mosquitto"
    keep_log: ClassVar[bool] = False

    install: MosquittoInstall
    host: str = "127.0.0.1"
    port: int = 0
    persistent: bool = False
    _proc: subprocess.Popen[bytes] | None = field(default=None, init=False, repr=False)
    _workdir: Path | None = field(default=None, init=False, repr=False)
    _log: IO[bytes] | None = field(default=None, init=False, repr=False)

    def url(self, prefix: str = "daide-mcts") -> str:
        """The ``mqtt://host:port/prefix`` URL that reaches this broker."""
        return f"mqtt://{self.host}:{self.port}/{prefix}"

    @property  # read-only here: keep_log is off, so stop() never moves the log
    def log_path(self) -> Path | None:  # type: ignore[override]
        """Where the broker's output goes."""
        return None if self._workdir is None else self._workdir / "mosquitto.log"

    def config(self) -> str:
        """The generated configuration file's text."""
        assert self._workdir is not None and self.log_path is not None
        lines = [
            f"listener {self.port} {self.host}",
            "allow_anonymous true",
            f"log_dest file {self.log_path}",  # flushed line by line, unlike stdout
            "log_type error",
            "log_type warning",
            "log_type notice",
            "log_type information",
            "connection_messages true",
        ]
        if self.persistent:
            # Keep (nearly) everything published while a persistent subscriber is away.
            lines += [
                "persistence true",
                f"persistence_location {self._workdir}/",
                "max_queued_messages 100000",
            ]
        else:
            lines.append("persistence false")
        if os.geteuid() == 0:
            # As root mosquitto would switch to the user 'mosquitto' (or 'nobody'), which
            # cannot write the private folder; stay who we are.
            lines.append(f"user {pwd.getpwuid(os.geteuid()).pw_name}")
        return "\n".join(lines) + "\n"

    def start(self, timeout: float = 30.0) -> MosquittoBroker:
        """Start the broker and wait until it accepts connections."""
        workdir = self._prepare("mosquitto-")
        conf = workdir / "mosquitto.conf"
        conf.write_text(self.config())
        assert self.log_path is not None
        self._spawn([str(self.install.binary), "-c", str(conf)], self.install.env(), self.log_path,
                    timeout)  # fmt: skip
        return self

    def restart(self) -> MosquittoBroker:
        """Stop the broker (clients lose their connections) and start it again on the same port."""
        self._terminate()
        return self.start()


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m bot.servers.mosquitto``: install mosquitto and print where."""
    return install_command("mosquitto", lambda: install(quiet=False), MosquittoUnavailableError)


if __name__ == "__main__":
    raise SystemExit(main())
