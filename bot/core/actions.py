"""What the core asks the shell to do: small frozen values, carried out in order."""

from __future__ import annotations

from dataclasses import dataclass

from adjudicator.position import Position
from bot.core.notes import Note
from protocol.messages import Message
from protocol.values import MapDefinition
from search.policy import SearchLimit


@dataclass(frozen=True, slots=True)
class Action:
    """One thing for the shell to do."""


@dataclass(frozen=True, slots=True)
class Send(Action):
    """Write ``message`` to the server (the session allowed it)."""

    message: Message


@dataclass(frozen=True, slots=True)
class Disconnect(Action):
    """Close the connection (``final``: say FM first, the game is over)."""

    final: bool


@dataclass(frozen=True, slots=True)
class GiveUp(Action):
    """The game cannot be played (the server refused us): stop with ``reason``."""

    reason: str


@dataclass(frozen=True, slots=True)
class UseMap(Action):
    """Give the search worker the game's map."""

    definition: MapDefinition
    name: str


@dataclass(frozen=True, slots=True)
class StartSearch(Action):
    """Start job ``job_id``: ``power``'s movement orders in ``position`` within ``limit``."""

    job_id: int
    position: Position
    power: int
    limit: SearchLimit


@dataclass(frozen=True, slots=True)
class RetimeSearch(Action):
    """Job ``job_id`` now searches within ``limit``."""

    job_id: int
    limit: SearchLimit


@dataclass(frozen=True, slots=True)
class CancelSearch(Action):
    """Stop job ``job_id`` now (whatever it still says is stale)."""

    job_id: int


@dataclass(frozen=True, slots=True)
class ScheduleTick(Action):
    """Hand the core a :class:`~bot.core.events.Tick` at ``at`` (a monotonic reading)."""

    at: float


@dataclass(frozen=True, slots=True)
class Publish(Action):
    """Put ``note`` on the stream the listeners read."""

    note: Note
