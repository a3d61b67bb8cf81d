"""The decoder as a table of (role, state, bytes) -> messages or the EM code of the violation."""

from __future__ import annotations

import pytest

from protocol.daide_errors import ErrorCode, ProtocolViolation
from protocol.decoder import DEFAULT_MAX_LENGTH, TRANSITIONS, Decoder, Role, State
from protocol.messages import Now, Tme
from protocol.tokens import STANDARD, TokenTable
from protocol.wire import (
    DiplomacyMessage,
    ErrorMessage,
    FinalMessage,
    InitialMessage,
    MessageType,
    RepresentationMessage,
    WireMessage,
    encode_error,
    encode_final,
    encode_initial,
    encode_message,
    encode_representation,
    encode_tokens,
)

IM = encode_initial()
RM = encode_representation(STANDARD)
EMPTY_RM = encode_representation([])
TME = encode_message(Tme(3))
TME_TOKENS = (0x481B, 0x4000, 3, 0x4001)
FM = encode_final()


def hx(text: str) -> bytes:
    return bytes.fromhex(text)


def decoder_in(role: Role, state: State) -> Decoder:
    """A decoder brought to ``state`` by feeding it the right messages."""
    decoder = Decoder(role)
    if state is State.OPEN:
        list(decoder.feed(RM if role is Role.CLIENT else IM))
    elif state is State.CLOSED:
        list(decoder.feed(FM))
    assert decoder.state is state
    return decoder


C, S = Role.CLIENT, Role.SERVER
AWAIT_RM, AWAIT_IM, OPEN, CLOSED = State.AWAIT_RM, State.AWAIT_IM, State.OPEN, State.CLOSED

# (role, state, bytes fed, expected messages (or an ErrorCode), state after)
CASES: list[tuple[Role, State, bytes, list[WireMessage] | ErrorCode, State]] = [
    # --- client role: reading a server -----------------------------------------
    (C, AWAIT_RM, RM, [RepresentationMessage.of(STANDARD)], OPEN),
    (C, AWAIT_RM, EMPTY_RM, [RepresentationMessage()], OPEN),
    (C, AWAIT_RM, EMPTY_RM + TME, [RepresentationMessage(), DiplomacyMessage(TME_TOKENS)], OPEN),
    (C, AWAIT_RM, TME, ErrorCode.DM_BEFORE_RM, CLOSED),
    (C, AWAIT_RM, IM, ErrorCode.IM_FROM_SERVER, CLOSED),
    (C, OPEN, IM, ErrorCode.IM_FROM_SERVER, CLOSED),
    (C, AWAIT_RM, FM, [FinalMessage()], CLOSED),
    (C, AWAIT_RM, encode_error(1), [ErrorMessage(1)], CLOSED),
    (C, OPEN, TME, [DiplomacyMessage(TME_TOKENS)], OPEN),
    (C, OPEN, TME + TME, [DiplomacyMessage(TME_TOKENS)] * 2, OPEN),
    (C, OPEN, EMPTY_RM, [RepresentationMessage()], OPEN),  # Parlance game selection
    (C, OPEN, FM + TME, [FinalMessage()], CLOSED),  # nothing after FM counts
    (C, OPEN, encode_error(ErrorCode.INVALID_TOKEN), [ErrorMessage(0x0E)], CLOSED),
    (C, OPEN, hx("05 00 0000"), ErrorCode.UNKNOWN_MESSAGE, CLOSED),
    (C, OPEN, hx("FF 00 0002 4810"), ErrorCode.UNKNOWN_MESSAGE, CLOSED),
    (C, OPEN, hx("02 00 0000"), ErrorCode.MESSAGE_TOO_SHORT, CLOSED),  # empty DM
    (C, OPEN, hx("02 00 0003 481B 40"), ErrorCode.MESSAGE_TOO_SHORT, CLOSED),  # odd DM
    (C, OPEN, hx("02 00 0002 5801"), ErrorCode.INVALID_TOKEN, CLOSED),  # reserved category
    (C, OPEN, hx("02 00 0004 4810 5FFF"), ErrorCode.INVALID_TOKEN, CLOSED),
    (C, OPEN, hx("02 00 0002 6123"), [DiplomacyMessage((0x6123,))], OPEN),  # unknown: language
    (C, OPEN, hx("02 77 0002 4810"), [DiplomacyMessage((0x4810,))], OPEN),  # pad is ignored
    (C, OPEN, hx("03 00 0002 0000"), ErrorCode.MESSAGE_TOO_SHORT, CLOSED),  # FM with a body
    (C, OPEN, hx("04 00 0001 00"), ErrorCode.MESSAGE_TOO_SHORT, CLOSED),  # short EM
    (C, OPEN, hx("04 00 0004 0001 0002"), ErrorCode.MESSAGE_TOO_SHORT, CLOSED),  # long EM
    (C, OPEN, hx("01 00 0005 4100454E47"), ErrorCode.MESSAGE_TOO_SHORT, CLOSED),  # RM % 6
    (C, OPEN, hx("01 00 0006 4300 414243 00"), ErrorCode.INVALID_TOKEN, CLOSED),  # not a power
    (C, OPEN, hx("01 00 0006 4100 616263 00"), ErrorCode.INVALID_TOKEN, CLOSED),  # lower case
    (C, OPEN, hx("01 00 0006 4100 414243 01"), ErrorCode.INVALID_TOKEN, CLOSED),  # no NUL
    (C, OPEN, hx("01 00 000C 4100 414243 00 4101 414243 00"), ErrorCode.INVALID_TOKEN, CLOSED),
    (C, OPEN, hx("01 00 0006 4100 4D544F 00"), ErrorCode.INVALID_TOKEN, CLOSED),  # "MTO"
    # the protocol's own limit is the cap: the longest DM (65,534 octets) and a 49 KB one are read
    (C, OPEN, hx("02 00 FFFE") + bytes(0xFFFE), [DiplomacyMessage((0,) * 0x7FFF)], OPEN),
    (C, OPEN, hx("02 00 BF8E") + bytes(0xBF8E), [DiplomacyMessage((0,) * 0x5FC7)], OPEN),
    (C, OPEN, hx("02 00 FFFF") + bytes(0xFFFF), ErrorCode.MESSAGE_TOO_SHORT, CLOSED),  # odd
    (C, OPEN, hx("02 00"), [], OPEN),  # half a header: wait
    (C, OPEN, TME[:-1], [], OPEN),  # all but one octet: wait
    (C, CLOSED, TME + IM + hx("FF"), [], CLOSED),  # closed: ignore everything
    # --- server role: reading a client (for scripted test servers) -------------
    (S, AWAIT_IM, IM, [InitialMessage()], OPEN),
    (S, AWAIT_IM, IM + TME, [InitialMessage(), DiplomacyMessage(TME_TOKENS)], OPEN),
    (S, AWAIT_IM, TME, ErrorCode.IM_NOT_FIRST, CLOSED),
    (S, AWAIT_IM, RM, ErrorCode.RM_FROM_CLIENT, CLOSED),
    (S, OPEN, RM, ErrorCode.RM_FROM_CLIENT, CLOSED),
    (S, OPEN, IM, ErrorCode.IM_REPEATED, CLOSED),
    (S, AWAIT_IM, hx("00 00 0004 0001 10DA"), ErrorCode.IM_WRONG_ENDIAN, CLOSED),
    (S, AWAIT_IM, hx("00 00 0400 0100 10DA"), ErrorCode.IM_WRONG_ENDIAN, CLOSED),
    (S, AWAIT_IM, hx("00 00 0004 0001 DA11"), ErrorCode.IM_WRONG_MAGIC, CLOSED),
    (S, AWAIT_IM, hx("00 00 0004 0002 DA10"), ErrorCode.VERSION_INCOMPATIBLE, CLOSED),
    (S, AWAIT_IM, hx("00 00 0002 0001"), ErrorCode.MESSAGE_TOO_SHORT, CLOSED),
    (S, AWAIT_IM, FM, [FinalMessage()], CLOSED),
    (S, OPEN, TME + FM, [DiplomacyMessage(TME_TOKENS), FinalMessage()], CLOSED),
]  # fmt: skip


@pytest.mark.parametrize(("role", "state", "data", "expected", "after"), CASES)
def test_decoder_table(
    role: Role,
    state: State,
    data: bytes,
    expected: list[WireMessage] | ErrorCode,
    after: State,
) -> None:
    decoder = decoder_in(role, state)
    if isinstance(expected, ErrorCode):
        with pytest.raises(ProtocolViolation) as info:
            list(decoder.feed(data))
        assert info.value.code is expected
        assert decoder.error is info.value
    else:
        assert list(decoder.feed(data)) == expected
    assert decoder.state is after


@pytest.mark.parametrize(("role", "state", "data", "expected", "after"), CASES)
def test_decoder_table_one_octet_at_a_time(
    role: Role,
    state: State,
    data: bytes,
    expected: list[WireMessage] | ErrorCode,
    after: State,
) -> None:
    decoder = decoder_in(role, state)
    received: list[WireMessage] = []
    try:
        for i in range(len(data)):
            received.extend(decoder.feed(data[i : i + 1]))
    except ProtocolViolation as exc:
        assert exc.code is expected
    else:
        assert received == expected
    assert decoder.state is after


def test_messages_before_a_violation_are_delivered_first() -> None:
    decoder = Decoder()
    stream = decoder.feed(RM + TME + hx("02 00 0002 5900") + TME)
    assert isinstance(next(stream), RepresentationMessage)
    assert next(stream) == DiplomacyMessage(TME_TOKENS)
    with pytest.raises(ProtocolViolation) as info:
        next(stream)
    assert info.value.code is ErrorCode.INVALID_TOKEN


def test_a_failed_decoder_keeps_failing_with_the_same_violation() -> None:
    decoder = Decoder()
    with pytest.raises(ProtocolViolation) as first:
        list(decoder.feed(TME))
    with pytest.raises(ProtocolViolation) as again:
        list(decoder.feed(RM))
    assert again.value is first.value
    with pytest.raises(ProtocolViolation):
        decoder.feed_eof()


def test_unconsumed_messages_wait_for_the_next_feed() -> None:
    decoder = Decoder()
    decoder.feed(RM + TME)  # iterator dropped unread
    assert len(list(decoder.feed(TME))) == 3


def test_eof_inside_a_message_is_too_short() -> None:
    decoder = decoder_in(Role.CLIENT, State.OPEN)
    assert list(decoder.feed(TME[:5])) == []
    assert decoder.buffered == 5
    with pytest.raises(ProtocolViolation) as info:
        decoder.feed_eof()
    assert info.value.code is ErrorCode.MESSAGE_TOO_SHORT


def test_eof_after_a_header_alone_is_too_short() -> None:
    decoder = decoder_in(Role.CLIENT, State.OPEN)
    assert list(decoder.feed(TME[:4])) == []
    assert decoder.buffered == 4
    with pytest.raises(ProtocolViolation) as info:
        decoder.feed_eof()
    assert info.value.code is ErrorCode.MESSAGE_TOO_SHORT


def test_eof_between_messages_is_fine() -> None:
    decoder = decoder_in(Role.CLIENT, State.OPEN)
    list(decoder.feed(TME))
    decoder.feed_eof()
    assert decoder.state is State.CLOSED


def test_the_default_cap_is_the_length_field_s_limit() -> None:
    assert DEFAULT_MAX_LENGTH == 0xFFFF == Decoder().max_length


def test_length_cap_is_configurable() -> None:
    decoder = Decoder(max_length=6)
    list(decoder.feed(EMPTY_RM))
    assert list(decoder.feed(encode_tokens([0x4810] * 3))) == [DiplomacyMessage((0x4810,) * 3)]
    with pytest.raises(ProtocolViolation) as info:
        list(decoder.feed(hx("02 00 0008")))  # refused on the header alone
    assert info.value.code is ErrorCode.UNKNOWN_MESSAGE


def test_dms_carry_the_table_in_force_when_they_arrived() -> None:
    variant = TokenTable([(0x4100, "NTH"), (0x5000, "ONE")])
    decoder = Decoder()
    now = Now()
    messages = list(
        decoder.feed(
            RM + encode_message(now) + encode_representation(variant) + encode_message(now)
        )
    )
    assert messages[1].table is STANDARD  # type: ignore[union-attr]
    assert messages[3].table == variant  # type: ignore[union-attr]
    assert decoder.table == variant


def test_server_role_uses_its_table() -> None:
    variant = TokenTable([(0x4100, "NTH"), (0x5000, "ONE")])
    decoder = Decoder(Role.SERVER, table=variant)
    messages = list(decoder.feed(IM + TME))
    assert messages[1].table is variant  # type: ignore[union-attr]
    assert messages[1].parse() == Tme(3)  # type: ignore[union-attr]


def test_every_transition_is_tabled() -> None:
    for role, states in ((Role.CLIENT, (AWAIT_RM, OPEN)), (Role.SERVER, (AWAIT_IM, OPEN))):
        for state in states:
            assert set(TRANSITIONS[role, state]) == set(MessageType)
