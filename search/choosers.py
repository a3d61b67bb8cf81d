"""Choosing one movement phase's orders under a clock: what the live bot's search worker runs.

A :class:`Chooser` is called once per movement phase with a
:class:`SearchRequest` (the position, the power, the stop time) and reports
order sets as it finds them, the last one marked final.  MCTS is an anytime
chooser (:class:`search.mcts.player.AnytimeChooser`); the heuristic players
answer once (:class:`HeuristicChooser`).  :func:`make_chooser` picks by
strategy spec; :func:`check_strategy` validates a spec before a game.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from random import Random
from typing import Any, Protocol

from adjudicator.orders import EngineOrder
from adjudicator.position import Position

Orders = dict[int, EngineOrder]
Report = Callable[[Orders, dict[str, Any], bool], None]
"""``report(orders, stats, final)``: an improved order set, or (``final``) the last one."""


@dataclass(frozen=True, slots=True)
class SearchRequest:
    """Choose ``power``'s orders in ``position``.

    The search stops at ``stop_at`` (or after ``iterations``) and stops
    waiting for root-parallel helpers at ``collect_by`` (monotonic readings).
    ``retimed()``, when given, says the current stop and collection times
    (the deadline moved): an anytime search follows them, helpers included.
    """

    position: Position
    power: int
    stop_at: float
    collect_by: float
    iterations: int | None = None
    retimed: Callable[[], tuple[float, float]] | None = None


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


class HeuristicChooser:
    """A one-shot strategy (``dumbbot``, ``random``) as a chooser: it answers at once."""

    def __init__(self, strategy: str, workers: int) -> None:
        self.strategy = strategy
        self.workers = workers

    def __call__(
        self,
        request: SearchRequest,
        rng: Random,
        report: Report,
        should_stop: Callable[[], bool],
    ) -> None:
        """Play the strategy's orders as the final answer."""
        from search.registry import make_policy

        budget = max(0.05, request.stop_at - time.monotonic())
        policy = make_policy(
            self.strategy, budget=budget, seed=rng.randrange(1 << 30), workers=self.workers
        )
        started = time.monotonic()
        orders = policy.movement_orders(request.position, request.power, rng)
        report(orders, {"strategy": self.strategy, "seconds": time.monotonic() - started}, True)

    def close(self) -> None:
        """Nothing to release."""


def check_strategy(strategy: str, workers: int = 1) -> None:
    """Raise :class:`search.registry.PolicySpecError` unless ``strategy`` can play here.

    Called before a game starts, so a misspelt spec or an unknown MCTS
    variant is a one-line error rather than a game played on the quick
    heuristic orders alone.
    """
    from search.registry import make_policy

    make_policy(strategy, budget=1.0, seed=0, workers=workers)


def make_chooser(strategy: str, workers: int, final_year: int | None = None) -> Chooser:
    """The chooser of movement orders for ``strategy``."""
    from search.mcts.player import AnytimeChooser
    from search.registry import parse_spec

    if parse_spec(strategy)[0] == "mcts":
        return AnytimeChooser(strategy, workers, final_year)
    return HeuristicChooser(strategy, workers)
