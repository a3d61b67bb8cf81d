"""What the core asks the shell to do: small frozen values, carried out in order."""

from __future__ import annotations

from dataclasses import dataclass

from adjudicator.position import Position
from bot.client.core.notes import Note
from protocol.messages import Message
from protocol.values import MapDefinition
from search.policy import SearchLimit


@dataclass(frozen=True, slots=True)
class Effect:
    """One thing for the shell to do (the core reads no socket, clock or process of its own)."""


@dataclass(frozen=True, slots=True)
class Send(Effect):
    """Write ``message`` to the server (the session allowed it)."""

    message: Message


@dataclass(frozen=True, slots=True)
class Disconnect(Effect):
    """Close the connection (``final``: say FM first, the game is over)."""

    final: bool


@dataclass(frozen=True, slots=True)
class GiveUp(Effect):
    """The game cannot be played (the server refused us): stop with ``reason``."""

    reason: str


@dataclass(frozen=True, slots=True)
class UseMap(Effect):
    """Give the search worker the game's map."""

    definition: MapDefinition
    name: str


@dataclass(frozen=True, slots=True)
class StartSearch(Effect):
    """Start job ``job_id``: ``power``'s movement orders in ``position`` within ``limit``."""

    job_id: int
    position: Position
    power: int
    limit: SearchLimit
    ranked: int = 0
    """For a hint: how many best sets the answer ranks (0: none)."""


@dataclass(frozen=True, slots=True)
class RetimeSearch(Effect):
    """Job ``job_id`` now searches within ``limit``."""

    job_id: int
    limit: SearchLimit


@dataclass(frozen=True, slots=True)
class CancelSearch(Effect):
    """Stop job ``job_id`` now (whatever it still says is stale)."""

    job_id: int


@dataclass(frozen=True, slots=True)
class ScheduleTick(Effect):
    """Hand the core a :class:`~bot.client.core.events.Tick` at ``at`` (a monotonic reading)."""

    at: float


@dataclass(frozen=True, slots=True)
class Publish(Effect):
    """Put ``note`` on the stream the listeners read."""

    note: Note
