"""The thesis's rollout players and enemy models, as small policy objects.

Rollout players implement :class:`search.policy.Policy`; the thesis's ones
retreat and build at random ("generate random retreat orders for all
Powers"; "create random Build or Remove orders"), as its game simulation
does.  Enemy models give the enemies' orders at a tree node: ``fixed``
models are asked once per node (the thesis's expected orders, joined to every
action of the node); the others are asked again at every descent, so the
tree averages over them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from random import Random

from adjudicator.orders import EngineOrder, Orders
from adjudicator.position import Position
from search.dumbbot import DumbBot
from search.heuristics import PhaseHeuristics
from search.mcts.thesis_rules import (
    expected_orders,
    greedy_else_random_orders,
    heuristic_orders,
    weight_greedy_orders,
)
from search.policy import Policy
from search.randombot import RandomBot

MovementRule = Callable[[Position, int, Random], Orders]

_RANDOM = RandomBot()


class RulePlayer:
    """A rollout player: movement by ``rule``, retreats and builds at random (RandomBot's)."""

    def __init__(self, name: str, rule: MovementRule) -> None:
        self.name = name
        self.rule = rule

    def movement_orders(self, pos: Position, power: int, rng: Random) -> Orders:
        """``rule``'s orders."""
        return self.rule(pos, power, rng)

    def retreat_orders(self, pos: Position, power: int, rng: Random) -> Orders:
        """Random retreats (or disbands)."""
        return _RANDOM.retreat_orders(pos, power, rng)

    def adjustment_orders(self, pos: Position, power: int, rng: Random) -> list[EngineOrder]:
        """Random builds or removals."""
        return _RANDOM.adjustment_orders(pos, power, rng)

    def __repr__(self) -> str:
        return f"<RulePlayer {self.name}>"


def _two_step(pos: Position, power: int, rng: Random) -> Orders:
    return heuristic_orders(pos, power, rng, two_step=True)


RANDOM_PLAYER: Policy = _RANDOM
"""The default policy: random orders (BANDANA's RandomBot, which supports friends sometimes)."""

HEURISTIC_PLAYER = RulePlayer("heuristic", heuristic_orders)
"""V2's rollout policy for us (§3.2)."""

TWO_STEP_PLAYER = RulePlayer("two-step", _two_step)
"""V3's rollout policy for us (§3.3)."""

EXPECTED_PLAYER = RulePlayer("expected", expected_orders)
"""§3.1's enemy expectation as a player: into an adjacent foreign centre, else hold."""

GREEDY_ELSE_RANDOM_PLAYER = RulePlayer("greedy-else-random", greedy_else_random_orders)
"""V4's rollout opponent (§3.4)."""

WEIGHT_GREEDY_PLAYER = RulePlayer("weight-greedy", weight_greedy_orders)
"""V7's rollout policy (§3.7), and V8's weighted opponent."""


class EnemyModel:
    """The enemies' orders at a tree node: ``player``'s orders for each enemy power.

    ``fixed`` models are asked once per node; the others at every descent.
    """

    def __init__(self, name: str, player: Policy, *, fixed: bool) -> None:
        self.name = name
        self.player = player
        self.fixed = fixed

    def orders(self, pos: Position, us: int, rng: Random) -> Orders:
        """Orders for every unit of every power but ``us``."""
        out: Orders = {}
        for power in sorted({u[0] for u in pos.units.values()}):
            if power != us:
                out.update(self.player.movement_orders(pos, power, rng))
        return out

    def __repr__(self) -> str:
        return f"<EnemyModel {self.name}{' fixed' if self.fixed else ''}>"


EXPECTED_ENEMIES = EnemyModel("expected", EXPECTED_PLAYER, fixed=True)
"""§3.1's ``CalculateEnemyExpectedOrders``, fixed per node (V1-V8)."""


@dataclass(frozen=True)
class PhasePlayers:
    """Who plays the retreats and adjustments inside the tree: us, and the enemies."""

    us: Policy
    enemies: Policy

    def for_powers(self, num_powers: int, us: int) -> list[Policy | None]:
        """One policy per power."""
        return [self.us if p == us else self.enemies for p in range(num_powers)]


RANDOM_PHASES = PhasePlayers(_RANDOM, _RANDOM)
"""The thesis's game simulation: random retreats and builds for everyone."""


class BotPhases:
    """Our own retreats and adjustments, as the live bot plays them (random; DumbBot-valued).

    Its movement orders (never asked for inside the tree) are DumbBot's.
    """

    name = "bot-phases"

    def __init__(self) -> None:
        self._movement = DumbBot()
        self._phases = PhaseHeuristics()

    @property
    def heuristics(self) -> PhaseHeuristics:
        """The player of our retreats and adjustments."""
        return self._phases

    def movement_orders(self, pos: Position, power: int, rng: Random) -> Orders:
        """DumbBot's orders."""
        return self._movement.movement_orders(pos, power, rng)

    def retreat_orders(self, pos: Position, power: int, rng: Random) -> Orders:
        """Random legal retreats."""
        return self._phases.retreat_orders(pos, power, rng)

    def adjustment_orders(self, pos: Position, power: int, rng: Random) -> list[EngineOrder]:
        """DumbBot-valued builds or removals."""
        return self._phases.adjustment_orders(pos, power, rng)
