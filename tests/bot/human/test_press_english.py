"""Press in plain English, case by case: DAIDE text read at its level, and the sentence shown."""

from __future__ import annotations

import pytest

from bot.human.press_english import YOU, arrangement_english, listing, press_english
from protocol.expression import flatten
from protocol.messages import Frm, parse_text
from protocol.press import (
    Accept,
    Alliance,
    AnyOf,
    Cancel,
    Decline,
    Draw,
    Fact,
    Peace,
    Press,
    Proposal,
    Puzzled,
    Reject,
    Try,
)
from protocol.press_reader import parse_frm_press, parse_press_text
from protocol.tokens import STANDARD

LEVEL = 30


@pytest.mark.parametrize(
    ("frm", "english"),
    [
        (
            "FRM (ENG) (FRA) (PRP (PCE (ENG FRA GER)))",
            "England proposes peace with France and Germany",
        ),
        (
            "FRM (ENG) (FRA GER) (PRP (PCE (FRA GER)))",
            "England proposes peace between France and Germany",
        ),
        (
            "FRM (RUS) (TUR) (PRP (ALY (RUS TUR) VSS (AUS)))",
            "Russia proposes an alliance with Turkey against Austria",
        ),
        (
            "FRM (RUS) (TUR) (PRP (ALY (ITA TUR) VSS (AUS GER)))",
            "Russia proposes an alliance of Italy and Turkey against Austria and Germany",
        ),
        ("FRM (ITA) (AUS) (PRP (DRW))", "Italy proposes a draw"),
        (
            "FRM (ITA) (AUS) (PRP (DRW (ITA AUS)))",
            "Italy proposes a draw between Italy and Austria",
        ),
        ("FRM (ITA) (AUS) (PRP (SLO (ITA)))", "Italy proposes a solo for Italy"),
        (
            "FRM (GER) (FRA) (PRP (XDO ((GER AMY MUN) MTO BUR)))",
            "Germany proposes the order A MUN - BUR",
        ),
        (
            "FRM (GER) (FRA) (PRP (DMZ (FRA GER) (BUR RUH)))",
            "Germany proposes a demilitarised zone in BUR and RUH "
            "(kept clear by France and Germany)",
        ),
        (
            "FRM (GER) (FRA) (PRP (AND (PCE (FRA GER)) (DMZ (FRA GER) (BUR))))",
            "Germany proposes all of: peace with France; "
            "a demilitarised zone in BUR (kept clear by France and Germany)",
        ),
        (
            "FRM (GER) (FRA) (PRP (ORR (DRW) (SLO (GER))))",
            "Germany proposes one of: a draw; a solo for Germany",
        ),
        ("FRM (FRA) (ENG) (YES (PRP (PCE (ENG FRA))))", "France accepts peace with England"),
        ("FRM (FRA) (ENG) (REJ (PRP (PCE (ENG FRA))))", "France rejects peace with England"),
        (
            "FRM (FRA) (ENG) (BWX (PRP (DRW)))",
            "France declines to answer about a draw",
        ),
        (
            "FRM (ENG) (FRA) (CCL (PRP (PCE (ENG FRA))))",
            "England withdraws the proposal of peace with France",
        ),
        (
            "FRM (ENG) (FRA) (FCT (NOT (PCE (ENG FRA))))",
            "England states as a fact: not peace with France",
        ),
        (
            "FRM (ENG) (FRA) (PRP (NAR (PCE (ENG FRA))))",
            "England proposes no arrangement on peace with France",
        ),
        ("FRM (ENG) (FRA) (TRY (PRP PCE ALY))", "England understands press of PRP, PCE and ALY"),
        ("FRM (ENG) (FRA) (TRY ())", "England understands no press"),
        ("FRM (ENG) (FRA) (HUH (ERR PRP (PCE (ENG FRA))))", "England did not understand a message"),
    ],
)
def test_press_heard_in_english(frm: str, english: str) -> None:
    message = parse_text(frm, STANDARD)
    assert isinstance(message, Frm)
    press = parse_frm_press(message, LEVEL, STANDARD)
    assert press_english(press, message.sender) == english
    assert flatten(message.press)  # the DAIDE shown beside it is the message's own


@pytest.mark.parametrize(
    ("text", "english"),
    [
        ("PRP (PCE (FRA ENG))", "You propose peace with England"),
        ("PRP (PCE (ENG GER))", "You propose peace between England and Germany"),
        ("YES (PRP (PCE (ENG FRA)))", "You accept peace with England"),
        ("PRP (ALY (FRA ENG) VSS (GER))", "You propose an alliance with England against Germany"),
        ("REJ (PRP (DRW))", "You reject a draw"),
        ("CCL (PRP (DRW))", "You withdraw the proposal of a draw"),
        ("HUH (ERR PRP)", "You did not understand a message"),
    ],
)
def test_press_sent_by_the_person(text: str, english: str) -> None:
    assert press_english(parse_press_text(text, LEVEL, STANDARD), YOU, "FRA") == english


def test_what_is_not_an_arrangement_is_refused() -> None:
    with pytest.raises(TypeError, match="not an arrangement"):
        arrangement_english(Proposal(Draw()))  # type: ignore[arg-type]


def test_a_variants_powers_are_named_by_their_tokens() -> None:
    assert arrangement_english(Peace(("UNO", "DOS", "TRE")), "UNO") == "peace with DOS and TRE"
    assert listing([]) == "nobody" and listing(["a", "b", "c"]) == "a, b and c"


PEACE_EF = Peace(("ENG", "FRA"))


@pytest.mark.parametrize(
    ("press", "sender", "english"),
    [
        (Accept(Fact(PEACE_EF)), "FRA", "France accepts the statement of peace with England"),
        (
            Reject(Cancel(Accept(Proposal(PEACE_EF)))),
            "ENG",
            "England rejects the withdrawal of the acceptance of peace with France",
        ),
        (
            Decline(Cancel(Proposal(PEACE_EF))),
            "FRA",
            "France declines to answer about the withdrawal of peace with England",
        ),
        (Reject(Try(("PRP",))), "FRA", "France rejects the press understood"),
        (
            Cancel(Fact(PEACE_EF)),
            "ENG",
            "England withdraws the statement of peace with France",
        ),
        (
            Cancel(Accept(Proposal(PEACE_EF))),
            "FRA",
            "France withdraws the acceptance of peace with England",
        ),
        (
            Decline(Proposal(PEACE_EF)),
            "FRA",
            "France declines to answer about peace with England",
        ),
        (Proposal(Draw()), None, "Someone proposes a draw"),
        (Puzzled(()), None, "Someone did not understand a message"),
        (Cancel(Fact(PEACE_EF)), YOU, "You withdraw the statement of peace with England"),
        (
            Proposal(AnyOf((PEACE_EF, Draw()))),
            "ENG",
            "England proposes one of: peace with France; a draw",
        ),
    ],
)
def test_replies_and_withdrawals_name_what_they_are_about(
    press: Press, sender: str | None, english: str
) -> None:
    assert press_english(press, sender, "FRA") == english


def test_a_lone_power_is_bound_by_name_not_with_nobody() -> None:
    assert arrangement_english(Peace(("ENG",)), "ENG") == "peace between England"
    assert (
        arrangement_english(Alliance(("ENG",), ("GER",)), "ENG")
        == "an alliance of England against Germany"
    )


def test_what_is_not_press_is_refused_by_name() -> None:
    with pytest.raises(TypeError, match=r"^not press: Draw\(powers=None\)$"):
        press_english(Draw(), "ENG")  # type: ignore[arg-type]
