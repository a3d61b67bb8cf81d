"""The state of the phase being played: its position, clock, order book and search."""

from __future__ import annotations

from dataclasses import dataclass

from adjudicator.orders import Orders
from adjudicator.position import Position
from bot.client.core.orderbook import OrderBook
from bot.client.core.timebudget import PhaseClock
from protocol.values import Turn
from search.mcts.worker_protocol import Answer, Progress
from search.policy import SearchLimit


@dataclass
class SearchState:
    """The movement phase's search job as the core follows it.

    ``limit`` is the last limit the worker was given; ``best`` its latest
    order set and ``answer`` its final one; ``pending`` an improvement not yet
    submitted (at most one SUB per resubmission interval); ``last_sent`` when
    the phase's last set went out.
    """

    job_id: int
    limit: SearchLimit
    last_sent: float
    best: Progress | Answer | None = None
    answer: Answer | None = None
    failed: bool = False
    pending: Orders | None = None

    @property
    def done(self) -> bool:
        """True once the final answer (or the failure) is in."""
        return self.answer is not None or self.failed


@dataclass
class PhaseState:
    """One phase as the client plays it.

    ``clock`` gives its times (moved by TME); ``book`` its orders (and the
    position, held there once); ``search`` is the movement phase's running
    search.  ``active`` is True while the phase is being played (a movement
    phase until its GOF); ``complete`` once our orders for it are final (a
    rejoin then only resends them); ``counted`` once it was counted as played;
    ``last_margin`` is the margin of its latest submission; ``ready`` once
    we told the server our orders are final (``GOF``); ``hint`` is a running
    search job whose answer is a hint for a person.
    """

    turn: Turn
    clock: PhaseClock
    book: OrderBook
    search: SearchState | None = None
    active: bool = False
    complete: bool = False
    counted: bool = False
    last_margin: float | None = None
    ready: bool = False
    hint: SearchState | None = None

    @property
    def position(self) -> Position:
        """The phase's position (the order book's)."""
        return self.book.position
