"""DumbBot's constants and the per-map node tables its valuation runs on.

Shared by the pure-Python valuation (:mod:`search.dumbbot_values`) and the compiled
one (:mod:`search.compiled_search`, ``search/_fastbot.pyx``): the tables are built
once per map (:func:`tables_for`) as flat tuples over *nodes* (a place one unit
type can stand), and the weights are one frozen dataclass (:class:`DumbBotWeights`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from operator import itemgetter

from adjudicator.maps import ARMY, FLEET, SEA, GameMap
from adjudicator.per_map import PerMap
from adjudicator.rule_errors import MapError

PROXIMITY_DEPTH = 10
"""How many proximity levels DumbBot computes (0 to 9)."""


@dataclass(frozen=True)
class DumbBotWeights:
    """DumbBot's constants; the defaults are the original DumbBot's (as Parang lists them).

    The ``home_*`` and ``base_unit_weight`` knobs are Parang extensions whose
    defaults disable them (they are kept so the formula is complete).
    Convoys (Parang's ``convoy_weight``, default 0) are never played.
    """

    spring_attack: int = 700
    spring_defence: int = 300
    fall_attack: int = 600
    fall_defence: int = 400
    spring_proximity: tuple[int, ...] = (100, 1000, 30, 10, 6, 5, 4, 3, 2, 1)
    spring_strength: int = 1000
    spring_competition: int = 1000
    fall_proximity: tuple[int, ...] = (1000, 100, 30, 10, 6, 5, 4, 3, 2, 1)
    fall_strength: int = 1000
    fall_competition: int = 1000
    base_unit_weight: int = 0
    home_vacation_weight: int = 0
    home_attack_weight: int = 1
    home_defence_weight: int = 1
    build_defence: int = 1000
    build_proximity: tuple[int, ...] = (1000, 100, 30, 10, 6, 5, 4, 3, 2, 1)
    remove_defence: int = 1000
    remove_proximity: tuple[int, ...] = (1000, 100, 30, 10, 6, 5, 4, 3, 2, 1)
    play_alternative: int = 50
    alternative_difference_modifier: int = 500
    size_square: int = 1
    size_linear: int = 4
    size_constant: int = 16

    def size(self, centres: int) -> int:
        """A power's size for DumbBot: ``A*x*x + B*x + C`` for ``x`` centres."""
        return (
            self.size_square * centres * centres + self.size_linear * centres + self.size_constant
        )


DEFAULT_WEIGHTS = DumbBotWeights()


# --- per-map tables ---------------------------------------------------------------------


@dataclass(frozen=True)
class MapTables:
    """Everything DumbBot needs from a map, as flat tuples over nodes (built once per map).

    A *node* is a place one unit type can stand: the army node of each land
    province, the fleet node of each fleet location (each coast of a split
    province is its own node).  ``node_of[unit_type][loc]`` is a node id or -1.
    """

    map: GameMap
    num_nodes: int
    node_prov: tuple[int, ...]
    node_type: tuple[int, ...]
    node_loc: tuple[int, ...]
    node_of: tuple[tuple[int, ...], tuple[int, ...]]
    prov_nodes: tuple[tuple[int, ...], ...]
    sum_getters: tuple[itemgetter, ...]  # type: ignore[type-arg]
    multi_groups: tuple[tuple[int, tuple[tuple[int, ...], ...]], ...]
    touch_offsets: tuple[tuple[int, ...], ...]
    neighbour_provs: tuple[tuple[int, ...], ...]
    reach: tuple[frozenset[int], ...]
    adjacency: tuple[tuple[int, ...], ...] = field(repr=False)
    adjacency_getters: tuple[itemgetter, ...] = field(repr=False)  # type: ignore[type-arg]


_TABLES = PerMap()
"""Each map's :class:`MapTables`."""


def tables_for(game_map: GameMap) -> MapTables:
    """The node tables of ``game_map``, built on first use and kept per map.

    Kept by the map's identity, of up to :data:`adjudicator.per_map.MAPS_KEPT` maps.
    """
    tables: MapTables | None = _TABLES.get(game_map)
    if tables is None:
        tables = _TABLES.put(game_map, _build_tables(game_map))
    return tables


@dataclass(frozen=True)
class _Nodes:
    """A map's nodes: each one's province, unit type and location; the nodes of each place."""

    prov: tuple[int, ...]
    type: tuple[int, ...]
    loc: tuple[int, ...]
    of: tuple[tuple[int, ...], tuple[int, ...]]
    by_prov: tuple[tuple[int, ...], ...]


def _nodes(m: GameMap) -> _Nodes:
    """The army node of each land province, then the fleet node of each of its coasts."""
    node_prov: list[int] = []
    node_type: list[int] = []
    node_loc: list[int] = []
    army_node = [-1] * m.num_locations
    fleet_node = [-1] * m.num_locations
    prov_nodes: list[tuple[int, ...]] = []
    for prov in range(m.num_provinces):
        here: list[int] = []
        if m.kind[prov] != SEA:
            army_node[prov] = len(node_prov)
            here.append(len(node_prov))
            node_prov.append(prov)
            node_type.append(ARMY)
            node_loc.append(prov)
        for loc in m.fleet_locations[prov]:
            fleet_node[loc] = len(node_prov)
            here.append(len(node_prov))
            node_prov.append(prov)
            node_type.append(FLEET)
            node_loc.append(loc)
        prov_nodes.append(tuple(here))
    return _Nodes(
        prov=tuple(node_prov),
        type=tuple(node_type),
        loc=tuple(node_loc),
        of=(tuple(army_node), tuple(fleet_node)),
        by_prov=tuple(prov_nodes),
    )


def _adjacent_nodes(
    m: GameMap, node_of: tuple[tuple[int, ...], tuple[int, ...]], utype: int, loc: int
) -> tuple[int, ...]:
    """The nodes a unit of ``utype`` at ``loc`` may move to; MapError if it cannot stand there.

    :meth:`GameMap.from_definition` never builds such a map; the check keeps a
    node id of -1 out of every table, here and in the compiled twin.
    """
    dests = m.adjacent(utype, loc)
    adj_nodes = tuple(node_of[utype][d] for d in dests)
    if -1 in adj_nodes:
        where, to = m.location_name(loc), m.location_name(dests[adj_nodes.index(-1)])
        raise MapError(f"a unit at {where} may move to {to}, where it cannot stand")
    return adj_nodes


def _build_tables(m: GameMap) -> MapTables:
    """The node tables of ``m`` (:class:`MapError` if a move leads where its unit cannot stand)."""
    nodes = _nodes(m)
    node_prov, node_type, node_loc, node_of = nodes.prov, nodes.type, nodes.loc, nodes.of
    n = len(node_prov)
    num_powers = m.num_powers

    getters = []
    multi = []
    touch = []
    reach = []
    adjacency: list[tuple[int, ...]] = []
    for i in range(n):
        utype, loc = node_type[i], node_loc[i]
        dests = m.adjacent(utype, loc)
        adj_nodes = _adjacent_nodes(m, node_of, utype, loc)
        adjacency.append(adj_nodes)
        by_prov: dict[int, list[int]] = {}
        for j in adj_nodes:
            by_prov.setdefault(node_prov[j], []).append(j)
        singles = [js[0] for js in by_prov.values() if len(js) == 1]
        groups = tuple(tuple(js) for js in by_prov.values() if len(js) > 1)
        getters.append(_sequence_getter((i, *singles)))  # a node may have no neighbour
        if groups:
            multi.append((i, groups))
        # Parang counts a unit once per bordering location (duplicates kept on purpose).
        touch.append(
            tuple(p * num_powers for p in (node_prov[i], *(m.loc_province[d] for d in dests)))
        )
        reach.append(m.reach(utype, loc))
    return MapTables(
        map=m,
        num_nodes=n,
        node_prov=node_prov,
        node_type=node_type,
        node_loc=node_loc,
        node_of=node_of,
        prov_nodes=nodes.by_prov,
        sum_getters=tuple(getters),
        multi_groups=tuple(multi),
        touch_offsets=tuple(touch),
        neighbour_provs=m.neighbours,
        reach=tuple(reach),
        adjacency=tuple(adjacency),
        adjacency_getters=tuple(_sequence_getter(adj) for adj in adjacency),
    )


def _sequence_getter(indices: tuple[int, ...]) -> itemgetter:  # type: ignore[type-arg]
    """An ``itemgetter`` of ``indices`` that returns a sequence even for one index (or none)."""
    if len(indices) > 1:
        return itemgetter(*indices)
    first = indices[0] if indices else 0
    return itemgetter(slice(first, first + len(indices)))
