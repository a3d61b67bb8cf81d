"""No table is built from an index nobody checked: DumbBot's tables, compiled and not.

The search's node tables (:func:`search.dumbbot_values.tables_for`) refuse a map
whose moves lead where no unit of their type can stand; the compiled
``CMap`` checks every index it copies into a C array, and the compiled board
reader, values and resolver every unit they read.  On every playable map of
the mutation table (:mod:`tests.adjudicator.mutated_maps`) DumbBot plays a
year, compiled and in pure Python, with the same orders and positions.
"""

from __future__ import annotations

import copy
import dataclasses
import re
from random import Random

import pytest

from adjudicator import compiled_rules as switch
from adjudicator.compiled_rules import pure_python
from adjudicator.maps import GameMap, standard_map
from adjudicator.per_map import PerMap
from adjudicator.position import Position, initial_position
from adjudicator.rule_errors import MapError
from search import compiled_search as speedups
from search import tables as tables_module
from search.dumbbot import DumbBot
from search.dumbbot_values import dumbbot_values
from search.simulate import play_phase
from search.tables import DEFAULT_WEIGHTS, MapTables, tables_for
from tests.adjudicator.mutated_maps import CASES, reaction

PHASES = 5
"""Phases played on each mutated map (a year: spring, summer, fall, autumn, winter)."""


def _tampered(**tables: object) -> GameMap:
    """A copy of the standard map with some tables replaced (what ``from_definition`` never
    builds)."""
    m = copy.copy(standard_map())
    for name, value in tables.items():
        setattr(m, name, value)
    return m


def _army_into_the_sea() -> GameMap:
    """The standard map where an army in PAR may also move to ECH, a sea."""
    m = standard_map()
    par, ech = m.province_index["PAR"], m.province_index["ECH"]
    army = list(m.army_adjacent)
    army[par] = tuple(sorted((*army[par], ech)))
    return _tampered(army_adjacent=tuple(army))


def test_node_tables_refuse_a_move_to_where_the_unit_cannot_stand() -> None:
    with pytest.raises(MapError, match="PAR may move to ECH, where it cannot stand"):
        tables_for(_army_into_the_sea())


def test_node_tables_are_kept_per_map_by_identity_and_dropped_past_the_limit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A map asked again gets the same tables; a copy of it (equal in every table) its own;
    past the limit every map's are dropped, and built again (alike) when asked."""
    monkeypatch.setattr(tables_module, "_TABLES", PerMap(2))
    first, copied = standard_map(), copy.copy(standard_map())
    tables = tables_for(first)
    assert tables_for(first) is tables and tables.map is first
    assert tables_for(copied) is not tables and tables_for(copied).map is copied
    tables_for(copy.copy(first))
    again = tables_for(first)
    assert again is not tables and again.map is first
    assert (again.node_prov, again.adjacency, again.reach) == (
        tables.node_prov,
        tables.adjacency,
        tables.reach,
    )


def _orphan_node_tables() -> MapTables:
    """The standard map's node tables, where the first army node is not its location's node."""
    good = tables_for(standard_map())
    first_army = good.node_type.index(0)
    army_nodes = list(good.node_of[0])
    army_nodes[good.node_loc[first_army]] = -1
    return dataclasses.replace(good, node_of=(tuple(army_nodes), good.node_of[1]))


@pytest.mark.parametrize(
    ("what", "build"),
    [
        ("node of its own location", lambda: (standard_map(), _orphan_node_tables())),
        (
            "destinations: 10000",
            lambda: (_tampered(army_adjacent=(*standard_map().army_adjacent[:-1], (10_000,))),),
        ),
        (
            "neighbours: -1",
            lambda: (_tampered(neighbours=((-1,), *standard_map().neighbours[1:])),),
        ),
        (
            "home centres: 75",
            lambda: (_tampered(homes=(frozenset({75}), *standard_map().homes[1:])),),
        ),
        ("supply centres: -3", lambda: (_tampered(supply_centres=(-3,)),)),
        ("location provinces: 10000 entries", lambda: (_tampered(loc_province=(0,) * 10_000),)),
    ],
)
def test_compiled_tables_refuse_an_index_out_of_range(compiled: None, what: str, build) -> None:
    assert speedups.COMPILED is not None
    game_map, *tables = build()
    with pytest.raises(ValueError, match=re.escape(what)):
        speedups.COMPILED.CMap(game_map, tables[0] if tables else tables_for(standard_map()))
    assert speedups.compiled_map(tables_for(standard_map())) is not None


def test_compiled_tables_refuse_a_move_to_where_the_unit_cannot_stand(compiled: None) -> None:
    """Tables built past the pure-Python check (as a bug would) still never reach C."""
    assert speedups.COMPILED is not None
    m = _army_into_the_sea()
    good = tables_for(standard_map())
    with pytest.raises(ValueError, match="cannot stand"):
        speedups.COMPILED.CMap(m, good)


def test_compiled_board_refuses_a_unit_the_map_lacks(compiled: None) -> None:
    pos = initial_position(standard_map())
    kernel = speedups.kernel(tables_for(pos.map), DEFAULT_WEIGHTS)
    assert kernel is not None
    sea = pos.map.province_index["NTH"]
    for province, unit in (
        (sea, (0, 0, sea)),  # an army at sea
        (10_000, (0, 0, 0)),  # a province the map lacks
        (sea, (99, 1, sea)),  # a power the map lacks
        (sea, (0, 1, 10_000)),  # a location the map lacks
    ):
        bad = pos.copy()
        bad.units[province] = unit
        with pytest.raises(ValueError):
            kernel.values(bad, 0, False)
        with pytest.raises(ValueError):
            kernel.movement_orders(bad, 0, Random(1))
    owned = pos.copy()
    owned.owners[0] = 99
    with pytest.raises(ValueError, match="owned by power 99"):
        kernel.values(owned, 0, False)


def test_compiled_values_refuse_an_index_out_of_range(compiled: None) -> None:
    pos = initial_position(standard_map())
    values = dumbbot_values(pos, 0)
    assert type(values).__name__ == "CValues"
    for call, arg in (
        (values.node_value, -1),
        (values.node_value, 10_000),
        (values.strength, 10_000),
        (values.competition, -1),
    ):
        with pytest.raises(IndexError):
            call(arg)
    with pytest.raises(IndexError):
        values.value(0, 10_000)
    with pytest.raises(IndexError):
        values.value(1, -1)


def test_compiled_resolver_refuses_a_unit_the_map_lacks(compiled: None) -> None:
    fast = switch.fast_movement()
    assert fast is not None
    bad = initial_position(standard_map())
    bad.units[10_000] = (0, 0, 0)
    with pytest.raises(ValueError, match="province 10000"):
        fast.next_position(bad, {})


PLAYABLE = {
    name: game_map
    for name, tokens in CASES.items()
    if (game_map := reaction(tokens)[1]) is not None
}


def _opening(game_map: GameMap) -> Position | None:
    try:
        return initial_position(game_map)
    except ValueError:
        return None


def _year(pos: Position, seed: int) -> list[tuple[object, ...]]:
    policies = [DumbBot()] * pos.map.num_powers
    rng = Random(seed)
    seen = []
    for _ in range(PHASES):
        pos = play_phase(pos, policies, rng)
        seen.append(pos.key())
    return seen


@pytest.mark.parametrize("name", sorted(PLAYABLE))
def test_dumbbot_plays_a_year_on_every_playable_mutated_map(name: str, compiled: None) -> None:
    game_map = PLAYABLE[name]
    tables = tables_for(game_map)
    for adjacency in tables.adjacency:
        assert all(0 <= node < tables.num_nodes for node in adjacency)
    pos = _opening(game_map)
    if pos is None:
        return  # the opening does not fit this map; its tables were checked above
    fast = _year(pos, 5)
    with pure_python():
        slow = _year(pos, 5)
    assert fast == slow


def test_the_mutations_include_playable_maps_with_an_opening() -> None:
    openings = [name for name, m in PLAYABLE.items() if _opening(m) is not None]
    assert "ANK's army list dropped" in openings and len(openings) >= 8, openings
