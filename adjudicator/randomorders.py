"""Random but battle-heavy legal order sets: the corpus of tests and benchmarks.

Unlike uniformly random orders (whose supports rarely match anything), these
make real battles: units attack foreign-held provinces, most supports back an
order that was actually given, and some armies are convoyed by every fleet of
a route.  Every unit gets an explicit order.
"""

from __future__ import annotations

from random import Random

from adjudicator.legal import convoy_orders, move_orders, support_orders
from adjudicator.orders import (
    CONVOY,
    CONVOY_MOVE,
    MOVE,
    SUPPORT_HOLD,
    SUPPORT_MOVE,
    EngineOrder,
)
from adjudicator.position import Position
from adjudicator.validation import geometric_routes, minimal_routes


def battle_orders(pos: Position, rng: Random, convoys: float = 0.6) -> dict[int, EngineOrder]:
    """One order for every unit of ``pos`` (a movement phase), chosen to make battles.

    ``convoys`` is the chance to set up convoys at all in this phase (up to two,
    each with an explicit route).
    """
    orders: dict[int, EngineOrder] = {}
    units = sorted(pos.units)
    if rng.random() < convoys:
        armies = [p for p in units if pos.units[p][1] == 0 and convoy_orders(pos, p)]
        rng.shuffle(armies)
        for army in armies[:2]:
            dest = rng.choice(convoy_orders(pos, army))[1]
            routes = minimal_routes(geometric_routes(pos, army, dest))
            if not routes:
                continue
            route = rng.choice(routes)
            if army in orders or any(f in orders for f in route):
                continue
            orders[army] = (CONVOY_MOVE, dest, route)
            for fleet in route:
                orders[fleet] = (CONVOY, army, dest)
    supporters = []
    for p in units:
        if p in orders:
            continue
        roll = rng.random()
        if roll < 0.4:
            supporters.append(p)
            continue
        options = [o for o in convoy_orders(pos, p) if o[0] == CONVOY] if roll < 0.45 else []
        if not options:
            moves = move_orders(pos, p)
            attacks = [
                o
                for o in moves[1:]
                if (t := pos.units.get(pos.map.loc_province[o[1]])) and t[0] != pos.units[p][0]
            ]
            options = attacks if attacks and rng.random() < 0.6 else moves
        orders[p] = rng.choice(options)
    for p in supporters:
        options = support_orders(pos, p)
        matching = [o for o in options if _backs(pos, orders, o)]
        pool = matching if matching and rng.random() < 0.85 else options
        orders[p] = rng.choice(pool or move_orders(pos, p))
    return orders


def _backs(pos: Position, orders: dict[int, EngineOrder], support: EngineOrder) -> bool:
    """Whether ``support`` matches the order already given to the unit it supports."""
    target = orders.get(support[1])
    if target is None:
        return False
    moving = target[0] == MOVE or target[0] == CONVOY_MOVE
    if support[0] == SUPPORT_HOLD:
        return not moving
    if support[0] != SUPPORT_MOVE or not moving:
        return False
    dest: int = pos.map.loc_province[target[1]] if target[0] == MOVE else target[1]
    supported: int = support[2]
    return dest == supported
