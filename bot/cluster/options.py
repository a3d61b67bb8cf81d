"""The ``tournament`` flags of a cluster run, and checking them (without importing Ray)."""

from __future__ import annotations

import argparse
import re
from collections.abc import Sequence

from bot.local.lineup import Seat
from search.registry import PolicySpecError, parse_spec

AUTO = "auto"
"""``--ray`` without an address: the cluster this machine belongs to (``ray start`` ran here)."""

_ADDRESS = re.compile(r"^(ray://)?[A-Za-z0-9_.\-]+:\d{1,5}$")


def add_ray_arguments(p: argparse.ArgumentParser) -> None:
    """Add ``--ray``, ``--cpus-per-game`` and ``--watchdog`` to the tournament's parser."""
    p.add_argument(
        "--ray",
        nargs="?",
        const=AUTO,
        metavar="ADDRESS",
        help="play the games on a Ray cluster: 'auto' (the default: the cluster this machine "
        "is part of), 'ray://HOST:PORT' (Ray client) or 'HOST:PORT' (the head's GCS address)",
    )
    p.add_argument(
        "--cpus-per-game",
        type=float,
        help="with --ray: CPUs each game reserves (default: one per searching bot, plus one)",
    )
    p.add_argument(
        "--watchdog",
        type=float,
        help="with --ray: seconds after which a running game is stopped and played again once "
        "(default: the game's own time limit plus two minutes)",
    )


def check_address(address: str) -> str | None:
    """Why ``address`` is not a Ray address (None when it is one)."""
    if address == AUTO or _ADDRESS.match(address):
        return None
    return f"{address!r} is not a Ray address: give 'auto', 'ray://HOST:PORT' or 'HOST:PORT'"


def searching_bots(seats: Sequence[Seat]) -> int:
    """The seats that think with MCTS (each keeps a core busy for the whole deadline)."""
    count = 0
    for seat in seats:
        if seat.kind != "ours":
            continue
        try:
            kind, _variant = parse_spec(seat.spec)
        except PolicySpecError:
            continue
        count += kind == "mcts"
    return count


def default_cpus(seats: Sequence[Seat]) -> float:
    """CPUs a game reserves by default: one per searching bot, plus one for the rest."""
    return float(searching_bots(seats) + 1)
