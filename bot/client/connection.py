"""One TCP connection to a DAIDE server: the thin asyncio edge around the sans-I/O decoder.

:class:`Connection` opens the socket (with SO_KEEPALIVE, as the protocol asks
of clients), sends the IM, and then turns the server's bytes into wire
messages through :class:`protocol.decoder.Decoder`.  A protocol violation by
the server makes it send the prescribed EM and close; the caller sees
:class:`ConnectionLost` and decides whether to reconnect.  The bot never
selects another game (``SEL``), so the RM that follows the IM is the only
one a connection accepts: a second one is answered with EM 0x0C.

Sending is bounded.  Above ``HIGH_WATER`` unsent octets the connection waits
(in the background) for the server to take them, for ``DRAIN_TIMEOUT``
seconds at most; a server that will not read in that time, or that lets more
than ``MAX_UNSENT`` octets pile up, is treated as a lost connection: the
socket is aborted and :meth:`Connection.receive` (or the send itself) raises
:class:`ConnectionLost`, so the client reconnects as after any other loss.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections import deque

from protocol.daide_errors import ErrorCode, ProtocolViolation
from protocol.decoder import Decoder
from protocol.messages import Message
from protocol.tokens import NO_MAP, TokenTable
from protocol.wire import (
    RepresentationMessage,
    WireMessage,
    encode_error,
    encode_final,
    encode_initial,
    encode_message,
)

READ_SIZE = 65536

HIGH_WATER = 64 * 1024
"""Unsent octets above which the connection waits for the server to read."""

MAX_UNSENT = 1024 * 1024
"""Unsent octets beyond which the server is taken to have stopped reading."""

LINGER = 0.5
"""Most seconds spent reading what the server still sends after our EM (see ``_linger``)."""

DRAIN_TIMEOUT = 10.0
"""Seconds the server has to take our unsent octets back below the high-water mark."""


class ConnectionLost(Exception):
    """The connection is gone (closed by the server, reset, or failed by a violation)."""

    def __init__(self, reason: str, violation: ProtocolViolation | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.violation = violation


class Connection:
    """A DAIDE client connection; use :meth:`open`, then :meth:`receive` / :meth:`send`."""

    def __init__(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        *,
        high_water: int = HIGH_WATER,
        max_unsent: int = MAX_UNSENT,
        drain_timeout: float = DRAIN_TIMEOUT,
    ) -> None:
        self._reader = reader
        self._writer = writer
        self.high_water = high_water
        self.max_unsent = max_unsent
        self.drain_timeout = drain_timeout
        self._drainer: asyncio.Task[None] | None = None
        self._lost: str | None = None
        writer.transport.set_write_buffer_limits(high=high_water)
        self._decoder = Decoder()
        self._queue: deque[WireMessage] = deque()
        self._violation: ProtocolViolation | None = None
        self._rm_seen = False
        self.closed = False

    @classmethod
    async def open(
        cls,
        host: str,
        port: int,
        timeout: float,
        *,
        high_water: int = HIGH_WATER,
        max_unsent: int = MAX_UNSENT,
        drain_timeout: float = DRAIN_TIMEOUT,
    ) -> Connection:
        """Connect and send the IM; raises OSError/TimeoutError if the server is unreachable.

        ``high_water``, ``max_unsent`` and ``drain_timeout`` bound what may wait
        unsent (see the module's constants of those names).
        """
        async with asyncio.timeout(timeout):  # not wait_for: a stop while connecting wins
            reader, writer = await asyncio.open_connection(host, port, limit=READ_SIZE)
        sock = writer.get_extra_info("socket")
        if sock is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        conn = cls(
            reader,
            writer,
            high_water=high_water,
            max_unsent=max_unsent,
            drain_timeout=drain_timeout,
        )
        conn._write(encode_initial())
        return conn

    @property
    def table(self) -> TokenTable:
        """The token table in force (the RM's; no power or province before it)."""
        return self._decoder.table or NO_MAP

    async def receive(self) -> WireMessage:
        """The next wire message; :class:`ConnectionLost` when the connection ends.

        Messages that arrived before a protocol violation are delivered first;
        then the EM is sent, the connection closed and ConnectionLost raised.
        """
        while not self._queue:
            if self._violation is not None:
                violation, self._violation = self._violation, None
                with contextlib.suppress(ConnectionLost):
                    self._write(encode_error(violation.code))
                await self._linger()
                await self.close(final=False)
                raise ConnectionLost(f"protocol violation: {violation}", violation)
            if self._lost is not None:
                raise ConnectionLost(self._lost)
            if self.closed:
                raise ConnectionLost("connection closed")
            try:
                data = await self._reader.read(READ_SIZE)
            except (ConnectionError, OSError) as exc:
                await self.close(final=False)
                raise ConnectionLost(self._lost or f"read failed: {exc}") from exc
            if self._lost is not None:
                raise ConnectionLost(self._lost)
            if not data:
                with contextlib.suppress(ProtocolViolation):
                    self._decoder.feed_eof()
                await self.close(final=False)
                raise ConnectionLost("server closed the connection")
            try:
                for message in self._decoder.feed(data):
                    if isinstance(message, RepresentationMessage):
                        if self._rm_seen:
                            raise ProtocolViolation(
                                ErrorCode.RM_UNEXPECTED,
                                "a second RM on this connection (we never ask for another game)",
                            )
                        self._rm_seen = True
                    self._queue.append(message)
            except ProtocolViolation as violation:
                self._violation = violation
        return self._queue.popleft()

    def send(self, message: Message) -> str:
        """Send a DM; returns its text (for the game log). EncodeError is a bug on our side."""
        self._write(encode_message(message, self.table))
        return message.to_text(self.table)

    @property
    def unsent(self) -> int:
        """Octets written but not yet taken by the operating system."""
        return self._writer.transport.get_write_buffer_size()

    def _write(self, data: bytes) -> None:
        if self._lost is not None:
            raise ConnectionLost(self._lost)
        if self.closed:
            raise ConnectionLost("connection closed")
        if self.unsent + len(data) > self.max_unsent:
            self._fail(f"the server stopped reading: {self.unsent} octets unsent")
            raise ConnectionLost(self._lost or "the server stopped reading")
        try:
            self._writer.write(data)
        except (ConnectionError, OSError, RuntimeError) as exc:
            raise ConnectionLost(f"write failed: {exc}") from exc
        if self._drainer is None and self.unsent > self.high_water:
            self._drainer = asyncio.get_running_loop().create_task(self._drain())

    async def _drain(self) -> None:
        """Wait for the server to read what piles up; give the connection up if it will not."""
        try:
            async with asyncio.timeout(self.drain_timeout):
                await self._writer.drain()
        except TimeoutError:
            self._fail(
                f"the server stopped reading: {self.unsent} octets unsent "
                f"after {self.drain_timeout:g} s"
            )
        except (ConnectionError, OSError, RuntimeError):
            pass  # the connection is failing anyway: the reader sees it
        finally:
            self._drainer = None

    def _fail(self, reason: str) -> None:
        """Give the connection up: abort the socket; receive() raises ConnectionLost(reason)."""
        if self._lost is None:
            self._lost = reason
        self.closed = True
        self._writer.transport.abort()

    async def _linger(self) -> None:
        """After our EM: half-close, and read (and drop) what the server still sends.

        Closing a socket with unread data in it resets the connection, and a
        reset can make the server lose the EM it had not read yet; reading to
        the server's end (at most ``LINGER`` seconds) lets the EM arrive.
        """
        with contextlib.suppress(ConnectionError, OSError, RuntimeError, TimeoutError):
            if self._writer.can_write_eof():
                self._writer.write_eof()
            async with asyncio.timeout(LINGER):
                while await self._reader.read(READ_SIZE):
                    pass

    async def close(self, final: bool = True) -> None:
        """Close the connection, sending FM first when ``final``."""
        if self._drainer is not None:
            self._drainer.cancel()
        if self.closed:
            return
        if final:
            with contextlib.suppress(ConnectionError, OSError, RuntimeError):
                self._writer.write(encode_final())
        self.closed = True
        try:
            self._writer.close()
            await asyncio.wait_for(self._writer.wait_closed(), 2.0)
        except (ConnectionError, OSError, TimeoutError, RuntimeError):
            pass
