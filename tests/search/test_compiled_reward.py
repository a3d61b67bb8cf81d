"""The compiled rollout's reward (``search/_fastbot.pyx``'s ``play_out_reward``).

The compiled ``dm`` tree (:mod:`search.mcts.compiled_tree`) scores a leaf with
``play_out_reward``: the draws of the rollout players, the rollout, and the
reward of where it ends, without building that position.  From varied
positions (every kind of phase, to several horizons and final years, as each
power) it must give :meth:`DiplomacyDomain.rollout`'s reward and leave the
generator where the rollout leaves it; :meth:`DiplomacyDomain.rollout` computes it so
(the compiled :meth:`DiplomacyDomain.play_out` and the Python reward are its oracle).
"""

from __future__ import annotations

from random import Random

import pytest

from adjudicator.position import Position
from search import compiled_search as speedups
from search.dumbbot import DumbBot
from search.generator import SearchRandom
from search.mcts.domain import DiplomacyDomain
from search.mcts.variants import get_variant
from search.tables import tables_for
from tests.search.test_randombot import varied_positions

EVERY = 5
"""The test scores every EVERY-th of the varied positions."""


def _reward(domain: DiplomacyDomain, pos: Position, rng: Random) -> float:
    """``play_out_reward`` as the compiled tree calls it for ``domain``."""
    assert speedups.COMPILED is not None
    variant = domain.variant
    assert isinstance(variant.rollout_us, DumbBot)
    horizon = domain.final_year
    if variant.rollout_years is not None:
        horizon = min(horizon, pos.year + variant.rollout_years - 1)
    tables = tables_for(pos.map)
    fast = speedups.kernel(tables, variant.rollout_us.weights)
    assert fast is not None
    return speedups.COMPILED.play_out_reward(
        speedups.compiled_map(tables),
        fast.cweights,
        pos,
        rng,
        domain.us,
        horizon,
        domain.final_year,
        pos.map.win_centres,
        pos.map.num_powers - 1,
        len(variant.rollout_enemies),
    )


def test_the_compiled_reward_is_the_rollouts(compiled: None) -> None:
    rewards = set()
    checked = 0
    for i, pos in enumerate(varied_positions()[::EVERY]):
        n = pos.map.num_powers
        power = i % n
        for spec, years in (("dm", 1), ("dm/years=1", 3), ("dm/years=full", 10), ("dm/years=0", 2)):
            domain = DiplomacyDomain(get_variant(spec), power, pos.year + years, n)
            fast_rng, slow_rng, domain_rng = SearchRandom(i), SearchRandom(i), SearchRandom(i)
            reward = _reward(domain, pos, fast_rng)
            assert reward == domain.reward(domain.play_out(pos, slow_rng)), (i, spec)
            assert reward == domain.rollout(pos, domain_rng), (i, spec)
            assert fast_rng.getstate() == slow_rng.getstate() == domain_rng.getstate()
            rewards.add(reward)
            checked += 1
    assert checked > 100
    assert 0.0 in rewards and len(rewards) > 5


def test_bad_arguments_get_a_clear_error(compiled: None) -> None:
    pos = varied_positions()[0]
    domain = DiplomacyDomain(get_variant("dm"), 0, 1902, pos.map.num_powers)
    assert _reward(domain, pos, SearchRandom(1)) >= 0
    assert speedups.COMPILED is not None
    tables = tables_for(pos.map)
    fast = speedups.kernel(tables, DumbBot().weights)
    assert fast is not None
    args = (speedups.compiled_map(tables), fast.cweights, pos, SearchRandom(1))
    play = speedups.COMPILED.play_out_reward
    with pytest.raises(ValueError, match="no power"):
        play(*args, 7, 1902, 1902, 18, 6, 1)
    with pytest.raises(ValueError, match="players"):
        play(*args, 0, 1902, 1902, 18, 6, 0)
    with pytest.raises(ValueError, match="players"):
        play(*args, 0, 1902, 1902, 18, -1, 1)
    with pytest.raises(ValueError, match="winning count"):
        play(*args, 0, 1902, 1902, 0, 6, 1)
