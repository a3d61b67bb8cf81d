"""The message structures and encoders: exact bytes, and construct agreeing with the fast codecs."""

from __future__ import annotations

import struct

import pytest
from hypothesis import given
from hypothesis import strategies as st

from protocol.daide_errors import EncodeError, ErrorCode
from protocol.messages import Nme, Tme
from protocol.tokens import STANDARD
from protocol.wire import (
    DIPLOMACY_BODY,
    ERROR_BODY,
    FINAL_FRAME,
    FRAME,
    HEADER,
    HEADER_CODEC,
    INITIAL_BODY,
    REPRESENTATION_BODY,
    DiplomacyMessage,
    ErrorMessage,
    FinalMessage,
    InitialMessage,
    MessageType,
    RepresentationMessage,
    WireMessage,
    encode,
    encode_error,
    encode_final,
    encode_initial,
    encode_message,
    encode_representation,
    encode_tokens,
    pack_tokens,
    unpack_tokens,
)

# (what, bytes on the wire)
ENCODED = [
    (encode_initial(), bytes.fromhex("00 00 0004 0001 DA10")),
    (encode_final(), bytes.fromhex("03 00 0000")),
    (encode_error(ErrorCode.INVALID_TOKEN), bytes.fromhex("04 00 0002 000E")),
    (encode_error(0x0A), bytes.fromhex("04 00 0002 000A")),
    (encode_representation([(0x4100, "ENG"), (0x5500, "LON")]),
     bytes.fromhex("01 00 000C 4100 454E47 00 5500 4C4F4E 00")),
    (encode_representation([]), bytes.fromhex("01 00 0000")),
    (encode_tokens([0x481B, 0x4000, 0x0003, 0x4001]),
     bytes.fromhex("02 00 0008 481B 4000 0003 4001")),
    (encode_message(Tme(3)), bytes.fromhex("02 00 0008 481B 4000 0003 4001")),
    (encode_message(Nme("a", "b")),
     bytes.fromhex("02 00 000E 480C 4000 4B61 4001 4000 4B62 4001")),
]  # fmt: skip


@pytest.mark.parametrize(("encoded", "expected"), ENCODED)
def test_encoders_write_the_documented_bytes(encoded: bytes, expected: bytes) -> None:
    assert encoded == expected


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        (InitialMessage(), bytes.fromhex("00 00 0004 0001 DA10")),
        (RepresentationMessage(((0x4100, "ENG"),)), bytes.fromhex("01 00 0006 4100 454E47 00")),
        (DiplomacyMessage((0x4810,)), bytes.fromhex("02 00 0002 4810")),
        (FinalMessage(), bytes.fromhex("03 00 0000")),
        (ErrorMessage(2), bytes.fromhex("04 00 0002 0002")),
    ],
)
def test_encode_any_wire_message(message: WireMessage, expected: bytes) -> None:
    assert encode(message) == expected


def test_full_standard_representation() -> None:
    data = encode_representation(STANDARD)
    assert len(data) == 4 + 6 * (7 + 75)
    assert RepresentationMessage.of(STANDARD).table is STANDARD


@pytest.mark.parametrize(
    "bad",
    [
        lambda: encode_tokens([]),
        lambda: encode_tokens([0x10000]),
        lambda: encode_tokens([-2]),
        lambda: encode_tokens([0] * 40000),
        lambda: encode_representation([(0x4100, "ÉNG")]),
        lambda: encode_representation([(0x10000, "ENG")]),
        lambda: encode_message(Nme("\u20ac", "1")),
    ],
)
def test_unencodable_values_are_encode_errors(bad: object) -> None:
    with pytest.raises(EncodeError):
        bad()  # type: ignore[operator]


def test_error_message_descriptions() -> None:
    assert ErrorMessage(0x0E).description == "Invalid token in DM"
    assert ErrorMessage(0x77).description == "unknown error code"


@given(st.integers(0, 255), st.integers(0, 255), st.integers(0, 0xFFFF))
def test_header_construct_agrees_with_struct(kind: int, pad: int, length: int) -> None:
    raw = bytes([kind, pad]) + length.to_bytes(2, "big")
    parsed = HEADER.parse(raw)
    assert (parsed.type, parsed.length) == HEADER_CODEC.unpack(raw)
    assert HEADER.build({"type": kind, "pad": 0, "length": length}) == HEADER_CODEC.pack(
        kind, length
    )


@given(st.lists(st.integers(0, 0xFFFF), max_size=200))
def test_token_array_construct_agrees_with_struct(tokens: list[int]) -> None:
    body = pack_tokens(tokens)
    assert DIPLOMACY_BODY.build(tokens) == body
    assert tuple(DIPLOMACY_BODY.parse(body)) == unpack_tokens(body) == tuple(tokens)


@given(st.binary(max_size=300))
def test_frame_construct_agrees_with_encoders(body: bytes) -> None:
    framed = FRAME.build({"type": MessageType.DM, "pad": 0, "body": body})
    assert framed[:4] == HEADER_CODEC.pack(MessageType.DM, len(body))
    if body and not len(body) % 2:
        assert encode_tokens(unpack_tokens(body)) == framed


def test_other_bodies() -> None:
    assert INITIAL_BODY.parse(bytes.fromhex("0001DA10")).magic == 0xDA10
    assert ERROR_BODY.build({"code": 9}) == b"\x00\x09"
    assert FINAL_FRAME.build({}) == b"\x03\x00\x00\x00"
    entries = REPRESENTATION_BODY.parse(bytes.fromhex("4100454E4700"), count=1)
    assert (entries[0].number, entries[0].name, entries[0].nul) == (0x4100, b"ENG", 0)
    assert struct.calcsize(HEADER_CODEC.format) == 4
