"""A map definition is checked completely before any table is built: a table of mutations.

Each row changes the standard map's definition in one way and says what
:meth:`GameMap.from_definition` must do: raise :class:`MapError` with a message
naming the culprit, or build a map (one-sided adjacencies are legal and are
read as directed).  The last tests play a phase on the map from the field
(ANK's army list dropped) to show the directed reading in the rules.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable

import pytest

from adjudicator.daide import adjudicate_phase
from adjudicator.legal import movement_orders
from adjudicator.maps import COASTAL, GameMap, standard_map
from adjudicator.orders import HOLD_ORDER
from adjudicator.position import Position
from adjudicator.rule_errors import MapError
from adjudicator.standard import standard_definition
from protocol.values import (
    Adjacency,
    Location,
    MapDefinition,
    Move,
    ProvinceAdjacencies,
    Season,
    SupportMove,
    Turn,
    Unit,
    UnitPosition,
    UnitType,
)
from search.tables import tables_for

STANDARD = standard_definition()
ARMY, FLEET = UnitType.ARMY, UnitType.FLEET

Edit = Callable[[MapDefinition], MapDefinition]


def _entries(d: MapDefinition, change: Callable[[ProvinceAdjacencies], list]) -> MapDefinition:
    """``d`` with each adjacency entry replaced by what ``change`` returns (0, 1 or more)."""
    out: list[ProvinceAdjacencies] = []
    for entry in d.adjacencies:
        out += change(entry)
    return dataclasses.replace(d, adjacencies=tuple(out))


def _lists(province: str, change: Callable[[Adjacency], list]) -> Edit:
    """Replace each unit list of ``province`` by what ``change`` returns."""

    def edit(d: MapDefinition) -> MapDefinition:
        def entry(e: ProvinceAdjacencies) -> list:
            if e.province != province:
                return [e]
            lists = [x for adj in e.entries for x in change(adj)]
            return [dataclasses.replace(e, entries=tuple(lists))]

        return _entries(d, entry)

    return edit


def drop_list(province: str, kind: UnitType, coast: str | None = None) -> Edit:
    return _lists(province, lambda a: [] if (a.kind, a.coast) == (kind, coast) else [a])


def add_move(province: str, kind: UnitType, dest: Location, coast: str | None = None) -> Edit:
    def change(a: Adjacency) -> list:
        if (a.kind, a.coast) != (kind, coast):
            return [a]
        return [dataclasses.replace(a, destinations=(*a.destinations, dest))]

    return _lists(province, change)


def drop_move(province: str, kind: UnitType, dest: str) -> Edit:
    def change(a: Adjacency) -> list:
        if a.kind is not kind:
            return [a]
        kept = tuple(d for d in a.destinations if d.province != dest)
        return [dataclasses.replace(a, destinations=kept)]

    return _lists(province, change)


def empty_list(province: str, kind: UnitType) -> Edit:
    return _lists(
        province, lambda a: [dataclasses.replace(a, destinations=())] if a.kind is kind else [a]
    )


def repeat_list(province: str, kind: UnitType) -> Edit:
    return _lists(province, lambda a: [a, a] if a.kind is kind and a.coast is None else [a])


def drop_entry(province: str) -> Edit:
    return lambda d: _entries(d, lambda e: [] if e.province == province else [e])


def repeat_entry(province: str) -> Edit:
    return lambda d: _entries(d, lambda e: [e, e] if e.province == province else [e])


def rename_entry(province: str, name: str) -> Edit:
    return lambda d: _entries(
        d, lambda e: [dataclasses.replace(e, province=name)] if e.province == province else [e]
    )


def unlist(province: str) -> Edit:
    """Take ``province`` out of the province lists (its adjacencies stay)."""

    def edit(d: MapDefinition) -> MapDefinition:
        centres = tuple((o, tuple(p for p in ps if p != province)) for o, ps in d.supply_centres)
        others = tuple(p for p in d.non_supply_centres if p != province)
        return dataclasses.replace(d, supply_centres=centres, non_supply_centres=others)

    return edit


def fields(**changes: object) -> Edit:
    return lambda d: dataclasses.replace(d, **changes)


def centres(change: Callable[[tuple], tuple]) -> Edit:
    return lambda d: dataclasses.replace(d, supply_centres=change(d.supply_centres))


def both(*edits: Edit) -> Edit:
    def edit(d: MapDefinition) -> MapDefinition:
        for one in edits:
            d = one(d)
        return d

    return edit


def _add_fleet_list(province: str, coast: str | None, *dests: Location) -> Edit:
    def edit(d: MapDefinition) -> MapDefinition:
        def entry(e: ProvinceAdjacencies) -> list:
            if e.province != province:
                return [e]
            return [dataclasses.replace(e, entries=(*e.entries, Adjacency(FLEET, coast, dests)))]

        return _entries(d, entry)

    return edit


CASES: list[tuple[str, Edit, str | None]] = [
    # one-sided adjacencies and empty lists: legal, read as directed
    ("the standard map", lambda d: d, None),
    ("ANK's army list dropped", drop_list("ANK", ARMY), None),
    ("ANK's fleet list dropped", drop_list("ANK", FLEET), None),
    ("ANK's whole entry dropped", drop_entry("ANK"), None),
    ("BUR dropped from PAR's army list", drop_move("PAR", ARMY, "BUR"), None),
    ("MUN's army list emptied", empty_list("MUN", ARMY), None),
    ("every adjacency dropped", fields(adjacencies=()), None),
    ("a neutral group with no centres", centres(lambda c: (*c, (("UNO",), ()))), None),
    ("a home group with no centres", centres(lambda c: (*c, (("TUR",), ()))), None),
    ("a move listed twice", add_move("PAR", ARMY, Location("BUR")), None),
    ("a one-way fleet move into an inland province", add_move("NTH", FLEET, Location("MUN")), None),
    (
        "a shared home centre",
        both(unlist("BEL"), centres(lambda c: (*c, (("FRA", "GER"), ("BEL",))))),
        None,
    ),
    # powers
    ("no powers", fields(powers=()), "lists no powers"),
    ("a power twice", fields(powers=(*STANDARD.powers, "TUR")), "power TUR twice"),
    ("UNO as a power", fields(powers=(*STANDARD.powers, "UNO")), "UNO as a power"),
    ("TUR not among the powers", fields(powers=STANDARD.powers[:3]), "unknown power TUR"),
    # supply centres and provinces
    ("no provinces", fields(supply_centres=(), non_supply_centres=()), "lists no supply centres"),
    (
        "no supply centres",
        lambda d: dataclasses.replace(
            d,
            supply_centres=(),
            non_supply_centres=(
                *d.non_supply_centres,
                *(p for _, ps in d.supply_centres for p in ps),
            ),
        ),
        "lists no supply centres",
    ),
    (
        "a power with no home centre",
        centres(lambda c: tuple((("UNO",), ps) if o == ("TUR",) else (o, ps) for o, ps in c)),
        "power TUR has no home centre",
    ),
    ("UNO sharing a group", centres(lambda c: (*c, (("UNO", "TUR"), ()))), "UNO shares"),
    ("a group with no owner", centres(lambda c: (*c, ((), ("XXX",)))), "has no owner: XXX"),
    (
        "a centre also listed as not one",
        fields(non_supply_centres=(*STANDARD.non_supply_centres, "LON")),
        "LON both",
    ),
    (
        "a province listed twice",
        fields(non_supply_centres=(*STANDARD.non_supply_centres, "ADR")),
        "province ADR twice",
    ),
    # adjacency entries and lists
    ("ANK's entry twice", repeat_entry("ANK"), "adjacencies of ANK are given twice"),
    ("an entry for an unlisted province", rename_entry("ANK", "XXX"), "unlisted province XXX"),
    ("an entry renamed to another's", rename_entry("ANK", "CON"), "CON are given twice"),
    ("ANK dropped from the province lists", unlist("ANK"), "unlisted province ANK"),
    ("TYR dropped from the province lists", unlist("TYR"), "unlisted province TYR"),
    ("two army lists", repeat_list("ANK", ARMY), "ANK has two AMY lists"),
    ("two fleet lists", repeat_list("ANK", FLEET), "ANK has two FLT lists"),
    (
        "two lists for one coast",
        _add_fleet_list("STP", "NCS", Location("BAR")),
        r"STP has two \(FLT NCS\) lists",
    ),
    (
        "fleet lists with and without a coast",
        _add_fleet_list("STP", None, Location("BAR")),
        "STP has fleet lists both with and without a coast",
    ),
    (
        "an army list for a coast",
        _lists("PAR", lambda a: [dataclasses.replace(a, coast="NCS")]),
        "PAR has an army list for coast NCS",
    ),
    # moves
    (
        "a move to a province not listed",
        add_move("PAR", ARMY, Location("XXX")),
        "unknown province XXX",
    ),
    (
        "an army move to a coast",
        add_move("FIN", ARMY, Location("STP", "NCS")),
        "army move to a coast",
    ),
    (
        "a fleet move to a split province without a coast",
        add_move("BAR", FLEET, Location("STP")),
        "fleet move to STP without one of its coasts",
    ),
    (
        "a fleet move to a coast the province lacks",
        add_move("BLA", FLEET, Location("ANK", "NCS")),
        r"unknown location \(ANK NCS\)",
    ),
    (
        "a coast's list dropped (moves still lead to it)",
        drop_list("STP", FLEET, "NCS"),
        r"BAR is adjacent to unknown location \(STP NCS\)",
    ),
]


ODD_CASES: list[tuple[str, Edit, str]] = [
    # what Parlance accepts and plays: played, and named once in the map's oddities
    ("a centre group twice", centres(lambda c: (*c, c[0])), "listed more than once"),
    (
        "a centre in two groups (a neutral one too)",
        centres(lambda c: (*c, (("UNO",), ("LON",)))),
        "listed more than once",
    ),
    (
        "a home centre of every power, group by group (hundred3)",
        centres(lambda c: (*c, *((o, ("BEL",)) for o, _ in c if o != ("UNO",)))),
        "home centres of several powers: BEL",
    ),
    ("a move to itself", add_move("PAR", ARMY, Location("PAR")), "PAR is listed as adjacent to"),
    (
        "a coast's move to its own province (modern's ICE)",
        add_move("STP", FLEET, Location("STP", "SCS"), coast="NCS"),
        r"\(STP NCS\) is listed as adjacent to itself",
    ),
]


@pytest.mark.parametrize(
    ("edit", "oddity"), [c[1:] for c in ODD_CASES], ids=[c[0] for c in ODD_CASES]
)
def test_an_odd_definition_is_played(edit: Edit, oddity: str) -> None:
    game_map = GameMap.from_definition(edit(STANDARD))
    tables_for(game_map)
    _check_every_index(game_map)
    assert any(re.search(oddity, line) for line in game_map.oddities), game_map.oddities
    for loc, dests in enumerate(game_map.army_adjacent):
        assert loc not in dests
    assert GameMap.from_definition(STANDARD).oddities == ()


def test_a_centre_listed_under_several_powers_is_home_to_each() -> None:
    edit = centres(lambda c: (*c, *((o, ("BEL",)) for o, _ in c if o != ("UNO",))))
    game_map = GameMap.from_definition(edit(STANDARD))
    bel = game_map.province_index["BEL"]
    assert sorted(game_map.powers[p] for p in game_map.home_powers[bel]) == sorted(STANDARD.powers)


@pytest.mark.parametrize(("edit", "error"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_a_mutated_definition(edit: Edit, error: str | None) -> None:
    definition = edit(STANDARD)
    if error is None:
        game_map = GameMap.from_definition(definition)
        tables_for(game_map)  # and every table the search builds from it
        _check_every_index(game_map)
        return
    with pytest.raises(MapError, match=error) as caught:
        GameMap.from_definition(definition)
    assert "\n" not in str(caught.value)


def _check_every_index(m: GameMap) -> None:
    """Every move leads to a place where a unit of its type can stand."""
    for prov, dests in enumerate(m.army_adjacent):
        for dest in dests:
            assert m.can_stand(0, dest), (m.provinces[prov], m.provinces[dest])
    for loc, dests in enumerate(m.fleet_adjacent):
        for dest in dests:
            assert m.can_stand(1, dest), (m.location_name(loc), m.location_name(dest))


def test_the_standard_map_is_unchanged() -> None:
    assert GameMap.from_definition(STANDARD).fleet_adjacent == standard_map().fleet_adjacent


# --- the map from the field: ANK's army list dropped ----------------------------------------

ANK_ONE_SIDED = GameMap.from_definition(drop_list("ANK", ARMY)(STANDARD))


def _army(power: str, province: str) -> Unit:
    return Unit(power, ARMY, Location(province))


def _position(*units: Unit) -> Position:
    return Position.from_values(
        ANK_ONE_SIDED, Turn(Season.SPRING, 1901), [UnitPosition(u) for u in units], []
    )


def test_armies_still_move_into_ankara() -> None:
    m = ANK_ONE_SIDED
    ank = m.province_index["ANK"]
    assert m.kind[ank] == COASTAL and m.can_stand(0, ank)
    assert m.army_adjacent[ank] == ()
    assert all(ank in m.army_adjacent[m.province_index[p]] for p in ("ARM", "CON", "SMY"))
    arm, smy = _army("TUR", "ARM"), _army("TUR", "SMY")
    outcome = adjudicate_phase(
        _position(arm, smy), [Move(arm, Location("ANK")), SupportMove(smy, arm, "ANK")]
    )
    assert [r.result for r in outcome.results] == [("SUC",), ("SUC",)]
    assert {u.unit.location.province for u in outcome.position.unit_positions()} == {"ANK", "SMY"}


def test_an_army_in_ankara_can_only_hold() -> None:
    ank_army = _army("TUR", "ANK")
    pos = _position(ank_army, _army("RUS", "ARM"))
    assert movement_orders(pos, ANK_ONE_SIDED.province_index["ANK"]) == [HOLD_ORDER]
    outcome = adjudicate_phase(pos, [Move(ank_army, Location("ARM"))])
    assert outcome.verdicts == ((Move(ank_army, Location("ARM")), "FAR"),)
    assert outcome.position.unit_positions() == pos.unit_positions()
