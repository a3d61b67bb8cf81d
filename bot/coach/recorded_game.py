"""A recorded game read back for the coach: every phase's position and its adjudicated orders.

A run folder (``daide-mcts game``, ``daide-mcts tournament``'s ``games/game-NNN``, a
person's game) records every message the server sent (``messages.daide``): the
``MDF`` gives the map, each ``NOW`` with the ``SCO`` in force a position, and the
``ORD`` lines every power's orders in that phase with their results.  The
settings in ``summary.json``, when there, give the game's last year.  The messages
are read with :class:`bot.toolkit.messagelog.RecordedText`, as the viewer and the
benchmarks read them.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel

from adjudicator.maps import GameMap
from adjudicator.position import Position
from adjudicator.rule_errors import AdjudicatorError
from bot.toolkit.jsonfiles import UnreadableFile, read_json_model
from bot.toolkit.messagelog import MESSAGES_FILE, RecordedText, received_texts
from protocol.messages import Mdf, Now, Ord, Sco
from protocol.notation import Centres
from protocol.values import Order, OrderResult, order_power

SUMMARY_FILE = "summary.json"
"""The run folder's summary, whose settings name the game's last year."""


class RecordedGameError(ValueError):
    """A run folder with no game to review (missing, unreadable, corrupt); the message says why."""


@dataclass(frozen=True)
class RecordedPhase:
    """One phase of a recorded game: the position its NOW gave, and its ORD lines."""

    position: Position
    results: tuple[OrderResult, ...]

    def orders_of(self, power: str) -> tuple[Order, ...]:
        """The orders ``power`` played in this phase, as the server adjudicated them."""
        return tuple(r.order for r in self.results if order_power(r.order) == power)


@dataclass(frozen=True)
class RecordedGame:
    """Every phase of one recorded game, on its own map; ``final_year`` when recorded."""

    folder: Path
    map: GameMap
    phases: tuple[RecordedPhase, ...]
    final_year: int | None


class _Settings(BaseModel):
    final_year: int | None = None


class _Summary(BaseModel):
    settings: _Settings | None = None


def read_recorded_game(folder: Path) -> RecordedGame:
    """The game recorded in ``folder``; :class:`RecordedGameError` if there is none to read."""
    if not folder.is_dir():
        raise RecordedGameError(f"{folder} is not a folder")
    path = folder / MESSAGES_FILE
    if not path.exists():
        raise RecordedGameError(f"{folder} holds no {MESSAGES_FILE}: not a run folder of a game")
    texts = RecordedText()
    game_map: GameMap | None = None
    centres: Centres | None = None
    positions: list[Position] = []
    results: dict[int, list[OrderResult]] = {}
    try:
        for text in received_texts(path):
            message = texts.read(text)
            if isinstance(message, Mdf) and message.definition is not None and game_map is None:
                game_map = GameMap.from_definition(message.definition, folder.name)
            elif isinstance(message, Sco) and message.centres is not None:
                centres = message.centres
            elif isinstance(message, Now) and message.turn is not None:
                if game_map is None or centres is None:
                    continue
                if positions and positions[-1].turn == message.turn:
                    positions.pop()  # the same phase again (a resent NOW): the last one stands
                positions.append(
                    Position.from_values(game_map, message.turn, message.units, centres)
                )
                results[len(positions) - 1] = []
            elif (
                isinstance(message, Ord)
                and message.entry is not None
                and positions
                and message.entry.turn == positions[-1].turn
            ):
                results[len(positions) - 1].append(message.entry)
    except (UnreadableFile, OSError) as exc:
        raise RecordedGameError(f"{folder}: {exc}") from None
    except AdjudicatorError as exc:
        raise RecordedGameError(f"{folder}: the record does not fit its map: {exc}") from None
    if game_map is None or not positions:
        raise RecordedGameError(f"{path} records no map and position of a game")
    phases = tuple(RecordedPhase(p, tuple(results[i])) for i, p in enumerate(positions))
    return RecordedGame(folder, game_map, phases, _final_year(folder / SUMMARY_FILE))


def _final_year(path: Path) -> int | None:
    """The game's last year from its summary, or None (no summary, or one without it)."""
    if not path.exists():
        return None
    try:
        summary = read_json_model(path, _Summary)
    except UnreadableFile as exc:
        raise RecordedGameError(str(exc)) from None
    return summary.settings.final_year if summary.settings is not None else None
