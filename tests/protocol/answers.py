"""What the client does with a server's DM, step by step, with every answer checked in full.

Shared by the table-driven extremes (``test_extremes.py``) and the fuzzing
(``test_fuzz.py``).  :func:`receive` runs a token sequence the way the client
does: through the decoder, to its text (the game log), to ``parse_message``,
to the reply (``reply_to_bad_message``, or ``press_replies`` for press), to
the bytes sent back.  Only the protocol's typed errors may come out of it,
and every reply must be exactly the one DAIDE prescribes:

* a wire violation (a reserved token, a body over the length cap): EM with
  the violation's code, nothing parsed;
* unbalanced brackets: ``PRN (message)``;
* any other bad message (unknown token, grammar, nesting deeper than the
  limit): ``HUH (message)`` with ``ERR`` just before the first bad token;
* a bad ``HUH`` or ``PRN``: no answer;
* a bad message too long to quote in one reply (within 4 tokens of the
  protocol's 32,767): no answer;
* press (``FRM``): ``SND (sender) (HUH (ERR press))`` and ``SND (sender) (TRY ())``
  (only the TRY when the HUH would be too long to send).
"""

from __future__ import annotations

from dataclasses import dataclass

from protocol.daide_errors import BracketError, LanguageError, ProtocolViolation
from protocol.decoder import DEFAULT_MAX_LENGTH, Decoder, Role
from protocol.expression import (
    MAX_MESSAGE_TOKENS,
    MAX_NESTING_DEPTH,
    check_brackets,
    flatten,
    tokenize,
)
from protocol.messages import QUOTE_TOKENS, Frm, Huh, Message, Prn, parse_message, press_replies
from protocol.messages import reply_to_bad_message as reply_to
from protocol.tokens import BRA, ERR, HUH, KET, PRN, SND, TRY, TokenTable
from protocol.wire import (
    DiplomacyMessage,
    encode_initial,
    encode_message,
    encode_representation,
    encode_tokens,
)

WIRE_LIMIT = 0xFFFF
"""The largest body the 16-bit length field can announce: what any peer can receive."""

RESERVED_CATEGORIES = range(0x58, 0x60)
"""High octets of the token categories the protocol reserves (a DM with one is a violation)."""

_RM = encode_representation()  # empty: the standard map


@dataclass
class Received:
    """What the client made of one DM: the typed message or the error, and what it sent back."""

    message: Message | None = None
    error: LanguageError | None = None
    violation: ProtocolViolation | None = None
    replies: tuple[Message, ...] = ()


def depth(tokens: tuple[int, ...]) -> int:
    """How deep the brackets of ``tokens`` nest."""
    level = deepest = 0
    for number in tokens:
        if number == BRA:
            level += 1
            deepest = max(deepest, level)
        elif number == KET:
            level -= 1
    return deepest


def receive(tokens: tuple[int, ...], max_length: int = DEFAULT_MAX_LENGTH) -> Received:
    """Feed ``tokens`` as a server's DM to a client's decoder and handle it as the client does."""
    return receive_all([tokens], max_length)[0]


def receive_all(
    messages: list[tuple[int, ...]], max_length: int = DEFAULT_MAX_LENGTH
) -> list[Received]:
    """:func:`receive` for many DMs sent on one connection (all of them valid on the wire)."""
    decoder = Decoder(Role.CLIENT, max_length=max_length)
    stream = _RM + b"".join(encode_tokens(tokens) for tokens in messages)
    try:
        received = list(decoder.feed(stream))
    except ProtocolViolation as violation:
        if len(messages) == 1:
            return [Received(violation=violation)]
        raise
    out = []
    for tokens, dm in zip(messages, received[1:], strict=True):
        assert isinstance(dm, DiplomacyMessage) and dm.tokens == tokens
        out.append(handle(dm))
    return out


def handle(dm: DiplomacyMessage) -> Received:
    """What ``bot.client.shell`` does with a DM: log its text, parse it, answer it."""
    tokens = dm.tokens
    assert tokenize(dm.text, dm.table) == tokens  # the game log's text is the message
    try:
        message = parse_message(tokens, dm.table)
    except LanguageError as error:
        reply = reply_to(tokens, error, dm.table)
        check_reply(tokens, error, reply)
        return Received(error=error, replies=() if reply is None else (reply,))
    assert depth(tokens) <= MAX_NESTING_DEPTH or isinstance(message, Prn)
    message.to_text(dm.table)  # the bot logs what it handles
    replies = press_replies(message) if isinstance(message, Frm) else ()
    if isinstance(message, Frm):
        check_press_replies(message, replies, dm.table)
    return Received(message=message, replies=replies)


def check_press_replies(message: Frm, replies: tuple[Message, ...], table: TokenTable) -> None:
    """Press gets ``SND (sender) (HUH (ERR press))`` and ``SND (sender) (TRY ())``, sendable."""
    press = flatten(message.press)
    if press and press[0] in (HUH, TRY):
        assert replies == ()
        return
    sender = (SND, BRA, table.number(message.sender), KET)
    refused = (*sender, BRA, HUH, BRA, ERR, *press, KET, KET)
    spoken = (*sender, BRA, TRY, BRA, KET, KET)
    expected = [refused, spoken] if len(refused) <= MAX_MESSAGE_TOKENS else [spoken]
    assert [reply.to_tokens(table) for reply in replies] == expected
    for reply in replies:
        check_sendable(reply)


def expected_reply(tokens: tuple[int, ...], error: LanguageError) -> tuple[int, ...] | None:
    """The tokens of the answer DAIDE prescribes to ``tokens``, which failed with ``error``.

    None for a HUH or PRN, and for a message too long to be quoted in one reply.
    """
    if tokens and tokens[0] in (HUH, PRN):
        return None
    if len(tokens) + QUOTE_TOKENS > MAX_MESSAGE_TOKENS:
        return None
    if isinstance(error, BracketError):
        return (PRN, BRA, *tokens, KET)
    at = 0 if error.index is None else error.index
    assert 0 <= at <= len(tokens), error
    return (HUH, BRA, *tokens[:at], ERR, *tokens[at:], KET)


def check_reply(tokens: tuple[int, ...], error: LanguageError, reply: Message | None) -> None:
    """The reply is exactly the prescribed one, and can be sent and read back."""
    expected = expected_reply(tokens, error)
    if expected is None:
        assert reply is None, reply
        return
    assert reply is not None
    assert reply.to_tokens() == expected
    check_sendable(reply)
    if isinstance(error, BracketError):
        assert isinstance(parse_message(expected), Prn)
        return
    check_brackets(expected)  # only a bracket error quotes unbalanced brackets
    if depth(expected) <= MAX_NESTING_DEPTH:  # a HUH of a too-deep message is too deep too
        again = parse_message(expected)
        assert isinstance(again, Huh) and again.error_index() == expected.index(ERR) - 2


class _Server:
    """A server's decoder reading everything the client sends (a fresh one after a violation)."""

    decoder: Decoder | None = None

    @classmethod
    def read(cls, data: bytes) -> DiplomacyMessage:
        if cls.decoder is None:
            cls.decoder = Decoder(Role.SERVER, max_length=WIRE_LIMIT)
            assert list(cls.decoder.feed(encode_initial()))
        try:
            (message,) = cls.decoder.feed(data)
        except ProtocolViolation:
            cls.decoder = None
            raise
        assert isinstance(message, DiplomacyMessage)
        return message


def check_sendable(message: Message) -> None:
    """``message`` encodes to one DM that a server's decoder reads back unchanged."""
    data = encode_message(message)
    assert len(data) - 4 <= WIRE_LIMIT
    if any(n >> 8 in RESERVED_CATEGORIES for n in message.to_tokens()):
        return  # it quotes tokens that cannot have come off the wire (a test fed them directly)
    assert _Server.read(data).tokens == message.to_tokens()
    assert tokenize(message.to_text()) == message.to_tokens()
