"""daide-mcts openings FILE [--power P] [--top N]: what a field book says the field opens with.

The field book is the file play --openings FILE keeps (a tournament of
mcts:db seats keeps openings.json in its folder): for every power and
movement phase of the first year, the order sets its players gave, by where
the power's units stood.  This prints the most frequent ones with their share:

    daide-mcts openings runs/rot-db-2027/openings.json --power FRA --top 3
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TextIO


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add the ``openings`` subcommand."""
    p = subparsers.add_parser(
        "openings",
        help="show what a field book (play --openings FILE) says each power opens with",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("book", type=Path, metavar="FILE", help="the field book")
    p.add_argument("--power", help="only this power (e.g. FRA)")
    p.add_argument("--top", type=int, default=5, help="order sets shown per situation (default 5)")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Print the book; exit 0 (UserError if it cannot be read)."""
    out = out or sys.stdout
    from adjudicator.maps import standard_map
    from adjudicator.position import SEASONS
    from bot.cli import UserError
    from bot.jsonfiles import CorruptJSON, read_json_object
    from search.openings import BookError, FieldBook, describe

    if args.top < 1:
        raise UserError("--top must be at least 1")
    game_map = standard_map()
    power = args.power.upper() if args.power else None
    if power is not None and power not in game_map.powers:
        raise UserError(f"--power {args.power}: not one of {', '.join(game_map.powers)}")
    try:
        book = FieldBook.from_data(read_json_object(args.book), game_map)
    except (CorruptJSON, BookError) as exc:
        raise UserError(f"{args.book}: {exc}") from exc
    out.write(f"{args.book}: {book.games} game(s), {len(book)} situation(s)\n")
    for key in sorted(book.entries, key=lambda k: (k[2], k[1], k[0], k[3])):
        season, year, who, where = key
        name = game_map.powers[who]
        if power is not None and name != power:
            continue
        seen = book.entries[key]
        total = sum(seen.values())
        units = " ".join(game_map.provinces[p] for p, _, _ in where)
        out.write(f"\n{name} {SEASONS[season].value} {year} ({units}), seen {total}:\n")
        ranked = sorted(seen.items(), key=lambda item: -item[1])
        for orders, count in ranked[: args.top]:
            out.write(f"  {count:4d}  {100 * count / total:3.0f}%  {describe(game_map, orders)}\n")
    return 0
