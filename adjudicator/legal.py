"""Legal order generation, in engine form, for the search and the bots.

Every order generated here is one a server accepts (``MBV``) in the given
position; :mod:`adjudicator.validation` is the slower oracle the tests hold
these generators to.  Convoys are generated only where a chain of fleets at
sea exists, as a server requires.  :func:`movement_orders` has a compiled twin
(``adjudicator/_fastlegal.pyx``, see :mod:`adjudicator.compiled_rules`) that gives
the same list; the code here is its oracle and its fallback.
"""

from __future__ import annotations

from adjudicator import compiled_rules as speedups
from adjudicator.maps import ARMY, COASTAL, FLEET, SEA
from adjudicator.orders import (
    BUILD,
    CONVOY,
    CONVOY_MOVE,
    DISBAND_ORDER,
    HOLD_ORDER,
    MOVE,
    REMOVE,
    RETREAT,
    SUPPORT_HOLD,
    SUPPORT_MOVE,
    WAIVE_ORDER,
    EngineOrder,
    Orders,
)
from adjudicator.position import Position
from adjudicator.validation import geometric_routes


def move_orders(pos: Position, prov: int) -> list[EngineOrder]:
    """Hold and every move by land or sea (no convoys) for the unit in ``prov``."""
    _, utype, loc = pos.units[prov]
    out: list[EngineOrder] = [HOLD_ORDER]
    out.extend((MOVE, dest) for dest in pos.map.adjacent(utype, loc))
    return out


def support_orders(pos: Position, prov: int) -> list[EngineOrder]:
    """Every support the unit in ``prov`` can give: to hold, and to moves by land or sea.

    Supports for moves that need a convoy are left out (see :func:`convoy_orders`).
    """
    m = pos.map
    units = pos.units
    _, utype, loc = units[prov]
    reach = m.reach(utype, loc)
    out: list[EngineOrder] = []
    for other, (_, otype, oloc) in units.items():
        if other == prov:
            continue
        if other in reach:
            out.append((SUPPORT_HOLD, other))
        for dest in m.reach(otype, oloc):
            if dest in reach and dest != prov:
                out.append((SUPPORT_MOVE, other, dest))
    return out


def convoy_orders(pos: Position, prov: int) -> list[EngineOrder]:
    """Convoy orders for a fleet at sea, and moves by convoy for an army on a coast."""
    m = pos.map
    _, utype, _ = pos.units[prov]
    out: list[EngineOrder] = []
    seas = _fleets_at_sea(pos)
    if utype == FLEET and m.kind[prov] == SEA:
        for army, (_, atype, _) in pos.units.items():
            if atype != ARMY or m.kind[army] != COASTAL:
                continue
            for dest in _convoy_destinations(pos, army, seas):
                routes = geometric_routes(pos, army, dest)
                if any(prov in route for route in routes):
                    out.append((CONVOY, army, dest))
    elif utype == ARMY and m.kind[prov] == COASTAL:
        for dest in _convoy_destinations(pos, prov, seas):
            out.append((CONVOY_MOVE, dest, ()))
    return out


def _fleets_at_sea(pos: Position) -> set[int]:
    m = pos.map
    return {p for p, u in pos.units.items() if u[1] == FLEET and m.kind[p] == SEA}


def _convoy_destinations(pos: Position, army: int, seas: set[int]) -> list[int]:
    """Coastal provinces a chain of the fleets at sea ``seas`` could carry ``army`` to."""
    m = pos.map
    if not seas or not any(s in seas for s in m.neighbours[army]):
        return []
    reached: set[int] = set()
    frontier = [s for s in m.neighbours[army] if s in seas]
    seen = set(frontier)
    while frontier:
        here = frontier.pop()
        for q in m.neighbours[here]:
            if q in seas and q not in seen:
                seen.add(q)
                frontier.append(q)
            elif m.kind[q] == COASTAL and q != army:
                reached.add(q)
    return sorted(reached)


def movement_orders(pos: Position, prov: int, convoys: bool = True) -> list[EngineOrder]:
    """All legal orders for the unit in ``prov`` in a movement phase."""
    fast = speedups.legal_generator
    if fast is not None:
        return fast.movement_orders(pos, prov, convoys)  # type: ignore[no-any-return]
    out = move_orders(pos, prov) + support_orders(pos, prov)
    if convoys:
        out.extend(convoy_orders(pos, prov))
        m = pos.map
        _, utype, _ = pos.units[prov]
        # Supports for moves that need a convoy, on a route avoiding the supporter.
        reach = m.reach(utype, pos.units[prov][2])
        seas = _fleets_at_sea(pos)
        for army, (_, atype, aloc) in pos.units.items():
            if army == prov or atype != ARMY or m.kind[army] != COASTAL:
                continue
            for dest in _convoy_destinations(pos, army, seas):
                if dest in reach and dest != prov and dest not in m.army_reach[aloc]:
                    routes = geometric_routes(pos, army, dest)
                    if any(prov not in route for route in routes):
                        out.append((SUPPORT_MOVE, army, dest))
    return out


def retreat_orders(pos: Position, prov: int) -> list[EngineOrder]:
    """Retreats to each legal location, and disband, for the unit dislodged from ``prov``."""
    options = pos.dislodged[prov][3]
    return [(RETREAT, loc) for loc in options] + [DISBAND_ORDER]


def build_options(pos: Position, power: int) -> list[EngineOrder]:
    """Every single build ``power`` could order now (owned, empty home centres)."""
    m = pos.map
    out: list[EngineOrder] = []
    for home in sorted(m.homes[power]):
        if pos.owners[home] != power or home in pos.units:
            continue
        if m.kind[home] != SEA:
            out.append((BUILD, ARMY, home))
        out.extend((BUILD, FLEET, loc) for loc in m.fleet_locations[home])
    return out


def removal_options(pos: Position, power: int) -> list[EngineOrder]:
    """Every single removal ``power`` could order (one per unit)."""
    return [(REMOVE, p) for p in pos.units_of(power)]


def adjustment_options(pos: Position, power: int) -> list[EngineOrder]:
    """What ``power`` may order this winter: builds and a waive, or removals, or nothing."""
    due = pos.adjustments()[power]
    if due > 0:
        return [*build_options(pos, power), WAIVE_ORDER]
    if due < 0:
        return removal_options(pos, power)
    return []


def complete_with_holds(pos: Position, power: int, orders: Orders) -> Orders:
    """``orders`` for every unit of ``power``, holding where one is missing; nothing for others."""
    return {p: orders.get(p, HOLD_ORDER) for p, u in pos.units.items() if u[0] == power}


def complete_with_disbands(pos: Position, power: int, orders: Orders) -> Orders:
    """``orders`` for every dislodged unit of ``power``, disbanding where one is missing."""
    return {p: orders.get(p, DISBAND_ORDER) for p, d in pos.dislodged.items() if d[0] == power}
