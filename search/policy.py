"""The interfaces of the players: a policy for every phase, a chooser for a phase under a clock.

A :class:`Policy` chooses one power's orders for one phase, in engine form (see
:mod:`adjudicator.orders`), from a position and a seeded random generator.
Policies hold no per-game state that a copied position would invalidate, so
the same object can play inside thousands of rollouts (heuristic bots, rollout
policies, MCTS itself).

A :class:`Chooser` is what the live bot's search worker runs: it is called once
per movement phase with a :class:`SearchRequest` (the position, the power, its
:class:`SearchLimit`) and reports order sets as it finds them, the last one
marked final (see :mod:`search.choosers`).

:class:`SearchLimit` is the one value that says how long a search may think,
from the client core's phase clock through the worker to the tree.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from random import Random
from typing import Any, Protocol

from adjudicator.orders import EngineOrder, Orders
from adjudicator.position import Position


class Policy(Protocol):
    """Chooses one power's orders in each kind of phase."""

    name: str

    def movement_orders(self, pos: Position, power: int, rng: Random) -> Orders:
        """Orders for ``power``'s units, keyed by unit province (missing units hold)."""
        ...

    def retreat_orders(self, pos: Position, power: int, rng: Random) -> Orders:
        """Orders for ``power``'s dislodged units, keyed by province (missing ones disband)."""
        ...

    def adjustment_orders(self, pos: Position, power: int, rng: Random) -> list[EngineOrder]:
        """Builds/waives or removals for ``power`` (missing ones are waived / made by the rules)."""
        ...


Report = Callable[[Orders, dict[str, Any], bool], None]
"""``report(orders, stats, final)``: an improved order set, or (``final``) the last one."""


@dataclass(frozen=True, slots=True)
class SearchLimit:
    """How long one search may think.

    The search stops at ``stop_at`` and stops waiting for its root-parallel
    helpers at ``collect_by`` (monotonic readings; the same clock in every
    process; ``math.inf`` for a search capped by ``iterations`` alone), and
    ``iterations``, when set, caps it.  A retime is a new limit.
    """

    stop_at: float
    collect_by: float
    iterations: int | None = None

    def __post_init__(self) -> None:
        if self.collect_by < self.stop_at:
            raise ValueError(
                f"helpers collected at {self.collect_by}, before the stop {self.stop_at}"
            )
        if self.iterations is not None and self.iterations < 1:
            raise ValueError(f"an iteration cap of {self.iterations}")
        if math.isinf(self.stop_at) and self.iterations is None:
            raise ValueError("a search with no stop time needs an iteration cap")

    @property
    def timed(self) -> bool:
        """True when the limit has a stop time (not only an iteration cap)."""
        return not math.isinf(self.stop_at)


@dataclass(frozen=True, slots=True)
class SearchRequest:
    """Choose ``power``'s orders in ``position`` within ``limit``.

    ``retimed()``, when given, says the limit as it stands now (the deadline
    moved): an anytime search follows it, helpers included.
    """

    position: Position
    power: int
    limit: SearchLimit
    retimed: Callable[[], SearchLimit] | None = None
    ranked: int = 0
    """For a person's hint: rank this many of the best sets in the answer's statistics
    (:func:`search.mcts.root_summary.summarize`); choosers without a tree ignore it."""


class Chooser(Protocol):
    """Searches one movement phase per call, reporting improvements and one final set."""

    def __call__(
        self,
        request: SearchRequest,
        rng: Random,
        report: Report,
        should_stop: Callable[[], bool],
    ) -> None:
        """Choose orders, calling ``report(orders, stats, final)``; exactly once with final."""

    def close(self) -> None:
        """Release what the chooser holds (helper processes)."""
