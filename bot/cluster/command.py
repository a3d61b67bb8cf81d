"""The ``tournament --ray`` side of the command: checking the flags and running the driver."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TextIO

from bot.cluster.options import check_address
from bot.toolkit.usererror import UserError
from bot.tournament.saved import TournamentSettings
from bot.tournament.schedule import TournamentRun


def check_ray_flags(args: argparse.Namespace) -> None:
    """UserError for cluster flags that cannot work (a bad address, a non-positive number...)."""
    problem = check_address(args.ray)
    if problem is not None:
        raise UserError(f"--ray: {problem}")
    if args.parallel != 1:  # its default
        raise UserError("--parallel does not apply with --ray: the cluster's CPUs decide")
    if args.cpus_per_game is not None and args.cpus_per_game <= 0:
        raise UserError("--cpus-per-game must be positive")
    if args.watchdog is not None and args.watchdog <= 0:
        raise UserError("--watchdog must be positive")


def run_on_cluster(
    args: argparse.Namespace,
    settings: TournamentSettings,
    folder: Path,
    games: int,
    out: TextIO,
) -> TournamentRun:
    """Run the tournament on the Ray cluster ``args.ray``; UserError for a cluster problem."""
    from bot.cluster.driver import ClusterError, run_on_ray

    try:
        return run_on_ray(
            settings,
            folder,
            games,
            address=args.ray,
            cpus_per_game=args.cpus_per_game,
            watchdog=args.watchdog,
            telemetry=args.telemetry,
            stream=out,
        )
    except ClusterError as exc:
        raise UserError(str(exc)) from exc
