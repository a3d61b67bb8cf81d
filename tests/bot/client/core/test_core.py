"""The client's rules without a server: scripted event sequences in, actions out.

Each test plays one situation at chosen times (a cut in the middle of a
search, a MIS after a refusal, a TME moving the deadline either way, a phase
the server ends early, a NOW repeated) and checks what the core asks the
shell to send and to do, and when.
"""

from __future__ import annotations

from adjudicator.movement import next_position
from adjudicator.orders import HOLD_ORDER
from bot.client.core import notes
from bot.client.core.chooser import RESUBMIT_INTERVAL
from bot.client.core.core import BotCore, CoreSettings
from bot.client.core.effects import CancelSearch, Disconnect, RetimeSearch, ScheduleTick
from protocol.messages import (
    Drw,
    Gof,
    Hlo,
    Iam,
    Mis,
    Nme,
    Not,
    Now,
    Off,
    Rej,
    Sco,
    Slo,
    Smr,
    Sub,
    Thx,
    Tme,
    Yes,
)
from protocol.values import Hold, UnitPosition
from protocol.variant import Variant
from tests.bot.client.core.driver import PASSCODE, Driver, job_of, noted, of, opening, sent

GAME_ACTIONS = (Sub, Gof, Not, Drw)


def _units(pos, power: int = 1) -> dict[int, object]:
    return {p for p, u in pos.units.items() if u[0] == power}


def _playing(variant: Variant | None = None) -> tuple[Driver, list]:
    """A driver joined as France and shown the opening; the actions of the opening's NOW."""
    d = Driver()
    d.join(variant or Variant.of(move_time_limit=10))
    return d, d.show(opening())


def _fra(d: Driver) -> int:
    power = d.core.power_id
    assert power is not None
    return power


def test_nothing_is_sent_before_the_rm_and_the_greeting_is_nme() -> None:
    from bot.client.core import events as ev

    d = Driver()
    assert sent(d.feed(ev.ConnectionOpened(d.now, "127.0.0.1", 16713))) == []
    assert sent(d.show(opening())) == []
    out = d.open()
    assert sent(out) == [Nme("test", "1")]


def test_a_movement_phase_sends_not_gof_a_quick_set_and_starts_the_search() -> None:
    d, out = _playing()
    messages = sent(out)
    assert isinstance(messages[0], Not) and isinstance(messages[1], Sub)
    sub = messages[1]
    assert len(sub.orders) == 3
    job = job_of(out)
    assert job.limit.stop_at < d.core.phase.clock.submit_by()
    assert job.limit.stop_at <= job.limit.collect_by <= d.core.phase.clock.submit_by()
    assert of(out, ScheduleTick)[-1].at == d.core.phase.clock.submit_by()
    assert not sent(out, Gof)


def test_the_final_answer_is_submitted_and_then_gof() -> None:
    d, out = _playing()
    job = job_of(out)
    power = _fra(d)
    pos = opening()
    holds = dict.fromkeys(_units(pos, power), HOLD_ORDER)
    out = d.later(2).answer(job.job_id, holds)
    subs = sent(out, Sub)
    assert len(subs) == 1 and all(isinstance(o, Hold) for o in subs[0].orders)
    assert isinstance(sent(out)[-1], Gof)
    (final,) = noted(out, notes.FinalAnswer)
    assert final.submitted
    assert not of(out, CancelSearch)  # the job is over; nothing to cancel


def test_improvements_wait_for_the_resubmission_interval_and_the_deadline_takes_the_best() -> None:
    d, out = _playing()
    job = job_of(out).job_id
    power = _fra(d)
    pos = opening()
    units = sorted(_units(pos, power))
    first = dict.fromkeys(units, HOLD_ORDER)
    out = d.later(0.2).progress(job, first)
    assert not sent(out, Sub)  # less than RESUBMIT_INTERVAL since the quick set
    assert of(out, ScheduleTick)[-1].at == d.now - 0.2 + RESUBMIT_INTERVAL
    out = d.later(RESUBMIT_INTERVAL).tick()
    assert len(sent(out, Sub)) == 1
    # the last submission time comes before the final answer
    d.at(d.core.phase.clock.submit_by())
    out = d.tick()
    assert isinstance(sent(out)[-1], Gof)
    assert of(out, CancelSearch) == [CancelSearch(job)]
    (final,) = noted(out, notes.FinalAnswer)
    assert not final.submitted
    # its answer comes late: dropped as stale, but its lateness is measured
    before = d.core.budget.handover.samples
    out = d.later(0.3).answer(job, first)
    assert noted(out, notes.StaleSearchMessage) and not sent(out)
    assert d.core.budget.handover.samples == before + 1


def test_a_tme_moves_the_deadline_both_ways_and_the_search_is_retimed() -> None:
    d, out = _playing(Variant.of(move_time_limit=30))
    job = job_of(out)
    out = d.later(1).say(Tme(3))
    (closer,) = of(out, RetimeSearch)
    assert closer.job_id == job.job_id and closer.limit.stop_at < job.limit.stop_at
    assert closer.limit.stop_at < d.now + 3
    assert of(out, ScheduleTick)[-1].at <= d.now + 3
    out = d.later(0.5).say(Tme(20))
    (later,) = of(out, RetimeSearch)
    assert later.limit.stop_at > closer.limit.stop_at
    assert d.core.phase.clock.submit_by() > d.now + 19
    out = d.later(1).say(Tme(19))  # the same deadline again: no new limit
    assert not of(out, RetimeSearch)


def test_a_phase_that_ends_early_cancels_its_search_and_plays_the_next() -> None:
    d, out = _playing(Variant.of(move_time_limit=20))
    spring_job = job_of(out).job_id
    fall = next_position(opening(), {})
    out = d.later(0.5).show(fall)
    assert CancelSearch(spring_job) in of(out, CancelSearch)
    fall_job = job_of(out)
    assert fall_job.job_id != spring_job and fall_job.position.turn == fall.turn
    assert noted(out, notes.PhaseEnded)[0].turn == opening().turn
    # the spring's answer arrives: stale, never submitted in the fall
    out = d.later(0.1).answer(spring_job, {})
    assert not sent(out) and noted(out, notes.StaleSearchMessage)


def test_a_second_now_for_the_same_turn_changes_nothing() -> None:
    d, _ = _playing()
    out = d.later(0.5).show(opening())
    assert not sent(out) and not of(out, CancelSearch)


def test_a_refused_order_is_replaced_and_never_sent_again() -> None:
    d, out = _playing()
    job = job_of(out).job_id
    quick = sent(out, Sub)[0]
    refused = quick.orders[0]
    out = d.later(0.1).say(Thx(refused, "FAR"))
    (second,) = sent(out, Sub)
    assert refused not in second.orders and Hold(refused.unit) in second.orders
    assert len(second.orders) == 3
    (note,) = noted(out, notes.OrderRefused)
    assert note.order == refused
    # the search's answer brings the refused order back: it is a hold again
    out = d.later(1).answer(job, d.core.phase.book.engine | {})
    for sub in sent(out, Sub):
        assert refused not in sub.orders


def test_a_mis_after_a_thx_refusal_completes_the_set() -> None:
    d, out = _playing()
    quick = sent(out, Sub)[0]
    refused = quick.orders[0]
    d.later(0.1).say(Thx(refused, "FAR"))
    out = d.say(Thx(Hold(refused.unit), "NRS"))  # the hold is refused too
    (third,) = sent(out, Sub)
    assert len(third.orders) == 2
    out = d.say(Mis((UnitPosition(refused.unit),)))
    (fourth,) = sent(out, Sub)
    assert Hold(refused.unit) in fourth.orders and len(fourth.orders) == 3


def test_rejoin_mid_search_sends_nothing_before_yes_then_plays_the_phase_again() -> None:
    d, out = _playing()
    job = job_of(out).job_id
    out = d.later(1).lose()
    assert of(out, CancelSearch) == [CancelSearch(job)] and not sent(out)
    out = d.later(0.5).open()
    assert sent(out) == [Iam("FRA", PASSCODE)]
    # the server shows the phase before it takes the rejoin: nothing leaves
    out = d.show(opening())
    assert not [m for m in sent(out) if isinstance(m, GAME_ACTIONS)]
    assert noted(out, notes.HeldBack)
    out = d.later(1).say(Yes(Iam("FRA", PASSCODE)))
    assert [type(m) for m in sent(out)] == [Hlo, Sco, Now, Tme]
    d.say(Hlo("FRA", PASSCODE, Variant.of(move_time_limit=10)))
    out = d.show(opening())
    assert sent(out, Sub) and job_of(out).job_id != job
    out = d.say(Tme(3))
    assert of(out, RetimeSearch)


def test_rejoin_after_the_orders_were_final_resends_them() -> None:
    d, out = _playing()
    job = job_of(out).job_id
    out = d.later(1).answer(job, {})
    assert sent(out, Gof)
    last = d.core.phase.book.current
    d.later(1).lose()
    d.open()
    d.say(Yes(Iam("FRA", PASSCODE)))
    out = d.show(opening())
    assert [type(m) for m in sent(out)] == [Sub, Gof]
    assert list(sent(out, Sub)[0].orders) == last
    assert not of(out, CancelSearch) and not noted(out, notes.SearchStarted)


def test_a_refused_iam_makes_a_new_player() -> None:
    d, _ = _playing()
    d.later(1).lose()
    d.open()
    out = d.say(Rej(Iam("FRA", PASSCODE)))
    assert sent(out) == [Nme("test", "1")]
    assert d.core.power is None


def test_the_draw_is_offered_after_the_final_year() -> None:
    d = Driver(core=BotCore(CoreSettings(name="test", version="1", seed=7, final_year=1900)))
    d.join()
    out = d.show(opening())
    assert isinstance(sent(out)[0], Drw)


def test_the_game_ends_with_smr_after_the_result() -> None:
    d, _ = _playing()
    d.later(1).say(Slo("FRA"))
    out = d.say(Smr(opening().turn, ()))
    assert noted(out, notes.GameEnded) and of(out, Disconnect) == [Disconnect(final=True)]
    assert d.core.game_over
    assert not sent(d.say(Off()))  # nothing more to do


def test_a_search_failure_keeps_the_orders_in_and_says_gof() -> None:
    from bot.client.core import events as ev
    from search.mcts.worker_protocol import Failed

    d, out = _playing()
    job = job_of(out).job_id
    out = d.later(0.5).feed(ev.SearchMessage(d.now, Failed(job, "boom")))
    assert noted(out, notes.SearchFailed) and isinstance(sent(out)[-1], Gof)
    assert not sent(out, Sub)


def test_an_unavailable_search_keeps_the_quick_orders() -> None:
    from bot.client.core import events as ev

    d, out = _playing()
    job = job_of(out).job_id
    out = d.feed(ev.SearchUnavailable(d.now, job, "no worker"))
    assert isinstance(sent(out)[-1], Gof)
    assert noted(out, notes.SearchUnavailable)


def test_a_message_that_does_not_parse_is_answered_and_noted() -> None:
    from bot.client.core import events as ev
    from protocol.wire import DiplomacyMessage

    d, _ = _playing()
    out = d.feed(ev.ServerMessage(d.now, DiplomacyMessage((0x4A00, 0x4A00))))
    assert noted(out, notes.BadMessage)


def test_a_restated_phase_is_played_afresh_and_the_server_answers_to_earlier_orders_count() -> None:
    d, out = _playing()
    first_job = job_of(out).job_id
    earlier = sent(out, Sub)[0]
    pos = opening()
    # The server states the spring again in another position: one of our armies is gone.
    lost = next(up for up in pos.unit_positions() if up.unit.power == "FRA")
    restated = tuple(up for up in pos.unit_positions() if up != lost)
    out = d.later(0.2).say(Now(pos.turn, restated))
    assert noted(out, notes.PhaseRestated) and CancelSearch(first_job) in of(out, CancelSearch)
    (sub,) = sent(out, Sub)
    assert len(sub.orders) == 2 and job_of(out).job_id != first_job
    # THX for the orders sent under the first statement still answer us
    out = d.say(*(Thx(order, "MBV") for order in earlier.orders))
    assert not noted(out, notes.MessageIgnored)
