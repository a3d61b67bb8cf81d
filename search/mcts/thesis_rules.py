"""The thesis's order rules (§3.1-3.4, §3.7), in engine form.

* :func:`possible_orders` — ``PossibleOrders``: the orders each of our units
  may take in the tree (V1; ``two_step`` adds V3's look two provinces out).
* :func:`heuristic_orders` — the same rules as a rollout policy, one order
  per unit (V2, and V3 with ``two_step``).
* :func:`expected_orders` — ``CalculateEnemyExpectedOrders``: an enemy unit
  next to a centre its power does not own moves there, else holds (V1's
  enemy model; V8's "simple and greedy" rollout opponent).
* :func:`greedy_else_random_orders` — V4's rollout opponent: into an
  adjacent foreign centre, else a random move or hold.
* :func:`weight_greedy_orders` — V7's rollout policy: each unit to its
  best-weighted region.

A *target* is a supply centre the power does not own and none of its units
stands in.  Choices the thesis leaves open, made here: a unit with several
targets or several moves to support lists them all (the tree) or picks one
at random (the rollouts); "every possible MOVETO and HOLD" means the moves by
land or sea to every adjacent location, coasts apart, without convoys; the
weight-greedy policy gives each region to one unit only (the next unit takes
its next best), so our units never bounce each other.
"""

from __future__ import annotations

from random import Random

from adjudicator.orders import HOLD_ORDER, MOVE, SUPPORT_MOVE, EngineOrder, Orders
from adjudicator.position import Position
from search.mcts.weights import RegionWeights

UnitOptions = list[tuple[int, list[EngineOrder]]]
"""``(province of one of our units, the orders it may take)`` for each unit."""


def _targets(pos: Position, power: int) -> list[bool]:
    """Per province: a centre ``power`` does not own and does not occupy."""
    m = pos.map
    owners = pos.owners
    units = pos.units
    out = [False] * m.num_provinces
    for sc in m.supply_centres:
        if owners[sc] != power:
            unit = units.get(sc)
            out[sc] = unit is None or unit[0] != power
    return out


def possible_orders(pos: Position, power: int, *, two_step: bool = False) -> UnitOptions:
    """The thesis's ``PossibleOrders`` for each of ``power``'s units, in province order.

    1. A unit on a centre we do not own holds (to take it in the fall).
    2. Else, if an earlier unit may move into a target this unit borders, it
       supports that move (every such move is an option).
    3. Else, if it borders targets, it moves into one of them.
    4. Else (``two_step``) it moves to a neighbour that borders a target.
    5. Else it may hold or move anywhere it can.
    """
    m = pos.map
    units = pos.units
    loc_province = m.loc_province
    target = _targets(pos, power)
    planned: list[tuple[int, int]] = []
    out: UnitOptions = []
    for prov in pos.units_of(power):
        _, utype, loc = units[prov]
        adjacent = m.adjacent(utype, loc)
        options: list[EngineOrder]
        if m.is_supply[prov] and pos.owners[prov] != power:
            options = [HOLD_ORDER]
        else:
            reach = m.reach(utype, loc)
            options = list(
                dict.fromkeys(
                    (SUPPORT_MOVE, mover, dest)
                    for mover, dest in planned
                    if dest in reach and mover != prov
                )
            )
            if not options:
                options = [(MOVE, d) for d in adjacent if target[loc_province[d]]]
            if not options and two_step:
                options = [
                    (MOVE, d)
                    for d in adjacent
                    if any(target[q] for q in m.reach(utype, d) if q != prov)
                ]
            if not options:
                options = [HOLD_ORDER, *((MOVE, d) for d in adjacent)]
        for order in options:
            if order[0] == MOVE and target[loc_province[order[1]]]:
                planned.append((prov, loc_province[order[1]]))
        out.append((prov, options))
    return out


def heuristic_orders(pos: Position, power: int, rng: Random, *, two_step: bool = False) -> Orders:
    """V2's (or V3's) rollout orders: :func:`possible_orders`' rules, one random pick per unit.

    Units are taken in a random order; a unit supports a move another unit
    has already been given into a target it borders.
    """
    m = pos.map
    units = pos.units
    loc_province = m.loc_province
    target = _targets(pos, power)
    ours = pos.units_of(power)
    rng.shuffle(ours)
    moving: list[tuple[int, int]] = []
    orders: Orders = {}
    for prov in ours:
        _, utype, loc = units[prov]
        if m.is_supply[prov] and pos.owners[prov] != power:
            orders[prov] = HOLD_ORDER
            continue
        reach = m.reach(utype, loc)
        supports = [(mover, dest) for mover, dest in moving if dest in reach]
        if supports:
            mover, dest = rng.choice(supports)
            orders[prov] = (SUPPORT_MOVE, mover, dest)
            continue
        adjacent = m.adjacent(utype, loc)
        moves = [d for d in adjacent if target[loc_province[d]]]
        if not moves and two_step:
            moves = [d for d in adjacent if any(target[q] for q in m.reach(utype, d) if q != prov)]
        if moves:
            dest_loc = rng.choice(moves)
            orders[prov] = (MOVE, dest_loc)
            if target[loc_province[dest_loc]]:
                moving.append((prov, loc_province[dest_loc]))
            continue
        k = rng.randrange(len(adjacent) + 1)
        orders[prov] = HOLD_ORDER if k == len(adjacent) else (MOVE, adjacent[k])
    return orders


def _foreign_centres_next_to(pos: Position, prov: int) -> list[int]:
    """Adjacent locations (of the unit in ``prov``) in centres its power does not own."""
    m = pos.map
    power, utype, loc = pos.units[prov]
    owners = pos.owners
    is_supply = m.is_supply
    loc_province = m.loc_province
    return [
        d
        for d in m.adjacent(utype, loc)
        if is_supply[loc_province[d]] and owners[loc_province[d]] != power
    ]


def expected_orders(pos: Position, power: int, rng: Random) -> Orders:
    """``CalculateEnemyExpectedOrders``: into an adjacent foreign centre, else hold."""
    orders: Orders = {}
    for prov in pos.units_of(power):
        centres = _foreign_centres_next_to(pos, prov)
        orders[prov] = (MOVE, rng.choice(centres)) if centres else HOLD_ORDER
    return orders


def greedy_else_random_orders(pos: Position, power: int, rng: Random) -> Orders:
    """V4's rollout opponent: into an adjacent foreign centre, else a random move or hold."""
    m = pos.map
    orders: Orders = {}
    for prov in pos.units_of(power):
        centres = _foreign_centres_next_to(pos, prov)
        if centres:
            orders[prov] = (MOVE, rng.choice(centres))
            continue
        _, utype, loc = pos.units[prov]
        adjacent = m.adjacent(utype, loc)
        k = rng.randrange(len(adjacent) + 1)
        orders[prov] = HOLD_ORDER if k == len(adjacent) else (MOVE, adjacent[k])
    return orders


def weight_greedy_orders(
    pos: Position, power: int, rng: Random, weights: RegionWeights | None = None
) -> Orders:
    """V7's rollout orders: each unit (in random order) to its best-weighted free region.

    A region another of our units already ends in is skipped; holding counts
    as ending in the unit's own region.
    """
    m = pos.map
    w = weights if weights is not None else RegionWeights(pos, power)
    loc_province = m.loc_province
    ours = pos.units_of(power)
    rng.shuffle(ours)
    claimed: set[int] = set()
    orders: Orders = {}
    for prov in ours:
        _, utype, loc = pos.units[prov]
        best: EngineOrder | None = None
        best_weight = 0.0
        for order in (HOLD_ORDER, *((MOVE, d) for d in m.adjacent(utype, loc))):
            dest = prov if order[0] != MOVE else loc_province[order[1]]
            if dest in claimed:
                continue
            value = w.order_value(prov, order)
            if best is None or value > best_weight:
                best, best_weight = order, value
        order = best if best is not None else HOLD_ORDER
        claimed.add(prov if order[0] != MOVE else loc_province[order[1]])
        orders[prov] = order
    return orders
