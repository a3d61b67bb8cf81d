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
from protocol.messages import Mdf, Message, Now, Ord, Sco
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


class GameReader:
    """Reads a game message by message, as a run folder's record or a live seat hears it.

    :meth:`feed` takes each message the server sent (parsed); :attr:`phases` is every
    phase so far with the ORD lines heard for it.  The live page's coach and
    :func:`read_recorded_game` read with this one reader, so both see the same
    positions and orders.  :class:`~adjudicator.rule_errors.AdjudicatorError` if the
    messages do not fit their map.
    """

    def __init__(self, name: str) -> None:
        self.name = name
        self.map: GameMap | None = None
        self._centres: Centres | None = None
        self._positions: list[Position] = []
        self._results: list[list[OrderResult]] = []

    def feed(self, message: Message | None) -> bool:
        """Take one message; True if it began a new phase (or replaced the last one's NOW)."""
        if isinstance(message, Mdf) and message.definition is not None and self.map is None:
            self.map = GameMap.from_definition(message.definition, self.name)
        elif isinstance(message, Sco) and message.centres is not None:
            self._centres = message.centres
        elif isinstance(message, Now) and message.turn is not None:
            if self.map is None or self._centres is None:
                return False
            if self._positions and self._positions[-1].turn == message.turn:
                # The same phase again (a resent NOW): the last one stands.
                self._positions.pop()
                self._results.pop()
            self._positions.append(
                Position.from_values(self.map, message.turn, message.units, self._centres)
            )
            self._results.append([])
            return True
        elif (
            isinstance(message, Ord)
            and message.entry is not None
            and self._positions
            and message.entry.turn == self._positions[-1].turn
        ):
            self._results[-1].append(message.entry)
        return False

    @property
    def phases(self) -> tuple[RecordedPhase, ...]:
        """Every phase so far, each with the ORD lines heard for it."""
        return tuple(
            RecordedPhase(p, tuple(r)) for p, r in zip(self._positions, self._results, strict=True)
        )


def read_recorded_game(folder: Path) -> RecordedGame:
    """The game recorded in ``folder``; :class:`RecordedGameError` if there is none to read."""
    if not folder.is_dir():
        raise RecordedGameError(f"{folder} is not a folder")
    path = folder / MESSAGES_FILE
    if not path.exists():
        raise RecordedGameError(f"{folder} holds no {MESSAGES_FILE}: not a run folder of a game")
    texts = RecordedText()
    reader = GameReader(folder.name)
    try:
        for text in received_texts(path):
            reader.feed(texts.read(text))
    except (UnreadableFile, OSError) as exc:
        raise RecordedGameError(f"{folder}: {exc}") from None
    except AdjudicatorError as exc:
        raise RecordedGameError(f"{folder}: the record does not fit its map: {exc}") from None
    phases = reader.phases
    if reader.map is None or not phases:
        raise RecordedGameError(f"{path} records no map and position of a game")
    return RecordedGame(folder, reader.map, phases, _final_year(folder / SUMMARY_FILE))


def _final_year(path: Path) -> int | None:
    """The game's last year from its summary, or None (no summary, or one without it)."""
    if not path.exists():
        return None
    try:
        summary = read_json_model(path, _Summary)
    except UnreadableFile as exc:
        raise RecordedGameError(str(exc)) from None
    return summary.settings.final_year if summary.settings is not None else None
