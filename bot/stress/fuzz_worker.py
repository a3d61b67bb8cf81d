"""The client side of the fuzzer: worker processes that run our real client, case after case.

A fresh interpreter per case would cost a second of imports; a client in the
fuzzer's own process would take the fuzzer down with it if a mutated map made
it crash.  So each :class:`ClientWorker` is a long-lived child process
(``python -m bot.stress.fuzz_worker``) that reads one request per line on its
standard input (``{"port": ..., "seed": ..., "strategy": ...}``), plays that
game with a fresh :class:`~bot.client.shell.DaideClient` (its own search worker
included, as ``daide-mcts play`` does) and answers one JSON line: how the
client ended and its summary.  A worker that dies (a signal, a crash) or hangs
is reported for that case and replaced by a fresh one.
"""

from __future__ import annotations

import asyncio
import contextlib
import faulthandler
import json
import os
import signal
import sys
import tempfile
import time
import traceback
from dataclasses import dataclass, field
from typing import IO, Any

CLIENT_NAME = "fuzz"
"""The name our client gives in NME."""

RECONNECT_ATTEMPTS = 2
"""Reconnections before the client gives up (the replay server is gone at the end)."""

STDERR_TAIL = 2000
"""Characters of a dead worker's error output kept for the report."""


class Outcome:
    """How the client's game ended (the ``outcome`` of a :class:`ClientOutcome`)."""

    ENDED = "ended"
    """:meth:`DaideClient.run` returned."""
    GAVE_UP = "gave up"
    """It raised FatalClientError (the server went away, or refused it)."""
    RAISED = "raised"
    """It raised any other exception: the client died."""
    DIED = "died"
    """The process died (a signal, a crash)."""
    HUNG = "hung"
    """No answer in time: the process was killed."""


@dataclass
class ClientOutcome:
    """How one case's client ended, its summary, and how long it ran."""

    outcome: str
    detail: str = ""
    summary: dict[str, Any] = field(default_factory=dict)
    seconds: float = 0.0


# --- the worker process --------------------------------------------------------------------


async def play(request: dict[str, Any]) -> dict[str, Any]:
    """Play one game as the request says; the answer line's content."""
    from bot.client.settings import BotSettings
    from bot.client.shell import DaideClient, FatalClientError

    settings = BotSettings(
        host="127.0.0.1",
        port=int(request["port"]),
        name=CLIENT_NAME,
        strategy=str(request.get("strategy", "dumbbot")),
        seed=int(request.get("seed", 0)),
        reconnect_attempts=RECONNECT_ATTEMPTS,
    )
    client = DaideClient(settings)
    started = time.monotonic()
    outcome, detail = Outcome.ENDED, ""
    try:
        await client.run()
    except FatalClientError as exc:
        outcome, detail = Outcome.GAVE_UP, str(exc)
    except Exception as exc:
        outcome = Outcome.RAISED
        detail = f"{type(exc).__name__}: {exc} | " + " / ".join(
            line.strip() for line in traceback.format_tb(exc.__traceback__)[-2:]
        )
    return {
        "outcome": outcome,
        "detail": detail,
        "summary": client.summary.as_dict(),
        "seconds": round(time.monotonic() - started, 3),
    }


def main() -> int:
    """The worker's loop: a request line in, an answer line out, until standard input ends."""
    from bot.client.gamelog import configure_logging

    channel = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)  # whatever else prints goes to the error output, not into the answers
    faulthandler.enable()  # a crash leaves its Python stack in the error output
    configure_logging("critical")
    for line in sys.stdin:
        if not line.strip():
            continue
        answer = asyncio.run(play(json.loads(line)))
        channel.write(json.dumps(answer, default=str) + "\n")
    return 0


# --- the fuzzer's side ---------------------------------------------------------------------


class ClientWorker:
    """One worker process, seen from the fuzzer."""

    def __init__(self) -> None:
        self._proc: asyncio.subprocess.Process | None = None
        self._err: IO[bytes] | None = None

    async def start(self) -> None:
        """Start the process (its error output goes to a temporary file)."""
        self._err = tempfile.TemporaryFile()  # noqa: SIM115 - closed in close()
        self._proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot.stress.fuzz_worker",
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=self._err,
        )

    @property
    def alive(self) -> bool:
        """True while the process runs."""
        return self._proc is not None and self._proc.returncode is None

    async def play(self, port: int, seed: int, strategy: str, timeout: float) -> ClientOutcome:
        """Have the client play against ``127.0.0.1:port``; how it ended."""
        proc = self._proc
        assert proc is not None and proc.stdin is not None and proc.stdout is not None
        started = time.monotonic()
        request = {"port": port, "seed": seed, "strategy": strategy}
        try:
            proc.stdin.write((json.dumps(request) + "\n").encode())
            await proc.stdin.drain()
            line = await asyncio.wait_for(proc.stdout.readline(), timeout)
        except TimeoutError:
            self.kill()
            await proc.wait()
            return ClientOutcome(Outcome.HUNG, f"no answer within {timeout:.0f} s: killed")
        except (ConnectionError, OSError):
            line = b""
        if not line:
            code = await proc.wait()
            return ClientOutcome(Outcome.DIED, self._death(code), seconds=_since(started))
        answer = json.loads(line)
        return ClientOutcome(
            answer["outcome"], answer["detail"], answer["summary"], answer["seconds"]
        )

    def _death(self, code: int) -> str:
        how = f"exit status {code}"
        if code < 0:
            with contextlib.suppress(ValueError):
                how = f"killed by {signal.Signals(-code).name}"
        tail = self._stderr_tail()
        return f"{how}: {tail}" if tail else how

    def _stderr_tail(self) -> str:
        err = self._err
        if err is None:
            return ""
        err.flush()
        size = err.seek(0, os.SEEK_END)
        err.seek(max(0, size - STDERR_TAIL))
        lines = err.read().decode(errors="replace").strip().splitlines()
        # faulthandler's report: the error line, then the innermost frame of the stack.
        fatal = [i for i, line in enumerate(lines) if line.startswith("Fatal Python error")]
        if fatal:
            start = fatal[-1]
            frames = [line.strip() for line in lines[start:] if line.strip().startswith("File")]
            return " | ".join([lines[start].strip(), *frames[:1]])
        return " | ".join(line.strip() for line in lines[-3:])

    def kill(self) -> None:
        """Kill the process now (it is our own child)."""
        if self._proc is not None and self._proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self._proc.kill()

    async def close(self) -> None:
        """End the process: close its input and wait, or kill it."""
        proc = self._proc
        if proc is not None and proc.returncode is None:
            if proc.stdin is not None:
                with contextlib.suppress(Exception):
                    proc.stdin.close()
            try:
                await asyncio.wait_for(proc.wait(), 5)
            except TimeoutError:
                self.kill()
                await proc.wait()
        if self._err is not None:
            self._err.close()
            self._err = None


def _since(started: float) -> float:
    return round(time.monotonic() - started, 3)


if __name__ == "__main__":
    sys.exit(main())
