"""A whole game on MILA's DAIDE server (``diplomacy`` 1.1.2, started by the fixture).

MILA has no bots of its own, so the seven seats are seven copies of ours.
MILA tells each power only its own ORD lines, so no single bot can
shadow-check a phase (each counts them as skipped); the test rebuilds every
phase from the seven game logs and shadow-adjudicates the whole game, judging
ORD results as MILA reports them (success or failure).  docs/servers.md
lists what else MILA does differently.
"""

from __future__ import annotations

import json

import pytest

from adjudicator.rules import CivilDisorderRule
from tests.bot.client.core.replay import replay_shadow

pytestmark = [pytest.mark.slow, pytest.mark.mila]


def test_seven_bots_play_to_the_final_year_on_mila(mila_server, run_bot) -> None:
    server = mila_server(deadline=6)
    bots = [
        run_bot(
            server.port,
            "--final-year",
            "1903",
            *(() if i == 0 else ("--strategy", "dumbbot")),  # seat 0: the default, MCTS
            "--seed",
            str(i),
            name=f"seat{i}",
        )
        for i in range(7)
    ]
    summaries = [bot.wait(timeout=400) for bot in bots]
    streams = [
        [r["text"] for r in bot.game_log() if r["kind"] == "msg" and r["dir"] == "in"]
        for bot in bots
    ]
    for seen, summary in zip(streams, summaries, strict=True):
        assert summary["ended_cleanly"], summary
        # The draw is offered in the winter of 1903; MILA skips a winter without builds or
        # removals, and then the first phase after 1903 is where the game ends.
        winter = any(text.startswith("NOW ( WIN 1903 )") for text in seen)
        end = "SMR ( WIN 1903 )" if winter else "SMR ( SPR 1904 )"
        assert summary["smr"] and summary["smr"].startswith(end), summary
        assert summary["missed_deadlines"] == 0, summary
        assert summary["refused_orders"] == 0, summary
        # (ignored_messages may count MILA's MIS for builds, which does not count waives.)
        assert summary["bad_messages"] == 0, summary
        assert summary["shadow_mismatches"] == 0, summary
        # Only the phases that involved no other power's units can be checked by one bot.
        assert summary["shadow_skipped"] >= 6, summary
        assert summary["margins"] and min(summary["margins"]) > 0, summary
    assert len({s["power"] for s in summaries}) == 7

    replay = replay_shadow(streams, coarse_results=True, rule=CivilDisorderRule.DATC)
    problems = [(str(r.turn), r.differences) for r in replay.reports if not r.ok]
    assert replay.mismatches == 0, json.dumps(problems, indent=1, default=str)
    # At least every movement phase to 1903 is checked (how many retreats and winters
    # there are depends on the game).
    assert replay.checked >= 6 and replay.skipped <= 1, replay
