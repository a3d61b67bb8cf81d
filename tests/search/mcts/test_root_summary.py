"""The search's root summarised for a person: the best sets and each unit's spread."""

from __future__ import annotations

from random import Random

import pytest

from adjudicator.maps import standard_map
from adjudicator.orders import HOLD_ORDER, MOVE
from adjudicator.position import initial_position
from search.mcts.player import search_within
from search.mcts.root_summary import RANKED_SETS, RootSummary, summarize
from search.mcts.variants import get_variant
from search.policy import SearchLimit

A, B = 10, 20
"""Two units' provinces (the summary only keys by them)."""
TO_X, TO_Y = (MOVE, 1), (MOVE, 2)


def test_sets_are_ranked_by_the_final_rule_and_units_spread_by_visits() -> None:
    root = {
        ((A, TO_X),): (6, 3.0),  # B holds: no order given
        ((A, TO_Y), (B, TO_X)): (3, 2.4),
        ((A, TO_X), (B, TO_Y)): (1, 0.9),
        ((B, TO_Y),): (0, 0.0),  # never visited: left out
    }
    by_visits = summarize(root, [A, B], "visits", top=2)
    assert by_visits.visits == 10
    assert [s.visits for s in by_visits.sets] == [6, 3]
    best = by_visits.sets[0]
    assert best.orders == {A: TO_X, B: HOLD_ORDER}
    assert best.value == pytest.approx(0.5) and best.share == pytest.approx(0.6)
    by_mean = summarize(root, [A, B], "mean")
    assert [s.visits for s in by_mean.sets] == [1, 3, 6]  # means 0.9, 0.8, 0.5
    spread_a = {s.order: (s.share, s.value) for s in by_visits.spread[A]}
    assert spread_a[TO_X] == pytest.approx((0.7, 3.9 / 7))
    assert spread_a[TO_Y] == pytest.approx((0.3, 0.8))
    assert [s.order for s in by_visits.spread[B]] == [HOLD_ORDER, TO_X, TO_Y]
    for shares in by_visits.spread.values():
        assert sum(s.share for s in shares) == pytest.approx(1.0)


def test_an_unvisited_root_has_no_sets() -> None:
    summary = summarize({}, [A], "mean")
    assert summary == RootSummary((), {A: ()}, 0)


def test_a_search_asked_to_rank_gives_its_summary_in_its_statistics() -> None:
    pos = initial_position(standard_map())
    power = pos.map.powers.index("FRA")
    variant = get_variant("dm")
    limit = SearchLimit(float("inf"), float("inf"), 300)
    _, stats = search_within(pos, power, variant, 1902, Random(1), limit, ranked=RANKED_SETS)
    summary = stats["ranked"]
    assert isinstance(summary, RootSummary)
    assert 2 <= len(summary.sets) <= RANKED_SETS
    units = {p for p, u in pos.units.items() if u[0] == power}
    assert set(summary.spread) == units
    assert all(set(s.orders) == units for s in summary.sets)
    shares = [s.share for s in summary.sets]
    assert shares == sorted(shares, reverse=True) or variant.final == "mean"
    assert summary.visits <= 300
    _, plain = search_within(pos, power, variant, 1902, Random(1), limit)
    assert "ranked" not in plain
