"""Do the coach's grades mean something?  ``daide-mcts bench grades``.

Issue 48's measure of :mod:`search.grading`: games are played in-process
(:func:`bot.lab.arena.arena_games.play_game`, ``--search`` seats of our search capped
at ``--search-iterations`` and DumbBots in the others, the seats dealt at random
each game); at every movement phase each power's set is graded against the search's
choice from the same position (:func:`search.grading.grade_phase`, ``--rollouts``
pairs, the search capped at ``--iterations``).  Then both sets are **replayed**
from that position with the opponents' orders as they were played, ``--replays``
times each (common random numbers, seeds apart from the grade's), to the next
winter with the search's rollout policy, and the centres the graded set loses
against the search's choice are noted.

The report, per label: how many sets, their mean estimated loss, and the mean
centres lost on replay with its 95% interval.  The issue's target: at least 300
phases; a "blunder" loses at least one centre more than the bot's choice on
average, a "good" less than a tenth.  Then the mean replay loss by bins of the
estimated loss (what the thresholds of :mod:`search.grading` are calibrated on; do
it on games of one seed and report on another's), and the grading time per phase
(the search's choice and the rollouts, CPU seconds of this process).

Figures only; the tests never assert them.  Record them in BENCHMARKS.md with the
command.
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import json
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from random import Random

from adjudicator.legal import complete_with_holds
from adjudicator.maps import standard_map
from adjudicator.orders import Orders
from adjudicator.position import Position
from bot.lab.arena.arena_games import play_game
from bot.measure.student_t import t95
from search.dumbbot import DumbBot
from search.grading import (
    DEFAULT_ITERATIONS,
    DEFAULT_ROLLOUTS,
    LABELS,
    GradingSettings,
    centres_after,
    grade_phase,
    matters,
)
from search.mcts.player import MctsPlayer
from search.mcts.variants import DM
from search.policy import Policy

DEFAULT_GAMES = 6
"""Games played unless told otherwise: about 400 graded sets to 1905."""

DEFAULT_FINAL_YEAR = 1905
"""The games' last year."""

DEFAULT_SEARCH_SEATS = 2
"""Seats of our search in each game (the others are DumbBots)."""

DEFAULT_SEARCH_ITERATIONS = 1000
"""The iteration cap of the search seats' moves."""

DEFAULT_REPLAYS = 16
"""Replays of each pair of sets with the opponents' actual orders."""

LOSS_BINS = (-99.0, 0.1, 0.25, 0.35, 0.5, 0.75, 1.0, 1.25, 1.5, 2.0, 99.0)
"""Edges of the estimated-loss bins the calibration table shows."""

TARGET_PHASES = 300
"""The issue's least number of graded phases."""


@dataclass(frozen=True)
class GradedSet:
    """One power's set in one recorded phase: its grade and what the replays say."""

    game: int
    turn: str
    power: str
    player: str
    label: str
    estimated_loss: float
    low: float
    high: float
    replay_loss: float
    seconds: float
    same_as_bot: bool


def record_phases(
    games: int, final_year: int, search_seats: int, search_iterations: int, seed: int
) -> list[tuple[int, Position, Orders, dict[int, str]]]:
    """Every movement phase of ``games`` games: ``(game, position, orders, player by power)``."""
    m = standard_map()
    search = MctsPlayer(DM, budget=None, iterations=search_iterations, final_year=final_year)
    dumbbot = DumbBot()
    seats: list[Policy] = [search] * search_seats + [dumbbot] * (m.num_powers - search_seats)
    names = ["search"] * search_seats + ["dumbbot"] * (m.num_powers - search_seats)
    phases: list[tuple[int, Position, Orders, dict[int, str]]] = []
    for index in range(games):
        rng = Random(f"grades:{seed}:{index}")
        powers = rng.sample(range(m.num_powers), m.num_powers)
        players = dict(zip(powers, names, strict=True))

        def keep(
            pos: Position, orders: Orders, game: int = index, by: dict[int, str] = players
        ) -> None:
            phases.append((game, pos, dict(orders), by))

        play_game(seats, powers, final_year, rng, index=index, game_map=m, on_orders=keep)
    return phases


def grade_phases(
    phases: Sequence[tuple[int, Position, Orders, dict[int, str]]],
    settings: GradingSettings,
    replays: int,
    final_year: int,
    seed: int,
) -> list[GradedSet]:
    """Every power's set of every phase graded, then replayed against the opponents' orders."""
    replay_settings = dataclasses.replace(settings, rollouts=replays)
    out: list[GradedSet] = []
    for game, pos, orders, players in phases:
        for power in range(pos.map.num_powers):
            if not matters(pos, power):
                continue
            ours = complete_with_holds(pos, power, orders)
            others = {p: o for p, o in orders.items() if p not in ours}
            began = time.process_time()
            graded = grade_phase(pos, power, ours, seed + game, settings, final_year)
            seconds = time.process_time() - began
            replay_seed = Random(f"replay:{seed}:{game}:{pos.turn}:{power}").getrandbits(62)
            replayed = centres_after(
                pos,
                power,
                [graded.submitted, graded.reference],
                replay_seed,
                replay_settings,
                final_year,
                others=others,
            )
            g = graded.grade
            out.append(
                GradedSet(
                    game=game,
                    turn=g.turn,
                    power=g.power,
                    player=players[power],
                    label=g.label,
                    estimated_loss=g.loss,
                    low=g.low,
                    high=g.high,
                    replay_loss=statistics.fmean(ref - sub for sub, ref in replayed),
                    seconds=seconds,
                    same_as_bot=graded.submitted == graded.reference,
                )
            )
    return out


def _interval(values: Sequence[float]) -> str:
    if not values:
        return "-"
    mean = statistics.fmean(values)
    if len(values) < 2:
        return f"{mean:+.3f}"
    half = t95(len(values) - 1) * statistics.stdev(values) / len(values) ** 0.5
    return f"{mean:+.3f} ± {half:.3f}"


def report(sets: Sequence[GradedSet]) -> str:
    """The figures: replay loss by label, by estimated-loss bin, and the grading time."""
    lines = [
        f"{len(sets)} graded sets ({sum(s.same_as_bot for s in sets)} the same as the bot's"
        f" choice); issue's target: >= {TARGET_PHASES}",
        "",
        f"{'label':<11} {'sets':>5} {'estimated':>10}  replay loss (95%)",
    ]
    for label in LABELS:
        chosen = [s for s in sets if s.label == label]
        est = f"{statistics.fmean(s.estimated_loss for s in chosen):+.3f}" if chosen else "-"
        replay = _interval([s.replay_loss for s in chosen])
        lines.append(f"{label:<11} {len(chosen):>5} {est:>10}  {replay}")
    lines += ["", f"{'estimated loss':<16} {'sets':>5}  replay loss (95%)"]
    for low, high in itertools.pairwise(LOSS_BINS):
        chosen = [s for s in sets if low <= s.estimated_loss < high]
        name = f"[{max(low, -9):.2f}, {min(high, 9):.2f})"
        lines.append(f"{name:<16} {len(chosen):>5}  {_interval([s.replay_loss for s in chosen])}")
    for player in sorted({s.player for s in sets}):
        chosen = [s for s in sets if s.player == player]
        labels = ", ".join(f"{lab} {sum(s.label == lab for s in chosen)}" for lab in LABELS)
        lines.append(f"\n{player}'s sets: {len(chosen)} ({labels})")
    seconds = sorted(s.seconds for s in sets)
    if seconds:
        lines.append(
            f"\ngrading time per phase (CPU s): mean {statistics.fmean(seconds):.3f},"
            f" median {statistics.median(seconds):.3f}, max {seconds[-1]:.3f}"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Print the figures (the ``bench`` command's entry-point convention)."""
    parser = argparse.ArgumentParser(prog="daide-mcts bench grades", description=__doc__)
    parser.add_argument("--games", type=int, default=DEFAULT_GAMES, help="games to play")
    parser.add_argument("--final-year", type=int, default=DEFAULT_FINAL_YEAR)
    parser.add_argument("--search", type=int, default=DEFAULT_SEARCH_SEATS, help="search seats")
    parser.add_argument(
        "--search-iterations",
        type=int,
        default=DEFAULT_SEARCH_ITERATIONS,
        help="iteration cap of the search seats' moves",
    )
    parser.add_argument("--rollouts", type=int, default=DEFAULT_ROLLOUTS, help="per grade")
    parser.add_argument(
        "--iterations", type=int, default=DEFAULT_ITERATIONS, help="the bot's choice's cap"
    )
    parser.add_argument("--replays", type=int, default=DEFAULT_REPLAYS, help="per graded set")
    parser.add_argument("--seed", type=int, default=0, help="seed of the games and grades")
    parser.add_argument("--json", type=Path, help="write every graded set to this file")
    args = parser.parse_args(argv)
    if args.games < 1 or not 0 <= args.search <= standard_map().num_powers or args.replays < 2:
        parser.error("games >= 1; search seats between 0 and 7; replays >= 2")
    try:
        settings = GradingSettings(rollouts=args.rollouts, iterations=args.iterations)
    except ValueError as exc:
        parser.error(str(exc))
    began = time.perf_counter()
    phases = record_phases(
        args.games, args.final_year, args.search, args.search_iterations, args.seed
    )
    print(f"{len(phases)} movement phases recorded in {time.perf_counter() - began:.0f} s")
    sets = grade_phases(phases, settings, args.replays, args.final_year, args.seed)
    print(report(sets))
    print(f"\n{time.perf_counter() - began:.0f} s in all")
    if args.json is not None:
        args.json.write_text(json.dumps([dataclasses.asdict(s) for s in sets], indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
