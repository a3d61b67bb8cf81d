"""Candidate actions: lazy combinations (random or best first), sampling, V5's pruning."""

from __future__ import annotations

import itertools
from random import Random

from adjudicator.orders import HOLD_ORDER, MOVE
from search.dumbbot import DumbBot
from search.mcts.order_sets import (
    BestFirstCombinations,
    InTurn,
    RandomCombinations,
    SampledFromPlayers,
    ThesisActions,
    WeightedActions,
    weighted_options,
)
from search.mcts.thesis_rules import possible_orders
from search.mcts.weights import RegionWeights
from tests.search.boards import position, power, prov

FRANCE_HOME = {"FRA": ["PAR", "MAR", "BRE"], "GER": ["MUN", "BER", "KIE"]}


def drain(source, rng: Random) -> list:
    out = []
    while (action := source.next(rng)) is not None:
        out.append(action)
    return out


def test_random_combinations_hand_out_each_combination_once() -> None:
    options = [(1, [(0,), (1, 5)]), (2, [(0,), (1, 6), (1, 7)])]
    got = drain(RandomCombinations(options), Random(0))
    expected = {((1, a), (2, b)) for a, b in itertools.product(options[0][1], options[1][1])}
    assert len(got) == 6 and set(got) == expected
    capped = drain(RandomCombinations(options, cap=4), Random(0))
    assert len(capped) == 4 and len(set(capped)) == 4


def test_best_first_combinations_come_in_decreasing_value() -> None:
    rng = Random(3)
    options = [
        (p, [((MOVE, p * 10 + k), rng.randint(0, 50) / 7) for k in range(rng.randint(1, 4))])
        for p in range(5)
    ]
    value = {(p, o): v for p, opts in options for o, v in opts}
    got = drain(BestFirstCombinations(options, cap=10_000), Random(0))
    everything = list(itertools.product(*[[(p, o) for o, _ in opts] for p, opts in options]))
    assert len(got) == len(everything) and set(got) == set(everything)
    sums = [sum(value[pair] for pair in action) for action in got]
    assert all(a >= b - 1e-9 for a, b in itertools.pairwise(sums))
    assert len(drain(BestFirstCombinations(options, cap=7), Random(0))) == 7


def test_v1_actions_are_the_pruned_combinations() -> None:
    pos = position("SPR 1901", ["FRA A BUR", "FRA A GAS", "FRA A PIC"], FRANCE_HOME)
    options = possible_orders(pos, power("FRA"))
    got = drain(ThesisActions().source(pos, power("FRA"), Random(0)), Random(0))
    expected = set(itertools.product(*[[(p, o) for o in opts] for p, opts in options]))
    assert set(got) == expected and len(got) == len(expected)


def test_v5_prunes_orders_below_the_mean_weight_and_expands_the_best_first() -> None:
    pos = position("SPR 1901", ["FRA A PAR", "FRA A BUR", "FRA F BRE"], FRANCE_HOME)
    me = power("FRA")
    weights = RegionWeights(pos, me)
    pruned = dict(weighted_options(pos, me, weights))
    for p, opts in possible_orders(pos, me):
        kept = [o for o, _ in pruned[p]]
        above = [o for o in opts if weights.order_value(p, o) >= weights.mean]
        if above:
            assert kept == above
        else:  # everything below the mean: the best one is kept
            assert kept == [max(opts, key=lambda o: weights.order_value(p, o))]
    first = WeightedActions().source(pos, me, Random(0)).next(Random(0))
    best = tuple(sorted((p, max(opts, key=lambda ov: ov[1])[0]) for p, opts in pruned.items()))
    assert first == best


def test_sampled_actions_are_distinct_complete_order_sets() -> None:
    pos = position("SPR 1901", ["FRA A PAR", "FRA A MAR", "FRA F BRE"], FRANCE_HOME)
    me = power("FRA")
    source = SampledFromPlayers((DumbBot(),), patience=30).source(pos, me, Random(0))
    got = drain(source, Random(1))
    assert len(got) == len(set(got)) > 1
    for action in got:
        assert [p for p, _ in action] == sorted(pos.units_of(me))
    assert isinstance(source, InTurn)


def test_no_units_no_actions() -> None:
    pos = position("SPR 1901", ["GER A MUN"], FRANCE_HOME)
    for generator in (ThesisActions(), WeightedActions(), SampledFromPlayers((DumbBot(),))):
        assert generator.source(pos, power("FRA"), Random(0)).next(Random(0)) is None


def test_holding_is_an_option_where_nothing_is_in_reach() -> None:
    pos = position("SPR 1901", ["FRA A PAR"], FRANCE_HOME)
    options = dict(possible_orders(pos, power("FRA")))
    assert HOLD_ORDER in options[prov("PAR")]
