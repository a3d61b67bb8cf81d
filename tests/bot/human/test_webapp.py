"""The seat's web app without a server: the request body read no further than its limit.

A request is made by hand from an ASGI scope and the chunks its client sends, so
these tests need no server (the seat's request tests drive the whole app).
"""

from __future__ import annotations

import asyncio

import pytest
from starlette.requests import Request
from starlette.types import Message

from adjudicator.maps import standard_map
from adjudicator.position import initial_position
from bot.human.api import MAX_BODY, TooLarge
from bot.human.desk import SeatDesk
from bot.human.webapp import SeatApp, read_body
from tests.bot.human.boardseat import BoardSeat

LOOPBACK = "127.0.0.1"

TOO_LARGE = f"the request is larger than {MAX_BODY} bytes"


def request(chunks: list[bytes], declared: int | None = None) -> Request:
    """A POST sending ``chunks`` one by one, saying its length (``declared``) or not."""
    headers = [] if declared is None else [(b"content-length", str(declared).encode())]
    pending = list(chunks) or [b""]

    async def receive() -> Message:
        chunk = pending.pop(0)
        return {"type": "http.request", "body": chunk, "more_body": bool(pending)}

    scope = {"type": "http", "method": "POST", "path": "/api/submit", "headers": headers}
    return Request(scope, receive)


def read(chunks: list[bytes], declared: int | None = None) -> bytes:
    return asyncio.run(read_body(request(chunks, declared)))


def refused(chunks: list[bytes], declared: int | None = None) -> str:
    with pytest.raises(TooLarge) as caught:
        read(chunks, declared)
    return str(caught.value)


def test_a_body_of_exactly_the_limit_is_read_whole() -> None:
    full = b"x" * MAX_BODY
    assert read([full], declared=MAX_BODY) == full
    assert read([full]) == full
    assert read([b"x" * (MAX_BODY - 10), b"y" * 10]) == b"x" * (MAX_BODY - 10) + b"y" * 10


def test_a_body_sent_in_chunks_without_a_length_is_joined() -> None:
    assert read([b'{"orders": ', b"[]}"]) == b'{"orders": []}'
    assert read([]) == b""


def test_a_declared_length_over_the_limit_is_refused_before_reading() -> None:
    assert refused([b"{}"], declared=MAX_BODY + 1) == TOO_LARGE


def test_a_body_over_the_limit_is_refused_however_it_is_sent() -> None:
    assert refused([b"x" * (MAX_BODY + 1)]) == TOO_LARGE
    half = b"x" * (MAX_BODY // 2 + 1)
    assert refused([half, half]) == TOO_LARGE
    assert refused([half, half], declared=10) == TOO_LARGE


def test_a_seat_without_a_coach_shows_none() -> None:
    app = SeatApp(BoardSeat(initial_position(standard_map())), SeatDesk(), "s3cret", LOOPBACK, 1)
    assert app.state().coach is None
