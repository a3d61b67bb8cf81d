"""The interfaces of the players: a policy for every phase, a chooser for a phase under a clock.

A :class:`Policy` chooses one power's orders for one phase, in engine form (see
:mod:`adjudicator.orders`), from a position and a seeded random generator.
Policies hold no per-game state that a copied position would invalidate, so
the same object can play inside thousands of rollouts (heuristic bots, rollout
policies, MCTS itself).

A :class:`Chooser` is what the live bot's search worker runs: it is called once
per movement phase with a :class:`SearchRequest` (the position, the power, the
stop time) and reports order sets as it finds them, the last one marked final
(see :mod:`search.choosers`).
"""

from __future__ import annotations

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
