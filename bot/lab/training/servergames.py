"""Server games as training data: what a DAIDE server reported, as ``games.jsonl``.

A run folder of ``daide-mcts game`` (or a tournament's ``games/game-NNN``,
:mod:`bot.local.runner`) already holds the whole game: ``messages.daide``
records every message the observer heard — the map, each phase's SCO and
NOW, and after each phase the ORD line of every unit's order with its
result — and ``summary.json`` says which seat (and so which player: ``mcts``,
``dumbbot``, ``bandana:dbrane``, ``albert``...) played each power.

:func:`read_server_game` replays the messages through the client's mirror of
the game (:class:`bot.client.core.mirror.GameMirror`: the map from MDF, the
position from NOW and SCO, and its shadow adjudication of each phase against
the server's results), and turns each movement phase's ORD lines into engine
orders with the rules' order book (:class:`adjudicator.validation.OrderBook`),
as the server read them.  A power is recorded in a phase only when every one
of its units has an ORD line that the rules accept (MILA's server reports
each player its own orders only; Parlance reports every unit, ``HLD`` for a
unit left without orders).

:func:`import_games` writes the games as :mod:`bot.lab.training.selfplay` does
(one JSON line per game), each with ``players``: the player of each power
(its seat's label), which ``train fit --players`` filters on.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from adjudicator.maps import GameMap, standard_map
from adjudicator.orders import Orders
from adjudicator.position import Position
from adjudicator.validation import MBV, OrderBook
from bot.client.core.mirror import GameMirror
from bot.lab.training.selfplay import GAMES_FILE, MANIFEST_FILE, game_json
from bot.toolkit.jsonfiles import UnreadableFile, read_json_model
from bot.toolkit.messagelog import MESSAGES_FILE, received_lines
from bot.tournament.saved import SETTINGS_FILE, finished_game_folders
from protocol.daide_errors import LanguageError
from protocol.messages import Map, Mdf, Now, Ord, Sco, Smr, parse_text
from protocol.values import OrderResult, Turn, order_power

SUMMARY_FILE = "summary.json"
"""A run folder's summary: the settings, and which seat played which power."""

IMPORT_SOURCE = "server games"
"""The ``source`` of an imported data folder's manifest."""


class ServerGameError(ValueError):
    """A folder that holds no server game, or a game record that cannot be read back."""


class _Seat(BaseModel):
    """A seat of ``summary.json`` as the import reads it (other fields are ignored)."""

    seat: str
    label: str
    power: str | None = None


class _Settings(BaseModel):
    """The game's settings in ``summary.json`` (the import reads the final year only)."""

    final_year: int


class _Summary(BaseModel):
    """The part of a run folder's ``summary.json`` the import reads."""

    settings: _Settings
    players: list[_Seat]


@dataclass
class ServerGame:
    """One server game read back: who played what, and each movement phase's orders.

    ``log`` holds ``(position, power, that power's orders)`` for every power
    recorded in every movement phase, in the order of play; ``left_out``
    counts the (phase, power) pairs not recorded (an ORD line missing or
    refused); ``mismatches`` the phases where our engine's adjudication of
    the reported orders differs from the server's.
    """

    folder: Path
    final_year: int
    seats: tuple[str, ...]
    """The label of each seat, in lineup order."""
    powers: tuple[int | None, ...]
    """The seat of each power (None: the summary does not say)."""
    centres: tuple[int, ...]
    log: list[tuple[Position, int, Orders]] = field(default_factory=list)
    left_out: int = 0
    mismatches: int = 0

    @property
    def players(self) -> list[str | None]:
        """The player (seat label) of each power."""
        return [None if s is None else self.seats[s] for s in self.powers]

    @property
    def phases(self) -> int:
        """How many movement phases are recorded."""
        return len({pos.turn for pos, _, _ in self.log})


def game_folders(folders: Sequence[Path]) -> list[Path]:
    """The run folders of the games in ``folders``: each a game's run folder or a tournament.

    A tournament gives its finished games.  :class:`ServerGameError` for a
    folder that is neither, or a tournament without a finished game.
    """
    found: list[Path] = []
    for folder in folders:
        if not folder.is_dir():
            raise ServerGameError(f"{folder} is not a folder")
        if (folder / MESSAGES_FILE).exists():
            found.append(folder)
        elif (folder / SETTINGS_FILE).exists():
            games = finished_game_folders(folder)
            if not games:
                raise ServerGameError(f"{folder} is a tournament without a finished game")
            found.extend(games)
        else:
            raise ServerGameError(
                f"{folder} holds no {MESSAGES_FILE} and no {SETTINGS_FILE}: "
                "give the run folder of a game (daide-mcts game --out) or a tournament's"
            )
    return found


def _summary(folder: Path) -> _Summary:
    path = folder / SUMMARY_FILE
    if not path.exists():
        raise ServerGameError(f"{folder} holds no {SUMMARY_FILE}: the game did not finish")
    try:
        return read_json_model(path, _Summary)
    except UnreadableFile as exc:
        raise ServerGameError(str(exc)) from None


def _seat_of_each_power(m: GameMap, summary: _Summary) -> tuple[int | None, ...]:
    seats: list[int | None] = [None] * m.num_powers
    for i, seat in enumerate(summary.players):
        power = m.power_index.get(seat.power or "")
        if power is not None:
            seats[power] = i
    return tuple(seats)


MAP_TABLES = (
    "powers",
    "provinces",
    "location_index",
    "kind",
    "is_supply",
    "homes",
    "army_adjacent",
    "fleet_adjacent",
)
"""What a map read from a server's MDF must share with ours for the indices to mean the same."""


def same_tables(m: GameMap, standard: GameMap) -> bool:
    """Whether ``m`` numbers powers, provinces and locations as ``standard`` does, joined alike."""
    return all(getattr(m, table) == getattr(standard, table) for table in MAP_TABLES)


def phase_orders(pos: Position, results: Sequence[OrderResult]) -> tuple[dict[int, Orders], int]:
    """The engine orders of each power whose every unit has an accepted ORD line in ``results``.

    Returns them by power, and how many powers with units are left out.
    """
    m = pos.map
    book = OrderBook(pos)
    refused: set[int] = set()
    for result in results:
        name = order_power(result.order)
        if book.submit(name, result.order) != MBV:
            refused.add(m.power_index.get(name, -1))
    given = book.unit_orders()
    orders: dict[int, Orders] = {}
    left_out = 0
    for power in range(m.num_powers):
        provinces = [p for p, unit in pos.units.items() if unit[0] == power]
        if not provinces:
            continue
        if power in refused or any(p not in given for p in provinces):
            left_out += 1
            continue
        orders[power] = {p: given[p] for p in sorted(provinces)}
    return orders, left_out


class _Replay:
    """The messages of one game fed to the mirror, each movement phase's orders kept."""

    def __init__(self) -> None:
        self.mirror = GameMirror()
        self.map_name = "standard"
        self.phases: dict[Turn, tuple[Position, dict[int, Orders], int]] = {}
        self.mismatches = 0
        self.summed_up = False

    def feed(self, message: object) -> None:
        mirror = self.mirror
        if isinstance(message, Map) and message.name:
            self.map_name = message.name
        elif isinstance(message, Mdf) and message.definition is not None:
            mirror.on_map(message.definition, self.map_name)
        elif isinstance(message, Sco) and message.centres is not None:
            mirror.on_sco(message.centres)
        elif isinstance(message, Ord) and message.entry is not None:
            mirror.on_ord(message.entry)
        elif isinstance(message, Now) and message.turn is not None:
            if mirror.now_problem(message.turn, message.units) is not None:
                return
            current = mirror.position
            if current is not None and current.turn != message.turn:
                self.take(current, mirror.pending)
            report = mirror.on_now(message.turn, message.units)
            if report is not None and not report.ok:
                self.mismatches += 1
        elif isinstance(message, Smr):
            self.summed_up = True

    def take(self, pos: Position, results: Sequence[OrderResult]) -> None:
        """Keep the orders of the movement phase ``pos`` that ``results`` report."""
        if pos.is_movement and results:
            orders, left_out = phase_orders(pos, results)
            self.phases[pos.turn] = (pos, orders, left_out)

    def finish(self) -> None:
        """Keep the last phase's orders when no NOW followed them (the game ended)."""
        if self.mirror.position is not None and self.mirror.pending:
            self.take(self.mirror.position, self.mirror.pending)


def read_server_game(folder: Path) -> ServerGame:
    """The game recorded in the run folder ``folder``; :class:`ServerGameError` if it cannot be.

    The record must be whole: every line a DAIDE message that fits the game,
    and the server's summary (SMR) at its end.
    """
    summary = _summary(folder)
    path = folder / MESSAGES_FILE
    replay = _Replay()
    try:
        for number, text in received_lines(path):
            try:
                replay.feed(parse_text(text))
            except (LanguageError, ValueError) as exc:
                raise ServerGameError(f"{path}:{number}: cannot be read back ({exc})") from None
    except UnreadableFile as exc:
        raise ServerGameError(str(exc)) from None
    replay.finish()
    m = replay.mirror.game_map
    if m is None or replay.mirror.position is None:
        raise ServerGameError(f"{path} records no game (no map, or no NOW from the server)")
    if not same_tables(m, standard_map()):
        raise ServerGameError(
            f"{path}: the game is played on the map {m.name!r}, not the standard map "
            "that training reads"
        )
    if not replay.summed_up:
        raise ServerGameError(
            f"{path} stops before the end of the game (no SMR from the server): "
            "a truncated record, or a game still being played"
        )
    centres = replay.mirror.position.centre_counts()
    game = ServerGame(
        folder=folder,
        final_year=summary.settings.final_year,
        seats=tuple(s.label for s in summary.players),
        powers=_seat_of_each_power(m, summary),
        centres=tuple(centres),
        mismatches=replay.mismatches,
    )
    for pos, orders, left_out in replay.phases.values():
        game.left_out += left_out
        game.log.extend((pos, power, orders[power]) for power in sorted(orders))
    return game


@dataclass(frozen=True)
class ImportSummary:
    """What :func:`import_games` wrote: games, movement phases, and what it left out."""

    games: int
    phases: int
    left_out: int
    mismatches: int
    players: tuple[str, ...]


def import_games(folders: Sequence[Path], out: Path, command: str) -> ImportSummary:
    """Read the server games of ``folders`` and write them into the data folder ``out``.

    ``command`` (the command line that made the data) goes into the manifest.
    :class:`ServerGameError` for a folder or game that cannot be read (nothing
    is written then), :class:`FileExistsError` when ``out`` already holds games.
    """
    if (out / GAMES_FILE).exists():
        raise FileExistsError(f"{out / GAMES_FILE} exists: choose a new folder")
    games = [read_server_game(f) for f in game_folders(folders)]
    lines: list[dict[str, Any]] = []
    for index, game in enumerate(games):
        line = game_json(
            index, game.final_year, game.powers, game.centres, game.log, players=game.players
        )
        line["source"] = str(game.folder)
        lines.append(line)
    players = sorted({p for game in games for p in game.players if p is not None})
    manifest = {
        "source": IMPORT_SOURCE,
        "command": command,
        "folders": [str(f) for f in folders],
        "games": [
            {
                "folder": str(g.folder),
                "players": g.players,
                "phases": g.phases,
                "left_out": g.left_out,
                "mismatches": g.mismatches,
            }
            for g in games
        ],
        "players": players,
    }
    out.mkdir(parents=True, exist_ok=True)
    (out / MANIFEST_FILE).write_text(json.dumps(manifest, indent=1) + "\n")
    with (out / GAMES_FILE).open("w") as f:
        for line in lines:
            f.write(json.dumps(line, separators=(",", ":")) + "\n")
    return ImportSummary(
        games=len(games),
        phases=sum(g.phases for g in games),
        left_out=sum(g.left_out for g in games),
        mismatches=sum(g.mismatches for g in games),
        players=tuple(players),
    )
