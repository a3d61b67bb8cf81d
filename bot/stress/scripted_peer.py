"""The one scripted DAIDE server that tests, the stress suite and the fuzzer drive.

A :class:`ScriptedPeer` listens on loopback and serves the client's
connections in the real wire format (:mod:`protocol`): it answers each IM
with an RM, decodes what the client sends, stops at an EM, an FM or a wire
violation (answered with the right EM), and hands every diplomacy message to
:meth:`ScriptedPeer.on_message` — what the server says back is its
subclass's: :class:`~bot.stress.hostile.HostileServer` plays a real game and
misbehaves on purpose, :class:`~bot.stress.fuzz_server.ReplayServer` replays a
mutated recorded game, and the client's tests (``tests/bot/scripted.py``) say
each message by hand.  Every connection is a :class:`PeerLink`; a new one
replaces the one before unless the subclass keeps them all.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Self

from protocol.daide_errors import ProtocolViolation
from protocol.decoder import Decoder, Role
from protocol.messages import Message
from protocol.tokens import STANDARD
from protocol.wire import (
    DiplomacyMessage,
    ErrorMessage,
    FinalMessage,
    InitialMessage,
    encode_error,
    encode_message,
    encode_representation,
)

READ_SIZE = 65536
"""Bytes read from the socket at a time."""


class PeerLink:
    """One TCP connection from the client, numbered from 1 in the order they came.

    ``greeted`` once its RM went out, ``accepted_map`` once the client said
    ``YES (MAP)``, ``joined`` once the game took it in; ``closed`` is set when it
    ends, and ``clean_close`` says the client left on purpose (an FM).  Writes
    can be held back (:meth:`hold`, :meth:`release`) while a frame is sent in halves.
    """

    def __init__(self, index: int, writer: asyncio.StreamWriter) -> None:
        self.index = index
        self.writer = writer
        self.greeted = False
        self.accepted_map = False
        self.joined = False
        self.closed = asyncio.Event()
        self.clean_close = False
        self._held: list[bytes] | None = None

    def write(self, data: bytes) -> bool:
        """Write ``data`` (or hold it); False once the connection is gone."""
        if self.closed.is_set():
            return False
        if self._held is not None:
            self._held.append(data)
            return True
        try:
            self.writer.write(data)
        except (ConnectionError, OSError, RuntimeError):
            self.close()
            return False
        return True

    def send(self, message: Message) -> bool:
        """Write one diplomacy message."""
        return self.write(encode_message(message, STANDARD))

    def hold(self) -> None:
        """Hold every later write back until :meth:`release`."""
        if self._held is None:
            self._held = []

    def release(self, first: bytes = b"") -> None:
        """Write ``first``, then what was held back, in order."""
        held, self._held = self._held or [], None
        for chunk in (first, *held):
            if chunk:
                self.write(chunk)

    def close(self) -> None:
        """Drop the connection (as a crash or a network cut would)."""
        if not self.closed.is_set():
            self.closed.set()
            with contextlib.suppress(Exception):
                self.writer.close()


class ScriptedPeer:
    """A scripted DAIDE server on ``host:port`` (0: any free port); see the module docstring.

    ``link`` is the latest connection (it may have ended since).  A new
    connection drops the one before unless ``one_at_a_time`` is False (a test
    that holds several).  Subclasses define :meth:`on_message` and may define
    the other ``on_*`` hooks.
    """

    one_at_a_time = True

    def __init__(self, host: str = "127.0.0.1", port: int = 0) -> None:
        self.host = host
        self.port = port
        self.link: PeerLink | None = None
        self.links = 0
        self.last_activity = time.monotonic()
        self._server: asyncio.Server | None = None

    # --- what a subclass says ----------------------------------------------------------

    def on_connect(self, link: PeerLink) -> None:
        """A new connection (it replaced :attr:`link`)."""

    def on_message(self, link: PeerLink, wire: DiplomacyMessage) -> None:
        """A diplomacy message from the client."""
        raise NotImplementedError

    def on_client_error(self, link: PeerLink, code: int) -> None:
        """The client sent an EM: the connection ends."""

    def on_violation(self, link: PeerLink, violation: ProtocolViolation) -> None:
        """The client broke the wire protocol: it is told so with an EM, and dropped."""

    def on_closed(self, link: PeerLink) -> None:
        """The connection ended (whoever ended it)."""

    # --- the listening side ------------------------------------------------------------

    async def start(self) -> Self:
        """Listen; ``port`` then holds the port to point the client at."""
        self._server = await asyncio.start_server(self._serve, self.host, self.port)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    async def stop(self) -> None:
        """Close the client's connection and stop listening."""
        if self.link is not None:
            self.link.close()
        if self._server is not None:
            self._server.close()
            with contextlib.suppress(Exception):
                await self._server.wait_closed()
            self._server = None

    async def __aenter__(self) -> Self:
        return await self.start()

    async def __aexit__(self, *exc_info: object) -> None:
        await self.stop()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """One connection's life: greet it, read it, hand each message on, note its end."""
        if self.link is not None and self.one_at_a_time:
            self.link.close()
        self.links += 1
        link = self.link = PeerLink(self.links, writer)
        self.last_activity = time.monotonic()
        self.on_connect(link)
        decoder = Decoder(Role.SERVER)
        try:
            while not link.closed.is_set():
                data = await reader.read(READ_SIZE)
                if not data:
                    break
                for wire in decoder.feed(data):
                    self.last_activity = time.monotonic()
                    if isinstance(wire, InitialMessage):
                        link.greeted = link.write(encode_representation(STANDARD))
                    elif isinstance(wire, DiplomacyMessage):
                        self.on_message(link, wire)
                    elif isinstance(wire, ErrorMessage):
                        self.on_client_error(link, wire.code)
                        return
                    elif isinstance(wire, FinalMessage):
                        link.clean_close = True
                        return
        except ProtocolViolation as violation:
            self.on_violation(link, violation)
            link.write(encode_error(violation.code))
        except (ConnectionError, OSError):
            pass
        finally:
            self.on_closed(link)
            link.close()
