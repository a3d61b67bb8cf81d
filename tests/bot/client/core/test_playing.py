"""The phase player as the core drives it: what it sends, starts and notes for each phase.

Each test plays one situation through the core (a :class:`Driver`) and reads
the player's actions: the notes the game log and the console show (exact, as
they are written), the messages sent, the search jobs.  A chooser of the
test's (:class:`Scripted`) stands in for the bot's where the situation needs a
chooser that answers otherwise (one that fails, or acts on a report at once);
the player must carry out whatever any chooser decides.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from adjudicator.daide import load_position
from adjudicator.movement import next_position
from adjudicator.orders import HOLD_ORDER
from adjudicator.position import Position
from bot.client.core import events as ev
from bot.client.core import notes
from bot.client.core.chooser import SearchChooser
from bot.client.core.core import BotCore, CoreSettings
from bot.client.core.decisions import Decision, Final, PhaseView, Submit
from bot.client.core.effects import CancelSearch, Effect, RetimeSearch
from protocol.expression import fold
from protocol.messages import Gof, Huh, Message, Mis, Now, Sub, Thx, Tme
from protocol.notation import format_order, parse_order
from protocol.tokens import ERR, STANDARD, TokenTable
from protocol.values import Hold, Location, Order, Remove, Unit, UnitPosition, UnitType
from protocol.variant import Variant
from search.mcts.worker_protocol import Answer, Failed, Progress
from tests.bot.client.core.driver import Driver, job_of, noted, of, opening, sent

SPRING = opening()
PARIS = Unit("FRA", UnitType.ARMY, Location("PAR"))
BREST = Unit("FRA", UnitType.FLEET, Location("BRE"))
MARSEILLES = Unit("FRA", UnitType.ARMY, Location("MAR"))
OUR_UNITS = (BREST, MARSEILLES, PARIS)
TOO_MANY = load_position(
    "NOW ( WIN 1901 ) ( FRA AMY BUR ) ( FRA FLT MAO ) ( FRA AMY PIC )",
    "SCO ( FRA BRE MAR ) ( GER BER KIE MUN )",
)
"""A winter where France has three units and two centres: one removal due."""
VENICE = Unit("FRA", UnitType.FLEET, Location("VEN"))
VIENNA = Unit("FRA", UnitType.ARMY, Location("VIE"))
FAR_FLEET = load_position(
    "NOW ( WIN 1901 ) ( FRA FLT VEN ) ( FRA AMY VIE ) ( FRA AMY PAR )",
    "SCO ( FRA BRE MAR ) ( GER BER KIE )",
)
"""One removal due: the fleet in Venice is 2 steps from Marseilles, 5 by fleet moves; the
army in Vienna 3 steps from a home centre."""


class Boom(Exception):
    """A bug of the chooser's, as a test provokes it."""


class Scripted(SearchChooser):
    """The bot's chooser, answering as a test scripts it: a failure, or decisions of its own.

    ``failure`` is raised by :meth:`play` and :meth:`advance`; ``plays`` replaces
    the answer to :meth:`play`; ``on_report`` is added to the answer to each
    search report, ``on_hint`` to each hint's report; ``hint_reports`` keeps
    the hint reports the chooser was given.
    """

    def __init__(self) -> None:
        super().__init__()
        self.failure: Exception | None = None
        self.plays: list[Decision] | None = None
        self.on_report: list[Decision] = []
        self.on_hint: list[Decision] = []
        self.hint_reports: list[Answer | Failed] = []

    def play(self, view: PhaseView) -> list[Decision]:
        """The bot's play, unless the test scripted it."""
        if self.failure is not None:
            raise self.failure
        return super().play(view) if self.plays is None else self.plays

    def advance(self, view: PhaseView) -> list[Decision]:
        """The bot's move, unless the test made it fail."""
        if self.failure is not None:
            raise self.failure
        return super().advance(view)

    def search_report(self, view: PhaseView, message: Progress | Answer | Failed) -> list[Decision]:
        """The bot's answer, then the test's decisions."""
        return super().search_report(view, message) + self.on_report

    def hint_report(self, view: PhaseView, message: Answer | Failed) -> list[Decision]:
        """The bot's hint, then the test's decisions."""
        self.hint_reports.append(message)
        return super().hint_report(view, message) + self.on_hint


def playing(
    variant: Variant | None = None,
    chooser: Scripted | None = None,
    pos: Position = SPRING,
    settings: CoreSettings | None = None,
) -> tuple[Driver, list[Effect]]:
    """A bot joined as France (its chooser ``chooser``, if given) shown ``pos``; its actions."""
    d = Driver(core=BotCore(settings or CoreSettings(name="test", version="1", seed=7)))
    if chooser is not None:
        d.core.player.chooser = chooser
    d.join(variant or Variant.of(move_time_limit=10))
    return d, d.show(pos)


def joined(settings: CoreSettings | None = None) -> Driver:
    """A seat joined as France, no phase shown yet."""
    d = Driver(core=BotCore(settings or CoreSettings(name="test", version="1", seed=7)))
    d.join()
    return d


def directly(d: Driver, call: Callable[[], object]) -> list[Effect]:
    """The player's actions when the core calls it (``call``) outside an event's handling."""
    d.core.out.begin(d.now)
    call()
    return d.core.out.take()


def text(message: Message) -> str:
    """``message`` as the core writes it in its notes."""
    return message.to_text(STANDARD)


def ignored(reason: str, message: Message) -> notes.MessageIgnored:
    """The note of ``message`` ignored for ``reason``."""
    return notes.MessageIgnored(reason, text(message), type(message).__name__.upper())


def holds(*units: Unit) -> tuple[Order, ...]:
    """Holds for ``units``."""
    return tuple(Hold(u) for u in units)


def trouble(out: list[Effect]) -> list[notes.Note]:
    """The notes of a failure among ``out``: our own bugs, caught."""
    return [*noted(out, notes.PhaseFailed), *noted(out, notes.HandlerError)]


# --- the phases ----------------------------------------------------------------------------------


def test_a_phase_ends_with_its_last_margin_and_a_restated_one_says_so() -> None:
    d, out = playing()
    (quick,) = noted(out, notes.OrdersSubmitted)
    assert quick.margin == 10.0
    fall = next_position(SPRING, {})
    out = d.later(0.5).show(fall)
    assert noted(out, notes.PhaseEnded) == [notes.PhaseEnded(SPRING.turn, 10.0, False)]
    d.later(1)
    lost = tuple(up for up in fall.unit_positions() if up.unit != PARIS)
    out = d.say(Now(fall.turn, lost))
    (restated,) = noted(out, notes.PhaseEnded)
    assert restated == notes.PhaseEnded(fall.turn, restated.last_margin, True)
    assert restated.last_margin == noted(d.log, notes.OrdersSubmitted)[-2].margin


def test_a_phase_starts_with_its_deadline_and_a_restated_one_keeps_it() -> None:
    d, out = playing()
    assert noted(out, notes.PhaseStarted) == [notes.PhaseStarted(SPRING.turn, 10.0)]
    job = job_of(out)
    assert noted(out, notes.SearchStarted) == [
        notes.SearchStarted(SPRING.turn, job.job_id, job.limit.stop_at)
    ]
    assert job.ranked == 0  # the phase's own search ranks no sets (a hint's does)
    lost = tuple(up for up in SPRING.unit_positions() if up.unit != PARIS)
    out = d.later(0.12344).say(Now(SPRING.turn, lost))
    assert noted(out, notes.PhaseRestated) == [notes.PhaseRestated(SPRING.turn)]
    assert noted(out, notes.PhaseStarted) == [notes.PhaseStarted(SPRING.turn, 9.877)]
    (quick,) = noted(out, notes.OrdersSubmitted)
    (sub,) = sent(out, Sub)
    assert quick == notes.OrdersSubmitted(SPRING.turn, sub.orders, 9.8766)
    assert d.core.phase.clock.deadline == 110.0


def test_a_phase_whose_orders_are_final_ignores_its_now_repeated() -> None:
    d, out = playing()
    out = d.later(1).answer(job_of(out).job_id, {})
    assert sent(out, Gof)
    assert sent(d.later(1).show(SPRING)) == []
    assert sent(d.later(1).show(SPRING)) == []


def test_a_phase_with_nothing_for_us_to_order_is_played_at_once() -> None:
    retreat = load_position(
        "NOW ( SUM 1901 ) ( FRA AMY BUR ) ( GER AMY MUN ) ( GER AMY RUH MRT ( KIE ) )",
        "SCO ( FRA BRE MAR PAR ) ( GER BER KIE MUN )",
    )
    _, out = playing(pos=retreat)
    assert noted(out, notes.PhasePlayed) == [notes.PhasePlayed(retreat.turn)]
    assert sent(out) == [] and trouble(out) == []


def test_a_phase_is_noted_as_played_once_however_often_it_is_restated() -> None:
    d = joined(CoreSettings(name="test", version="1", seed=7, strategy="dumbbot"))
    out = d.show(SPRING)
    assert noted(out, notes.PhasePlayed) == [notes.PhasePlayed(SPRING.turn)]
    lost = tuple(up for up in SPRING.unit_positions() if up.unit != PARIS)
    out = d.later(0.5).say(Now(SPRING.turn, lost))
    assert sent(out, Sub) and noted(out, notes.PhaseRestated)
    assert noted(out, notes.PhasePlayed) == []
    fall = next_position(SPRING, {})
    out = d.later(0.5).show(fall)
    assert noted(out, notes.PhasePlayed) == [notes.PhasePlayed(fall.turn)]


def test_a_lost_connection_stops_the_phase_without_a_failure() -> None:
    d, out = playing()
    job = job_of(out).job_id
    out = d.later(1).lose()
    assert of(out, CancelSearch) == [CancelSearch(job)]
    assert trouble(out) == [] and not sent(out)


# --- our own failures ----------------------------------------------------------------------------


def test_a_failure_of_the_chooser_is_noted_stops_the_search_and_resubmits_our_set() -> None:
    chooser = Scripted()
    d, out = playing(chooser=chooser)
    job = job_of(out).job_id
    (quick,) = sent(out, Sub)
    chooser.failure = Boom("the chooser broke")
    out = d.later(1).tick()
    assert noted(out, notes.PhaseFailed) == [
        notes.PhaseFailed(SPRING.turn, "Boom('the chooser broke')")
    ]
    assert of(out, CancelSearch) == [CancelSearch(job)]
    assert sent(out) == [quick]
    assert noted(out, notes.HandlerError) == []


def test_a_failure_before_any_set_submits_holds_for_every_unit() -> None:
    chooser = Scripted()
    chooser.failure = Boom("no orders")
    d, out = playing(chooser=chooser)
    assert noted(out, notes.PhaseFailed) == [notes.PhaseFailed(SPRING.turn, "Boom('no orders')")]
    (sub,) = sent(out, Sub)
    assert sorted(sub.orders, key=str) == sorted(holds(*OUR_UNITS), key=str)
    assert sent(d.later(1).tick()) == []  # the phase is stopped: nothing more


@pytest.mark.parametrize("reconnected", [False, True], ids=["not-connected", "not-joined"])
def test_a_failure_without_a_session_that_may_send_is_noted_and_raises_nothing(
    reconnected: bool,
) -> None:
    d, _ = playing()
    d.later(1).lose()
    if reconnected:
        d.open()  # IAM sent; the server has not taken us back yet
    out = directly(d, lambda: d.core.player.failed(Boom("late")))
    assert noted(out, notes.PhaseFailed) == [notes.PhaseFailed(SPRING.turn, "Boom('late')")]
    assert sent(out) == []


def test_a_failure_outside_a_phase_notes_nothing_of_a_phase() -> None:
    d = joined()
    out = directly(d, lambda: d.core.player.failed(Boom("early")))
    assert out == []


# --- orders final --------------------------------------------------------------------------------


def test_the_orders_chosen_are_the_persons_set_in_their_order() -> None:
    d = joined(CoreSettings(name="person", version="1", seed=3, chooser="person"))
    d.show(SPRING)
    orders = tuple(
        parse_order(t) for t in ("(FRA AMY PAR) MTO BUR", "(FRA AMY MAR) SUP (FRA AMY PAR) MTO BUR")
    )
    d.feed(ev.PersonOrders(d.now, SPRING.turn, orders))
    out = d.feed(ev.PersonReady(d.now, SPRING.turn, True))
    assert sent(out) == [Gof()]
    assert noted(out, notes.OrdersChosen) == [
        notes.OrdersChosen(
            SPRING.turn,
            ("( FRA AMY PAR ) MTO BUR", "( FRA AMY MAR ) SUP ( FRA AMY PAR ) MTO BUR"),
        )
    ]


def test_the_orders_chosen_are_the_set_the_server_holds_a_refused_order_replaced() -> None:
    d, out = playing()
    job = job_of(out).job_id
    refused = sent(out, Sub)[0].orders[0]
    (replaced,) = sent(d.later(0.1).say(Thx(refused, "FAR")), Sub)
    out = d.later(1).answer(job, {})
    assert isinstance(sent(out)[-1], Gof)
    (chosen,) = noted(out, notes.OrdersChosen)
    assert chosen == notes.OrdersChosen(
        SPRING.turn, tuple(format_order(o) for o in replaced.orders)
    )
    assert format_order(refused) not in chosen.orders


# --- the search ----------------------------------------------------------------------------------


def test_each_report_of_the_search_is_noted_with_its_job_and_whether_it_is_final() -> None:
    d, out = playing()
    job = job_of(out).job_id
    everyone_holds = dict.fromkeys(
        (p for p, u in SPRING.units.items() if u[0] == d.core.power_id), HOLD_ORDER
    )
    out = d.later(0.2).progress(job, everyone_holds)
    assert noted(out, notes.SearchReport) == [
        notes.SearchReport(SPRING.turn, job, False, {"iterations": 1})
    ]
    out = d.later(0.2).answer(job, everyone_holds)
    assert noted(out, notes.SearchReport) == [
        notes.SearchReport(SPRING.turn, job, True, {"iterations": 2})
    ]


def test_a_failed_search_is_noted_with_its_error() -> None:
    d, out = playing()
    job = job_of(out).job_id
    out = d.later(0.5).feed(ev.SearchMessage(d.now, Failed(job, "boom")))
    assert noted(out, notes.SearchFailed) == [notes.SearchFailed(SPRING.turn, "boom")]


def test_the_best_set_so_far_goes_out_at_the_last_moment_even_within_the_interval() -> None:
    d, out = playing()
    job = job_of(out).job_id
    power = d.core.power_id
    ours = sorted(p for p, u in SPRING.units.items() if u[0] == power)
    everyone_holds = dict.fromkeys(ours, HOLD_ORDER)
    assert not sent(d.later(0.2).progress(job, everyone_holds), Sub)  # too soon after the quick set
    d.later(0.1).say(Tme(1))  # the deadline comes closer: no time for the interval to pass
    d.at(d.core.phase.clock.submit_by())
    out = d.tick()
    (last,) = sent(out, Sub)
    assert sorted(last.orders, key=str) == sorted(holds(*OUR_UNITS), key=str)
    assert isinstance(sent(out)[-1], Gof)


def test_the_hand_over_is_measured_from_the_jobs_stop_time_to_its_answer() -> None:
    d, out = playing()
    job = job_of(out)
    d.at(job.limit.stop_at + 0.4).answer(job.job_id, {})
    assert d.core.budget.handover.samples == 1
    assert d.core.budget.handover.value == pytest.approx(0.4)


def test_a_retimed_search_is_noted_with_its_new_stop_time() -> None:
    d, out = playing(Variant.of(move_time_limit=30))
    job = job_of(out).job_id
    out = d.later(1).say(Tme(3))
    (retimed,) = of(out, RetimeSearch)
    assert noted(out, notes.SearchRetimed) == [
        notes.SearchRetimed(SPRING.turn, job, retimed.limit.stop_at)
    ]


def test_a_chooser_may_act_on_a_search_report_at_once() -> None:
    chooser = Scripted()
    d, out = playing(chooser=chooser)
    job = job_of(out).job_id
    chooser.on_report = [Submit(dict.fromkeys(d.core.phase.book.engine, HOLD_ORDER))]
    out = d.later(0.1).progress(job, {})
    (sub,) = sent(out, Sub)
    assert sorted(sub.orders, key=str) == sorted(holds(*OUR_UNITS), key=str)
    assert trouble(out) == []


# --- the hints -----------------------------------------------------------------------------------


def test_a_chooser_may_act_on_a_hints_report_and_hears_of_a_hint_that_could_not_start() -> None:
    chooser = Scripted()
    d, _ = playing(chooser=chooser)
    hint = job_of(d.feed(ev.HintRequested(d.now, SPRING.turn, 1.0))).job_id
    out = d.feed(ev.SearchUnavailable(d.now, hint, "no worker"))
    assert chooser.hint_reports == [Failed(hint, "no worker")]
    assert noted(out, notes.HintFailed) == [notes.HintFailed(SPRING.turn, "no worker")]
    hint = job_of(d.feed(ev.HintRequested(d.now, SPRING.turn, 1.0))).job_id
    chooser.on_hint = [Submit(dict.fromkeys(d.core.phase.book.engine, HOLD_ORDER))]
    out = d.later(1).answer(hint, {})
    assert noted(out, notes.HintReady)
    (sub,) = sent(out, Sub)
    assert sorted(sub.orders, key=str) == sorted(holds(*OUR_UNITS), key=str)
    assert trouble(out) == []


def test_a_new_hint_cancels_the_one_still_running() -> None:
    d, _ = playing()
    first = job_of(d.feed(ev.HintRequested(d.now, SPRING.turn, 5.0))).job_id
    out = d.later(0.5).feed(ev.HintRequested(d.now, SPRING.turn, 5.0))
    assert of(out, CancelSearch) == [CancelSearch(first)]
    assert job_of(out).job_id != first


# --- stale messages ------------------------------------------------------------------------------


def test_an_answer_for_a_job_never_started_is_stale_and_measures_nothing() -> None:
    d, _ = playing()
    out = d.later(0.5).answer(99, {})
    assert noted(out, notes.StaleSearchMessage) == [notes.StaleSearchMessage(99)]
    assert sent(out) == [] and trouble(out) == []
    assert d.core.budget.handover.samples == 0


def test_a_cancelled_jobs_late_answer_measures_its_lateness_and_its_failure_nothing() -> None:
    d, out = playing()
    spring = job_of(out).job_id
    stop_at = job_of(out).limit.stop_at
    out = d.at(d.core.phase.clock.submit_by()).tick()
    assert of(out, CancelSearch) == [CancelSearch(spring)]
    out = d.later(0.3).answer(spring, {})
    assert noted(out, notes.StaleSearchMessage) == [notes.StaleSearchMessage(spring)]
    assert d.core.budget.handover.value == pytest.approx(d.now - stop_at)
    fall = job_of(d.later(0.1).show(next_position(SPRING, {})))
    d.later(0.1).show(next_position(next_position(SPRING, {}), {}))
    out = d.later(0.5).feed(ev.SearchMessage(d.now, Failed(fall.job_id, "cancelled")))
    assert noted(out, notes.StaleSearchMessage) == [notes.StaleSearchMessage(fall.job_id)]
    assert d.core.budget.handover.samples == 1


# --- a person's input ----------------------------------------------------------------------------


def test_a_persons_input_before_any_phase_is_refused_saying_so() -> None:
    d = joined(CoreSettings(name="person", version="1", seed=3, chooser="person"))
    out = d.feed(ev.PersonOrders(d.now, SPRING.turn, holds(PARIS)))
    assert noted(out, notes.PersonOrdersRefused) == [
        notes.PersonOrdersRefused(SPRING.turn, "the phase in play is no phase")
    ]
    assert sent(out) == [] and trouble(out) == []


# --- the time left -------------------------------------------------------------------------------


@pytest.mark.parametrize(("limit", "seconds"), [(10, 11), (1, 5)])
def test_a_tme_past_the_phases_limit_is_ignored(limit: int, seconds: int) -> None:
    d, _ = playing(Variant.of(move_time_limit=limit))
    deadline = d.core.phase.clock.deadline
    out = d.later(0.1).say(Tme(seconds))
    assert noted(out, notes.MessageIgnored) == [
        ignored(f"TME of {seconds} s in a phase of at most {limit:g} s", Tme(seconds))
    ]
    assert d.core.phase.clock.deadline == deadline


@pytest.mark.parametrize("seconds", [0, 10])
def test_a_tme_within_the_phases_limit_sets_the_deadline(seconds: int) -> None:
    d, _ = playing(Variant.of(move_time_limit=10))
    out = d.later(0.1).say(Tme(seconds))
    assert noted(out, notes.MessageIgnored) == []
    assert d.core.phase.clock.deadline == d.now + seconds


def test_a_tme_in_a_game_without_deadlines_sets_one() -> None:
    d, _ = playing(Variant.of())
    assert d.core.phase.clock.deadline is None
    out = d.later(0.1).say(Tme(5))
    assert noted(out, notes.MessageIgnored) == []
    assert d.core.phase.clock.deadline == d.now + 5


# --- the server's answers to our orders ----------------------------------------------------------


def test_a_thx_outside_a_phase_is_ignored_saying_so() -> None:
    d = joined()
    thx = Thx(Hold(PARIS), "MBV")
    out = d.say(thx)
    assert noted(out, notes.MessageIgnored) == [ignored("THX outside a phase", thx)]
    assert trouble(out) == []


def test_a_mis_for_units_is_listed_and_answered_with_holds_for_the_ones_we_lack() -> None:
    d, out = playing()
    quick = sent(out, Sub)[0]
    refused = quick.orders[0]
    d.later(0.1).say(Thx(refused, "FAR"))
    d.say(Thx(Hold(refused.unit), "NRS"))  # its hold is refused too: the unit has no order
    mis = Mis((UnitPosition(refused.unit),))
    out = d.say(mis)
    unit = " ".join(str(refused.unit).strip("()").split())
    assert noted(out, notes.MissingListed) == [notes.MissingListed(SPRING.turn, (unit,), None)]
    assert noted(out, notes.OrdersMissing) == [notes.OrdersMissing(1)]
    assert noted(out, notes.MessageIgnored) == []
    (sub,) = sent(out, Sub)
    assert Hold(refused.unit) in sub.orders and len(sub.orders) == 3
    assert trouble(out) == []


def test_a_mis_naming_a_unit_we_do_not_have_is_ignored_for_that_unit() -> None:
    d, _ = playing()
    ghost = Unit("FRA", UnitType.ARMY, Location("BUR"))
    mis = Mis((UnitPosition(ghost),))
    out = d.later(0.1).say(mis)
    assert noted(out, notes.MessageIgnored) == [
        ignored(f"MIS for units we do not have in {SPRING.turn}: {ghost}", mis)
    ]
    assert noted(out, notes.OrdersMissing) == [] and sent(out) == []


def test_a_mis_of_the_wrong_form_for_the_phase_is_ignored() -> None:
    d, _ = playing()
    mis = Mis(count=2)
    out = d.later(0.1).say(mis)
    assert noted(out, notes.MessageIgnored) == [
        ignored(f"MIS of the wrong form for {SPRING.turn}", mis)
    ]
    assert noted(out, notes.MissingListed) == [] and sent(out) == []


def test_a_mis_for_another_phase_or_outside_a_phase_changes_nothing() -> None:
    d, _ = playing()
    fall = next_position(SPRING, {}).turn
    mis = Mis((UnitPosition(PARIS),))
    assert directly(d, lambda: d.core.player.on_mis(mis, fall)) == []
    d = joined()
    assert directly(d, lambda: d.core.player.on_mis(mis, SPRING.turn)) == []


def test_a_winter_mis_for_removals_we_did_not_order_removes_by_the_rules() -> None:
    chooser = Scripted()
    chooser.plays = [Final()]  # a chooser that ordered nothing
    d, out = playing(chooser=chooser, pos=TOO_MANY)
    assert sent(out, Sub) == []
    mis = Mis(count=1)
    out = d.later(0.1).say(mis)
    assert noted(out, notes.MissingListed) == [notes.MissingListed(TOO_MANY.turn, (), 1)]
    assert noted(out, notes.OrdersMissing) == [notes.OrdersMissing(1, adjustments=True)]
    assert noted(out, notes.MessageIgnored) == []
    (sub,) = sent(out, Sub)
    assert len(sub.orders) == 1 and isinstance(sub.orders[0], Remove)
    assert trouble(out) == []
    assert sent(d.say(mis), Sub) == []  # answered once in the phase


@pytest.mark.parametrize(
    ("rules", "removed"),
    [("parlance", VIENNA), ("datc", VENICE)],
)
def test_the_removals_a_mis_asks_for_follow_the_games_civil_disorder_rule(
    rules: str, removed: Unit
) -> None:
    chooser = Scripted()
    chooser.plays = [Final()]
    settings = CoreSettings(name="test", version="1", seed=7, rules=rules)
    d, _ = playing(chooser=chooser, pos=FAR_FLEET, settings=settings)
    (sub,) = sent(d.later(0.1).say(Mis(count=1)), Sub)
    assert sub.orders == (Remove(removed),)


def test_a_winter_mis_our_set_already_covers_is_ignored() -> None:
    d, out = playing(pos=TOO_MANY)
    (removal,) = sent(out, Sub)
    assert len(removal.orders) == 1
    mis = Mis(count=1)
    out = d.later(0.1).say(mis)
    assert noted(out, notes.MessageIgnored) == [
        ignored("MIS for adjustments our submitted set already covers", mis)
    ]
    assert noted(out, notes.OrdersMissing) == [] and sent(out) == []


# --- recovery ------------------------------------------------------------------------------------


def huh(message: Message) -> Huh:
    """The server's HUH for ``message``, its ERR after the first token."""
    tokens = message.to_tokens(STANDARD)
    return Huh(fold((tokens[0], ERR, *tokens[1:]), STANDARD))


def test_a_persons_seat_without_orders_sends_nothing_of_its_own_after_a_huh() -> None:
    d = joined(CoreSettings(name="person", version="1", seed=3, chooser="person"))
    d.show(SPRING)
    out = d.later(0.1).say(huh(Sub(holds(PARIS))))
    assert sent(out) == []


# --- the game's own names ------------------------------------------------------------------------

RENAMED = TokenTable.from_representation(
    (number, "PRS" if name == "PAR" else name) for number, name in STANDARD.entries
)
"""The standard map as a server might name it: Paris is PRS."""


def test_the_orders_chosen_and_the_units_a_mis_lists_are_written_in_the_games_names() -> None:
    d = Driver(core=BotCore(CoreSettings(name="t", version="1", seed=7, strategy="dumbbot")))
    d.table = RENAMED
    d.join()
    out = d.show(SPRING)
    (chosen,) = noted(out, notes.OrdersChosen)
    assert any(order.startswith("( FRA AMY PRS )") for order in chosen.orders)
    out = d.later(0.1).say(Mis((UnitPosition(PARIS),)))
    assert noted(out, notes.MissingListed) == [
        notes.MissingListed(SPRING.turn, ("FRA AMY PRS",), None)
    ]
