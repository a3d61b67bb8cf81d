"""daide-mcts ratings FOLDER...: rate every player label of one or more tournaments.

Each finished game ranks its seats by supply centres; openskill's
Plackett-Luce model turns the rankings into a skill belief per player label
(mu, with its uncertainty sigma), sorted by mu - 3 sigma.  Labels are matched
across folders, so tournaments with different lineups rate together:

    daide-mcts ratings runs/v8-vs-dumbbot
    daide-mcts ratings runs/t1 runs/t2 runs/t3 --out runs/ratings

The table is printed and saved as ratings.md, ratings.csv and ratings.json
(in the folder when there is one, else in --out).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import TextIO

from bot.toolkit.usererror import UserError

NEEDS_OPENSKILL = "ratings need openskill: pip install 'daide-mcts[ratings]'"


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``ratings`` subcommand."""
    p = subparsers.add_parser(
        "ratings",
        help="rate the player labels of tournament folders (openskill Plackett-Luce)",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("folders", type=Path, nargs="+", metavar="FOLDER", help="tournament folders")
    p.add_argument(
        "--out",
        type=Path,
        help="where to save the table (default: the folder itself, or runs/ratings-<date>-<time>)",
    )
    p.set_defaults(handler=run)


def run(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Rate, print and save; exit 0."""
    out = out or sys.stdout

    try:
        from bot.tournament.rating import (
            RatingsError,
            rate,
            text_table,
            tournament_games,
            write_ratings,
        )
    except ImportError as exc:
        raise UserError(f"{NEEDS_OPENSKILL} ({exc})") from exc
    games = []
    for folder in args.folders:
        if not folder.is_dir():
            raise UserError(f"{folder} is not a folder")
        try:
            games += tournament_games(folder)
        except RatingsError as exc:
            raise UserError(str(exc)) from exc
    try:
        table = rate(games)
    except ImportError as exc:
        raise UserError(f"{NEEDS_OPENSKILL} ({exc})") from exc
    target = args.out
    if target is None:
        target = (
            args.folders[0]
            if len(args.folders) == 1
            else Path("runs") / time.strftime("ratings-%Y%m%d-%H%M%S")
        )
    sources = [str(f) for f in args.folders]
    written = write_ratings(target, table, sources, len(games))
    out.write(f"{len(games)} games from {len(args.folders)} tournament(s)\n\n")
    out.write(text_table(table) + "\n\n")
    out.write(f"saved: {', '.join(str(p) for p in written)}\n")
    return 0
