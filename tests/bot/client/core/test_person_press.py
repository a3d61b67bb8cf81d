"""A person's press at the core: FRM noted for the person (not answered by the bot), SND sent
for them only when it may go."""

from __future__ import annotations

import pytest

from bot.client.core import events as ev
from bot.client.core import notes
from bot.client.core.core import BotCore, CoreSettings
from bot.client.core.person_press import (
    FOR_THE_PERSON,
    PersonPressError,
    check_person_press,
)
from protocol.expression import fold
from protocol.messages import Frm, Snd
from protocol.press import Accept, Demilitarise, Draw, Peace, Press, Proposal, Reject
from protocol.tokens import STANDARD
from protocol.variant import Variant
from tests.bot.client.core.driver import Driver, noted, opening, sent

SPRING = opening()
POWERS = ("AUS", "ENG", "FRA", "GER", "ITA", "RUS", "TUR")
PEACE = Proposal(Peace(("ENG", "FRA")))
OTHERS = ("ENG", "GER", "ITA", "AUS", "RUS", "TUR")


def _seat(level: int = 10, press_turn: bool = False) -> Driver:
    settings = CoreSettings(
        name="person", version="1", seed=3, chooser="person", press_turn=press_turn
    )
    core = BotCore(settings)
    d = Driver(core=core)
    d.join(Variant.of(level, move_time_limit=60))
    d.show(SPRING)
    return d


def _frm(sender: str, press: Press) -> Frm:
    return Frm(sender, ("FRA",), fold(press.to_tokens(STANDARD), STANDARD))


def test_press_heard_is_noted_for_the_person_and_not_answered() -> None:
    d = _seat()
    out = d.say(_frm("ENG", PEACE))
    assert sent(out, Snd) == []  # the bot does not answer for the person
    (heard,) = noted(out, notes.PressIn)
    assert heard.sender == "ENG" and heard.reaction == FOR_THE_PERSON
    assert "PRP ( PCE ( ENG FRA ) )" in heard.text


def test_the_person_seat_proposes_nothing_by_itself() -> None:
    d = _seat()
    assert not d.core.negotiating
    assert [m for m in sent(d.log, Snd)] == []


def test_press_the_game_cannot_read_is_still_answered_huh_and_try() -> None:
    d = _seat()
    out = d.say(_frm("ENG", Proposal(Demilitarise(("ENG", "FRA"), ("BUR",)))))  # level 20
    assert len(sent(out, Snd)) == 2
    assert "not understood" in noted(out, notes.PressIn)[0].reaction


def test_the_persons_press_is_sent_as_one_snd() -> None:
    d = _seat()
    out = d.feed(ev.PersonPress(d.now, ("ENG",), Accept(PEACE)))
    (snd,) = sent(out, Snd)
    assert snd.recipients == ("ENG",)
    (note,) = noted(out, notes.PressOut)
    assert note.text == "SND ( ENG ) ( YES ( PRP ( PCE ( ENG FRA ) ) ) )"
    assert note.recipients == ("ENG",)


def test_the_persons_press_is_noted_as_sent_with_the_turn_the_server_needs() -> None:
    d = _seat(press_turn=True)
    out = d.feed(ev.PersonPress(d.now, ("ENG",), Accept(PEACE)))
    (snd,) = sent(out, Snd)
    assert snd.turn == SPRING.turn
    (note,) = noted(out, notes.PressOut)
    assert note.text == "SND ( SPR 1901 ) ( ENG ) ( YES ( PRP ( PCE ( ENG FRA ) ) ) )"
    assert note.text == snd.to_text(STANDARD)  # the record is the message sent


@pytest.mark.parametrize(
    ("recipients", "press", "level", "why"),
    [
        (("ENG",), PEACE, 0, "no press"),
        ((), PEACE, 10, "at least one recipient"),
        (("ENG", "ENG"), PEACE, 10, "twice"),
        (("XYZ",), PEACE, 10, "not a power"),
        (("FRA",), PEACE, 10, "yourself"),
        (("ENG",), Proposal(Demilitarise(("ENG", "FRA"), ("BUR",))), 10, "needs level 20"),
    ],
)
def test_press_that_may_not_go_is_refused_with_a_reason(
    recipients: tuple[str, ...], press: Press, level: int, why: str
) -> None:
    with pytest.raises(PersonPressError, match=why):
        check_person_press(recipients, press, level, POWERS, "FRA")
    d = _seat(level)
    out = d.feed(ev.PersonPress(d.now, recipients, press))
    assert sent(out, Snd) == []
    (refused,) = noted(out, notes.PersonPressRefused)
    assert why in refused.reason
    assert refused.recipients == recipients


def test_press_within_the_level_passes_the_check() -> None:
    check_person_press(("ENG", "GER"), Proposal(Draw()), 10, POWERS, "FRA")
    check_person_press(("ENG",), Reject(PEACE), 10, POWERS, "FRA")
    check_person_press(("ENG",), Proposal(Demilitarise(("ENG", "FRA"), ("BUR",))), 20, POWERS, None)


def test_press_after_the_connection_is_lost_is_refused_not_sent() -> None:
    d = _seat()
    d.lose()
    out = d.feed(ev.PersonPress(d.now, ("ENG",), Accept(PEACE)))
    assert sent(out, Snd) == []
    assert [n.recipients for n in noted(out, notes.PersonPressRefused)] == [("ENG",)]


def test_press_before_the_game_is_refused_not_raised() -> None:
    core = BotCore(CoreSettings(name="person", version="1", seed=3, chooser="person"))
    d = Driver(core=core)
    out = d.feed(ev.PersonPress(d.now, ("ENG",), PEACE))
    assert noted(out, notes.PersonPressRefused)
    assert sent(out, Snd) == []


@pytest.mark.parametrize(
    ("recipients", "level", "why"),
    [
        (("ENG",), 0, "this game has no press (level 0)"),
        (("ENG",), 5, "this game has no press (level 5)"),
        ((), 10, "press needs at least one recipient"),
        ((*OTHERS, "ENG", "GER"), 10, "press goes to at most 7 powers"),
        ((*OTHERS, "FRA"), 10, "press to yourself (FRA)"),
        (("ENG", "GER", "ENG"), 10, "a power is named twice among the recipients"),
        (("XYZ", "ENG", "ABC"), 10, "not a power of this game: XYZ ABC"),
    ],
)  # fmt: skip
def test_each_refusal_says_exactly_why(recipients: tuple[str, ...], level: int, why: str) -> None:
    with pytest.raises(PersonPressError) as refused:
        check_person_press(recipients, PEACE, level, POWERS, "FRA")
    assert str(refused.value) == why


def test_press_above_the_level_names_both_levels() -> None:
    dmz = Proposal(Demilitarise(("ENG", "FRA"), ("BUR",)))
    with pytest.raises(PersonPressError) as refused:
        check_person_press(("ENG",), dmz, 10, POWERS, "FRA")
    assert str(refused.value) == "this press needs level 20; the game is at level 10"


def test_the_persons_press_after_the_connection_is_lost_is_refused_and_not_sent() -> None:
    d = _seat()
    d.lose()
    out = d.feed(ev.PersonPress(d.now, ("ENG",), Accept(PEACE)))
    assert sent(out) == []
    (refused,) = noted(out, notes.PersonPressRefused)
    assert refused.reason == "not connected"
