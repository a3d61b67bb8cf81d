"""The state of the phase being played: its position, clock, order book and playing task."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from adjudicator.position import Position
from bot.orderbook import OrderBook
from bot.thinker import ThinkJob
from bot.timebudget import PhaseClock
from protocol.values import Turn


@dataclass
class PhaseState:
    """One phase as the client plays it.

    ``clock`` gives its times (moved by TME); ``book`` its orders; ``task``
    plays it; ``job`` is the search job of a movement phase.  ``complete`` is
    True once our orders for it are final (a rejoin then only resends them);
    ``counted`` once it was counted as played; ``last_margin`` is the margin of
    its latest submission.
    """

    turn: Turn
    position: Position
    clock: PhaseClock
    book: OrderBook
    task: asyncio.Task[None] | None = None
    job: ThinkJob | None = None
    complete: bool = False
    counted: bool = False
    last_margin: float | None = None

    @property
    def running(self) -> bool:
        """True while the phase's task plays it."""
        return self.task is not None and not self.task.done()

    def stop(self) -> None:
        """Stop playing it (its task is cancelled; the search job is the client's to cancel)."""
        if self.running:
            self.task.cancel()  # type: ignore[union-attr]
