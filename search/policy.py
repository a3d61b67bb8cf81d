"""The interface every order-choosing player implements (heuristic bots, rollout policies).

A policy chooses one power's orders for one phase, in engine form (see
:mod:`adjudicator.orders`), from a position and a seeded random generator.
Policies hold no per-game state that a copied position would invalidate, so
the same object can play inside thousands of rollouts.
"""

from __future__ import annotations

from random import Random
from typing import Protocol

from adjudicator.orders import EngineOrder
from adjudicator.position import Position


class Policy(Protocol):
    """Chooses one power's orders in each kind of phase."""

    name: str

    def movement_orders(self, pos: Position, power: int, rng: Random) -> dict[int, EngineOrder]:
        """Orders for ``power``'s units, keyed by unit province (missing units hold)."""
        ...

    def retreat_orders(self, pos: Position, power: int, rng: Random) -> dict[int, EngineOrder]:
        """Orders for ``power``'s dislodged units, keyed by province (missing ones disband)."""
        ...

    def adjustment_orders(self, pos: Position, power: int, rng: Random) -> list[EngineOrder]:
        """Builds/waives or removals for ``power`` (missing ones are waived / made by the rules)."""
        ...
