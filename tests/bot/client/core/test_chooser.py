"""The bot's choosers through the core: a heuristic's failure, a set that cannot be sent,
the search's best set at the deadline and its final answer's note."""

from __future__ import annotations

from random import Random

import pytest

from adjudicator.daide import load_position
from adjudicator.legal import move_orders
from adjudicator.orders import HOLD_ORDER, MOVE, RETREAT, EngineOrder
from adjudicator.position import Position
from bot.client.core import events as ev
from bot.client.core import notes
from bot.client.core.chooser import HeuristicChooser
from bot.client.core.core import BotCore, CoreSettings
from protocol.messages import Gof, Sub
from protocol.values import Build, Disband, Hold, Order, Retreat
from protocol.variant import Variant
from search.mcts.worker_protocol import Answer
from tests.bot.client.core.driver import Driver, job_of, noted, opening, sent

SPRING = opening()
SCO = "SCO ( FRA BRE MAR PAR ) ( GER BER KIE MUN )"
RETREAT_PHASE = load_position(
    "NOW ( SUM 1901 ) ( FRA AMY BUR ) ( GER AMY MUN ) ( FRA AMY PAR MRT ( GAS PIC ) )", SCO
)
NOWHERE = 10**6
"""A location index past any map's."""
BUILDS = load_position("NOW ( WIN 1901 ) ( FRA AMY BUR ) ( GER AMY MUN )", SCO)


def _heuristic(strategy: str = "random") -> tuple[Driver, HeuristicChooser]:
    d = Driver(core=BotCore(CoreSettings(name="h", version="1", seed=5, strategy=strategy)))
    d.join()
    chooser = d.core.player.chooser
    assert isinstance(chooser, HeuristicChooser)
    return d, chooser


def _bad_moves(pos: Position, power: int, rng: Random) -> dict[int, EngineOrder]:
    """Engine orders no order value can be made of (a heuristic's bug)."""
    return {p: ("?",) for p, u in pos.units.items() if u[0] == power}


def _bad_retreats(pos: Position, power: int, rng: Random) -> dict[int, EngineOrder]:
    """Retreats to a location the map does not have (a heuristic's bug)."""
    return {p: (RETREAT, NOWHERE) for p, d in pos.dislodged.items() if d[0] == power}


def _all(orders: tuple[Order, ...], kind: type) -> bool:
    return bool(orders) and all(isinstance(o, kind) for o in orders)


def test_a_heuristic_that_fails_in_movement_is_noted_and_its_units_hold(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    d, chooser = _heuristic()

    def fail(pos: Position, power: int, rng: Random) -> dict[int, EngineOrder]:
        raise RuntimeError("boom")

    monkeypatch.setattr(chooser.policy, "movement_orders", fail)
    out = d.show(SPRING)
    assert noted(out, notes.QuickOrdersFailed) == [notes.QuickOrdersFailed("RuntimeError('boom')")]
    assert noted(out, notes.PhaseFailed) == []
    (sub,) = sent(out, Sub)
    assert len(sub.orders) == 3 and _all(sub.orders, Hold)
    assert sent(out)[-1] == Gof()


@pytest.mark.parametrize(
    ("position", "safe"), [(SPRING, Hold), (RETREAT_PHASE, Disband)], ids=["movement", "retreat"]
)
def test_a_set_that_cannot_be_sent_is_replaced_by_the_safe_set(
    monkeypatch: pytest.MonkeyPatch, position: Position, safe: type
) -> None:
    d, chooser = _heuristic()
    monkeypatch.setattr(chooser.policy, "movement_orders", _bad_moves)
    monkeypatch.setattr(chooser.policy, "retreat_orders", _bad_retreats)
    out = d.show(position)
    assert len(noted(out, notes.PhaseFailed)) == 1
    (sub,) = sent(out, Sub)
    assert _all(sub.orders, safe)
    assert len(sub.orders) == (3 if position is SPRING else 1)


def test_the_search_bot_retreats_at_once() -> None:
    d = Driver()
    d.join()
    (sub,) = sent(d.show(RETREAT_PHASE), Sub)
    assert _all(sub.orders, Retreat)


def test_a_heuristic_bot_builds_at_once() -> None:
    d, _ = _heuristic("dumbbot")
    (sub,) = sent(d.show(BUILDS), Sub)
    assert len(sub.orders) == 2 and _all(sub.orders, Build)
    assert not noted(d.log, notes.PhaseFailed)


def _searching() -> tuple[Driver, int, dict[int, EngineOrder]]:
    """The search bot in spring; its job, and a set other than the quick one (a move)."""
    d = Driver()
    d.join(Variant.of(move_time_limit=10))
    job = job_of(d.show(SPRING)).job_id
    power = d.core.power_id
    units = sorted(p for p, u in SPRING.units.items() if u[0] == power)
    move = next(o for o in move_orders(SPRING, units[0]) if o[0] == MOVE)
    return d, job, {**dict.fromkeys(units, HOLD_ORDER), units[0]: move}


def test_the_searchs_best_set_reported_just_before_the_deadline_is_submitted_then_gof() -> None:
    d, job, best = _searching()
    submit_by = d.core.phase.clock.submit_by()
    out = d.at(submit_by - 0.9).progress(job, dict.fromkeys(best, HOLD_ORDER))
    assert len(sent(out, Sub)) == 1  # the quick set went long ago
    out = d.at(submit_by - 0.5).progress(job, best)
    assert not sent(out, Sub)  # within the resubmission interval
    out = d.at(submit_by).tick()  # still within it, but the deadline has come
    subs = sent(out, Sub)
    assert len(subs) == 1 and sum(not isinstance(o, Hold) for o in subs[0].orders) == 1
    assert sent(out)[-1] == Gof()
    assert noted(out, notes.FinalAnswer) == [notes.FinalAnswer(SPRING.turn, job, False, None)]


@pytest.mark.parametrize(("stale", "noted_stale"), [(3, 3), ("many", None)])
def test_the_final_answer_is_noted_with_its_stale_helper_answers(
    stale: object, noted_stale: int | None
) -> None:
    d, job, best = _searching()
    stats = {"iterations": 9, "stale_helper_answers": stale}
    out = d.later(1).feed(ev.SearchMessage(d.now, Answer(job, best, stats)))
    assert noted(out, notes.FinalAnswer) == [notes.FinalAnswer(SPRING.turn, job, True, noted_stale)]
    assert sent(out)[-1] == Gof()
