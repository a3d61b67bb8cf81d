"""The seat's requests are read as their models: each malformed body is refused in one line.

A table of bodies the page never sends — bad JSON, another JSON type, a wrong
field type, an unknown or missing field, a list or string over its bound, a
body over the size limit — each with the status and the reason it must get.
The app is really served (uvicorn); requests are written by hand, and none
of them reaches the seat or changes its state.
"""

from __future__ import annotations

import json

import pytest

from bot.human.api import MAX_BODY, MAX_ORDER_TEXT, MAX_ORDERS, MAX_TURN_TEXT
from tests.bot.human.conftest import Served

TURN = "SPR 1901"
DEPTH = 5_000
"""Nesting of a body deeper than any JSON reader should follow (and still under the size limit)."""

MALFORMED: list[tuple[str, object, int, str]] = [
    # path, body (bytes as sent, anything else as JSON), status, the reason's text
    ("/api/submit", b"{", 400, "the request: Invalid JSON: EOF while parsing"),
    ("/api/submit", b"\xff\xfe", 400, "the request: Invalid JSON"),
    ("/api/submit", b"[" * DEPTH, 400, "the request: Invalid JSON: recursion limit exceeded"),
    ("/api/submit", b"x" * (MAX_BODY + 1), 413, f"the request is larger than {MAX_BODY} bytes"),
    ("/api/submit", [], 400, "the request: Input should be an object"),
    ("/api/submit", "A PAR H", 400, "the request: Input should be an object"),
    ("/api/submit", {"turn": TURN}, 400, "orders: missing"),
    ("/api/submit", {"orders": []}, 400, "turn: missing"),
    ("/api/submit", {"turn": TURN, "orders": "A PAR H"}, 400, "orders: Input should be a valid"),
    ("/api/submit", {"turn": TURN, "orders": [1, 2]}, 400, "orders.0: Input should be a valid str"),
    ("/api/submit", {"turn": TURN, "orders": ["A PAR H", None]}, 400, "orders.1: Input should"),
    (
        "/api/submit",
        {"turn": TURN, "orders": ["A PAR H"] * (MAX_ORDERS + 1)},
        400,
        f"orders: List should have at most {MAX_ORDERS} items",
    ),
    (
        "/api/draft",
        {"turn": TURN, "orders": ["A" * (MAX_ORDER_TEXT + 1)]},
        400,
        f"orders.0: String should have at most {MAX_ORDER_TEXT} characters",
    ),
    ("/api/draft", {"turn": 7, "orders": []}, 400, "turn: Input should be a valid string"),
    ("/api/draft", {"turn": "", "orders": []}, 400, "turn: String should have at least 1"),
    (
        "/api/draft",
        {"turn": "S" * (MAX_TURN_TEXT + 1), "orders": []},
        400,
        f"turn: String should have at most {MAX_TURN_TEXT} characters",
    ),
    ("/api/draft", {"turn": TURN, "orders": [], "sneak": 1}, 400, "sneak: this request takes no"),
    ("/api/check", {"turn": TURN}, 400, "text: missing"),
    ("/api/check", {"turn": TURN, "text": None}, 400, "text: Input should be a valid string"),
    ("/api/check", {"turn": TURN, "text": ["A PAR H"]}, 400, "text: Input should be a valid str"),
    ("/api/ready", {"turn": TURN, "ready": "yes"}, 400, "ready: Input should be a valid boolean"),
    ("/api/ready", {"turn": TURN, "ready": 1}, 400, "ready: Input should be a valid boolean"),
    ("/api/ready", {"turn": TURN}, 400, "ready: missing"),
    ("/api/hint", {}, 400, "turn: missing"),
    (
        "/api/hint",
        {"turn": TURN, "seconds": 60},
        400,
        "seconds: Input should be less than or equal to 30",
    ),
    ("/api/hint", {"turn": TURN, "seconds": "3"}, 400, "seconds: Input should be a valid number"),
    ("/api/hint", {"turn": TURN, "depth": 3}, 400, "depth: this request takes no such field"),
    ("/api/draw", {"power": "FRA"}, 400, "power: this request takes no such field"),
    ("/api/draw", None, 200, ""),  # no body: the empty object
    ("/api/draw", b"null", 400, "the request: Input should be an object"),
]


def _ids() -> list[str]:
    return [f"{path}-{i}" for i, (path, *_) in enumerate(MALFORMED)]


@pytest.mark.parametrize(("path", "body", "status", "reason"), MALFORMED, ids=_ids())
def test_a_malformed_body_gets_its_status_and_one_line(
    served: Served, path: str, body: object, status: int, reason: str
) -> None:
    before = served.app.desk.version
    raw = body if isinstance(body, bytes) else None
    got, text = served.call("POST", path, None if raw is not None else body, raw=raw)
    assert got == status, text
    if status == 200:
        assert json.loads(text) == {"ok": True}
        return
    assert text.endswith("\n") and text.count("\n") == 1, text
    assert text.startswith(reason), text
    assert "Traceback" not in text and len(text) <= 201
    assert served.seat.sent == []
    assert served.app.desk.version == before


@pytest.mark.parametrize(
    ("query", "status"),
    [
        ("", 200),
        ("?since=0", 200),
        ("?since=abc", 400),
        ("?since=-1", 400),
        ("?since=" + "9" * 30, 400),
    ],
)
def test_the_states_version_parameter_is_checked(served: Served, query: str, status: int) -> None:
    got, text = served.call("GET", f"/api/state{query}")
    assert got == status, text
    if status == 400:
        assert text.startswith("since must be a whole number") and text.count("\n") == 1


def test_answers_are_the_models_json(served: Served) -> None:
    """The state and the answers carry exactly their models' fields."""
    state = json.loads(served.call("GET", "/api/state")[1])
    assert set(state) == {
        *("version", "map", "info", "seconds_left", "game", "summary", "phase", "press", "coach"),
    }
    assert state["info"] == {
        "power": "FRA",
        "name": "tester",
        "server": "board",
        "joined": False,
        "over": False,
        "result": None,
        "limits": None,
    }
    phase = state["phase"]
    assert phase["turn"] == TURN and phase["hint"] is None and phase["submitted"] is None
    assert {o["key"] for o in phase["choices"]["options"]} == {"BRE", "MAR", "PAR"}
    status, text = served.call("POST", "/api/submit", {"turn": TURN, "orders": ["a par h"]})
    assert status == 200 and json.loads(text) == {"ok": True, "orders": ["A PAR H"]}
