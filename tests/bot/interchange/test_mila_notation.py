"""DAIDE's orders and MILA's strings both ways, a row per case; what is not an order is refused."""

from __future__ import annotations

import pytest

from bot.interchange.exchange_errors import NotAMilaGameError
from bot.interchange.mila_notation import (
    convoy_path,
    daide_order,
    daide_results,
    mila_order,
    mila_phase,
    turn_of_phase,
)
from protocol.notation import parse_order, parse_unit
from protocol.values import Season, Turn, Unit

# (DAIDE order as ORD writes it, the season it is given in, MILA's string)
ORDERS = [
    ("( FRA AMY PAR ) HLD", Season.SPRING, "A PAR H"),
    ("( FRA AMY PAR ) MTO BUR", Season.SPRING, "A PAR - BUR"),
    ("( ENG FLT LON ) MTO ECH", Season.SPRING, "F LON - ENG"),
    ("( RUS FLT ( STP SCS ) ) MTO GOB", Season.SPRING, "F STP/SC - BOT"),
    ("( FRA FLT MAO ) MTO ( SPA NCS )", Season.FALL, "F MAO - SPA/NC"),
    ("( TUR FLT CON ) MTO ( BUL ECS )", Season.FALL, "F CON - BUL/EC"),
    ("( FRA FLT MAR ) MTO GOL", Season.SPRING, "F MAR - LYO"),
    ("( FRA AMY MAR ) SUP ( FRA AMY PAR ) MTO BUR", Season.SPRING, "A MAR S A PAR - BUR"),
    ("( RUS FLT BLA ) SUP ( AUS AMY SER ) MTO BUL", Season.FALL, "F BLA S A SER - BUL"),
    ("( FRA FLT MAO ) SUP ( FRA FLT ( SPA SCS ) )", Season.FALL, "F MAO S F SPA/SC"),
    ("( FRA FLT MAO ) SUP ( ENG FLT ECH ) MTO BRE", Season.FALL, "F MAO S F ENG - BRE"),
    ("( ENG FLT NTH ) CVY ( ENG AMY YOR ) CTO NWY", Season.FALL, "F NTH C A YOR - NWY"),
    ("( ENG AMY YOR ) CTO NWY VIA ( NTH )", Season.FALL, "A YOR - NWY VIA"),
    ("( TUR AMY BUL ) RTO GRE", Season.AUTUMN, "A BUL R GRE"),
    ("( RUS FLT SEV ) RTO ( STP NCS )", Season.SUMMER, "F SEV R STP/NC"),
    ("( TUR AMY BUL ) DSB", Season.AUTUMN, "A BUL D"),
    ("( ENG FLT LON ) BLD", Season.WINTER, "F LON B"),
    ("( RUS FLT ( STP NCS ) ) BLD", Season.WINTER, "F STP/NC B"),
    ("( RUS FLT GOB ) REM", Season.WINTER, "F BOT D"),
    ("FRA WVE", Season.WINTER, "WAIVE"),
]  # fmt: skip

BOARD = {
    u.province: u
    for u in (
        parse_unit(text)
        for text in (
            "( FRA AMY PAR )", "( FRA FLT ( SPA SCS ) )", "( ENG FLT ECH )", "( ENG AMY YOR )",
            "( AUS AMY SER )", "( ENG FLT NTH )", "( FRA FLT MAO )",
        )
    )
}  # fmt: skip
"""The units the orders above support or convoy, where they stand."""


@pytest.mark.parametrize(("daide", "season", "mila"), ORDERS, ids=[o[2] for o in ORDERS])
def test_an_order_in_both_notations(daide: str, season: Season, mila: str) -> None:
    order = parse_order(daide)
    assert mila_order(order) == mila
    power = "FRA" if mila == "WAIVE" else daide.split()[1]
    convoys = {("YOR", "NWY"): ("NTH",)}
    assert daide_order(mila, power, season, BOARD, convoys) == order


def test_a_supported_fleet_without_its_coast_takes_the_coast_it_stands_on() -> None:
    order = daide_order("F MAO S F SPA", "FRA", Season.FALL, BOARD)
    assert order == parse_order("( FRA FLT MAO ) SUP ( FRA FLT ( SPA SCS ) )")


def test_a_move_to_where_the_army_cannot_walk_is_a_convoy() -> None:
    """MILA accepts ``A LON - BEL`` without VIA for a convoy; the path comes from the fleets."""
    order = daide_order("A LON - BEL", "ENG", Season.SPRING, {}, {("LON", "BEL"): ("NTH",)})
    assert order == parse_order("( ENG AMY LON ) CTO BEL VIA ( NTH )")


@pytest.mark.parametrize(
    ("origin", "destination", "fleets", "path"),
    [
        ("YOR", "NWY", ["NTH"], ("NTH",)),
        ("LON", "TUN", ["WES", "ECH", "MAO"], ("ECH", "MAO", "WES")),
        ("SYR", "ROM", ["TYS", "ION", "EAS"], ("EAS", "ION", "TYS")),
        ("SYR", "NAP", ["TYS", "ION", "EAS"], ("EAS", "ION")),
        ("YOR", "NWY", [], ()),
        ("YOR", "NWY", ["MAO"], ()),
    ],
)
def test_a_convoy_path_runs_through_the_convoying_fleets(
    origin: str, destination: str, fleets: list[str], path: tuple[str, ...]
) -> None:
    assert convoy_path(origin, destination, fleets) == path


@pytest.mark.parametrize(
    ("name", "turn"),
    [
        ("S1901M", Turn(Season.SPRING, 1901)),
        ("S1902R", Turn(Season.SUMMER, 1902)),
        ("F1901M", Turn(Season.FALL, 1901)),
        ("F1910R", Turn(Season.AUTUMN, 1910)),
        ("W1901A", Turn(Season.WINTER, 1901)),
    ],
)
def test_a_phase_in_both_notations(name: str, turn: Turn) -> None:
    assert turn_of_phase(name) == turn
    assert mila_phase(turn) == name


@pytest.mark.parametrize(
    "name", ["", "S1901", "X1901M", "S19x1M", "W1901M", "COMPLETED", "S1901MM"]
)
def test_what_is_not_a_phase_is_refused(name: str) -> None:
    with pytest.raises(NotAMilaGameError, match="is not a phase"):
        turn_of_phase(name)


@pytest.mark.parametrize(
    "text",
    [
        "", "A", "A PAR", "X PAR H", "A XYZ H", "A PAR - XYZ", "F STP/QC - BOT", "A PAR Q",
        "A PAR - BUR BUR", "A PAR S A XYZ", "A PAR S A PIC", "A PAR S A MAR - ",
        "A PAR B B", "WAIVE NOW", "F NTH C A YOR NWY",
    ],
)  # fmt: skip
def test_what_is_not_an_order_is_refused(text: str) -> None:
    with pytest.raises(NotAMilaGameError):
        daide_order(text, "FRA", Season.SPRING, BOARD)


def test_an_order_for_a_unit_of_another_kind_than_the_board_keeps_its_own() -> None:
    supported = daide_order("A MAR S F PAR", "FRA", Season.SPRING, BOARD)
    assert supported == parse_order("( FRA AMY MAR ) SUP ( FRA FLT PAR )")


@pytest.mark.parametrize(
    ("words", "tokens"),
    [
        ([], ("SUC",)),
        ([""], ("SUC",)),
        (["bounce"], ("BNC",)),
        (["cut"], ("CUT",)),
        (["void"], ("NSO",)),
        (["no convoy"], ("NSO",)),
        (["disrupted"], ("DSR",)),
        (["dislodged"], ("RET",)),
        (["cut", "dislodged"], ("CUT", "RET")),
        (["bounce", "dislodged"], ("BNC", "RET")),
        (["disband"], ("SUC",)),
    ],
)
def test_milas_results_as_daides(words: list[str], tokens: tuple[str, ...]) -> None:
    assert daide_results(words) == tokens


def test_the_unit_of_an_order_keeps_its_power() -> None:
    order = daide_order("F NTH C A YOR - NWY", "ENG", Season.FALL, BOARD)
    assert order.unit == Unit("ENG", order.unit.kind, order.unit.location)  # type: ignore[union-attr]
