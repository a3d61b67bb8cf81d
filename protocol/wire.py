"""The client-server protocol's message structures (IM, RM, DM, FM, EM) and their encoders.

Every message is a 4-octet header (type, pad, remaining length; big-endian)
and a body.  The structures are declared with ``construct`` below
(:data:`HEADER`, :data:`INITIAL_BODY`, :data:`REPRESENTATION_BODY`,
:data:`DIPLOMACY_BODY`, :data:`ERROR_BODY`, :data:`FRAME`, :data:`FINAL_FRAME`)
and the encoders and :mod:`protocol.decoder` build and parse with them.

The two operations done for every message, reading a header and converting
a DM body to token numbers and back, use the equivalent precompiled
:class:`struct.Struct` codecs (:data:`HEADER_CODEC`, :func:`unpack_tokens`,
:func:`pack_tokens`): construct costs about 5 us per header and 3 us per
token array, which is most of the decoder's time.  The tests check that both
agree on every structure, in both directions.

The values exchanged are the small dataclasses :class:`InitialMessage`,
:class:`RepresentationMessage`, :class:`DiplomacyMessage`,
:class:`FinalMessage` and :class:`ErrorMessage` (together
:data:`WireMessage`).
"""

from __future__ import annotations

import struct
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any, Union

from construct import (
    Adapter,
    Array,
    Bytes,
    Const,
    ConstructError,
    Default,
    GreedyBytes,
    Int8ub,
    Int16ub,
    Prefixed,
    Struct,
    this,
)

from protocol.daide_errors import EncodeError, ErrorCode
from protocol.expression import format_tokens
from protocol.messages import Message, parse_message
from protocol.tokens import STANDARD, TokenTable

PROTOCOL_VERSION = 1
"""The version of the client-server protocol sent in the IM."""
MAGIC = 0xDA10
"""The IM's magic number."""
HEADER_SIZE = 4
"""Octets in every message header."""


class MessageType(IntEnum):
    """The message type octet of the header."""

    IM = 0
    RM = 1
    DM = 2
    FM = 3
    EM = 4


class _TokenArray(Adapter):  # type: ignore[misc]
    """Big-endian 16-bit token numbers filling the whole body (a DM's language message)."""

    def _decode(self, obj: bytes, context: Any, path: str) -> tuple[int, ...]:
        return struct.unpack(f">{len(obj) >> 1}H", obj)

    def _encode(self, obj: Sequence[int], context: Any, path: str) -> bytes:
        return struct.pack(f">{len(obj)}H", *obj)


HEADER = Struct("type" / Int8ub, "pad" / Default(Int8ub, 0), "length" / Int16ub).compile()
"""Message type, pad (any bits), remaining length."""

INITIAL_BODY = Struct("version" / Int16ub, "magic" / Int16ub).compile()
"""The IM body: protocol version and magic number 0xDA10."""

REPRESENTATION_ENTRY = Struct("number" / Int16ub, "name" / Bytes(3), "nul" / Default(Int8ub, 0))
"""One 6-octet RM entry: token, three ASCII characters, a zero octet."""

REPRESENTATION_BODY = Array(this.count, REPRESENTATION_ENTRY).compile()
"""The RM body: ``count`` entries (pass ``count=length // 6`` to parse or build)."""

DIPLOMACY_BODY = _TokenArray(GreedyBytes).compile()
"""The DM body: the language message as token numbers."""

ERROR_BODY = Struct("code" / Int16ub).compile()
"""The EM body: one error code."""

FRAME = Struct("type" / Int8ub, "pad" / Default(Int8ub, 0), "body" / Prefixed(Int16ub, GreedyBytes))
"""A whole message: header with the body's length, then the body."""

FINAL_FRAME = Struct("type" / Const(MessageType.FM, Int8ub), "pad" / Const(0, Int8ub),
                     "length" / Const(0, Int16ub))  # fmt: skip
"""The FM: a header alone."""

_FRAME = FRAME.compile()

HEADER_CODEC = struct.Struct(">BxH")
"""The header as :class:`struct.Struct` (type, ignored pad, length): same layout as HEADER."""
_DM_HEADER = HEADER_CODEC.pack


def unpack_tokens(body: bytes) -> tuple[int, ...]:
    """A DM body's token numbers (same result as ``DIPLOMACY_BODY.parse``)."""
    return struct.unpack(f">{len(body) >> 1}H", body)


def pack_tokens(tokens: Sequence[int]) -> bytes:
    """A DM body from token numbers (same result as ``DIPLOMACY_BODY.build``)."""
    return struct.pack(f">{len(tokens)}H", *tokens)


# --- the wire messages --------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class InitialMessage:
    """IM: the client's first message (protocol version, magic number)."""

    version: int = PROTOCOL_VERSION
    magic: int = MAGIC


@dataclass(frozen=True, slots=True)
class RepresentationMessage:
    """RM: the powers and provinces of the game, as (token number, name) pairs (empty: standard)."""

    entries: tuple[tuple[int, str], ...] = ()

    @property
    def table(self) -> TokenTable:
        """The token table this RM defines."""
        return TokenTable.from_representation(self.entries)

    @classmethod
    def of(cls, table: TokenTable) -> RepresentationMessage:
        """The full RM for ``table`` (Parlance sends the full one even for the standard map)."""
        return cls(table.entries)


@dataclass(frozen=True, slots=True)
class DiplomacyMessage:
    """DM: one language message as token numbers; ``table`` is the token table in force for it."""

    tokens: tuple[int, ...]
    table: TokenTable = field(default=STANDARD, compare=False, repr=False)

    def parse(self) -> Message:
        """The typed message (see :func:`protocol.messages.parse_message`); LanguageError if bad."""
        return parse_message(self.tokens, self.table)

    @property
    def text(self) -> str:
        """The canonical text form of the tokens."""
        return format_tokens(self.tokens, self.table)


@dataclass(frozen=True, slots=True)
class FinalMessage:
    """FM: the sender is about to close the connection."""


@dataclass(frozen=True, slots=True)
class ErrorMessage:
    """EM: the sender detected a protocol error (``code``) and closes the connection."""

    code: int

    @property
    def description(self) -> str:
        """The code's meaning in the protocol document (or ``unknown error code``)."""
        try:
            return ErrorCode(self.code).description
        except ValueError:
            return "unknown error code"


WireMessage = Union[  # noqa: UP007 - runtime alias used in isinstance checks
    InitialMessage, RepresentationMessage, DiplomacyMessage, FinalMessage, ErrorMessage
]
"""Any message of the client-server protocol."""


# --- encoders -------------------------------------------------------------------------


def _frame(kind: MessageType, body: bytes) -> bytes:
    if len(body) > 0xFFFF:
        raise EncodeError(f"a {kind.name} body of {len(body)} octets exceeds 65535")
    return bytes(_FRAME.build({"type": kind, "pad": 0, "body": body}))


def encode_initial(version: int = PROTOCOL_VERSION, magic: int = MAGIC) -> bytes:
    """The IM a client sends first."""
    return _frame(MessageType.IM, INITIAL_BODY.build({"version": version, "magic": magic}))


def encode_representation(entries: TokenTable | Iterable[tuple[int, str]] = ()) -> bytes:
    """An RM (for a test server): the table's powers and provinces, or explicit entries."""
    pairs = entries.entries if isinstance(entries, TokenTable) else tuple(entries)
    try:
        items = [{"number": n, "name": name.encode("ascii"), "nul": 0} for n, name in pairs]
        body = REPRESENTATION_BODY.build(items, count=len(items))
    except (UnicodeEncodeError, ConstructError, struct.error) as exc:
        raise EncodeError(f"cannot encode RM entries: {exc}") from exc
    return _frame(MessageType.RM, body)


def encode_tokens(tokens: Sequence[int]) -> bytes:
    """A DM carrying a token sequence."""
    count = len(tokens)
    if not 0 < count <= 0x7FFF:
        raise EncodeError(f"a DM carries 1 to 32767 tokens, not {count}")
    try:
        return _DM_HEADER(MessageType.DM, count << 1) + pack_tokens(tokens)
    except struct.error as exc:
        raise EncodeError(f"cannot encode tokens: {exc}") from exc


def encode_message(message: Message, table: TokenTable = STANDARD) -> bytes:
    """A DM carrying a typed message (:class:`protocol.messages.Message`)."""
    return encode_tokens(message.to_tokens(table))


def encode_final() -> bytes:
    """The FM sent just before closing the connection."""
    return bytes(FINAL_FRAME.build({}))


def encode_error(code: ErrorCode | int) -> bytes:
    """The EM sent (instead of FM) when closing because of a protocol error."""
    return _frame(MessageType.EM, ERROR_BODY.build({"code": int(code)}))


def encode(message: WireMessage) -> bytes:
    """Any wire message as bytes."""
    if isinstance(message, DiplomacyMessage):
        return encode_tokens(message.tokens)
    if isinstance(message, InitialMessage):
        return encode_initial(message.version, message.magic)
    if isinstance(message, RepresentationMessage):
        return encode_representation(message.entries)
    if isinstance(message, FinalMessage):
        return encode_final()
    if isinstance(message, ErrorMessage):
        return encode_error(message.code)
    raise EncodeError(f"{message!r} is not a wire message")
