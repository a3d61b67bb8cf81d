"""A scripted DAIDE peer for client tests: the test says what the server sends and checks replies.

:class:`ScriptedServer` listens on 127.0.0.1; every connection the client makes
becomes a :class:`Link` the test drives: it answers the IM with an RM, then the
test ``send``s messages and ``expect``s the client's (every message received is
kept with its arrival time in ``received``).  It speaks the real wire format
through the protocol package, so the client under test runs unchanged; it is
for the sequences a real server rarely produces on cue (a cut mid-search, a
MIS after a THX, a TME that moves the deadline, ORD lines our engine fails on).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from adjudicator.maps import standard_map
from adjudicator.position import Position, initial_position
from adjudicator.standard import standard_definition
from bot.client.shell import DaideClient, GameSummary
from protocol.decoder import Decoder, Role
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
from protocol.tokens import STANDARD
from protocol.variant import Variant
from protocol.wire import (
    DiplomacyMessage,
    InitialMessage,
    encode_message,
    encode_representation,
)

M = TypeVar("M", bound=Message)

PASSCODE = 4242


@dataclass
class Received:
    """A message from the client and when it arrived (monotonic)."""

    message: Message
    at: float


@dataclass
class Link:
    """One client connection, driven by the test."""

    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter
    received: list[Received] = field(default_factory=list)
    _decoder: Decoder = field(default_factory=lambda: Decoder(Role.SERVER))
    _inbox: asyncio.Queue[Received | None] = field(default_factory=asyncio.Queue)
    _pump: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Answer the IM with an RM and keep reading the client's messages."""
        self._pump = asyncio.create_task(self._read())

    async def _read(self) -> None:
        try:
            while data := await self.reader.read(65536):
                for wire in self._decoder.feed(data):
                    if isinstance(wire, InitialMessage):
                        self.writer.write(encode_representation(STANDARD))
                    elif isinstance(wire, DiplomacyMessage):
                        entry = Received(parse_message(wire.tokens, wire.table), time.monotonic())
                        self.received.append(entry)
                        self._inbox.put_nowait(entry)
        except (ConnectionError, OSError):
            pass
        finally:
            self._inbox.put_nowait(None)

    def send(self, *messages: Message) -> None:
        """Send messages to the client."""
        for message in messages:
            self.writer.write(encode_message(message, STANDARD))

    async def expect(
        self,
        kind: type[M],
        timeout: float = 10.0,
        where: Callable[[M], bool] | None = None,
    ) -> M:
        """The client's next message of ``kind`` (others are skipped, and kept in ``received``)."""
        until = time.monotonic() + timeout
        while True:
            left = until - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no {kind.__name__} from the client within {timeout} s")
            try:
                entry = await asyncio.wait_for(self._inbox.get(), left)
            except TimeoutError:
                continue
            if entry is None:
                raise AssertionError(f"the client hung up before sending {kind.__name__}")
            message = entry.message
            if isinstance(message, kind) and (where is None or where(message)):
                return message

    async def quiet(self, seconds: float) -> list[Message]:
        """Everything the client sends in the next ``seconds``."""
        out: list[Message] = []
        until = time.monotonic() + seconds
        while (left := until - time.monotonic()) > 0:
            try:
                entry = await asyncio.wait_for(self._inbox.get(), left)
            except TimeoutError:
                break
            if entry is None:
                break
            out.append(entry.message)
        return out

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
        self.writer.close()

    async def aclose(self) -> None:
        """Drop the connection and stop reading it."""
        self.close()
        if self._pump is not None:
            self._pump.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._pump


class ScriptedServer:
    """Listens on 127.0.0.1; each accepted connection is handed to the test as a :class:`Link`."""

    def __init__(self) -> None:
        self.links: asyncio.Queue[Link] = asyncio.Queue()
        self.all_links: list[Link] = []
        self._server: asyncio.Server | None = None
        self.port = 0

    async def __aenter__(self) -> ScriptedServer:
        self._server = await asyncio.start_server(self._accept, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    async def __aexit__(self, *exc: object) -> None:
        for link in self.all_links:
            await link.aclose()
        if self._server is not None:
            self._server.close()

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        link = Link(reader, writer)
        link.start()
        self.all_links.append(link)
        await self.links.put(link)

    async def connection(self, timeout: float = 10.0) -> Link:
        """The next connection the client makes."""
        return await asyncio.wait_for(self.links.get(), timeout)


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
