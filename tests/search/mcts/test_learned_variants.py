"""``model=NAME``: a learned order policy inside a variant, as the enemies and our candidates."""

from __future__ import annotations

from pathlib import Path
from random import Random

import pytest

from adjudicator.maps import standard_map
from adjudicator.position import initial_position
from search.mcts.order_sets import MixedActions, SampledFromPlayers
from search.mcts.player import MctsPlayer
from search.mcts.variants import DM, SettingError, get_variant
from search.orderpolicy import FEATURES, MODELS_ENV, LearnedPolicy, OrderModel
from tests.search.test_randombot import assert_legal

M = standard_map()


@pytest.fixture
def model_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    weights = [0.0] * len(FEATURES)
    weights[FEATURES.index("dumbbot_choice")] = 2.0
    OrderModel(tuple(weights), name="hand").save(tmp_path / "hand.json")
    monkeypatch.setenv(MODELS_ENV, str(tmp_path))
    return tmp_path


def _learned_players(variant_actions: object) -> list[object]:
    assert isinstance(variant_actions, MixedActions)
    sampled = variant_actions.generators[0]
    assert isinstance(sampled, SampledFromPlayers)
    return [p for p in sampled.players if isinstance(p, LearnedPolicy)]


def test_the_model_plays_the_enemies_and_joins_our_candidates(model_dir: Path) -> None:
    both = get_variant("dm/model=hand")
    assert isinstance(both.enemies.player, LearnedPolicy) and not both.enemies.fixed
    assert len(_learned_players(both.actions)) == 1
    assert both.rollout_enemies == DM.rollout_enemies  # rollouts stay DumbBot's

    enemies = get_variant("dm/model=hand:enemies")
    assert isinstance(enemies.enemies.player, LearnedPolicy)
    assert enemies.actions == DM.actions

    candidates = get_variant("dm/model=hand:candidates")
    assert candidates.enemies is DM.enemies
    assert len(_learned_players(candidates.actions)) == 1
    assert candidates.rollout_enemies == DM.rollout_enemies


def test_a_search_with_the_model_plays_legal_orders_and_repeats(model_dir: Path) -> None:
    player = MctsPlayer(get_variant("dm/model=hand"), budget=None, iterations=10, final_year=1902)
    pos = initial_position(M)
    for power in range(3):
        assert_legal(pos, power, player, Random(1))
        assert player.movement_orders(pos, power, Random(2)) == player.movement_orders(
            pos, power, Random(2)
        )


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("dm/model=absent", "no order model 'absent'"),
        ("dm/model=hand:rollouts", "bad value 'hand:rollouts'"),
        ("dm/model=", "bad value ''"),
    ],
)
def test_a_bad_model_setting_is_refused(model_dir: Path, name: str, message: str) -> None:
    with pytest.raises(SettingError, match=message):
        get_variant(name)
