"""What an agreement is worth to us: paired rollouts with and without it, at a fixed budget.

:func:`agreement_gain` plays ``rollouts`` short games from a position with
DumbBot for every power, once with the orders restrained by the agreements
(:mod:`search.constraints`) and once with the same random numbers without
them, and returns the mean difference in our centres at the end (common random
numbers: the same seed for each pair, so the noise of the rollouts cancels
where the agreement changes nothing).  It is pure and deterministic given its
seed, and its cost is fixed by ``rollouts`` and ``years`` — the negotiator's
budget — never by a clock.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from random import Random

from adjudicator.orders import EngineOrder, Orders
from adjudicator.position import Position
from search.constraints import NO_CONSTRAINTS, Constraints
from search.dumbbot import DumbBot
from search.policy import Policy
from search.simulate import play_phase

DEFAULT_ROLLOUTS = 8
"""Paired rollouts per evaluation (each plays the position twice)."""

DEFAULT_YEARS = 2
"""Years each rollout plays (to the winter of the last one)."""


@dataclass(frozen=True, slots=True)
class Budget:
    """How much one evaluation may play: ``rollouts`` pairs of games of ``years`` years."""

    rollouts: int = DEFAULT_ROLLOUTS
    years: int = DEFAULT_YEARS

    def __post_init__(self) -> None:
        if self.rollouts < 1 or self.years < 1:
            raise ValueError(
                f"an evaluation budget of {self.rollouts} rollouts, {self.years} years"
            )


DEFAULT_BUDGET = Budget()
"""The negotiator's budget per evaluation."""


class _Restrained:
    """A policy whose movement orders are restrained by ``constraints`` (other phases as is)."""

    def __init__(self, inner: Policy, constraints: Constraints) -> None:
        self.inner = inner
        self.constraints = constraints
        self.name = f"restrained:{inner.name}"

    def movement_orders(self, pos: Position, power: int, rng: Random) -> Orders:
        """The inner player's orders with each breaking an agreement made a hold."""
        return self.constraints.restrain(pos, power, self.inner.movement_orders(pos, power, rng))

    def retreat_orders(self, pos: Position, power: int, rng: Random) -> Orders:
        """The inner player's retreats."""
        return self.inner.retreat_orders(pos, power, rng)

    def adjustment_orders(self, pos: Position, power: int, rng: Random) -> list[EngineOrder]:
        """The inner player's builds or removals."""
        return self.inner.adjustment_orders(pos, power, rng)


def play_out(
    pos: Position, policies: Sequence[Policy | None], rng: Random, last_year: int
) -> Position:
    """Play ``pos`` on with ``policies`` to the end of ``last_year`` (or a solo)."""
    while not pos.ended_by(last_year):
        before = (pos.season, pos.year)
        pos = play_phase(pos, policies, rng)
        if (pos.season, pos.year) == before:  # no phase to play (should not happen)
            break
    return pos


def rollout_centres(pos: Position, us: int, constraints: Constraints, seed: int, years: int) -> int:
    """Our centres after a DumbBot rollout of ``years`` years from ``pos`` under ``constraints``."""
    bot = DumbBot()
    player: Policy = _Restrained(bot, constraints) if constraints else bot
    policies: list[Policy | None] = [player] * pos.map.num_powers
    end = play_out(pos, policies, Random(seed), pos.year + years - 1)
    return end.centre_counts()[us]


def agreement_gain(
    pos: Position,
    us: int,
    with_it: Constraints,
    without_it: Constraints = NO_CONSTRAINTS,
    *,
    seed: int,
    budget: Budget = DEFAULT_BUDGET,
) -> float:
    """Our mean centres with ``with_it`` minus without it (``without_it``), over paired rollouts.

    Any phase may start it (retreats and adjustments are played on by the same players).
    """
    total = 0
    for i in range(budget.rollouts):
        pair_seed = seed * 1_000_003 + i
        total += rollout_centres(pos, us, with_it, pair_seed, budget.years)
        total -= rollout_centres(pos, us, without_it, pair_seed, budget.years)
    return total / budget.rollouts
