"""The core at the wire: connections, RM, FM, EM, each DM read with the game's table, and the
settings that reach its parts.

What a user and the protocol see: the notes (the console, the game log), the
messages sent, the effects asked of the shell; a message that does not fit is
noted as ignored with its reason and changes nothing.
"""

from __future__ import annotations

from typing import Any

import pytest

from adjudicator.rules import CivilDisorderRule
from bot.client.core import events as ev
from bot.client.core import notes
from bot.client.core.core import BotCore, CoreSettings
from bot.client.core.effects import Disconnect, Effect, Publish
from protocol.expression import fold
from protocol.messages import (
    Ccd,
    Drw,
    Huh,
    Iam,
    Message,
    Nme,
    Now,
    Off,
    Ord,
    Rej,
    Sco,
    Smr,
    Snd,
    Sub,
    Yes,
)
from protocol.press import Peace, Proposal
from protocol.tokens import BRA, ERR, KET, STANDARD, TokenTable
from protocol.values import Hold, Location, OrderResult, Season, Turn, Unit, UnitPosition, UnitType
from protocol.variant import Variant
from protocol.wire import DiplomacyMessage, ErrorMessage, FinalMessage, RepresentationMessage
from tests.bot.client.core.driver import PASSCODE, Driver, job_of, noted, opening, sent

ELF = 0x4107
"""An eighth power's token number: only a game whose RM defines it knows it."""

EIGHT = TokenTable.from_representation((*STANDARD.entries, (ELF, "ELF")))
"""The standard table with an eighth power, ELF."""

HOST, PORT = "daide.example", 16713

IGNORED_ANSWER = "an answer to a message we did not send (or that was answered)"


def core(**settings: Any) -> BotCore:
    """A core with the test's name, version and seed and ``settings``."""
    return BotCore(CoreSettings(name="test", version="1", seed=7, **settings))


def wire(d: Driver, message: Any) -> list[Effect]:
    """The server sends the wire message ``message`` now."""
    return d.feed(ev.ServerMessage(d.now, message))


def dm(d: Driver, tokens: tuple[int, ...], table: TokenTable = EIGHT) -> list[Effect]:
    """The server sends ``tokens`` as a DM of the game whose table is ``table``."""
    return wire(d, DiplomacyMessage(tokens, table))


def all_notes(actions: list[Effect]) -> list[notes.Note]:
    """Every note among ``actions``, in order."""
    return [a.note for a in actions if isinstance(a, Publish)]


def ignored(actions: list[Effect]) -> list[notes.MessageIgnored]:
    """The messages noted as ignored."""
    return noted(actions, notes.MessageIgnored)


def in_eight() -> Driver:
    """A driver connected to a game whose RM defines an eighth power (greeted, not joined)."""
    d = Driver()
    d.feed(ev.ConnectionOpened(d.now, HOST, PORT))
    wire(d, RepresentationMessage(EIGHT.entries))
    return d


def in_spring(d: Driver | None = None) -> Driver:
    """``d`` (a fresh driver by default) joined as France and shown the opening."""
    d = d or Driver()
    d.join()
    d.show(opening())
    return d


# --- the connection ----------------------------------------------------------------------------


def test_a_connection_is_noted_with_the_server_and_greets_as_new_without_a_seat() -> None:
    d = Driver()
    out = d.feed(ev.ConnectionOpened(d.now, HOST, PORT))
    assert all_notes(out) == [notes.Connected(HOST, PORT, False)]
    out = wire(d, RepresentationMessage(EIGHT.entries))
    assert all_notes(out) == [notes.RepresentationReceived(len(EIGHT.entries), EIGHT)]
    assert sent(out) == [Nme("test", "1")]


def test_the_seat_from_the_settings_rejoins_with_iam_on_the_first_connection() -> None:
    d = Driver(core=core(rejoin_power="ITA", rejoin_passcode=77))
    out = d.feed(ev.ConnectionOpened(d.now, HOST, PORT))
    assert all_notes(out) == [notes.Connected(HOST, PORT, True)]
    assert sent(d.open_rm()) == [Iam("ITA", 77)]
    out = d.say(Yes(Iam("ITA", 77)))
    assert noted(out, notes.Rejoined) == [notes.Rejoined("ITA")]


def test_a_second_rm_after_a_refused_iam_greets_as_new_never_with_an_empty_iam() -> None:
    d = Driver(core=core(rejoin_power="FRA", rejoin_passcode=PASSCODE))
    assert sent(d.open()) == [Iam("FRA", PASSCODE)]
    assert sent(d.say(Rej(Iam("FRA", PASSCODE)))) == [Nme("test", "1")]
    out = d.open_rm()
    assert sent(out) == [Nme("test", "1")]
    assert not noted(out, notes.HandlerError)


def test_the_servers_fm_closes_the_connection_and_the_bot_may_come_back() -> None:
    d = in_spring()
    out = wire(d, FinalMessage())
    assert out == [Publish(notes.ServerClosed()), Disconnect(final=False)]


def test_the_servers_em_is_noted_with_its_code_and_meaning_and_closes_the_connection() -> None:
    d = in_spring()
    out = wire(d, ErrorMessage(3))
    meaning = ErrorMessage(3).description
    assert meaning != "unknown error code"
    assert out == [Publish(notes.ServerError(3, meaning)), Disconnect(final=False)]


# --- each DM, read with the game's table -------------------------------------------------------


def test_a_message_naming_what_only_the_games_rm_defines_is_understood() -> None:
    d = in_eight()
    out = dm(d, tuple(Ccd("ELF", None).to_tokens(EIGHT)))
    assert all_notes(out) == [
        notes.MessageIn("CCD ( ELF )"),
        notes.CivilDisorder("ELF", None, False),
    ]
    assert not sent(out)


def test_a_message_that_does_not_parse_is_answered_quoting_it_in_the_games_names() -> None:
    d = in_eight()
    ccd = tuple(Ccd("ELF", None).to_tokens(EIGHT))
    bad = (*ccd, BRA, ELF, KET, ELF)
    out = dm(d, bad)
    (message_in, bad_message) = all_notes(out)
    assert message_in == notes.MessageIn("CCD ( ELF ) ( ELF ) ELF")
    assert isinstance(bad_message, notes.BadMessage)
    assert bad_message.text == "CCD ( ELF ) ( ELF ) ELF" and bad_message.quote_error is None
    assert bad_message.error.endswith("at token 5") and "ELF" in bad_message.error
    # HUH quotes the message with ERR before the first bad token, each token named by the game.
    assert sent(out) == [Huh(fold((*bad[:5], ERR, *bad[5:]), EIGHT))]


def test_a_huh_that_does_not_parse_is_noted_and_never_answered() -> None:
    d = in_spring()
    huh = tuple(Huh(()).to_tokens(STANDARD))[:1]
    out = dm(d, (*huh, ELF), STANDARD)
    (bad,) = noted(out, notes.BadMessage)
    assert bad.text == "HUH 0x4107" and bad.quote_error is None
    assert not sent(out) and not noted(out, notes.HandlerError)


def test_a_message_a_server_never_sends_is_ignored() -> None:
    d = in_spring()
    out = d.say(Sub(()))
    assert all_notes(out) == [
        notes.MessageIn("SUB"),
        notes.MessageIgnored("a message a server does not send", "SUB", "SUB"),
    ]
    assert not sent(out)


# --- answers to what we sent -------------------------------------------------------------------


def test_an_answer_to_an_iam_we_never_sent_rejoins_nothing() -> None:
    d = in_spring()
    out = d.say(Yes(Iam("FRA", PASSCODE)))
    assert ignored(out) == [
        notes.MessageIgnored(IGNORED_ANSWER, f"YES ( IAM ( FRA ) ( {PASSCODE} ) )", "YES")
    ]
    assert not sent(out) and not noted(out, notes.Rejoined)


def test_an_answer_before_any_connection_is_ignored() -> None:
    d = Driver()
    out = d.say(Yes(Nme("test", "1")))
    assert ignored(out) == [
        notes.MessageIgnored(IGNORED_ANSWER, 'YES ( NME ( "test" ) ( "1" ) )', "YES")
    ]
    assert not noted(out, notes.HandlerError)


# --- SCO ---------------------------------------------------------------------------------------


def test_sco_is_counted_per_power_and_one_that_does_not_fit_the_map_is_ignored() -> None:
    d = Driver()
    d.join()
    out = d.say(Sco((("FRA", ("BRE", "MAR", "PAR")), ("GER", ("KIE",)))))
    assert noted(out, notes.CentresCounted) == [notes.CentresCounted({"FRA": 3, "GER": 1})]
    out = d.say(Sco((("FRA", ("BUR",)),)))
    assert ignored(out) == [
        notes.MessageIgnored(
            "SCO does not fit the map: BUR is not a supply centre", "SCO ( FRA BUR )", "SCO"
        )
    ]
    assert not noted(out, notes.CentresCounted)
    out = d.say(Sco())
    assert ignored(out) == [
        notes.MessageIgnored(
            "SCO without centres (a request: servers do not send it)", "SCO", "SCO"
        )
    ]


# --- NOW ---------------------------------------------------------------------------------------


def test_a_now_that_does_not_fit_is_ignored_with_its_reason_and_the_phase_goes_on() -> None:
    d = in_spring()
    spring = opening()
    ups = spring.unit_positions()
    out = d.say(Now())
    assert ignored(out) == [
        notes.MessageIgnored("NOW without a turn (a request: servers do not send it)", "NOW", "NOW")
    ]
    late = Now(Turn(Season.SPRING, 1905), ups)
    out = d.say(late)
    assert [(n.reason, n.kind) for n in ignored(out)] == [
        ("NOW for SPR 1905, more than 1 year after SPR 1901", "NOW")
    ]
    assert ignored(out)[0].text == d.core.out.text(late)
    fleet_in_paris = Now(spring.turn, (UnitPosition(Unit("FRA", UnitType.FLEET, Location("PAR"))),))
    out = d.say(fleet_in_paris)
    assert ignored(out) == [
        notes.MessageIgnored(
            "NOW does not fit the game: (FRA FLT PAR) cannot stand there",
            "NOW ( SPR 1901 ) ( FRA FLT PAR )",
            "NOW",
        )
    ]
    assert not noted(out, notes.PhaseStarted)


def test_a_now_left_behind_is_ignored_and_after_the_game_no_phase_is_played() -> None:
    d = in_spring()
    spring = opening()
    fall = Now(Turn(Season.FALL, 1901), spring.unit_positions())
    assert noted(d.later(1).say(fall), notes.PhaseStarted)
    again = Now(spring.turn, spring.unit_positions())
    out = d.say(again)
    assert [(n.reason, n.kind) for n in ignored(out)] == [
        ("NOW for SPR 1901 repeats one left behind (the phase is FAL 1901)", "NOW")
    ]
    assert not noted(out, notes.PhaseStarted)
    d.say(Drw(), Smr(fall.turn, ()))
    assert d.core.game_over is True
    out = d.later(1).say(Now(Turn(Season.SPRING, 1902), spring.unit_positions()))
    assert not noted(out, notes.PhaseStarted) and not sent(out)


def test_the_game_is_over_only_once_the_server_ends_it() -> None:
    d = in_spring()
    assert d.core.game_over is False
    out = d.say(Off())
    assert d.core.game_over is True and Disconnect(final=True) in out


def test_the_shadow_check_of_a_phase_is_noted_with_the_games_totals() -> None:
    d = in_spring()
    spring = opening()
    d.say(
        *(Ord(OrderResult(spring.turn, Hold(up.unit), ("SUC",))) for up in spring.unit_positions())
    )
    out = d.later(1).say(Now(Turn(Season.FALL, 1901), spring.unit_positions()))
    (checked,) = noted(out, notes.ShadowChecked)
    assert (checked.turn, checked.ok, checked.differences) == (spring.turn, True, ())
    assert checked.predicted == checked.actual and "(FRA AMY PAR)" in checked.actual
    assert noted(out, notes.ShadowTotals) == [notes.ShadowTotals(1, 0, 0)]


# --- what the core does with its own trouble ---------------------------------------------------


class ExplodingChooser:
    """The bot's chooser, but moving the phase on raises (a bug of ours)."""

    def __init__(self, chooser: Any) -> None:
        self._chooser = chooser

    def __getattr__(self, name: str) -> Any:
        return getattr(self._chooser, name)

    def advance(self, view: Any) -> list[Any]:
        """A bug."""
        raise RuntimeError("boom")


def test_a_game_action_before_the_rejoin_is_held_back_saying_which() -> None:
    d = in_spring()
    d.later(1).lose()
    d.later(1).open()
    out = d.show(opening())
    assert noted(out, notes.HeldBack) == [notes.HeldBack("NOT before the session joined the game")]


def test_a_bug_in_the_phase_fails_the_phase_with_its_error_not_the_core() -> None:
    d = in_spring()
    d.core.player.chooser = ExplodingChooser(d.core.player.chooser)
    out = d.later(1).tick()
    assert noted(out, notes.PhaseFailed) == [
        notes.PhaseFailed(opening().turn, repr(RuntimeError("boom")))
    ]
    assert not noted(out, notes.HandlerError)


def test_a_bug_outside_any_phase_is_noted_as_the_cores() -> None:
    d = Driver()
    d.join()
    out = d.feed(ev.SearchMessage(d.now, None))  # type: ignore[arg-type]
    (error,) = noted(out, notes.HandlerError)
    assert (error.text, error.kind) == ("", "CORE")
    assert error.error.startswith("AttributeError(") and "job_id" in error.error
    assert not noted(out, notes.PhaseFailed)


# --- the settings reach the parts -------------------------------------------------------------


def test_without_a_deadline_the_search_thinks_for_the_think_time() -> None:
    d = Driver(core=core(think_time=3.0))
    d.join(Variant.of(move_time_limit=0))
    out = d.show(opening())
    limit = job_of(out).limit
    assert d.now + 2.0 < limit.stop_at <= d.now + 3.0


def test_the_margin_and_the_thinking_cap_from_the_settings_bound_the_search() -> None:
    starts = {}
    for name, settings in (
        ("default", {}),
        ("margin", {"min_margin": 5.0}),
        ("cap", {"max_think": 2.0}),
        ("iterations", {"iterations": 50}),
    ):
        d = Driver(core=core(**settings))
        d.join(Variant.of(move_time_limit=30))
        starts[name] = job_of(d.show(opening())).limit
    assert starts["margin"].stop_at <= starts["default"].stop_at - 4.0
    assert starts["cap"].stop_at <= Driver().now + 2.0
    assert starts["default"].iterations is None and starts["iterations"].iterations == 50


def test_the_civil_disorder_rule_of_the_settings_is_the_one_adjudicated_by() -> None:
    d = Driver(core=core(rules="datc"))
    assert d.core.mirror.rule is CivilDisorderRule.DATC
    assert d.core.player.rule is CivilDisorderRule.DATC


@pytest.mark.parametrize(("seed", "negotiator_seed"), [(7, 7), (None, 0)])
def test_the_seed_seeds_the_negotiators_evaluations(seed: int | None, negotiator_seed: int) -> None:
    assert (
        BotCore(CoreSettings(name="t", version="1", seed=seed)).negotiator.seed == negotiator_seed
    )


def test_one_seed_plays_one_game() -> None:
    firsts: list[list[Message]] = []
    for _ in range(2):
        d = Driver(core=core(strategy="random"))
        d.join()
        firsts.append(sent(d.show(opening()), Sub))
    assert firsts[0] == firsts[1]


def test_a_turned_press_before_the_first_phase_names_no_turn() -> None:
    d = Driver(core=core(press_turn=True))
    d.join(Variant.of(move_time_limit=10, level=10))
    out = d.feed(ev.PersonPress(d.now, ("GER",), Proposal(Peace(("FRA", "GER")))))
    (snd,) = sent(out, Snd)
    assert snd.turn is None and not noted(out, notes.PersonPressRefused)


def test_an_unknown_chooser_is_refused_naming_the_choosers() -> None:
    with pytest.raises(ValueError, match=r"^unknown chooser 'robot'; one of bot, person$"):
        core(chooser="robot")


def test_a_now_before_the_centres_are_known_plays_nothing_until_they_are() -> None:
    d = Driver()
    d.join()
    spring = opening()
    out = d.say(Now(spring.turn, spring.unit_positions()))
    assert not noted(out, notes.PhaseStarted) and not noted(out, notes.HandlerError)
    assert not sent(out)
    assert noted(d.show(spring), notes.PhaseStarted)
