"""``daide-mcts tournament --ray`` on a real two-node Ray cluster on loopback.

A node running another daide-mcts is refused; a hung game is stopped, played
again once, then reported; and a worker node killed in the middle of a game
still leaves every game of the tournament played exactly once.
"""

from __future__ import annotations

import csv
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

import bot
from bot.servers.ray import RayNode, process_tree
from bot.tournament.saved import GAME_FILE, game_folder

pytestmark = pytest.mark.ray

ROOT = Path(__file__).resolve().parents[3]
POWERS = {"AUS", "ENG", "FRA", "GER", "ITA", "RUS", "TUR"}
SHORT = ["--lineup", "dumbbot,random", "--mtl", "2", "--rtl", "1", "--btl", "1", "--seed", "5"]


def _tournament(cwd: Path, *args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """Run the command in ``cwd``: Ray puts the driver's folder first on its workers' path."""
    return subprocess.run(
        [sys.executable, "-m", "bot.cli", "tournament", *args],
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def _other_build(tmp_path: Path) -> Path:
    """A copy of the bots' source with one change: what an out-of-date node would run."""
    copy = tmp_path / "other-build"
    for package in ("protocol", "adjudicator", "search", "bot"):
        shutil.copytree(
            ROOT / package, copy / package, ignore=shutil.ignore_patterns("__pycache__")
        )
    changed = copy / "search" / "dumbbot.py"
    changed.write_text(changed.read_text() + "\n# a change this node was not given\n")
    return copy


def _client_server_logs(head: RayNode) -> str:
    """The tails of the head's Ray client server logs (why a ``ray://`` driver was refused)."""
    tails = []
    for log in sorted(head.temp_dir.glob("session_*/logs/ray_client_server*.err")):
        lines = log.read_text(errors="replace").splitlines()
        tails.append(f"--- {log.name}\n" + "\n".join(lines[-20:]))
    return "\n".join(tails)


def test_a_node_with_another_daide_mcts_is_refused(
    ray_head: RayNode, ray_worker: Callable[..., RayNode], tmp_path: Path
) -> None:
    other = ray_worker(env={"PYTHONPATH": str(_other_build(tmp_path))})
    # Each game asks for two CPUs, more than the one node left: nothing is played.
    run = _tournament(
        tmp_path, "--ray", ray_head.address, "--games", "1", "--cpus-per-game", "2",
        *SHORT, "--final-year", "1901", "--out", str(tmp_path / "t"),
    )  # fmt: skip
    assert run.returncode == 2, run.stdout + run.stderr
    refusal = f"node {other.host} ({os.uname().nodename}) refused: daide-mcts code "
    assert refusal in run.stdout, run.stdout
    assert (
        f"(both {bot.__version__}; the sources or the dependencies' versions differ); "
        "install the same daide-mcts on every node" in run.stdout
    ), run.stdout
    assert "each game reserves 2 CPUs (--cpus-per-game) and no accepted node" in run.stderr


def test_a_hung_game_is_stopped_played_again_once_then_reported(
    ray_head: RayNode, tmp_path: Path
) -> None:
    out = tmp_path / "t"
    run = _tournament(
        tmp_path, "--ray", f"ray://{ray_head.host}:{ray_head.client_port}", "--games", "1",
        "--watchdog", "3", *SHORT, "--final-year", "1903", "--out", str(out),
    )  # fmt: skip
    assert run.returncode == 1, run.stdout + run.stderr + _client_server_logs(ray_head)
    assert "game 1 on 127.0.0.2 (" in run.stdout and "; playing it again" in run.stdout
    assert "still running after the watchdog's 3s; stopped" in run.stdout, run.stdout
    assert "game 1 failed: hung twice" in run.stdout
    kept = game_folder(out, 0)
    assert (kept / "node.log").exists() and not (kept / GAME_FILE).exists()


def _plays_a_game(node: RayNode) -> bool:
    """True when a bot of ours runs in the node's process tree (a game is under way there)."""
    assert node._proc is not None
    for pid in process_tree(node._proc.pid):
        try:
            argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"play" in argv and b"--strategy" in argv:
            return True
    return False


@pytest.mark.slow
def test_a_worker_node_lost_mid_game_still_plays_every_game_exactly_once(
    ray_head: RayNode, ray_worker: Callable[..., RayNode], tmp_path: Path
) -> None:
    worker = ray_worker()
    out = tmp_path / "t"
    games = 4
    proc = subprocess.Popen(
        [
            sys.executable, "-m", "bot.cli", "tournament", "--ray", ray_head.address,
            "--games", str(games), *SHORT, "--final-year", "1902", "--out", str(out),
        ],
        cwd=tmp_path,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 120
        while not _plays_a_game(worker):
            assert proc.poll() is None, f"the tournament ended early: {proc.communicate()[0]}"
            assert time.monotonic() < deadline, "no game ever started on the worker node"
            time.sleep(0.1)
        worker.kill()
        output, _ = proc.communicate(timeout=300)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 0, output
    assert "lost mid-game" in output and "playing it again" in output, output
    assert f"{games} of {games} games finished" in output

    folders = sorted(p.name for p in (out / "games").iterdir())
    assert folders == [f"game-{k:03d}" for k in range(1, games + 1)], folders
    nodes = set()
    for k in range(games):
        data = json.loads((game_folder(out, k) / GAME_FILE).read_text())
        assert data["index"] == k and set(data["record"]["powers"]) == POWERS
        nodes.add(data["node"]["address"])
    assert ray_head.host in nodes
    results = json.loads((out / "results.json").read_text())
    assert results["games_finished"] == games
    assert sorted(g["index"] for g in results["games"]) == list(range(games))
    with open(out / "results.csv") as fh:
        rows = list(csv.DictReader(fh))
    assert sorted({int(r["game"]) for r in rows}) == list(range(1, games + 1)) and len(rows) == 28
    with open(out / "summary.csv") as fh:
        summary = {(r["group"], r["name"]): int(r["games"]) for r in csv.DictReader(fh)}
    expected = {("label", "dumbbot"): 6 * games, ("label", "random"): games}
    expected |= {("seat", f"dumbbot-{i}"): games for i in range(1, 7)}
    expected |= {("seat", "random"): games} | {("power", p): games for p in POWERS}
    assert summary == expected


@pytest.mark.slow
def test_an_interrupted_cluster_tournament_stops_its_games_and_resumes(
    ray_head: RayNode, tmp_path: Path
) -> None:
    out = tmp_path / "t"
    argv = ["--ray", ray_head.address, *SHORT, "--final-year", "1902", "--out", str(out)]
    proc = subprocess.Popen(
        [sys.executable, "-m", "bot.cli", "tournament", "--games", "2", *argv],
        cwd=tmp_path,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        deadline = time.monotonic() + 120
        while not _plays_a_game(ray_head):
            assert proc.poll() is None, f"the tournament ended early: {proc.communicate()[0]}"
            assert time.monotonic() < deadline, "no game ever started"
            time.sleep(0.1)
        proc.send_signal(signal.SIGTERM)
        output, _ = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 130, output
    deadline = time.monotonic() + 60
    while _plays_a_game(ray_head):  # the cancelled task's game goes down with it
        assert time.monotonic() < deadline, "the interrupted game's bots are still running"
        time.sleep(0.2)

    run = _tournament(tmp_path, *argv)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "2 of 2 games finished" in run.stdout
    assert sorted(p.name for p in (out / "games").iterdir()) == ["game-001", "game-002"]
