"""daide-mcts review: every phase of one power in a recorded game graded against the search.

    daide-mcts review runs/game-20260101-120000 --power FRA
    daide-mcts review runs/t1/games/game-003 --power ENG --budget 1000 --seed 7 --json eng.json

For each phase where the power had a choice (movement, and retreats and builds
unless --movement-only), the orders it played are graded against the bot's choice
from the same position: the search's own set (--iterations caps it) in movement
phases, DumbBot's retreats and the live bot's builds otherwise.  Both sets are
played on by --budget paired rollouts (the same opponents' orders and random
numbers for both) to the winter --years ahead; the table shows the expected centres
each leads to, the loss (the bot's minus the played set's) with its 95% interval,
and a label: good, inaccuracy, mistake or blunder (docs/coach.md gives the
thresholds).  Then the evaluation graph (expected centres per phase) and the three
moments that cost most.  The same --seed and budget give the same grades.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TextIO

from bot.coach.game_review import Review, ReviewError, review_game
from bot.coach.recorded_game import RecordedGameError, read_recorded_game
from bot.toolkit.jsonfiles import write_json_object
from bot.toolkit.usererror import UserError
from search.grading import (
    DEFAULT_ITERATIONS,
    DEFAULT_ROLLOUTS,
    DEFAULT_YEARS,
    GradingError,
    GradingSettings,
)

SAME = "(the same)"
"""What the table shows for the bot's orders when the power played them."""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``review`` subcommand."""
    p = subparsers.add_parser(
        "review",
        help="grade every phase of one power in a recorded game against the search's choice",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("folder", type=Path, help="a game's run folder")
    p.add_argument("--power", required=True, help="the power to review, e.g. FRA")
    p.add_argument(
        "--budget",
        type=int,
        default=DEFAULT_ROLLOUTS,
        help=f"paired rollouts per phase (default {DEFAULT_ROLLOUTS})",
    )
    p.add_argument(
        "--iterations",
        type=int,
        default=DEFAULT_ITERATIONS,
        help=f"the search's iterations for its choice (default {DEFAULT_ITERATIONS})",
    )
    p.add_argument(
        "--years",
        type=int,
        default=DEFAULT_YEARS,
        help=f"winters ahead the rollouts play to (default {DEFAULT_YEARS}: the next)",
    )
    p.add_argument("--seed", type=int, default=0, help="seed of the grades (default 0)")
    p.add_argument("--movement-only", action="store_true", help="grade movement phases only")
    p.add_argument("--json", type=Path, metavar="FILE", help="also write the review to FILE")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Review the game; UserError for what the user can fix."""
    out = out or sys.stdout
    try:
        settings = GradingSettings(
            rollouts=args.budget, years=args.years, iterations=args.iterations
        )
        game = read_recorded_game(args.folder)
        review = review_game(
            game, args.power.upper(), args.seed, settings, movement_only=args.movement_only
        )
    except (RecordedGameError, ReviewError, GradingError) as exc:
        raise UserError(str(exc)) from None
    out.write(describe(review))
    if args.json is not None:
        try:
            write_json_object(args.json, review.to_json())
        except OSError as exc:
            raise UserError(f"cannot write {args.json}: {exc.strerror or exc}") from None
        out.write(f"\nwritten to {args.json}\n")
    return 0


def describe(review: Review) -> str:
    """The review as text: the table, the evaluation graph, the costliest moments."""
    s = review.settings
    lines = [
        f"{review.power} in {review.source}: {len(review.phases)} phases graded"
        f" ({s.rollouts} paired rollouts to the winter {s.years} ahead,"
        f" the search at {s.iterations} iterations, seed {review.seed})",
        "",
        f"{'phase':<9} {'played':>7} {'bot':>7} {'loss':>7}  {'95% interval':<17} label",
    ]
    for p in review.phases:
        g = p.grade
        lines.append(
            f"{g.turn:<9} {g.submitted:>7.2f} {g.reference:>7.2f} {g.loss:>+7.2f}"
            f"  [{g.low:+.2f}, {g.high:+.2f}]{'':<2} {g.label}"
        )
        lines.append(f"  played: {'; '.join(p.played) or '(no orders)'}")
        lines.append(f"  bot:    {SAME if p.same else '; '.join(p.better) or '(no orders)'}")
    lines += [
        "",
        "evaluation graph (expected centres at the horizon, played / bot; centres owned):",
    ]
    for point in review.graph():
        lines.append(
            f"  {point['turn']:<9} {point['played']:>6.2f} / {point['bot']:<6.2f}"
            f" owned {point['centres']}"
        )
    costly = review.costly()
    lines += ["", "the moments that cost most:" if costly else "no phase cost a centre."]
    for rank, p in enumerate(costly, 1):
        g = p.grade
        lines.append(f"  {rank}. {g.turn}: {g.loss:.2f} centres ({g.label})")
        lines.append(f"     played: {'; '.join(p.played) or '(no orders)'}")
        lines.append(f"     better: {'; '.join(p.better) or '(no orders)'}")
    return "\n".join(lines) + "\n"
