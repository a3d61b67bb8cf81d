"""The thesis's DumbBot-style region weights (§3.5, equations 2-4), used by V5-V8.

Every *region* (a node: where one unit type can stand, one per coast of a
split province, as in :mod:`search.dumbbot_values`) gets a weight for one power:

* the base value ``v`` of its province: for one of our supply centres, the
  number of enemy units that could move into it ("the size of the adjacent
  enemies' units"); for any other centre, ``6`` minus the size (centre count)
  of its owner, neutral centres counting as size 0; for any other province, 0;
* ``proximity[0] = v * w[0]`` and ``proximity[n] = (sum of proximity[n-1]
  over the adjacent regions / 5 + proximity[n-1] of this region) * w[n]``;
* ``weight = sum(proximity[0..9])``.

``w`` is the spring table in spring (and summer retreats), the fall table in
fall and later.  The thesis writes the recurrence with the weight applied at
every level, so the levels compound; this module computes it as written.
The value of an order is the weight of the region it ends in (the
destination of a move, the unit's own region otherwise), and the value of a
set of orders is the sum (equation 5).
"""

from __future__ import annotations

from adjudicator.orders import CONVOY_MOVE, MOVE, EngineOrder
from adjudicator.position import SPRING, SUMMER, Position
from search import compiled_search as speedups
from search.tables import MapTables, tables_for

SPRING_PROXIMITY_WEIGHTS = (10.0, 100.0, 3.0, 1.0, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1)
"""The thesis's ``m_spring_proximity_weight(0..9)``."""

FALL_PROXIMITY_WEIGHTS = (100.0, 10.0, 3.0, 1.0, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1)
"""The thesis's ``m_fall_proximity_weight(0..9)``."""

FOREIGN_CENTRE_CONSTANT = 6
"""The constant a foreign centre's owner size is taken from."""


class RegionWeights:
    """The thesis's weight of every region for one power in one phase.

    ``node`` lists are indexed like :class:`search.tables.MapTables` nodes;
    :meth:`order_value` gives equation 5's term for one engine-form order.
    """

    __slots__ = ("mean", "node_weight", "pos", "power", "tables")

    def __init__(self, pos: Position, power: int) -> None:
        self.pos = pos
        self.power = power
        self.tables = tables_for(pos.map)
        self.node_weight = _weights(pos, power, self.tables)
        self.mean = speedups.plain_sum(self.node_weight) / len(self.node_weight)

    def location_weight(self, unit_type: int, loc: int) -> float:
        """The weight of the region a ``unit_type`` unit at ``loc`` stands in."""
        return self.node_weight[self.tables.node_of[unit_type][loc]]

    def order_value(self, prov: int, order: EngineOrder) -> float:
        """The weight of the region the unit in ``prov`` ends in under ``order``."""
        _, utype, loc = self.pos.units[prov]
        kind = order[0]
        if kind == MOVE or kind == CONVOY_MOVE:
            loc = order[1]
        return self.location_weight(utype, loc)


def base_values(pos: Position, power: int) -> list[int]:
    """``v`` per province (see the module docstring)."""
    m = pos.map
    counts = pos.centre_counts()
    owners = pos.owners
    values = [0] * m.num_provinces
    for sc in m.supply_centres:
        owner = owners[sc]
        if owner == power:
            threats = 0
            for q in m.neighbours[sc]:
                unit = pos.units.get(q)
                if unit is not None and unit[0] != power and sc in m.reach(unit[1], unit[2]):
                    threats += 1
            values[sc] = threats
        else:
            values[sc] = FOREIGN_CENTRE_CONSTANT - (counts[owner] if owner >= 0 else 0)
    return values


def _weights(pos: Position, power: int, tables: MapTables) -> list[float]:
    weights = SPRING_PROXIMITY_WEIGHTS if pos.season in (SPRING, SUMMER) else FALL_PROXIMITY_WEIGHTS
    fast = speedups.region_weights(tables, pos, power, weights, FOREIGN_CENTRE_CONSTANT)
    if fast is not None:
        return fast
    base = base_values(pos, power)
    getters = tables.adjacency_getters  # each node's neighbours' entries, in adjacency order
    current = [base[p] * weights[0] for p in tables.node_prov]
    total = current
    plain_sum = speedups.plain_sum  # left to right, as the compiled weights add
    for w in weights[1:]:
        current = [
            (plain_sum(g(current)) / 5 + c) * w for g, c in zip(getters, current, strict=True)
        ]
        total = [a + b for a, b in zip(total, current, strict=True)]
    return total
