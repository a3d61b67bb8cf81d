"""A server that stops reading: what we send stays bounded and the connection is given up.

The peers here are real sockets on loopback that stop reading (their transport
is paused), so the operating system's buffers fill and our unsent octets pile
up in the client's transport, as with a hung or hostile server.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.client.connection import Connection, ConnectionLost
from bot.client.gamelog import GameLog
from bot.client.settings import load_settings
from bot.client.shell import DaideClient
from protocol.expression import tokenize
from protocol.messages import Adm, Drw, Iam, Off, Smr, Sub, Yes
from protocol.tokens import TEXT_BASE
from protocol.variant import Variant
from protocol.wire import encode_tokens
from tests.bot.scripted import PASSCODE, ScriptedServer, opening

MESSAGE = Adm("bot", "x" * 2000)
"""Something to send (about 4 KB on the wire)."""


class DeafPeer:
    """A listener whose connections never read a byte (the IM and all after it stay unread)."""

    def __init__(self) -> None:
        self.port = 0
        self._server: asyncio.Server | None = None
        self._writers: list[asyncio.StreamWriter] = []

    async def __aenter__(self) -> DeafPeer:
        self._server = await asyncio.start_server(self._accept, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    async def __aexit__(self, *exc: object) -> None:
        for writer in self._writers:
            writer.transport.abort()
        if self._server is not None:
            self._server.close()

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writer.transport.pause_reading()
        self._writers.append(writer)


@pytest.fixture
async def deaf() -> AsyncIterator[DeafPeer]:
    async with DeafPeer() as peer:
        yield peer


async def _fill(conn: Connection, octets: int) -> int:
    """Send until ``octets`` wait unsent (or the connection is given up); the most seen."""
    most = 0
    for _ in range(100_000):
        conn.send(MESSAGE)
        most = max(most, conn.unsent)
        if conn.unsent >= octets:
            return most
        await asyncio.sleep(0)
    raise AssertionError("the operating system took everything we sent")


async def test_a_peer_that_will_not_read_is_given_up_when_too_much_waits(deaf):
    conn = await Connection.open(
        "127.0.0.1", deaf.port, 5.0, high_water=16_384, max_unsent=262_144, drain_timeout=60.0
    )
    most = 0
    with pytest.raises(ConnectionLost, match="stopped reading"):
        most = await _fill(conn, 10 * conn.max_unsent)  # the send that would pass the cap fails
    assert most <= conn.max_unsent
    assert conn.unsent <= conn.max_unsent
    with pytest.raises(ConnectionLost, match="stopped reading"):
        await asyncio.wait_for(conn.receive(), 5)


async def test_a_peer_that_will_not_read_is_given_up_after_the_drain_timeout(deaf):
    conn = await Connection.open(
        "127.0.0.1", deaf.port, 5.0, high_water=16_384, max_unsent=8 << 20, drain_timeout=1.0
    )
    await _fill(conn, 2 * conn.high_water)  # above the high-water mark, far below the cap
    started = time.monotonic()
    with pytest.raises(ConnectionLost, match="stopped reading"):
        await asyncio.wait_for(conn.receive(), 10)  # the server sends nothing either
    waited = time.monotonic() - started
    assert 0.5 < waited < 5.0, waited
    with pytest.raises(ConnectionLost):
        conn.send(MESSAGE)  # nothing more goes out on it


async def test_a_peer_that_reads_slowly_is_not_given_up():
    """Waiting is not failing: a peer that takes our octets within the timeout keeps us."""
    accepted: list[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = []

    async def accept(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writer.transport.pause_reading()
        accepted.append((reader, writer))

    server = await asyncio.start_server(accept, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    try:
        conn = await Connection.open(
            "127.0.0.1", port, 5.0, high_water=16_384, max_unsent=8 << 20, drain_timeout=3.0
        )
        await _fill(conn, 2 * conn.high_water)
        await asyncio.sleep(1.0)  # slow, but within the timeout
        reader, writer = accepted[0]
        writer.transport.resume_reading()
        while conn.unsent:
            await asyncio.wait_for(reader.read(1 << 20), 5)
        await asyncio.sleep(conn.drain_timeout)
        conn.send(MESSAGE)  # still open
        assert not conn.closed
        await conn.close()
    finally:
        server.close()


def _bad_message(text_tokens: int) -> bytes:
    """An ADM with ``text_tokens`` characters and a stray token after it: answered with HUH."""
    head, tail = tokenize('ADM ( "server" ) ('), tokenize(") GOF")
    return encode_tokens((*head, *(TEXT_BASE | ord("x") for _ in range(text_tokens)), *tail))


@pytest.fixture
async def scripted() -> AsyncIterator[ScriptedServer]:
    async with ScriptedServer() as server:
        yield server


async def test_the_client_rejoins_when_the_server_stops_reading(scripted, tmp_path: Path):
    settings = load_settings(port=scripted.port, strategy="dumbbot", workers=1, seed=7)
    client = DaideClient(settings, GameLog(tmp_path / "client.jsonl"))
    task = asyncio.create_task(client.run())
    try:
        link = await scripted.connection()
        await link.join(Variant.of(move_time_limit=30))
        link.show(opening())
        await link.expect(Sub)
        link.writer.transport.pause_reading()  # the server stops reading...
        bad = _bad_message(8000)  # ...and makes us talk: each gets a 16 KB HUH
        for _ in range(600):
            if link.writer.is_closing():
                break
            link.writer.write(bad)
            with contextlib.suppress(ConnectionError):
                await link.writer.drain()
        again = await scripted.connection(timeout=30)  # the client gave up and came back
        iam = await again.expect(Iam)
        assert (iam.power, iam.passcode) == ("FRA", PASSCODE)
        again.send(Yes(iam))
        again.show(opening())
        await again.expect(Sub)
        again.send(Drw(), Smr(opening().turn, ()), Off())
        summary = await asyncio.wait_for(task, 20)
    finally:
        task.cancel()
    assert summary.reconnections == 1
    assert summary.bad_messages > 0
    lines = (tmp_path / "client.jsonl").read_text().splitlines()
    lost = [r for r in map(json.loads, lines) if r["kind"] == "connection_lost"]
    assert lost and "stopped reading" in lost[0]["reason"], lost
