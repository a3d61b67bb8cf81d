"""Text <-> tokens <-> nested expressions, both directions, and their errors."""

from __future__ import annotations

import pytest

from protocol.daide_errors import BracketError, EncodeError, TextError
from protocol.expression import (
    check_brackets,
    flatten,
    fold,
    format_expression,
    format_tokens,
    parse_expression,
    tokenize,
)
from protocol.tokens import BRA, KET, STANDARD, Token, TokenTable

NME = STANDARD.token(0x480C)
MTO = STANDARD.token(0x4323)
ENG = STANDARD.token(0x4101)
FLT = STANDARD.token(0x4201)
LON = STANDARD.token(0x553A)
NTH = STANDARD.token(0x521C)
SUB = STANDARD.token(0x4818)
PRN = STANDARD.token(0x4813)


def t(text: str) -> list[int]:
    """Text tokens of ``text``."""
    return [0x4B00 | ord(c) for c in text]


# (canonical text, tokens, expression)
CASES = [
    ("NME ( \"raw\" ) ( \"0.1\" )",
     (0x480C, BRA, *t("raw"), KET, BRA, *t("0.1"), KET),
     (NME, ("raw",), ("0.1",))),
    ("SUB ( ( ENG FLT LON ) MTO NTH )",
     (0x4818, BRA, BRA, 0x4101, 0x4201, 0x553A, KET, 0x4323, 0x521C, KET),
     (SUB, ((ENG, FLT, LON), MTO, NTH))),
    ("TME ( 3 )", (0x481B, BRA, 3, KET), (STANDARD.token(0x481B), (3,))),
    ("MIS ( -2 )", (0x480B, BRA, 0x3FFE, KET), (STANDARD.token(0x480B), (-2,))),
    ("HST ( SPR 1901 )", (0x4805, BRA, 0x4700, 1901, KET),
     (STANDARD.token(0x4805), (STANDARD.token(0x4700), 1901))),
    ("TRY ( )", (0x4A1A, BRA, KET), (STANDARD.token(0x4A1A), ())),
    ("ADM ( \"say \\\"hi\\\" \\\\ bye\" )",
     (0x481D, BRA, *t('say "hi" \\ bye'), KET),
     (STANDARD.token(0x481D), ('say "hi" \\ bye',))),
    ("NOT ( 0x4C05 )", (0x480D, BRA, 0x4C05, KET),
     (STANDARD.token(0x480D), (Token(0x4C05, "0x4C05"),))),
    ("NME ( ) ( )", (0x480C, BRA, KET, BRA, KET), (NME, (), ())),
]  # fmt: skip


@pytest.mark.parametrize(("text", "tokens", "expression"), CASES)
def test_text_to_tokens_to_expression(
    text: str, tokens: tuple[int, ...], expression: tuple
) -> None:
    assert tokenize(text) == tokens
    assert fold(tokens) == expression
    assert parse_expression(text) == expression


@pytest.mark.parametrize(("text", "tokens", "expression"), CASES)
def test_expression_to_tokens_to_text(
    text: str, tokens: tuple[int, ...], expression: tuple
) -> None:
    assert flatten(expression) == tokens
    assert format_tokens(tokens) == text
    assert format_expression(expression) == text


@pytest.mark.parametrize(
    ("loose", "canonical"),
    [
        ('nme("raw")("0.1")', 'NME ( "raw" ) ( "0.1" )'),
        ("NME ('raw') ('0.1')", 'NME ( "raw" ) ( "0.1" )'),
        ("  sub(( eng flt lon )mto NTH)  ", "SUB ( ( ENG FLT LON ) MTO NTH )"),
        ("SUB BRA BRA ENG FLT LON KET MTO NTH KET", "SUB ( ( ENG FLT LON ) MTO NTH )"),
        ("TME\t(\n+3\r)", "TME ( 3 )"),
        ("ADM ('it\\'s') (\"a\")", 'ADM ( "it\'s" ) ( "a" )'),
        ("not(0x4c05)", "NOT ( 0x4C05 )"),
        ("PRN ( NOW ( SPR", "PRN ( NOW ( SPR"),  # unbalanced text is still tokens
        ("", ""),
    ],
)
def test_liberal_input_canonical_output(loose: str, canonical: str) -> None:
    assert format_tokens(tokenize(loose)) == canonical


@pytest.mark.parametrize(
    ("text", "position"),
    [
        ('NME ("raw") ("0.1)', 13),  # the last quote opens an unterminated string
        ("NME ('raw", 5),
        ("NOW ( SPR 1901 ) ( FOO )", 19),
        ("TME ( 9000 )", 6),
        ("TME ( -8193 )", 6),
        ("NOW ; SPR", 4),
        ('ADM ( "caf\u00e9 \u20ac" )', 6),
    ],
)
def test_text_errors_name_the_character(text: str, position: int) -> None:
    with pytest.raises(TextError) as info:
        tokenize(text)
    assert info.value.position == position


@pytest.mark.parametrize(
    ("text", "index"),
    [
        ("NOW ( SPR 1901", 1),
        ("NOW ( SPR 1901 ) )", 5),
        (") NOW", 0),
        ("SUB ( ( ENG FLT LON ) MTO NTH", 1),
        ("SUB ( ( ENG FLT LON MTO NTH )", 1),
    ],
)
def test_bracket_errors_name_the_token(text: str, index: int) -> None:
    tokens = tokenize(text)
    with pytest.raises(BracketError) as info:
        fold(tokens)
    assert info.value.index == index
    with pytest.raises(BracketError):
        check_brackets(tokens)


def test_variant_table_names() -> None:
    table = TokenTable([(0x4100, "NTH"), (0x5000, "ONE"), (0x5001, "TWO")])
    tokens = tokenize("HLO ( NTH ) ( 1 ) ( ( LVL 0 ) )", table)
    assert tokens[2] == 0x4100
    assert format_tokens(tokens, table) == "HLO ( NTH ) ( 1 ) ( ( LVL 0 ) )"
    assert format_tokens(tokens) == "HLO ( AUS ) ( 1 ) ( ( LVL 0 ) )"  # same number, standard name
    with pytest.raises(TextError):
        tokenize("HLO ( ENG )", table)


@pytest.mark.parametrize("item", [10000, "\u20ac", 1.5, None, True])
def test_flatten_refuses_what_daide_cannot_carry(item: object) -> None:
    with pytest.raises(EncodeError):
        flatten((NME, (item,)))  # type: ignore[arg-type]


def test_unknown_token_folds_with_a_hex_name_and_round_trips() -> None:
    expression = fold((0x480D, BRA, 0x6123, KET))
    assert expression == (STANDARD.token(0x480D), (Token(0x6123, "0x6123"),))
    assert flatten(expression) == (0x480D, BRA, 0x6123, KET)
