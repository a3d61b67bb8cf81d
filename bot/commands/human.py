"""daide-mcts human: take a seat in a game yourself and play it in the browser.

    daide-mcts human --host 127.0.0.1 --port 16713 --name Alice

joins the game on that DAIDE server as a player (the bot's own client:
handshake, HLO, rejoining with IAM) and serves a page on 127.0.0.1 where you
give the orders.  The page's address, with the seat's secret, is printed once
it listens: open it in a browser (only that address works; keep it to
yourself).  Click a unit for its legal orders, or type them (A PAR - BUR).
"Hint" shows what the bot would play; after each phase your orders are
graded against the search's choice (as daide-mcts review grades them), the
game's past phases can be browsed, and at its end reviewed and a moment tried
again (--record FOLDER keeps the game for daide-mcts review).  See
docs/human.md.  Ctrl-C leaves the seat.  Needs the view extra (pip install
'daide-mcts[view]').
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from pathlib import Path
from typing import TextIO

from bot.client.gamelog import add_log_arguments, configure_logging
from bot.client.settings import SettingsError, load_settings
from bot.toolkit.usererror import UserError, check_port, extra_missing

MAX_YEAR = 8192
"""One past the last year a game may end in (the settings' bound on ``final_year``)."""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``human`` subcommand."""
    p = subparsers.add_parser(
        "human",
        help="play a game yourself, in the browser, on any DAIDE server",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--host", help="the DAIDE server's host (default 127.0.0.1)")
    p.add_argument("--port", type=int, help="the DAIDE server's port (default 16713)")
    p.add_argument("--name", help="your name in the game (letters, digits, _; default human)")
    p.add_argument(
        "--http-port",
        type=int,
        default=0,
        help="the page's port on 127.0.0.1 (default: a free one)",
    )
    p.add_argument("--power", dest="rejoin_power", help="rejoin as this power (with --passcode)")
    p.add_argument("--passcode", type=int, dest="rejoin_passcode", help="passcode for rejoining")
    p.add_argument(
        "--rules",
        choices=("parlance", "datc"),
        help="the server's civil-disorder rule: parlance (default) or datc (MILA's server)",
    )
    p.add_argument(
        "--press-turn",
        action="store_const",
        const=True,
        dest="press_turn",
        help="name the turn in every SND you send, as MILA's server needs (off by default)",
    )
    p.add_argument(
        "--strategy", help="how the hint is searched: mcts (default), dumbbot, random ..."
    )
    p.add_argument(
        "--exit-at-end",
        action="store_true",
        help="stop when the game ends (by default the page stays up, with the result, "
        "until Ctrl-C)",
    )
    p.add_argument(
        "--last-year",
        type=int,
        metavar="YEAR",
        help="the game's last year, when known (a local game passes it): the coach grades "
        "toward it, as review does; the seat offers no draw by itself",
    )
    p.add_argument(
        "--record",
        type=Path,
        metavar="FOLDER",
        help="write the game's record into FOLDER (daide-mcts review FOLDER --power P reads it)",
    )
    add_log_arguments(p)
    p.set_defaults(handler=run)


def _check_flags(args: argparse.Namespace) -> None:
    """UserError for a port or a year out of range."""
    check_port(args.http_port, "--http-port")
    if args.last_year is not None and not 0 < args.last_year < MAX_YEAR:
        raise UserError(
            f"--last-year must be a year from 1 to {MAX_YEAR - 1} (got {args.last_year})"
        )


def run(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Take the seat until the game ends (or Ctrl-C); 0 when it ended cleanly."""
    out = out or sys.stdout
    _check_flags(args)
    try:
        settings = load_settings(
            host=args.host,
            port=args.port,
            name=args.name or "human",
            strategy=args.strategy,
            rules=args.rules,
            press_turn=args.press_turn,
            rejoin_power=args.rejoin_power,
            rejoin_passcode=args.rejoin_passcode,
            log_level=args.log_level,
            log_format=args.log_format,
        )
    except SettingsError as exc:
        raise UserError(str(exc)) from exc
    if (settings.rejoin_power is None) != (settings.rejoin_passcode is None):
        raise UserError("--power and --passcode go together")
    try:
        from bot.client.shell import GameSummary
        from bot.human.seat import PersonSeat, SeatAddress
    except ImportError as exc:
        raise extra_missing("the seat's page needs", exc) from exc
    from bot.client.shell import FatalClientError
    from bot.local.runner import run_until_done

    configure_logging(settings.log_level, settings.log_format)

    try:
        seat = PersonSeat(settings, args.http_port, args.record, args.last_year)
    except OSError as exc:
        where = f"--record {args.record}" if exc.filename else f"--http-port {args.http_port}"
        raise UserError(f"{where}: {exc}") from exc

    def announce(address: SeatAddress) -> None:
        out.write(f"daide-mcts human: your seat's page is {address.url}  (Ctrl-C to leave)\n")
        out.flush()

    clean: list[bool] = []

    def ended(summary: GameSummary) -> None:
        clean.append(summary.ended_cleanly)
        out.write(json.dumps(summary.as_dict()) + "\n")
        if not args.exit_at_end:
            out.write("daide-mcts human: the game is over; the page stays up (Ctrl-C to stop)\n")
        out.flush()

    try:
        with contextlib.suppress(KeyboardInterrupt):
            run_until_done(seat.run(announce, ended, stay=not args.exit_at_end))
    except FatalClientError as exc:
        raise UserError(str(exc)) from exc
    return 0 if clean == [True] else 1
