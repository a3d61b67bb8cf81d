"""daide-mcts compare RUN... [--against RUN...]: a label's centres and margins.

A RUN is a tournament folder or a file written by arena --json.  Runs of
one lineup pool: the focus label (the one holding the fewest seats, or
--label) gets its mean centres with a 95% interval, and its margin over
every other label (its centres minus that label's mean, game by game):

    daide-mcts compare runs/rot-dm-2027 runs/rot-dm-2028

With --against, the games both sets dealt alike (same seed, same game
number, the two focus labels on the same power: --powers rotate
tournaments, arenas) are compared game by game, which removes most of the
spread the powers bring:

    daide-mcts compare runs/rot-dlr-2027 --against runs/rot-dm-2027

--year 1901 compares the centres held at the end of that year instead of at
the game's end.  --json FILE also saves the figures.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from bot.toolkit.usererror import UserError

if TYPE_CHECKING:
    from bot.measure.comparison import Run


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``compare`` subcommand."""
    p = subparsers.add_parser(
        "compare",
        help="a label's centres and margins over tournament folders or arena runs, with 95%% "
        "intervals; paired with --against",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "runs", type=Path, nargs="+", metavar="RUN", help="tournament folders or arena JSON files"
    )
    p.add_argument("--label", help="the label to report (default: the one with the fewest seats)")
    p.add_argument(
        "--against",
        type=Path,
        nargs="+",
        metavar="RUN",
        help="runs to compare with game by game (games dealt alike)",
    )
    p.add_argument(
        "--against-label",
        help="the label to compare with in the --against runs (default: their fewest-seat label)",
    )
    p.add_argument(
        "--year",
        type=int,
        metavar="Y",
        help="compare the centres held at the end of year Y (e.g. 1901), not at the game's end",
    )
    p.add_argument("--json", type=Path, metavar="FILE", help="also save the figures as JSON")
    p.set_defaults(handler=run)


def load_runs(paths: list[Path]) -> list[Run]:
    """Each path's run (a tournament folder or an arena JSON file); UserError if unreadable."""
    from bot.local.schemas import read_arena_run
    from bot.measure.comparison import ComparisonError
    from bot.tournament.saved import TournamentError, tournament_run

    runs: list[Run] = []
    for path in paths:
        try:
            if path.is_dir():
                runs.append(tournament_run(path))
            elif path.exists() or path.is_symlink():
                runs.append(read_arena_run(path))
            else:
                raise UserError(f"{path}: no such tournament folder or arena file")
        except (TournamentError, ComparisonError) as exc:
            raise UserError(str(exc)) from exc
    return runs


def run(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Print (and with --json save) the figures; exit 0."""
    out = out or sys.stdout
    from bot.measure.comparison import ComparisonError, at_year, pair, standing

    runs = load_runs(args.runs)
    against = load_runs(args.against) if args.against else []
    try:
        if args.year is not None:
            runs = [at_year(r, args.year) for r in runs]
            against = [at_year(r, args.year) for r in against]
        first = standing(runs, args.label)
        lines = first.lines()
        figures: dict[str, object] = {
            "runs": [str(p) for p in args.runs],
            "year": args.year,
            **first.as_dict(),
        }
        if against:
            second = standing(against, args.against_label)
            pairing = pair(runs, against, args.label, args.against_label)
            lines += ["", "against:", *second.lines(), "", *pairing.lines()]
            figures["against"] = {"runs": [str(p) for p in args.against], **second.as_dict()}
            figures["paired"] = pairing.as_dict()
    except ComparisonError as exc:
        raise UserError(str(exc)) from exc
    out.write("\n".join(lines) + "\n")
    if args.json is not None:
        try:
            args.json.write_text(json.dumps(figures, indent=2) + "\n")
        except OSError as exc:
            raise UserError(f"cannot write {args.json}: {exc}") from exc
        out.write(f"saved: {args.json}\n")
    return 0
