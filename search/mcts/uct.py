"""Monte Carlo Tree Search with UCT, independent of Diplomacy.

A :class:`Domain` says what the states and actions of a game are; :class:`Mcts`
grows a tree over them, one :meth:`Mcts.iterate` at a time:

1. **Selection** — from the root, while a node cannot take a new action, follow
   the edge with the best UCT score ``mean + 2 * Cp * sqrt(2 * ln(n) / visits)``
   (``n`` the node's visits, ``visits`` the edge's; Browne et al. 2012).
2. **Expansion** — a node that can take a new action draws the next one from
   its :class:`ActionSource` (which fixes the order: random for the thesis's
   V1-V4, best first for V5-V8) and steps the game to a child.
   ``double_expansion`` (V6) expands the new child once more.
3. **Simulation** — the domain rolls the leaf out and returns a reward in [0, 1].
4. **Backpropagation** — every node and edge on the path counts the visit and
   adds the reward.

Transitions may be random (the enemies' orders, retreats, builds).  With
``resample=False`` (the thesis) an edge keeps the one child it was expanded
into; with ``resample=True`` every descent steps the game again and the edge
keeps one child per distinct outcome (a chance node), so the statistics
average over the randomness.

A node may take a new action while it has untried ones, or — with
``widening=(k, alpha)`` (progressive widening) — only while it has fewer than
``k * visits ** alpha`` edges, so that large action lists are explored in
depth before in breadth.

The final choice (:meth:`Mcts.best`) is the root edge with the highest mean
(``final="mean"``, the thesis's) or the most visits (``final="visits"``, the
robust child).  Everything random comes from the generator given to the
search, so a run with an iteration cap repeats exactly for a seed.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from random import Random
from typing import Generic, Protocol, TypeVar

S = TypeVar("S")
A = TypeVar("A")
A_co = TypeVar("A_co", covariant=True)

CP_THESIS = 1 / math.sqrt(2)
"""The thesis's exploration constant Cp = 1/sqrt(2) (Kocsis and Szepesvári 2006)."""


class ActionSource(Protocol[A_co]):
    """The actions a node may take, handed out one at a time (``None`` when none are left)."""

    def next(self, rng: Random) -> A_co | None:
        """The next untried action, or ``None``."""
        ...


class Domain(Protocol[S, A]):
    """A game as the search sees it."""

    def actions(self, state: S, rng: Random) -> ActionSource[A]:
        """The actions of ``state`` (called once per node, when first asked)."""
        ...

    def step(self, node: Node[S, A], action: A, rng: Random) -> S:
        """The state after taking ``action`` in ``node.state`` (may be random)."""
        ...

    def key(self, state: S) -> Hashable:
        """An exact, hashable identity of ``state`` (to recognise repeated outcomes)."""
        ...

    def terminal(self, state: S) -> bool:
        """Whether the game is over in ``state``."""
        ...

    def rollout(self, state: S, rng: Random) -> float:
        """Play ``state`` out and return the reward, in [0, 1]."""
        ...


class Edge(Generic[S, A]):
    """An action tried at a node: its statistics and the child node(s) it led to."""

    __slots__ = ("action", "children", "total", "visits")

    def __init__(self, action: A) -> None:
        self.action = action
        self.visits = 0
        self.total = 0.0
        self.children: dict[Hashable, Node[S, A]] = {}

    @property
    def mean(self) -> float:
        """The average reward through this edge (0 before any visit)."""
        return self.total / self.visits if self.visits else 0.0


class Node(Generic[S, A]):
    """A state in the tree: its visits, tried edges, and its source of untried actions.

    ``data`` is free for the domain (e.g. enemy orders fixed once per node).
    """

    __slots__ = ("data", "edges", "exhausted", "source", "state", "visits")

    def __init__(self, state: S) -> None:
        self.state = state
        self.visits = 0
        self.edges: list[Edge[S, A]] = []
        self.source: ActionSource[A] | None = None
        self.exhausted = False
        self.data: object = None


def uct_score(mean: float, visits: int, parent_visits: int, cp: float) -> float:
    """``mean + 2 * cp * sqrt(2 * ln(parent_visits) / visits)``; infinite for an unvisited edge."""
    if visits == 0:
        return math.inf
    return mean + 2 * cp * math.sqrt(2 * math.log(parent_visits) / visits)


@dataclass(frozen=True)
class SearchStats:
    """What a search did: iterations, rollouts, tree size, best root value, time used.

    ``rollouts`` counts the simulations played on from a non-terminal leaf; an
    iteration that ends on a terminal state (the final year, a solo) only
    scores it, so a small tree searched to the end has fewer rollouts than
    iterations.
    """

    iterations: int
    rollouts: int
    nodes: int
    root_actions: int
    best_value: float
    best_visits: int
    seconds: float

    def as_dict(self) -> dict[str, float | int]:
        """A JSON-ready dictionary."""
        return {
            "iterations": self.iterations,
            "rollouts": self.rollouts,
            "nodes": self.nodes,
            "root_actions": self.root_actions,
            "best_value": round(self.best_value, 5),
            "best_visits": self.best_visits,
            "seconds": round(self.seconds, 4),
        }


class Mcts(Generic[S, A]):
    """One search tree over a :class:`Domain`, grown by :meth:`iterate` or :meth:`run`."""

    def __init__(
        self,
        domain: Domain[S, A],
        root: S,
        rng: Random,
        *,
        cp: float = CP_THESIS,
        resample: bool = False,
        double_expansion: bool = False,
        widening: tuple[float, float] | None = None,
        final: str = "mean",
    ) -> None:
        if final not in ("mean", "visits"):
            raise ValueError(f"final selection must be 'mean' or 'visits', not {final!r}")
        self.domain = domain
        self.rng = rng
        self.cp = cp
        self.resample = resample
        self.double_expansion = double_expansion
        self.widening = widening
        self.final = final
        self.root: Node[S, A] = Node(root)
        self.iterations = 0
        self.rollouts = 0
        self.nodes = 1
        self.seconds = 0.0

    # --- one iteration -------------------------------------------------------------------

    def iterate(self) -> None:
        """Selection, expansion, simulation and backpropagation, once."""
        domain = self.domain
        rng = self.rng
        node = self.root
        path: list[tuple[Node[S, A], Edge[S, A]]] = []
        expansions = 2 if self.double_expansion else 1
        # Each node on the way is asked once whether it ends the game.
        while not (leaf_is_terminal := domain.terminal(node.state)):
            if self._can_expand(node):
                edge = self._expand(node)
                if edge is not None:
                    child = self._child(node, edge)
                    path.append((node, edge))
                    node = child
                    expansions -= 1
                    if expansions == 0:
                        leaf_is_terminal = domain.terminal(node.state)
                        break
                    continue
            if not node.edges:
                break  # no action at all: roll out from here
            edge = self._select(node)
            path.append((node, edge))
            node = self._child(node, edge)
        if not leaf_is_terminal:
            self.rollouts += 1
        reward = domain.rollout(node.state, rng)
        node.visits += 1
        for parent, edge in path:
            parent.visits += 1
            edge.visits += 1
            edge.total += reward
        self.iterations += 1

    def _can_expand(self, node: Node[S, A]) -> bool:
        if node.exhausted:
            return False
        if self.widening is None or not node.edges:
            return True
        k, alpha = self.widening
        return len(node.edges) < k * math.pow(max(1, node.visits), alpha)

    def _expand(self, node: Node[S, A]) -> Edge[S, A] | None:
        if node.source is None:
            node.source = self.domain.actions(node.state, self.rng)
        action = node.source.next(self.rng)
        if action is None:
            node.exhausted = True
            return None
        edge: Edge[S, A] = Edge(action)
        node.edges.append(edge)
        return edge

    def _select(self, node: Node[S, A]) -> Edge[S, A]:
        n = max(1, node.visits)
        log_n = math.log(n)
        scale = 2 * self.cp
        best = node.edges[0]
        best_score = -math.inf
        for edge in node.edges:
            v = edge.visits
            if v == 0:
                return edge
            score = edge.total / v + scale * math.sqrt(2 * log_n / v)
            if score > best_score:
                best, best_score = edge, score
        return best

    def _child(self, node: Node[S, A], edge: Edge[S, A]) -> Node[S, A]:
        if edge.children and not self.resample:
            return next(iter(edge.children.values()))
        state = self.domain.step(node, edge.action, self.rng)
        key = self.domain.key(state)
        child = edge.children.get(key)
        if child is None:
            child = edge.children[key] = Node(state)
            self.nodes += 1
        return child

    # --- running and reading ---------------------------------------------------------------

    def run(
        self,
        *,
        iterations: int | None = None,
        deadline: float | None = None,
        should_stop: Callable[[], bool] | None = None,
        on_progress: Callable[[Mcts[S, A]], None] | None = None,
        progress_every: float = 0.5,
        clock: Callable[[], float] = time.monotonic,
    ) -> SearchStats:
        """Iterate until ``iterations`` more are done, ``deadline`` passes, or stop.

        ``deadline`` is a reading of ``clock`` (wall time by default;
        ``time.process_time`` makes the budget this process's CPU time, which
        other load on the machine does not eat).  ``on_progress`` is called
        about every ``progress_every`` seconds of that clock (anytime
        reports); ``should_stop`` is polled as often.
        """
        if iterations is None and deadline is None:
            raise ValueError("give an iteration cap, a deadline, or both")
        began = clock()
        target = None if iterations is None else self.iterations + iterations
        self._loop(
            target,
            deadline,
            began + progress_every,
            progress_every,
            clock,
            should_stop,
            on_progress,
        )
        self.seconds += clock() - began
        return self.stats()

    def _loop(
        self,
        target: int | None,
        deadline: float | None,
        next_check: float,
        progress_every: float,
        clock: Callable[[], float],
        should_stop: Callable[[], bool] | None,
        on_progress: Callable[[Mcts[S, A]], None] | None,
    ) -> None:
        """:meth:`run`'s iterations, until ``target`` iterations, ``deadline`` or a stop."""
        while True:
            if target is not None and self.iterations >= target:
                break
            now = clock()
            if deadline is not None and now >= deadline:
                break
            if now >= next_check:
                next_check = now + progress_every
                if should_stop is not None and should_stop():
                    break
                if on_progress is not None:
                    on_progress(self)
            self.iterate()

    def ranked(self) -> list[Edge[S, A]]:
        """The root's edges, best first by the final-selection rule."""
        if self.final == "visits":
            return sorted(self.root.edges, key=lambda e: (e.visits, e.mean), reverse=True)
        return sorted(self.root.edges, key=lambda e: (e.mean, e.visits), reverse=True)

    def best(self) -> Edge[S, A] | None:
        """The root edge the final-selection rule picks (``None`` before any iteration)."""
        ranked = self.ranked()
        return ranked[0] if ranked else None

    def stats(self) -> SearchStats:
        """The search's statistics so far."""
        best = self.best()
        return SearchStats(
            iterations=self.iterations,
            rollouts=self.rollouts,
            nodes=self.nodes,
            root_actions=len(self.root.edges),
            best_value=best.mean if best is not None else 0.0,
            best_visits=best.visits if best is not None else 0,
            seconds=self.seconds,
        )
