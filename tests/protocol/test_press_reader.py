"""Reading press at a game's level: every form of the syntax document, its level, its refusals.

The rows are the press forms of the DAIDE message syntax (Parlance's
``syntax.html``, levels 10 to 30, and the later DAIDE document's ``CCL``,
``FCT`` and ``NAR``), each as an example message and the level it needs.  At
every level from 0 to 50 a row either round-trips (tokens -> value -> tokens
and text) or is refused with a PressLevelError naming the level it needs, at
the token that needs it (marked ``!`` in the example).
"""

from __future__ import annotations

import time

import pytest

from protocol.daide_errors import (
    GrammarError,
    LanguageError,
    NestingError,
    PressLevelError,
    PressLimitError,
    TextError,
    UnknownTokenError,
    UnsupportedPressError,
)
from protocol.expression import MAX_MESSAGE_TOKENS, flatten, format_tokens, tokenize
from protocol.messages import Frm, Snd, parse_message, press_replies
from protocol.press import (
    MAX_ARRANGEMENTS,
    MAX_PARTS,
    MAX_PRESS_DEPTH,
    Accept,
    AllOf,
    Peace,
    Proposal,
    Try,
    press_level,
)
from protocol.press_reader import (
    parse_frm_press,
    parse_press,
    parse_press_text,
    press_answer,
    spoken_tokens,
)
from protocol.tokens import ERR, STANDARD, TokenTable
from protocol.wire import encode_message

T = STANDARD
LEVELS = (0, 10, 20, 30, 40, 50)
"""The levels every row is read at."""

# (the form as the syntax document gives it, an example (! marks the token that needs the
# level), the level the example needs)
FORMS: list[tuple[str, str, int]] = [
    # level 10: press messages
    ("press_message = PRP (offer)", "!PRP ( PCE ( ENG FRA ) )", 10),
    ("press_message = CCL (press_message)", "!CCL ( PRP ( PCE ( ENG FRA ) ) )", 10),
    ("CCL of a YES (cancelling an acceptance)", "!CCL ( YES ( PRP ( DRW ) ) )", 10),
    ("press_message = FCT (arrangement)", "!FCT ( ALY ( ENG FRA ) VSS ( GER ) )", 10),
    ("press_message = TRY (tokens)", "!TRY ( PRP PCE ALY VSS DRW SLO NOT YES REJ BWX )", 10),
    ("TRY with higher-level tokens", "!TRY ( XDO DMZ AND ORR SCD OCC CHO INS QRY )", 10),
    ("TRY () (a client that speaks no press)", "!TRY ( )", 10),
    # level 10: replies
    ("reply = YES (press_message)", "!YES ( PRP ( PCE ( ENG FRA ) ) )", 10),
    ("reply = REJ (press_message)", "!REJ ( PRP ( DRW ) )", 10),
    ("reply = BWX (press_message)", "!BWX ( PRP ( SLO ( TUR ) ) )", 10),
    (
        "reply = HUH (press_message) with ERR",
        "!HUH ( ERR PRP ( XDO ( ( FRA AMY PAR ) HLD ) ) )",
        10,
    ),
    # level 10: offers
    ("offer = PCE (power power ...)", "!PRP ( PCE ( AUS ENG FRA GER ITA RUS TUR ) )", 10),
    ("offer = PCE, one power", "!PRP ( PCE ( ENG ) )", 10),
    (
        "offer = ALY (power power ...) VSS (power power ...)",
        "!PRP ( ALY ( ENG FRA ) VSS ( GER ) )",
        10,
    ),
    ("offer = DRW", "!PRP ( DRW )", 10),
    ("{PDA} offer = DRW (power power power ...)", "!PRP ( DRW ( ENG FRA GER ) )", 10),
    ("offer = SLO (power)", "!PRP ( SLO ( ENG ) )", 10),
    ("offer = NOT (offer)", "!PRP ( NOT ( PCE ( ENG FRA ) ) )", 10),
    ("arrangement = NAR (arrangement)", "!PRP ( NAR ( ALY ( ENG ) VSS ( GER TUR ) ) )", 10),
    ("NOT and NAR of each other", "!FCT ( NOT ( NAR ( DRW ) ) )", 10),
    # level 20
    ("offer = XDO (order): a move", "PRP ( !XDO ( ( FRA AMY PAR ) MTO PIC ) )", 20),
    ("XDO: a hold", "PRP ( !XDO ( ( ENG FLT NTH ) HLD ) )", 20),
    ("XDO: a support", "PRP ( !XDO ( ( ENG FLT NTH ) SUP ( ENG AMY YOR ) MTO NWY ) )", 20),
    ("XDO: a convoy", "PRP ( !XDO ( ( ENG FLT NTH ) CVY ( ENG AMY YOR ) CTO NWY ) )", 20),
    ("XDO: a coast", "PRP ( !XDO ( ( RUS FLT ( STP SCS ) ) MTO GOB ) )", 20),
    ("XDO: a build", "YES ( PRP ( !XDO ( ( ENG FLT LON ) BLD ) ) )", 20),
    ("XDO: a waive", "PRP ( !XDO ( ENG WVE ) )", 20),
    (
        "offer = DMZ (power power ...) (province province ...)",
        "PRP ( !DMZ ( FRA GER ) ( BUR RUH ) )",
        20,
    ),
    ("NOT (XDO (order))", "PRP ( NOT ( !XDO ( ( GER AMY MUN ) MTO BUR ) ) )", 20),
    ("NAR (XDO (order))", "PRP ( NAR ( !XDO ( ( GER AMY MUN ) MTO BUR ) ) )", 20),
    # level 30
    (
        "multipart_offer = AND (offer) (offer) ...",
        "PRP ( !AND ( XDO ( ( FRA AMY PAR ) MTO BUR ) ) "
        "( XDO ( ( GER AMY MUN ) SUP ( FRA AMY PAR ) MTO BUR ) ) )",
        30,
    ),
    (
        "multipart_offer = ORR (offer) (offer) ...",
        "PRP ( !ORR ( XDO ( ( FRA AMY PAR ) MTO PIC ) ) ( XDO ( ( FRA AMY PAR ) MTO BUR ) ) )",
        30,
    ),
    (
        "AND of three level-10 offers",
        "PRP ( !AND ( PCE ( ENG FRA ) ) ( DRW ) ( SLO ( ENG ) ) )",
        30,
    ),
    ("NOT (AND ...): level 50 (AND not as the offer)", "PRP ( NOT ( !AND ( DRW ) ( DRW ) ) )", 50),
    ("YES of an ORR", "YES ( PRP ( !ORR ( DRW ) ( PCE ( ENG FRA ) ) ) )", 30),
]


def _split(example: str) -> tuple[tuple[int, ...], int]:
    """The example's tokens and the index of the token marked ``!``."""
    before, _, after = example.partition("!")
    return tokenize(before + after, T), len(tokenize(before, T))


@pytest.mark.parametrize(("form", "example", "needs"), FORMS, ids=[row[0] for row in FORMS])
@pytest.mark.parametrize("level", LEVELS)
def test_every_form_round_trips_at_its_level_and_is_refused_below(
    form: str, example: str, needs: int, level: int
) -> None:
    tokens, culprit = _split(example)
    if level < needs:
        with pytest.raises(PressLevelError) as caught:
            parse_press(tokens, level, T)
        needed, where = (10, 0) if level == 0 else (needs, culprit)  # level 0: no press at all
        assert caught.value.needed == needed and caught.value.level == level
        assert caught.value.index == where
        assert f"needs press level {needed}" in str(caught.value)
        return
    value = parse_press(tokens, level, T)
    assert press_level(value) == needs
    assert value.to_tokens(T) == tokens
    assert value.to_text(T) == format_tokens(tokens, T)
    assert parse_press_text(value.to_text(T), level, T) == value


NESTED = (
    "PRP ( ORR ( XDO ( ( FRA AMY PAR ) MTO PIC ) ) ( AND ( XDO ( ( FRA AMY PAR ) MTO BUR ) ) "
    "( XDO ( ( GER AMY MUN ) MTO BUR ) ) ) )"
)
"""The syntax document's example of level 50 (its offers written as XDO arrangements)."""


@pytest.mark.parametrize(
    ("level", "needed", "culprit"),
    [(10, 30, "ORR"), (20, 30, "ORR"), (30, 50, "AND"), (40, 50, "AND")],
)
def test_nested_multipart_offers_need_level_50(level: int, needed: int, culprit: str) -> None:
    tokens = tokenize(NESTED, T)
    with pytest.raises(PressLevelError) as caught:
        parse_press(tokens, level, T)
    assert caught.value.needed == needed
    assert caught.value.index == tokens.index(T.number(culprit))
    value = parse_press(tokens, 50, T)
    assert press_level(value) == 50 and value.to_tokens(T) == tokens


def test_a_second_multipart_needs_level_50_at_its_token() -> None:
    tokens, culprit = _split("PRP ( AND ( DRW ) ( !ORR ( DRW ) ( PCE ( ENG ) ) ) )")
    with pytest.raises(PressLevelError) as caught:
        parse_press(tokens, 30, T)
    assert caught.value.needed == 50 and caught.value.index == culprit
    tokens, culprit = _split("PRP ( AND ( DRW ) ( NOT ( !AND ( DRW ) ( DRW ) ) ) )")
    with pytest.raises(PressLevelError) as caught:
        parse_press(tokens, 30, T)
    assert caught.value.index == culprit


# --- forms above level 30, and what is not press at all ----------------------------------

# (example with ! at the culprit, the level its form needs)
HIGHER = [
    ("PRP ( !SCD ( ENG NWY SWE ) )", 40),
    ("PRP ( !OCC ( ENG FLT BEL ) )", 40),
    ("PRP ( !CHO ( 2 2 ) ( DRW ) ( DRW ) )", 50),
    ("!INS ( PCE ( ENG FRA ) )", 60),
    ("!QRY ( PCE ( ENG FRA ) )", 60),
    ("!WHT ( ENG FLT NTH )", 70),
    ("!EXP ( SPR 1901 ) ( PRP ( DRW ) )", 80),
    ("!FRM ( ENG ) ( FRA ) ( PRP ( DRW ) )", 120),
    ("!'hello'", 8000),
]


@pytest.mark.parametrize(("example", "needs"), HIGHER)
@pytest.mark.parametrize("level", [10, 30, 200, 9000])
def test_forms_above_30_are_refused_by_level_then_as_unspoken(
    example: str, needs: int, level: int
) -> None:
    tokens, culprit = _split(example)
    error = PressLevelError if level < needs else UnsupportedPressError
    with pytest.raises(error) as caught:
        parse_press(tokens, level, T)
    assert caught.value.index == culprit
    if isinstance(caught.value, PressLevelError):
        assert caught.value.needed == needs


VARIANT = TokenTable([(0x4100, "AAA"), (0x4101, "BBB"), (0x5000, "ONE"), (0x5001, "TWO")])
"""A map with two powers and two provinces."""

# (example, error, where) — where: the index of ERR, or None for a text error
MALFORMED: list[tuple[str, type[LanguageError], int | None]] = [
    ("PRP ( PCE ( ) )", GrammarError, 4),
    ("PRP ( PCE ( ENG LON ) )", GrammarError, 5),
    ("PRP ( ALY ( ENG ) ( GER ) )", GrammarError, 6),
    ("PRP ( ALY ( ENG ) VSS ( ) )", GrammarError, 8),
    ("PRP ( DRW ( ENG ) )", GrammarError, 3),
    ("PRP ( DRW ( ) )", GrammarError, 3),
    ("PRP ( DRW ENG )", GrammarError, 3),
    ("PRP ( SLO ( ENG FRA ) )", GrammarError, 5),
    ("PRP ( PCE ( ENG ) ) ( DRW )", GrammarError, 7),
    ("PRP ( DMZ ( FRA ) ( ) )", GrammarError, 7),
    ("PRP ( DMZ ( FRA ) ( ENG ) )", GrammarError, 7),
    ("PRP ( XDO ( PAR ) )", GrammarError, 4),
    ("PRP ( XDO ( ( FRA AMY PAR ) ) )", GrammarError, 9),
    ("PRP ( AND ( DRW ) )", GrammarError, 6),
    ("PRP ( PRP ( DRW ) )", GrammarError, 2),
    ("PRP DRW", GrammarError, 1),
    ("PRP ( )", GrammarError, 2),
    ("YES ( YES ( PRP ( DRW ) ) )", GrammarError, 2),
    ("YES ( PCE ( ENG ) )", GrammarError, 2),
    ("CCL ( REJ ( PRP ( DRW ) ) )", GrammarError, 2),
    ("TRY ( ENG )", GrammarError, 2),
    ("TRY ( 3 )", GrammarError, 2),
    ("HUH PRP", GrammarError, 1),
    ("SUB ( ( ENG AMY LVP ) HLD )", GrammarError, 0),
    ("3", GrammarError, 0),
    ("", GrammarError, 0),
]


@pytest.mark.parametrize(("example", "error", "where"), MALFORMED, ids=[r[0] for r in MALFORMED])
def test_malformed_press_is_a_typed_error_at_the_culprit(
    example: str, error: type[LanguageError], where: int | None
) -> None:
    with pytest.raises(error) as caught:
        parse_press(tokenize(example, T), 50, T)
    assert type(caught.value) is error
    assert caught.value.index == where


def test_powers_and_provinces_not_on_the_map_are_refused() -> None:
    assert parse_press_text("PRP ( DMZ ( AAA BBB ) ( ONE TWO ) )", 20, VARIANT)
    tur = T.number("TUR")  # no power on this map has that number
    variant = (*tokenize("PRP ( PCE ( AAA", VARIANT), tur, *tokenize(") )", VARIANT))
    with pytest.raises(UnknownTokenError) as caught:
        parse_press(variant, 10, VARIANT)
    assert caught.value.index == 5
    with pytest.raises(UnknownTokenError):  # LON's number: no province on this map
        parse_press(
            (*tokenize("PRP ( DMZ ( AAA ) (", VARIANT), T.number("LON"), 0x4001, 0x4001),
            20,
            VARIANT,
        )
    with pytest.raises(TextError):
        parse_press_text("PRP ( PCE ( ENG ) )", 10, VARIANT)


def test_reading_an_frm() -> None:
    frm = parse_message(tokenize("FRM ( ENG ) ( FRA ) ( PRP ( PCE ( ENG FRA ) ) )", T), T)
    assert isinstance(frm, Frm)
    assert parse_frm_press(frm, 10, T) == Proposal(Peace(("ENG", "FRA")))


# --- caps: refused at once, never a recursion blow-up ------------------------------------


def _and_of(count: int) -> tuple[int, ...]:
    return tokenize("PRP ( AND" + " ( PCE ( ENG FRA ) )" * count + " )", T)


def test_an_and_of_ten_thousand_offers_is_refused_at_once() -> None:
    tokens = _and_of(10_000)
    start = time.perf_counter()
    with pytest.raises(PressLimitError) as caught:
        parse_press(tokens, 30, T)
    assert time.perf_counter() - start < 0.5
    assert caught.value.index == 3 + 7 * MAX_PARTS  # the ( of the part one over the cap
    assert parse_press(_and_of(MAX_PARTS), 30, T) == Proposal(
        AllOf((Peace(("ENG", "FRA")),) * MAX_PARTS)
    )


@pytest.mark.parametrize("depth", [MAX_PRESS_DEPTH + 1, 30, 1_000, 10_000])
def test_deep_nesting_is_refused_at_once(depth: int) -> None:
    tokens = tokenize("PRP (" + " NOT (" * depth + " DRW" + " )" * (depth + 1), T)
    start = time.perf_counter()
    with pytest.raises((PressLimitError, NestingError)):
        parse_press(tokens, 10, T)
    assert time.perf_counter() - start < 0.5


def test_nesting_up_to_the_cap_is_read() -> None:
    levels = MAX_PRESS_DEPTH - 2  # PRP and the DRW inside are levels too
    tokens = tokenize("PRP (" + " NOT (" * levels + " DRW" + " )" * (levels + 1), T)
    assert parse_press(tokens, 10, T).to_tokens(T) == tokens


def test_the_count_of_arrangements_is_capped() -> None:
    part = " ( NOT ( NAR ( NOT ( DRW ) ) ) )"  # four arrangements a part
    parts = MAX_ARRANGEMENTS // 4
    with pytest.raises(PressLimitError):
        parse_press(tokenize("PRP ( AND" + part * parts + " )", T), 30, T)
    assert parse_press(tokenize("PRP ( AND" + part * (parts - 1) + " )", T), 30, T)


# --- the answers to press we refuse ----------------------------------------------------------


def _frm(press: str, table: TokenTable = T) -> Frm:
    message = parse_message(tokenize(f"FRM ( ENG ) ( FRA ) ( {press} )", table), table)
    assert isinstance(message, Frm)
    return message


LEVEL_10_TRY = "TRY ( PRP PCE ALY VSS DRW SLO NOT YES REJ BWX FCT )"
LEVEL_30_TRY = "TRY ( PRP PCE ALY VSS DRW SLO NOT YES REJ BWX FCT XDO DMZ AND ORR )"

# (press received, level, the HUH's quote with ERR, the TRY)
ANSWERS = [
    ("PRP ( PCE ( ENG FRA ) )", 0, "ERR PRP ( PCE ( ENG FRA ) )", "TRY ( )"),
    (
        "PRP ( XDO ( ( FRA AMY PAR ) HLD ) )",
        10,
        "PRP ( ERR XDO ( ( FRA AMY PAR ) HLD ) )",
        LEVEL_10_TRY,
    ),
    ("PRP ( SCD ( ENG NWY ) )", 30, "PRP ( ERR SCD ( ENG NWY ) )", LEVEL_30_TRY),
    ("PRP ( SCD ( ENG NWY ) )", 40, "PRP ( ERR SCD ( ENG NWY ) )", LEVEL_30_TRY),
    ("INS ( DRW )", 200, "ERR INS ( DRW )", LEVEL_30_TRY),
    ("PRP ( PCE ( ENG LON ) )", 10, "PRP ( PCE ( ENG ERR LON ) )", LEVEL_10_TRY),
    ("PRP ( AND ( DRW ) )", 30, "PRP ( AND ( DRW ) ERR )", LEVEL_30_TRY),
    (
        "YES ( PRP ( ORR ( DRW ) ( DRW ) ) )",
        20,
        "YES ( PRP ( ERR ORR ( DRW ) ( DRW ) ) )",
        ("TRY ( PRP PCE ALY VSS DRW SLO NOT YES REJ BWX FCT XDO DMZ )"),
    ),
]


@pytest.mark.parametrize(("press", "level", "quote", "spoken"), ANSWERS)
def test_refused_press_gets_huh_with_err_and_try(
    press: str, level: int, quote: str, spoken: str
) -> None:
    replies = press_answer(_frm(press), level, T)
    assert [reply.to_text(T) for reply in replies] == [
        f"SND ( ENG ) ( HUH ( {quote} ) )",
        f"SND ( ENG ) ( {spoken} )",
    ]
    for reply in replies:
        assert encode_message(reply, T)  # sendable


@pytest.mark.parametrize(
    ("press", "level"),
    [
        ("PRP ( PCE ( ENG FRA ) )", 10),
        ("YES ( PRP ( XDO ( ( FRA AMY PAR ) HLD ) ) )", 20),
        ("PRP ( AND ( DRW ) ( PCE ( ENG ) ) )", 30),
        ("HUH ( ERR PRP ( DRW ) )", 0),  # a HUH is never answered, at any level
        ("HUH ( 'x' ( ) )", 10),
        ("TRY ( )", 0),
        ("TRY ( ENG )", 30),  # nor a TRY, even a bad one
    ],
)
def test_understood_press_and_huh_and_try_get_no_answer(press: str, level: int) -> None:
    assert press_answer(_frm(press), level, T) == ()


def test_level_0_answer_is_the_old_polite_answer() -> None:
    for press in ("PRP ( DRW )", "YES ( PRP ( DRW ) )", "HUH ( ERR DRW )", "ALY ( ENG )"):
        frm = _frm(press)
        assert press_answer(frm, 0, T) == press_replies(frm)


def test_the_answer_to_a_56_kb_and_of_4000_offers() -> None:
    offers = " ( PCE ( ENG FRA ) )" * 4_000
    frm = _frm("PRP ( AND" + offers + " )")
    start = time.perf_counter()
    huh, spoken = press_answer(frm, 30, T)
    assert time.perf_counter() - start < 1.0
    assert isinstance(huh, Snd) and flatten(huh.press).index(ERR) == 2 + 3 + 7 * MAX_PARTS
    assert spoken.to_text(T) == f"SND ( ENG ) ( {LEVEL_30_TRY} )"


def test_a_huh_too_long_to_send_is_left_out() -> None:
    room = MAX_MESSAGE_TOKENS - len(tokenize("FRM ( ENG ) ( FRA ) ( PRP ( )  )", T))
    frm = _frm("PRP ( " + "'" + "x" * room + "' )")
    replies = press_answer(frm, 10, T)
    assert [reply.to_text(T) for reply in replies] == [f"SND ( ENG ) ( {LEVEL_10_TRY} )"]


def test_what_we_speak_by_level() -> None:
    assert spoken_tokens(0) == ()
    assert Try(spoken_tokens(10)).to_text(T) == LEVEL_10_TRY
    assert spoken_tokens(30) == spoken_tokens(8000)
    assert Accept(Proposal(Peace(("ENG",)))).to_text(T) == "YES ( PRP ( PCE ( ENG ) ) )"
