"""What the shell tells the core: small frozen values, each with the time it happened.

Times are readings of the monotonic clock taken by the shell; the core reads
no clock of its own, so a test can play any sequence of events at any times.
"""

from __future__ import annotations

from dataclasses import dataclass

from protocol.press import Press
from protocol.values import Order, Turn
from protocol.wire import WireMessage
from search.mcts.worker_protocol import JobMessage


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened to the bot at ``at`` (a monotonic reading)."""

    at: float


@dataclass(frozen=True, slots=True)
class ConnectionOpened(Event):
    """A TCP connection to ``host``:``port`` is open and the IM is sent."""

    host: str
    port: int


@dataclass(frozen=True, slots=True)
class ServerMessage(Event):
    """The server sent ``wire`` (an RM, a DM, an FM or an EM)."""

    wire: WireMessage


@dataclass(frozen=True, slots=True)
class ConnectionLost(Event):
    """The connection ended: ``reason``; ``violation`` when the server broke the protocol."""

    reason: str
    violation: bool = False


@dataclass(frozen=True, slots=True)
class Tick(Event):
    """A time the core asked to be woken at (see :class:`~bot.client.core.effects.ScheduleTick`)."""


@dataclass(frozen=True, slots=True)
class SearchMessage(Event):
    """The search worker said something about a job (an improvement, its answer, a failure)."""

    message: JobMessage


@dataclass(frozen=True, slots=True)
class SearchUnavailable(Event):
    """The shell could not start search job ``job_id`` (the worker is gone): ``error``."""

    job_id: int
    error: str


@dataclass(frozen=True, slots=True)
class Closing(Event):
    """The bot is shutting down (the game ended or it is being stopped): end the phase."""


@dataclass(frozen=True, slots=True)
class PersonOrders(Event):
    """A person's complete order set for the phase ``turn`` (replacing the one before)."""

    turn: Turn
    orders: tuple[Order, ...]


@dataclass(frozen=True, slots=True)
class PersonReady(Event):
    """A person is done with the phase ``turn`` (``GOF``), or not yet (``NOT (GOF)``)."""

    turn: Turn
    ready: bool


@dataclass(frozen=True, slots=True)
class PersonDraw(Event):
    """A person proposes a draw (``DRW``)."""


@dataclass(frozen=True, slots=True)
class HintRequested(Event):
    """What would the bot play in the phase ``turn``?  Search for about ``seconds``."""

    turn: Turn
    seconds: float


@dataclass(frozen=True, slots=True)
class PersonPress(Event):
    """A person sends ``press`` to ``recipients`` (``SND``), checked by the core before it goes."""

    recipients: tuple[str, ...]
    press: Press
