"""A map definition checked completely, before any table is built from it.

A map comes from the network (the server's MDF), so :func:`check_definition`
reads all of it and raises one :class:`~adjudicator.rule_errors.MapError` with a
one-line message naming the first thing wrong.  What it accepts is a map
every table can be built from, with every index valid:

* powers: at least one, none listed twice;
* supply centres: at least one; owned by a listed power or ``UNO`` (alone);
  a group may be empty; every power has a home centre;
* other provinces: each listed once, and not also as a supply centre;
* adjacencies: at most one entry per listed province, at most one list per
  unit type (and per coast) in it, fleet lists either with coasts or
  without, never both; every move leads to a listed province (a listed coast
  of it for a fleet move naming one; an army move names no coast), never to
  the province it starts from; a fleet move names a coast exactly when the
  province it leads to has coasts.

Two things Parlance accepts and plays are played, and each is named once in
the layout's ``oddities`` for the caller to log: a supply centre listed in
several groups is a home centre of every power whose group lists it (how
Parlance writes a centre where several powers may build, ``hundred3``), and a
move from a province to itself is dropped (``modern`` lists ``ICE`` among its
own neighbours): no unit can make it.

Where a unit may stand follows from the moves: an army may stand in a
province with an ``AMY`` list or that an army move leads to; a fleet in a
location with a fleet list or that a fleet move leads to.  So a one-sided
adjacency is legal and means what it says: with ``ARM``'s ``AMY`` list naming
``ANK`` and no ``AMY`` list for ``ANK``, an army may move from Armenia to
Ankara, and stand there, but not move on.  Lists may be empty (a unit that
can only hold); a province no unit can reach or stand in is kept (no unit can
ever be there).  Repeated destinations in one list count once.
"""

from __future__ import annotations

from dataclasses import dataclass

from adjudicator.rule_errors import MapError
from protocol.values import UNOWNED, Location, MapDefinition, ProvinceAdjacencies, UnitType

FleetLocation = tuple[str, str | None]
"""A place a fleet stands: ``(province, coast)``, the coast None outside split provinces."""


@dataclass(frozen=True, slots=True)
class MapLayout:
    """A checked map definition, by name: what :class:`~adjudicator.maps.GameMap` is built from.

    ``army_moves`` has a key for every province an army may stand in;
    ``fleet_moves`` one for every location a fleet may stand in, coasts in
    the order the MDF gives them.  Every destination is itself a key.
    """

    powers: tuple[str, ...]
    provinces: tuple[str, ...]
    homes: dict[str, tuple[str, ...]]
    army_moves: dict[str, tuple[str, ...]]
    fleet_moves: dict[FleetLocation, tuple[FleetLocation, ...]]
    oddities: tuple[str, ...] = ()
    """What the map does that a server accepts but the rules do not expect, a line each."""


def check_definition(definition: MapDefinition) -> MapLayout:
    """The layout of ``definition``; :class:`MapError` naming the first thing wrong in it."""
    oddities: list[str] = []
    powers = _check_powers(definition.powers)
    homes = _check_centres(definition, set(powers), oddities)
    provinces = _check_provinces(definition, homes)
    entries = _check_entries(definition.adjacencies, set(provinces))
    coasts: set[FleetLocation] = {
        (entry.province, adj.coast)
        for entry in entries.values()
        for adj in entry.entries
        if adj.coast is not None
    }
    split = {province for province, _ in coasts}
    army_moves: dict[str, tuple[str, ...]] = {}
    fleet_moves: dict[FleetLocation, tuple[FleetLocation, ...]] = {}
    army_into: set[str] = set()
    fleet_into: set[FleetLocation] = set()
    for province, entry in entries.items():
        for adj in entry.entries:
            source = (province, adj.coast)
            moves = tuple(dict.fromkeys(adj.destinations))  # repeats count once
            if any(dest.province == province for dest in moves):
                oddities.append(f"{Location(*source)} is listed as adjacent to itself: dropped")
                moves = tuple(dest for dest in moves if dest.province != province)
            for dest in moves:
                _check_move(adj.kind, source, dest, set(provinces), coasts, split)
            if adj.kind is UnitType.ARMY:
                army_moves[province] = tuple(d.province for d in moves)
                army_into.update(d.province for d in moves)
            else:
                fleet_moves[source] = tuple((d.province, d.coast) for d in moves)
                fleet_into.update((d.province, d.coast) for d in moves)
    for province in sorted(army_into - army_moves.keys()):
        army_moves[province] = ()  # one-sided: armies arrive and cannot move on
    for location in sorted(fleet_into - fleet_moves.keys(), key=_location_key):
        fleet_moves[location] = ()
    return MapLayout(powers, provinces, homes, army_moves, fleet_moves, tuple(oddities))


def _check_powers(powers: tuple[str, ...]) -> tuple[str, ...]:
    if not powers:
        raise MapError("the map lists no powers")
    seen: set[str] = set()
    for power in powers:
        if power == UNOWNED:
            raise MapError(f"the map lists {UNOWNED} as a power")
        if power in seen:
            raise MapError(f"the map lists power {power} twice")
        seen.add(power)
    return tuple(sorted(seen))


def _check_centres(
    definition: MapDefinition, powers: set[str], oddities: list[str]
) -> dict[str, tuple[str, ...]]:
    """Each supply centre and the powers whose home it is (sorted; none when neutral)."""
    owners_of: dict[str, set[str]] = {}
    for owners, centres in definition.supply_centres:
        if not owners:
            raise MapError(f"a group of supply centres has no owner: {' '.join(centres)}")
        if UNOWNED in owners and len(owners) > 1:
            raise MapError(f"{UNOWNED} shares a group of supply centres with a power")
        for owner in owners:
            if owner != UNOWNED and owner not in powers:
                raise MapError(f"home centres listed for unknown power {owner}")
        for centre in centres:
            owners_of.setdefault(centre, set()).update(o for o in owners if o != UNOWNED)
    if not owners_of:
        raise MapError("the map lists no supply centres")
    shared = sorted(c for c, o in owners_of.items() if len(o) > 1)
    if shared:
        oddities.append(f"home centres of several powers: {' '.join(shared)}")
    listed = sum(len(centres) for _, centres in definition.supply_centres)
    if listed > len(owners_of):
        oddities.append(f"{listed - len(owners_of)} supply centres are listed more than once")
    homeless = sorted(powers - {p for o in owners_of.values() for p in o})
    if homeless:
        raise MapError(f"power {homeless[0]} has no home centre")
    return {centre: tuple(sorted(owners)) for centre, owners in owners_of.items()}


def _check_provinces(
    definition: MapDefinition, homes: dict[str, tuple[str, ...]]
) -> tuple[str, ...]:
    others: set[str] = set()
    for province in definition.non_supply_centres:
        if province in homes:
            raise MapError(f"the map lists {province} both as a supply centre and as not one")
        if province in others:
            raise MapError(f"the map lists province {province} twice")
        others.add(province)
    return tuple(sorted(homes.keys() | others))


def _check_entries(
    adjacencies: tuple[ProvinceAdjacencies, ...], provinces: set[str]
) -> dict[str, ProvinceAdjacencies]:
    """The adjacency entries by province, each checked for its shape (not its moves)."""
    entries: dict[str, ProvinceAdjacencies] = {}
    for entry in adjacencies:
        province = entry.province
        if province not in provinces:
            raise MapError(f"adjacencies given for unlisted province {province}")
        if province in entries:
            raise MapError(f"the adjacencies of {province} are given twice")
        entries[province] = entry
        lists: set[tuple[UnitType, str | None]] = set()
        for adj in entry.entries:
            if adj.kind is UnitType.ARMY and adj.coast is not None:
                raise MapError(f"{province} has an army list for coast {adj.coast}")
            key = (adj.kind, adj.coast)
            if key in lists:
                name = f"(FLT {adj.coast})" if adj.coast else str(adj.kind)
                raise MapError(f"{province} has two {name} lists")
            lists.add(key)
        if (UnitType.FLEET, None) in lists and any(coast for _, coast in lists):
            raise MapError(f"{province} has fleet lists both with and without a coast")
    return entries


def _check_move(
    kind: UnitType,
    source: FleetLocation,
    dest: Location,
    provinces: set[str],
    coasts: set[FleetLocation],
    split: set[str],
) -> None:
    """One move of a ``kind`` unit from ``source`` to ``dest``; MapError if it cannot be."""
    where = str(Location(*source))
    if dest.province not in provinces:
        raise MapError(f"{where} is adjacent to unknown province {dest.province}")
    if dest.province == source[0]:
        raise MapError(f"{where} is adjacent to its own province ({dest})")
    if kind is UnitType.ARMY:
        if dest.coast is not None:
            raise MapError(f"{where} lists an army move to a coast, {dest}")
        return
    if dest.coast is not None and (dest.province, dest.coast) not in coasts:
        raise MapError(f"{where} is adjacent to unknown location {dest}")
    if dest.coast is None and dest.province in split:
        raise MapError(f"{where} lists a fleet move to {dest.province} without one of its coasts")


def _location_key(location: FleetLocation) -> tuple[str, str]:
    return location[0], location[1] or ""
