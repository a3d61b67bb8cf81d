"""Experiment: a one-phase equilibrium search (regret matching over sampled order sets).

Every power alive gets a few candidate order sets (ours: ``dm``'s candidates; the
others': distinct DumbBot draws and all holds).  Regret matching+ runs over the joint
candidates: at each iteration every power's strategy is sampled, and each power's
every candidate is valued by one compiled rollout against the others' samples (each
power's reward: its centres over the winning count, 1 for its solo, 0 for another's).
Our answer is the candidate with the best mean value against the enemies' strategies
as they were played, a best response to their equilibrium rather than to DumbBot.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from random import Random
from typing import Any

from adjudicator.legal import complete_with_holds
from adjudicator.movement import next_position
from adjudicator.orders import Orders
from adjudicator.position import Position
from search.compiled_search import rollout_kernel
from search.tables import DEFAULT_WEIGHTS

OUR_CANDIDATES = 16
ENEMY_DRAWS = 10
ENEMY_CANDIDATES = 6
ROLLOUT_YEARS = 2


def _candidates_ours(pos: Position, us: int, rng: Random) -> list[Orders]:
    from search.mcts.variants import get_variant

    source = get_variant("dm").actions.source(pos, us, rng)
    out: list[Orders] = []
    while len(out) < OUR_CANDIDATES:
        action = source.next(rng)
        if action is None:
            break
        out.append(complete_with_holds(pos, us, dict(action)))
    return out


def _candidates_enemy(kernel: Any, pos: Position, p: int, rng: Random) -> list[Orders]:
    seen: dict[tuple[Any, ...], Orders] = {}
    for _ in range(ENEMY_DRAWS):
        orders = complete_with_holds(pos, p, kernel.movement_orders(pos, p, rng))
        seen.setdefault(tuple(sorted(orders.items())), orders)
        if len(seen) >= ENEMY_CANDIDATES - 1:
            break
    holds = complete_with_holds(pos, p, {})
    seen.setdefault(tuple(sorted(holds.items())), holds)
    return list(seen.values())


def rm_search(
    pos: Position,
    us: int,
    final_year: int,
    rng: Random,
    out_of_time: Callable[[], bool],
    iterations: int | None = None,
) -> tuple[Orders | None, dict[str, Any]]:
    """Our orders from regret matching over every power's candidates, and statistics."""
    began = time.monotonic()
    kernel = rollout_kernel(DEFAULT_WEIGHTS, pos)
    if kernel is None:
        return None, {}
    powers = sorted({u[0] for u in pos.units.values()})
    if us not in powers:
        return None, {}
    cands: dict[int, list[Orders]] = {}
    for p in powers:
        cands[p] = _candidates_ours(pos, us, rng) if p == us else _candidates_enemy(kernel, pos, p, rng)
    if not cands[us]:
        return None, {}
    win = pos.map.win_centres
    horizon = min(final_year, pos.year + ROLLOUT_YEARS - 1)
    regrets = {p: [0.0] * len(cands[p]) for p in powers}
    ours_total = [0.0] * len(cands[us])
    rollouts = 0
    t = 0

    def strategy(p: int) -> list[float]:
        r = regrets[p]
        s = sum(r)
        n = len(r)
        return [x / s for x in r] if s > 0 else [1.0 / n] * n

    def value(joint: dict[int, Orders], p: int) -> float:
        orders: Orders = {}
        for o in joint.values():
            orders.update(o)
        nxt = next_position(pos, orders)
        end = kernel.play_out(nxt, rng, p, horizon, final_year, win)
        counts = end.centre_counts()
        best = max(range(len(counts)), key=counts.__getitem__)
        if counts[best] >= win:
            return 1.0 if best == p else 0.0
        return min(1.0, counts[p] / win)

    while True:
        if iterations is not None and t >= iterations:
            break
        if iterations is None and t > 0 and out_of_time():
            break
        t += 1
        sigma = {p: strategy(p) for p in powers}
        sampled = {
            p: cands[p][rng.choices(range(len(cands[p])), weights=sigma[p])[0]] for p in powers
        }
        for p in powers:
            if len(cands[p]) == 1:
                continue
            values = []
            for alt in cands[p]:
                joint = dict(sampled)
                joint[p] = alt
                values.append(value(joint, p))
                rollouts += 1
            base = sum(s * v for s, v in zip(sigma[p], values))
            r = regrets[p]
            for j, v in enumerate(values):
                r[j] = max(0.0, r[j] + v - base)
            if p == us:
                for j, v in enumerate(values):
                    ours_total[j] += v
        if out_of_time():
            break
    best = max(range(len(cands[us])), key=lambda j: ours_total[j])
    stats = {
        "variant": "rm",
        "iterations": t,
        "rollouts": rollouts,
        "candidates": {str(p): len(c) for p, c in cands.items()},
        "elapsed": round(time.monotonic() - began, 4),
    }
    return cands[us][best], stats
