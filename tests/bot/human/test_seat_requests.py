"""The seat's web app refuses what it must, in one line, and sends nothing then.

Wrong or missing key: 403; a foreign Host: 421 (no Host: 400); a malformed,
illegal, foreign or out-of-phase order: 400 — and the seat is asked to send
nothing.  A good set is passed on once, as value orders.  The app is really
served (uvicorn); requests are written by hand.
"""

from __future__ import annotations

import json

import pytest

from adjudicator.maps import standard_map
from adjudicator.position import Position
from protocol.notation import (
    parse_centres,
    parse_order,
    parse_turn,
    parse_unit_positions,
)
from tests.bot.human.conftest import SECRET, Served

TURN = "SPR 1901"


def _one_line(text: str) -> bool:
    return text.endswith("\n") and text.count("\n") == 1


def test_a_good_set_is_sent_once(served: Served) -> None:
    status, text = served.call(
        "POST", "/api/submit", {"turn": TURN, "orders": ["A PAR - BUR", "a mar s a par - bur"]}
    )
    assert status == 200, text
    assert json.loads(text)["orders"] == ["A PAR - BUR", "A MAR S A PAR - BUR"]
    assert served.seat.position is not None
    assert served.seat.sent == [
        (
            "submit",
            (
                served.seat.position.turn,
                [
                    parse_order("(FRA AMY PAR) MTO BUR"),
                    parse_order("(FRA AMY MAR) SUP (FRA AMY PAR) MTO BUR"),
                ],
            ),
        )
    ]
    state = json.loads(served.call("GET", "/api/state")[1])
    assert state["phase"]["submitted"] == ["A PAR - BUR", "A MAR S A PAR - BUR"]
    assert {o["key"] for o in state["phase"]["choices"]["options"]} == {"BRE", "MAR", "PAR"}


CHANGES = [
    ("/api/submit", {"turn": TURN, "orders": ["A PAR H"]}),
    ("/api/draft", {"turn": TURN, "orders": ["A PAR H"]}),
    ("/api/check", {"turn": TURN, "text": "A PAR H"}),
    ("/api/ready", {"turn": TURN, "ready": True}),
    ("/api/hint", {"turn": TURN}),
    ("/api/draw", {}),
]


@pytest.mark.parametrize("key", [None, "", "wrong", SECRET + "x", SECRET.upper()])
def test_a_wrong_or_missing_key_is_403(served: Served, key: str | None) -> None:
    for path, body in CHANGES:
        status, text = served.call("POST", path, body, key=key)
        assert status == 403 and _one_line(text), (path, text)
    status, text = served.call("GET", "/api/state", key=key)
    assert status == 403 and _one_line(text)
    assert served.seat.sent == []


def test_the_key_may_be_given_in_the_address(served: Served) -> None:
    assert served.call("GET", f"/api/state?key={SECRET}", key=None)[0] == 200
    assert served.call("GET", "/api/state?key=nope", key=None)[0] == 403


@pytest.mark.parametrize("host", ["evil.example:{port}", "127.0.0.1:{other}", "localhost.evil"])
def test_a_foreign_host_is_refused(served: Served, host: str) -> None:
    named = host.format(port=served.port, other=served.port + 1)
    for path, body in CHANGES:
        status, text = served.call("POST", path, body, host=named)
        assert status == 421 and _one_line(text)
    assert served.call("GET", "/", host=named)[0] == 421
    assert served.call("GET", "/api/state", host=named)[0] == 421
    assert served.call("GET", "/api/state", host=None)[0] == 400
    assert served.seat.sent == []


BAD_ORDERS = [
    (["A PAR - MUN"], "not legal"),
    (["A BER - KIE"], "GER's, not yours"),
    (["A PAR -> "], "where to move to is missing"),
    (["hello world"], "not a province"),
    (["A PAR - BUR", "A PAR H"], "two orders for PAR"),
    (["BUILD A PAR"], "winter order"),
]
"""Orders that read as the request's model but not as the seat's legal orders (the malformed
bodies are in test_seat_api.py)."""


@pytest.mark.parametrize(("orders", "reason"), BAD_ORDERS)
def test_a_bad_order_is_400_and_nothing_is_sent(
    served: Served, orders: object, reason: str
) -> None:
    for path in ("/api/submit", "/api/draft"):
        status, text = served.call("POST", path, {"turn": TURN, "orders": orders})
        assert status == 400 and _one_line(text), text
        assert reason in text
    assert served.seat.sent == []


def test_an_order_for_another_phase_is_400(served: Served) -> None:
    for turn in ("FAL 1900", "SPR 1902", None, 7):
        status, text = served.call("POST", "/api/submit", {"turn": turn, "orders": ["A PAR H"]})
        assert status == 400 and _one_line(text)
    served.seat.position = None  # between phases
    status, text = served.call("POST", "/api/submit", {"turn": TURN, "orders": ["A PAR H"]})
    assert status == 400 and "no phase is being played" in text
    assert served.seat.sent == []


def test_check_ready_hint_draw(served: Served) -> None:
    status, text = served.call("POST", "/api/check", {"turn": TURN, "text": "f bre - mao"})
    assert status == 200, text
    assert json.loads(text) == {
        "key": "BRE",
        "text": "F BRE - MAO",
        "draw": {
            "type": "move",
            "unit": {"power": "FRA", "kind": "FLT", "province": "BRE", "coast": None},
            "to": {"province": "MAO", "coast": None},
        },
    }
    assert served.call("POST", "/api/check", {"turn": TURN, "text": "F BRE - PAR"})[0] == 400
    assert served.call("POST", "/api/ready", {"turn": TURN, "ready": "yes"})[0] == 400
    assert served.call("POST", "/api/ready", {"turn": TURN, "ready": True})[0] == 200
    assert served.call("POST", "/api/hint", {"turn": TURN})[0] == 200
    assert served.call("POST", "/api/draw", {})[0] == 200
    assert [kind for kind, _ in served.seat.sent] == ["ready", "hint", "draw"]


def test_the_draft_survives_and_state_polls_by_version(served: Served) -> None:
    first = json.loads(served.call("GET", "/api/state")[1])
    assert served.call("GET", f"/api/state?since={first['version']}")[0] == 204
    draft = {"turn": TURN, "orders": ["A PAR - PIC"]}
    assert served.call("POST", "/api/draft", draft)[0] == 200
    status, text = served.call("GET", f"/api/state?since={first['version']}")
    assert status == 200
    assert json.loads(text)["phase"]["draft"] == ["A PAR - PIC"]
    status, page = served.call("GET", "/", key=None)
    assert status == 200 and "human.js" in page
    for shared in ("standard-map.json", "mapdraw.js", "style.css"):
        assert served.call("GET", f"/view/{shared}", key=None)[0] == 200


def test_ready_and_not_ready_are_passed_on_and_shown_for_the_phase(served: Served) -> None:
    for ready in (True, False):
        assert served.call("POST", "/api/ready", {"turn": TURN, "ready": ready})[0] == 200
        assert json.loads(served.call("GET", "/api/state")[1])["phase"]["ready"] is ready
    turn = parse_turn(TURN)
    assert served.seat.sent == [("ready", (turn, True)), ("ready", (turn, False))]


def test_ready_is_refused_out_of_a_movement_phase(served: Served) -> None:
    served.seat.position = Position.from_values(
        standard_map(),
        parse_turn("SUM 1901"),
        parse_unit_positions("(GER AMY MUN) (FRA AMY MUN MRT (BOH SIL))"),
        parse_centres("(FRA BRE MAR PAR) (GER BER KIE MUN)"),
    )
    status, text = served.call("POST", "/api/ready", {"turn": "SUM 1901", "ready": True})
    assert (status, text) == (400, "ready (GOF) is for movement phases\n")
    assert served.seat.sent == []


def test_the_first_state_is_version_1_and_each_change_adds_one(served: Served) -> None:
    assert json.loads(served.call("GET", "/api/state")[1])["version"] == 1
    assert served.call("POST", "/api/draft", {"turn": TURN, "orders": ["A PAR H"]})[0] == 200
    assert json.loads(served.call("GET", "/api/state")[1])["version"] == 2


def test_the_pages_own_files_are_served_without_the_key(served: Served) -> None:
    for own in ("human.js", "human.css", "coach.js"):
        assert served.call("GET", f"/static/{own}", key=None)[0] == 200
