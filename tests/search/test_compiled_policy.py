"""The learned order policy compiled (``search._fastbot.CPolicy``) against :class:`LearnedPolicy`.

For the opening and the movement phases of DumbBot games (springs and falls,
1901-1906), every power and several seeds, the compiled draw must give the
orders the pure-Python policy gives and leave the generator in the same state;
so must it for models that lean hard on one feature, and for a generator it
draws from through its methods.
"""

from __future__ import annotations

import pytest

from adjudicator.compiled_rules import pure_python
from adjudicator.maps import standard_map
from adjudicator.position import FALL, SPRING, Position, initial_position
from search import compiled_search as speedups
from search.generator import SearchRandom
from search.orderpolicy import FEATURES, LearnedPolicy, OrderModel, load_model
from search.tables import DEFAULT_WEIGHTS, tables_for
from tests.search.boards import dumbbot_game

M = standard_map()

SEEDS = (0, 1, 7)
"""The generators' seeds each position is drawn with."""


def _positions() -> list[Position]:
    """The opening, and every movement phase of three DumbBot games to 1906."""
    out = [initial_position(M)]
    for seed in range(3):
        out.extend(pos for pos, _ in dumbbot_game(seed, 6))
    return out


POSITIONS = _positions()


def _hand_made(**named: float) -> OrderModel:
    return OrderModel(tuple(named.get(f, 0.0) for f in FEATURES), name="hand-made")


class MethodRandom(SearchRandom):
    """A generator the compiled code draws from through its methods (not a plain SearchRandom)."""

    def random(self) -> float:
        return super().random()


def _assert_same_draws(policy: LearnedPolicy, positions: list[Position], rng_type: type) -> int:
    """Compiled and pure draws on every position, power and seed; how many were compared."""
    compared = 0
    for i, pos in enumerate(positions):
        for power in range(M.num_powers):
            for seed in SEEDS:
                fast_rng, slow_rng = rng_type(1000 * i + seed), rng_type(1000 * i + seed)
                fast = policy.movement_orders(pos, power, fast_rng)
                with pure_python():
                    slow = policy.movement_orders(pos, power, slow_rng)
                assert fast == slow, (pos.turn, power, seed)
                assert list(fast) == list(slow), (pos.turn, power, seed)
                assert fast_rng.getstate() == slow_rng.getstate(), (pos.turn, power, seed)
                compared += 1
    return compared


def test_the_positions_cover_springs_and_falls_from_1901_to_1906() -> None:
    assert {pos.season for pos in POSITIONS} == {SPRING, FALL}
    assert {pos.year for pos in POSITIONS} >= set(range(1901, 1907))


def test_the_compiled_policy_draws_what_the_python_policy_draws(compiled: None) -> None:
    policy = LearnedPolicy(load_model("policy"))
    assert policy.compiled(M) is not None
    assert _assert_same_draws(policy, POSITIONS, SearchRandom) == len(POSITIONS) * 7 * len(SEEDS)


@pytest.mark.parametrize(
    "model",
    [
        _hand_made(),
        _hand_made(stay=3.0, friends_reaching=2.0),
        _hand_made(dumbbot_choice=40.0),
        _hand_made(dumbbot_choice=-2.0, dumbbot_choice_stay=5.0, target_distance=-4.0),
        _hand_made(own_unit_there=6.0, centre_theirs=1.5, fall_centre_to_take=3.0),
    ],
    ids=["uniform", "holding", "dumbbot", "dumbbot-stays", "supports"],
)
def test_any_models_compiled_draws_are_its_python_draws(compiled: None, model: OrderModel) -> None:
    _assert_same_draws(LearnedPolicy(model), POSITIONS[::5], SearchRandom)


def test_a_generator_subclass_is_drawn_from_as_the_python_policy_draws(compiled: None) -> None:
    _assert_same_draws(LearnedPolicy(load_model("policy")), POSITIONS[::6], MethodRandom)


def test_pure_python_has_no_compiled_policy() -> None:
    policy = LearnedPolicy(load_model("policy"))
    with pure_python():
        assert policy.compiled(M) is None


def test_a_compiled_policy_is_made_once_per_map_weights_and_dumbbot(compiled: None) -> None:
    tables = tables_for(M)
    weights = load_model("policy").weights
    first = speedups.learned_policy(tables, weights, DEFAULT_WEIGHTS)
    assert first is not None
    assert speedups.learned_policy(tables, weights, DEFAULT_WEIGHTS) is first
    other = tuple(w + 1.0 for w in weights)
    assert speedups.learned_policy(tables, other, DEFAULT_WEIGHTS) is not first


def test_a_compiled_policy_needs_one_weight_per_feature(compiled: None) -> None:
    assert speedups.COMPILED is not None
    cmap = speedups.compiled_map(tables_for(M))
    dumbbot = speedups.kernel(tables_for(M), DEFAULT_WEIGHTS)
    assert dumbbot is not None
    with pytest.raises(ValueError, match="weights"):
        speedups.COMPILED.CPolicy(cmap, M, (1.0,) * (len(FEATURES) - 1), dumbbot.cweights)
