"""The coach's routes refuse in one line what they cannot do: no key, no graded phase, bad body."""

from __future__ import annotations

import json

import pytest

from bot.human.api import MAX_TURN_TEXT
from tests.bot.human.conftest import Served


def test_the_state_carries_the_coach(served: Served) -> None:
    coach = json.loads(served.call("GET", "/api/state")[1])["coach"]
    assert coach["grades"] == [] and coach["pending"] == [] and coach["costly"] == []
    assert (coach["seed"], coach["rollouts"], coach["iterations"]) == (0, 512, 2000)


@pytest.mark.parametrize(
    ("method", "path", "body", "status", "says"),
    [
        ("GET", "/api/moment?turn=SPR%201901", None, 400, "not a graded phase"),
        ("GET", "/api/moment", None, 400, "turn: give the phase"),
        ("GET", "/api/moment?turn=" + "X" * 40, None, 400, "turn: give the phase"),
        ("POST", "/api/try", {"turn": "SPR 1901", "orders": []}, 400, "not a graded phase"),
        ("POST", "/api/try", {"turn": "SPR 1901"}, 400, "orders: missing"),
        ("POST", "/api/try", {"turn": "SPR 1901", "orders": [1]}, 400, "orders.0:"),
        ("POST", "/api/try", {"turn": 5, "orders": []}, 400, "turn:"),
        ("GET", "/api/try", None, 405, ""),
    ],
)
def test_bad_coach_requests_are_refused_in_one_line(
    served: Served, method: str, path: str, body: object, status: int, says: str
) -> None:
    got, text = served.call(method, path, body)
    assert got == status, text
    assert says in text
    if status == 400:
        assert text.count("\n") == 1


def test_the_coach_needs_the_key(served: Served) -> None:
    assert served.call("GET", "/api/moment?turn=SPR%201901", key="wrong")[0] == 403
    assert served.call("POST", "/api/try", {"turn": "SPR 1901", "orders": []}, key=None)[0] == 403


def test_the_moments_turn_is_read_up_to_its_longest_and_the_refusal_shows_how(
    served: Served,
) -> None:
    longest = "X" * MAX_TURN_TEXT
    status, text = served.call("GET", f"/api/moment?turn={longest}")
    assert status == 400 and "not a graded phase" in text
    for path in ("/api/moment", f"/api/moment?turn={longest}X"):
        assert served.call("GET", path) == (400, "turn: give the phase, e.g. ?turn=SPR 1901\n")
