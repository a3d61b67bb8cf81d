"""Press values: random arrangements round-trip, levels add up, the caps hold on writing too.

Property-based: hypothesis builds random press (every form of levels 10 to 30,
and nested AND/ORR of level 50) and checks that writing and reading it back at
its level gives the same value, by tokens and by text, and that one level
lower refuses it.  The fuzzer feeds the reader random token sequences made of
press tokens, powers, provinces, brackets and noise: only the protocol's
typed errors may come out, anything accepted writes back to the same tokens,
and the answer to it is sendable.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from protocol.daide_errors import EncodeError, LanguageError, PressLevelError
from protocol.expression import check_brackets, flatten, fold
from protocol.messages import Frm
from protocol.press import (
    MAX_ARRANGEMENTS,
    MAX_PARTS,
    MAX_PRESS_DEPTH,
    Accept,
    Alliance,
    AllOf,
    AnyOf,
    Arrangement,
    Cancel,
    Decline,
    Demilitarise,
    DoOrder,
    Draw,
    Fact,
    Negation,
    NoArrangement,
    Peace,
    Press,
    PressMessage,
    Proposal,
    Puzzled,
    Reject,
    Solo,
    Try,
    check_level,
    press_level,
    press_snd,
)
from protocol.press_reader import parse_press, parse_press_text, press_answer
from protocol.tokens import ERR, STANDARD, TokenTable
from protocol.values import Hold, Location, Move, SupportHold, SupportMove, Unit, UnitType, Waive
from protocol.wire import encode_message

T = STANDARD
PROPERTY = settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)

powers = st.sampled_from(T.powers)
provinces = st.sampled_from(T.provinces)
power_lists = st.lists(powers, min_size=1, max_size=4).map(tuple)

units = st.builds(Unit, powers, st.sampled_from(UnitType), st.builds(Location, provinces))
orders = st.one_of(
    st.builds(Hold, units),
    st.builds(Move, units, st.builds(Location, provinces)),
    st.builds(SupportHold, units, units),
    st.builds(SupportMove, units, units, provinces),
    st.builds(Waive, powers),
)

simple_arrangements: st.SearchStrategy[Arrangement] = st.one_of(
    st.builds(Peace, power_lists),
    st.builds(Alliance, power_lists, power_lists),
    st.builds(Draw, st.none() | st.lists(powers, min_size=2, max_size=4).map(tuple)),
    st.builds(Solo, powers),
    st.builds(DoOrder, orders),
    st.builds(Demilitarise, power_lists, st.lists(provinces, min_size=1, max_size=4).map(tuple)),
)


def _wrapped(inner: st.SearchStrategy[Arrangement]) -> st.SearchStrategy[Arrangement]:
    parts = st.lists(inner, min_size=2, max_size=4).map(tuple)
    return st.one_of(
        st.builds(Negation, inner),
        st.builds(NoArrangement, inner),
        st.builds(AllOf, parts),
        st.builds(AnyOf, parts),
    )


arrangements = st.recursive(simple_arrangements, _wrapped, max_leaves=12)
"""Any arrangement, AND/ORR nested as level 50 allows."""

press_messages: st.SearchStrategy[PressMessage] = st.one_of(
    st.builds(Proposal, arrangements),
    st.builds(Fact, arrangements),
    st.builds(
        Try, st.lists(st.sampled_from(["PRP", "PCE", "XDO", "AND", "CCL"]), max_size=5).map(tuple)
    ),
)
press: st.SearchStrategy[Press] = st.one_of(
    press_messages,
    st.builds(Cancel, press_messages),
    st.builds(Cancel, st.builds(Accept, press_messages)),
    st.builds(Accept, press_messages),
    st.builds(Reject, press_messages),
    st.builds(Decline, press_messages),
)


@PROPERTY
@given(press)
def test_random_press_round_trips_at_its_level(value: Press) -> None:
    level = press_level(value)
    tokens = value.to_tokens(T)
    assert parse_press(tokens, level, T) == value
    assert parse_press_text(value.to_text(T), level, T) == value
    check_level(value, level)
    lower = {10: 0, 20: 10, 30: 20, 50: 30}[level]
    with pytest.raises(PressLevelError) as caught:
        parse_press(tokens, lower, T)
    assert caught.value.needed > lower
    with pytest.raises(EncodeError):
        check_level(value, lower)


@PROPERTY
@given(press)
def test_random_press_is_sent_and_understood(value: Press) -> None:
    snd = press_snd(("FRA", "GER"), value, T)
    assert encode_message(snd, T)
    frm = Frm("ENG", snd.recipients, snd.press)
    assert press_answer(frm, press_level(value), T) == ()


# --- levels -------------------------------------------------------------------------------

PCE = Peace(("ENG", "FRA"))
XDO = DoOrder(Hold(Unit("ENG", UnitType.FLEET, Location("NTH"))))


@pytest.mark.parametrize(
    ("value", "level"),
    [
        (Proposal(PCE), 10),
        (Accept(Proposal(Negation(NoArrangement(Draw(("ENG", "FRA")))))), 10),
        (Puzzled((ERR,)), 10),
        (Try(), 10),
        (Proposal(XDO), 20),
        (Fact(Negation(Demilitarise(("ENG",), ("NTH",)))), 20),
        (Proposal(AllOf((PCE, PCE))), 30),
        (Fact(AnyOf((PCE, XDO))), 30),
        (Proposal(Negation(AnyOf((PCE, XDO)))), 50),
        (Proposal(AllOf((PCE, AnyOf((PCE, PCE))))), 50),
        (Cancel(Accept(Proposal(AllOf((PCE, Negation(AllOf((PCE, PCE)))))))), 50),
    ],
)
def test_press_level(value: Press, level: int) -> None:
    assert press_level(value) == level


def test_puzzled_keeps_its_quote() -> None:
    value = parse_press_text("HUH ( PRP ( ERR SCD ( ENG NWY ) ) )", 10, T)
    assert isinstance(value, Puzzled) and value.error_index == 2
    assert Puzzled(flatten(())).error_index is None


# --- writing: names on the map, the caps ---------------------------------------------------


def test_names_not_on_the_map_cannot_be_written() -> None:
    variant = TokenTable([(0x4100, "AAA"), (0x5000, "ONE")])
    assert Proposal(Peace(("AAA",))).to_text(variant) == "PRP ( PCE ( AAA ) )"
    with pytest.raises(EncodeError):
        Proposal(Peace(("ENG",))).to_tokens(variant)
    with pytest.raises(EncodeError):
        Proposal(Demilitarise(("AAA",), ("LON",))).to_tokens(variant)


@pytest.mark.parametrize(
    "value",
    [
        Proposal(Peace(())),
        Proposal(Alliance(("ENG",), ())),
        Proposal(Draw(("ENG",))),
        Proposal(Demilitarise(("ENG",), ())),
        Proposal(AllOf((PCE,))),
        Proposal(AnyOf(())),
        Try(("ENG",)),
    ],
)
def test_writing_refuses_what_the_syntax_does_not_allow(value: Press) -> None:
    with pytest.raises(EncodeError):
        value.to_tokens(T)


def _nested(depth: int) -> Arrangement:
    value: Arrangement = Draw()
    for _ in range(depth):  # built by a loop: no recursion however deep
        value = Negation(value)
    return value


def test_writing_refuses_what_reading_would() -> None:
    Proposal(_nested(MAX_PRESS_DEPTH - 2)).to_tokens(T)
    for value in (
        Proposal(_nested(MAX_PRESS_DEPTH - 1)),
        Proposal(_nested(100_000)),
        Proposal(AllOf((PCE,) * (MAX_PARTS + 1))),
        Proposal(AllOf((Negation(Negation(Negation(PCE))),) * (MAX_ARRANGEMENTS // 4))),
    ):
        with pytest.raises(EncodeError):
            value.to_tokens(T)
    assert press_level(Proposal(_nested(100_000))) == 10  # measured without recursion


# --- fuzzing the reader ---------------------------------------------------------------------

VOCABULARY = sorted(
    {
        T.number(name)
        for name in (
            "PRP",
            "YES",
            "REJ",
            "BWX",
            "HUH",
            "CCL",
            "FCT",
            "TRY",
            "PCE",
            "ALY",
            "VSS",
            "DRW",
            "SLO",
            "NOT",
            "NAR",
        )
    }
    | {T.number(name) for name in ("XDO", "DMZ", "AND", "ORR", "SCD", "OCC", "CHO", "INS", "ERR")}
    | {
        T.number(name)
        for name in ("AMY", "FLT", "HLD", "MTO", "SUP", "CVY", "CTO", "VIA", "WVE", "NCS", "SCS")
    }
    | {T.number(name) for name in ("ENG", "FRA", "GER", "LON", "NTH", "PAR", "STP", "BUR")}
)
"""What press is made of (brackets aside)."""

tokens_ = st.one_of(
    st.sampled_from([0x4000, 0x4001]),
    st.sampled_from(VOCABULARY),
    st.integers(0, 0x3FFF),
    st.integers(0x4B00, 0x4BFF),
    st.integers(0, 0xFFFF),
)


@st.composite
def mutated_press(draw: st.DrawFn) -> tuple[int, ...]:
    """Real press with a few tokens deleted, inserted or replaced."""
    tokens = list(draw(press).to_tokens(T))
    for _ in range(draw(st.integers(1, 4))):
        where = draw(st.integers(0, max(0, len(tokens) - 1)))
        action = draw(st.sampled_from(["delete", "insert", "replace", "drop a name"]))
        names = [i for i, number in enumerate(tokens) if 0x41 <= number >> 8 <= 0x57]
        if action == "insert" or not tokens:
            tokens.insert(where, draw(tokens_))
        elif action == "drop a name" and names:  # a list one name short: (ENG) for a draw
            del tokens[draw(st.sampled_from(names))]
        elif action == "delete":
            del tokens[where]
        else:
            tokens[where] = draw(tokens_)
    return tuple(tokens)


def _grouped(parts: list[tuple[int, ...]]) -> tuple[int, ...]:
    return (0x4000, *(number for part in parts for number in part), 0x4001)


groups = st.recursive(
    st.sampled_from(VOCABULARY).map(lambda number: (number,)),
    lambda inner: st.lists(inner, max_size=4).map(_grouped),
    max_leaves=16,
)
"""Balanced brackets around press words: shapes like ``DRW ( ENG )`` in any arrangement."""
structured = st.lists(groups, min_size=1, max_size=4).map(
    lambda parts: tuple(number for part in parts for number in part)
)

fuzz = st.one_of(st.lists(tokens_, max_size=80).map(tuple), mutated_press(), structured)


@settings(PROPERTY, max_examples=600)
@given(fuzz, st.sampled_from([10, 20, 30, 50, 200]))  # level 0 refuses all at once
def test_the_reader_raises_only_typed_errors(tokens: tuple[int, ...], level: int) -> None:
    try:
        value = parse_press(tokens, level, T)
    except LanguageError as error:
        assert error.index is None or 0 <= error.index <= len(tokens)
    else:
        assert value.to_tokens(T) == tokens  # what is accepted is canonical
        assert press_level(value) <= level


def _balanced(tokens: tuple[int, ...]) -> bool:
    try:
        check_brackets(tokens)
    except LanguageError:
        return False
    return True


@settings(PROPERTY, max_examples=300)
@given(fuzz.filter(_balanced), st.sampled_from([0, 10, 30]))
def test_any_press_gets_a_sendable_answer_or_none(tokens: tuple[int, ...], level: int) -> None:
    """An FRM carries balanced press (its brackets are checked first): its answer can be sent."""
    frm = Frm("ENG", ("FRA",), fold(tokens, T))
    replies = press_answer(frm, level, T)
    if tokens[:1] in ((T.number("HUH"),), (T.number("TRY"),)):
        assert replies == ()
    for reply in replies:
        assert encode_message(reply, T)
