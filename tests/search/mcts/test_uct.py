"""The generic UCT search on toy games: the formula, backpropagation, expansion rules."""

from __future__ import annotations

import math
from collections.abc import Hashable
from dataclasses import dataclass
from random import Random

import pytest

from search.mcts.uct import CP_THESIS, Mcts, Node, uct_score


class ListSource:
    """Hands out a fixed list of actions in order."""

    def __init__(self, actions: list[int]) -> None:
        self.actions = list(actions)

    def next(self, rng: Random) -> int | None:
        return self.actions.pop(0) if self.actions else None


@dataclass
class Toy:
    """A toy game: ``depth`` moves of one digit each; the reward is a function of the digits.

    ``noise`` makes transitions random: with that probability the digit
    played is replaced by ``9`` (a distinct outcome under the same action).
    ``rewards`` maps a finished digit string to its reward; rollouts from an
    unfinished state complete it with zeros (deterministic) unless
    ``random_rollouts``.
    """

    arms: list[int]
    depth: int
    rewards: dict[tuple[int, ...], float]
    noise: float = 0.0
    random_rollouts: bool = False
    actions_asked: int = 0

    def actions(self, state: tuple[int, ...], rng: Random) -> ListSource:
        self.actions_asked += 1
        return ListSource(self.arms)

    def step(self, node: Node, action: int, rng: Random) -> tuple[int, ...]:
        if self.noise and rng.random() < self.noise:
            action = 9
        return (*node.state, action)

    def key(self, state: tuple[int, ...]) -> Hashable:
        return state

    def terminal(self, state: tuple[int, ...]) -> bool:
        return len(state) >= self.depth

    def rollout(self, state: tuple[int, ...], rng: Random) -> float:
        rest = self.depth - len(state)
        if self.random_rollouts:
            return rng.random() * 0.1 + self.rewards.get((*state, *[0] * rest), 0.0)
        return self.rewards.get((*state, *[0] * rest), 0.0)


def test_uct_score_is_the_thesis_formula() -> None:
    # Xj + 2 * Cp * sqrt(2 ln n / visits), Cp = 1/sqrt(2)
    expected = 0.5 + 2 * (1 / math.sqrt(2)) * math.sqrt(2 * math.log(16) / 4)
    assert uct_score(0.5, 4, 16, CP_THESIS) == pytest.approx(expected)
    assert uct_score(0.5, 4, 16, CP_THESIS) == pytest.approx(0.5 + 2 * math.sqrt(math.log(16) / 4))
    assert uct_score(0.0, 0, 16, CP_THESIS) == math.inf


def test_bandit_backup_counts_every_visit_and_reward() -> None:
    game = Toy(arms=[1, 0], depth=1, rewards={(1,): 1.0, (0,): 0.0})
    tree = Mcts(game, (), Random(0))
    tree.run(iterations=1)
    [a] = tree.root.edges
    assert (a.action, a.visits, a.total) == (1, 1, 1.0)
    tree.run(iterations=1)
    a, b = tree.root.edges
    assert (b.action, b.visits, b.total) == (0, 1, 0.0)
    # Both tried: UCT prefers the arm with the higher mean at equal visits.
    tree.run(iterations=1)
    assert (a.visits, a.total, b.visits) == (2, 2.0, 1)
    assert tree.root.visits == 3
    assert tree.best() is a
    assert tree.stats().iterations == 3
    assert tree.stats().rollouts == 0  # every leaf was terminal: scored, not simulated


def test_rollouts_count_only_simulations_from_unfinished_leaves() -> None:
    game = Toy(arms=[1, 0], depth=2, rewards={(1, 1): 1.0})
    tree = Mcts(game, (), Random(0))
    tree.run(iterations=2)  # two new depth-1 children, each simulated to the end
    assert (tree.stats().iterations, tree.stats().rollouts) == (2, 2)
    tree.run(iterations=4)  # the tree is now complete: its depth-2 leaves are terminal
    assert (tree.stats().iterations, tree.stats().rollouts) == (6, 2)


def test_selection_follows_the_uct_scores() -> None:
    game = Toy(arms=[1, 2, 3], depth=1, rewards={(1,): 0.2, (2,): 0.5, (3,): 0.8})
    tree = Mcts(game, (), Random(0))
    for _ in range(60):
        n = tree.root.visits
        edges = tree.root.edges
        if len(edges) == 3:
            scores = [uct_score(e.mean, e.visits, n, CP_THESIS) for e in edges]
            chosen = edges[scores.index(max(scores))]
            before = chosen.visits
            tree.iterate()
            assert chosen.visits == before + 1
        else:
            tree.iterate()
    visits = {e.action: e.visits for e in tree.root.edges}
    assert visits[3] > visits[2] > visits[1]


def test_two_level_backup_is_consistent() -> None:
    rewards = {(a, b): (a * 3 + b) / 10 for a in range(3) for b in range(3)}
    game = Toy(arms=[0, 1, 2], depth=2, rewards=rewards)
    tree = Mcts(game, (), Random(1))
    tree.run(iterations=200)

    def check(node: Node) -> None:
        below = sum(e.visits for e in node.edges)
        if game.terminal(node.state):
            assert not node.edges
        else:
            # Visited once as a leaf (when it was created), then once per descent.
            assert node.visits in (below, below + 1)
        for edge in node.edges:
            [child] = edge.children.values()  # deterministic transitions: one child
            assert child.visits == edge.visits
            leaf_visits = child.visits - sum(e.visits for e in child.edges)
            leaf_reward = game.rollout(child.state, Random(0))
            assert edge.total == pytest.approx(
                sum(e.total for e in child.edges) + leaf_visits * leaf_reward
            )
            check(child)

    check(tree.root)
    assert tree.root.visits == 200
    assert tree.best().action == 2


def test_the_thesis_expands_every_action_before_selecting() -> None:
    game = Toy(arms=[0, 1, 2, 3], depth=1, rewards={})
    tree = Mcts(game, (), Random(0))
    tree.run(iterations=4)
    assert [e.action for e in tree.root.edges] == [0, 1, 2, 3]
    assert all(e.visits == 1 for e in tree.root.edges)
    assert game.actions_asked == 1  # CreatePossibleActions once per node


def test_progressive_widening_limits_the_edges() -> None:
    game = Toy(arms=list(range(9)), depth=1, rewards={(k,): k / 10 for k in range(9)})
    tree = Mcts(game, (), Random(0), widening=(1.0, 0.5))
    for _ in range(30):
        tree.iterate()
        assert len(tree.root.edges) <= max(1, math.ceil(tree.root.visits**0.5))
    assert len(tree.root.edges) < 9


def test_double_expansion_goes_two_levels_before_simulating() -> None:
    game = Toy(arms=[0, 1], depth=3, rewards={})
    tree = Mcts(game, (), Random(0), double_expansion=True)
    tree.iterate()
    [edge] = tree.root.edges
    [child] = edge.children.values()
    assert len(child.edges) == 1
    assert tree.nodes == 3
    single = Mcts(Toy(arms=[0, 1], depth=3, rewards={}), (), Random(0))
    single.iterate()
    assert single.nodes == 2


def test_resampling_keeps_one_child_per_outcome() -> None:
    game = Toy(arms=[0], depth=2, rewards={}, noise=0.5)
    fixed = Mcts(game, (), Random(3))
    fixed.run(iterations=50)
    assert len(fixed.root.edges[0].children) == 1
    chance = Mcts(game, (), Random(3), resample=True)
    chance.run(iterations=50)
    outcomes = chance.root.edges[0].children
    assert set(outcomes) == {(0,), (9,)}
    assert sum(c.visits for c in outcomes.values()) == chance.root.edges[0].visits


def test_final_selection_rules() -> None:
    game = Toy(arms=[0, 1], depth=1, rewards={(0,): 0.6, (1,): 0.5})
    mean = Mcts(game, (), Random(0), final="mean")
    mean.run(iterations=2)
    mean.root.edges[1].visits = 5  # a well-visited edge with a lower mean
    mean.root.edges[1].total = 2.5
    assert mean.best().action == 0
    visits = Mcts(game, (), Random(0), final="visits")
    visits.root.edges = mean.root.edges
    assert visits.best().action == 1
    with pytest.raises(ValueError):
        Mcts(game, (), Random(0), final="luck")


def test_a_seed_and_an_iteration_cap_repeat_exactly() -> None:
    def run(seed: int) -> list[tuple[int, int, float]]:
        game = Toy(arms=[0, 1, 2], depth=3, rewards={}, noise=0.3, random_rollouts=True)
        tree = Mcts(game, (), Random(seed), resample=True)
        tree.run(iterations=300)
        return [(e.action, e.visits, e.total) for e in tree.root.edges]

    assert run(5) == run(5)
    assert run(5) != run(6)


def test_run_needs_a_limit() -> None:
    tree = Mcts(Toy(arms=[0], depth=1, rewards={}), (), Random(0))
    with pytest.raises(ValueError):
        tree.run()
