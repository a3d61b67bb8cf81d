"""Choosing one movement phase's orders under a clock: what the live bot's search worker runs.

A :class:`~search.policy.Chooser` is called once per movement phase with a
:class:`~search.policy.SearchRequest` (the position, the power, the stop time)
and reports order sets as it finds them, the last one marked final.  MCTS is an
anytime chooser (:class:`search.mcts.player.AnytimeChooser`); the heuristic
players answer once (:class:`HeuristicChooser`).  :func:`make_chooser` picks by
strategy spec; :func:`check_strategy` validates a spec before a game.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from random import Random

from search.mcts.player import AnytimeChooser
from search.policy import Chooser, Report, SearchRequest
from search.registry import make_policy, parse_spec


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
        budget = max(0.05, request.limit.stop_at - time.monotonic())
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
    make_policy(strategy, budget=1.0, seed=0, workers=workers)


def make_chooser(strategy: str, workers: int, final_year: int | None = None) -> Chooser:
    """The chooser of movement orders for ``strategy``."""
    if parse_spec(strategy)[0] == "mcts":
        return AnytimeChooser(strategy, workers, final_year)
    return HeuristicChooser(strategy, workers)
