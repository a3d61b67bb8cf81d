"""A person's seat, note by note: each names its phase, and what the person is told is exact."""

from __future__ import annotations

import pytest

from adjudicator.daide import load_position
from bot.client.core import events as ev
from bot.client.core import notes
from bot.client.core.core import BotCore, CoreSettings
from bot.client.core.person import PersonOrderError, PhaseInPlay, legal_choices
from protocol.messages import Gof, Not
from protocol.notation import parse_order
from protocol.variant import Variant
from search.mcts.worker_protocol import Failed
from tests.bot.client.core.driver import Driver, job_of, noted, opening, sent

SPRING = opening()
RETREAT = load_position(
    "NOW ( SUM 1901 ) ( FRA AMY BUR ) ( FRA FLT BRE ) ( GER AMY MUN ) "
    "( FRA AMY PAR MRT ( GAS PIC ) )",
    "SCO ( FRA BRE MAR PAR ) ( GER BER KIE MUN )",
)
QUIET_WINTER = load_position(
    "NOW ( WIN 1901 ) ( FRA AMY BUR ) ( FRA FLT BRE ) ( FRA AMY PAR ) ( GER AMY MUN )",
    "SCO ( FRA BRE MAR PAR ) ( GER BER KIE MUN )",
)


def person(iterations: int | None = None) -> Driver:
    settings = CoreSettings(
        name="person", version="1", seed=3, chooser="person", iterations=iterations
    )
    d = Driver(core=BotCore(settings))
    d.join(Variant.of(move_time_limit=60))
    return d


def test_readiness_is_noted_with_its_phase() -> None:
    d = person()
    d.show(SPRING)
    out = d.feed(ev.PersonReady(d.now, SPRING.turn, True))
    assert sent(out) == [Gof()]
    assert noted(out, notes.PersonReadySet) == [notes.PersonReadySet(SPRING.turn, True)]
    out = d.feed(ev.PersonReady(d.now, SPRING.turn, False))
    assert sent(out) == [Not(Gof())]
    assert noted(out, notes.PersonReadySet) == [notes.PersonReadySet(SPRING.turn, False)]


def test_readiness_outside_movement_sends_nothing_and_notes_where_it_stands() -> None:
    d = person()
    d.show(SPRING)
    d.show(RETREAT)
    out = d.feed(ev.PersonReady(d.now, RETREAT.turn, True))
    assert sent(out) == []
    assert noted(out, notes.PersonReadySet) == [notes.PersonReadySet(RETREAT.turn, False)]


def test_a_bots_seat_refuses_a_persons_orders_naming_the_phase() -> None:
    d = Driver(core=BotCore(CoreSettings(name="bot", version="1", seed=3, strategy="dumbbot")))
    d.join(Variant.of(move_time_limit=60))
    d.show(SPRING)
    out = d.feed(ev.PersonReady(d.now, SPRING.turn, True))
    assert noted(out, notes.PersonOrdersRefused) == [
        notes.PersonOrdersRefused(SPRING.turn, "this seat is not a person's")
    ]
    out = d.feed(ev.PersonOrders(d.now, SPRING.turn, (parse_order("(FRA AMY PAR) HLD"),)))
    assert noted(out, notes.PersonOrdersRefused) == [
        notes.PersonOrdersRefused(SPRING.turn, "this seat is not a person's")
    ]


def test_a_hint_with_nothing_to_order_says_so_for_its_phase() -> None:
    d = person()
    d.show(SPRING)
    d.show(QUIET_WINTER)
    out = d.feed(ev.HintRequested(d.now, QUIET_WINTER.turn, 3.0))
    assert noted(out, notes.HintFailed) == [
        notes.HintFailed(QUIET_WINTER.turn, "nothing to order in this phase")
    ]


def test_a_retreat_hint_is_the_bots_retreat_in_text_for_its_phase() -> None:
    d = person()
    d.show(SPRING)
    d.show(RETREAT)
    out = d.feed(ev.HintRequested(d.now, RETREAT.turn, 3.0))
    (hint,) = noted(out, notes.HintReady)
    assert hint.turn == RETREAT.turn
    assert hint.stats == {}
    assert len(hint.orders) == 1
    assert hint.orders[0].startswith("( FRA AMY PAR ) ")
    assert hint.orders[0].split()[5] in ("RTO", "DSB")


def test_a_movement_hint_is_searched_with_the_iterations_asked_and_answered_for_its_phase() -> None:
    d = person(iterations=123)
    d.show(SPRING)
    job = job_of(d.feed(ev.HintRequested(d.now, SPRING.turn, 3.0)))
    assert job.limit.iterations == 123
    out = d.later(3).answer(job.job_id, {})
    (hint,) = noted(out, notes.HintReady)
    assert hint.turn == SPRING.turn
    assert hint.stats == {"iterations": 2}


def test_a_failed_hint_names_its_phase() -> None:
    d = person()
    d.show(SPRING)
    job = job_of(d.feed(ev.HintRequested(d.now, SPRING.turn, 3.0))).job_id
    out = d.feed(ev.SearchMessage(d.now, Failed(job, "boom")))
    assert noted(out, notes.HintFailed) == [notes.HintFailed(SPRING.turn, "boom")]


def test_an_unavailable_search_for_another_job_changes_nothing() -> None:
    d = person()
    d.show(SPRING)
    job = job_of(d.feed(ev.HintRequested(d.now, SPRING.turn, 3.0))).job_id
    out = d.feed(ev.SearchUnavailable(d.now, job + 1, "no worker"))
    assert noted(out, notes.HintFailed) == [] and noted(out, notes.SearchUnavailable) == []
    out = d.feed(ev.SearchUnavailable(d.now, job, "no worker"))
    assert noted(out, notes.HintFailed) == [notes.HintFailed(SPRING.turn, "no worker")]


def test_an_unavailable_search_of_a_bots_phase_is_noted_with_its_job() -> None:
    d = Driver()
    d.join()
    job = job_of(d.show(SPRING)).job_id
    out = d.feed(ev.SearchUnavailable(d.now, job, "no worker"))
    assert noted(out, notes.SearchUnavailable) == [
        notes.SearchUnavailable(SPRING.turn, job, "no worker")
    ]


def test_the_phase_in_play_without_a_deadline_or_a_power() -> None:
    phase = PhaseInPlay(SPRING.turn, SPRING, None, None)
    assert phase.seconds_left(100.0) is None
    with pytest.raises(PersonOrderError, match=r"^no power is ours yet$"):
        phase.choices()
    timed = PhaseInPlay(SPRING.turn, SPRING, "FRA", 130.0)
    assert timed.seconds_left(100.0) == pytest.approx(30.0)


def test_an_order_for_a_unit_with_nothing_to_order_or_not_legal_is_refused_in_words() -> None:
    choices = legal_choices(SPRING, "FRA")
    with pytest.raises(PersonOrderError, match=r"^nothing to order for GAS in this phase$"):
        choices.resolve(parse_order("(FRA AMY GAS) HLD"))
    with pytest.raises(PersonOrderError, match=r"^this order is not legal here$"):
        choices.resolve(parse_order("(FRA AMY PAR) MTO MUN"))
