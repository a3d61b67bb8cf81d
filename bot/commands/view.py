"""daide-mcts view: the map of a game in the browser, recorded or live.

Serves a page on 127.0.0.1 and prints its URL.  Examples:

    daide-mcts view runs/game-20260101-120000          # a recorded game
    daide-mcts view runs/t1/games/game-003             # one game of a tournament
    daide-mcts view --host 127.0.0.1 --port 16713      # the game on that server, live

A recorded game (a run folder of daide-mcts game) can be stepped through
phase by phase: slider, previous/next buttons, the arrow keys, a play button.
With --host/--port the viewer joins the server as an observer and the page
follows the game as it is played.  Ctrl-C stops the server.  Needs the
view extra (pip install 'daide-mcts[view]').
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sys
from pathlib import Path
from typing import TextIO

from bot.toolkit.usererror import UserError, check_port, extra_missing


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``view`` subcommand."""
    p = subparsers.add_parser(
        "view",
        help="show a recorded game (a run folder) or a live one (--host/--port) in the browser",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("folder", nargs="?", type=Path, help="a game's run folder")
    p.add_argument("--host", help="a DAIDE server to watch live (with --port)")
    p.add_argument("--port", type=int, help="the DAIDE server's port")
    p.add_argument(
        "--http-port",
        type=int,
        default=0,
        help="the page's port on 127.0.0.1 (default: a free one)",
    )
    p.set_defaults(handler=run)


def run(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Serve the page until Ctrl-C (or, live, until then too: the last position stays)."""
    out = out or sys.stdout
    live = args.host is not None or args.port is not None
    if live and args.folder is not None:
        raise UserError("give either a run folder or --host/--port, not both")
    if not live and args.folder is None:
        raise UserError("give a run folder, or --host and --port of a DAIDE server")
    if live and (args.host is None or args.port is None):
        raise UserError("--host and --port go together")
    if live:
        check_port(args.port, "--port", lowest=1)
    check_port(args.http_port, "--http-port")
    try:
        from bot.view.server import ViewServer
        from bot.view.sources import ViewSourceError, check_reachable, load_run, watch
        from bot.view.timeline import Timeline
    except ImportError as exc:
        raise extra_missing("the viewer needs", exc) from exc

    try:
        if live:
            asyncio.run(check_reachable(args.host, args.port))
            timeline = Timeline(source=f"{args.host}:{args.port}", live=True)
        else:
            timeline = load_run(args.folder)
    except ViewSourceError as exc:
        raise UserError(str(exc)) from exc
    try:
        server = ViewServer(timeline, port=args.http_port)
    except OSError as exc:
        raise UserError(f"--http-port {args.http_port}: {exc}") from exc

    async def observe() -> None:
        reason = await watch(args.host, args.port, timeline, server.changed)
        out.write(f"the observation ended: {reason}; the page keeps the game (Ctrl-C to stop)\n")
        out.flush()

    what = f"the game on {args.host}:{args.port}, live" if live else f"the game in {args.folder}"
    out.write(f"daide-mcts view: {what} at {server.url}  (Ctrl-C to stop)\n")
    out.flush()
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(server.serve(observe if live else None))
    return 0
