"""A person's hint with the search's ranked sets and each unit's spread, through the core."""

from __future__ import annotations

from adjudicator.legal import move_orders
from adjudicator.orders import HOLD_ORDER, MOVE
from bot.client.core import events as ev
from bot.client.core import notes
from bot.client.core.core import BotCore, CoreSettings
from protocol.variant import Variant
from search.mcts.root_summary import RANKED_SETS, OrderShare, RankedSet, RootSummary
from search.mcts.worker_protocol import Answer
from tests.bot.client.core.driver import Driver, job_of, noted, opening, sent

SPRING = opening()


def _person() -> Driver:
    core = BotCore(CoreSettings(name="person", version="1", seed=3, chooser="person"))
    d = Driver(core=core)
    d.join(Variant.of(move_time_limit=60))
    return d


def test_a_hint_asks_for_ranked_sets_and_notes_them_in_daide_text() -> None:
    d = _person()
    d.show(SPRING)
    job = job_of(d.feed(ev.HintRequested(d.now, SPRING.turn, 2.0)))
    assert job.ranked == RANKED_SETS
    power = d.core.power_id
    units = sorted(p for p, u in SPRING.units.items() if u[0] == power)
    first = units[0]
    move = next(o for o in move_orders(SPRING, first) if o[0] == MOVE)
    best = {p: HOLD_ORDER for p in units}
    second = {**best, first: move}
    summary = RootSummary(
        sets=(RankedSet(best, 0.4, 6, 0.6), RankedSet(second, 0.3, 4, 0.4)),
        spread={
            first: (OrderShare(HOLD_ORDER, 0.6, 0.4), OrderShare(move, 0.4, 0.3)),
            **{p: (OrderShare(HOLD_ORDER, 1.0, 0.36),) for p in units[1:]},
        },
        visits=10,
    )
    message = Answer(job.job_id, best, {"iterations": 10, "ranked": summary})
    out = d.later(2).feed(ev.SearchMessage(d.now, message))
    assert not sent(out)
    (hint,) = noted(out, notes.HintReady)
    assert "ranked" not in hint.stats and hint.stats["iterations"] == 10
    assert [(s.value, s.visits, s.share) for s in hint.sets] == [(0.4, 6, 0.6), (0.3, 4, 0.4)]
    assert hint.sets[0].orders == hint.orders
    assert all(o.endswith(") HLD") for o in hint.sets[0].orders)
    assert len(hint.spread) == len(units)
    assert [s.share for s in hint.spread[0]] == [0.6, 0.4]
    assert [s.value for s in hint.spread[0]] == [0.4, 0.3]
    assert hint.spread[0][0].order == hint.orders[0]
    assert hint.spread[0][1].order in hint.sets[1].orders
    assert " MTO " in hint.spread[0][1].order


def test_a_hint_without_a_tree_has_no_ranked_sets() -> None:
    d = _person()
    d.show(SPRING)
    job = job_of(d.feed(ev.HintRequested(d.now, SPRING.turn, 2.0)))
    (hint,) = noted(d.later(2).answer(job.job_id, {}), notes.HintReady)
    assert hint.sets == () and hint.spread == ()
