"""Our builds and removals chosen by rollouts: a flat search over the winter's order sets.

The candidates are every way of placing the builds due on free home centres (one per
province, each with its unit type and coast) or of choosing the units to remove, best
first by DumbBot's values and capped at :data:`MAX_CANDIDATES`.  Each is valued by
compiled rollouts from the winter with our orders already applied (our units placed or
removed, so the rollout's own adjustments order only the other powers', by DumbBot),
chosen among by UCB1 until the deadline; the most visited wins.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from random import Random

from adjudicator.orders import BUILD, REMOVE, WAIVE_ORDER, EngineOrder
from adjudicator.position import Position
from search.compiled_search import rollout_kernel
from search.dumbbot import build_nodes
from search.dumbbot_values import dumbbot_values
from search.heuristics import best_builds, worst_removals
from search.tables import DEFAULT_WEIGHTS, DumbBotWeights

MAX_CANDIDATES = 48
"""Most order sets one winter search compares."""

EXPLORATION = 0.3
"""UCB1's exploration constant on rewards in [0, 1]."""

ROLLOUT_YEARS = 2
"""Years a rollout plays after the winter (to the second winter after it)."""


def build_candidates(
    pos: Position, power: int, due: int, weights: DumbBotWeights = DEFAULT_WEIGHTS
) -> list[list[EngineOrder]]:
    """Every placement of ``due`` builds (fewer if fewer homes are free), best first."""
    values = dumbbot_values(pos, power, weights)
    tables = values.tables
    by_prov: dict[int, list[tuple[float, EngineOrder]]] = {}
    for node in build_nodes(pos, power):
        order = (BUILD, tables.node_type[node], tables.node_loc[node])
        by_prov.setdefault(tables.node_prov[node], []).append((values.node_value(node), order))
    count = min(due, len(by_prov))
    scored: list[tuple[float, list[EngineOrder]]] = []
    for provs in itertools.combinations(sorted(by_prov), count):
        for choice in itertools.product(*(by_prov[p] for p in provs)):
            orders = [o for _, o in choice] + [WAIVE_ORDER] * (due - count)
            scored.append((sum(v for v, _ in choice), orders))
    scored.sort(key=lambda item: -item[0])
    return [orders for _, orders in scored[:MAX_CANDIDATES]]


def removal_candidates(
    pos: Position, power: int, count: int, weights: DumbBotWeights = DEFAULT_WEIGHTS
) -> list[list[EngineOrder]]:
    """Every choice of ``count`` of our units to remove, the least valuable first."""
    values = dumbbot_values(pos, power, weights, removing=True)
    units = pos.units
    ours = [(values.value(units[p][1], units[p][2]), p) for p in pos.units_of(power)]
    scored = [
        (sum(v for v, _ in chosen), [(REMOVE, p) for _, p in chosen])
        for chosen in itertools.combinations(ours, min(count, len(ours)))
    ]
    scored.sort(key=lambda item: item[0])
    return [orders for _, orders in scored[:MAX_CANDIDATES]]


def applied(pos: Position, power: int, orders: list[EngineOrder]) -> Position:
    """``pos`` (still the winter) with our builds placed and removals made."""
    nxt = pos.copy()
    loc_province = pos.map.loc_province
    for order in orders:
        if order[0] == BUILD:
            nxt.units[loc_province[order[2]]] = (power, order[1], order[2])
        elif order[0] == REMOVE:
            del nxt.units[order[1]]
    return nxt


def searched_adjustments(
    pos: Position,
    power: int,
    rng: Random,
    final_year: int,
    out_of_time: Callable[[], bool],
    weights: DumbBotWeights = DEFAULT_WEIGHTS,
) -> list[EngineOrder] | None:
    """The most visited winter order set after UCB1 over rollouts, or None to use the heuristic."""
    due = pos.adjustments()[power]
    if due == 0:
        return []
    if due > 0:
        cands = build_candidates(pos, power, due, weights)
    else:
        cands = removal_candidates(pos, power, -due, weights)
    fast = rollout_kernel(weights, pos)
    if len(cands) < 2 or fast is None or pos.year >= final_year:
        return None
    starts = [applied(pos, power, c) for c in cands]
    horizon = min(final_year, pos.year + ROLLOUT_YEARS)
    win = pos.map.win_centres
    visits = [0] * len(cands)
    totals = [0.0] * len(cands)
    n = 0
    while True:
        if n < len(cands):
            i = n
        else:
            if out_of_time():
                break
            log_n = math.log(n)
            i = max(
                range(len(cands)),
                key=lambda j: totals[j] / visits[j] + EXPLORATION * math.sqrt(log_n / visits[j]),
            )
        totals[i] += fast.play_out_reward(starts[i], rng, power, horizon, final_year, win, 0, 1)
        visits[i] += 1
        n += 1
    best = max(range(len(cands)), key=lambda j: (visits[j], totals[j]))
    return cands[best]


def heuristic_adjustments(pos: Position, power: int) -> list[EngineOrder]:
    """The product's deterministic builds or removals (the fallback)."""
    due = pos.adjustments()[power]
    if due > 0:
        return best_builds(pos, power, due)
    if due < 0:
        return worst_removals(pos, power, -due)
    return []
