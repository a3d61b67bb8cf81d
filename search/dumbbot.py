"""David Norman's DumbBot as a :class:`~search.policy.Policy`, after Parang's Python port.

The valuation lives in :mod:`search.dumbbot_values`; this module turns values into
orders, as DumbBot does:

* **Movement.**  Our units are taken in a random order.  Each picks a
  destination among its own location (hold) and its neighbours with
  :func:`~search.dumbbot_values.select_index` (usually the best, sometimes a lesser
  one).  Into a province where one of our units stays put, it supports that
  unit if the competition there is above 1, else picks again; where one of our
  units is still unordered, it waits (and that unit may not then move into the
  waiter's province); where one of our units is already moving in, it
  supports that move if anyone competes for the province, else picks again.
  Last, each hold is turned into a support of the most valuable neighbouring
  order (``value * competition`` of a move's destination, ``value *
  (competition - 1)`` of a unit staying put), as Parang's
  ``check_for_wasted_holds`` does.
* **Retreats.**  Each dislodged unit picks a retreat the same way, avoiding a
  province another of our units retreats to; it disbands when none is left.
* **Builds.**  Pick among the nodes of our free home centres by winter value,
  one build per province, and waive the rest.  **Removals**: pick by lowest
  winter value.

Choices where the sources differ (the seeds' summaries and Parang's port, which
is the DumbBot our bot meets on Parlance) follow Parang; see also
:mod:`search.dumbbot_values`:

* the weighted random choice compares each alternative against the *best*
  value, not the current pick (Parang comments the original line out);
* a destination occupied by our own unit: the seeds say "supports it or moves
  elsewhere depending on whether it is guaranteed to succeed"; Parang's rule is
  competition > 1 for a unit staying put and > 0 for one moving in;
* retreats never disband while a retreat is left (the seeds leave this open);
  removals are a weighted random pick of the lowest values, not always the
  lowest;
* no convoys: Parang's ``convoy_weight`` defaults to 0, which disables them.

One guard Parang lacks: units that wait on each other in a cycle (possible
with mixed army and fleet values) are retried a few rounds, as Parang would
retry for ever; then the first of them moves in regardless.
"""

from __future__ import annotations

from collections.abc import Iterator
from random import Random

from adjudicator import compiled_rules as switch
from adjudicator.orders import (
    BUILD,
    DISBAND_ORDER,
    HOLD,
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
from adjudicator.position import WINTER, Position
from search import compiled_search as speedups
from search.dumbbot_values import ProvinceValues, dumbbot_values, select_index
from search.tables import DEFAULT_WEIGHTS, DumbBotWeights, MapTables, tables_for

STALLED_ROUNDS = 10
"""Rounds in which no unit gets an order before a waiting cycle is broken by force."""

_NO_KERNEL: tuple[object, object, int, speedups.Kernel | None] = (None, None, -1, None)


class DumbBot:
    """DumbBot: DumbBot-valued moves, supports, retreats, builds and removals."""

    name = "dumbbot"
    _compiled = _NO_KERNEL  # (map, weights, switch generation, compiled DumbBot or None)

    def __init__(self, weights: DumbBotWeights = DEFAULT_WEIGHTS) -> None:
        self.weights = weights

    def __getstate__(self) -> dict[str, object]:
        return {**self.__dict__, "_compiled": _NO_KERNEL}  # compiled tables stay behind

    # --- movement -----------------------------------------------------------------------

    def movement_orders(self, pos: Position, power: int, rng: Random) -> Orders:
        """Orders for every unit of ``power`` (see the module docstring)."""
        memo = self._compiled
        if memo[0] is not pos.map or memo[1] is not self.weights or memo[2] != switch.generation:
            fast = speedups.kernel(tables_for(pos.map), self.weights)
            memo = self._compiled = (pos.map, self.weights, switch.generation, fast)
        if memo[3] is not None:
            return memo[3].movement_orders(pos, power, rng)
        ours = pos.units_of(power)
        if not ours:
            return {}
        values = dumbbot_values(pos, power, self.weights)
        orders: Orders = {}
        moving_into: dict[int, int] = {}
        waiting: dict[int, list[int]] = {}
        stalled = 0
        while ours:
            rng.shuffle(ours)
            unordered: list[int] = []
            force = stalled >= STALLED_ROUNDS
            for prov in ours:
                order = self._order_unit(
                    pos, prov, values, orders, moving_into, waiting, rng, force
                )
                force = False
                if order is None:
                    unordered.append(prov)
                else:
                    orders[prov] = order
                    if order[0] == MOVE:
                        moving_into[pos.map.loc_province[order[1]]] = prov
            stalled = stalled + 1 if len(unordered) == len(ours) else 0
            ours = unordered
        self._replace_wasted_holds(pos, values, orders)
        return orders

    def _order_unit(
        self,
        pos: Position,
        prov: int,
        values: ProvinceValues,
        orders: Orders,
        moving_into: dict[int, int],
        waiting: dict[int, list[int]],
        rng: Random,
        force: bool,
    ) -> EngineOrder | None:
        """One unit's order, or ``None`` if it waits for the unit in its chosen province."""
        m = pos.map
        units = pos.units
        power, utype, loc = units[prov]
        tables = values.tables
        node_of = tables.node_of[utype]
        loc_province = m.loc_province
        waiters = waiting.get(prov, ())
        options = [loc] + [d for d in m.adjacent(utype, loc) if loc_province[d] not in waiters]
        scores = [values.node_value(node_of[d]) for d in options]
        while True:
            k = select_index(scores, rng, self.weights)
            dest = options[k]
            dprov = loc_province[dest]
            if dprov == prov:
                return HOLD_ORDER
            ok = True
            other = units.get(dprov)
            if other is not None and other[0] == power:
                order = orders.get(dprov)
                if order is not None:
                    if order[0] != MOVE:
                        if values.competition(dprov) > 1:
                            return (SUPPORT_HOLD, dprov)
                        ok = False
                elif not force:
                    waiting.setdefault(dprov, []).append(prov)
                    return None
            mover = moving_into.get(dprov)
            if mover is not None:
                if values.competition(dprov) > 0:
                    return (SUPPORT_MOVE, mover, dprov)
                ok = False
            if ok:
                return (MOVE, dest)
            del options[k]
            del scores[k]

    def _replace_wasted_holds(self, pos: Position, values: ProvinceValues, orders: Orders) -> None:
        """Turn each hold into a support of the best neighbouring order (Parang's rule)."""
        m = pos.map
        units = pos.units
        loc_province = m.loc_province
        competition = values.competition
        value = values.value
        targets: dict[int, tuple[int, EngineOrder, int]] = {}
        holding: list[int] = []
        for prov, order in orders.items():
            utype = units[prov][1]
            if order[0] == MOVE:
                dprov = loc_province[order[1]]
                targets[dprov] = (prov, order, value(utype, order[1]) * competition(dprov))
            else:
                targets[prov] = (
                    prov,
                    order,
                    value(utype, units[prov][2]) * (competition(prov) - 1),
                )
                if order[0] == HOLD:
                    holding.append(prov)
        for prov in holding:
            _, utype, loc = units[prov]
            source: tuple[int, EngineOrder, int] | None = None
            best = 0
            for d in m.adjacent(utype, loc):
                found = targets.get(loc_province[d])
                if found is not None and (found[2] > best or source is None):
                    source, best = found, found[2]
            if source is not None:
                other, order, _ = source
                if order[0] == MOVE:
                    orders[prov] = (SUPPORT_MOVE, other, loc_province[order[1]])
                else:
                    orders[prov] = (SUPPORT_HOLD, other)

    # --- retreats -----------------------------------------------------------------------

    def retreat_orders(self, pos: Position, power: int, rng: Random) -> Orders:
        """A retreat for each dislodged unit, weighted by value; disband when none is left."""
        ours = [p for p, d in pos.dislodged.items() if d[0] == power]
        if not ours:
            return {}
        ours.sort()
        rng.shuffle(ours)
        values = dumbbot_values(pos, power, self.weights)
        loc_province = pos.map.loc_province
        taken: set[int] = set()
        orders: Orders = {}
        for prov in ours:
            _, utype, _, options = pos.dislodged[prov]
            choices = list(options)
            scores = [values.value(utype, loc) for loc in choices]
            order: EngineOrder = DISBAND_ORDER
            while choices:
                k = select_index(scores, rng, self.weights)
                target = loc_province[choices[k]]
                if target in taken:
                    del choices[k]
                    del scores[k]
                    continue
                taken.add(target)
                order = (RETREAT, choices[k])
                break
            orders[prov] = order
        return orders

    # --- adjustments ----------------------------------------------------------------------

    def adjustment_orders(self, pos: Position, power: int, rng: Random) -> list[EngineOrder]:
        """Builds in the best free home centres (then waives), or removals of the worst units."""
        assert pos.season == WINTER
        due = pos.adjustments()[power]
        if due > 0:
            return dumbbot_builds(pos, power, due, rng, self.weights)
        if due < 0:
            return dumbbot_removals(pos, power, -due, rng, self.weights)
        return []


def build_nodes(pos: Position, power: int) -> list[int]:
    """Nodes (army, then each fleet coast) of ``power``'s owned, empty home centres."""
    m = pos.map
    tables = tables_for(m)
    out: list[int] = []
    for home in sorted(m.homes[power]):
        if pos.owners[home] == power and home not in pos.units:
            out.extend(tables.prov_nodes[home])
    return out


def dumbbot_builds(
    pos: Position,
    power: int,
    count: int,
    rng: Random,
    weights: DumbBotWeights = DEFAULT_WEIGHTS,
) -> list[EngineOrder]:
    """DumbBot's ``count`` builds: weighted picks of the best home nodes, then waives."""
    values = dumbbot_values(pos, power, weights)
    nodes = build_nodes(pos, power)
    scores = [values.node_value(n) for n in nodes]

    def picks() -> Iterator[int]:
        while nodes:
            k = select_index(scores, rng, weights)
            del scores[k]
            yield nodes.pop(k)

    return builds_from(picks(), values.tables, count)


def builds_from(nodes: Iterator[int], tables: MapTables, count: int) -> list[EngineOrder]:
    """``count`` builds on ``nodes`` in turn, one a province, then waives.

    A node is taken from ``nodes`` only while a build is still wanted.
    """
    built: set[int] = set()
    orders: list[EngineOrder] = []
    while len(orders) < count:
        node = next(nodes, None)
        if node is None:
            break
        prov = tables.node_prov[node]
        if prov not in built:
            built.add(prov)
            orders.append((BUILD, tables.node_type[node], tables.node_loc[node]))
    orders.extend([WAIVE_ORDER] * (count - len(orders)))
    return orders


def dumbbot_removals(
    pos: Position,
    power: int,
    count: int,
    rng: Random,
    weights: DumbBotWeights = DEFAULT_WEIGHTS,
) -> list[EngineOrder]:
    """DumbBot's ``count`` removals: weighted picks of the units on the lowest-valued nodes."""
    values = dumbbot_values(pos, power, weights, removing=True)
    provs = pos.units_of(power)
    scores = [-values.value(pos.units[p][1], pos.units[p][2]) for p in provs]
    orders: list[EngineOrder] = []
    while provs and len(orders) < count:
        k = select_index(scores, rng, weights)
        orders.append((REMOVE, provs.pop(k)))
        del scores[k]
    return orders
