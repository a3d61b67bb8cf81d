"""The short (CI) version of ``daide-mcts stress``: every scenario, a few phases each.

The command starts its own Parlance servers, proxies, hostile server and bot
processes; this test runs it as a user would and checks the figures it saved.
The full version (docs/stress.md) plays five years per scenario with
the default strategy; its figures are in BENCHMARKS.md.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bot.stress.hostile import ALL_FAULTS
from bot.stress.scenarios import DEFAULT_SET

ROOT = Path(__file__).resolve().parents[3]
DAIDE_MCTS = Path(sys.executable).parent / "daide-mcts"
"""The installed console command, as a user runs it."""
pytestmark = pytest.mark.slow


def _stress(tmp_path: Path, *args: str, timeout: float = 900) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(DAIDE_MCTS), "stress", "--out", str(tmp_path / "runs"), *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def test_short_stress_run_passes_every_scenario(tmp_path: Path) -> None:
    json_path = tmp_path / "stress.json"
    names = [*DEFAULT_SET, "long-game"]
    args = ["--short", "--strategy", "dumbbot", "--json", str(json_path)]
    for name in names:
        args += ["--scenario", name]
    done = _stress(tmp_path, *args)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "margin min" in done.stdout and "peak memory per game year" in done.stdout
    document = json.loads(json_path.read_text())
    scenarios = {s["name"]: s for s in document["scenarios"]}
    assert list(scenarios) == names
    for name, s in scenarios.items():
        assert s["passed"] and not s["problems"], (name, s["problems"])
        a = s["aggregate"]
        assert a["missed_orders"] == 0, name
        assert a["server_margins"]["count"] > 0 and a["server_margins"]["min"] > 0, (name, a)
        assert a["cpu_share"]["max"] is not None and a["cpu_share"]["max"] > 0, name
        assert a["peak_mb"]["max"] is not None and a["peak_mb"]["max"] > 10, name
        assert all(b["ended_cleanly"] for b in s["bots"]), name
    assert len(scenarios["contention-2"]["bots"]) == 7
    dropped = scenarios["dropped-connection"]
    assert dropped["cuts"] == 1 and dropped["aggregate"]["reconnections"] >= 1
    hostile = scenarios["hostile"]
    assert [f["fault"] for f in hostile["faults"]] == [str(f) for f in ALL_FAULTS]
    assert all(f["passed"] for f in hostile["faults"])
    long_game = scenarios["long-game"]
    # The draw is offered from WIN 1903; a phase that completes before every offer is in
    # carries the game into 1904.
    assert list(long_game["yearly_peak_mb"])[:3] == ["1901", "1902", "1903"]


def test_bad_flags_are_one_line_errors(tmp_path: Path) -> None:
    done = _stress(tmp_path, "--strategy", "nonsense", timeout=60)
    assert done.returncode == 2
    assert "unknown player 'nonsense'" in done.stderr and "Traceback" not in done.stderr
    done = _stress(tmp_path, "--final-year", "1800", "--strategy", "dumbbot", timeout=60)
    assert done.returncode == 2 and "--final-year" in done.stderr
    done = _stress(tmp_path, "--scenario", "nowhere", timeout=60)
    assert done.returncode == 2 and "invalid choice" in done.stderr
