"""Our bot against the scripted hostile server (:mod:`bot.stress.hostile`).

The server plays a real game with our bot (its six other powers are DumbBot)
and in every movement phase sends one thing a good server never would: bad
brackets, an unknown token, bad grammar, press, an ORD for a unit we do not
have, stale and unsolicited messages, a flood of TME, a frame split by a long
pause, an oversized length, a reserved token, an RM in mid-game.  The server
checks the reaction the protocol prescribes for each (PRN, HUH with ERR, the
level-0 press answer, silence, EM and a rejoin with IAM) and that our orders
were complete before every deadline; the bot's own summary must agree.
"""

from __future__ import annotations

import asyncio

import pytest

from bot.stress.hostile import ALL_FAULTS, RECONNECTING_FAULTS, Fault, HostileServer

pytestmark = pytest.mark.slow


async def test_bot_survives_every_fault_and_keeps_playing(run_bot) -> None:
    async with HostileServer(ALL_FAULTS, deadline=6, pause=2.0, seed=5) as server:
        bot = run_bot(server.port, "--strategy", "dumbbot", "--seed", "5")
        report = await asyncio.wait_for(server.run(), timeout=300)
        summary = await bot.wait_async(timeout=60)

    outcomes = {f.fault: f for f in report.faults}
    assert set(outcomes) == set(ALL_FAULTS)
    failed = [f"{f.fault} ({f.turn}): {f.detail}" for f in report.faults if not f.passed]
    assert not failed, failed
    # Orders were complete before every deadline, the phase after each fault included.
    assert report.missed == 0, [p for p in report.phases if p.needed_orders and not p.complete]
    assert all(p.margin is not None and p.margin > 0 for p in report.phases if p.needed_orders)
    assert report.connections == 1 + len(RECONNECTING_FAULTS)

    assert summary["ended_cleanly"] and summary["result"] == "DRW", summary
    assert summary["missed_deadlines"] == 0, summary
    assert summary["refused_orders"] == 0, summary
    assert summary["shadow_mismatches"] == 0 and summary["shadow_checked"] >= 10, summary
    assert summary["reconnections"] == len(RECONNECTING_FAULTS), summary
    assert summary["wire_errors"] == len(RECONNECTING_FAULTS), summary
    # Four messages did not parse (bracket, unknown token, grammar, the proposal nested
    # past the language's cap); stale NOW, the unsolicited THX and MIS and the ORD for a
    # unit we do not have were ignored. The 49 KB proposal and the flood were read.
    assert summary["bad_messages"] == 4, summary
    assert summary["ignored_messages"] >= 4, summary


async def test_a_phase_after_a_fault_still_gets_orders(run_bot) -> None:
    """Two faults back to back, then a clean phase: orders for every phase, no rejoin needed."""
    faults = [Fault.TME_FLOOD, Fault.PRESS]
    async with HostileServer(faults, deadline=6, min_movement_phases=3, seed=9) as server:
        bot = run_bot(server.port, "--strategy", "dumbbot", "--seed", "9")
        report = await asyncio.wait_for(server.run(), timeout=180)
        summary = await bot.wait_async(timeout=60)
    assert report.all_passed, report.as_dict()
    movement = [p for p in report.phases if p.turn.startswith(("SPR", "FAL"))]
    assert len(movement) == 3 and all(p.complete for p in movement)
    assert summary["reconnections"] == 0 and summary["ended_cleanly"], summary
