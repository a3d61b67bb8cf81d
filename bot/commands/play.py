"""daide-mcts play: connect to a DAIDE server and play one game.

Besides its own flags it accepts BANDANA's agent arguments, so it can be
listed in a BANDANA TournamentRunner command line as is:

    daide-mcts play -name MCTS1 -log logs/ -fy 1905

(the game server is then localhost:16713 unless --host/--port say
otherwise).  Every flag also has an environment variable DAIDE_MCTS_<NAME>.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import signal
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from bot.client.core.timebudget import DEFAULT_MIN_MARGIN, DEFAULT_THINK_TIME
from bot.client.gamelog import add_log_arguments
from bot.client.settings import BotSettings, SettingsError, load_settings
from bot.toolkit.usererror import UserError

if TYPE_CHECKING:
    from bot.client.shell import DaideClient, GameSummary


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``play`` subcommand."""
    p = subparsers.add_parser(
        "play",
        help="connect to a DAIDE server and play one game",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_play_arguments(p)
    p.set_defaults(handler=run)


def add_play_arguments(p: argparse.ArgumentParser) -> None:
    """The flags of ``play`` (also used by the local game runner)."""
    _add_connection_arguments(p)
    _add_strategy_arguments(p)
    p.add_argument("--log-dir", type=Path, dest="log_dir", help="folder for the game log")
    p.add_argument("-log", type=Path, dest="bandana_log", help="BANDANA: log folder")
    _add_timing_arguments(p)
    p.add_argument("--power", dest="rejoin_power", help="rejoin as this power (with --passcode)")
    p.add_argument("--passcode", type=int, dest="rejoin_passcode", help="passcode for rejoining")
    p.add_argument("--seed", type=int, help="random seed")
    p.add_argument(
        "--press",
        choices=("off", "unbound"),
        help="in a press game: negotiate without binding our orders (unbound, the default) "
        "or refuse every proposal (off); docs/press.md",
    )
    _add_output_arguments(p)
    add_log_arguments(p)


def _add_connection_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--host", help="server host (default 127.0.0.1)")
    p.add_argument("--port", type=int, help="server port (default 16713)")
    p.add_argument("--name", help="name sent in NME (default daide-mcts)")
    p.add_argument("-name", dest="bandana_name", help="BANDANA: the agent's name")


def _add_strategy_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--strategy",
        "--variant",
        dest="strategy",
        help="movement strategy: mcts (default; the variant dm), mcts:VARIANT with VARIANT "
        "dm or the thesis's v1 to v8, settings overridden as mcts:dm/cp=0.5/years=full "
        "(cp, final, years, widen, resample, double, model), dumbbot, random",
    )
    p.add_argument(
        "--workers",
        help="search processes: a number, or auto for one per core (default 1)",
    )
    p.add_argument(
        "--rules",
        choices=("parlance", "datc"),
        help="the server's civil-disorder rule: parlance (Parlance, BANDANA; default) "
        "or datc (MILA's server)",
    )
    p.add_argument(
        "--final-year",
        type=int,
        dest="final_year",
        help="offer the draw once this year is played out (WIN of it on)",
    )
    p.add_argument("-fy", type=int, dest="bandana_final_year", help="BANDANA: final year")


def _add_timing_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--think-time",
        type=float,
        dest="think_time",
        help=f"seconds to think when there is no deadline (default {DEFAULT_THINK_TIME:g})",
    )
    p.add_argument(
        "--min-margin",
        type=float,
        dest="min_margin",
        help=f"least seconds between last submission and deadline (default {DEFAULT_MIN_MARGIN:g})",
    )
    p.add_argument(
        "--max-think",
        type=float,
        dest="max_think",
        help="most seconds from a phase's start to the last submission, whatever the deadline "
        "(bots beside a person; default: none)",
    )


def _add_output_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--press-turn",
        action="store_const",
        const=True,
        dest="press_turn",
        help="name the turn in every SND, as MILA's server needs (off by default)",
    )
    p.add_argument(
        "--telemetry",
        help="publish live events to mqtt://host[:port][/prefix] (off by default)",
    )
    p.add_argument(
        "--game-id",
        dest="game_id",
        help="the game's name in telemetry topics (default: the server's host:port)",
    )
    p.add_argument("--summary-json", type=Path, help="write the game summary here at the end")


def settings_from_args(args: argparse.Namespace) -> BotSettings:
    """Merge our flags, BANDANA's, and the environment; SettingsError if invalid."""
    return load_settings(
        host=args.host,
        port=args.port,
        name=args.name or args.bandana_name,
        strategy=args.strategy,
        workers=args.workers,
        final_year=args.final_year or args.bandana_final_year,
        log_dir=args.log_dir or args.bandana_log,
        think_time=args.think_time,
        min_margin=args.min_margin,
        max_think=getattr(args, "max_think", None),
        rejoin_power=args.rejoin_power,
        rejoin_passcode=args.rejoin_passcode,
        seed=args.seed,
        press=getattr(args, "press", None),
        press_turn=getattr(args, "press_turn", None),
        rules=getattr(args, "rules", None),
        telemetry=args.telemetry,
        game_id=getattr(args, "game_id", None),
        log_level=args.log_level,
        log_format=args.log_format,
    )


STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)
"""Signals that stop the bot cleanly: the game log and the summary are still written."""


async def play_until_stopped(client: DaideClient) -> GameSummary:
    """Run ``client`` until the game ends or a stop signal arrives; its summary either way."""
    loop = asyncio.get_running_loop()
    task = asyncio.current_task()

    def stop(name: str) -> None:
        client.stop(name)
        if task is not None:
            task.cancel()

    for sig in STOP_SIGNALS:
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop, sig.name)
    try:
        return await client.run()
    except asyncio.CancelledError:
        if client.summary.stopped_by is None:
            raise
        return client.summary


def run(args: argparse.Namespace) -> int:
    """Play one game; exit 0 when it ended cleanly, 1 otherwise."""
    from bot.client.gamelog import GameLog, configure_logging, game_log_path
    from bot.client.shell import DaideClient, FatalClientError
    from search.choosers import check_strategy
    from search.dumbbot_values import PROXIMITY_CACHE
    from search.registry import PolicySpecError

    try:
        settings = settings_from_args(args)
    except SettingsError as exc:
        raise UserError(str(exc)) from exc
    if (settings.rejoin_power is None) != (settings.rejoin_passcode is None):
        raise UserError("--power and --passcode go together")
    try:
        check_strategy(settings.strategy, settings.search_workers)
    except PolicySpecError as exc:
        raise UserError(f"--strategy {settings.strategy}: {exc}") from exc
    configure_logging(settings.log_level, settings.log_format)
    # This process values each position once (quick orders, builds); the proximity memo,
    # made for the search's replays, would only fill up over a long game (the search
    # worker keeps its own).
    PROXIMITY_CACHE.limit = 0
    log_path = game_log_path(settings.log_dir, settings.name) if settings.log_dir else None
    game_log = GameLog(log_path)
    client = DaideClient(settings, game_log)
    try:
        summary = asyncio.run(play_until_stopped(client))
    except FatalClientError as exc:
        game_log.write("fatal", error=str(exc))
        game_log.close()
        raise UserError(str(exc)) from exc
    game_log.close()
    if args.summary_json:
        args.summary_json.write_text(json.dumps(summary.as_dict(), indent=2) + "\n")
    print(json.dumps(summary.as_dict()), file=sys.stdout)
    return 0 if summary.ended_cleanly else 1
