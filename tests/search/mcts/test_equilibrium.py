"""The root game: which enemies interact with us, their bandits, and the adaptive DumbBot share."""

from __future__ import annotations

import dataclasses
from random import Random

import pytest

from adjudicator.position import initial_position
from search.dumbbot import DumbBot
from search.mcts.equilibrium import (
    EnemyBandit,
    RegretMatcher,
    RootGameDomain,
    interacting_powers,
)
from search.mcts.player import new_search
from search.mcts.variants import get_variant
from search.opponents import OpponentStats, PowerProfile
from tests.search.boards import M, position, power

ITERATIONS = 30


def test_enemies_near_our_units_or_centres_interact_with_us() -> None:
    pos = initial_position(M)
    names = [M.powers[p] for p in interacting_powers(pos, power("FRA"))]
    assert names == ["ENG", "GER", "ITA"]
    assert [M.powers[p] for p in interacting_powers(pos, power("AUS"), radius=1)] == ["ITA"]
    lonely = position("SPR 1905", ["TUR A ANK", "ENG F LON"], {"TUR": ["ANK"], "ENG": ["LON"]})
    assert interacting_powers(lonely, power("TUR")) == []


def test_every_power_is_rewarded_by_its_centres_or_the_solo() -> None:
    pos = initial_position(M)
    domain = new_search(pos, power("FRA"), get_variant("eq"), 1902, Random(0)).domain
    assert isinstance(domain, RootGameDomain)
    rewards = domain.values(pos)
    assert rewards[power("RUS")] == pytest.approx(4 / 18)
    assert rewards[power("AUS")] == pytest.approx(3 / 18)


def test_a_bandit_tries_every_arm_then_plays_the_best() -> None:
    bandit = EnemyBandit([{}, {}, {}], cp=0.01)
    rng = Random(0)
    for reward in (0.2, 0.5, 0.3):
        arm = bandit.choose(rng)
        assert bandit.visits[arm] == 0  # an untried arm first
        bandit.update(arm, reward)
    best = bandit.totals.index(0.5)
    assert [bandit.choose(rng) for _ in range(5)] == [best] * 5
    assert bandit.strategy() == [pytest.approx(1 / 3)] * 3


def _root_game(name: str, stats: OpponentStats | None = None) -> RootGameDomain:
    variant = get_variant(name)
    if stats is not None:
        variant = dataclasses.replace(variant, opponents=stats)
    tree = new_search(initial_position(M), power("FRA"), variant, 1902, Random(4))
    tree.run(iterations=ITERATIONS)
    domain = tree.domain
    assert isinstance(domain, RootGameDomain)
    return domain


def test_interacting_enemies_choose_their_root_orders_by_their_bandits() -> None:
    domain = _root_game("eq/arms=4")
    assert sorted(domain.bandits) == [power("ENG"), power("GER"), power("ITA")]
    for bandit in domain.bandits.values():
        assert 1 < len(bandit.arms) <= 4
        assert sum(bandit.visits) == ITERATIONS  # every iteration steps the root and rolls out once
        assert all(v > 0 for v in bandit.visits)
    dumbbot = DumbBot()
    germany = domain.bandits[power("GER")].arms
    pos = initial_position(M)
    assert dumbbot.movement_orders(pos, power("GER"), Random(1)) in germany or len(germany) == 4


def test_an_adaptive_search_lets_dumbbot_like_enemies_play_dumbbot() -> None:
    unknown = _root_game("ad")
    assert all(share == 1.0 for share in unknown.dumbbot_share.values())
    assert all(sum(b.visits) == 0 for b in unknown.bandits.values())
    empty = OpponentStats.empty(M.num_powers)
    profiles = list(empty.powers)
    profiles[power("GER")] = PowerProfile(units=20, likelihood=2.0, typical=15.0)
    profiles[power("ITA")] = PowerProfile(units=20, likelihood=15.0, typical=15.0)
    seen = _root_game("ad", dataclasses.replace(empty, phases=6, powers=tuple(profiles)))
    assert seen.dumbbot_share[power("GER")] == 0.0  # far from DumbBot: always its bandit
    assert seen.dumbbot_share[power("ITA")] == 1.0
    assert seen.dumbbot_share[power("ENG")] == 1.0  # nothing seen: presumed DumbBot
    assert sum(seen.bandits[power("GER")].visits) == ITERATIONS
    assert sum(seen.bandits[power("ITA")].visits) == 0


def test_regret_matching_moves_towards_the_better_arm() -> None:
    matcher = RegretMatcher([{}, {}], gamma=0.1)
    rng = Random(1)
    assert matcher._sigma() == [0.5, 0.5]
    for _ in range(200):
        arm = matcher.choose(rng)
        matcher.update(arm, 0.4 if arm == 1 else 0.1)
    sigma = matcher._sigma()
    assert sigma[1] > 0.9 and sum(matcher.visits) == 200
    assert get_variant("eq/erule=rm").domain is not None
    with pytest.raises(KeyError):
        get_variant("eq/erule=exp3")
