"""Maps (the built-in standard one and one built from a variant's MDF) and cheap positions."""

from __future__ import annotations

import pytest

from adjudicator.daide import adjudicate_phase
from adjudicator.maps import ARMY, COASTAL, FLEET, INLAND, SEA, GameMap, standard_map
from adjudicator.position import SPRING, Position, initial_position
from adjudicator.rule_errors import MapError, PositionError
from protocol.messages import Mdf, parse_text
from protocol.tokens import TokenTable
from protocol.values import (
    Location,
    MapDefinition,
    Move,
    Season,
    SupportMove,
    Turn,
    Unit,
    UnitPosition,
    UnitType,
)

M = standard_map()


def test_standard_map_tables() -> None:
    assert (M.num_powers, M.num_provinces, len(M.supply_centres)) == (7, 75, 34)
    assert M.win_centres == 18
    assert [len(M.homes[p]) for p in range(7)] == [3, 3, 3, 3, 3, 4, 3]  # RUS has four
    coasts = {
        M.provinces[M.loc_province[loc]]: [] for loc in range(M.num_provinces, M.num_locations)
    }
    for loc in range(M.num_provinces, M.num_locations):
        coasts[M.provinces[M.loc_province[loc]]].append(M.loc_coast[loc])
    assert {p: sorted(c) for p, c in coasts.items()} == {
        "BUL": ["ECS", "SCS"], "SPA": ["NCS", "SCS"], "STP": ["NCS", "SCS"],
    }  # fmt: skip
    kinds = [M.kind[p] for p in range(M.num_provinces)]
    assert (kinds.count(INLAND), kinds.count(COASTAL), kinds.count(SEA)) == (14, 42, 19)


def test_standard_adjacencies_are_symmetric() -> None:
    for p in range(M.num_provinces):
        for q in M.army_adjacent[p]:
            assert p in M.army_adjacent[q], (M.provinces[p], M.provinces[q])
    for loc in range(M.num_locations):
        for dest in M.fleet_adjacent[loc]:
            assert loc in M.fleet_adjacent[dest], (M.location_name(loc), M.location_name(dest))


@pytest.mark.parametrize(
    ("unit_type", "where", "expected"),
    [
        (ARMY, ("MUN", None), {"BER", "BOH", "BUR", "KIE", "RUH", "SIL", "TYR"}),
        (FLEET, ("STP", "SCS"), {("GOB", None), ("FIN", None), ("LVN", None)}),
        (FLEET, ("SPA", "NCS"), {("GAS", None), ("MAO", None), ("POR", None)}),
        (FLEET, ("MAO", None), {("BRE", None), ("ECH", None), ("GAS", None), ("IRI", None),
                                ("NAF", None), ("NAO", None), ("POR", None), ("SPA", "NCS"),
                                ("SPA", "SCS"), ("WES", None)}),
    ],
)  # fmt: skip
def test_standard_moves(unit_type: int, where: tuple[str, str | None], expected: set) -> None:
    loc = M.location(*where)
    found = M.adjacent(unit_type, loc)
    if unit_type == ARMY:
        assert {M.provinces[p] for p in found} == expected
    else:
        assert {(M.location_name(d).province, M.location_name(d).coast) for d in found} == expected


def test_distances_for_civil_disorder() -> None:
    d = M.distance
    p = M.province_index
    assert d[p["LON"]][p["LON"]] == 0
    assert d[p["SYR"]][p["NAP"]] == 3  # across the sea (Ionian, Eastern Mediterranean)
    assert d[p["UKR"]][p["VEN"]] == 4


# --- a variant: five provinces, two powers, new tokens from an RM ----------------------------

VARIANT_TABLE = TokenTable([
    (0x4100, "ONE"), (0x4101, "TWO"),
    (0x5500, "AAA"), (0x5501, "BBB"), (0x5502, "CCC"), (0x5503, "DDD"), (0x5200, "SEA"),
])  # fmt: skip
VARIANT_MDF = (
    "MDF ( ONE TWO ) ( ( ( ONE AAA ) ( TWO DDD ) ( UNO BBB ) ) ( CCC SEA ) ) ( "
    "( AAA ( AMY BBB CCC ) ( FLT BBB SEA ) ) "
    "( BBB ( AMY AAA CCC DDD ) ( FLT AAA DDD SEA ) ) "
    "( CCC ( AMY AAA BBB DDD ) ) "
    "( DDD ( AMY BBB CCC ) ( FLT BBB SEA ) ) "
    "( SEA ( FLT AAA BBB DDD ) ) )"
)


def variant_map() -> GameMap:
    message = parse_text(VARIANT_MDF, VARIANT_TABLE)
    assert isinstance(message, Mdf) and message.definition is not None
    return GameMap.from_definition(message.definition, "five")


def test_a_variant_map_from_its_mdf() -> None:
    m = variant_map()
    assert m.powers == ("ONE", "TWO") and m.num_provinces == 5
    assert [m.provinces[p] for p in m.supply_centres] == ["AAA", "BBB", "DDD"]
    assert m.win_centres == 2
    assert m.kind[m.province_index["CCC"]] == INLAND
    assert m.kind[m.province_index["SEA"]] == SEA
    assert m.homes[m.power_index["ONE"]] == frozenset({m.province_index["AAA"]})


def _unit(power: str, kind: UnitType, province: str) -> Unit:
    return Unit(power, kind, Location(province))


def test_adjudicating_on_a_variant_map() -> None:
    m = variant_map()
    one_a = _unit("ONE", UnitType.ARMY, "AAA")
    one_f = _unit("ONE", UnitType.FLEET, "SEA")
    two_a = _unit("TWO", UnitType.ARMY, "DDD")
    pos = Position.from_values(
        m,
        Turn(Season.FALL, 2000),
        [UnitPosition(one_a), UnitPosition(one_f), UnitPosition(two_a)],
        [("ONE", ("AAA",)), ("TWO", ("DDD",)), ("UNO", ("BBB",))],
    )
    outcome = adjudicate_phase(
        pos,
        [
            Move(one_a, Location("BBB")),
            SupportMove(one_f, one_a, "BBB"),
            Move(two_a, Location("BBB")),
        ],
    )
    assert [r.result for r in outcome.results] == [("SUC",), ("SUC",), ("BNC",)]
    assert dict(outcome.centres)["ONE"] == ("AAA", "BBB")
    # Two of the three centres win on this map: ONE has just grown to two, so the game
    # ends in this winter (no adjustment is due, yet the last NOW is WIN 2000).
    assert outcome.winner == "ONE"
    assert outcome.turn == Turn(Season.WINTER, 2000)
    assert outcome.position.adjustments() == [0, 0]


@pytest.mark.parametrize(
    ("mdf", "message"),
    [
        (VARIANT_MDF.replace("( FLT BBB SEA ) ) ( BBB", "( FLT BBB SEA DDD ) ) ( BBB"), None),
        ("MDF ( ONE ONE ) ( ( ( ONE AAA ) ) ( ) ) ( ( AAA ( AMY AAA ) ) )", "twice"),
        ("MDF ( ONE ) ( ( ( TWO AAA ) ) ( ) ) ( ( AAA ( AMY AAA ) ) )", "unknown power"),
        ("MDF ( ONE ) ( ( ( ONE AAA ) ) ( ) ) ( ( BBB ( AMY AAA ) ) )", "unlisted"),
        ("MDF ( ONE ) ( ( ( ONE AAA ) ) ( ) ) ( ( AAA ( AMY BBB ) ) )", "unknown province"),
        ("MDF ( ONE ) ( ( ( ONE AAA ) ) ( SEA ) ) ( ( AAA ( FLT ( SEA NCS ) ) ) ( SEA ) )",
         "unknown location"),
    ],
)  # fmt: skip
def test_inconsistent_mdfs_are_map_errors(mdf: str, message: str | None) -> None:
    parsed = parse_text(mdf, VARIANT_TABLE)
    assert isinstance(parsed, Mdf) and isinstance(parsed.definition, MapDefinition)
    if message is None:  # a one-way adjacency is tolerated (MDFs list each side)
        GameMap.from_definition(parsed.definition)
        return
    with pytest.raises(MapError, match=message):
        GameMap.from_definition(parsed.definition)


# --- positions -----------------------------------------------------------------------------


def test_copying_a_position_is_shallow_and_independent() -> None:
    pos = initial_position(M)
    copy = pos.copy()
    assert copy == pos and copy is not pos and copy.map is pos.map
    lon = M.province_index["LON"]
    assert copy.units[lon] is pos.units[lon]  # unit tuples are shared, not rebuilt
    del copy.units[lon]
    copy.owners[M.province_index["BEL"]] = 0
    copy.season = 2
    assert lon in pos.units and pos.owners[M.province_index["BEL"]] == -1 and pos.season == SPRING
    assert copy != pos and hash(pos) == hash(initial_position(M))


@pytest.mark.parametrize(
    ("units", "centres", "message"),
    [
        ([UnitPosition(_unit("ENG", UnitType.FLEET, "BUR"))], [], "cannot stand"),
        ([UnitPosition(_unit("ENG", UnitType.ARMY, "NTH"))], [], "cannot stand"),
        ([UnitPosition(Unit("ENG", UnitType.FLEET, Location("STP")))], [], "cannot stand"),
        ([UnitPosition(_unit("XXX", UnitType.ARMY, "LON"))], [], "unknown power"),
        ([], [("ENG", ("NTH",))], "not a supply centre"),
        ([], [("ENG", ("LON",)), ("FRA", ("LON",))], "twice"),
        ([UnitPosition(_unit("ENG", UnitType.ARMY, "LON"), ())], [], "retreat phase"),
    ],
)
def test_positions_that_do_not_fit_the_map(
    units: list[UnitPosition], centres: list[tuple[str, tuple[str, ...]]], message: str
) -> None:
    with pytest.raises(PositionError, match=message):
        Position.from_values(M, Turn(Season.SPRING, 1901), units, centres)
