"""What a chooser sees of the phase (:class:`PhaseView`) and what it may decide (:data:`Decision`).

A :class:`~bot.client.core.chooser.PhaseChooser` is asked at a moment (the
phase begins, time passes, the search reports, a person acts, a hint is asked
for) and answers with a list of decisions, small frozen values that the phase
player (:class:`~bot.client.core.playing.PhasePlayer`) carries out in order
through its order book, its search jobs and the session: a chooser holds no
outbox, sends nothing and moves no stage itself.  An empty list is "nothing
yet".
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from random import Random

from adjudicator.orders import EngineOrder, Orders
from adjudicator.position import Position
from bot.client.core import notes
from bot.client.core.phasestate import PhaseState, SearchState
from protocol.tokens import TokenTable
from protocol.values import Order, Turn
from search.policy import SearchLimit


@dataclass(frozen=True, slots=True)
class Submit:
    """Submit a movement or retreat set in engine form as the phase's complete set.

    An order the server refused earlier in the phase goes as its safe order.
    """

    orders: Orders


@dataclass(frozen=True, slots=True)
class SubmitOrders:
    """Submit ``orders`` as they are as the phase's complete set (nothing for an empty set)."""

    orders: tuple[Order, ...]


@dataclass(frozen=True, slots=True)
class HoldBack:
    """Ask the server to wait for the deadline (``NOT (GOF)``)."""


@dataclass(frozen=True, slots=True)
class Ready:
    """Tell the server our orders are final (``GOF``)."""


@dataclass(frozen=True, slots=True)
class Final:
    """The chooser is through with the phase: its orders are final (a rejoin resends them)."""


@dataclass(frozen=True, slots=True)
class OrdersIn:
    """A person's set is in (a rejoin resends it); the person may still replace it."""


@dataclass(frozen=True, slots=True)
class Search:
    """Start the phase's search job for our power within ``limit``."""

    limit: SearchLimit


@dataclass(frozen=True, slots=True)
class Retime:
    """Give the phase's search job a new ``limit``."""

    limit: SearchLimit


@dataclass(frozen=True, slots=True)
class StopSearch:
    """Cancel the phase's search job, if one is running."""


@dataclass(frozen=True, slots=True)
class WakeAt:
    """Be asked again at ``at`` (:meth:`~bot.client.core.chooser.PhaseChooser.advance`)."""

    at: float


@dataclass(frozen=True, slots=True)
class HintSearch:
    """Search for our power within ``limit``: its answer is a hint for a person, never submitted.

    The answer ranks the ``ranked`` best sets, with each unit's spread.
    """

    limit: SearchLimit
    ranked: int = 0


@dataclass(frozen=True, slots=True)
class Note:
    """Publish ``note`` on the stream of notes."""

    note: notes.Note


Decision = (
    Submit
    | SubmitOrders
    | HoldBack
    | Ready
    | Final
    | OrdersIn
    | Search
    | Retime
    | StopSearch
    | WakeAt
    | HintSearch
    | Note
)
"""Everything a chooser may decide."""


class PhaseView:
    """The phase in play as a chooser sees it, read only, at the moment ``now``.

    ``rng`` is the core's random source (a chooser draws from it, so one seed
    gives one game); ``table`` the game's token table (every text of an order
    is written with it); ``iterations`` caps every search (tests).
    """

    __slots__ = ("_phase", "iterations", "now", "rng", "table")

    def __init__(
        self,
        phase: PhaseState,
        now: float,
        rng: Random,
        table: TokenTable,
        iterations: int | None = None,
    ) -> None:
        self._phase = phase
        self.now = now
        self.rng = rng
        self.table = table
        self.iterations = iterations

    @property
    def turn(self) -> Turn:
        """The phase's turn."""
        return self._phase.turn

    @property
    def position(self) -> Position:
        """The phase's position."""
        return self._phase.position

    @property
    def power(self) -> str:
        """Our power's token."""
        return self._phase.book.power

    @property
    def power_id(self) -> int:
        """Our power's index on the map."""
        return self._phase.book.power_id

    @property
    def submitted(self) -> Mapping[int, EngineOrder]:
        """The engine form of the movement or retreat set last submitted (empty before one)."""
        return self._phase.book.engine

    @property
    def ready(self) -> bool:
        """Whether our last word to the server on the phase was ``GOF``."""
        return self._phase.book.ready

    @property
    def search(self) -> SearchState | None:
        """The phase's search job and what it reported, if one runs."""
        return self._phase.search

    def submit_by(self) -> float:
        """The last moment to submit in the phase (the phase clock's)."""
        return self._phase.clock.submit_by()

    def search_limit(self) -> SearchLimit:
        """The phase clock's current limit for a search."""
        clock = self._phase.clock
        return SearchLimit(clock.stop_search_at(), clock.collect_helpers_by(), self.iterations)
