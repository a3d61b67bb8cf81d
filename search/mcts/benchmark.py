"""Search speed: ``daide-mcts bench search``.

For each variant asked for (default: ours and the thesis's V8) and each of two
positions — the opening (Spring 1901) and a mid-game position (Spring 1904
after seven DumbBots, :func:`search.bench_heuristics.sample_positions`) — it
prints, as the median of ``--repeats`` runs of ``--seconds`` each:

* rollouts per second: the variant's simulation alone, from that position;
* MCTS iterations per second with one worker, and how many of those
  iterations ran a simulation (an iteration that reaches a leaf in the final
  year only scores it: the thesis's weight-pruned trees are complete to the
  final year within seconds, after which almost no iteration simulates);
* MCTS iterations per second with two workers (this process and one helper
  process, root statistics merged: the iterations of both trees count).

The searching power is France in both positions.  Figures only; the tests
never assert timings.  Record them in BENCHMARKS.md with the command.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable, Sequence
from functools import partial
from random import Random

from adjudicator.position import Position
from search.bench_heuristics import sample_positions
from search.mcts.domain import make_domain
from search.mcts.parallel import RootParallel
from search.mcts.player import horizon, think
from search.mcts.variants import VARIANTS, get_variant

FINAL_YEAR = 1905


def rollouts_per_second(pos: Position, power: int, variant: str, seconds: float) -> float:
    """How many of ``variant``'s rollouts from ``pos`` run in a second."""
    v = get_variant(variant)
    domain = make_domain(v, power, horizon(pos, v, FINAL_YEAR), pos.map.num_powers)
    rng = Random(0)
    count = 0
    began = time.monotonic()
    until = began + seconds
    while time.monotonic() < until:
        domain.rollout(pos, rng)
        count += 1
    return count / (time.monotonic() - began)


def search_rates(
    pos: Position, power: int, variant: str, seconds: float, parallel: RootParallel | None
) -> tuple[float, float]:
    """Iterations per second (all trees', with ``parallel``'s helpers); this tree's simulations."""
    began = time.monotonic()
    _, stats = think(
        pos,
        power,
        get_variant(variant),
        FINAL_YEAR,
        Random(1),
        deadline=began + seconds,
        parallel=parallel,
    )
    elapsed = time.monotonic() - began
    done = stats.get("merged_iterations", stats["iterations"])
    return float(done) / elapsed, float(stats["rollouts"]) / elapsed


def _median(fn: Callable[[], float], repeats: int) -> float:
    return statistics.median(fn() for _ in range(repeats))


def _medians(fn: Callable[[], tuple[float, float]], repeats: int) -> tuple[float, float]:
    first, second = zip(*(fn() for _ in range(repeats)), strict=True)
    return statistics.median(first), statistics.median(second)


def main(argv: Sequence[str] | None = None) -> int:
    """Print the figures (the ``bench`` command's entry-point convention)."""
    parser = argparse.ArgumentParser(prog="daide-mcts bench search", description=__doc__)
    parser.add_argument(
        "--variants", default="dm,v8", help="comma-separated variants (default dm,v8)"
    )
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds per timed run")
    parser.add_argument("--repeats", type=int, default=3, help="timed runs per figure")
    args = parser.parse_args(argv)
    variants = [v.strip().lower() for v in args.variants.split(",") if v.strip()]
    unknown = [v for v in variants if v not in VARIANTS]
    if unknown or not variants or args.seconds <= 0 or args.repeats < 1:
        parser.error(f"choose variants among {', '.join(VARIANTS)}; seconds > 0; repeats >= 1")
    positions = sample_positions(0)
    power = next(iter(positions.values())).map.power_index["FRA"]
    print(f"{args.seconds:g} s per run, median of {args.repeats}; France searching")
    print(
        f"{'variant':8} {'position':22} {'rollouts/s':>11} {'iter/s 1w':>10} {'sims/s 1w':>10}"
        f" {'iter/s 2w':>10}"
    )
    parallel = RootParallel(1)
    try:
        for variant in variants:
            for label, pos in positions.items():
                given = (pos, power, variant, args.seconds)
                rollouts = _median(partial(rollouts_per_second, *given), args.repeats)
                one, sims = _medians(partial(search_rates, *given, None), args.repeats)
                two, _ = _medians(partial(search_rates, *given, parallel), args.repeats)
                print(
                    f"{variant:8} {label:22} {rollouts:11.1f} {one:10.1f} {sims:10.1f} {two:10.1f}"
                )
    finally:
        parallel.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
