"""A phase's life in the player: started, restated, played again after a rejoin, submitted.

Each test plays the situation through the core (a :class:`Driver`) at chosen,
deliberately uneven times, and reads the notes (exact, as the game log and
the console show them) and the messages sent.
"""

from __future__ import annotations

from adjudicator.daide import load_position
from adjudicator.movement import next_position
from adjudicator.orders import HOLD_ORDER
from bot.client.core import notes
from bot.client.core.chooser import SearchChooser
from bot.client.core.core import BotCore, CoreSettings
from bot.client.core.decisions import Decision, Final, PhaseView
from protocol.messages import Gof, Iam, Mis, Now, Sub, Yes
from protocol.values import Location, Remove, Unit, UnitType
from protocol.variant import Variant
from tests.bot.client.core.driver import PASSCODE, Driver, job_of, noted, opening, sent

SPRING = opening()
PARIS = Unit("FRA", UnitType.ARMY, Location("PAR"))
LIMIT = 10
"""Seconds HLO gives a movement phase."""

FAR_FLEETS = load_position(
    "NOW ( WIN 1901 ) ( FRA FLT ADR ) ( FRA FLT BAL )", "SCO ( FRA PAR ) ( GER BER KIE MUN )"
)
"""A winter where France must remove one of two fleets, and the servers' rules disagree which:
by fleet moves (DATC, MILA) the Adriatic is the farther from home, by any steps (Parlance)
the Baltic."""


class OrdersNothing(SearchChooser):
    """The bot, but through with a phase other than a movement without ordering anything."""

    def play(self, view: PhaseView) -> list[Decision]:
        """The bot's movement; nothing otherwise."""
        return super().play(view) if view.position.is_movement else [Final()]


def playing() -> tuple[Driver, int]:
    """A bot joined as France and shown the opening at t=100; the opening's search job."""
    d = Driver()
    d.join(Variant.of(move_time_limit=LIMIT))
    return d, job_of(d.show(SPRING)).job_id


def final(d: Driver, job: int) -> None:
    """The search's final answer for ``job``: every French unit holds (then GOF)."""
    power = d.core.power_id
    holds = {p: HOLD_ORDER for p, unit in SPRING.units.items() if unit[0] == power}
    assert sent(d.answer(job, holds))[-1] == Gof()


def test_a_restated_phase_keeps_its_deadline_and_is_noted_as_the_same_turn() -> None:
    d, _ = playing()
    lost = tuple(up for up in SPRING.unit_positions() if up.unit != PARIS)
    out = d.at(100.12345).say(Now(SPRING.turn, lost))
    assert noted(out, notes.PhaseRestated) == [notes.PhaseRestated(SPRING.turn)]
    assert noted(out, notes.PhaseEnded) == [notes.PhaseEnded(SPRING.turn, LIMIT, True)]
    # 110 - 100.12345 seconds left, to the millisecond: the first NOW's deadline, not a new one.
    assert noted(out, notes.PhaseStarted) == [notes.PhaseStarted(SPRING.turn, 9.877)]
    (quick,) = noted(out, notes.OrdersSubmitted)
    assert quick.turn == SPRING.turn


def test_each_submission_is_noted_with_its_turn_orders_and_margin() -> None:
    d, job = playing()
    final(d.at(101.123456), job)
    last = sent(d.log, Sub)[-1]
    # 110 - 101.123456 seconds before the deadline, to a tenth of a millisecond.
    margin = 8.8765
    assert noted(d.log, notes.OrdersSubmitted)[-1] == notes.OrdersSubmitted(
        SPRING.turn, last.orders, margin
    )
    out = d.later(1).show(next_position(SPRING, {}))
    assert noted(out, notes.PhaseEnded) == [notes.PhaseEnded(SPRING.turn, margin, False)]


def test_a_repeated_now_after_our_orders_are_final_sends_nothing_even_after_a_rejoin() -> None:
    d, job = playing()
    final(d.later(1), job)
    assert not sent(d.later(0.5).show(SPRING))
    d.later(1).lose()
    d.open()
    d.say(Yes(Iam("FRA", PASSCODE)))
    out = d.show(SPRING)
    assert [type(m) for m in sent(out)] == [Sub, Gof]  # the rejoin's replay resends them once
    assert not sent(d.later(0.5).show(SPRING))
    assert noted(d.log, notes.PhasePlayed) == [notes.PhasePlayed(SPRING.turn)]


def test_civil_disorder_removals_a_mis_asks_for_follow_the_servers_rules() -> None:
    d = Driver(core=BotCore(CoreSettings(name="test", version="1", seed=7, rules="datc")))
    d.core.player.chooser = OrdersNothing()
    d.join()
    assert not sent(d.show(FAR_FLEETS), Sub)
    (sub,) = sent(d.later(0.1).say(Mis(count=1)), Sub)
    assert sub.orders == (Remove(Unit("FRA", UnitType.FLEET, Location("ADR"))),)
