"""Our bot's orders for the phases it does not search: retreats and adjustments.

The product card asks for random legal retreats and heuristic builds and
removals by DumbBot's values.  :class:`PhaseHeuristics` has the two matching
methods of :class:`~search.policy.Policy`, for the MCTS policy and the live
bot to call (or to delegate to from a full policy):

* **Retreats**: each dislodged unit retreats to a uniformly random legal
  location, never one another of our units already retreats to (that would
  bounce both); it disbands only when no location is left.
* **Builds**: the free home centre node (army, or fleet on a coast) with the
  best DumbBot winter value, one build per province, until the builds due are
  placed; waive the rest when no free home centre is left.
* **Removals**: the units on the lowest-valued nodes.

Builds and removals are deterministic (ties go to the lower node id); pass
``randomised=True`` to draw them with DumbBot's weighted choice instead.
"""

from __future__ import annotations

from random import Random

from adjudicator.orders import (
    DISBAND_ORDER,
    REMOVE,
    RETREAT,
    EngineOrder,
    Orders,
)
from adjudicator.position import Position
from search.dumbbot import build_nodes, builds_from, dumbbot_builds, dumbbot_removals
from search.dumbbot_values import dumbbot_values
from search.tables import DEFAULT_WEIGHTS, DumbBotWeights


class PhaseHeuristics:
    """Random legal retreats; DumbBot-valued builds and removals."""

    name = "heuristics"

    def __init__(
        self, weights: DumbBotWeights = DEFAULT_WEIGHTS, *, randomised: bool = False
    ) -> None:
        self.weights = weights
        self.randomised = randomised

    def retreat_orders(self, pos: Position, power: int, rng: Random) -> Orders:
        """A random retreat for each of ``power``'s dislodged units, none to the same province."""
        return random_retreats(pos, power, rng)

    def adjustment_orders(self, pos: Position, power: int, rng: Random) -> list[EngineOrder]:
        """The best builds (then waives) or the least valuable units' removals."""
        due = pos.adjustments()[power]
        if due > 0:
            if self.randomised:
                return dumbbot_builds(pos, power, due, rng, self.weights)
            return best_builds(pos, power, due, self.weights)
        if due < 0:
            if self.randomised:
                return dumbbot_removals(pos, power, -due, rng, self.weights)
            return worst_removals(pos, power, -due, self.weights)
        return []


def random_retreats(pos: Position, power: int, rng: Random) -> Orders:
    """Uniformly random legal retreats for ``power``, avoiding self-bounces; else disband."""
    loc_province = pos.map.loc_province
    ours = sorted(p for p, d in pos.dislodged.items() if d[0] == power)
    rng.shuffle(ours)
    taken: set[int] = set()
    orders: Orders = {}
    for prov in ours:
        free = [loc for loc in pos.dislodged[prov][3] if loc_province[loc] not in taken]
        if free:
            loc = rng.choice(free)
            taken.add(loc_province[loc])
            orders[prov] = (RETREAT, loc)
        else:
            orders[prov] = DISBAND_ORDER
    return orders


def best_builds(
    pos: Position, power: int, count: int, weights: DumbBotWeights = DEFAULT_WEIGHTS
) -> list[EngineOrder]:
    """Up to ``count`` builds on the best-valued free home nodes, one per province; then waives."""
    values = dumbbot_values(pos, power, weights)
    ranked = sorted(build_nodes(pos, power), key=lambda n: (-values.node_value(n), n))
    return builds_from(iter(ranked), values.tables, count)


def worst_removals(
    pos: Position, power: int, count: int, weights: DumbBotWeights = DEFAULT_WEIGHTS
) -> list[EngineOrder]:
    """Removals of the ``count`` units standing on the lowest-valued nodes."""
    values = dumbbot_values(pos, power, weights, removing=True)
    units = pos.units
    ranked = sorted(pos.units_of(power), key=lambda p: (values.value(units[p][1], units[p][2]), p))
    return [(REMOVE, p) for p in ranked[:count]]
