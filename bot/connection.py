"""One TCP connection to a DAIDE server: the thin asyncio edge around the sans-I/O decoder.

:class:`Connection` opens the socket (with SO_KEEPALIVE, as the protocol asks
of clients), sends the IM, and then turns the server's bytes into wire
messages through :class:`protocol.decoder.Decoder`.  A protocol violation by
the server makes it send the prescribed EM and close; the caller sees
:class:`ConnectionLost` and decides whether to reconnect.  The bot never
selects another game (``SEL``), so the RM that follows the IM is the only
one a connection accepts: a second one is answered with EM 0x0C.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections import deque

from protocol.decoder import Decoder
from protocol.errors import ErrorCode, ProtocolViolation
from protocol.messages import Message
from protocol.tokens import STANDARD, TokenTable
from protocol.wire import (
    RepresentationMessage,
    WireMessage,
    encode_error,
    encode_final,
    encode_initial,
    encode_message,
)

READ_SIZE = 65536


class ConnectionLost(Exception):
    """The connection is gone (closed by the server, reset, or failed by a violation)."""

    def __init__(self, reason: str, violation: ProtocolViolation | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.violation = violation


class Connection:
    """A DAIDE client connection; use :meth:`open`, then :meth:`receive` / :meth:`send`."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._reader = reader
        self._writer = writer
        self._decoder = Decoder()
        self._queue: deque[WireMessage] = deque()
        self._violation: ProtocolViolation | None = None
        self._rm_seen = False
        self.closed = False
        self.bytes_in = 0
        self.bytes_out = 0

    @classmethod
    async def open(cls, host: str, port: int, timeout: float) -> Connection:
        """Connect and send the IM; raises OSError/TimeoutError if the server is unreachable."""
        async with asyncio.timeout(timeout):  # not wait_for: a stop while connecting wins
            reader, writer = await asyncio.open_connection(host, port, limit=READ_SIZE)
        sock = writer.get_extra_info("socket")
        if sock is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        conn = cls(reader, writer)
        conn._write(encode_initial())
        return conn

    @property
    def table(self) -> TokenTable:
        """The token table in force (the RM's, or the standard one before it)."""
        return self._decoder.table or STANDARD

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
                await self.close(final=False)
                raise ConnectionLost(f"protocol violation: {violation}", violation)
            if self.closed:
                raise ConnectionLost("connection closed")
            try:
                data = await self._reader.read(READ_SIZE)
            except (ConnectionError, OSError) as exc:
                await self.close(final=False)
                raise ConnectionLost(f"read failed: {exc}") from exc
            if not data:
                with contextlib.suppress(ProtocolViolation):
                    self._decoder.feed_eof()
                await self.close(final=False)
                raise ConnectionLost("server closed the connection")
            self.bytes_in += len(data)
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

    def _write(self, data: bytes) -> None:
        if self.closed:
            raise ConnectionLost("connection closed")
        try:
            self._writer.write(data)
        except (ConnectionError, OSError, RuntimeError) as exc:
            raise ConnectionLost(f"write failed: {exc}") from exc
        self.bytes_out += len(data)

    async def close(self, final: bool = True) -> None:
        """Close the connection, sending FM first when ``final``."""
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
