"""Search speed: ``daide-mcts bench search``.

For each variant asked for (default: ours and the thesis's V8; a variant may
carry overrides, ``dm/model=policy:enemies``) and each of two
positions — the opening (Spring 1901) and a mid-game position (Spring 1904
after seven DumbBots, :func:`bot.lab.bench.bench_heuristics.sample_positions`) — it
prints, as the median of ``--repeats`` runs of ``--seconds`` each:

* rollouts per second: the variant's simulation alone, from that position;
* MCTS iterations per second with one worker, and how many of those
  iterations ran a simulation (an iteration that reaches a leaf in the final
  year only scores it: the thesis's weight-pruned trees are complete to the
  final year within seconds, after which almost no iteration simulates);
* MCTS iterations per second with two workers (this process and one helper
  process, root statistics merged: the iterations of both trees count).

With ``--cpu-clock`` the one-worker figures are per second of this process's
CPU time (the runs last ``--seconds`` of it), which other work on a shared
machine disturbs far less than wall time; the two-worker figure stays on the
wall clock.  The first line says whether the compiled hot paths ran (see
:mod:`adjudicator.compiled_rules`; ``DAIDE_MCTS_PURE_PYTHON=1`` times pure Python).

The searching power is France in both positions.  Figures only; the tests
never assert timings.  Record them in BENCHMARKS.md with the command.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from random import Random

from adjudicator import compiled_rules as speedups
from adjudicator.position import Position
from bot.lab.bench.bench_heuristics import sample_positions
from bot.lab.bench.recorded_positions import RecordedGameError, recorded_positions
from search.compiled_search import COMPILED as fastbot
from search.generator import SearchRandom
from search.mcts.domain import DiplomacyDomain
from search.mcts.parallel import RootParallel, collector_paused
from search.mcts.player import think
from search.mcts.tree import horizon
from search.mcts.variants import VARIANTS, VariantError, get_variant

FINAL_YEAR = 1905
"""The standard game's last year; on a recorded game's map, its first year + 4."""

YEARS_SEARCHED = FINAL_YEAR - 1901
"""Years from the first one to the final year the search looks ahead to."""


def rollouts_per_second(
    pos: Position,
    power: int,
    variant: str,
    seconds: float,
    clock: Callable[[], float] = time.monotonic,
    final_year: int = FINAL_YEAR,
) -> float:
    """How many of ``variant``'s rollouts from ``pos`` run in a second of ``clock``.

    The cyclic garbage collector is paused, as in a search (see :func:`search_within
    <search.mcts.player.search_within>`).
    """
    v = get_variant(variant)
    domain = DiplomacyDomain(v, power, horizon(pos, v, final_year), pos.map.num_powers)
    rng = SearchRandom(0)
    count = 0
    with collector_paused():
        began = clock()
        until = began + seconds
        while clock() < until:
            domain.rollout(pos, rng)
            count += 1
        return count / (clock() - began)


def search_rates(
    pos: Position,
    power: int,
    variant: str,
    seconds: float,
    parallel: RootParallel | None,
    clock: Callable[[], float] = time.monotonic,
    final_year: int = FINAL_YEAR,
) -> tuple[float, float]:
    """Iterations and simulations per second of ``clock``.

    With ``parallel``, the iterations of all trees count (its helpers need the
    wall clock); the simulations are this tree's.
    """
    began = clock()
    _, stats = think(
        pos,
        power,
        get_variant(variant),
        final_year,
        Random(1),
        deadline=began + seconds,
        parallel=parallel,
        clock=clock,
    )
    elapsed = clock() - began
    done = stats.get("merged_iterations", stats["iterations"])
    return float(done) / elapsed, float(stats["rollouts"]) / elapsed


VARIANT_COLUMN = 8
"""The variant column's narrowest width."""


def _known(variant: str) -> bool:
    """Whether ``variant`` names a variant (with any overrides) that can be played."""
    try:
        get_variant(variant)
    except VariantError:
        return False
    return True


def _median(fn: Callable[[], float], repeats: int) -> float:
    return statistics.median(fn() for _ in range(repeats))


def _medians(fn: Callable[[], tuple[float, float]], repeats: int) -> tuple[float, float]:
    first, second = zip(*(fn() for _ in range(repeats)), strict=True)
    return statistics.median(first), statistics.median(second)


def main(argv: Sequence[str] | None = None) -> int:
    """Print the figures (the ``bench`` command's entry-point convention)."""
    parser = argparse.ArgumentParser(prog="daide-mcts bench search", description=__doc__)
    parser.add_argument(
        "--variants",
        default="dm,v8",
        help="comma-separated variants, overrides allowed: dm/model=policy:enemies (default dm,v8)",
    )
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds per timed run")
    parser.add_argument("--repeats", type=int, default=3, help="timed runs per figure")
    parser.add_argument(
        "--cpu-clock",
        action="store_true",
        help="time the one-worker figures in CPU seconds of this process (not wall seconds)",
    )
    parser.add_argument(
        "--game",
        type=Path,
        metavar="RUN_FOLDER",
        help="search from a recorded game's opening and fourth spring, on its map "
        "(e.g. a game played with --map world3); default: the standard map",
    )
    parser.add_argument(
        "--power", help="the searching power (default FRA, or the game's first power)"
    )
    args = parser.parse_args(argv)
    variants = [v.strip().lower() for v in args.variants.split(",") if v.strip()]
    unknown = [v for v in variants if not _known(v)]
    if unknown or not variants or args.seconds <= 0 or args.repeats < 1:
        parser.error(
            f"choose variants among {', '.join(VARIANTS)} (with /key=value overrides); "
            "seconds > 0; repeats >= 1"
        )
    width = max(VARIANT_COLUMN, *(len(v) for v in variants))
    if args.game is None:
        positions = sample_positions(0)
    else:
        try:
            positions = recorded_positions(args.game)
        except RecordedGameError as exc:
            parser.error(str(exc))
    start = next(iter(positions.values()))
    game_map = start.map
    name = (args.power or ("FRA" if args.game is None else game_map.powers[0])).upper()
    if name not in game_map.power_index:
        parser.error(f"--power: {name} is not a power of the map ({', '.join(game_map.powers)})")
    power = game_map.power_index[name]
    final_year = start.year + YEARS_SEARCHED
    clock = time.process_time if args.cpu_clock else time.monotonic
    unit = "CPU s" if args.cpu_clock else "s"
    compiled = speedups.enabled() and speedups.MOVEMENT is not None and fastbot is not None
    print(
        f"{args.seconds:g} {unit} per run, median of {args.repeats}; {name} searching on "
        f"{args.game or 'the standard map'} ({game_map.num_powers} powers, "
        f"{len(game_map.supply_centres)} centres); "
        f"hot paths {'compiled' if compiled else 'in pure Python'}"
        + ("; 1w figures per CPU second, 2w per wall second" if args.cpu_clock else "")
    )
    print(
        f"{'variant':{width}} {'position':22} {'rollouts/s':>11} {'iter/s 1w':>10}"
        f" {'sims/s 1w':>10} {'iter/s 2w':>10}"
    )
    parallel = RootParallel(1)
    try:
        for variant in variants:
            for label, pos in positions.items():
                given = (pos, power, variant, args.seconds)
                rollouts = _median(
                    partial(rollouts_per_second, *given, clock, final_year), args.repeats
                )
                one, sims = _medians(
                    partial(search_rates, *given, None, clock, final_year), args.repeats
                )
                two, _ = _medians(
                    partial(search_rates, *given, parallel, final_year=final_year), args.repeats
                )
                print(
                    f"{variant:{width}} {label:22} {rollouts:11.1f} {one:10.1f}"
                    f" {sims:10.1f} {two:10.1f}"
                )
    finally:
        parallel.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
