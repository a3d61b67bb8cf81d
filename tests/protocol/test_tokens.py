"""The token numbers, integer/text encoding and token tables (standard and from an RM)."""

from __future__ import annotations

import pytest

from protocol import tokens as t
from protocol.daide_errors import EncodeError
from protocol.tokens import STANDARD, STANDARD_ENTRIES, Token, TokenTable

# (name, number) as the protocol document numbers them, one or more per category.
NUMBERS = [
    ("BRA", 0x4000), ("KET", 0x4001),
    ("AUS", 0x4100), ("ENG", 0x4101), ("TUR", 0x4106),
    ("AMY", 0x4200), ("FLT", 0x4201),
    ("CTO", 0x4320), ("VIA", 0x4325), ("DSB", 0x4340), ("RTO", 0x4341),
    ("BLD", 0x4380), ("REM", 0x4381), ("WVE", 0x4382),
    ("MBV", 0x4400), ("NSU", 0x4410), ("YSC", 0x4413),
    ("SUC", 0x4500), ("RET", 0x4506),
    ("NCS", 0x4600), ("NEC", 0x4602), ("SCS", 0x4608), ("NWC", 0x460E),
    ("SPR", 0x4700), ("WIN", 0x4704),
    ("CCD", 0x4800), ("HLO", 0x4804), ("NOW", 0x480E), ("SUB", 0x4818),
    ("YES", 0x481C), ("ADM", 0x481D), ("SMR", 0x481E),
    ("AOA", 0x4900), ("ERR", 0x4902), ("MRT", 0x4904), ("UNO", 0x490B), ("DSD", 0x490D),
    ("ALY", 0x4A00), ("TRY", 0x4A1A), ("CHO", 0x4A22), ("BCC", 0x4A23), ("UNT", 0x4A24),
    ("LST", 0x4E02), ("VAR", 0x4E07),
    ("BOH", 0x5000), ("UKR", 0x5006), ("BUD", 0x5107), ("WAR", 0x510D),
    ("ADR", 0x520E), ("WES", 0x5220), ("ALB", 0x5421), ("YOR", 0x542F),
    ("ANK", 0x5530), ("VEN", 0x5547), ("BUL", 0x5748), ("SPA", 0x5749), ("STP", 0x574A),
]  # fmt: skip


@pytest.mark.parametrize(("name", "number"), NUMBERS)
def test_standard_numbers_both_ways(name: str, number: int) -> None:
    assert STANDARD.number(name) == number
    assert STANDARD.name(number) == name
    assert STANDARD.token(number) == Token(number, name)


def test_standard_map_has_7_powers_and_75_provinces_in_sequence() -> None:
    assert STANDARD.powers == ("AUS", "ENG", "FRA", "GER", "ITA", "RUS", "TUR")
    assert len(STANDARD.provinces) == 75
    lows = sorted(n & 0xFF for n, _ in STANDARD_ENTRIES if t.is_province(n))
    assert lows == list(range(75))


def test_constants_match_table() -> None:
    for name in ("MTO", "SUP", "HLD", "NOW", "SCO", "ORD", "THX", "MIS", "ERR", "TRY", "UNO"):
        assert getattr(t, name) == STANDARD.number(name)


@pytest.mark.parametrize(
    ("value", "number"),
    [(0, 0x0000), (1, 0x0001), (1901, 0x076D), (8191, 0x1FFF), (-1, 0x3FFF), (-8192, 0x2000)],
)
def test_integers_are_14_bit_twos_complement(value: int, number: int) -> None:
    assert t.integer_token(value) == number
    assert t.integer_value(number) == value
    assert t.is_integer(number)


@pytest.mark.parametrize("value", [8192, -8193, 100000])
def test_integer_out_of_range_is_an_encode_error(value: int) -> None:
    with pytest.raises(EncodeError):
        t.integer_token(value)


def test_text_tokens() -> None:
    assert t.text_tokens("Ab") == [0x4B41, 0x4B62]
    with pytest.raises(EncodeError):
        t.text_tokens("€")


@pytest.mark.parametrize(
    ("number", "kind"),
    [(0x4100, "power"), (0x5748, "province"), (0x5800, "reserved"), (0x5FFF, "reserved"),
     (0x4B41, "text"), (0x1234, "integer")],
)  # fmt: skip
def test_classification(number: int, kind: str) -> None:
    checks = {
        "power": t.is_power, "province": t.is_province, "reserved": t.is_reserved,
        "text": t.is_text, "integer": t.is_integer,
    }  # fmt: skip
    assert {name for name, check in checks.items() if check(number)} == {kind}


def test_case_insensitive_lookup_and_unknown_names() -> None:
    assert STANDARD.number("lon") == 0x553A
    assert STANDARD.lookup("XYZ") is None
    with pytest.raises(EncodeError):
        STANDARD.number("XYZ")
    assert STANDARD.token(0x4C05) == Token(0x4C05, "0x4C05")


def test_variant_table_replaces_all_standard_powers_and_provinces() -> None:
    table = TokenTable.from_representation([(0x4100, "NTH"), (0x4101, "STH"), (0x5500, "ONE")])
    assert table.powers == ("NTH", "STH")
    assert table.provinces == ("ONE",)
    assert table.name(0x4100) == "NTH"
    assert table.lookup("ENG") is None and table.lookup("LON") is None
    assert table.name(0x553A) is None
    assert table.number("MTO") == 0x4323  # language tokens stay
    assert table != STANDARD


def test_empty_representation_is_the_standard_table() -> None:
    assert TokenTable.from_representation([]) is STANDARD
    assert TokenTable(STANDARD_ENTRIES) == STANDARD


@pytest.mark.parametrize(
    "entries",
    [
        [(0x4300, "ABC")],  # not a power or province category
        [(0x4100, "AB")],  # name too short
        [(0x4100, "A-B")],  # not alphanumeric
        [(0x4100, "ABC"), (0x4101, "ABC")],  # same name twice
        [(0x4100, "MTO")],  # clashes with a language token
    ],
)
def test_bad_representations_are_refused(entries: list[tuple[int, str]]) -> None:
    with pytest.raises(EncodeError):
        TokenTable(entries)


def test_a_maps_province_takes_the_name_of_a_press_token_parlance_lacks() -> None:
    """``sailho`` has a province NAR; NAR and CCL (the later press syntax) yield to the map."""
    from protocol.tokens import CCL, NAR, TokenTable

    table = TokenTable([(0x4100, "AAA"), (0x5211, "NAR"), (0x5212, "CCL")])
    assert table.number("NAR") == 0x5211 and table.number("CCL") == 0x5212
    assert table.name(NAR) is None and table.name(CCL) is None
    assert TokenTable([(0x4100, "AAA")]).name(NAR) == "NAR"
    with pytest.raises(EncodeError, match="defined twice"):
        TokenTable([(0x4100, "AAA"), (0x5211, "PCE")])  # a press token Parlance knows
