"""Sequential halving at the root: shared scenarios, the halving schedule, challengers."""

from __future__ import annotations

from random import Random

from adjudicator.position import initial_position
from search.mcts.halving import HalvingSearch
from search.mcts.player import MctsPlayer, new_search, think
from search.mcts.variants import get_variant
from tests.search.boards import M, power
from tests.search.test_randombot import assert_legal


def _race(name: str, who: str, iterations: int) -> HalvingSearch:
    tree = new_search(initial_position(M), power(who), get_variant(name), 1905, Random(3))
    assert isinstance(tree, HalvingSearch)
    tree.run(iterations=iterations)
    return tree


def test_every_candidate_plays_the_same_scenarios_until_the_first_halving() -> None:
    tree = _race("sh/cands=6", "RUS", 6 * 4)
    assert len(tree.root.edges) == 6
    assert [e.visits for e in tree.root.edges] == [4] * 6
    assert len(tree.survivors) == 3  # halved after round 4
    scenario = tree.scenario
    tree.run(iterations=2)  # within a round, every candidate plays the same scenario
    assert tree.scenario == scenario and tree.turn == 2
    tree.run(iterations=1)
    assert tree.scenario != scenario and tree.turn == 0


def test_a_decided_field_is_raced_again_against_new_candidates() -> None:
    tree = _race("sh/cands=4", "RUS", 4 * 4 + 2 * 4 + 4)
    # 4 candidates: halved to 2 after round 4, to 1 after 8; then the winner and 3 new ones.
    assert len(tree.root.edges) == 7
    assert len(tree.survivors) == 4
    assert tree.survivors[0].visits == 8 + 1
    assert all(e.visits == 1 for e in tree.survivors[1:])


def test_the_last_two_race_on_when_no_candidate_is_left() -> None:
    tree = _race("sh", "FRA", 400)
    assert tree.root.exhausted and len(tree.survivors) == 2
    best = tree.best()
    assert best is not None and best in tree.survivors
    assert tree.survivors[0].visits == tree.survivors[1].visits


def test_halving_plays_legal_orders_and_repeats_for_a_seed() -> None:
    pos = initial_position(M)
    variant = get_variant("sh")
    first = think(pos, power("ITA"), variant, 1902, Random(5), iterations=30)
    again = think(pos, power("ITA"), variant, 1902, Random(5), iterations=30)
    assert first[0] == again[0] and first[1]["best_value"] == again[1]["best_value"]
    assert first[1]["iterations"] == 30
    assert_legal(pos, power("ITA"), MctsPlayer(variant, budget=None, iterations=20), Random(1))
