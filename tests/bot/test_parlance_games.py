"""Whole games on a live Parlance 1.4.1 (started on 127.0.0.1 by the fixtures)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.slow


def _check_clean(summary: dict) -> None:
    assert summary["ended_cleanly"], summary
    assert summary["missed_deadlines"] == 0, summary
    assert summary["refused_orders"] == 0, summary
    assert summary["shadow_mismatches"] == 0, summary
    assert summary["shadow_checked"] >= 4, summary
    assert summary["bad_messages"] == 0, summary


def test_bot_against_six_parang_dumbbots(parlance_server, parang_bots, run_bot) -> None:
    """Our bot (its default strategy, MCTS) and six Parang dumbbots play to the final year."""
    server = parlance_server(MTL=5, RTL=2, BTL=2, draw=2)
    bot = run_bot(server.port, "--final-year", "1902", "--seed", "7")
    parang_bots(server, 6)
    summary = bot.wait(timeout=240)
    _check_clean(summary)
    assert summary["result"].startswith(("DRW", "SLO")), summary
    assert summary["smr"].startswith("SMR"), summary
    # Every submission was in before its deadline, with the safety margin kept.
    assert summary["margins"] and min(summary["margins"]) > 0, summary["margins"]
    records = bot.game_log()
    kinds = {r["kind"] for r in records}
    assert {"msg", "submit", "shadow", "summary"} <= kinds
    assert any(
        r["kind"] == "msg" and r["dir"] == "out" and r["text"].startswith("SUB") for r in records
    )


def test_seven_bots_propose_the_draw_at_the_final_year(parlance_server, run_bot) -> None:
    """Seven copies of our bot finish a game by all proposing the draw (DRW, SMR)."""
    server = parlance_server(MTL=4, RTL=2, BTL=2)
    bots = [
        run_bot(
            server.port,
            "--final-year",
            "1902",
            "--strategy",
            "dumbbot",
            "--seed",
            str(i),
            name=f"copy{i}",
        )
        for i in range(7)
    ]
    summaries = [bot.wait(timeout=240) for bot in bots]
    for summary in summaries:
        _check_clean(summary)
        assert summary["result"] == "DRW", summary
        assert summary["smr"].startswith("SMR ( ")
    assert len({s["power"] for s in summaries}) == 7
