"""Speed figures for the heuristic players: ``python -m bot.lab.bench.bench_heuristics``.

Prints milliseconds per movement call of DumbBot and RandomBot from the
opening and from a mid-game position (seven DumbBots play from 1901 to spring
1904).  DumbBot is timed *cold*, valuing the board from scratch at every call
(as in a rollout's fresh positions: the pure-Python proximity memo off, the
compiled code's shared valuation dropped before each call), and *warm*, calling
again on the position it has seen (as a search does at its root, and as the
seven powers of one phase do); first its pure-Python code, then its compiled
twin (``search/_fastbot.pyx``), unless that was not built or
``DAIDE_MCTS_PURE_PYTHON`` is set.  Figures only; the tests never assert timings.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from random import Random

from adjudicator import compiled_rules as speedups
from adjudicator.maps import standard_map
from adjudicator.orders import Orders
from adjudicator.position import SPRING, Position, initial_position
from search.compiled_search import COMPILED, compiled_map, kernel
from search.dumbbot import DumbBot
from search.dumbbot_values import PROXIMITY_CACHE
from search.policy import Policy
from search.randombot import RandomBot
from search.simulate import play_phase
from search.tables import tables_for


def sample_positions(seed: int = 0) -> dict[str, Position]:
    """The opening and a mid-game position (SPR 1904 after seven DumbBots from ``seed``)."""
    m = standard_map()
    start = initial_position(m)
    rng = Random(seed)
    mid = start
    bots = [DumbBot()] * m.num_powers
    while not (mid.year == 1904 and mid.season == SPRING):
        mid = play_phase(mid, bots, rng)
    return {"start (SPR 1901)": start, "mid-game (SPR 1904)": mid}


def ms_per_call(policy: Policy, pos: Position, calls: int, rng: Random, repeats: int = 5) -> float:
    """Milliseconds per ``policy.movement_orders`` call cycling through the powers present.

    The best of ``repeats`` runs of ``calls`` calls (the timeit habit: other
    load on the machine only ever adds time).
    """
    powers = sorted({u[0] for u in pos.units.values()})
    best = float("inf")
    for _ in range(repeats):
        began = time.perf_counter()
        for i in range(calls):
            policy.movement_orders(pos, powers[i % len(powers)], rng)
        best = min(best, (time.perf_counter() - began) * 1000 / calls)
    return best


class _Forgetful(DumbBot):
    """DumbBot whose compiled code forgets the board it valued last before every call."""

    def movement_orders(self, pos: Position, power: int, rng: Random) -> Orders:
        """DumbBot's orders, valued from scratch."""
        assert COMPILED is not None  # timed only where the compiled twin runs
        COMPILED.forget(compiled_map(tables_for(pos.map)))
        return super().movement_orders(pos, power, rng)


def dumbbot_speed(calls: int = 350, seed: int = 0) -> dict[str, float]:
    """DumbBot's ms per movement call: ``{"<position> cold|warm [compiled]": ms}``.

    The compiled figures are there when the compiled twin runs.
    """
    rng = Random(seed)
    bot = DumbBot()
    figures: dict[str, float] = {}
    saved = PROXIMITY_CACHE.limit
    compiled = kernel(tables_for(standard_map()), bot.weights) is not None
    try:
        for label, pos in sample_positions(seed).items():
            with speedups.pure_python():
                PROXIMITY_CACHE.clear()
                PROXIMITY_CACHE.limit = 0
                figures[f"{label} cold"] = ms_per_call(bot, pos, calls, rng)
                PROXIMITY_CACHE.limit = saved
                figures[f"{label} warm"] = ms_per_call(bot, pos, calls, rng)
            if compiled:
                figures[f"{label} cold compiled"] = ms_per_call(_Forgetful(), pos, calls, rng)
                figures[f"{label} warm compiled"] = ms_per_call(bot, pos, calls, rng)
    finally:
        PROXIMITY_CACHE.limit = saved
        PROXIMITY_CACHE.clear()
    return figures


def randombot_speed(calls: int = 350, seed: int = 0) -> dict[str, float]:
    """RandomBot's ms per movement call on the same sample positions."""
    rng = Random(seed)
    bot = RandomBot()
    return {
        label: ms_per_call(bot, pos, calls, rng) for label, pos in sample_positions(seed).items()
    }


def main(argv: Sequence[str] | None = None) -> int:
    """Print the figures (the ``bench`` command's entry-point convention)."""
    parser = argparse.ArgumentParser(prog="bench_heuristics", description=__doc__)
    parser.add_argument("--calls", type=int, default=350, help="calls per timed run")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    for label, ms in dumbbot_speed(args.calls, args.seed).items():
        print(f"dumbbot   {label:<34} {ms:8.4f} ms/call")
    for label, ms in randombot_speed(args.calls, args.seed).items():
        print(f"randombot {label:<34} {ms:8.4f} ms/call")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
