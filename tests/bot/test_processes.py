"""The bot's processes on a live Parlance: root-parallel search, kills, and a clean SIGTERM.

``daide-mcts play --workers 2`` runs three processes: the client, its search
worker and one root-parallel helper (the worker's child).  Killing any of them
must leave no orphan (checked from /proc), a SIGTERM must still write the
game's summary, and with two workers the server must receive the merged final
answer of each movement phase.
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest

pytestmark = [pytest.mark.slow, pytest.mark.parlance]

PROC = Path("/proc")


def _children() -> dict[int, list[int]]:
    """Every live process's children, from /proc (zombies count as gone)."""
    out: dict[int, list[int]] = {}
    for entry in PROC.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        state, ppid = stat.rsplit(")", 1)[1].split()[:2]
        if state != "Z":
            out.setdefault(int(ppid), []).append(int(entry.name))
    return out


def descendants(pid: int) -> list[int]:
    """``pid``'s live descendants."""
    tree = _children()
    found, todo = [], [pid]
    while todo:
        for child in tree.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def alive(pid: int) -> bool:
    """True while ``pid`` runs (a zombie does not)."""
    try:
        stat = (PROC / str(pid) / "stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def wait_for(predicate, timeout: float, what: str) -> None:
    until = time.monotonic() + timeout
    while time.monotonic() < until:
        if predicate():
            return
        time.sleep(0.1)
    pytest.fail(f"timed out waiting for {what}")


def _searching_bot(parlance_server, parang_bots, run_bot, *args: str):
    server = parlance_server(MTL=6, RTL=2, BTL=2, draw=2)
    bot = run_bot(server.port, "--workers", "2", "--final-year", "1902", "--seed", "5", *args)
    parang_bots(server, 6)
    # The worker starts with the bot, its helper with the first search.
    wait_for(lambda: _worker(bot.proc.pid) is not None, 60, "the worker and its helper")
    return bot


def _worker(pid: int) -> int | None:
    """The search worker: the client's child with a child of its own (the helper).

    The client's other child, if any, is multiprocessing's resource tracker.
    """
    return next((p for p in _children().get(pid, []) if descendants(p)), None)


def test_killing_the_bot_leaves_no_orphan(parlance_server, parang_bots, run_bot) -> None:
    bot = _searching_bot(parlance_server, parang_bots, run_bot)
    family = descendants(bot.proc.pid)
    os.kill(bot.proc.pid, signal.SIGKILL)
    bot.proc.wait(10)
    wait_for(lambda: not any(alive(p) for p in family), 10, f"orphans {family} to exit")


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM])
def test_killing_the_worker_leaves_no_orphan_and_the_game_goes_on(
    parlance_server, parang_bots, run_bot, sig
) -> None:
    # The worker is a fork of the client: a SIGTERM to it must stay its own,
    # not reach the client's handler through the signal descriptor they shared.
    bot = _searching_bot(parlance_server, parang_bots, run_bot)
    worker = _worker(bot.proc.pid)
    assert worker is not None
    helpers = descendants(worker)
    os.kill(worker, sig)
    wait_for(lambda: not any(alive(p) for p in helpers), 10, f"helpers {helpers} to exit")
    summary = bot.wait(timeout=240)
    assert summary["ended_cleanly"], summary
    assert summary["stopped_by"] is None, summary
    assert summary["missed_deadlines"] == 0, summary
    assert any(r["kind"] == "worker_restart" for r in bot.game_log())


def test_sigterm_stops_the_bot_cleanly_with_its_summary(
    parlance_server, parang_bots, run_bot
) -> None:
    bot = _searching_bot(parlance_server, parang_bots, run_bot)
    family = descendants(bot.proc.pid)
    bot.proc.send_signal(signal.SIGTERM)
    summary = bot.wait(timeout=30)
    assert bot.proc.returncode == 1  # stopped before the game ended
    assert summary["stopped_by"] == "SIGTERM" and not summary["ended_cleanly"], summary
    records = bot.game_log()
    assert any(r["kind"] == "summary" and r["stopped_by"] == "SIGTERM" for r in records)
    wait_for(lambda: not any(alive(p) for p in family), 10, f"{family} to exit")


def test_two_workers_put_the_merged_final_answer_in(parlance_server, parang_bots, run_bot) -> None:
    server = parlance_server(MTL=5, RTL=2, BTL=2, draw=2)
    bot = run_bot(server.port, "--workers", "2", "--final-year", "1902", "--seed", "9")
    parang_bots(server, 6)
    summary = bot.wait(timeout=240)
    assert summary["ended_cleanly"] and summary["missed_deadlines"] == 0, summary
    assert summary["searched_phases"] >= 3, summary
    # On a loaded machine a final answer may come after the last submission time (the
    # time budget then learns a longer hand-over); most must be in.
    assert summary["final_answers"] >= summary["searched_phases"] - 1, summary
    assert summary["stale_helper_answers"] == 0, summary
    records = bot.game_log()
    finals = [r for r in records if r["kind"] == "search" and r["final"]]
    assert len(finals) == summary["final_answers"]
    jobs = [r["stats"]["helper_job"] for r in finals]
    assert jobs == sorted(set(jobs)), jobs  # one helper job per phase, in order
    assert all(r["stats"]["workers"] == 2 for r in finals), [r["stats"] for r in finals]
    # Each phase's last SUB went out after its final answer arrived (or equalled it).
    for final in finals:
        answer = next(r for r in records[records.index(final) :] if r["kind"] == "final_answer")
        assert answer["submitted"], answer
