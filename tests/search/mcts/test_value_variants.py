"""``value=NAME``: a learned value of a rollout's end, in the Python oracle and compiled."""

from __future__ import annotations

from pathlib import Path
from random import Random

import pytest

from adjudicator.compiled_rules import pure_python
from adjudicator.maps import standard_map
from adjudicator.position import initial_position
from search.mcts.compiled_tree import CompiledMcts
from search.mcts.domain import DiplomacyDomain
from search.mcts.tree import new_search
from search.mcts.uct import Mcts
from search.mcts.variants import DM, SettingError, get_variant
from search.orderpolicy import MODELS_ENV
from search.valuemodel import VALUE_FEATURES, ValueModel
from tests.search.boards import dumbbot_game, position, power

M = standard_map()


@pytest.fixture
def model_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    weights = dict.fromkeys(VALUE_FEATURES, 0.0)
    weights.update(bias=0.05, centres=0.8, targets_unguarded=0.3, centres_exposed=-0.4)
    later = {**weights, "centres": 0.9, "enemy_units_adjacent": -0.2}
    rows = (tuple(weights.values()), tuple(later.values()))
    ValueModel((4, 8), rows, name="hand").save(tmp_path / "hand.json")
    monkeypatch.setenv(MODELS_ENV, str(tmp_path))
    return tmp_path


def test_the_value_setting_loads_the_model_and_combines(model_dir: Path) -> None:
    variant = get_variant("dm/value=hand/years=1")
    assert variant.value is not None and variant.value.name == "hand"
    assert variant.rollout_years == 1 and variant.actions == DM.actions
    assert DM.value is None


@pytest.mark.parametrize(
    ("name", "message"),
    [("dm/value=absent", "no value model 'absent'"), ("dm/value=", "bad value")],
)
def test_a_bad_value_setting_is_refused(model_dir: Path, name: str, message: str) -> None:
    with pytest.raises(SettingError, match=message):
        get_variant(name)


def test_the_reward_is_the_value_before_the_end_and_the_centres_at_it(model_dir: Path) -> None:
    variant = get_variant("dm/value=hand")
    assert variant.value is not None
    france = power("FRA")
    domain = DiplomacyDomain(variant, france, 1905, M.num_powers)
    plain = DiplomacyDomain(DM, france, 1905, M.num_powers)
    owners = {"FRA": ["PAR", "MAR", "BRE", "SPA"], "GER": ["BER", "KIE", "MUN"]}
    stopped = position("WIN 1902", ["FRA A PAR", "FRA A SPA", "GER A MUN"], owners)
    assert domain.reward(stopped) == pytest.approx(variant.value.value(stopped, france, 1905))
    assert domain.reward(stopped) != plain.reward(stopped)
    ended = position("WIN 1905", ["FRA A PAR", "FRA A SPA", "GER A MUN"], owners)
    assert domain.reward(ended) == plain.reward(ended) == pytest.approx(4 / 18)
    gone = position("WIN 1902", ["GER A MUN"], {"GER": ["BER", "KIE", "MUN"]})
    assert domain.reward(gone) == 0.0


SPECS = ("dm/value=hand", "dm/value=hand/years=1", "dm/value=hand/years=0")


@pytest.mark.parametrize("spec", SPECS)
def test_the_compiled_tree_values_rollouts_as_the_python_search(
    model_dir: Path, compiled: None, spec: str
) -> None:
    """The whole tree, compiled and in pure Python, the same for a few positions."""
    variant = get_variant(spec)
    positions = [initial_position(M), *(pos for pos, _ in dumbbot_game(1, 4)[2::3])]
    for k, pos in enumerate(positions):
        us = k % M.num_powers
        if not any(u[0] == us for u in pos.units.values()):
            continue
        fast = new_search(pos, us, variant, 1905, Random(k))
        assert isinstance(fast, CompiledMcts)
        fast.run(iterations=15)
        with pure_python():
            slow = new_search(pos, us, variant, 1905, Random(k))
            assert type(slow) is Mcts
            slow.run(iterations=15)
        assert [(e.action, e.visits, e.total) for e in fast.ranked()] == [
            (e.action, e.visits, e.total) for e in slow.ranked()
        ], (spec, pos.turn)
        assert fast.rng.getstate() == slow.rng.getstate()
