"""A scripted DAIDE peer for client tests: the test says what the server sends and checks replies.

:class:`ScriptedServer` is the project's scripted peer
(:class:`bot.stress.scripted_peer.ScriptedPeer`, the stress suite's and the
fuzzer's too) driven by hand: every connection the client makes becomes a
:class:`Link` the test drives: the peer answers the IM with an RM, then the
test ``send``s messages and ``expect``s the client's (every message received is
kept with its arrival time in ``received``).  It speaks the real wire format
through the protocol package, so the client under test runs unchanged; it is
for the sequences a real server rarely produces on cue (a cut mid-search, a
MIS after a THX, a TME that moves the deadline, ORD lines our engine fails on).
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from adjudicator.maps import standard_map
from adjudicator.position import Position, initial_position
from adjudicator.standard import standard_definition
from bot.client.shell import DaideClient, GameSummary
from bot.stress.scripted_peer import PeerLink, ScriptedPeer
from protocol.messages import (
    Drw,
    Hlo,
    Map,
    Mdf,
    Message,
    Nme,
    Now,
    Off,
    Sco,
    Smr,
    Yes,
    parse_message,
)
from protocol.variant import Variant
from protocol.wire import (
    DiplomacyMessage,
)

M = TypeVar("M", bound=Message)

PASSCODE = 4242


@dataclass
class Received:
    """A message from the client and when it arrived (monotonic)."""

    message: Message
    at: float


class Inbox:
    """What one connection's other end sent, in order, for a script to wait on.

    Every message is kept with its arrival time in ``received``; :meth:`expect`
    waits for the next of a kind.  A :class:`Link` is the server's side of a
    client's connection; ``tests/bot/press_peer.py`` fills one as a client.
    """

    def __init__(self) -> None:
        self.received: list[Received] = []
        self._inbox: asyncio.Queue[Received | None] = asyncio.Queue()

    def heard(self, message: Message) -> None:
        """The other end sent ``message`` (now)."""
        entry = Received(message, time.monotonic())
        self.received.append(entry)
        self._inbox.put_nowait(entry)

    def hung_up(self) -> None:
        """The connection ended."""
        self._inbox.put_nowait(None)

    async def next(self, timeout: float) -> Message | None:
        """The next message, or None once the connection ended; TimeoutError after ``timeout``."""
        entry = await asyncio.wait_for(self._inbox.get(), timeout)
        return None if entry is None else entry.message

    async def expect(
        self,
        kind: type[M],
        timeout: float = 10.0,
        where: Callable[[M], bool] | None = None,
    ) -> M:
        """The next message of ``kind`` (others are skipped, and kept in ``received``)."""
        until = time.monotonic() + timeout
        while True:
            left = until - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no {kind.__name__} from the other end within {timeout} s")
            try:
                message = await self.next(left)
            except TimeoutError:
                continue
            if message is None:
                raise AssertionError(f"the other end hung up before sending {kind.__name__}")
            if isinstance(message, kind) and (where is None or where(message)):
                return message

    async def quiet(self, seconds: float) -> list[Message]:
        """Everything the other end sends in the next ``seconds``."""
        out: list[Message] = []
        until = time.monotonic() + seconds
        while (left := until - time.monotonic()) > 0:
            try:
                message = await self.next(left)
            except TimeoutError:
                break
            if message is None:
                break
            out.append(message)
        return out


class Link(Inbox):
    """One client connection, driven by the test (``writer`` writes raw bytes to it)."""

    def __init__(self, peer: PeerLink) -> None:
        super().__init__()
        self.peer = peer
        self.writer = peer.writer

    def send(self, *messages: Message) -> None:
        """Send messages to the client."""
        for message in messages:
            self.peer.send(message)

    async def join(self, variant: Variant, power: str = "FRA") -> None:
        """Take a new player in: NME, MAP, MDF, YES (MAP), then HLO."""
        await self.expect(Nme)
        self.send(Yes(Nme("x", "1")), Map("STANDARD"))
        await self.expect(Mdf)
        self.send(Mdf(standard_definition()))
        await self.expect(Yes)
        self.send(Hlo(power, PASSCODE, variant))

    def show(self, pos: Position) -> None:
        """SCO and NOW of ``pos``."""
        self.send(Sco(pos.centres()), Now(pos.turn, pos.unit_positions()))

    def close(self) -> None:
        """Drop the connection (as a crash or a network cut would)."""
        self.peer.close()

    async def aclose(self) -> None:
        """Drop the connection."""
        self.close()


class ScriptedServer(ScriptedPeer):
    """The project's scripted peer for the client's tests: each connection becomes a :class:`Link`.

    Connections are kept side by side (a reconnecting client's old link stays
    the test's to inspect).
    """

    one_at_a_time = False

    def __init__(self) -> None:
        super().__init__()
        self.links_made: asyncio.Queue[Link] = asyncio.Queue()
        self.all_links: list[Link] = []
        self._by_peer: dict[int, Link] = {}

    def on_connect(self, link: PeerLink) -> None:
        """A new connection: handed to the test."""
        test_link = self._by_peer[link.index] = Link(link)
        self.all_links.append(test_link)
        self.links_made.put_nowait(test_link)

    def on_message(self, link: PeerLink, wire: DiplomacyMessage) -> None:
        """The client's message, for the test to expect."""
        self._by_peer[link.index].heard(parse_message(wire.tokens, wire.table))

    def on_closed(self, link: PeerLink) -> None:
        """The connection ended."""
        self._by_peer[link.index].hung_up()

    async def stop(self) -> None:
        """Drop every connection and stop listening."""
        for test_link in self.all_links:
            test_link.close()
        await super().stop()

    async def connection(self, timeout: float = 10.0) -> Link:
        """The next connection the client makes."""
        return await asyncio.wait_for(self.links_made.get(), timeout)


def opening() -> Position:
    """Spring 1901 on the standard map."""
    return initial_position(standard_map())


@dataclass
class RunningClient:
    """A real client playing against the scripted server, and its game log."""

    client: DaideClient
    task: asyncio.Task[GameSummary]
    log_path: Path

    def records(self) -> list[dict]:
        return [json.loads(line) for line in self.log_path.read_text().splitlines() if line]

    async def finish(self, link: Link) -> GameSummary:
        """End the game (DRW, SMR, OFF) and the client's run."""
        link.send(Drw(), Smr(opening().turn, ()), Off())
        return await asyncio.wait_for(self.task, 20)
