"""The enemies at the root as players, not dice: decoupled bandits over their candidate order sets.

``dm`` draws every enemy's orders from DumbBot at every descent: it assumes
each enemy plays exactly as DumbBot would.  Here, at the root only, every
enemy that *interacts* with us (a unit within :data:`INTERACTION_RADIUS`
provinces of one of our units or centres) instead chooses among a few
candidate order sets of its own — distinct samples of DumbBot's choices, as
ours are — with its own UCB1 bandit over *its* reward (its centres at the end
of the rollout over 18, 1 for its solo, 0 for anyone else's).  Our choice is
UCT over our actions, as in every variant.  This is simultaneous-move MCTS
with decoupled selection at the root (Lanctot et al. 2013; Tak et al. 2014),
the sampled cousin of the root equilibrium search of Gray et al. 2021: each
player's visit distribution tends to a best response to the others', so an
enemy plays the DumbBot-like order set that does best *for it* against what
we play, instead of a random one.  Enemies that do not interact with us, and
every enemy below the root, are still drawn from DumbBot.

An *adaptive* search asks how DumbBot-like each enemy has played this game
(:mod:`search.opponents`, from the orders it gave): an enemy that plays as
DumbBot does is drawn from DumbBot, as in ``dm``, which is exact against
DumbBot; the less it resembles DumbBot, the more often it chooses by its
bandit instead.  With no statistics (the first move), every enemy is DumbBot.

The bandits hear their rewards through :meth:`RootGameDomain.rollout`: each
MCTS iteration steps the root exactly once (the root is a chance node with
``resample``) and rolls out exactly once, in that order.
"""

from __future__ import annotations

import math
from random import Random

from adjudicator.movement import next_position
from adjudicator.orders import EngineOrder
from adjudicator.position import Position
from search.mcts.actions import Action, ActionGenerator
from search.mcts.config import Variant
from search.mcts.domain import DiplomacyDomain
from search.mcts.uct import Node

INTERACTION_RADIUS = 2
"""An enemy interacts with us if one of its units is this close to one of our units or centres."""

ENEMY_ARMS = 8
"""Candidate order sets per interacting enemy at the root."""

LIKENESS_FLOOR = 0.8
"""The DumbBot-likeness (:meth:`~search.opponents.OpponentStats.dumbbot_likeness`) at and
below which an adaptive search lets an interacting enemy always choose by its bandit;
above it, the enemy plays DumbBot's own draw with a probability growing linearly to 1."""

RM_GAMMA = 0.2
"""The share of uniform exploration in the enemies' regret matching (``rule="rm"``)."""

ENEMY_CP = 0.05
"""The enemies' UCB1 exploration constant.

Their rewards differ by a centre or so (0.05 of the reward's range) between
candidates; the search's own Cp (1/sqrt 2) would keep them close to uniform
for the whole move.
"""

Orders = dict[int, EngineOrder]


def interacting_powers(pos: Position, us: int, radius: int = INTERACTION_RADIUS) -> list[int]:
    """The enemies with a unit within ``radius`` provinces of one of our units or centres."""
    m = pos.map
    ours = {p for p, u in pos.units.items() if u[0] == us}
    ours.update(c for c in m.supply_centres if pos.owners[c] == us)
    if not ours:
        return []
    found: set[int] = set()
    distance = m.distance
    for prov, unit in pos.units.items():
        power = unit[0]
        if power == us or power in found:
            continue
        row = distance[prov]
        if any(row[q] <= radius for q in ours):
            found.add(power)
    return sorted(found)


class EnemyBandit:
    """One enemy's candidate order sets at the root and UCB1 statistics over them."""

    __slots__ = ("arms", "scale", "totals", "visits")

    def __init__(self, arms: list[Orders], cp: float) -> None:
        self.arms = arms
        self.visits = [0] * len(arms)
        self.totals = [0.0] * len(arms)
        self.scale = 2 * cp

    def choose(self, rng: Random) -> int:
        """The arm to play: an untried one at random, else the best UCB1 score."""
        untried = [k for k, v in enumerate(self.visits) if v == 0]
        if untried:
            return untried[rng.randrange(len(untried))]
        log_n = math.log(sum(self.visits))
        scale = self.scale
        best, best_score = 0, -math.inf
        for k, (v, t) in enumerate(zip(self.visits, self.totals, strict=True)):
            score = t / v + scale * math.sqrt(2 * log_n / v)
            if score > best_score:
                best, best_score = k, score
        return best

    def update(self, arm: int, reward: float) -> None:
        """Count one play of ``arm`` with ``reward``."""
        self.visits[arm] += 1
        self.totals[arm] += reward

    def strategy(self) -> list[float]:
        """The visit distribution over the arms (the bandit's average strategy)."""
        n = sum(self.visits)
        return [v / n if n else 1 / len(self.visits) for v in self.visits]


class RegretMatcher(EnemyBandit):
    """Regret matching with sampled rewards (Lanctot et al. 2013's SM-MCTS with RM).

    The arm is drawn from ``(1 - gamma)`` times the positive regrets,
    normalised, plus ``gamma`` uniform; after a play of arm ``a`` with
    probability ``sigma(a)`` and reward ``x``, every arm ``b``'s regret grows
    by ``x / sigma(a) - x`` for ``b == a`` and by ``-x`` otherwise.
    """

    __slots__ = ("gamma", "last", "regrets")

    def __init__(self, arms: list[Orders], gamma: float) -> None:
        super().__init__(arms, 0.0)
        self.regrets = [0.0] * len(arms)
        self.gamma = gamma
        self.last: list[float] = []

    def _sigma(self) -> list[float]:
        positive = [max(0.0, r) for r in self.regrets]
        total = sum(positive)
        k = len(positive)
        if total <= 0:
            return [1 / k] * k
        g = self.gamma
        return [(1 - g) * r / total + g / k for r in positive]

    def choose(self, rng: Random) -> int:
        """An arm drawn from the current regret-matching strategy."""
        sigma = self.last = self._sigma()
        x = rng.random()
        for k, p in enumerate(sigma):
            x -= p
            if x < 0:
                return k
        return len(sigma) - 1

    def update(self, arm: int, reward: float) -> None:
        """Count the play and update every arm's regret (importance-weighted)."""
        super().update(arm, reward)
        sigma = self.last or self._sigma()
        regrets = self.regrets
        for k in range(len(regrets)):
            regrets[k] -= reward
        regrets[arm] += reward / sigma[arm]


def enemy_candidates(
    pos: Position, power: int, generator: ActionGenerator, count: int, rng: Random
) -> list[Orders]:
    """Up to ``count`` distinct order sets for ``power``, the first ``generator`` hands out."""
    source = generator.source(pos, power, rng)
    out: list[Orders] = []
    while len(out) < count:
        action: Action | None = source.next(rng)
        if action is None:
            break
        out.append(dict(action))
    return out


class RootGameDomain(DiplomacyDomain):
    """:class:`DiplomacyDomain` whose interacting enemies pick their root orders by bandits.

    The variant's ``enemies`` model gives the orders of every other enemy, and
    of all enemies below the root.  ``arms`` candidates per interacting enemy
    come from ``candidates`` once, when the root is first stepped;
    their bandits are UCB1 with ``enemy_cp`` (``rule="ucb"``) or regret
    matching (``rule="rm"``, :class:`RegretMatcher`).  With ``adaptive``, each plays
    DumbBot's own draw instead with a probability set by its DumbBot-likeness
    (see the module docstring; ``floor`` is :data:`LIKENESS_FLOOR`).
    """

    def __init__(
        self,
        variant: Variant,
        us: int,
        final_year: int,
        num_powers: int,
        *,
        candidates: ActionGenerator,
        arms: int = ENEMY_ARMS,
        radius: int = INTERACTION_RADIUS,
        enemy_cp: float = ENEMY_CP,
        adaptive: bool = False,
        floor: float = LIKENESS_FLOOR,
        rule: str = "ucb",
    ) -> None:
        if rule not in ("ucb", "rm"):
            raise ValueError(f"the enemies' rule must be 'ucb' or 'rm', not {rule!r}")
        super().__init__(variant, us, final_year, num_powers)
        self.candidates = candidates
        self.arms = arms
        self.radius = radius
        self.enemy_cp = enemy_cp
        self.adaptive = adaptive
        self.floor = floor
        self.rule = rule
        self.dumbbot_share: dict[int, float] = {}
        self.root: Node[Position, Action] | None = None
        self.bandits: dict[int, EnemyBandit] = {}
        self._pending: dict[int, int] | None = None

    def _start(self, node: Node[Position, Action], rng: Random) -> None:
        """Meet the root (the first node ever stepped) and build its enemies' bandits."""
        self.root = node
        pos = node.state
        for power in interacting_powers(pos, self.us, self.radius):
            arms = enemy_candidates(pos, power, self.candidates, self.arms, rng)
            if len(arms) > 1:
                if self.rule == "rm":
                    self.bandits[power] = RegretMatcher(arms, RM_GAMMA)
                else:
                    self.bandits[power] = EnemyBandit(arms, self.enemy_cp)
                self.dumbbot_share[power] = self._dumbbot_share(power)

    def _dumbbot_share(self, power: int) -> float:
        """How often ``power`` plays DumbBot's own draw instead of its bandit's choice."""
        stats = self.variant.opponents
        if not self.adaptive:
            return 0.0
        if stats is None:
            return 1.0
        likeness = stats.dumbbot_likeness(power)
        return max(0.0, (likeness - self.floor) / (1.0 - self.floor))

    def step(self, node: Node[Position, Action], action: Action, rng: Random) -> Position:
        """At the root: bandit enemies and the model's others; below: as ``dm``."""
        if self.root is None:
            self._start(node, rng)
        if node is not self.root or not self.bandits:
            return super().step(node, action, rng)
        pos = node.state
        model = self.enemy_model()
        orders: Orders = {}
        picks: dict[int, int] = {}
        for power in sorted({u[0] for u in pos.units.values()}):
            if power == self.us:
                continue
            bandit = self.bandits.get(power)
            if bandit is None or rng.random() < self.dumbbot_share[power]:
                orders.update(model.player.movement_orders(pos, power, rng))
            else:
                k = picks[power] = bandit.choose(rng)
                orders.update(bandit.arms[k])
        self._pending = picks
        orders.update(action)
        return self.to_next_movement(next_position(pos, orders), rng)

    def rollout(self, state: Position, rng: Random) -> float:
        """Play on, tell the root's bandits their rewards, and return ours."""
        end = self.play_out(state, rng)
        picks = self._pending
        if picks is not None:
            self._pending = None
            rewards = self.values(end)
            for power, k in picks.items():
                self.bandits[power].update(k, rewards[power])
        return self.reward(end)

    def enemy_strategies(self) -> dict[int, list[float]]:
        """Each bandit enemy's visit distribution over its arms (for tests and reports)."""
        return {p: b.strategy() for p, b in self.bandits.items()}
