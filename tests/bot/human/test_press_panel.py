"""The press panel's requests on a served seat: press built from the menus or read from DAIDE
text, checked at the game's level; bad press refused in one line with nothing sent; the
record of press heard and sent, and of what is agreed with whom."""

from __future__ import annotations

import json

import pytest

from bot.client.core import notes
from bot.human.api import PressView
from bot.human.press_panel import NOT_UNDERSTOOD, REFUSED_BY_SERVER, PressLog
from protocol.press import (
    Accept,
    Alliance,
    Demilitarise,
    DoOrder,
    Draw,
    Peace,
    Proposal,
    Reject,
)
from protocol.tokens import STANDARD
from tests.bot.human.conftest import Served

LEVEL = 10


def _press(served: Served, to: list[str], form: dict) -> tuple[int, str]:
    return served.call("POST", "/api/press", {"to": to, "press": form})


def _sent(served: Served) -> list[tuple[tuple[str, ...], object]]:
    return [value for kind, value in served.seat.sent if kind == "press"]


def _view(served: Served) -> dict:
    return json.loads(served.call("GET", "/api/state")[1])["press"]


@pytest.mark.parametrize(
    ("to", "form", "press"),
    [
        (["ENG"], {"kind": "peace", "powers": ["FRA", "ENG"]}, Proposal(Peace(("FRA", "ENG")))),
        (
            ["eng", "ger"],
            {"kind": "alliance", "allies": ["FRA", "ENG", "GER"], "enemies": ["RUS"]},
            Proposal(Alliance(("FRA", "ENG", "GER"), ("RUS",))),
        ),
        (["ENG", "GER", "ITA"], {"kind": "draw"}, Proposal(Draw())),
        (
            ["ENG"],
            {"kind": "text", "text": "prp (pce (eng fra))"},
            Proposal(Peace(("ENG", "FRA"))),
        ),
        (["ENG"], {"kind": "text", "text": "REJ (PRP (DRW))"}, Reject(Proposal(Draw()))),
    ],
)
def test_press_from_the_menus_or_typed_is_sent(
    served: Served, to: list[str], form: dict, press: object
) -> None:
    status, text = _press(served, to, form)
    assert status == 200, text
    answer = json.loads(text)
    assert answer["ok"] is True and answer["english"].startswith("You ")
    assert _sent(served) == [(tuple(p.upper() for p in to), press)]


@pytest.mark.parametrize(
    ("to", "form", "why"),
    [
        (["ENG"], {"kind": "text", "text": "PRP (PCE (ENG FRA)"}, "never closed"),
        (["ENG"], {"kind": "text", "text": "hello there"}, "unknown token 'hello'"),
        (["ENG"], {"kind": "text", "text": "PRP (PCE (ENG LON))"}, "expected a power"),
        (["ENG"], {"kind": "text", "text": "PRP (DMZ (ENG FRA) (BUR))"}, "needs press level 20"),
        (["ENG"], {"kind": "text", "text": "PRP (SCD (ENG LON))"}, "needs press level 40"),
        (["ENG"], {"kind": "dmz", "powers": ["ENG"], "provinces": ["BUR"]}, "needs level 20"),
        (["ENG"], {"kind": "orders", "orders": ["A PAR - BUR"]}, "needs level 20"),
        (["ENG"], {"kind": "peace", "powers": ["FRA"]}, "at least 2 power"),
        (["ENG"], {"kind": "peace", "powers": ["FRA", "XYZ"]}, "not a power of this game: XYZ"),
        (["XYZ"], {"kind": "draw"}, "not a power of this game: XYZ"),
        (["FRA"], {"kind": "draw"}, "yourself"),
        ([], {"kind": "draw"}, "at least one recipient"),
        (["ENG"], {"kind": "treaty"}, "press"),
        (["ENG"], {"kind": "draw", "powers": ["ENG"]}, "no such field"),
        (["ENG"], {"kind": "text", "text": "P" * 3000}, "press.text"),
        (["ENG"] * 50, {"kind": "draw"}, "to:"),
    ],
)
def test_bad_press_is_refused_in_one_line_and_nothing_is_sent(
    served: Served, to: list[str], form: dict, why: str
) -> None:
    status, text = _press(served, to, form)
    assert status == 400, text
    assert why in text and text.count("\n") == 1
    assert _sent(served) == []


def test_press_at_level_20_has_orders_and_zones(served: Served) -> None:
    served.seat.level = 20
    assert _press(served, ["ENG"], {"kind": "orders", "orders": ["A PAR - BUR"]})[0] == 200
    zone = {"kind": "dmz", "powers": ["eng", "fra"], "provinces": ["eng", "pic"]}
    assert _press(served, ["ENG"], zone)[0] == 200
    (_, order), (_, dmz) = _sent(served)
    assert isinstance(order, Proposal) and isinstance(order.arrangement, DoOrder)
    assert dmz == Proposal(Demilitarise(("ENG", "FRA"), ("ENG", "PIC")))
    bad = _press(served, ["ENG"], {"kind": "orders", "orders": ["A MUN - BOH"]})
    assert bad[0] == 400 and "MUN" in bad[1]
    assert _view(served)["kinds"] == ["peace", "alliance", "draw", "orders", "dmz", "text"]


def test_a_no_press_game_refuses_press_and_offers_no_menus(served: Served) -> None:
    served.seat.level = 0
    status, text = _press(served, ["ENG"], {"kind": "draw"})
    assert status == 400 and "no press (level 0)" in text
    view = _view(served)
    assert view["level"] == 0 and view["kinds"] == []
    assert _sent(served) == []


def _hear(log: PressLog, text: str, reaction: str = "for the person") -> None:
    sender = text.split("(")[1].split(")")[0].strip()
    log.noted(notes.PressIn(sender, text, reaction), STANDARD, LEVEL, None)


def _say(log: PressLog, recipients: tuple[str, ...], text: str) -> None:
    log.noted(notes.PressOut(recipients, text), STANDARD, LEVEL, None)


def test_a_proposal_heard_is_answered_from_its_line(served: Served) -> None:
    log = served.app.press
    assert log is not None
    _hear(log.log, "FRM ( ENG ) ( FRA ) ( PRP ( PCE ( ENG FRA ) ) )")
    (line,) = _view(served)["lines"]
    assert line["english"] == "England proposes peace with France"
    assert line["answerable"] and line["way"] == "in"
    status, text = served.call("POST", "/api/press/answer", {"line": line["line"], "yes": True})
    assert status == 200, text
    proposal = Proposal(Peace(("ENG", "FRA")))
    assert _sent(served) == [(("ENG",), Accept(proposal))]
    # The core sends it and notes it: the line is answered, the peace agreed with England.
    _say(log.log, ("ENG",), "SND ( ENG ) ( YES ( PRP ( PCE ( ENG FRA ) ) ) )")
    view = PressView.model_validate(_view(served))
    assert view.lines[0].answer == "YES" and not view.lines[0].answerable
    assert view.lines[1].english == "You accept peace with England"
    (agreed,) = view.agreements
    assert agreed.partner == "ENG" and agreed.english == "peace with England"
    again = served.call("POST", "/api/press/answer", {"line": line["line"], "yes": False})
    assert again[0] == 400 and "answered already (YES)" in again[1]


@pytest.mark.parametrize(
    ("body", "why"),
    [
        ({"line": 99, "yes": True}, "no press line 99"),
        ({"line": 0, "yes": True}, "not a proposal heard"),
        ({"line": -1, "yes": True}, "line:"),
        ({"line": "0", "yes": True}, "line:"),
        ({"line": 0}, "yes: missing"),
    ],
)
def test_bad_answers_are_refused(served: Served, body: dict, why: str) -> None:
    assert served.app.press is not None
    _hear(served.app.press.log, "FRM ( ENG ) ( FRA ) ( YES ( PRP ( DRW ) ) )")
    status, text = served.call("POST", "/api/press/answer", body)
    assert status == 400 and why in text, text
    assert _sent(served) == []


def test_the_record_of_agreements() -> None:
    log = PressLog()
    _say(log, ("ENG", "GER"), "SND ( ENG GER ) ( PRP ( PCE ( ENG FRA GER ) ) )")
    _hear(log, "FRM ( ENG ) ( FRA ) ( YES ( PRP ( PCE ( ENG FRA GER ) ) ) )")
    _hear(log, "FRM ( GER ) ( FRA ) ( REJ ( PRP ( PCE ( ENG FRA GER ) ) ) )")
    view = log.view(LEVEL, "FRA", ("AUS", "ENG", "FRA", "GER"), STANDARD)
    assert view.lines[0].answers == {"ENG": "YES", "GER": "REJ"}
    assert view.powers == ["AUS", "ENG", "GER"]
    assert [(a.partner, a.english) for a in view.agreements] == [
        ("ENG", "peace with England and Germany")
    ]
    _hear(log, "FRM ( ENG ) ( FRA ) ( CCL ( PRP ( PCE ( ENG FRA GER ) ) ) )")
    assert log.view(LEVEL, "FRA", (), STANDARD).agreements == []


def test_press_not_understood_and_refusals_are_shown() -> None:
    log = PressLog()
    _hear(log, "FRM ( ENG ) ( FRA ) ( PRP ( DMZ ( ENG FRA ) ( BUR ) ) )", "not understood: HUH/TRY")
    (line,) = log.view(LEVEL, "FRA", (), STANDARD).lines
    assert line.note == NOT_UNDERSTOOD and not line.answerable
    assert "cannot read" in line.english
    log.noted(notes.PersonPressRefused(("ENG",), "not joined"), STANDARD, LEVEL, None)
    assert log.view(LEVEL, "FRA", (), STANDARD).refused == "not joined"
    log.noted(notes.NotUnderstood("HUH ( SND ( ENG ) ( ERR FCT ( DRW ) ) )"), STANDARD, LEVEL, None)
    assert log.view(LEVEL, "FRA", (), STANDARD).refused == REFUSED_BY_SERVER


def test_a_yes_to_nothing_of_ours_agrees_to_nothing() -> None:
    log = PressLog()
    _hear(log, "FRM ( ENG ) ( FRA ) ( YES ( PRP ( PCE ( ENG FRA ) ) ) )")
    assert log.view(LEVEL, "FRA", (), STANDARD).agreements == []
