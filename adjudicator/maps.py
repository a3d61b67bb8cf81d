"""A Diplomacy map as integer tables, built from an MDF (so variants work).

Provinces, powers and locations are small integers:

* a *province* id indexes :attr:`GameMap.provinces` (sorted names);
* a *power* id indexes :attr:`GameMap.powers` (sorted names);
* a *location* is where a unit stands: the province id itself for armies and
  for fleets in single-coast provinces, or an extra id (>= number of
  provinces) for each coast of a multi-coast province (``STP/NCS``).

Everything the rules and the search ask of a map is a precomputed tuple
lookup; a map never changes after construction.
"""

from __future__ import annotations

from collections import deque
from functools import lru_cache

from adjudicator.mapcheck import check_definition
from protocol.values import Location, MapDefinition, UnitType

ARMY = 0
FLEET = 1
UNIT_TYPES = (UnitType.ARMY, UnitType.FLEET)

INLAND = 0
COASTAL = 1
SEA = 2

UNREACHABLE = 1 << 20
"""Distance between provinces with no path (islands)."""


class GameMap:
    """An immutable, integer-indexed Diplomacy map.

    Build it with :meth:`from_definition` (from an MDF's content) or use
    :func:`standard_map`.  All attributes are tuples indexed by province,
    location or power id.
    """

    __slots__ = (
        "army_adjacent",
        "army_reach",
        "definition",
        "distance",
        "fleet_adjacent",
        "fleet_distance",
        "fleet_locations",
        "fleet_reach",
        "home_powers",
        "homes",
        "is_supply",
        "kind",
        "loc_coast",
        "loc_province",
        "location_index",
        "name",
        "neighbours",
        "num_locations",
        "num_powers",
        "num_provinces",
        "oddities",
        "power_index",
        "powers",
        "province_index",
        "provinces",
        "supply_centres",
        "win_centres",
    )

    name: str
    definition: MapDefinition
    powers: tuple[str, ...]
    power_index: dict[str, int]
    num_powers: int
    provinces: tuple[str, ...]
    province_index: dict[str, int]
    num_provinces: int
    num_locations: int
    loc_province: tuple[int, ...]
    loc_coast: tuple[str | None, ...]
    location_index: dict[tuple[str, str | None], int]
    kind: tuple[int, ...]
    fleet_locations: tuple[tuple[int, ...], ...]
    is_supply: tuple[bool, ...]
    supply_centres: tuple[int, ...]
    homes: tuple[frozenset[int], ...]
    home_powers: tuple[tuple[int, ...], ...]
    army_adjacent: tuple[tuple[int, ...], ...]
    fleet_adjacent: tuple[tuple[int, ...], ...]
    army_reach: tuple[frozenset[int], ...]
    fleet_reach: tuple[frozenset[int], ...]
    neighbours: tuple[tuple[int, ...], ...]
    distance: tuple[tuple[int, ...], ...]
    fleet_distance: tuple[tuple[int, ...], ...]
    win_centres: int
    oddities: tuple[str, ...]
    """What the map does that a server accepts and the rules do not expect (see mapcheck)."""

    @classmethod
    def from_definition(cls, definition: MapDefinition, name: str = "standard") -> GameMap:
        """Build the tables from an MDF's content; :class:`MapError` if it is not a usable map.

        The definition is checked completely first (:func:`~adjudicator.mapcheck.check_definition`,
        which also says how one-sided adjacencies are read), so every index in the
        tables is valid.
        """
        # Stays whole: each table is built from the ones before it in one reading of the
        # checked layout; split, every part would need most of the others as arguments.
        layout = check_definition(definition)
        self = cls.__new__(cls)
        self.name = name
        self.definition = definition
        self.oddities = layout.oddities
        self.powers = layout.powers
        self.power_index = {p: i for i, p in enumerate(self.powers)}
        self.num_powers = len(self.powers)
        self.provinces = layout.provinces
        self.province_index = {p: i for i, p in enumerate(self.provinces)}
        n = self.num_provinces = len(self.provinces)

        # Locations: provinces first, then one per coast (by province, in the MDF's order).
        loc_province = list(range(n))
        loc_coast: list[str | None] = [None] * n
        location_index: dict[tuple[str, str | None], int] = {
            (p, None): i for i, p in enumerate(self.provinces)
        }
        coasts = sorted(
            ((self.province_index[prov], coast) for prov, coast in layout.fleet_moves if coast),
            key=lambda pair: pair[0],
        )
        for pid, coast in coasts:
            location_index[(self.provinces[pid], coast)] = len(loc_province)
            loc_province.append(pid)
            loc_coast.append(coast)
        self.loc_province = tuple(loc_province)
        self.loc_coast = tuple(loc_coast)
        self.location_index = location_index
        self.num_locations = len(loc_province)

        army_adj: list[tuple[int, ...]] = [()] * n
        fleet_adj: list[tuple[int, ...]] = [()] * self.num_locations
        has_army = [False] * n
        has_fleet = [False] * n
        for prov, army_dests in layout.army_moves.items():
            pid = self.province_index[prov]
            has_army[pid] = True
            army_adj[pid] = tuple(sorted(self.province_index[d] for d in army_dests))
        for where, fleet_dests in layout.fleet_moves.items():
            has_fleet[self.province_index[where[0]]] = True
            fleet_adj[location_index[where]] = tuple(sorted(location_index[d] for d in fleet_dests))
        self.army_adjacent = tuple(army_adj)
        self.fleet_adjacent = tuple(fleet_adj)
        self.kind = tuple(
            COASTAL if has_army[p] and has_fleet[p] else (INLAND if has_army[p] else SEA)
            for p in range(n)
        )
        coasts_of: list[list[int]] = [[] for _ in range(n)]
        for loc in range(n, self.num_locations):
            coasts_of[loc_province[loc]].append(loc)
        self.fleet_locations = tuple(
            tuple(coasts_of[p]) if coasts_of[p] else ((p,) if has_fleet[p] else ())
            for p in range(n)
        )
        centres = layout.homes
        self.is_supply = tuple(p in centres for p in self.provinces)
        self.supply_centres = tuple(i for i, p in enumerate(self.provinces) if p in centres)
        self.home_powers = tuple(
            tuple(self.power_index[o] for o in centres.get(p, ())) for p in self.provinces
        )
        self.homes = tuple(
            frozenset(pid for pid in range(n) if power in self.home_powers[pid])
            for power in range(self.num_powers)
        )
        self.army_reach = tuple(frozenset(a) for a in self.army_adjacent)
        self.fleet_reach = tuple(
            frozenset(loc_province[d] for d in dests) for dests in self.fleet_adjacent
        )
        self.neighbours = tuple(
            tuple(
                sorted(
                    set(army_adj[p]).union(*(self.fleet_reach[loc] for loc in self._all_locs(p)))
                )
            )
            for p in range(n)
        )
        self.distance = tuple(self._bfs(p) for p in range(n))
        self.fleet_distance = tuple(self._fleet_bfs(loc) for loc in range(self.num_locations))
        self.win_centres = len(self.supply_centres) // 2 + 1
        return self

    def _all_locs(self, prov: int) -> list[int]:
        return [loc for loc in range(self.num_locations) if self.loc_province[loc] == prov]

    def _fleet_bfs(self, start: int) -> tuple[int, ...]:
        """Fleet moves from location ``start`` to each province (``UNREACHABLE`` if none)."""
        dist = [UNREACHABLE] * self.num_provinces
        if not self.fleet_adjacent[start]:
            return tuple(dist)  # not a place a fleet can stand
        seen = {start}
        dist[self.loc_province[start]] = 0
        queue = deque([(start, 0)])
        while queue:
            loc, d = queue.popleft()
            for nxt in self.fleet_adjacent[loc]:
                if nxt not in seen:
                    seen.add(nxt)
                    prov = self.loc_province[nxt]
                    dist[prov] = min(dist[prov], d + 1)
                    queue.append((nxt, d + 1))
        return tuple(dist)

    def _bfs(self, start: int) -> tuple[int, ...]:
        dist = [UNREACHABLE] * self.num_provinces
        dist[start] = 0
        queue = deque([start])
        while queue:
            p = queue.popleft()
            for q in self.neighbours[p]:
                if dist[q] == UNREACHABLE:
                    dist[q] = dist[p] + 1
                    queue.append(q)
        return tuple(dist)

    # --- lookups used at the edges (names <-> ids) ---------------------------------

    def location(self, province: str, coast: str | None = None) -> int:
        """Location id of ``province`` (``coast`` for a split-coast fleet); KeyError if none."""
        return self.location_index[(province, coast)]

    def location_name(self, loc: int) -> Location:
        """The value-type location for a location id."""
        return Location(self.provinces[self.loc_province[loc]], self.loc_coast[loc])

    def can_stand(self, unit_type: int, loc: int) -> bool:
        """Whether a unit of ``unit_type`` may stand at location ``loc``."""
        prov = self.loc_province[loc]
        if unit_type == ARMY:
            return loc == prov and self.kind[prov] != SEA
        return loc in self.fleet_locations[prov]

    def adjacent(self, unit_type: int, loc: int) -> tuple[int, ...]:
        """Locations a unit of ``unit_type`` at ``loc`` may move to (army: province ids)."""
        return self.army_adjacent[loc] if unit_type == ARMY else self.fleet_adjacent[loc]

    def reach(self, unit_type: int, loc: int) -> frozenset[int]:
        """Provinces a unit at ``loc`` could move into (any coast), e.g. to support there."""
        return self.army_reach[loc] if unit_type == ARMY else self.fleet_reach[loc]

    def __repr__(self) -> str:
        return (
            f"GameMap({self.name!r}, {self.num_provinces} provinces, "
            f"{len(self.supply_centres)} centres, {self.num_powers} powers)"
        )


@lru_cache(maxsize=1)
def standard_map() -> GameMap:
    """The standard map, identical to the MDF Parlance sends for ``standard``."""
    from adjudicator.standard import standard_definition

    return GameMap.from_definition(standard_definition(), "standard")
