"""The command lines of a local game: the server's options and every bot's argv.

These functions are the single source of the commands: the local runner
starts its processes with them, and a test checks that ``docker-compose.yml``
runs the very same commands in its containers.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

from adjudicator.rules import DEFAULT_CIVIL_DISORDER
from bot.local.albert_seat import AlbertInstall
from bot.local.bandana import BandanaInstall
from bot.local.lineup import ALBERT_PRESS_SEAT, Seat
from bot.servers.parlance_install import ParlanceInstall
from bot.servers.parlance_maps import ServedMap

FIRST_YEAR = 1901
"""The first year of a standard game."""

PRESS_LEVELS = (0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120, 130, 140, 150, 160, 8000)
"""DAIDE's press levels: 0 no press, 10 peace and alliances, 20 orders and DMZs, 30 AND/OR...,
8000 free text."""

STANDARD_MAP = "standard"
"""The map a local game is played on unless told otherwise."""

PLAIN_STANDARD = ServedMap(
    STANDARD_MAP, FIRST_YEAR, ("AUS", "ENG", "FRA", "GER", "ITA", "RUS", "TUR")
)
"""The standard map as a local game needs it when no Parlance is asked for (MILA's server)."""

DEFAULT_FINAL_YEAR = 1905
"""The main job plays five years: the game ends at the winter of this year."""

BOT_LOG_LEVEL = "warning"
"""Console log level of the bots a runner starts (their game records keep everything)."""


@dataclass(frozen=True)
class Deadlines:
    """Seconds per phase: movement (MTL), retreats (RTL), builds and removals (BTL)."""

    move: int = 10
    retreat: int = 2
    build: int = 2

    def options(self) -> dict[str, object]:
        """As Parlance options."""
        return {"MTL": self.move, "RTL": self.retreat, "BTL": self.build}

    def year(self) -> int:
        """The longest a game year can last if every phase runs to its deadline."""
        return 2 * self.move + 2 * self.retreat + self.build

    def __str__(self) -> str:
        return f"MTL {self.move}s, RTL {self.retreat}s, BTL {self.build}s"


DEFAULT_DEADLINES = Deadlines()
"""Ten seconds to think per movement phase: five years take about two minutes."""

PERSON_DEADLINES = Deadlines(move=300, retreat=60, build=90)
"""A person's deadlines: five minutes per movement phase (the game moves on sooner when
everyone is ready)."""

PERSON_BOT_TIME = 10.0
"""Seconds our bots think per phase beside a person (whatever the deadline)."""


def years_to_play(final_year: int, first_year: int = FIRST_YEAR) -> int:
    """How many game years, from ``first_year`` on, end at the winter of ``final_year``."""
    return final_year - first_year + 1


def parlance_options(
    deadlines: Deadlines,
    final_year: int,
    *,
    shuffle: bool = True,
    first_year: int = FIRST_YEAR,
    press_level: int = 0,
) -> dict[str, object]:
    """Parlance's options for a local game.

    Besides the deadlines, ``draw`` makes the server declare the draw once the
    final year's fall is over (the same moment our bots propose it), so the
    game ends cleanly whoever plays — even bots that never propose a draw.
    Without ``shuffle`` the server gives the powers in its token order to the
    players as they join.
    """
    draw = years_to_play(final_year, first_year)
    options: dict[str, object] = {**deadlines.options(), "draw": draw, "LVL": press_level}
    if not shuffle:
        options["shuffle"] = False
    return options


def play_arguments(
    seat: Seat,
    host: str,
    port: int,
    *,
    final_year: int,
    seed: int | None = None,
    telemetry: str | None = None,
    log_dir: Path | str | None = None,
    summary: Path | str | None = None,
    rules: str | None = None,
    max_think: float | None = None,
    press_turn: bool = False,
) -> list[str]:
    """The ``daide-mcts`` arguments that play ``seat`` (ours, or a person's) on ``host:port``.

    A person's seat runs ``daide-mcts human`` (:func:`person_arguments`).

    ``rules`` is the server's civil-disorder rule when it is not Parlance's;
    ``max_think`` caps our bots' seconds per phase (beside a person);
    ``press_turn`` names the turn in every SND (MILA's server needs it).
    """
    if seat.kind == "human":
        return person_arguments(
            seat, host, port, rules, last_year=final_year, press_turn=press_turn
        )
    if seat.kind != "ours":
        raise ValueError(f"seat {seat.name} is not one of ours")
    args = [
        "play",
        "--host",
        host,
        "--port",
        str(port),
        "--name",
        seat.name,
        "--strategy",
        seat.spec,
        "--final-year",
        str(final_year),
    ]
    if max_think is not None:
        args += ["--max-think", f"{max_think:g}"]
    if seed is not None:
        args += ["--seed", str(seed)]
    if log_dir is not None:
        args += ["--log-dir", str(log_dir)]
    if summary is not None:
        args += ["--summary-json", str(summary)]
    if telemetry is not None:
        args += ["--telemetry", telemetry]
    if rules is not None and rules != DEFAULT_CIVIL_DISORDER.value:
        args += ["--rules", rules]
    if press_turn:
        args.append("--press-turn")
    args += ["--log-level", BOT_LOG_LEVEL]
    return args


def person_arguments(
    seat: Seat,
    host: str,
    port: int,
    rules: str | None = None,
    *,
    last_year: int | None = None,
    press_turn: bool = False,
) -> list[str]:
    """The ``daide-mcts human`` arguments of a person's seat on ``host:port``.

    The seat prints its page's address; the person proposes the draw from the page.
    ``last_year`` is the game's last year: the seat's coach grades toward it, as
    ``daide-mcts review`` does on the game's folder; ``press_turn`` names the turn
    in every SND the person sends (MILA's server needs it, as for our bots).
    """
    args = ["human", "--host", host, "--port", str(port), "--name", seat.name]
    if last_year is not None:
        args += ["--last-year", str(last_year)]
    if rules is not None and rules != DEFAULT_CIVIL_DISORDER.value:
        args += ["--rules", rules]
    if press_turn:
        args.append("--press-turn")
    return [*args, "--log-level", BOT_LOG_LEVEL]


def ours_argv(args: list[str]) -> list[str]:
    """The argv that runs ``daide-mcts ARGS`` with this interpreter (no PATH lookup)."""
    return [sys.executable, "-m", "bot.cli", *args]


def seat_argv(
    seat: Seat,
    host: str,
    port: int,
    *,
    final_year: int,
    parlance: ParlanceInstall | None,
    seed: int | None = None,
    telemetry: str | None = None,
    log_dir: Path | None = None,
    summary: Path | None = None,
    rules: str | None = None,
    bandana: BandanaInstall | None = None,
    albert: AlbertInstall | None = None,
    max_think: float | None = None,
    press_turn: bool = False,
) -> list[str]:
    """The argv of any seat: ``daide-mcts play``, a Parang or BANDANA bot, Albert, or its command.

    A BANDANA seat logs into ``log_dir`` (the current folder if None); an
    Albert seat keeps its Wine prefix there while it plays.
    """
    if seat.kind in ("ours", "human"):
        return ours_argv(
            play_arguments(
                seat,
                host,
                port,
                final_year=final_year,
                seed=seed,
                telemetry=telemetry,
                log_dir=log_dir,
                summary=summary,
                rules=rules,
                max_think=max_think,
                press_turn=press_turn,
            )
        )
    if seat.kind == "parang":
        if parlance is None:
            raise ValueError("Parang's bots need the local Parlance install (Python 2.7)")
        return parlance.command(seat.spec, f"{host}:{port}")
    if seat.kind == "bandana":
        if bandana is None:
            raise ValueError("BANDANA's bots need the folder of their jars (--bandana-dir)")
        return bandana.command(
            seat.spec,
            host,
            port,
            name=seat.name,
            log_dir=log_dir if log_dir is not None else Path("."),
            final_year=final_year,
        )
    if seat.kind == "albert":
        if albert is None:
            raise ValueError("Albert needs the folder of its files (--albert-dir)")
        press = seat.spec == ALBERT_PRESS_SEAT
        return albert.command(host, port, seat_dir=log_dir or Path("."), press=press)
    return seat.command_argv(host, port)
