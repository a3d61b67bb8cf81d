"""daide-mcts arena: play whole games in-process and print the thesis's metrics.

For example:

    daide-mcts arena dumbbot dumbbot dumbbot dumbbot dumbbot dumbbot dumbbot --games 20
    daide-mcts arena mcts:v8 --fill dumbbot --games 30 --budget 5 --json runs/v8.json

Seven players, one per power, dealt to the powers at random each game (seeded).
Each game ends at winter of --final-year (a draw among the survivors, as
BANDANA's final year) or earlier with a solo.  The command parses flags, draws
a progress bar on standard error and prints (and optionally saves) the results.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from bot.toolkit.usererror import UserError
from search.registry import PolicySpecError, parse_spec, valid_specs

if TYPE_CHECKING:  # the games are imported when the command runs, not by the parser
    from bot.lab.arena.arena_games import ArenaProgress

SEATS = 7


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``arena`` subcommand."""
    p = subparsers.add_parser(
        "arena",
        help="play in-process games between players and print the metrics",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "players",
        nargs="*",
        metavar="PLAYER",
        help=f"one player spec per seat ({valid_specs()})",
    )
    p.add_argument(
        "--fill", metavar="PLAYER", help="fill the seats left after PLAYER... with this spec"
    )
    p.add_argument("--games", type=int, default=10, help="games to play (default 10)")
    p.add_argument(
        "--final-year", type=int, default=1905, help="the game ends at its winter (default 1905)"
    )
    p.add_argument(
        "--budget",
        type=float,
        default=5.0,
        help="thinking seconds per move for MCTS players (default 5)",
    )
    p.add_argument("--seed", type=int, default=0, help="seed of the power draw and dice")
    p.add_argument("--workers", type=int, default=1, help="worker processes per MCTS player")
    p.add_argument(
        "--cpu-clock",
        action="store_true",
        help="measure the MCTS budget in CPU seconds of the arena process (fair under load)",
    )
    p.add_argument("--json", type=Path, metavar="PATH", help="also write the results here")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(handler=run)


def lineup_from(players: list[str], fill: str | None) -> list[str]:
    """The seven seats' specs from the positional players and ``--fill``; ValueError if unfit."""
    lineup = list(players)
    if fill is not None:
        if len(lineup) > SEATS:
            raise ValueError(f"{len(lineup)} players given; there are only {SEATS} seats")
        lineup += [fill] * (SEATS - len(lineup))
    if len(lineup) != SEATS:
        raise ValueError(
            f"give {SEATS} players, one per power (got {len(lineup)}); "
            f"--fill SPEC fills the remaining seats"
        )
    for spec in lineup:
        parse_spec(spec)
    return [spec.strip().lower() for spec in lineup]


class ProgressBar:
    """Progress of the games: rich's progress bar on a terminal, a line per game elsewhere."""

    def __init__(self, stream: TextIO, width: int = 30) -> None:
        self.stream = stream
        self.width = width
        self.tty = stream.isatty()
        self.last_done = -1
        self._progress: Progress | None = None
        self._task: TaskID | None = None

    def __call__(self, p: ArenaProgress) -> None:
        """Redraw (on a terminal) or print a line per finished game (elsewhere)."""
        if self.tty:
            self._draw(p)
        elif p.games_done != self.last_done:
            filled = self.width * p.games_done // p.games
            eta = ""
            if p.games_done:
                eta = f"  eta {p.elapsed / p.games_done * (p.games - p.games_done):.0f}s"
            self.stream.write(
                f"[{'#' * filled}{'-' * (self.width - filled)}] {p.games_done}/{p.games} games"
                f"  {p.turn}  {p.elapsed:.0f}s{eta}\n"
            )
            self.stream.flush()
        self.last_done = p.games_done

    def _draw(self, p: ArenaProgress) -> None:
        if self._progress is None:
            console = Console(file=self.stream, force_terminal=True)
            self._progress = Progress(
                TextColumn("{task.description}"),
                BarColumn(bar_width=self.width),
                MofNCompleteColumn(),
                TextColumn("games"),
                TimeElapsedColumn(),
                TimeRemainingColumn(),
                console=console,
            )
            self._task = self._progress.add_task("arena", total=p.games)
            self._progress.start()
        assert self._task is not None
        self._progress.update(self._task, completed=p.games_done, description=str(p.turn))
        if p.games_done == p.games:
            self._progress.stop()


def run(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Check the flags, play the games, print the report (to stdout by default) and the JSON."""
    from bot.lab.arena.arena_games import run_arena

    out = out or sys.stdout  # looked up now, not at import (tests capture stdout)

    try:
        lineup = lineup_from(args.players, args.fill)
    except ValueError as exc:
        raise UserError(str(exc)) from exc
    if args.games < 1:
        raise UserError("--games must be at least 1")
    if args.final_year < 1901:
        raise UserError("--final-year must be 1901 or later")
    if not args.budget > 0:
        raise UserError("--budget must be a positive number of seconds")
    if args.workers < 1:
        raise UserError("--workers must be at least 1")
    if args.cpu_clock and args.workers > 1:
        raise UserError("--cpu-clock needs --workers 1 (helpers run on the wall clock)")
    if args.json is not None and not args.json.parent.is_dir():
        raise UserError(f"--json: no such folder {args.json.parent}")
    progress = None if args.quiet else ProgressBar(sys.stderr)
    try:
        result = run_arena(
            lineup,
            games=args.games,
            final_year=args.final_year,
            budget=args.budget,
            seed=args.seed,
            workers=args.workers,
            cpu_clock=args.cpu_clock,
            progress=progress,
        )
    except PolicySpecError as exc:
        raise UserError(str(exc)) from exc
    out.write(result.report() + "\n")
    if args.json is not None:
        try:
            args.json.write_text(json.dumps(result.to_dict(), indent=1) + "\n")
        except OSError as exc:
            raise UserError(f"--json: cannot write {args.json}: {exc}") from exc
    return 0
