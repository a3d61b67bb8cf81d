"""Units, locations, turns, orders, positions and centres as DAIDE text, both directions."""

from __future__ import annotations

import pytest

from protocol.daide_errors import BracketError, EncodeError, GrammarError, LanguageError, TextError
from protocol.notation import (
    format_centres,
    format_location,
    format_order,
    format_turn,
    format_unit,
    format_unit_position,
    order_tokens,
    parse_centres,
    parse_location,
    parse_order,
    parse_results,
    parse_turn,
    parse_unit,
    parse_unit_position,
    parse_unit_positions,
    unit_tokens,
)
from protocol.tokens import TokenTable
from protocol.values import (
    Build,
    Convoy,
    Disband,
    Hold,
    Location,
    Move,
    MoveByConvoy,
    Order,
    Remove,
    Retreat,
    Season,
    SupportHold,
    SupportMove,
    Turn,
    Unit,
    UnitPosition,
    UnitType,
    Waive,
)

A, F = UnitType.ARMY, UnitType.FLEET


def unit(power: str, kind: UnitType, province: str, coast: str | None = None) -> Unit:
    return Unit(power, kind, Location(province, coast))


NTH = unit("ENG", F, "NTH")
LVP = unit("ENG", A, "LVP")
STP_SC = unit("RUS", F, "STP", "SCS")
TUN = unit("ITA", A, "TUN")
ION = unit("ITA", F, "ION")

# (canonical text, order): every order form, coasts where the syntax allows them.
ORDERS: list[tuple[str, Order]] = [
    ("( ENG AMY LVP ) HLD", Hold(LVP)),
    ("( ENG FLT NTH ) MTO PIC", Move(NTH, Location("PIC"))),
    ("( ENG FLT NTH ) MTO ( STP NCS )", Move(NTH, Location("STP", "NCS"))),
    ("( RUS FLT ( STP SCS ) ) MTO GOB", Move(STP_SC, Location("GOB"))),
    ("( ENG FLT NTH ) SUP ( ENG AMY LVP )", SupportHold(NTH, LVP)),
    ("( ENG FLT NTH ) SUP ( ENG AMY LVP ) MTO YOR", SupportMove(NTH, LVP, "YOR")),
    ("( ITA FLT ION ) CVY ( ITA AMY TUN ) CTO SYR", Convoy(ION, TUN, "SYR")),
    ("( ITA AMY TUN ) CTO SYR VIA ( ION EAS )", MoveByConvoy(TUN, "SYR", ("ION", "EAS"))),
    ("( ITA AMY TUN ) CTO SYR", MoveByConvoy(TUN, "SYR", ())),  # pathless, as Parlance allows
    (
        "( ENG FLT NTH ) SUP ( ENG FLT LON ) MTO ( STP NCS )",  # a coast, as Parlance allows
        SupportMove(NTH, unit("ENG", F, "LON"), "STP", "NCS"),
    ),
    ("( ENG FLT NTH ) RTO ( SPA SCS )", Retreat(NTH, Location("SPA", "SCS"))),
    ("( ENG FLT NTH ) RTO YOR", Retreat(NTH, Location("YOR"))),
    ("( ENG FLT NTH ) DSB", Disband(NTH)),
    ("( RUS FLT ( STP SCS ) ) BLD", Build(STP_SC)),
    ("( ENG AMY LVP ) REM", Remove(LVP)),
    ("ENG WVE", Waive("ENG")),
]


@pytest.mark.parametrize(("text", "order"), ORDERS)
def test_order_text_both_ways(text: str, order: Order) -> None:
    assert parse_order(text) == order
    assert format_order(order) == text


@pytest.mark.parametrize(
    ("text", "order"),
    [
        ("(ENG FLT NTH) MTO PIC", Move(NTH, Location("PIC"))),  # as the DATC table writes them
        ("((ENG FLT NTH) MTO PIC)", Move(NTH, Location("PIC"))),  # as SUB brackets them
        ("(ENG WVE)", Waive("ENG")),
        ("eng wve", Waive("ENG")),
        ("(ITA AMY TUN) CTO SYR VIA (ION EAS)", MoveByConvoy(TUN, "SYR", ("ION", "EAS"))),
    ],
)
def test_order_text_liberal_input(text: str, order: Order) -> None:
    assert parse_order(text) == order


@pytest.mark.parametrize(
    ("text", "index", "error"),
    [
        ("(ENG FLT NTH) MTO", 6, GrammarError),  # missing destination
        ("(ENG FLT NTH) XDO PIC", 5, GrammarError),  # not an order type
        ("(ENG FLT NTH) MTO PIC HLD", 7, GrammarError),  # trailing token
        ("(ENG FLT NTH) SUP (ENG AMY LVP) MTO (YOR)", 14, GrammarError),  # coast missing
        ("(ENG FLT NTH) CVY (ENG AMY LVP) MTO YOR", 11, GrammarError),  # CTO expected
        ("(ITA AMY TUN) CTO SYR VIA ()", 9, GrammarError),  # empty convoy path
        ("(ITA AMY TUN) CTO SYR ION", 7, GrammarError),  # VIA missing before the path
        ("(ENG NTH FLT) HLD", 2, GrammarError),  # unit type expected
        ("(ENG FLT NTH HLD", 0, BracketError),
        ("ENG FLT NTH) HLD", 3, BracketError),
        ("ENG HLD", 1, GrammarError),
        ("(ENG FLT NTH) MTO 0x5A01", 6, LanguageError),
        ("", 0, GrammarError),
    ],
)
def test_order_errors_name_the_token(text: str, index: int, error: type[Exception]) -> None:
    with pytest.raises(error) as info:
        parse_order(text)
    assert isinstance(info.value, LanguageError)
    assert info.value.index == index


@pytest.mark.parametrize(
    ("text", "value", "canonical"),
    [
        ("ENG FLT NTH", NTH, "ENG FLT NTH"),
        ("(ENG FLT NTH)", NTH, "ENG FLT NTH"),
        ("RUS FLT (STP SCS)", STP_SC, "RUS FLT ( STP SCS )"),
        ("( rus flt ( stp scs ) )", STP_SC, "RUS FLT ( STP SCS )"),
    ],
)
def test_unit_text_both_ways(text: str, value: Unit, canonical: str) -> None:
    assert parse_unit(text) == value
    assert format_unit(value) == canonical


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("ENG FLT NTH", UnitPosition(NTH)),
        ("ENG FLT NTH MRT ( LON YOR )", UnitPosition(NTH, (Location("LON"), Location("YOR")))),
        ("ENG FLT NTH MRT ( )", UnitPosition(NTH, ())),
        (
            "TUR FLT CON MRT ( BLA SMY ( BUL ECS ) ( BUL SCS ) )",
            UnitPosition(
                unit("TUR", F, "CON"),
                (Location("BLA"), Location("SMY"), Location("BUL", "ECS"), Location("BUL", "SCS")),
            ),
        ),
    ],
)
def test_unit_position_text_both_ways(text: str, value: UnitPosition) -> None:
    assert parse_unit_position(text) == value
    assert parse_unit_position(f"({text})") == value
    assert format_unit_position(value) == text
    assert value.dislodged == ("MRT" in text)


@pytest.mark.parametrize(
    ("text", "value"),
    [("SPR 1901", Turn(Season.SPRING, 1901)), ("WIN 1999", Turn(Season.WINTER, 1999))],
)
def test_turn_text_both_ways(text: str, value: Turn) -> None:
    assert parse_turn(text) == value
    assert parse_turn(f"( {text.lower()} )") == value
    assert format_turn(value) == text


@pytest.mark.parametrize("text", ["SPR", "1901", "SPR 1901 FAL", "MTO 1901", "(SPR 1901"])
def test_bad_turns(text: str) -> None:
    with pytest.raises(LanguageError):
        parse_turn(text)


def test_locations() -> None:
    assert parse_location("STP") == Location("STP")
    assert parse_location("(STP NCS)") == Location("STP", "NCS")
    assert format_location(Location("STP", "NCS")) == "( STP NCS )"
    with pytest.raises(GrammarError):
        parse_location("(STP)")


def test_centres_both_ways() -> None:
    text = "( AUS BUD TRI VIE ) ( ENG ) ( UNO BEL HOL )"
    centres = (("AUS", ("BUD", "TRI", "VIE")), ("ENG", ()), ("UNO", ("BEL", "HOL")))
    assert parse_centres(text) == centres
    assert format_centres(centres) == text
    with pytest.raises(GrammarError):
        parse_centres("( AUS BUD ) ( MTO )")


def test_unit_positions_of_a_now_body() -> None:
    assert parse_unit_positions("(ENG FLT NTH) (RUS FLT (STP SCS)) (ENG AMY LVP MRT (WAL))") == (
        UnitPosition(NTH),
        UnitPosition(STP_SC),
        UnitPosition(LVP, (Location("WAL"),)),
    )


@pytest.mark.parametrize(
    ("text", "results"),
    [("SUC", ("SUC",)), ("BNC RET", ("BNC", "RET")), ("(CUT RET)", ("CUT", "RET"))],
)
def test_results(text: str, results: tuple[str, ...]) -> None:
    assert parse_results(text) == results


def test_results_must_be_result_tokens() -> None:
    with pytest.raises(GrammarError):
        parse_results("MBV")


def test_tokens_of_values() -> None:
    assert unit_tokens(NTH) == (0x4000, 0x4101, 0x4201, 0x521C, 0x4001)
    assert order_tokens(Waive("ENG")) == (0x4101, 0x4382)


def test_unknown_names_are_encode_errors() -> None:
    with pytest.raises(EncodeError):
        format_order(Move(NTH, Location("XYZ")))
    with pytest.raises(EncodeError):
        format_unit(unit("ENG", F, "NTH", "ZZZ"))


def test_variant_names_need_the_variant_table() -> None:
    table = TokenTable([(0x4100, "NTH"), (0x5200, "SEA"), (0x5401, "LND")])
    move = parse_order("(NTH FLT SEA) MTO LND", table)
    assert move == Move(unit("NTH", F, "SEA"), Location("LND"))
    assert format_order(move, table) == "( NTH FLT SEA ) MTO LND"
    with pytest.raises(TextError):
        parse_order("(NTH FLT SEA) MTO LND")
    with pytest.raises(EncodeError):
        format_order(move)
