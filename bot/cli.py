"""The ``daide-mcts`` command line: one entry point, one module per subcommand.

Each module in :mod:`bot.commands` (and in :mod:`bot.lab.commands`, the lab's
``bench``, ``arena`` and ``train``) exposes ``register(subparsers)``, which adds
its subparser and sets ``handler`` (a function taking the parsed namespace and
returning an exit code).  Errors a user can cause (bad flags, unreachable
servers, corrupt files) are reported in one line with exit code 2 or 1, never
as a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import sys
from collections.abc import Sequence

from bot import __version__
from bot.toolkit.usererror import UserError

BROKEN_PIPE_EXIT = 141
"""The exit code when the output's reader went away (128 + SIGPIPE, as a shell reports it)."""

COMMANDS = (
    "bot.commands.parlance",
    "bot.commands.albert",
    "bot.commands.adjudicate",
    "bot.commands.play",
    "bot.commands.game",
    "bot.commands.tournament",
    "bot.commands.ratings",
    "bot.commands.compare",
    "bot.commands.watch",
    "bot.commands.view",
    "bot.commands.export",
    "bot.commands.review",
    "bot.commands.human",
    "bot.commands.start",
    "bot.commands.stress",
)
"""The product's commands: what a user runs to play, watch and score games."""

LAB_COMMANDS = (
    "bot.lab.commands.bench",
    "bot.lab.commands.arena",
    "bot.lab.commands.train",
)
"""The lab's commands (:mod:`bot.lab`): their modules hold their flags only and import the
lab's code when the command runs, so the product's commands load none of it."""


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser, with every registered subcommand."""
    parser = argparse.ArgumentParser(
        prog="daide-mcts",
        description="A Diplomacy bot for DAIDE servers that negotiates in press games and "
        "thinks with MCTS.",
    )
    parser.add_argument("--version", action="version", version=f"daide-mcts {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in (*COMMANDS, *LAB_COMMANDS):
        importlib.import_module(name).register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the process exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    handler = getattr(args, "handler", None)
    if handler is None:
        parser.print_help()
        return 2
    try:
        code = int(handler(args) or 0)
        sys.stdout.flush()  # a reader that went away is noticed here, not at exit
        return code
    except UserError as exc:
        print(f"daide-mcts {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # Whoever read our output stopped (``| head``): end quietly, as shell tools do.
        with contextlib.suppress(OSError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return BROKEN_PIPE_EXIT


if __name__ == "__main__":
    sys.exit(main())
