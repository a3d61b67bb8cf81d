"""Running ``daide-mcts game`` as a person runs it, and reading what it leaves in the run folder.

Shared by the game tests (``test_game.py``) and the press games (``test_press_games.py``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]


def run_cli(
    *args: str, env: dict[str, str] | None = None, timeout: float = 300
) -> subprocess.CompletedProcess[str]:
    """Run ``daide-mcts ARGS`` to its end (fails the test after ``timeout`` seconds)."""
    try:
        return subprocess.run(
            [sys.executable, "-m", "bot.cli", *args],
            cwd=ROOT,
            env=env or {**os.environ, "PYTHONUNBUFFERED": "1"},
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired as exc:
        pytest.fail(f"daide-mcts {' '.join(args)} did not finish in {timeout:.0f}s: {exc.stdout}")


def play_game(out: Path, *args: str) -> dict:
    """Play ``daide-mcts game ARGS --out OUT`` (it must exit 0); the run's summary."""
    proc = run_cli("game", *args, "--out", str(out))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return json.loads((out / "summary.json").read_text())


def bot_records(out: Path, seat: str) -> list[dict]:
    """The records of the game log our bot on ``seat`` kept in the run folder (its only one)."""
    logs = list((out / "bots" / seat).glob("*.jsonl"))
    assert len(logs) == 1, logs
    return [json.loads(line) for line in logs[0].read_text().splitlines() if line.strip()]


def messages(records: list[dict], direction: str, start: str = "") -> list[str]:
    """The texts of the messages ``in`` or ``out`` of a game log that begin with ``start``."""
    return [
        r["text"]
        for r in records
        if r["kind"] == "msg" and r["dir"] == direction and r["text"].startswith(start)
    ]
