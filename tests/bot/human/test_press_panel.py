"""The press panel's requests on a served seat: press built from the menus or read from DAIDE
text, checked at the game's level; bad press refused in one line with nothing sent; the
record of press heard and sent, and of what is agreed with whom."""

from __future__ import annotations

import json

import pytest

from adjudicator.maps import standard_map
from adjudicator.position import initial_position
from bot.client.core import notes
from bot.human.api import BadRequest, PressLine, PressView
from bot.human.press_panel import NOT_UNDERSTOOD, REFUSED_BY_SERVER, PressLog, PressPanel
from protocol.notation import parse_turn
from protocol.press import (
    Accept,
    Alliance,
    AllOf,
    Demilitarise,
    DoOrder,
    Draw,
    Peace,
    Proposal,
    Reject,
)
from protocol.tokens import STANDARD, TokenTable
from protocol.values import Hold, Location, Move, Unit, UnitType
from tests.bot.human.boardseat import BoardSeat
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


# --- the record, line by line (no server: the log and the panel are pure) ------------------

SPRING = parse_turn("SPR 1901")
PEACE_TEXT = "PRP ( PCE ( ENG FRA ) )"
PEACE = Proposal(Peace(("ENG", "FRA")))
VARIANT = TokenTable.of_names(["ONE", "TWO"], ["AAA", "BBB"])


def _heard(log: PressLog, sender: str, press: str, reaction: str = "for the person") -> None:
    text = f"FRM ( {sender} ) ( FRA ) ( {press} )"
    log.noted(notes.PressIn(sender, text, reaction), STANDARD, LEVEL, SPRING)


def _sent_to(log: PressLog, recipients: tuple[str, ...], press: str) -> None:
    text = f"SND ( {' '.join(recipients)} ) ( {press} )"
    log.noted(notes.PressOut(recipients, text), STANDARD, LEVEL, SPRING)


def _lines(log: PressLog) -> list[PressLine]:
    return log.view(LEVEL, "FRA", (), STANDARD).lines


def _agreed(log: PressLog) -> list[tuple[str, str, str | None]]:
    return [(a.partner, a.text, a.since) for a in log.view(LEVEL, "FRA", (), STANDARD).agreements]


def test_lines_are_numbered_in_order_and_carry_their_turn() -> None:
    log = PressLog()
    _heard(log, "ENG", PEACE_TEXT)
    _sent_to(log, ("ENG",), "PRP ( DRW )")
    log.heard("GER", "FRM ( GER ) ( FRA ) ( PRP ( DRW ) )", "for the person", STANDARD, LEVEL, None)
    lines = _lines(log)
    assert [(x.line, x.turn, x.way) for x in lines] == [
        (0, "SPR 1901", "in"),
        (1, "SPR 1901", "out"),
        (2, None, "in"),
    ]
    assert [x.recipients for x in lines] == [["FRA"], ["ENG"], ["FRA"]]
    assert [x.note for x in lines] == [None, None, None]
    assert [x.english for x in lines] == [
        "England proposes peace with France",
        "You propose a draw",
        "Germany proposes a draw",
    ]


def test_what_is_heard_but_not_a_message_from_a_power_cannot_be_read() -> None:
    log = PressLog()
    for text in ("SND ( FRA ) ( PRP ( DRW ) )", "( not DAIDE"):
        log.heard("ENG", text, "for the person", STANDARD, LEVEL, SPRING)
    log.sent(("ENG",), "FRM ( ENG ) ( FRA ) ( PRP ( DRW ) )", STANDARD, LEVEL, SPRING)
    log.sent(("ENG",), "( not DAIDE", STANDARD, LEVEL, SPRING)
    assert [(x.english, x.recipients, x.note) for x in _lines(log)] == [
        ("ENG: press this game cannot read", [], NOT_UNDERSTOOD),
        ("ENG: press this game cannot read", [], NOT_UNDERSTOOD),
        ("You: press this game cannot read", ["ENG"], None),
        ("You: press this game cannot read", ["ENG"], None),
    ]


def test_press_read_but_not_understood_by_the_seat_is_noted() -> None:
    log = PressLog()
    _heard(log, "ENG", PEACE_TEXT, "not understood: HUH/TRY")
    (line,) = _lines(log)
    assert line.note == NOT_UNDERSTOOD
    assert line.english == "England proposes peace with France"


def test_press_is_read_with_the_games_own_names() -> None:
    log = PressLog()
    log.heard("ONE", "FRM ( ONE ) ( TWO ) ( PRP ( PCE ( ONE TWO ) ) )", "", VARIANT, LEVEL, None)
    (line,) = log.view(LEVEL, "TWO", (), VARIANT).lines
    assert line.english == "ONE proposes peace with TWO"


def test_a_yes_is_matched_to_the_proposal_it_answers() -> None:
    log = PressLog()
    _sent_to(log, ("ENG",), PEACE_TEXT)
    _sent_to(log, ("ENG",), "PRP ( DRW )")
    _heard(log, "ENG", f"YES ( {PEACE_TEXT} )")
    assert [x.answers for x in _lines(log)][:2] == [{"ENG": "YES"}, {}]
    assert _agreed(log) == [("ENG", "PCE ( ENG FRA )", "SPR 1901")]


def test_a_withdrawal_closes_only_that_powers_same_proposal() -> None:
    log = PressLog()
    _heard(log, "ENG", PEACE_TEXT)
    _heard(log, "ENG", "PRP ( DRW )")
    _heard(log, "GER", PEACE_TEXT)
    _sent_to(log, ("ENG",), PEACE_TEXT)
    _heard(log, "ENG", f"CCL ( {PEACE_TEXT} )")
    assert [(x.answer, x.answerable) for x in _lines(log)][:4] == [
        ("withdrawn", False),
        (None, True),
        (None, True),
        (None, False),
    ]


def test_a_withdrawal_keeps_the_answer_already_given() -> None:
    log = PressLog()
    _heard(log, "ENG", PEACE_TEXT)
    _sent_to(log, ("ENG",), f"YES ( {PEACE_TEXT} )")
    _heard(log, "ENG", f"CCL ( {PEACE_TEXT} )")
    assert _lines(log)[0].answer == "YES"
    assert _agreed(log) == []


def test_the_persons_answers_mark_only_the_proposals_they_answer() -> None:
    log = PressLog()
    _sent_to(log, ("ENG",), PEACE_TEXT)
    _heard(log, "ENG", PEACE_TEXT)
    _heard(log, "GER", "PRP ( DRW )")
    _heard(log, "ENG", "PRP ( DRW )")
    _sent_to(log, ("ENG",), f"YES ( {PEACE_TEXT} )")
    _sent_to(log, ("ENG",), "REJ ( PRP ( DRW ) )")
    lines = _lines(log)
    assert [(x.answer, x.answerable) for x in lines[:4]] == [
        (None, False),
        ("YES", False),
        (None, True),
        ("REJ", False),
    ]
    assert _agreed(log) == [("ENG", "PCE ( ENG FRA )", "SPR 1901")]


def test_agreements_are_kept_per_partner_and_arrangement_and_ended_one_by_one() -> None:
    log = PressLog()
    _sent_to(log, ("ENG", "GER"), "PRP ( PCE ( ENG FRA GER ) )")
    _sent_to(log, ("ENG",), "PRP ( DRW )")
    _heard(log, "ENG", "YES ( PRP ( PCE ( ENG FRA GER ) ) )")
    _heard(log, "GER", "YES ( PRP ( PCE ( ENG FRA GER ) ) )")
    _heard(log, "ENG", "YES ( PRP ( DRW ) )")
    peace = ("PCE ( ENG FRA GER )", "SPR 1901")
    assert _agreed(log) == [("ENG", *peace), ("GER", *peace), ("ENG", "DRW", "SPR 1901")]
    _sent_to(log, ("ENG",), "CCL ( PRP ( PCE ( ENG FRA GER ) ) )")
    assert _agreed(log) == [("GER", *peace), ("ENG", "DRW", "SPR 1901")]


def test_an_agreement_the_table_cannot_spell_is_shown_as_its_value() -> None:
    log = PressLog()
    log.sent(("ONE",), "SND ( ONE ) ( PRP ( PCE ( ONE TWO ) ) )", VARIANT, LEVEL, None)
    log.heard(
        "ONE", "FRM ( ONE ) ( TWO ) ( YES ( PRP ( PCE ( ONE TWO ) ) ) )", "", VARIANT, 10, None
    )
    (agreed,) = log.view(LEVEL, "TWO", (), STANDARD).agreements
    assert agreed.text == repr(Peace(("ONE", "TWO")))
    assert (agreed.partner, agreed.english, agreed.since) == ("ONE", "peace with ONE", None)


def test_sending_clears_the_last_refusal() -> None:
    log = PressLog()
    log.noted(notes.PersonPressRefused(("ENG",), "not joined"), STANDARD, LEVEL, None)
    _sent_to(log, ("ENG",), "PRP ( DRW )")
    view = log.view(LEVEL, "FRA", ("ENG", "FRA"), STANDARD)
    assert view.refused is None and view.power == "FRA"


@pytest.mark.parametrize(
    ("reply", "refused"),
    [
        ("HUH ( ERR SND ( ENG ) ( FCT ( DRW ) ) )", REFUSED_BY_SERVER),
        ("HUH ( SND ( ERR ENG ) ( FCT ( DRW ) ) )", REFUSED_BY_SERVER),
        ("HUH ( ERR NME ( 'x' ) ( 'y' ) )", None),
    ],
)
def test_only_a_huh_quoting_our_press_is_a_refusal(reply: str, refused: str | None) -> None:
    log = PressLog()
    log.noted(notes.NotUnderstood(reply), STANDARD, LEVEL, None)
    assert log.view(LEVEL, "FRA", (), STANDARD).refused == refused


def _panel(level: int = 20, position: bool = True) -> tuple[PressPanel, BoardSeat]:
    seat = BoardSeat(initial_position(standard_map()) if position else None, level=level)
    if not position:
        seat.powers = ("ENG", "FRA", "GER")
    return PressPanel(seat, PressLog()), seat


def _request(to: list[str], form: dict[str, object]) -> bytes:
    return json.dumps({"to": to, "press": form}).encode()


def test_the_person_answers_a_proposal_heard_yes_or_no() -> None:
    for yes, reply in ((True, Accept(PEACE)), (False, Reject(PEACE))):
        panel, seat = _panel()
        _heard(panel.log, "ENG", PEACE_TEXT)
        sent = panel.answer(json.dumps({"line": 0, "yes": yes}).encode())
        assert seat.sent == [("press", (("ENG",), reply))]
        assert sent.text == reply.to_text(STANDARD)


def test_what_was_sent_is_told_from_the_seats_side() -> None:
    panel, _ = _panel()
    sent = panel.send(_request(["ENG"], {"kind": "peace", "powers": ["FRA", "ENG"]}))
    assert sent.english == "You propose peace with England"


@pytest.mark.parametrize(
    ("form", "why"),
    [
        ({"kind": "peace", "powers": ["FRA"]}, "peace needs at least 2 power(s)"),
        (
            {"kind": "alliance", "allies": [], "enemies": ["GER"]},
            "the allies needs at least 1 power(s)",
        ),
        (
            {"kind": "alliance", "allies": ["FRA"], "enemies": []},
            "the enemies needs at least 1 power(s)",
        ),
        (
            {"kind": "dmz", "powers": ["FRA"], "provinces": []},
            "a demilitarised zone needs at least one province",
        ),
        (
            {"kind": "dmz", "powers": [], "provinces": ["BUR"]},
            "the zone's powers needs at least 1 power(s)",
        ),
        (
            {"kind": "peace", "powers": ["FRA", "XYZ", "ABC"]},
            "not a power of this game: XYZ ABC",
        ),
        (
            {"kind": "text", "text": "PRP ( PCE ( ENG FRA ) ) " + "X" * 60},
            "'PRP ( PCE ( ENG FRA ) ) " + "X" * 36 + "...': unknown token 'XXXXXXXXXXXX",
        ),
        (
            {"kind": "orders", "orders": ["A PAR - BUR " + "MAR " * 15]},
            "'A PAR - BUR " + "MAR " * 12 + "...': unexpected 'MAR",
        ),
    ],
)
def test_a_menus_press_is_refused_with_its_reason(form: dict[str, object], why: str) -> None:
    panel, seat = _panel()
    with pytest.raises(BadRequest) as info:
        panel.send(_request(["ENG"], form))
    assert str(info.value).startswith(why)
    assert seat.sent == []


def test_an_alliance_of_the_seat_alone_is_a_proposal() -> None:
    panel, seat = _panel()
    panel.send(_request(["GER"], {"kind": "alliance", "allies": ["FRA"], "enemies": ["GER"]}))
    assert seat.sent == [("press", (("GER",), Proposal(Alliance(("FRA",), ("GER",)))))]


def test_orders_are_proposed_only_during_a_phase() -> None:
    panel, seat = _panel(position=False)
    with pytest.raises(BadRequest) as info:
        panel.send(_request(["ENG"], {"kind": "orders", "orders": ["A PAR - BUR"]}))
    assert str(info.value) == "orders are proposed during a phase (none is being played)"
    assert seat.sent == []


def test_several_orders_are_proposed_together() -> None:
    panel, seat = _panel(level=30)
    panel.send(_request(["ENG"], {"kind": "orders", "orders": ["A PAR - BUR", "A MAR H"]}))
    army = Unit("FRA", UnitType.ARMY, Location("PAR"))
    both = AllOf(
        (
            DoOrder(Move(army, Location("BUR"))),
            DoOrder(Hold(Unit("FRA", UnitType.ARMY, Location("MAR")))),
        )
    )
    assert seat.sent == [("press", (("ENG",), Proposal(both)))]
