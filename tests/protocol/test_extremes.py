"""A server's DM at the extremes: any nesting depth, any length up to the wire cap, any token.

Each row goes the whole way a DM goes in the client (decoder, text for the log,
``parse_message``, the reply, the bytes sent back; see ``answers.py``) and
states what must come of it: the typed message, or the error and the exact
answer DAIDE prescribes (HUH with ERR before the first bad token, PRN for bad
brackets, EM for a wire violation, silence for a bad HUH or PRN).
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from protocol.daide_errors import (
    BracketError,
    EncodeError,
    ErrorCode,
    GrammarError,
    LanguageError,
    NestingError,
    UnknownTokenError,
)
from protocol.decoder import DEFAULT_MAX_LENGTH
from protocol.expression import (
    MAX_NESTING_DEPTH,
    check_nesting,
    flatten,
    fold,
    format_expression,
    parse_expression,
    tokenize,
)
from protocol.messages import (
    MESSAGE_TYPES,
    QUOTE_TOKENS,
    SND_TO_ONE_TOKENS,
    Adm,
    Frm,
    Huh,
    Message,
    Ord,
    Prn,
    Snd,
    Yes,
    parse_message,
)
from protocol.tokens import BRA, ERR, HUH, KET, STANDARD, TEXT_BASE, TRY
from protocol.wire import encode_tokens
from tests.protocol.answers import depth, receive, receive_all

CAP = DEFAULT_MAX_LENGTH // 2
"""Tokens in the longest DM the client accepts (32767): the longest any peer can send."""
QUOTABLE = CAP - QUOTE_TOKENS
"""Tokens in the longest bad message whose HUH or PRN (which quotes it) can still be sent."""
LIMIT = MAX_NESTING_DEPTH


def t(text: str) -> tuple[int, ...]:
    return tokenize(text)


def chain(command: str, levels: int, inner: str = "GOF") -> tuple[int, ...]:
    """``CMD ( CMD ( ... inner ) )``, ``levels`` brackets deep."""
    return t(f"{command} ( " * levels + inner + " )" * levels)


def opening(tokens: tuple[int, ...], level: int) -> int:
    """The index of the ``(`` that opens bracket level ``level`` (1 = outermost) first."""
    current = 0
    for index, number in enumerate(tokens):
        if number == BRA:
            current += 1
            if current == level:
                return index
        elif number == KET:
            current -= 1
    raise AssertionError(f"no level {level}")


def text_run(count: int) -> tuple[int, ...]:
    return tuple(TEXT_BASE | (0x41 + i % 26) for i in range(count))


def to_cap(head: tuple[int, ...], tail: tuple[int, ...]) -> tuple[int, ...]:
    """``head``, a run of text, ``tail``: exactly the cap's length."""
    return (*head, *text_run(CAP - len(head) - len(tail)), *tail)


@dataclass(frozen=True)
class Expect:
    """What must come of a DM: parsed as ``message``, or ``error`` at ``index`` (then answered)."""

    message: type[Message] | None = None
    error: type[LanguageError] | None = None
    index: int | None = None
    answered: bool = True


def parses(kind: type[Message]) -> Expect:
    return Expect(message=kind)


def fails(error: type[LanguageError], index: int | None, answered: bool = True) -> Expect:
    return Expect(error=error, index=index, answered=answered)


YES_600 = chain("YES", 600)
FRM_HEAD = t("FRM ( ENG ) ( FRA )")
FRM_600 = (*FRM_HEAD, *t("( " * 600 + "PRP" + " )" * 600))
FRM_DEPTH = (CAP - len(FRM_HEAD) - 1) // 2
FRM_AT_CAP = (*FRM_HEAD, *(BRA,) * FRM_DEPTH, STANDARD.number("PRP"), *(KET,) * FRM_DEPTH)
HUH_AT_CAP = t("HUH " + "( " * (CAP // 2 - 1) + "ERR" + " )" * (CAP // 2 - 1))
ORD_600 = t("ORD ( SPR 1901 ) " + "( " * 600 + "( ENG AMY LVP ) HLD" + " )" * 600 + " ( SUC )")
BARE_AT_CAP = (BRA,) * (CAP // 2) + (KET,) * (CAP // 2)
BARE_QUOTABLE = (BRA,) * (QUOTABLE // 2) + (KET,) * (QUOTABLE // 2)
YES_AT_CAP = chain("YES", (CAP - 1) // 3)  # YES ( x 10922, GOF, ) x 10922: 32767 tokens
YES_QUOTABLE = chain("YES", (QUOTABLE - 1) // 3)
UNCLOSED_600 = chain("YES", 600)[:-1]  # the outermost ( is never closed
EXTRA_CLOSE_600 = (*chain("YES", 600), KET)
DEEP_BUT_UNBALANCED_INSIDE = t("YES ( " * 600 + "GOF" + " )" * 300 + " ( ( )" + " )" * 300)
ADM_AT_CAP = to_cap(t('ADM ( "server" ) ('), (KET,))
ADM_AT_CAP_THEN_JUNK = to_cap(t('ADM ( "server" ) ('), (KET, ERR))
FRM_LONG_PRESS = to_cap((*FRM_HEAD, BRA), (KET,))
NOW_UNITS = (QUOTABLE - 5 - 4) // 5
NOW_QUOTABLE = (*t("NOW ( SPR 1901 )"), *t("( AUS AMY VIE )") * NOW_UNITS, *t("( ENG AMY )"))
UNKNOWN_AT_CAP = (0x4F00,) * CAP
UNKNOWN_QUOTABLE = (0x4F00,) * QUOTABLE
PAIRS_AT_CAP = (BRA, KET) * (CAP // 2)
PAIRS_QUOTABLE = (BRA, KET) * (QUOTABLE // 2)
ADM_QUOTABLE_THEN_JUNK = (*ADM_AT_CAP[: QUOTABLE - 2], KET, ERR)
PRN_AT_CAP = (*t("PRN ("), *(BRA,) * (CAP - 3), KET)

CASES = {
    # nesting: at the limit it parses, one level more is a NestingError at that level's (
    "YES 64 deep (the limit)": (chain("YES", LIMIT), parses(Yes)),
    "YES 65 deep": (chain("YES", LIMIT + 1), fails(NestingError, 2 * LIMIT + 1)),
    "YES 600 deep (3.6 KB)": (YES_600, fails(NestingError, 2 * LIMIT + 1)),
    "YES 10922 deep (at the cap, too long to quote)": (
        YES_AT_CAP,
        fails(NestingError, 2 * LIMIT + 1, False),
    ),
    "YES 10921 deep (the longest quotable)": (YES_QUOTABLE, fails(NestingError, 2 * LIMIT + 1)),
    "REJ 600 deep": (chain("REJ", 600), fails(NestingError, 2 * LIMIT + 1)),
    "NOT 600 deep": (chain("NOT", 600), fails(NestingError, 2 * LIMIT + 1)),
    "HUH 600 deep": (chain("HUH", 600, "ERR"), fails(NestingError, 2 * LIMIT + 1, False)),
    "HUH 16382 deep (at the cap)": (HUH_AT_CAP, fails(NestingError, LIMIT + 1, False)),
    "HUH 63 deep": (t("HUH " + "( " * 63 + "ERR" + " )" * 63), parses(Huh)),
    "FRM, press 600 deep": (FRM_600, fails(NestingError, opening(FRM_600, LIMIT + 1))),
    "FRM, press 16379 deep (at the cap)": (
        FRM_AT_CAP,
        fails(NestingError, len(FRM_HEAD) + LIMIT, False),
    ),
    "FRM, press 63 deep": (
        (*FRM_HEAD, *t("( " * 63 + "PRP" + " )" * 63)),
        parses(Frm),
    ),
    "ORD 600 deep": (ORD_600, fails(NestingError, opening(ORD_600, LIMIT + 1))),
    "bare brackets 16383 deep (at the cap)": (BARE_AT_CAP, fails(NestingError, LIMIT, False)),
    "bare brackets 16381 deep (quotable)": (BARE_QUOTABLE, fails(NestingError, LIMIT)),
    "SND, 600 deep": (chain("SND", 600), fails(NestingError, 2 * LIMIT + 1)),
    "PRN quoting 32764 open brackets": (PRN_AT_CAP, parses(Prn)),
    # unbalanced brackets at depth: PRN, even when also too deep
    "YES 600, outer ( never closed": (UNCLOSED_600, fails(BracketError, 1)),
    "YES 600, one ) too many": (EXTRA_CLOSE_600, fails(BracketError, len(EXTRA_CLOSE_600) - 1)),
    "YES 600, unbalanced deep inside": (DEEP_BUT_UNBALANCED_INSIDE, fails(BracketError, 1)),
    "HUH 600, unbalanced": (chain("HUH", 600, "ERR")[:-1], fails(BracketError, 1, False)),
    # the longest messages: 32767 tokens, 65534 octets (a bad one is too long to quote back)
    "ADM at the cap": (ADM_AT_CAP, parses(Adm)),
    "ADM at the cap, one token too many": (
        ADM_AT_CAP_THEN_JUNK,
        fails(GrammarError, CAP - 1, False),
    ),
    "ADM, one token too many, the longest quotable": (
        ADM_QUOTABLE_THEN_JUNK,
        fails(GrammarError, QUOTABLE - 1),
    ),
    "FRM with the longest press": (FRM_LONG_PRESS, parses(Frm)),
    "NOW of 6549 units, the last without a province": (
        NOW_QUOTABLE,
        fails(GrammarError, len(NOW_QUOTABLE) - 1),
    ),
    "32767 unknown tokens": (UNKNOWN_AT_CAP, fails(UnknownTokenError, 0, False)),
    "32763 unknown tokens": (UNKNOWN_QUOTABLE, fails(UnknownTokenError, 0)),
    "16383 empty groups": (PAIRS_AT_CAP, fails(GrammarError, 0, False)),
    "16381 empty groups": (PAIRS_QUOTABLE, fails(GrammarError, 0)),
}


@pytest.mark.parametrize(("tokens", "expect"), CASES.values(), ids=CASES.keys())
def test_what_the_client_makes_of_a_server_message(tokens: tuple[int, ...], expect: Expect) -> None:
    assert len(tokens) <= CAP
    received = receive(tokens)  # checks every answer in full
    assert received.violation is None
    if expect.message is not None:
        assert received.error is None, received.error
        assert isinstance(received.message, expect.message)
        return
    assert received.message is None
    assert type(received.error) is expect.error, received.error
    if expect.index is not None:
        assert received.error.index == expect.index
    assert bool(received.replies) is expect.answered


def test_the_brief_case_is_what_the_issue_says() -> None:
    """``YES ( YES ( ... ) )`` 600 deep is 3.6 KB: far under the cap, far over any real depth."""
    assert len(YES_600) * 2 == 3602 and depth(YES_600) == 600


def test_the_cap_is_the_wire_s_own_limit() -> None:
    """One token more than the cap cannot be sent at all: any message a peer can send is read."""
    assert len(ADM_AT_CAP) * 2 == 0xFFFE
    with pytest.raises(EncodeError):
        encode_tokens((*ADM_AT_CAP, KET))
    received = receive(ADM_AT_CAP, max_length=2 * CAP - 2)  # a smaller cap still holds
    assert received.violation is not None
    assert received.violation.code is ErrorCode.UNKNOWN_MESSAGE  # what the decoder sends for it
    assert received.message is None and received.replies == ()


def test_a_49_kb_proposal_is_read() -> None:
    """The issue's case: an AND of 3,500 peace offers (49 KB) is a message, not a violation."""
    offers = " ".join("( PCE ( ENG FRA ) )" for _ in range(3500))
    tokens = t(f"FRM ( ENG ) ( FRA ) ( PRP ( AND {offers} ) )")
    assert 49_000 < len(tokens) * 2 < 0xFFFF
    received = receive(tokens)
    assert received.violation is None and isinstance(received.message, Frm)


def test_the_answer_to_a_deep_message_quotes_it_whole_with_err_at_the_culprit() -> None:
    (reply,) = receive(YES_600).replies
    quoted = reply.to_tokens()[2:-1]
    at = 2 * LIMIT + 1
    assert quoted == (*YES_600[:at], ERR, *YES_600[at:])


def test_the_answer_to_the_longest_quotable_bad_message_fits_the_wire() -> None:
    (reply,) = receive(UNKNOWN_QUOTABLE).replies
    assert len(reply.to_tokens()) == CAP  # HUH ( ERR ... ): exactly the longest message
    assert receive(UNKNOWN_AT_CAP).replies == ()  # one token longer could not be quoted


# --- every token value -----------------------------------------------------------------

COMMANDS = {cls.command for cls in MESSAGE_TYPES if cls is not Prn}  # PRN: only as PRN ( ... )
RESERVED = range(0x5800, 0x6000)
"""Token numbers in the reserved categories 0x58-0x5F: the decoder refuses them (EM 0x0E)."""


@pytest.mark.parametrize("high", range(0, 0x100, 0x10), ids=lambda h: f"0x{h:02X}00")
def test_every_token_value_as_a_whole_message(high: int) -> None:
    """Each of the 65536 values as a one-token message: a command, an error, or EM 0x0E."""
    values = range(high << 8, (high + 0x10) << 8)
    usable = [n for n in values if n not in RESERVED]
    for number, received in zip(usable, receive_all([(n,) for n in usable]), strict=True):
        assert (received.message is None) is (received.error is not None)
        if received.error is not None:  # ERR before the token, or after a command lacking its args
            assert received.error.index == (1 if number in COMMANDS else 0)
    for number in (n for n in values if n in RESERVED):
        received = receive((number,))
        assert received.violation is not None
        assert received.violation.code is ErrorCode.INVALID_TOKEN


def test_every_usable_token_value_in_four_messages_at_the_cap() -> None:
    """Every value but the reserved ones, in order, in messages of 16384 tokens."""
    usable = [n for n in range(0x10000) if n not in RESERVED]
    for start in range(0, len(usable), CAP):
        received = receive(tuple(usable[start : start + CAP]))
        assert received.violation is None and received.error is not None


def test_every_token_value_but_brackets_as_press_at_the_cap() -> None:
    """Every value but the reserved ones and the brackets, as the press of FRMs at the cap."""
    usable = [n for n in range(0x10000) if n not in RESERVED and n not in (BRA, KET)]
    room = CAP - len(FRM_HEAD) - 2
    for start in range(0, len(usable), room):
        press = tuple(usable[start : start + room])
        received = receive((*FRM_HEAD, BRA, *press, KET))
        assert isinstance(received.message, Frm) and flatten(received.message.press) == press
        huh_fits = len(press) + QUOTE_TOKENS + SND_TO_ONE_TOKENS <= CAP
        assert len(received.replies) == (0 if press[0] in (HUH, TRY) else 1 + huh_fits)


# --- the pure functions, at any depth ----------------------------------------------------


@pytest.mark.parametrize("levels", [LIMIT, 600, 5000, 8191])
def test_fold_flatten_and_format_work_at_any_depth(levels: int) -> None:
    tokens = chain("YES", levels)
    expression = fold(tokens)
    assert flatten(expression) == tokens
    text = format_expression(expression)
    assert tokenize(text) == tokens
    assert flatten(parse_expression(text)) == tokens


def test_a_deep_huh_built_by_hand_encodes() -> None:
    body = fold(t("( " * 5000 + "ERR GOF" + " )" * 5000))
    assert Huh(body).error_index() == 5000
    assert len(Huh(body).to_tokens()) == 10005


def test_deep_press_in_a_typed_message_encodes() -> None:
    press = fold(t("( " * 5000 + "PRP" + " )" * 5000))
    assert Snd(("ENG",), press).to_tokens() == (*t("SND ( ENG ) ("), *flatten(press), KET)


@pytest.mark.parametrize(
    ("text", "error", "index"),
    [
        ("( " * LIMIT + " )" * LIMIT, None, None),
        ("( " * (LIMIT + 1) + " )" * (LIMIT + 1), NestingError, LIMIT),
        ("( ) " * 100, None, None),  # many brackets, never deep
        ("( " * 100 + " )" * 99, BracketError, 0),
        (") " + "( " * 100 + " )" * 100, BracketError, 0),
        ("( " * 100 + ") " * 101, BracketError, 200),
    ],
)
def test_check_nesting(text: str, error: type[LanguageError] | None, index: int | None) -> None:
    tokens = t(text)
    if error is None:
        check_nesting(tokens)
        return
    with pytest.raises(error) as caught:
        check_nesting(tokens)
    assert caught.value.index == index


def test_nested_expression_input_is_checked_too() -> None:
    with pytest.raises(NestingError):
        parse_message(fold(YES_600))


def test_the_limit_is_far_above_every_recorded_message() -> None:
    from protocol.data import sample_game

    deepest = max(depth(t(text)) for _, text in sample_game())
    assert deepest <= LIMIT // 8
    press = "FRM ( ENG ) ( FRA ) ( PRP ( IFF ( AND ( XDO ( ( FRA FLT ( STP NCS ) ) MTO NWY ) ) "
    press += "( PCE ( ENG FRA ) ) ) THN ( XDO ( ( ENG AMY LVP ) HLD ) ) ) )"
    assert depth(t(press)) <= LIMIT // 8
    assert isinstance(parse_message(t(press), STANDARD), Frm)


def test_ord_at_a_normal_depth_still_parses() -> None:
    assert isinstance(parse_message(t("ORD ( SPR 1901 ) ( ( ENG AMY LVP ) HLD ) ( SUC )")), Ord)
