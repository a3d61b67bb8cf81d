"""RandomBot: random legal orders that sometimes support a friendly unit.

BANDANA's RandomBot orders at random but "is also able to support friendly
units when possible".  Here the units are taken in a random order; each, with
probability ``support_probability``, supports one of our already-ordered units
it can reach (its hold, or its move, matching that unit's actual order);
otherwise it holds or moves to a uniformly random neighbour.  No convoys.

Retreats are uniform over the legal retreats and disbanding; builds pick
random free home centres and unit types (waiving what cannot be built);
removals pick random units.
"""

from __future__ import annotations

from random import Random

from adjudicator.legal import build_options
from adjudicator.orders import (
    BUILD,
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


class RandomBot:
    """Random legal orders, supporting friendly units with some probability."""

    name = "random"

    def __init__(self, support_probability: float = 0.3) -> None:
        self.support_probability = support_probability

    def movement_orders(self, pos: Position, power: int, rng: Random) -> Orders:
        """A random hold, move or friendly support for each unit of ``power``."""
        m = pos.map
        loc_province = m.loc_province
        units = pos.units
        ours = pos.units_of(power)
        rng.shuffle(ours)
        orders: Orders = {}
        for prov in ours:
            _, utype, loc = units[prov]
            if orders and rng.random() < self.support_probability:
                reach = m.reach(utype, loc)
                supports: list[EngineOrder] = []
                for other, order in orders.items():
                    if order[0] == MOVE:
                        target = loc_province[order[1]]
                        if target in reach and target != prov:
                            supports.append((SUPPORT_MOVE, other, target))
                    elif other in reach:
                        supports.append((SUPPORT_HOLD, other))
                if supports:
                    orders[prov] = rng.choice(supports)
                    continue
            dests = m.adjacent(utype, loc)
            k = rng.randrange(len(dests) + 1)
            orders[prov] = HOLD_ORDER if k == len(dests) else (MOVE, dests[k])
        return orders

    def retreat_orders(self, pos: Position, power: int, rng: Random) -> Orders:
        """A uniformly random legal retreat (or disband) for each dislodged unit."""
        orders: Orders = {}
        for prov in sorted(pos.dislodged):
            dpower, _, _, options = pos.dislodged[prov]
            if dpower == power:
                k = rng.randrange(len(options) + 1)
                orders[prov] = DISBAND_ORDER if k == len(options) else (RETREAT, options[k])
        return orders

    def adjustment_orders(self, pos: Position, power: int, rng: Random) -> list[EngineOrder]:
        """Random builds (one per free home centre, then waives) or random removals."""
        due = pos.adjustments()[power]
        if due > 0:
            return random_builds(pos, power, due, rng)
        if due < 0:
            provs = pos.units_of(power)
            return [(REMOVE, p) for p in rng.sample(provs, min(-due, len(provs)))]
        return []


def random_builds(pos: Position, power: int, count: int, rng: Random) -> list[EngineOrder]:
    """``count`` builds at random free home centres (random unit type and coast), then waives."""
    by_prov: dict[int, list[EngineOrder]] = {}
    for option in build_options(pos, power):
        if option[0] == BUILD:
            by_prov.setdefault(pos.map.loc_province[option[2]], []).append(option)
    provs = sorted(by_prov)
    chosen = rng.sample(provs, min(count, len(provs)))
    orders: list[EngineOrder] = [rng.choice(by_prov[p]) for p in chosen]
    orders.extend([WAIVE_ORDER] * (count - len(orders)))
    return orders
