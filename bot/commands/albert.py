"""daide-mcts albert: check (and with --install, provision) what an Albert seat needs.

Albert 5.5 is a Win32 program, run under Wine on a virtual display.  This
command checks that Wine and Xvfb are installed (with --install it installs
them with apt, as root), that the folder of Albert's files (--albert-dir or
$DAIDE_MCTS_ALBERT) holds Albert.exe and cspdll.dll, and initialises the Wine
prefix the seats copy (once, into .local/albert/).  Then play it:

    daide-mcts albert --install --albert-dir ~/albert55
    daide-mcts game --lineup mcts,albert --mtl 5 --albert-dir ~/albert55

See docs/albert.md for where to get Albert's files.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from bot.local.albert_seat import (
    ALBERT_DIR_ENV,
    ALBERT_FILES,
    AlbertInstall,
    AlbertUnavailableError,
    albert_dir_from,
)
from bot.servers.wine import WineUnavailableError, install_wine, missing_wine_programs
from bot.toolkit.usererror import UserError


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``albert`` subcommand."""
    p = subparsers.add_parser(
        "albert",
        help="check or provision Wine and Albert 5.5's files for albert seats",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "--install",
        action="store_true",
        help="install Wine and Xvfb with apt if they are missing (needs root)",
    )
    p.add_argument(
        "--albert-dir",
        type=Path,
        metavar="DIR",
        help=f"folder of Albert's {' and '.join(ALBERT_FILES)} (default: ${ALBERT_DIR_ENV})",
    )
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Install Wine if asked, check Albert's folder, prepare the Wine prefix; UserError if unfit."""
    missing = missing_wine_programs()
    if missing and args.install:
        print("Installing Wine and Xvfb with apt (a few minutes)...", flush=True)
        try:
            install_wine()
        except WineUnavailableError as exc:
            raise UserError(str(exc)) from exc
        missing = missing_wine_programs()
    if missing:
        raise UserError(missing)
    print("Wine and Xvfb are installed")
    folder = albert_dir_from(args.albert_dir)
    try:
        albert = AlbertInstall.locate(folder)
        albert.prepare(lambda note: print(note, flush=True))
    except AlbertUnavailableError as exc:
        raise UserError(str(exc)) from exc
    print(f"Albert ready: {albert.folder} (Wine prefix template {albert.template})")
    return 0
