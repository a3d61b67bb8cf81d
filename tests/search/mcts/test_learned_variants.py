"""``model=NAME``: a learned order policy in a variant: the enemies, our candidates, rollouts."""

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


def test_the_model_plays_the_enemies_in_the_rollouts_and_in_the_tree(model_dir: Path) -> None:
    rollouts = get_variant("dm/model=hand:rollouts")
    (player,) = rollouts.rollout_enemies
    assert isinstance(player, LearnedPolicy) and player.model.name == "hand"
    assert rollouts.enemies is DM.enemies and rollouts.actions == DM.actions
    assert rollouts.rollout_us is DM.rollout_us

    everywhere = get_variant("dm/model=hand:all")
    (player,) = everywhere.rollout_enemies
    assert isinstance(player, LearnedPolicy)
    assert everywhere.enemies.player is player and not everywhere.enemies.fixed
    assert everywhere.actions == DM.actions


def test_a_search_with_the_model_plays_legal_orders_and_repeats(model_dir: Path) -> None:
    player = MctsPlayer(get_variant("dm/model=hand"), budget=None, iterations=10, final_year=1902)
    everywhere = MctsPlayer(
        get_variant("dm/model=hand:all"), budget=None, iterations=10, final_year=1902
    )
    pos = initial_position(M)
    for power in range(3):
        assert_legal(pos, power, everywhere, Random(1))
        assert_legal(pos, power, player, Random(1))
        assert player.movement_orders(pos, power, Random(2)) == player.movement_orders(
            pos, power, Random(2)
        )


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("dm/model=absent", "no order model 'absent'"),
        ("dm/model=hand:nowhere", "bad value 'hand:nowhere'"),
        ("dm/model=", "bad value ''"),
    ],
)
def test_a_bad_model_setting_is_refused(model_dir: Path, name: str, message: str) -> None:
    with pytest.raises(SettingError, match=message):
        get_variant(name)
