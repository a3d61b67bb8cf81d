"""daide-mcts start: set a game up in the browser, then play it yourself.

    daide-mcts start

serves a page on 127.0.0.1 (its address, with the page's secret, is printed,
and opened where there is a display) where you choose your power (or let it
be dealt), who plays the other powers (our search and its think time,
DumbBot, random, Parang's bots, Albert where installed), the map (standard
or one of Parterre's variants), the deadlines, the press level and the last
year.  "Play" starts that local game — Parlance on loopback and one process
per seat, as daide-mcts game --human does — and takes you to your seat's
page.  The record of each game goes to a folder under --runs.  Ctrl-C ends
the game and the page.  Needs the view extra (pip install 'daide-mcts[view]').
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import socket
import sys
import webbrowser
from pathlib import Path
from typing import TextIO

from bot.local.albert_seat import ALBERT_DIR_ENV
from bot.toolkit.usererror import UserError, check_port, extra_missing

LOOPBACK = "127.0.0.1"
BACKLOG = 64
GRACEFUL_SHUTDOWN = 1
"""Seconds open requests get when the page's server stops."""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``start`` subcommand."""
    p = subparsers.add_parser(
        "start",
        help="set a game up in the browser (power, opponents, map, deadlines) and play it",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "--http-port",
        type=int,
        default=0,
        help="the page's port on 127.0.0.1 (default: a free one)",
    )
    p.add_argument(
        "--runs",
        type=Path,
        default=Path("runs"),
        metavar="DIR",
        help="where each game's record goes (a start-<date>-<time> folder; default runs)",
    )
    p.add_argument(
        "--albert-dir",
        type=Path,
        metavar="DIR",
        help=f"Albert's folder, to offer Albert as an opponent (default: ${ALBERT_DIR_ENV})",
    )
    p.set_defaults(handler=run)


def _listening_socket(http_port: int) -> socket.socket:
    """A socket listening on the loopback address at ``http_port`` (0: any free port)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((LOOPBACK, http_port))
    except OSError as exc:
        sock.close()
        raise UserError(f"--http-port {http_port}: {exc}") from exc
    sock.listen(BACKLOG)
    return sock


def run(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Serve the start page until Ctrl-C; 0 then."""
    out = out or sys.stdout
    check_port(args.http_port, "--http-port")
    try:
        import uvicorn

        from bot.human.start_page import StartApp, load_catalogue
        from bot.human.webapp import new_secret
    except ImportError as exc:
        raise extra_missing("the start page needs", exc) from exc
    from bot.local.runner import run_until_done

    def note(text: str) -> None:
        out.write(f"daide-mcts start: {text}\n")
        out.flush()

    catalogue = load_catalogue(args.albert_dir, note)
    sock = _listening_socket(args.http_port)
    port = int(sock.getsockname()[1])
    secret = new_secret()
    start_app = StartApp(catalogue, args.runs, secret, LOOPBACK, port, out)
    url = f"http://{LOOPBACK}:{port}/?key={secret}"

    async def serve() -> None:
        config = uvicorn.Config(
            start_app.app,
            log_level="warning",
            lifespan="off",
            timeout_graceful_shutdown=GRACEFUL_SHUTDOWN,
        )
        server = uvicorn.Server(config)
        serving = asyncio.create_task(server.serve(sockets=[sock]))
        while not server.started and not serving.done():
            await asyncio.sleep(0.01)
        if serving.done():
            serving.result()  # the page could not be served: say why
        note(f"choose your game at {url}  (Ctrl-C to stop)")
        if os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"):
            with contextlib.suppress(webbrowser.Error):
                webbrowser.open(url)
        try:
            await serving
        finally:
            await start_app.stop()
            server.should_exit = True
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(serving, GRACEFUL_SHUTDOWN + 2)

    try:
        with contextlib.suppress(KeyboardInterrupt):
            run_until_done(serve())
    finally:
        sock.close()
    return 0
