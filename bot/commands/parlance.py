"""daide-mcts parlance: install Parlance locally and run a server by hand."""

from __future__ import annotations

import argparse
import time

from bot.servers.parlance_install import ParlanceServer, ParlanceUnavailableError, install
from bot.toolkit.usererror import UserError


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``parlance`` subcommand."""
    p = subparsers.add_parser(
        "parlance",
        help="install Parlance 1.4.1 into .local/ and optionally serve one game",
        description="Install Parlance + Parang (Python 2.7) into the project-local folder; "
        "with --serve, run a server on loopback until it ends or Ctrl-C.",
    )
    p.add_argument("--serve", action="store_true", help="start a server after installing")
    p.add_argument("--port", type=int, default=16713, help="port to listen on (default 16713)")
    p.add_argument("--mtl", type=int, default=0, help="movement deadline, seconds (0: none)")
    p.add_argument("--rtl", type=int, default=0, help="retreat deadline, seconds (0: none)")
    p.add_argument("--btl", type=int, default=0, help="build deadline, seconds (0: none)")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Install (idempotent) and, if asked, serve."""
    try:
        inst = install()
    except ParlanceUnavailableError as exc:
        raise UserError(str(exc)) from exc
    print(f"Parlance installed in {inst.site}")
    if not args.serve:
        return 0
    options = {"MTL": args.mtl, "RTL": args.rtl, "BTL": args.btl}
    with ParlanceServer(inst, port=args.port, options=options) as server:
        print(f"serving one standard game on 127.0.0.1:{server.port} (Ctrl-C stops)")
        while server.running():
            time.sleep(0.5)
    return 0
