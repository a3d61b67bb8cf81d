"""Sequential halving at the root with common random numbers: a flat search for few iterations.

At a few hundred iterations per move, UCT with progressive widening spreads
its visits over some forty candidate order sets, about ten noisy rollouts
each, and picks among them almost by chance.  This search spends the same
budget on a *race*: it takes the first :data:`CANDIDATES` candidates of the
variant's generator (DumbBot's own choices first), evaluates every one of
them in the same *scenarios* — a scenario is a seed, so the enemies' orders
at the root, and as far as the positions agree the dice of the rollout, are
the same for every candidate (common random numbers) — and after rounds 4,
8, 16, ... of scenarios drops the worse half by mean reward.  Comparisons
under identical enemy orders are far sharper than between independent
rollouts, and sequential halving is the budget-aware way to find the best
arm (Karnin, Koren and Somekh 2013).  Anytime: the best survivor so far is
the answer whenever the search stops.  A field decided before the time is up
is raced again, its winner against the generator's next candidates; once the
generator has none left, the last :data:`FINALISTS` race on.
"""

from __future__ import annotations

import math
from random import Random

from adjudicator.position import Position
from search.mcts.actions import Action
from search.mcts.uct import Edge, Mcts, Node

CANDIDATES = 16
"""Order sets raced at the root."""

FIRST_HALVING = 4
"""Scenarios every candidate plays before the first halving (then 8, 16, ...)."""

FINALISTS = 2
"""The field stops halving at this size once the generator has no candidate left."""


class HalvingSearch(Mcts[Position, Action]):
    """A race of the root's first candidates over shared scenarios (see the module docstring).

    Built like :class:`~search.mcts.uct.Mcts` (its tree options are ignored);
    ``candidates`` is how many order sets start the race.
    """

    def __init__(self, *args: object, candidates: int = CANDIDATES, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.candidates = candidates
        self.survivors: list[Edge[Position, Action]] = []
        self.round = 0
        self.turn = 0
        self.scenario = 0
        self.started = False

    def _start(self) -> None:
        self.started = True
        root = self.root
        if self.domain.terminal(root.state):
            return
        root.source = self.domain.actions(root.state, self.rng)
        self.survivors = self._admit(self.candidates)
        self.scenario = self.rng.randrange(1 << 62)

    def _admit(self, count: int) -> list[Edge[Position, Action]]:
        """Up to ``count`` new candidates from the root's source, as new root edges."""
        root = self.root
        new: list[Edge[Position, Action]] = []
        while len(new) < count and not root.exhausted and root.source is not None:
            action = root.source.next(self.rng)
            if action is None:
                root.exhausted = True
                break
            new.append(Edge(action))
        root.edges.extend(new)
        return new

    def iterate(self) -> None:
        """Play the next survivor in the current scenario; halve after a scheduled round."""
        if not self.started:
            self._start()
        root = self.root
        if not self.survivors:  # nothing to choose: the game is over or we have no unit
            root.visits += 1
            self.iterations += 1
            return
        edge = self.survivors[self.turn]
        dice = Random(self.scenario)
        child = Node(self.domain.step(root, edge.action, dice))
        self.nodes += 1
        if not self.domain.terminal(child.state):
            self.rollouts += 1
        reward = self.domain.rollout(child.state, dice)
        edge.visits += 1
        edge.total += reward
        root.visits += 1
        self.iterations += 1
        self.turn += 1
        if self.turn == len(self.survivors):
            self._next_round()

    def _next_round(self) -> None:
        self.turn = 0
        self.round += 1
        self.scenario = self.rng.randrange(1 << 62)
        if not self._halving_round(self.round) or len(self.survivors) == 1:
            return
        self.survivors.sort(key=lambda e: e.mean, reverse=True)
        keep = math.ceil(len(self.survivors) / 2)
        if keep == 1:
            challengers = self._admit(self.candidates - 1)
            if challengers:
                self.survivors[1:] = challengers
                self.round = 0
                return
            keep = FINALISTS
        del self.survivors[keep:]

    @staticmethod
    def _halving_round(k: int) -> bool:
        """Rounds after which the field halves: 4, 8, 16, ..."""
        return k >= FIRST_HALVING and k & (k - 1) == 0

    def ranked(self) -> list[Edge[Position, Action]]:
        """The survivors best first by mean, then the eliminated by visits and mean."""
        alive = set(map(id, self.survivors))
        return sorted(
            self.root.edges,
            key=lambda e: (id(e) in alive, e.mean if id(e) in alive else e.visits, e.mean),
            reverse=True,
        )
