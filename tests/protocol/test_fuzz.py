"""Property-based fuzzing: nothing from outside raises anything but the protocol's typed errors."""

from __future__ import annotations

import contextlib

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from protocol.daide_errors import ErrorCode, LanguageError, ProtocolViolation
from protocol.data import sample_game
from protocol.decoder import DEFAULT_MAX_LENGTH, Decoder, Role
from protocol.expression import MAX_NESTING_DEPTH, fold, format_tokens, tokenize
from protocol.messages import Message, parse_message, parse_text, reply_to_bad_message
from protocol.tokens import BRA, KET, STANDARD, TEXT_BASE
from protocol.wire import (
    DiplomacyMessage,
    WireMessage,
    encode_error,
    encode_final,
    encode_initial,
    encode_message,
    encode_representation,
    encode_tokens,
)
from tests.protocol.answers import check_reply, receive

FUZZ = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])

SAMPLE = [parse_text(text) for _, text in sample_game()]
SAMPLE_TOKENS = [message.to_tokens() for message in SAMPLE]
KNOWN = sorted(STANDARD.names)

token = st.one_of(
    st.sampled_from([BRA, KET]),
    st.sampled_from(KNOWN),
    st.integers(0, 0x3FFF),
    st.integers(0, 0xFF).map(lambda c: TEXT_BASE | c),
    st.integers(0, 0xFFFF),
)
"""One token number, biased towards what messages are made of."""


@st.composite
def mutated_message(draw: st.DrawFn) -> tuple[int, ...]:
    """A real message with a few tokens deleted, inserted or replaced."""
    tokens = list(draw(st.sampled_from(SAMPLE_TOKENS)))
    for _ in range(draw(st.integers(1, 4))):
        where = draw(st.integers(0, len(tokens)))
        action = draw(st.sampled_from(["delete", "insert", "replace"]))
        if action == "insert" or not tokens:
            tokens.insert(where, draw(token))
        elif action == "delete":
            del tokens[min(where, len(tokens) - 1)]
        else:
            tokens[min(where, len(tokens) - 1)] = draw(token)
    return tuple(tokens)


token_sequences = st.one_of(st.lists(token, max_size=60).map(tuple), mutated_message())


def _check_language(tokens: tuple[int, ...]) -> None:
    """parse_message either succeeds (and is stable) or raises a LanguageError with a reply."""
    try:
        message = parse_message(tokens)
    except LanguageError as error:
        assert error.index is None or 0 <= error.index <= len(tokens)
        check_reply(tokens, error, reply_to_bad_message(tokens, error))
        return
    again = parse_message(message.to_tokens())
    assert again == message


@FUZZ
@given(token_sequences)
def test_language_parser_raises_only_language_errors(tokens: tuple[int, ...]) -> None:
    _check_language(tokens)


@FUZZ
@given(token_sequences)
def test_text_form_round_trips_any_token_sequence(tokens: tuple[int, ...]) -> None:
    assert tokenize(format_tokens(tokens)) == tokens


@FUZZ
@given(st.text(max_size=80))
def test_text_parser_raises_only_language_errors(text: str) -> None:
    with contextlib.suppress(LanguageError):
        parse_text(text)


@FUZZ
@given(token_sequences)
def test_fold_raises_only_language_errors(tokens: tuple[int, ...]) -> None:
    with contextlib.suppress(LanguageError):
        fold(tokens)


# --- the extremes: any depth, any length up to the cap, any token ------------------------
#
# The strategies above stay under ~60 tokens and so never nest deeper than a few
# levels; these reach the limits a server's DM can reach: brackets thousands
# deep, messages at the 32767-token cap, every 16-bit value.  Each example goes
# the whole way a DM goes in the client (tests/protocol/answers.py: decoder,
# text, parse_message, the reply, the bytes sent back): only typed errors may
# escape, and the reply must be the one DAIDE prescribes, or none.

EXTREMES = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
CAP = DEFAULT_MAX_LENGTH // 2
"""Tokens in the longest DM the client accepts."""

HEADS = [
    (),
    *((STANDARD.number(name),) for name in ("YES", "REJ", "NOT", "HUH", "SND", "PRN", "CCD")),
    tokenize("FRM ( ENG ) ( FRA )"),
    tokenize("ORD ( SPR 1901 )"),
    tokenize("CCD ( ENG )"),
    tokenize("NOW ( SPR 1901 )"),
]
"""What may stand before a deep group: nothing, a command, the start of a real message."""

depths = st.one_of(
    st.integers(MAX_NESTING_DEPTH - 3, MAX_NESTING_DEPTH + 3),  # either side of the limit
    st.integers(1, 8192),
)


@st.composite
def deep_message(draw: st.DrawFn) -> tuple[int, ...]:
    """Brackets nested up to thousands deep, bare or each behind a command, maybe unbalanced."""
    head = draw(st.sampled_from(HEADS))
    level = draw(depths)
    core = tuple(draw(st.lists(token, max_size=6)))
    if draw(st.booleans()):  # CMD ( CMD ( ... ) ): a message in every group
        command = draw(st.sampled_from([n for h in HEADS if len(h) == 1 for n in h]))
        level = min(level, (CAP - len(head) - len(core)) // 3)
        tokens = [*head, *(command, BRA) * level, *core, *(KET,) * level]
    else:
        level = min(level, (CAP - len(head) - len(core)) // 2)
        tokens = [*head, *(BRA,) * level, *core, *(KET,) * level]
    for _ in range(draw(st.integers(0, 3))):  # a bracket lost or added, a token changed
        where = draw(st.integers(0, len(tokens) - 1)) if tokens else 0
        action = draw(st.sampled_from(["delete", "insert", "replace"]))
        if action == "insert" and len(tokens) < CAP:
            tokens.insert(where, draw(token))
        elif action == "delete" and tokens:
            del tokens[where]
        elif tokens:
            tokens[where] = draw(token)
    return tuple(tokens) or (BRA,)


@st.composite
def long_message(draw: st.DrawFn) -> tuple[int, ...]:
    """A message of up to 32767 tokens: a real head, a pattern repeated to the length, noise."""
    head = draw(st.sampled_from([*HEADS, *SAMPLE_TOKENS[:40]]))
    pattern = draw(st.lists(token, min_size=1, max_size=12))
    length = draw(st.one_of(st.just(CAP), st.integers(CAP - 64, CAP), st.integers(1, CAP)))
    body = (pattern * (length // len(pattern) + 1))[: max(0, length - len(head))]
    tokens = [*head, *body][:length]
    for _ in range(draw(st.integers(0, 4))):
        tokens[draw(st.integers(0, len(tokens) - 1))] = draw(token)
    return tuple(tokens)


any_tokens = st.lists(st.integers(0, 0xFFFF), min_size=1, max_size=300).map(tuple)
"""Any 16-bit values at all (the reserved ones make the decoder send EM)."""


def _check_extreme(tokens: tuple[int, ...]) -> None:
    assert 0 < len(tokens) <= CAP
    received = receive(tokens)  # raises on anything untyped or any wrong answer
    if received.violation is not None:  # under the cap, only a reserved token breaks the wire
        assert received.violation.code is ErrorCode.INVALID_TOKEN
        assert any(0x58 <= n >> 8 <= 0x5F for n in tokens)
    else:
        assert (received.message is None) is (received.error is not None)


@EXTREMES
@given(deep_message())
def test_deep_nesting_gets_typed_errors_and_valid_answers(tokens: tuple[int, ...]) -> None:
    _check_extreme(tokens)


@settings(EXTREMES, max_examples=40)  # each example is up to 64 KB through the whole pipeline
@given(long_message())
def test_long_messages_get_typed_errors_and_valid_answers(tokens: tuple[int, ...]) -> None:
    _check_extreme(tokens)


@EXTREMES
@given(any_tokens)
def test_any_tokens_get_typed_errors_and_valid_answers(tokens: tuple[int, ...]) -> None:
    _check_extreme(tokens)


@settings(EXTREMES, max_examples=30)
@given(st.one_of(deep_message(), long_message()), st.lists(st.integers(0, 40000), max_size=6))
def test_extreme_messages_decode_the_same_however_split(
    tokens: tuple[int, ...], cuts: list[int]
) -> None:
    stream = encode_representation() + encode_tokens(tokens)
    assert _feed_all(Decoder(), _split(stream, cuts)) == _feed_all(Decoder(), [stream])


def _feed_all(decoder: Decoder, chunks: list[bytes]) -> tuple[list[WireMessage], int | None]:
    """Feed ``chunks``; the messages received and the violation's code (if any)."""
    received: list[WireMessage] = []
    try:
        for chunk in chunks:
            for message in decoder.feed(chunk):
                received.append(message)
                if isinstance(message, DiplomacyMessage):
                    _check_language(message.tokens)
        decoder.feed_eof()
    except ProtocolViolation as violation:
        return received, int(violation.code)
    return received, None


def _split(data: bytes, cuts: list[int]) -> list[bytes]:
    points = sorted({min(c, len(data)) for c in cuts})
    return [data[a:b] for a, b in zip([0, *points], [*points, len(data)], strict=True)]


frame = st.one_of(
    st.binary(max_size=40),
    st.sampled_from(
        [encode_initial(), encode_representation(), encode_representation(STANDARD),
         encode_final(), encode_error(3)]
    ),
    st.lists(token, min_size=1, max_size=30).map(encode_tokens),
    st.sampled_from(SAMPLE).map(encode_message),
    st.tuples(st.integers(0, 6), st.integers(0, 0xFFFF), st.binary(max_size=20)).map(
        lambda t: bytes([t[0], 0]) + t[1].to_bytes(2, "big") + t[2]
    ),
)  # fmt: skip
"""Octets a peer might send: garbage, valid frames, headers with odd lengths."""


@FUZZ
@given(
    st.sampled_from(list(Role)),
    st.lists(frame, max_size=8).map(b"".join),
    st.lists(st.integers(0, 2000), max_size=12),
)
def test_decoder_raises_only_protocol_violations(role: Role, data: bytes, cuts: list[int]) -> None:
    _feed_all(Decoder(role, max_length=1024), _split(data, cuts))


@FUZZ
@given(st.binary(max_size=400), st.lists(st.integers(0, 400), max_size=20))
def test_decoder_on_pure_garbage(data: bytes, cuts: list[int]) -> None:
    for role in Role:
        _feed_all(Decoder(role), _split(data, cuts))


@FUZZ
@given(
    st.lists(st.sampled_from(SAMPLE), max_size=25),
    st.lists(st.integers(0, 3000), max_size=30),
)
def test_valid_streams_decode_the_same_however_split(
    messages: list[Message], cuts: list[int]
) -> None:
    stream = encode_representation(STANDARD) + b"".join(encode_message(m) for m in messages)
    whole, error = _feed_all(Decoder(), [stream])
    assert error is None
    split, error = _feed_all(Decoder(), _split(stream, cuts))
    assert error is None
    assert split == whole
    assert [m.parse() for m in whole[1:]] == messages  # type: ignore[union-attr]


@FUZZ
@given(st.lists(frame, max_size=8).map(b"".join), st.lists(st.integers(0, 500), max_size=12))
def test_any_stream_decodes_the_same_however_split(data: bytes, cuts: list[int]) -> None:
    whole = _feed_all(Decoder(), [data])
    split = _feed_all(Decoder(), _split(data, cuts))
    assert split == whole


def _client_stream(messages: list[Message]) -> bytes:
    return encode_initial() + b"".join(encode_message(m) for m in messages)


def _server_stream(messages: list[Message]) -> bytes:
    return encode_representation(STANDARD) + b"".join(encode_message(m) for m in messages)


def test_the_recorded_game_fed_one_octet_at_a_time() -> None:
    """Every split point at once: both directions of the live game, one octet per feed()."""
    streams = ((Role.CLIENT, _server_stream(SAMPLE)), (Role.SERVER, _client_stream(SAMPLE)))
    for role, stream in streams:
        whole, error = _feed_all(Decoder(role), [stream])
        assert error is None and len(whole) == len(SAMPLE) + 1
        octets, error = _feed_all(Decoder(role), [stream[i : i + 1] for i in range(len(stream))])
        assert error is None
        assert octets == whole


@FUZZ
@given(
    st.sampled_from(list(Role)),
    st.lists(st.sampled_from(SAMPLE), min_size=1, max_size=12),
    st.integers(1, 64),
)
def test_valid_streams_decode_the_same_in_chunks_of_any_size(
    role: Role, messages: list[Message], size: int
) -> None:
    stream = _server_stream(messages) if role is Role.CLIENT else _client_stream(messages)
    whole, error = _feed_all(Decoder(role), [stream])
    assert error is None
    chunked, error = _feed_all(
        Decoder(role), [stream[i : i + size] for i in range(0, len(stream), size)]
    )
    assert error is None
    assert chunked == whole
    assert [m.parse() for m in whole[1:]] == messages  # type: ignore[union-attr]
