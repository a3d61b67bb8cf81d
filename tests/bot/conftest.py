"""Running our bot as a real process (``daide-mcts play``) against a server."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class BotProcess:
    """A ``daide-mcts play`` subprocess and where its summary and log go."""

    proc: subprocess.Popen[str]
    summary_path: Path
    log_dir: Path

    def wait(self, timeout: float) -> dict:
        """Wait for the bot to exit; its summary (fails the test if there is none)."""
        try:
            self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            _out, err = self.proc.communicate()
            pytest.fail(f"the bot did not finish within {timeout:.0f}s:\n{err[-3000:]}")
        _out, err = self.proc.communicate()
        if not self.summary_path.exists():
            pytest.fail(f"the bot wrote no summary (exit {self.proc.returncode}):\n{err[-3000:]}")
        return json.loads(self.summary_path.read_text())

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
        if bot.proc.poll() is None:
            bot.proc.kill()
            bot.proc.communicate()
