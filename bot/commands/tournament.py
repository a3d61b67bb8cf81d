r"""daide-mcts tournament: many local games of one lineup, with the thesis's metrics.

Each game runs as daide-mcts game does (its own server, seven bot
processes); the server assigns the powers at random (or, with --powers
rotate, every seat plays every power once in each block of seven games)
and each game records who got which.  Results per seat and per player
label (average supply centres, solo victories, BANDANA points and average
rank, each with its spread over the games) go to CSV, JSON, a markdown
table and a PNG chart.  Examples:

    daide-mcts tournament --games 20 --lineup mcts:v8,dumbbot --out runs/v8-vs-dumbbot
    daide-mcts tournament --out runs/v8-vs-dumbbot          # resume it after Ctrl-C
    daide-mcts tournament --games 10 --lineup dumbbot --final-year 1902 --parallel 2
    daide-mcts tournament --games 500 --lineup mcts,dumbbot --ray ray://head:10001 --out runs/big
    daide-mcts tournament --games 30 --lineup mcts,bandana:dumbbot --fill bandana:dbrane \
        --mtl 5 --bandana-dir ~/bandana/agents    # ours, BANDANA's DumbBot, five D-Branes

A tournament folder can be continued: run the command again with the same
--out (the settings are read from it; flags given must match them, except
--games, which may grow) and the finished games are kept.  With --ray the
games are played on a Ray cluster instead, each as one task on some node;
the folder fills the same way.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from bot.cluster.options import add_ray_arguments
from bot.commands.game import (
    add_game_arguments,
    albert_from_args,
    bandana_from_args,
    check_common,
    deadlines_from_args,
    fresh_folder,
    map_from_args,
    seats_from_args,
)
from bot.local.launch import DEFAULT_DEADLINES
from bot.toolkit.usererror import UserError

if TYPE_CHECKING:
    from bot.servers.parlance_maps import ServedMap
    from bot.tournament.saved import TournamentSettings
    from bot.tournament.schedule import TournamentRun

RESUMABLE = ("lineup", "final_year", "mtl", "rtl", "btl", "seed", "server", "powers")
"""Flags a resumed tournament takes from its folder when they are not given."""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``tournament`` subcommand."""
    p = subparsers.add_parser(
        "tournament",
        help="play N local games with a lineup and report the metrics (resumable)",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_game_arguments(p)
    p.add_argument("--games", type=int, help="games in the tournament (required when new)")
    p.add_argument(
        "--parallel",
        type=int,
        default=1,
        help="games played at once, each on its own server and port (default 1)",
    )
    p.add_argument(
        "--out", type=Path, help="tournament folder (default runs/tournament-<date>-<time>)"
    )
    p.add_argument(
        "--powers",
        choices=("random", "rotate"),
        help="random: the server deals the powers (default); rotate: in every block of 7 "
        "games every seat plays every power once (a seeded Latin square: --seed gives the "
        "same powers game by game; Parlance only; the seats then join one at a time)",
    )
    add_ray_arguments(p)
    p.set_defaults(handler=run, **dict.fromkeys(RESUMABLE))


def _merge_saved(
    args: argparse.Namespace, folder: Path
) -> tuple[TournamentSettings | None, int | None]:
    """Fill the flags not given from the saved tournament; UserError if a given one differs."""
    from bot.tournament.saved import TournamentError, load_settings, saved_games

    try:
        saved = load_settings(folder)
    except TournamentError as exc:
        raise UserError(str(exc)) from exc
    if saved is None:
        return None, None
    stored = {
        "final_year": saved.final_year,
        "mtl": saved.deadlines.move,
        "rtl": saved.deadlines.retreat,
        "btl": saved.deadlines.build,
        "seed": saved.seed,
        "server": saved.server,
        "powers": saved.powers,
        "map": saved.map,
        "level": saved.press_level,
    }
    for name, value in stored.items():
        given = getattr(args, name)
        if given is not None and given != value:
            flag = "--" + name.replace("_", "-")
            raise UserError(
                f"{folder} holds a tournament with {flag} {value}; "
                f"leave {flag} out to continue it, or use another --out"
            )
        setattr(args, name, value)
    return saved, saved_games(folder)


def run(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Play (or continue) the tournament; exit 0 when every game ended cleanly."""
    out = out or sys.stdout  # looked up now: the default would pin the stream of import time
    from bot.tournament.saved import TournamentError
    from bot.tournament.schedule import run_tournament

    saved: TournamentSettings | None = None
    saved_count: int | None = None
    if args.out is not None and args.out.is_dir():
        saved, saved_count = _merge_saved(args, args.out)
    served = _settle_flags(args)
    settings = _settings(args, served, saved)
    _check_cluster_seats(args, settings)
    bandana = bandana_from_args(args, settings.seats)
    albert = albert_from_args(args, settings.seats, out)
    games = _games_to_play(args, saved_count)
    folder = args.out if saved is not None else fresh_folder(args.out, "tournament")
    cores = os.cpu_count() or 1
    if args.ray is None and args.parallel > cores:
        out.write(
            f"note: {args.parallel} games at once on {cores} cores: the bots share the CPU, "
            f"so searching bots think less per move than in a single game\n"
        )
    try:
        if args.ray is not None:
            from bot.cluster.command import run_on_cluster

            result = run_on_cluster(args, settings, folder, games, out)
        else:
            result = run_tournament(
                settings,
                folder,
                games,
                parallel=args.parallel,
                telemetry=args.telemetry,
                stream=out,
                bandana=bandana,
                albert=albert,
            )
    except TournamentError as exc:
        raise UserError(str(exc)) from exc
    return _report(result, settings, games, folder, out)


def _settle_flags(args: argparse.Namespace) -> ServedMap:
    """Give the flags their defaults and check them together; the map they name."""
    args.server = args.server or "auto"
    served = map_from_args(args)
    args.mtl = args.mtl if args.mtl is not None else DEFAULT_DEADLINES.move
    args.rtl = args.rtl if args.rtl is not None else DEFAULT_DEADLINES.retreat
    args.btl = args.btl if args.btl is not None else DEFAULT_DEADLINES.build
    args.powers = args.powers or "random"
    if args.powers == "rotate" and args.server == "mila":
        raise UserError("--powers rotate needs Parlance: MILA's server deals the powers itself")
    check_common(args, served)
    return served


def _settings(
    args: argparse.Namespace, served: ServedMap, saved: TournamentSettings | None
) -> TournamentSettings:
    """The saved settings (UserError if ``--lineup`` asks for others), or new ones."""
    from bot.local.lineup import build_lineup
    from bot.tournament.saved import TournamentSettings

    deadlines = deadlines_from_args(args)
    if saved is not None:
        if args.lineup is not None:
            try:
                asked = build_lineup(args.lineup.split(","), args.fill, len(served.powers))
            except ValueError as exc:
                raise UserError(f"--lineup: {exc}") from exc
            if asked != saved.seats:
                raise UserError(
                    f"{args.out} holds a tournament with another lineup; "
                    f"leave --lineup out to continue it, or use another --out"
                )
        return saved
    seats = seats_from_args(args, served)
    if any(s.kind == "human" for s in seats):
        raise UserError("--lineup: a tournament plays bots only (a person plays with 'game')")
    return TournamentSettings(
        seats=seats,
        final_year=args.final_year,
        deadlines=deadlines,
        seed=args.seed,
        server=args.server,
        powers=args.powers,
        map=served.name,
        first_year=served.first_year,
        press_level=args.level or 0,
    )


def _check_cluster_seats(args: argparse.Namespace, settings: TournamentSettings) -> None:
    """UserError if ``--ray`` is given for seats that play on this machine only."""
    if args.ray is not None and any(seat.kind == "bandana" for seat in settings.seats):
        raise UserError(
            "BANDANA's seats cannot play on a Ray cluster: their jars are on this "
            "machine only; run this tournament without --ray"
        )
    if args.ray is not None and any(seat.kind == "albert" for seat in settings.seats):
        raise UserError(
            "Albert cannot play on a Ray cluster: its files and Wine are on this machine "
            "only; run this tournament without --ray"
        )


def _games_to_play(args: argparse.Namespace, saved_count: int | None) -> int:
    """``--games`` (a resumed tournament's count when not given); UserError for bad counts."""
    games: int | None = args.games if args.games is not None else saved_count
    if games is None:
        raise UserError("--games is needed for a new tournament")
    if games < 1:
        raise UserError("--games must be at least 1")
    if args.parallel < 1:
        raise UserError("--parallel must be at least 1")
    if args.ray is not None:
        from bot.cluster.command import check_ray_flags

        check_ray_flags(args)
    return games


def _report(
    result: TournamentRun, settings: TournamentSettings, games: int, folder: Path, out: TextIO
) -> int:
    """Write the tables and what became of the games; 0 when every game finished."""
    from bot.tournament.reports import focus_lines

    if result.table is not None:
        out.write("\n" + result.table.tables() + "\n")
        entries = [result.entries[k] for k in sorted(result.entries)]
        focus = focus_lines(settings, entries)
        if focus:
            out.write("\n" + "\n".join(["with 95% intervals:", *focus]) + "\n")
    finished = len([k for k in result.entries if k < games])
    out.write(
        f"\n{finished} of {games} games finished"
        f"{f' ({result.kept} kept from before)' if result.kept else ''}; "
        f"results in {folder}/ (results.md, results.csv, summary.csv, results.json, centres.png)\n"
    )
    for index, problem in sorted(result.failures.items()):
        out.write(f"game {index + 1} failed: {problem}\n")
    out.flush()
    return 0 if finished == games else 1
