"""daide-mcts export: a recorded game as MILA's saved-game JSON, and such a file read back.

    daide-mcts export runs/game-20260101-120000               # writes .../mila-game.json
    daide-mcts export runs/t1/games/game-003 --out g3.json    # one game of a tournament
    daide-mcts export --read g3.json                          # a MILA saved game, phase by phase

The run folder (of daide-mcts game or tournament) is replayed by MILA's own
engine (the mila extra: pip install 'daide-mcts[mila]'), checked against the
record phase by phase, and written as to_saved_game_format writes it: one JSON
object on one line, which MILA's from_saved_game_format and
load_saved_games_from_disk (and its web page's "load a game") read.  Only
games on the standard map can be exported.  --read takes such a file (one
game, or a .jsonl of them) and prints each phase: orders and supply centres.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TextIO

from bot.interchange.exchange_errors import ExchangeError
from bot.interchange.mila_games import (
    MilaGame,
    game_values,
    mila_game,
    read_saved_games,
    saved_game,
)
from bot.toolkit.jsonfiles import write_json_object
from bot.toolkit.usererror import UserError, extra_missing
from bot.view.sources import ViewSourceError, load_run

DEFAULT_FILE = "mila-game.json"
"""Where the export goes in the run folder unless --out says otherwise."""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``export`` subcommand."""
    p = subparsers.add_parser(
        "export",
        help="write a recorded game (a run folder) as MILA's saved-game JSON, or read one",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("folder", nargs="?", type=Path, help="a game's run folder")
    p.add_argument(
        "--out", type=Path, help=f"the file to write (default: RUN_FOLDER/{DEFAULT_FILE})"
    )
    p.add_argument("--read", type=Path, metavar="FILE", help="read a MILA saved game instead")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Export the run folder, or read the MILA file; UserError for what the user can fix."""
    out = out or sys.stdout
    if args.read is not None:
        if args.folder is not None or args.out is not None:
            raise UserError("--read takes a MILA file alone, without a run folder or --out")
        return _read(args.read, out)
    if args.folder is None:
        raise UserError("give a run folder to export, or --read FILE")
    return _export(args.folder, args.out or args.folder / DEFAULT_FILE, out)


def _export(folder: Path, target: Path, out: TextIO) -> int:
    try:
        timeline = load_run(folder)
        game = mila_game(timeline, folder.resolve().name)
        data = saved_game(game)
    except ImportError as exc:
        raise extra_missing("exporting needs MILA's package,", exc, "mila") from None
    except (ViewSourceError, ExchangeError) as exc:
        raise UserError(str(exc)) from None
    try:
        game_values(data)  # what we wrote must read back
        write_json_object(target, data, indent=None)
    except ExchangeError as exc:
        raise UserError(f"the exported game does not read back: {exc}") from None
    except OSError as exc:
        raise UserError(f"cannot write {target}: {exc.strerror or exc}") from None
    phases = data["phases"]
    out.write(
        f"daide-mcts export: {len(phases)} phases ({phases[0]['name']} to {phases[-1]['name']}),"
        f" replayed by MILA's engine, written to {target}\n"
    )
    return 0


def _read(path: Path, out: TextIO) -> int:
    try:
        games = read_saved_games(path)
    except ExchangeError as exc:
        raise UserError(str(exc)) from None
    for number, game in enumerate(games, 1):
        _describe(game, number, len(games), out)
    return 0


def _describe(game: MilaGame, number: int, count: int, out: TextIO) -> None:
    title = f"game {number} of {count}: " if count > 1 else ""
    out.write(f"{title}{game.game_id or '(no id)'}, {len(game.phases)} phases\n")
    for phase in game.phases:
        centres = " ".join(f"{p} {len(cs)}" for p, cs in sorted(phase.centres.items()))
        out.write(f"  {phase.name:<7} {phase.turn!s:<9} {len(phase.orders):>3} orders  {centres}\n")
