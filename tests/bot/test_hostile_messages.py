"""One message that contradicts the game is ignored, and never costs a later phase.

A scripted peer plays the server's side of a game and sends, mid-game, one
message a real server never sends: a SCO that gives a centre to two powers, a
NOW decades ahead, a REJ for an IAM the bot never sent, an HLO for another
power, a wrong NOW for a phase followed by the right one, a MIS for a unit the
bot does not have.  The bot must log and count it (by kind) and go on playing
every later phase with complete, legal orders for its own units.
"""

from __future__ import annotations

import asyncio

import pytest

from adjudicator.movement import next_position
from adjudicator.position import Position
from protocol.messages import (
    Gof,
    Hlo,
    Iam,
    Lod,
    Mis,
    Nme,
    Now,
    Ord,
    Rej,
    Sco,
    Sub,
    Tme,
    Yes,
)
from protocol.values import (
    Hold,
    Location,
    OrderResult,
    Season,
    Turn,
    Unit,
    UnitPosition,
    UnitType,
)
from protocol.variant import Variant
from tests.bot.scripted import PASSCODE, Link, opening

VARIANT = Variant.of(move_time_limit=6)


@pytest.fixture
def client_strategy() -> str:
    return "dumbbot"


def _fall() -> Position:
    """Fall 1901 after a spring in which everyone held."""
    return next_position(opening(), {})


def _now(pos: Position) -> Now:
    return Now(pos.turn, pos.unit_positions())


def _units_of(pos: Position, power: str = "FRA") -> set[Unit]:
    return {u.unit for u in pos.unit_positions() if u.unit.power == power}


def _ordered(sub: Sub) -> set[Unit]:
    return {o.unit for o in sub.orders}


async def _spring(link: Link) -> None:
    """Join as France and play the spring to its GOF."""
    await link.join(VARIANT)
    link.show(opening())
    await link.expect(Gof)


async def _plays_the_fall(link: Link) -> Sub:
    """The fall is shown (NOW only: SCO is unchanged after a spring); its last SUB before GOF."""
    fall = _fall()
    link.send(_now(fall))
    sub = await link.expect(Sub, where=lambda m: _ordered(m) == _units_of(fall))
    await link.expect(Gof)
    return sub


async def test_a_sco_that_gives_a_centre_twice_is_not_stored(server, start_client):
    run = start_client()
    link = await server.connection()
    await _spring(link)
    link.send(Sco((("FRA", ("PAR", "PAR", "BRE", "MAR")), ("UNO", ("ANK",)))))
    await _plays_the_fall(link)
    summary = await run.finish(link)
    assert summary.ignored_by_kind == {"SCO": 1}, summary.ignored_by_kind
    assert summary.ignored_messages == 1
    ignored = [r for r in run.records() if r["kind"] == "ignored"]
    assert len(ignored) == 1 and "PAR is listed twice" in ignored[0]["reason"], ignored


async def test_a_now_decades_ahead_does_not_make_later_ones_stale(server, start_client):
    run = start_client()
    link = await server.connection()
    await _spring(link)
    link.send(Now(Turn(Season.SPRING, 8000), ()))
    await _plays_the_fall(link)
    summary = await run.finish(link)
    assert summary.ignored_by_kind == {"NOW": 1}, summary.ignored_by_kind
    assert summary.phases_played == 2


async def test_a_rej_for_an_iam_never_sent_changes_nothing(server, start_client):
    run = start_client()
    link = await server.connection()
    await _spring(link)
    link.send(Rej(Iam("FRA", 1234)))
    await _plays_the_fall(link)
    assert not [r.message for r in link.received if isinstance(r.message, Nme | Iam)][1:]
    summary = await run.finish(link)
    assert (summary.power, summary.passcode) == ("FRA", PASSCODE)
    assert summary.ignored_by_kind == {"REJ": 1}, summary.ignored_by_kind


async def test_a_yes_for_an_iam_never_sent_changes_nothing(server, start_client):
    run = start_client()
    link = await server.connection()
    await _spring(link)
    link.send(Yes(Iam("FRA", PASSCODE)))  # would make the bot ask for HLO, SCO, NOW, TME
    await _plays_the_fall(link)
    asked = [r.message for r in link.received if isinstance(r.message, Hlo | Now | Sco)]
    assert asked == [], asked
    summary = await run.finish(link)
    assert summary.ignored_by_kind == {"YES": 1}, summary.ignored_by_kind


async def test_a_second_hlo_for_another_power_is_ignored(server, start_client):
    run = start_client()
    link = await server.connection()
    await _spring(link)
    link.send(Hlo("ENG", 999, VARIANT))
    sub = await _plays_the_fall(link)
    assert {u.power for u in _ordered(sub)} == {"FRA"}
    summary = await run.finish(link)
    assert (summary.power, summary.passcode) == ("FRA", PASSCODE)
    assert summary.ignored_by_kind == {"HLO": 1}, summary.ignored_by_kind


async def test_the_right_now_after_a_wrong_one_for_the_same_phase_is_played(server, start_client):
    run = start_client()
    link = await server.connection()
    await _spring(link)
    fall = _fall()
    lost = next(u for u in fall.unit_positions() if u.unit.power == "FRA")
    wrong = Now(fall.turn, tuple(u for u in fall.unit_positions() if u != lost))
    link.send(wrong)
    await link.expect(Sub)  # the bot starts on the wrong position...
    link.send(_now(fall))  # ...and the server's next NOW puts it right
    sub = await link.expect(Sub, where=lambda m: _ordered(m) == _units_of(fall))
    await link.expect(Gof)
    assert len(sub.orders) == 3
    summary = await run.finish(link)
    assert summary.phases_played == 2, summary
    # The server's latest NOW is the phase: neither NOW was an error.
    assert summary.ignored_by_kind == {}, summary.ignored_by_kind
    fall_orders = [r["orders"] for r in run.records() if r["kind"] == "orders"][-1]
    assert len(fall_orders) == 3, fall_orders  # the phase ended on the right position
    assert any(r["kind"] == "phase_restated" for r in run.records())


async def test_a_replayed_now_of_a_phase_already_reported_is_ignored(server, start_client):
    run = start_client()
    link = await server.connection()
    spring = opening()
    await _spring(link)
    for up in spring.unit_positions():  # the server reports the spring...
        link.send(Ord(OrderResult(spring.turn, Hold(up.unit), ("SUC",))))
    await _plays_the_fall(link)  # ...and moves on to the fall
    link.send(_now(spring))  # a stale replay of the spring
    late = [m for m in await link.quiet(1.5) if isinstance(m, Sub)]
    assert late == [], late
    summary = await run.finish(link)
    assert summary.ignored_by_kind == {"NOW": 1}, summary.ignored_by_kind


async def test_a_mis_for_a_unit_we_do_not_have_is_not_answered(server, start_client):
    run = start_client()
    link = await server.connection()
    await link.join(Variant.of(move_time_limit=10))
    link.show(opening())
    await link.expect(Gof)
    ghost = Unit("FRA", UnitType.FLEET, Location("NAO"))
    real = next(iter(_units_of(opening())))
    link.send(Mis((UnitPosition(ghost),)))
    answers = [m for m in await link.quiet(1.0) if isinstance(m, Sub)]
    assert answers == [], answers
    link.send(Mis((UnitPosition(ghost), UnitPosition(real))))  # one real unit: answered
    # (the bot has ordered every real unit, so nothing is missing: still no SUB)
    answers = [m for m in await link.quiet(1.0) if isinstance(m, Sub)]
    assert answers == [], answers
    summary = await run.finish(link)
    assert summary.ignored_by_kind == {"MIS": 2}, summary.ignored_by_kind


async def test_a_tme_beyond_the_phase_limit_does_not_put_the_deadline_off(server, start_client):
    run = start_client(strategy="mcts")
    link = await server.connection()
    await link.join(Variant.of(move_time_limit=3))
    link.show(opening())
    await link.expect(Sub)
    told = asyncio.get_running_loop().time()
    link.send(Tme(8000))  # a deadline two hours away in a phase of three seconds
    await link.expect(Gof, timeout=10)
    took = asyncio.get_running_loop().time() - told
    assert took < 3.0, f"the last orders came {took:.2f} s later, in a phase of 3 s"
    summary = await run.finish(link)
    assert summary.ignored_by_kind == {"TME": 1}, summary.ignored_by_kind


async def test_a_refused_iam_while_playing_does_not_make_the_bot_start_again(server, start_client):
    run = start_client()
    link = await server.connection()
    await _spring(link)
    link.send(Lod("game"))  # the bot answers a LOD with IAM...
    iam = await link.expect(Iam)
    link.send(Rej(iam))  # ...which is refused: it is already playing
    await _plays_the_fall(link)
    assert not [r.message for r in link.received if isinstance(r.message, Nme)][1:]
    summary = await run.finish(link)
    assert (summary.power, summary.passcode) == ("FRA", PASSCODE)
    assert summary.ignored_by_kind == {}, summary.ignored_by_kind
