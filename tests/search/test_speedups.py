"""The compiled DumbBot (``search/_fastbot.pyx``) against its pure-Python oracle.

Same values, and for the same random generator the same orders in the same
order, drawing the same numbers (the generator's state after the call is the
same); and the whole search, seeded and capped, chooses the same orders on
both paths.  Weights or a missing extension the compiled code cannot serve fall
back to pure Python.
"""

from __future__ import annotations

import copy
import os
import subprocess
import sys
from contextlib import nullcontext
from dataclasses import replace
from pathlib import Path
from random import Random
from typing import Any

import pytest

from adjudicator import compiled_rules as switch
from adjudicator import compiled_sources
from adjudicator.compiled_rules import pure_python
from adjudicator.orders import EngineOrder
from adjudicator.position import WINTER, Position
from bot.lab.bench.bench_heuristics import sample_positions
from search import compiled_search as speedups
from search.dumbbot import DumbBot
from search.dumbbot_values import dumbbot_values
from search.generator import SearchRandom
from search.heuristics import PhaseHeuristics
from search.mcts.player import think
from search.mcts.variants import LIVELY_DUMBBOT, get_variant
from search.mcts.weights import RegionWeights
from search.tables import DEFAULT_WEIGHTS, DumbBotWeights, tables_for
from tests.search.test_randombot import positions_of, varied_positions

ROOT = Path(__file__).resolve().parents[2]
BOTS = (DumbBot(), LIVELY_DUMBBOT)


class Dice(SearchRandom):
    """A generator whose ``random()`` always rolls the same number (shuffles stay random)."""

    def __init__(self, roll: float) -> None:
        super().__init__(0)
        self.roll = roll

    def random(self) -> float:
        return self.roll


def both(call: Any, *args: Any, **kwargs: Any) -> tuple[Any, Any]:
    """``call(*args, **kwargs)`` compiled, then in pure Python (a generator among the
    arguments is copied for each call, so both start from the same state)."""
    results = []
    for compiled in (True, False):
        fresh = [copy.deepcopy(a) if isinstance(a, Random) else a for a in args]
        with nullcontext() if compiled else pure_python():
            results.append(call(*fresh, **kwargs))
    return results[0], results[1]


def test_values_match_on_every_kind_of_phase(compiled: None) -> None:
    checked = 0
    for pos in varied_positions()[::2]:
        nodes = range(tables_for(pos.map).num_nodes)
        for me in range(pos.map.num_powers):
            for removing in (False, True) if pos.season == WINTER else (False,):
                fast, slow = both(dumbbot_values, pos, me, DEFAULT_WEIGHTS, removing=removing)
                assert type(fast).__name__ == "CValues"
                assert [fast.node_value(n) for n in nodes] == [slow.node_value(n) for n in nodes]
                if pos.season != WINTER:
                    for prov in range(pos.map.num_provinces):
                        assert fast.strength(prov) == slow.strength(prov)
                        assert fast.competition(prov) == slow.competition(prov)
                checked += 1
    assert checked > 500


def shaped_positions(seed: int, count: int) -> list[Position]:
    """Random boards of many shapes: one to every power present, few or many units, any
    season, dislodged units, centres spread out or all held by one power."""
    rng = SearchRandom(seed)
    start = varied_positions()[0]
    m = start.map
    tables = tables_for(m)
    nodes_in: dict[int, list[int]] = {}
    for node, prov in enumerate(tables.node_prov):
        nodes_in.setdefault(prov, []).append(node)
    provinces = sorted(nodes_in)
    out = []
    for _ in range(count):
        present = rng.sample(range(m.num_powers), rng.randint(1, m.num_powers))
        pos = start.copy()
        pos.season = rng.randrange(WINTER + 1)
        one_owner = rng.random() < 0.2
        for sc in m.supply_centres:
            pos.owners[sc] = present[0] if one_owner else rng.choice([-1, *present])
        pos.units = {}
        pos.dislodged = {}
        for prov in rng.sample(provinces, rng.randint(0, len(m.supply_centres))):
            node = rng.choice(nodes_in[prov])
            unit = (rng.choice(present), tables.node_type[node], tables.node_loc[node])
            pos.units[prov] = unit
            if rng.random() < 0.15:
                node = rng.choice(nodes_in[prov])
                pos.dislodged[prov] = (
                    rng.choice(present),
                    tables.node_type[node],
                    tables.node_loc[node],
                    (),
                )
        out.append(pos)
    return out


def assert_same_values(pos: Position, weights: DumbBotWeights) -> None:
    """Every power's values, strengths and competitions on ``pos``: compiled as pure."""
    nodes = range(tables_for(pos.map).num_nodes)
    for me in range(pos.map.num_powers):
        for removing in (False, True) if pos.season == WINTER else (False,):
            fast, slow = both(dumbbot_values, pos, me, weights, removing=removing)
            assert type(fast).__name__ == "CValues"
            assert [fast.node_value(n) for n in nodes] == [slow.node_value(n) for n in nodes]
            if pos.season != WINTER:  # no unit counts in winter
                for prov in range(pos.map.num_provinces):
                    assert fast.strength(prov) == slow.strength(prov)
                    assert fast.competition(prov) == slow.competition(prov)


def narrow(weights: DumbBotWeights) -> bool:
    """Whether the compiled code computes the levels for ``weights`` in 32-bit lanes."""
    tables = tables_for(varied_positions()[0].map)
    assert speedups.COMPILED is not None
    return bool(speedups.COMPILED.CWeights(weights).narrow(speedups.compiled_map(tables)))


def plain(weights: DumbBotWeights) -> bool:
    """Whether the compiled code computes the levels for ``weights`` in 32-bit lanes that are
    never negative (a plain unsigned division)."""
    tables = tables_for(varied_positions()[0].map)
    assert speedups.COMPILED is not None
    return bool(speedups.COMPILED.CWeights(weights).plain(speedups.compiled_map(tables)))


PARANG_EXTRAS = DumbBotWeights(
    home_vacation_weight=300, base_unit_weight=30, home_attack_weight=2, home_defence_weight=3
)
"""Parang's extensions switched on: an empty home centre has a negative value (so do
levels then: floor division), units add to their province's value."""


def test_values_match_on_boards_of_many_shapes(compiled: None) -> None:
    assert plain(DEFAULT_WEIGHTS) and not plain(PARANG_EXTRAS)
    for weights in (DEFAULT_WEIGHTS, PARANG_EXTRAS):
        assert narrow(weights)
        for pos in shaped_positions(1, 80):
            assert_same_values(pos, weights)


def _attack(x: int) -> DumbBotWeights:
    """Parang's extensions (but units' weight: CWeights.fits would refuse them) with ``x`` as
    every attack and defence weight."""
    return replace(
        PARANG_EXTRAS,
        base_unit_weight=0,
        spring_attack=x,
        fall_attack=x,
        spring_defence=x,
        fall_defence=x,
    )


def test_both_lane_widths_agree_on_either_side_of_the_32_bit_bound(compiled: None) -> None:
    """The largest attack and defence weights whose levels the bound keeps in 32-bit lanes,
    and the next ones up (64-bit lanes), on boards where one power may hold every centre;
    and proximity weights beyond 32 bits."""
    low, high = 1, 10**6
    assert narrow(_attack(low)) and not narrow(_attack(high))
    while high - low > 1:
        mid = (low + high) // 2
        low, high = (mid, high) if narrow(_attack(mid)) else (low, mid)
    huge_weight = replace(_attack(1), spring_proximity=(2**31, 1, 1, 1, 1, 1, 1, 1, 1, 1))
    assert not narrow(huge_weight)
    tables = tables_for(varied_positions()[0].map)
    for weights in (_attack(low), _attack(high), huge_weight):
        assert speedups.kernel(tables, weights) is not None
        for pos in shaped_positions(2, 25):
            assert_same_values(pos, weights)


def test_a_board_with_the_last_ones_base_values_keeps_its_levels(compiled: None) -> None:
    """The levels are kept from one board to the next when every base value is the same
    (a winter, then the spring after it with the same units); values as pure Python's."""
    for pos in positions_of("build")[:6]:
        spring = pos.copy()
        spring.season = 0
        moved = spring.copy()  # another unit elsewhere: some base value changes, or none
        del moved.units[next(iter(moved.units))]
        for board in (pos, spring, moved, pos, spring):
            assert_same_values(board, DEFAULT_WEIGHTS)


WEIGHTS_IN_A_ROW = (DEFAULT_WEIGHTS, _attack(7), _attack(250))
"""Plain levels with two exact fifths; floored levels with none; floored with three."""


def test_levels_made_again_where_base_values_changed_match(compiled: None) -> None:
    """Boards valued in a row that differ by a few units or owners (the levels made again
    only where the changed base values reach, some levels exact fifths): values as pure
    Python's, with weights whose levels are plain, floored below 0, or no exact fifths."""
    assert speedups.COMPILED is not None
    exact = [speedups.COMPILED.CWeights(weights).exact for weights in WEIGHTS_IN_A_ROW]
    assert exact == [2, 0, 3] and plain(DEFAULT_WEIGHTS) and narrow(_attack(250))
    for weights in WEIGHTS_IN_A_ROW:
        for pos in shaped_positions(3, 10):
            boards = [pos]
            for k in range(4):
                board = boards[-1].copy()
                if k % 2 and board.units:  # a unit gone (its threats with it)
                    del board.units[sorted(board.units)[k % len(board.units)]]
                else:  # a centre changes hands
                    centre = pos.map.supply_centres[(7 * k) % len(pos.map.supply_centres)]
                    board.owners[centre] = (board.owners[centre] + 2) % pos.map.num_powers
                boards.append(board)
            for board in boards + boards[::-1]:
                assert_same_values(board, weights)


def _orders_and_state(
    bot: DumbBot, pos: Position, me: int, rng: Random
) -> tuple[list[tuple[int, EngineOrder]], object]:
    orders = bot.movement_orders(pos, me, rng)
    return list(orders.items()), rng.getstate()


@pytest.mark.parametrize("bot", BOTS, ids=["dumbbot", "lively"])
def test_movement_orders_match_in_order_and_draw_the_same_numbers(
    compiled: None, bot: DumbBot
) -> None:
    for pos in positions_of("movement"):
        for me in range(pos.map.num_powers):
            for seed in range(3):
                fast = _orders_and_state(bot, pos, me, SearchRandom(seed))
                with pure_python():
                    slow = _orders_and_state(bot, pos, me, SearchRandom(seed))
                assert fast == slow, (pos, me, seed)


def test_steady_rolls_match_too_and_reach_a_broken_waiting_cycle(
    compiled: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Always or never taking the second choice exercises the rare branches.

    A roll of 0 walks every choice down to the worst option; on one of these
    positions that makes units wait on each other in a cycle until one is
    forced in (seen through the Python path).
    """
    forced: list[bool] = []
    order_unit = DumbBot._order_unit

    def spy(self: DumbBot, *args: Any) -> EngineOrder | None:
        forced.append(args[-1])
        return order_unit(self, *args)

    monkeypatch.setattr(DumbBot, "_order_unit", spy)
    bot = DumbBot()
    for pos in positions_of("movement"):
        for me in range(pos.map.num_powers):
            for roll in (0.0, 0.3, 0.99):
                fast = bot.movement_orders(pos, me, Dice(roll))
                with pure_python():
                    slow = bot.movement_orders(pos, me, Dice(roll))
                assert list(fast.items()) == list(slow.items()), (pos, me, roll)
    assert any(forced), "no waiting cycle was broken on these positions"


def test_retreats_builds_and_removals_match(compiled: None) -> None:
    players = (DumbBot(), PhaseHeuristics(), PhaseHeuristics(randomised=True))
    checked = 0
    for pos in (positions_of("retreat") + positions_of("build") + positions_of("remove"))[::2]:
        for me in range(pos.map.num_powers):
            for player in players:
                if pos.is_retreat:
                    fast, slow = both(player.retreat_orders, pos, me, SearchRandom(me))
                else:
                    fast, slow = both(player.adjustment_orders, pos, me, SearchRandom(me))
                assert fast == slow, (pos, me, player)
                checked += bool(fast)
    assert checked > 100


def test_a_position_changed_in_place_is_valued_afresh(compiled: None) -> None:
    """The compiled code shares one board's valuation between calls; never a stale one."""
    pos = positions_of("movement")[30].copy()
    nodes = range(tables_for(pos.map).num_nodes)
    before = [dumbbot_values(pos, 2).node_value(n) for n in nodes]
    prov, (power, utype, loc) = next(iter(pos.units.items()))
    del pos.units[prov]
    after = [dumbbot_values(pos, 2).node_value(n) for n in nodes]
    with pure_python():
        expected = [dumbbot_values(pos, 2).node_value(n) for n in nodes]
    assert after == expected != before
    pos.units[prov] = (power, utype, loc)
    pos.season += 2  # spring to fall: other weights for the same board
    fast = [dumbbot_values(pos, 2).node_value(n) for n in nodes]
    with pure_python():
        assert fast == [dumbbot_values(pos, 2).node_value(n) for n in nodes]


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        ([], 0.0),
        ([2.5], 2.5),
        ([0.1, 0.2, 0.3], (0.1 + 0.2) + 0.3),  # 0.6000000000000001; compensated: 0.6
        ([1e16, 1.0, -1e16], 0.0),  # the 1.0 is lost left to right; compensated: 1.0
        ([1.0, 1e100, 1.0, -1e100], 0.0),
    ],
)
def test_floats_are_added_left_to_right_on_every_version(
    values: list[float], expected: float
) -> None:
    """As the compiled code adds: Python 3.12's sum() would give other floats for most."""
    total = speedups.plain_sum(values)
    assert type(total) is float
    assert total == expected


def test_region_weights_are_the_same_floats(compiled: None) -> None:
    """Compiled on every Python version: the oracle adds its floats as the C code does."""
    for pos in varied_positions()[::3]:
        for me in range(pos.map.num_powers):
            fast, slow = both(RegionWeights, pos, me)
            assert fast.node_weight == slow.node_weight
            assert fast.mean == slow.mean
    pos = varied_positions()[0]
    weights = speedups.region_weights(tables_for(pos.map), pos, 0, (1.0, 2.0), 6)
    assert weights is not None and len(weights) == tables_for(pos.map).num_nodes


def _search(pos: Position, power: int, seed: int) -> tuple[object, dict[str, Any]]:
    orders, stats = think(pos, power, get_variant("dm"), 1905, SearchRandom(seed), iterations=40)
    for key in ("seconds", "elapsed"):
        del stats[key]
    return sorted(orders.items()), stats


def test_a_capped_search_chooses_the_same_orders_on_both_paths(compiled: None) -> None:
    for pos in sample_positions(0).values():
        power = pos.map.power_index["FRA"]
        fast, slow = both(_search, pos, power, 3)
        assert fast == slow


def test_weights_the_compiled_code_cannot_hold_exactly_run_in_pure_python(compiled: None) -> None:
    tables = tables_for(varied_positions()[0].map)
    assert speedups.kernel(tables, DEFAULT_WEIGHTS) is not None
    huge = DumbBotWeights(spring_attack=10**15)
    short = DumbBotWeights(spring_proximity=(100, 1000, 30))
    for weights in (huge, short):
        assert speedups.kernel(tables, weights) is None
        bot = DumbBot(weights)
        pos = positions_of("movement")[10]
        fast, slow = both(bot.movement_orders, pos, 3, SearchRandom(1))
        assert fast == slow


def test_without_the_extension_pure_python_runs(
    compiled: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    pos = positions_of("movement")[20]
    expected = DumbBot().movement_orders(pos, 4, SearchRandom(2))
    monkeypatch.setattr(speedups, "COMPILED", None)
    monkeypatch.setattr(switch, "MOVEMENT", None)
    assert speedups.kernel(tables_for(pos.map), DEFAULT_WEIGHTS) is None
    assert type(dumbbot_values(pos, 4)).__name__ == "ProvinceValues"
    assert DumbBot().movement_orders(pos, 4, SearchRandom(2)) == expected


@pytest.mark.parametrize(("setting", "expected"), [("1", "ProvinceValues"), ("0", "CValues")])
def test_the_environment_variable_selects_pure_python(
    compiled: None, setting: str, expected: str
) -> None:
    script = (
        "from adjudicator.maps import standard_map\n"
        "from adjudicator.position import initial_position\n"
        "from search.dumbbot_values import dumbbot_values\n"
        "print(type(dumbbot_values(initial_position(standard_map()), 0)).__name__)\n"
    )
    env = {**os.environ, switch.ENV_PURE_PYTHON: setting}
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == expected


@pytest.mark.parametrize("module", sorted(compiled_sources.DECLARATIONS))
def test_each_compiled_module_loads_first_in_a_fresh_interpreter(
    compiled: None, module: str
) -> None:
    # as the installed wheel's check does: nothing of the package imported before it
    script = f"from adjudicator import compiled_rules as s\nprint(s.load({module!r}) is not None)\n"
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env=dict(os.environ),
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "True"
