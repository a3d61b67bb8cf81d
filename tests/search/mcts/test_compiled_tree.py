"""The compiled ``dm`` tree (``search/_fasttree.pyx``) against :class:`~search.mcts.uct.Mcts`.

:func:`search.mcts.tree.new_search` gives a
:class:`~search.mcts.compiled_tree.CompiledMcts` when the ``dm`` path runs
compiled.  For many positions (the opening, mid-game springs and falls with
retreats and builds ahead, the final year), powers, seeds, iteration caps and
settings (chance nodes on and off, widening on and off, double expansion,
rollout lengths, final selection) it must grow exactly the tree the Python
loop grows over the same domain: the same nodes with the same visits, the same
edges in the same order with the same statistics, the same children under the
same keys, the same counts, the same choice, and the generator left in the
same state.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from random import Random
from typing import Any

import pytest

from adjudicator.compiled_rules import pure_python
from adjudicator.legal import movement_orders
from adjudicator.maps import standard_map
from adjudicator.position import FALL, SPRING, Position, initial_position
from search import compiled_search as speedups
from search.generator import SearchRandom
from search.mcts import compiled_tree
from search.mcts.compiled_tree import CompiledMcts, compiled_search
from search.mcts.config import SearchSettings
from search.mcts.domain import DiplomacyDomain
from search.mcts.order_sets import Action, SampledActions, Sources, WeightedActions
from search.mcts.thesis_rules import possible_orders
from search.mcts.tree import horizon, new_search
from search.mcts.uct import Mcts
from search.mcts.variants import get_variant
from search.mcts.weights import (
    FALL_PROXIMITY_WEIGHTS,
    FOREIGN_CENTRE_CONSTANT,
    SPRING_PROXIMITY_WEIGHTS,
    RegionWeights,
)
from search.tables import tables_for
from tests.search.boards import dumbbot_game
from tests.search.test_randombot import varied_positions

M = standard_map()

SETTINGS = (
    "dm",
    "dm/resample=off",
    "dm/widen=off",
    "dm/double=on",
    "dm/years=full",
    "dm/years=0",
    "dm/cp=0.1/final=mean",
    "dm/widen=1:0.3/resample=off/double=on",
    "dm/model=policy:enemies",
    "dm/model=policy:enemies/resample=off/years=full",
    "dm/model=policy",
    "dm/model=policy:candidates",
)
"""The ``dm`` settings the compiled tree is held to (with the shipped learned policy as
the enemies' model in the tree, and among our candidates)."""

LEARNED_CANDIDATES = ("dm/model=policy", "dm/model=policy:candidates")
"""Settings whose sampled candidates include the learned policy's draws."""

ITERATIONS = (1, 7, 40)
"""The iteration caps."""


def _positions() -> list[tuple[str, Position]]:
    """The opening, and movement phases of DumbBot games (springs and falls, 1901-1906)."""
    out = [("opening", initial_position(M))]
    for seed in range(3):
        for pos, _ in dumbbot_game(seed, 6)[2 + seed :: 3]:
            out.append((f"game {seed} {pos.turn}", pos))
    return out


POSITIONS = _positions()


def _pure(pos: Position, power: int, variant: SearchSettings, final_year: int, seed: int) -> Mcts:
    """The Python loop over the domain :func:`new_search` builds."""
    domain = DiplomacyDomain(variant, power, horizon(pos, variant, final_year), M.num_powers)
    return Mcts(
        domain,
        pos,
        SearchRandom(seed),
        cp=variant.cp,
        resample=variant.resample,
        double_expansion=variant.double_expansion,
        widening=variant.widening,
        final=variant.final,
    )


def _shape(node: Any) -> tuple[Any, ...]:
    """A node's whole subtree: visits, exhaustion and each edge's statistics and children."""
    return (
        node.state.key(),
        node.visits,
        node.exhausted,
        [
            (
                edge.action,
                edge.visits,
                edge.total,
                [_shape(child) for child in edge.children.values()],
            )
            for edge in node.edges
        ],
    )


def _summary(search: Mcts[Position, Action]) -> tuple[Any, ...]:
    best = search.best()
    return (
        search.iterations,
        search.rollouts,
        search.nodes,
        None if best is None else best.action,
        [(e.action, e.visits, e.mean) for e in search.ranked()],
        search.rng.getstate(),
        _shape(search.root),
    )


@pytest.mark.parametrize("spec", SETTINGS)
def test_the_compiled_tree_grows_the_python_tree(compiled: None, spec: str) -> None:
    variant = get_variant(spec)
    checked = 0
    for i, (label, pos) in enumerate(POSITIONS):
        power = (i * 3) % M.num_powers
        if not any(u[0] == power for u in pos.units.values()):
            continue
        for final_year in (pos.year, pos.year + 1, 1912):
            seed = 1000 * i + final_year
            cap = ITERATIONS[(i + final_year) % len(ITERATIONS)]
            fast = new_search(pos, power, variant, final_year, SearchRandom(seed))
            assert isinstance(fast, CompiledMcts)
            slow = _pure(pos, power, variant, final_year, seed)
            fast.run(iterations=cap)
            slow.run(iterations=cap)
            assert _summary(fast) == _summary(slow), (spec, label, power, final_year)
            assert _boardless(fast.root) == 0, "every node keeps its board in C"
            checked += 1
    assert checked >= 20


class _Ticks:
    """A clock one tick per reading, and the searches' reports at each progress check."""

    def __init__(self, stop_after: int) -> None:
        self.now = 0.0
        self.stop_after = stop_after
        self.reports: list[tuple[int, int, int]] = []

    def clock(self) -> float:
        self.now += 1.0
        return self.now

    def should_stop(self) -> bool:
        return len(self.reports) >= self.stop_after

    def on_progress(self, search: Mcts[Position, Action]) -> None:
        self.reports.append((search.iterations, search.rollouts, search.nodes))


@pytest.mark.parametrize(
    ("iterations", "deadline", "stop_after"), [(None, 40.0, 99), (25, None, 99), (None, 99.0, 4)]
)
def test_the_compiled_loop_stops_and_reports_as_the_python_loop(
    compiled: None, iterations: int | None, deadline: float | None, stop_after: int
) -> None:
    """The same iterations between the same checks, the counts up to date at each report."""
    pos = POSITIONS[3][1]
    variant = get_variant("dm")
    fast = new_search(pos, 2, variant, pos.year + 1, SearchRandom(9))
    assert isinstance(fast, CompiledMcts)
    slow = _pure(pos, 2, variant, pos.year + 1, 9)
    ticks = {}
    for name, search in (("fast", fast), ("slow", slow)):
        ticks[name] = _Ticks(stop_after)
        for _ in range(2):  # a second run goes on from the first's counts
            search.run(
                iterations=iterations,
                deadline=None if deadline is None else ticks[name].now + deadline,
                should_stop=ticks[name].should_stop,
                on_progress=ticks[name].on_progress,
                progress_every=3.0,
                clock=ticks[name].clock,
            )
    assert ticks["fast"].reports == ticks["slow"].reports
    assert ticks["fast"].now == ticks["slow"].now
    assert _summary(fast) == _summary(slow)


@pytest.mark.parametrize("spec", ["dm", "dm/model=policy:enemies", "dm/model=policy"])
def test_the_compiled_tree_matches_the_pure_python_search(spec: str) -> None:
    """Against the search in pure Python throughout (the step, the policy and rollouts too)."""
    variant = get_variant(spec)
    for label, pos in POSITIONS[::4]:
        power = M.power_index["FRA"]
        if not any(u[0] == power for u in pos.units.values()):
            continue
        fast = new_search(pos, power, variant, pos.year + 1, SearchRandom(5))
        assert isinstance(fast, CompiledMcts), label
        fast.run(iterations=12)
        with pure_python():
            slow = new_search(pos, power, variant, pos.year + 1, SearchRandom(5))
            assert type(slow) is Mcts
            slow.run(iterations=12)
        assert _summary(fast) == _summary(slow), label


@pytest.mark.parametrize("spec", LEARNED_CANDIDATES)
def test_the_learned_policys_candidates_are_drawn_in_c(compiled: None, spec: str) -> None:
    """Its compiled policy is among the players the tree samples from (the others DumbBots')."""
    assert speedups.COMPILED is not None
    players, *_ = compiled_tree._sampled_actions(get_variant(spec), tables_for(M))
    kinds = [type(p) for p in players]
    assert kinds == [
        speedups.COMPILED.CWeights,
        speedups.COMPILED.CPolicy,
        speedups.COMPILED.CWeights,
    ]


def test_other_variants_and_pure_python_run_the_python_loop(compiled: None) -> None:
    pos = initial_position(M)
    for spec in ("v1", "v5", "v6", "v8"):
        search = new_search(pos, 0, get_variant(spec), 1903, SearchRandom(1))
        assert type(search) is Mcts, spec
    with pure_python():
        assert type(new_search(pos, 0, get_variant("dm"), 1903, SearchRandom(1))) is Mcts


def test_without_the_compiled_tree_the_python_loop_runs(
    compiled: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(compiled_tree, "FASTTREE", None)
    pos = initial_position(M)
    search = new_search(pos, 0, get_variant("dm"), 1903, SearchRandom(1))
    assert type(search) is Mcts
    search.run(iterations=3)
    assert search.iterations == 3


def test_a_position_on_its_last_phase_is_scored_without_a_rollout(compiled: None) -> None:
    pos = initial_position(M)
    last = Position(M, FALL, 1901, dict(pos.units), list(pos.owners))
    search = new_search(last, 2, get_variant("dm"), 1901, SearchRandom(3))
    assert isinstance(search, CompiledMcts)
    search.run(iterations=10)
    slow = _pure(last, 2, get_variant("dm"), 1901, 3)
    slow.run(iterations=10)
    assert _summary(search) == _summary(slow)
    assert search.rollouts < search.iterations


def test_bad_settings_get_a_clear_error(compiled: None) -> None:
    pos = initial_position(M)
    variant = get_variant("dm")
    domain = DiplomacyDomain(variant, 0, 1902, M.num_powers)
    search = compiled_search(domain, pos, variant, SearchRandom(1))
    assert search is not None
    core_type = type(search.core)
    args: list[Any] = [domain, None, None, None, None, M]
    with pytest.raises(ValueError, match="no power"):
        core_type(*args, M.num_powers, 1902, 2, 1, 0.7, True, False, None)
    with pytest.raises(ValueError, match="rollout"):
        core_type(*args, 0, 1902, 2, 0, 0.7, True, False, None)
    assert pos.season == SPRING


class CountingRandom(SearchRandom):
    """A generator the compiled code draws from through its methods (not a plain SearchRandom)."""

    def random(self) -> float:
        return super().random()


def test_a_generator_subclass_is_drawn_from_as_the_python_loop_draws(compiled: None) -> None:
    variant = get_variant("dm")
    for label, pos in POSITIONS[::3]:
        power = M.power_index["ENG"]
        fast = new_search(pos, power, variant, pos.year + 1, CountingRandom(11))
        slow = _pure(pos, power, variant, pos.year + 1, 0)
        slow.rng = CountingRandom(11)
        fast.run(iterations=15)
        slow.run(iterations=15)
        assert _summary(fast) == _summary(slow), label


def _core() -> Any:
    pos = initial_position(M)
    variant = get_variant("dm")
    domain = DiplomacyDomain(variant, 0, 1905, M.num_powers)
    search = compiled_search(domain, pos, variant, SearchRandom())
    assert search is not None
    return search.core


def test_keys_are_equal_exactly_for_equal_positions(compiled: None) -> None:
    """Whatever the order of the units dict; dislodged units, seasons and owners count."""
    core = _core()
    positions = [pos for _, pos in POSITIONS] + list(varied_positions()[::7])
    assert any(pos.dislodged for pos in positions)
    keys = [core.key(pos) for pos in positions]
    for i, a in enumerate(positions):
        shuffled = a.copy()
        items = list(a.units.items())
        SearchRandom(i).shuffle(items)
        shuffled.units = dict(items)
        assert core.key(shuffled) == keys[i]
        for j, b in enumerate(positions):
            assert (keys[i] == keys[j]) == (a.key() == b.key()), (i, j)


def test_a_position_the_bytes_key_cannot_hold_has_its_own_key(compiled: None) -> None:
    core = _core()
    pos = initial_position(M)
    odd = pos.copy()
    prov = next(iter(odd.units))
    odd.units[prov] = (odd.units[prov][0], odd.units[prov][1], 1 << 40)
    assert core.key(odd) == odd.key()
    other_map = Position(standard_map.__wrapped__(), SPRING, 1901, {}, [])
    assert core.key(other_map) == other_map.key()
    assert core.key(pos) != core.key(odd)


WEIGHTED_CAPS = (1, 40, 5000)
"""The weighted sources' caps: one action, some, more than most nodes have."""


def test_the_compiled_weighted_combinations_are_the_python_ones(compiled: None) -> None:
    """Every action, in order, up to the cap; no draw from the generator (from the position
    or from its board)."""
    assert compiled_tree.FASTTREE is not None
    positions = [pos for _, pos in POSITIONS] + list(varied_positions()[::5])
    handed = 0
    for i, pos in enumerate(positions):
        if pos.dislodged or pos.season not in (SPRING, FALL):
            continue
        for power in range(M.num_powers):
            cap = WEIGHTED_CAPS[(i + power) % len(WEIGHTED_CAPS)]
            rng = SearchRandom(i)
            board = speedups.COMPILED.board(  # type: ignore[union-attr]
                speedups.compiled_map(tables_for(M)), pos, power, pos.year, M.win_centres
            )
            # from the position, from the board by its position, from the board in C
            at, on_board = ((pos, False), (board, False), (board, True))[i % 3]
            fast = compiled_tree.FASTTREE.Weighted(at, power, cap, on_board)
            slow = WeightedActions(cap).source(pos, power, SearchRandom(i))
            while True:
                action = fast.next(rng)
                assert action == slow.next(rng), (i, power, handed)
                if action is None:
                    break
                handed += 1
            assert fast.next(rng) is None
            assert rng.getstate() == SearchRandom(i).getstate()
    assert handed > 1000


def test_the_options_valued_on_a_board_are_the_python_ones(compiled: None) -> None:
    """search._fastbot.weighted_options: possible_orders and RegionWeights, value for value."""
    positions = [pos for _, pos in POSITIONS] + list(varied_positions())
    cmap = speedups.compiled_map(tables_for(M))
    checked = 0
    for pos in positions:
        if pos.dislodged or pos.season not in (SPRING, FALL):
            continue
        for power in range(M.num_powers):
            weights = RegionWeights(pos, power)
            board = speedups.COMPILED.board(  # type: ignore[union-attr]
                cmap, pos, power, pos.year, M.win_centres
            )
            level = SPRING_PROXIMITY_WEIGHTS if pos.season == SPRING else FALL_PROXIMITY_WEIGHTS
            mean, units = speedups.COMPILED.weighted_options(  # type: ignore[union-attr]
                board, power, level, FOREIGN_CENTRE_CONSTANT
            )
            assert mean == weights.mean
            assert units == [
                (prov, options, [weights.order_value(prov, order) for order in options])
                for prov, options in possible_orders(pos, power)
            ]
            checked += len(units)
    assert checked > 1000


@dataclass(frozen=True)
class LegalActions:
    """Random legal order sets, convoys among them: actions the compiled step declines."""

    def source(self, pos: Position, power: int, rng: Random) -> Sources:
        """Each unit's order drawn from all its legal orders, lazily."""

        def draw(r: Random) -> Action:
            return tuple((p, r.choice(movement_orders(pos, p))) for p in pos.units_of(power))

        return SampledActions(draw, cap=30, patience=5)


def _boardless(node: Any) -> int:
    """How many nodes under ``node`` (itself included) keep no board in C."""
    children = [c for e in node.edges for c in e.children.values()]
    return (node.board is None) + sum(_boardless(c) for c in children)


@pytest.mark.parametrize("spec", ["dm", "dm/model=policy:enemies"])
def test_a_step_the_compiled_one_declines_grows_the_python_tree(compiled: None, spec: str) -> None:
    """Its child keeps no board: it and its subtree step from positions, in C or in Python
    (with the learned policy as the enemies' model too)."""
    variant = dataclasses.replace(get_variant(spec), actions=LegalActions())
    boardless = 0
    for i, (label, pos) in enumerate(POSITIONS):
        power = M.power_index["ENG"]
        if not any(u[0] == power for u in pos.units.values()):
            continue
        fast = new_search(pos, power, variant, pos.year + 1, SearchRandom(i))
        assert isinstance(fast, CompiledMcts), label
        slow = _pure(pos, power, variant, pos.year + 1, i)
        fast.run(iterations=40)
        slow.run(iterations=40)
        assert _summary(fast) == _summary(slow), label
        boardless += _boardless(fast.root)
    assert boardless > 5
