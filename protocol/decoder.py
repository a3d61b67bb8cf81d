"""The sans-I/O decoder: feed it bytes as they arrive, get complete wire messages out.

:class:`Decoder` never touches a socket.  ``feed(data)`` takes any number of
octets (split anywhere) and returns an iterator over the messages completed
so far; ``feed_eof()`` says the peer closed.  Inside, a generator parser
reads a header, checks it against the connection's lifecycle and a length
cap, then reads the body (the websockets pattern).

Every protocol violation becomes one :class:`~protocol.daide_errors.ProtocolViolation`
carrying the EM code the protocol prescribes; the decoder is then failed
(it raises the same violation on every later call), and the client should
send that EM and close.  Messages completed before the violation are
delivered first.

The lifecycle is the transition table :data:`TRANSITIONS`.  The decoder reads
one direction of a connection: ``Role.CLIENT`` reads what a server sends
(RM first, later RMs allowed for Parlance's game selection), ``Role.SERVER``
reads what a client sends (IM first, exactly once), for scripted test servers.
"""

from __future__ import annotations

import re
from collections.abc import Generator, Iterator
from enum import Enum
from typing import NoReturn

from construct import ConstructError

from protocol.daide_errors import EncodeError, ErrorCode, ProtocolViolation
from protocol.expression import MAX_MESSAGE_OCTETS
from protocol.tokens import STANDARD, TokenTable
from protocol.wire import (
    ERROR_BODY,
    HEADER_CODEC,
    HEADER_SIZE,
    INITIAL_BODY,
    MAGIC,
    PROTOCOL_VERSION,
    REPRESENTATION_BODY,
    DiplomacyMessage,
    ErrorMessage,
    FinalMessage,
    InitialMessage,
    MessageType,
    RepresentationMessage,
    WireMessage,
    unpack_tokens,
)

DEFAULT_MAX_LENGTH = MAX_MESSAGE_OCTETS
"""Default cap on a message body, in octets: the protocol's own limit (65,535, the 16-bit length).

Any message a peer can send is read: a long one (an ``AND`` of thousands of
peace offers, 49 KB) is the press layer's to refuse, not a wire violation.
"""

_RESERVED_HIGH_OCTET = re.compile(rb"[\x58-\x5f]")
_RM_NAME = re.compile(rb"[A-Z0-9]{3}\Z")
_SWAPPED_MAGIC = ((MAGIC & 0xFF) << 8) | (MAGIC >> 8)


class Role(Enum):
    """Which side's bytes the decoder reads."""

    CLIENT = "client"
    """We are the client: the decoder reads what the server sends."""
    SERVER = "server"
    """We are a (test) server: the decoder reads what a client sends."""


class State(Enum):
    """Where a connection is in its lifecycle, as seen by the decoder."""

    AWAIT_IM = "awaiting IM"
    AWAIT_RM = "awaiting RM"
    OPEN = "open"
    CLOSED = "closed"


Step = State | ErrorCode
"""A transition's outcome: the next state, or the violation it is."""

TRANSITIONS: dict[tuple[Role, State], dict[MessageType, Step]] = {
    (Role.CLIENT, State.AWAIT_RM): {
        MessageType.IM: ErrorCode.IM_FROM_SERVER,
        MessageType.RM: State.OPEN,
        MessageType.DM: ErrorCode.DM_BEFORE_RM,
        MessageType.FM: State.CLOSED,
        MessageType.EM: State.CLOSED,
    },
    (Role.CLIENT, State.OPEN): {
        MessageType.IM: ErrorCode.IM_FROM_SERVER,
        MessageType.RM: State.OPEN,  # Parlance re-sends an RM after game selection (§5.1)
        MessageType.DM: State.OPEN,
        MessageType.FM: State.CLOSED,
        MessageType.EM: State.CLOSED,
    },
    (Role.SERVER, State.AWAIT_IM): {
        MessageType.IM: State.OPEN,
        MessageType.RM: ErrorCode.RM_FROM_CLIENT,
        MessageType.DM: ErrorCode.IM_NOT_FIRST,
        MessageType.FM: State.CLOSED,
        MessageType.EM: State.CLOSED,
    },
    (Role.SERVER, State.OPEN): {
        MessageType.IM: ErrorCode.IM_REPEATED,
        MessageType.RM: ErrorCode.RM_FROM_CLIENT,
        MessageType.DM: State.OPEN,
        MessageType.FM: State.CLOSED,
        MessageType.EM: State.CLOSED,
    },
}
"""(role, state) -> message type -> next state or the EM code of the violation."""

_FIXED_LENGTHS = {MessageType.IM: 4, MessageType.FM: 0, MessageType.EM: 2}

_ROWS: dict[tuple[Role, State], dict[int, tuple[MessageType, Step]]] = {
    key: {int(kind): (kind, step) for kind, step in row.items()} for key, row in TRANSITIONS.items()
}
"""TRANSITIONS keyed by the raw type octet, for the per-message lookup."""


class Decoder:
    """Turns the bytes of one direction of a DAIDE connection into wire messages.

    ``role`` says whose bytes these are (see :class:`Role`); ``max_length``
    caps a message body in octets; ``table`` is the token table a server
    role attaches to the DMs it decodes (a client role uses the RM's).
    """

    def __init__(
        self,
        role: Role = Role.CLIENT,
        *,
        max_length: int = DEFAULT_MAX_LENGTH,
        table: TokenTable = STANDARD,
    ) -> None:
        self.role = role
        self.max_length = max_length
        self.state = State.AWAIT_RM if role is Role.CLIENT else State.AWAIT_IM
        self.table: TokenTable | None = None if role is Role.CLIENT else table
        """The token table in force (None for a client before the first RM)."""
        self.error: ProtocolViolation | None = None
        """The violation that failed the connection, if any."""
        self._buffer = bytearray()
        self._offset = 0
        self._in_frame = 0  # octets of the current message already consumed (its header)
        self._parser = self._parse()
        next(self._parser)  # run up to the first read

    # --- public API ----------------------------------------------------------------

    def feed(self, data: bytes) -> Iterator[WireMessage]:
        """Add received octets; iterate the result for the messages now complete.

        The iterator raises ProtocolViolation at the first violation (after
        yielding the messages before it).  Messages not consumed stay queued
        for the next call's iterator.
        """
        if self.error is None and self.state is not State.CLOSED:
            self._buffer += data
        return self._drain()

    def feed_eof(self) -> None:
        """The peer closed the connection: a partly received message is a violation (0x09)."""
        if self.error is not None:
            raise self.error
        pending = self.buffered
        if self.state is not State.CLOSED and pending:
            self._fail(
                ProtocolViolation(
                    ErrorCode.MESSAGE_TOO_SHORT,
                    f"connection closed with {pending} octets of an incomplete message",
                )
            )
        self.state = State.CLOSED

    @property
    def buffered(self) -> int:
        """Octets received but not yet part of a complete message."""
        return len(self._buffer) - self._offset + self._in_frame

    # --- the parser ------------------------------------------------------------------

    def _drain(self) -> Iterator[WireMessage]:
        while True:
            if self.error is not None:
                raise self.error
            try:
                message = next(self._parser)
            except ProtocolViolation as exc:
                self._fail(exc)
            if message is None:
                return
            yield message

    def _fail(self, violation: ProtocolViolation) -> NoReturn:
        self.error = violation
        self.state = State.CLOSED
        self._buffer.clear()
        self._offset = 0
        self._in_frame = 0
        raise violation

    def _read(self, n: int) -> Generator[None, None, bytes]:
        """Wait (yielding None) until ``n`` octets are buffered, then consume them."""
        while len(self._buffer) - self._offset < n:
            if self._offset:
                del self._buffer[: self._offset]
                self._offset = 0
            yield None
        start = self._offset
        self._offset = start + n
        return bytes(self._buffer[start : start + n])

    def _parse(self) -> Generator[WireMessage | None, None, None]:
        """The frame parser: yields a message when one is complete, None when it needs bytes."""
        yield None
        while True:
            header = yield from self._read(HEADER_SIZE)
            if self.state is State.CLOSED:
                self._buffer.clear()
                self._offset = 0
                yield None
                continue
            type_code, length = HEADER_CODEC.unpack(header)
            kind, step = self._check_header(type_code, length)
            self._in_frame = HEADER_SIZE
            body = yield from self._read(length)
            self._in_frame = 0
            message = self._interpret(kind, body)
            self.state = step
            yield message

    def _check_header(self, type_code: int, length: int) -> tuple[MessageType, State]:
        """Validate type, lifecycle and length as soon as a header arrives; the next state."""
        entry = _ROWS[self.role, self.state].get(type_code)
        if entry is None:
            raise ProtocolViolation(ErrorCode.UNKNOWN_MESSAGE, f"unknown message type {type_code}")
        kind, step = entry
        if (
            kind is MessageType.DM
            and isinstance(step, State)
            and 2 <= length <= self.max_length
            and not length & 1
        ):
            return kind, step  # the common case; anything else is checked in full below
        if isinstance(step, ErrorCode):
            raise ProtocolViolation(step, f"{kind.name} received while {self.state.value}")
        if length > self.max_length:
            raise ProtocolViolation(
                ErrorCode.UNKNOWN_MESSAGE,
                f"{kind.name} of {length} octets exceeds the {self.max_length}-octet cap",
            )
        fixed = _FIXED_LENGTHS.get(kind)
        if fixed is not None and length != fixed:
            if kind is MessageType.IM and length == fixed << 8:
                raise ProtocolViolation(ErrorCode.IM_WRONG_ENDIAN, "IM length is little-endian")
            raise ProtocolViolation(
                ErrorCode.MESSAGE_TOO_SHORT, f"{kind.name} of {length} octets (expected {fixed})"
            )
        if kind is MessageType.RM and length % 6:
            raise ProtocolViolation(
                ErrorCode.MESSAGE_TOO_SHORT, f"RM of {length} octets is not a multiple of 6"
            )
        if kind is MessageType.DM and (length < 2 or length % 2):
            raise ProtocolViolation(
                ErrorCode.MESSAGE_TOO_SHORT, f"DM of {length} octets (needs an even number >= 2)"
            )
        assert isinstance(step, State)
        return kind, step

    def _interpret(self, kind: MessageType, body: bytes) -> WireMessage:
        """The message a complete, length-checked body holds."""
        if kind is MessageType.DM:
            return self._diplomacy(body)
        if kind is MessageType.RM:
            return self._representation(body)
        if kind is MessageType.IM:
            return self._initial(body)
        if kind is MessageType.EM:
            return ErrorMessage(ERROR_BODY.parse(body).code)
        return FinalMessage()

    def _diplomacy(self, body: bytes) -> DiplomacyMessage:
        high = body[0::2]
        found = _RESERVED_HIGH_OCTET.search(high)
        if found is not None:
            index = found.start()
            raise ProtocolViolation(
                ErrorCode.INVALID_TOKEN,
                f"token 0x{body[2 * index]:02X}{body[2 * index + 1]:02X} (index {index}) "
                "is in a reserved category",
            )
        table = self.table
        assert table is not None
        return DiplomacyMessage(unpack_tokens(body), table)

    def _representation(self, body: bytes) -> RepresentationMessage:
        try:
            entries = REPRESENTATION_BODY.parse(body, count=len(body) // 6)
        except ConstructError as exc:  # pragma: no cover - lengths were checked
            raise ProtocolViolation(ErrorCode.MESSAGE_TOO_SHORT, f"bad RM: {exc}") from exc
        pairs = []
        for index, entry in enumerate(entries):
            if entry.nul != 0 or not _RM_NAME.match(entry.name):
                raise ProtocolViolation(
                    ErrorCode.INVALID_TOKEN,
                    f"RM entry {index} has name {bytes(entry.name)!r} + {entry.nul:#04x}, "
                    "not three of A-Z/0-9 and a zero octet",
                )
            pairs.append((entry.number, entry.name.decode("ascii")))
        message = RepresentationMessage(tuple(pairs))
        try:
            self.table = message.table
        except EncodeError as exc:
            raise ProtocolViolation(ErrorCode.INVALID_TOKEN, f"bad RM: {exc}") from exc
        return message

    def _initial(self, body: bytes) -> InitialMessage:
        im = INITIAL_BODY.parse(body)
        if im.magic != MAGIC:
            if im.magic == _SWAPPED_MAGIC:
                raise ProtocolViolation(ErrorCode.IM_WRONG_ENDIAN, "IM magic number byte-swapped")
            raise ProtocolViolation(
                ErrorCode.IM_WRONG_MAGIC, f"IM magic number 0x{im.magic:04X}, not 0xDA10"
            )
        if im.version != PROTOCOL_VERSION:
            raise ProtocolViolation(
                ErrorCode.VERSION_INCOMPATIBLE, f"IM protocol version {im.version}, not 1"
            )
        return InitialMessage(im.version, im.magic)
