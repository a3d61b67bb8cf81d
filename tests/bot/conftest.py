"""Running our bot as a real process (``daide-mcts play``) against a server."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import threading
from collections import deque
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

import pytest

from bot.client.gamelog import GameLog
from bot.client.settings import load_settings
from bot.client.shell import DaideClient
from tests.bot.scripted import RunningClient, ScriptedServer

ROOT = Path(__file__).resolve().parents[2]


def _drain(stream: IO[str], sink: deque[str]) -> None:
    for line in stream:
        sink.append(line)


@dataclass
class BotProcess:
    """A ``daide-mcts play`` subprocess and where its summary and log go.

    Its output is read as it comes (the last lines kept): a bot that logs a
    lot, e.g. every bad message of a hostile server, would otherwise fill the
    pipe and block on its next log line.
    """

    proc: subprocess.Popen[str]
    summary_path: Path
    log_dir: Path
    err: deque[str] = field(default_factory=lambda: deque(maxlen=200))
    _readers: list[threading.Thread] = field(default_factory=list)

    def __post_init__(self) -> None:
        for stream, sink in ((self.proc.stdout, deque(maxlen=200)), (self.proc.stderr, self.err)):
            assert stream is not None
            reader = threading.Thread(target=_drain, args=(stream, sink), daemon=True)
            reader.start()
            self._readers.append(reader)

    def stop(self) -> None:
        """Kill the bot if it still runs, and collect the rest of its output."""
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        for reader in self._readers:
            reader.join(10)

    def wait(self, timeout: float) -> dict:
        """Wait for the bot to exit; its summary (fails the test if there is none)."""
        try:
            self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.stop()
            pytest.fail(f"the bot did not finish within {timeout:.0f}s:\n{self.err_tail()}")
        self.stop()
        if not self.summary_path.exists():
            code = self.proc.returncode
            pytest.fail(f"the bot wrote no summary (exit {code}):\n{self.err_tail()}")
        return json.loads(self.summary_path.read_text())

    def err_tail(self) -> str:
        """The end of what the bot wrote on stderr."""
        return "".join(self.err)[-3000:]

    async def wait_async(self, timeout: float) -> dict:
        """:meth:`wait` without blocking the event loop (for tests that run a proxy)."""
        return await asyncio.to_thread(self.wait, timeout)

    def game_log(self) -> list[dict]:
        """The records of the bot's JSON-lines game log."""
        files = sorted(self.log_dir.glob("*.jsonl"))
        assert files, f"no game log in {self.log_dir}"
        return [json.loads(line) for line in files[0].read_text().splitlines() if line.strip()]


@pytest.fixture
def run_bot(tmp_path: Path) -> Iterator[Callable[..., BotProcess]]:
    """A factory: ``run_bot(port, "--strategy", "dumbbot", ...)`` starts ``daide-mcts play``."""
    started: list[BotProcess] = []

    def start(port: int, *args: str, name: str = "daide-mcts") -> BotProcess:
        index = len(started)
        summary = tmp_path / f"summary-{index}.json"
        log_dir = tmp_path / f"logs-{index}"
        argv = [
            sys.executable,
            "-m",
            "bot.cli",
            "play",
            "--port",
            str(port),
            "--name",
            name,
            "--log-dir",
            str(log_dir),
            "--summary-json",
            str(summary),
            "--log-level",
            "warning",
            *args,
        ]
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        proc = subprocess.Popen(
            argv,
            cwd=ROOT,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        bot = BotProcess(proc, summary, log_dir)
        started.append(bot)
        return bot

    yield start
    for bot in started:
        bot.stop()


@pytest.fixture
async def server() -> AsyncIterator[ScriptedServer]:
    """A scripted DAIDE server on loopback (tests/bot/scripted.py)."""
    async with ScriptedServer() as scripted:
        yield scripted


@pytest.fixture
def client_strategy() -> str:
    """The strategy :func:`start_client` gives a client when the test names none."""
    return "mcts"


@pytest.fixture
def start_client(server: ScriptedServer, tmp_path: Path, client_strategy: str):
    """Start real clients against ``server``: ``start_client(strategy, **settings)``."""
    running: list[RunningClient] = []

    def start(strategy: str | None = None, **overrides: object) -> RunningClient:
        options: dict[str, object] = {"workers": 1, "seed": 7, "min_margin": 0.3, **overrides}
        settings = load_settings(port=server.port, strategy=strategy or client_strategy, **options)
        log_path = tmp_path / f"client-{len(running)}.jsonl"
        client = DaideClient(settings, GameLog(log_path))
        run = RunningClient(client, asyncio.create_task(client.run()), log_path)
        running.append(run)
        return run

    yield start
    for run in running:
        run.task.cancel()
