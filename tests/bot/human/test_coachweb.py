"""The coach's routes answer a graded phase as JSON, uncached: its moment and a try again.

Requests go straight to the ASGI app (no socket); the coach has heard the scripted
1901 and graded it (tests/bot/human/test_coaching.py checks what it answers).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.applications import Starlette
from starlette.types import Message

from bot.human.coaching import SeatCoach
from bot.human.coachweb import CoachWeb
from bot.human.page_key import key_guard
from bot.human.webapp import KEY_HEADER, read_body
from tests.bot.human.graded_coach import coach_hearing
from tests.bot.view.scripted_game import write_run_folder

SECRET = "s3cret"
TURN = "SPR 1901"


@pytest.fixture(scope="module")
def coach(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SeatCoach]:
    """France's coach, every phase of the scripted 1901 heard and graded."""
    folder = tmp_path_factory.mktemp("scripted") / "run"
    write_run_folder(folder)
    coach = coach_hearing(folder, "FRA")
    yield coach
    coach.close()


def call(
    coach: SeatCoach, method: str, path: str, query: str = "", body: object = None
) -> tuple[int, dict[str, str], Any]:
    """The status, headers and JSON the coach's routes answer a request with."""
    guard = key_guard(SECRET, KEY_HEADER, "seat")
    app = Starlette(routes=CoachWeb(coach, guard, read_body).routes())
    raw = b"" if body is None else json.dumps(body).encode()
    sent: list[Message] = []

    async def receive() -> Message:
        return {"type": "http.request", "body": raw, "more_body": False}

    async def send(message: Message) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "method": method,
        "path": path,
        "raw_path": path.encode(),
        "query_string": query.encode(),
        "headers": [(KEY_HEADER.encode(), SECRET.encode())],
    }
    asyncio.run(app(scope, receive, send))
    start = next(m for m in sent if m["type"] == "http.response.start")
    headers = {k.decode().lower(): v.decode() for k, v in start["headers"]}
    content = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return start["status"], headers, json.loads(content)


def test_a_graded_phase_is_the_coachs_moment_as_uncached_json(coach: SeatCoach) -> None:
    status, headers, moment = call(coach, "GET", "/api/moment", "turn=SPR%201901")
    assert status == 200
    assert headers["content-type"] == "application/json"
    assert headers["cache-control"] == "no-store"
    assert moment == coach.moment(TURN).model_dump(mode="json")
    assert moment["kind"] == "movement"


def test_a_try_again_plays_the_orders_sent_as_uncached_json(coach: SeatCoach) -> None:
    orders = ["A PAR - PIC", "F BRE - ECH"]
    status, headers, answer = call(coach, "POST", "/api/try", body={"turn": TURN, "orders": orders})
    assert status == 200
    assert headers["content-type"] == "application/json"
    assert headers["cache-control"] == "no-store"
    mine = {r["text"]: r["ok"] for r in answer["tried"]["results"] if r["power"] == "FRA"}
    assert mine == {"A PAR - PIC": True, "F BRE - ECH": True, "A MAR H": True}
