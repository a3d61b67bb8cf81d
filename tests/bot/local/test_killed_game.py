"""``kill -9`` of ``daide-mcts game`` takes its server and its seats along (checked in /proc).

The game runs as a real process with its real server (MILA's, or Parlance);
once the server and the seven seats run, the runner is killed with SIGKILL,
so it can stop nothing itself.  Every process it had started must be gone
within seconds.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.bot.proctree import Proc, cmdline, descendants, survivors

ROOT = Path(__file__).resolve().parents[3]
SEATS = 7
START_TIMEOUT = 180.0
"""Seconds the runner gets to start its server and all its seats (a busy two-core machine)."""

GRACE = 5.0
"""Seconds the orphaned processes get to go once the runner is killed."""

SERVER_COMMANDS = {"mila": "bot.servers.mila", "parlance": "parlance_deadline.py"}
"""What the command line of each kind of server holds."""


def _wait_for_processes(runner: subprocess.Popen[bytes], server: str, log: Path) -> list[Proc]:
    """The runner's descendants once its server and its seven seats all run."""
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if runner.poll() is not None:
            pytest.fail(f"the game ended before it could be killed:\n{log.read_text()[-3000:]}")
        procs = descendants(runner.pid)
        lines = [cmdline(pid) for pid, _ in procs]
        servers = [line for line in lines if SERVER_COMMANDS[server] in line]
        seats = [line for line in lines if "bot.cli play" in line]
        if servers and len(seats) == SEATS:
            return procs
        time.sleep(0.2)
    pytest.fail(f"the server and {SEATS} seats did not all start:\n{log.read_text()[-3000:]}")


@pytest.mark.parametrize(
    "server",
    [
        pytest.param("mila", marks=pytest.mark.mila),
        pytest.param("parlance", marks=pytest.mark.parlance),
    ],
)
def test_a_killed_game_leaves_no_process_behind(tmp_path: Path, server: str) -> None:
    log = tmp_path / "game.out"
    with open(log, "wb") as out:
        argv = [
            sys.executable, "-m", "bot.cli", "game", "--server", server,
            "--lineup", "random", "--fill", "random", "--final-year", "1902",
            "--mtl", "30", "--out", str(tmp_path / "run"),
        ]  # fmt: skip
        runner = subprocess.Popen(
            argv,
            cwd=ROOT,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    procs: list[Proc] = []
    try:
        procs = _wait_for_processes(runner, server, log)
    finally:
        os.kill(runner.pid, signal.SIGKILL)
        runner.wait()
    left = survivors(procs, GRACE)
    described = [f"{pid}: {cmdline(pid)}" for pid, _ in left]
    for pid, _ in left:  # leave the machine clean, then fail
        os.kill(pid, signal.SIGKILL)
    assert not described, "outlived the killed runner:\n" + "\n".join(described)
