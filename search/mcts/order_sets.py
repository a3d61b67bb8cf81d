"""Our candidate order sets at a tree node (the thesis's ``CreatePossibleActions``).

An *action* is a complete order set for our units, as a tuple of
``(province, engine order)`` pairs sorted by province (hashable, so root
statistics can be merged across worker processes).  Each generator here
builds an :class:`~search.mcts.uct.ActionSource` for a position, which hands
the actions out one at a time, in the order the variant expands them:

* :class:`ThesisActions` — V1-V4: the combinations of every unit's
  :func:`~search.mcts.thesis_rules.possible_orders`, in random order;
* :class:`WeightedActions` — V5-V8: the same per-unit orders, minus those
  ending in a region weighted below the mean of all regions (the best order
  is kept when that prunes everything), combined best first by the summed
  region weights (equation 5);
* :class:`SampledActions` — ours: distinct order sets drawn from a stochastic
  player (DumbBot with livelier choices), first its usual choice, then others;
* :class:`MixedActions` — several generators taken in turn.

The thesis builds the whole cartesian product; with a dozen units that is
millions of sets, so the sources here are lazy and stop after ``cap``
actions.  Best-first order comes from a heap over per-unit option indices
(each combination is reached once, from its predecessor that differs in the
highest-indexed unit moved off its best option).
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from random import Random
from typing import Protocol

from adjudicator.legal import complete_with_holds
from adjudicator.orders import EngineOrder, Orders
from adjudicator.position import Position
from search.compiled_search import plain_sum
from search.mcts.thesis_rules import UnitOptions, possible_orders
from search.mcts.weights import RegionWeights
from search.policy import Policy

Action = tuple[tuple[int, EngineOrder], ...]
"""A complete order set for our units: ``(province, order)`` pairs sorted by province."""

DEFAULT_CAP = 5000
"""Most actions one node hands out."""


def as_action(orders: Orders) -> Action:
    """An order dict as an :data:`Action`."""
    return tuple(sorted(orders.items()))


class ActionGenerator(Protocol):
    """Builds the action source of a node for ``power`` in ``pos``."""

    def source(self, pos: Position, power: int, rng: Random) -> Sources:
        """The node's actions, lazily."""
        ...


# --- sources -----------------------------------------------------------------------------


class EmptySource:
    """No actions at all (a power without units)."""

    def next(self, rng: Random) -> Action | None:
        """Always ``None``."""
        return None


class RandomCombinations:
    """Distinct combinations of per-unit options, drawn uniformly at random, up to ``cap``."""

    __slots__ = ("cap", "options", "seen", "size")

    def __init__(self, options: UnitOptions, cap: int = DEFAULT_CAP) -> None:
        self.options = options
        self.size = math.prod(len(o) for _, o in options)
        self.cap = min(cap, self.size)
        self.seen: set[int] = set()

    def next(self, rng: Random) -> Action | None:
        """A combination not handed out before, or ``None`` once ``cap`` are out."""
        if len(self.seen) >= self.cap:
            return None
        while True:
            index = rng.randrange(self.size)
            if index not in self.seen:
                break
        self.seen.add(index)
        out = []
        for prov, opts in self.options:
            index, k = divmod(index, len(opts))
            out.append((prov, opts[k]))
        return tuple(out)


class BestFirstCombinations:
    """Combinations of per-unit options in decreasing summed value, up to ``cap``.

    ``options`` are each unit's ``(order, value)`` pairs; the sum of the
    chosen orders' values ranks a combination (ties: the earlier popped).
    """

    __slots__ = ("cap", "handed", "heap", "provs", "sorted_options")

    def __init__(
        self, options: Sequence[tuple[int, Sequence[tuple[EngineOrder, float]]]], cap: int
    ) -> None:
        self.provs = [prov for prov, _ in options]
        self.sorted_options = [sorted(opts, key=lambda ov: -ov[1]) for _, opts in options]
        self.cap = cap
        self.handed = 0
        start = tuple(0 for _ in self.provs)
        total = plain_sum(opts[0][1] for opts in self.sorted_options)  # as the compiled tree
        self.heap: list[tuple[float, tuple[int, ...], int]] = [(-total, start, 0)]

    def next(self, rng: Random) -> Action | None:
        """The best combination not handed out yet, or ``None``."""
        if not self.heap or self.handed >= self.cap:
            return None
        neg, idx, lowest = heapq.heappop(self.heap)
        opts = self.sorted_options
        for u in range(lowest, len(idx)):
            k = idx[u]
            if k + 1 < len(opts[u]):
                step = opts[u][k][1] - opts[u][k + 1][1]
                nxt = (*idx[:u], k + 1, *idx[u + 1 :])
                heapq.heappush(self.heap, (neg + step, nxt, u))
        self.handed += 1
        pairs = zip(self.provs, idx, strict=True)
        return tuple((prov, opts[u][k][0]) for u, (prov, k) in enumerate(pairs))


class SampledActions:
    """Distinct actions drawn from ``draw``; gives up after ``patience`` repeats in a row."""

    __slots__ = ("cap", "draw", "patience", "seen")

    def __init__(
        self, draw: Callable[[Random], Action], cap: int = DEFAULT_CAP, patience: int = 20
    ) -> None:
        self.draw = draw
        self.cap = cap
        self.patience = patience
        self.seen: set[Action] = set()

    def next(self, rng: Random) -> Action | None:
        """A new action, or ``None`` once ``cap`` are out or the draws keep repeating."""
        if len(self.seen) >= self.cap:
            return None
        for _ in range(self.patience):
            action = self.draw(rng)
            if action not in self.seen:
                self.seen.add(action)
                return action
        return None


class Deferred:
    """A source built when its first action is asked for (many tree nodes never ask)."""

    __slots__ = ("build", "source")

    def __init__(self, build: Callable[[], BestFirstCombinations | EmptySource]) -> None:
        self.build: Callable[[], BestFirstCombinations | EmptySource] | None = build
        self.source: BestFirstCombinations | EmptySource | None = None

    def next(self, rng: Random) -> Action | None:
        """The built source's next action."""
        if self.source is None:
            assert self.build is not None
            self.source, self.build = self.build(), None
        return self.source.next(rng)


class InTurn:
    """Several sources taken in turn, skipping exhausted ones and actions already handed out."""

    __slots__ = ("seen", "sources", "turn")

    def __init__(self, sources: Sequence[Sources]) -> None:
        self.sources = list(sources)
        self.turn = 0
        self.seen: set[Action] = set()

    def next(self, rng: Random) -> Action | None:
        """The next new action of the next source that still has one."""
        while self.sources:
            source = self.sources[self.turn % len(self.sources)]
            action = source.next(rng)
            if action is None:
                self.sources.remove(source)
                continue
            self.turn += 1
            if action not in self.seen:
                self.seen.add(action)
                return action
        return None


Sources = (
    EmptySource | RandomCombinations | BestFirstCombinations | SampledActions | Deferred | InTurn
)
"""Every action source this module builds."""


# --- generators ----------------------------------------------------------------------------


@dataclass(frozen=True)
class ThesisActions:
    """V1-V4: all combinations of :func:`possible_orders`, in random order."""

    cap: int = DEFAULT_CAP

    def source(self, pos: Position, power: int, rng: Random) -> Sources:
        """The combinations, lazily."""
        options = possible_orders(pos, power)
        return RandomCombinations(options, self.cap) if options else EmptySource()


def weighted_options(
    pos: Position, power: int, weights: RegionWeights | None = None
) -> list[tuple[int, list[tuple[EngineOrder, float]]]]:
    """V5's per-unit orders with their region weights, pruned below the mean region weight."""
    w = weights if weights is not None else RegionWeights(pos, power)
    out = []
    for prov, options in possible_orders(pos, power):
        valued = [(order, w.order_value(prov, order)) for order in options]
        kept = [ov for ov in valued if ov[1] >= w.mean]
        if not kept:
            kept = [max(valued, key=lambda ov: ov[1])]
        out.append((prov, kept))
    return out


@dataclass(frozen=True)
class WeightedActions:
    """V5-V8: pruned by the mean region weight, combined best first by summed weight."""

    cap: int = DEFAULT_CAP

    def source(self, pos: Position, power: int, rng: Random) -> Sources:
        """The combinations, best first, lazily (the weights only when first asked)."""

        def build() -> BestFirstCombinations | EmptySource:
            options = weighted_options(pos, power)
            return BestFirstCombinations(options, self.cap) if options else EmptySource()

        return Deferred(build)


@dataclass(frozen=True)
class SampledFromPlayers:
    """Ours: distinct order sets drawn from stochastic players, in turn.

    ``players`` are tried in turn (e.g. DumbBot as it plays, then a
    livelier DumbBot), so the first actions are the likeliest good ones.
    """

    players: tuple[Policy, ...]
    cap: int = DEFAULT_CAP
    patience: int = 20

    def source(self, pos: Position, power: int, rng: Random) -> Sources:
        """Draws from each player in turn, lazily."""
        if not any(u[0] == power for u in pos.units.values()):
            return EmptySource()
        sources: list[Sources] = []
        for player in self.players:

            def draw(r: Random, player: Policy = player) -> Action:
                orders = player.movement_orders(pos, power, r)
                return as_action(complete_with_holds(pos, power, orders))

            sources.append(SampledActions(draw, self.cap, self.patience))
        return InTurn(sources)


@dataclass(frozen=True)
class MixedActions:
    """Several generators' actions taken in turn (duplicates dropped)."""

    generators: tuple[ActionGenerator, ...]

    def source(self, pos: Position, power: int, rng: Random) -> Sources:
        """Each generator's source, in turn."""
        return InTurn([g.source(pos, power, rng) for g in self.generators])
