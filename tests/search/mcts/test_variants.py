"""The variants as configurations of one search: the thesis's table, legality, determinism."""

from __future__ import annotations

import dataclasses
import re
import time
from random import Random

import pytest

from adjudicator.maps import standard_map
from adjudicator.position import initial_position
from search.mcts.config import SearchSettings
from search.mcts.order_sets import ThesisActions, WeightedActions
from search.mcts.parallel import RootParallel, merge, pick
from search.mcts.player import AnytimeChooser, MctsPlayer, think
from search.mcts.players import (
    EXPECTED_ENEMIES,
    EXPECTED_PLAYER,
    GREEDY_ELSE_RANDOM_PLAYER,
    HEURISTIC_PLAYER,
    RANDOM_PHASES,
    RANDOM_PLAYER,
    TWO_STEP_PLAYER,
    WEIGHT_GREEDY_PLAYER,
)
from search.mcts.tree import new_search
from search.mcts.variants import (
    DEFAULT_VARIANT,
    VARIANTS,
    SettingError,
    UnknownVariantError,
    VariantError,
    get_variant,
)
from search.policy import SearchLimit, SearchRequest
from search.registry import UnknownPolicyError, make_policy
from tests.search.test_randombot import assert_legal, positions_of

M = standard_map()
THESIS = [f"v{k}" for k in range(1, 9)]


def test_the_thesis_variants_are_configured_as_written() -> None:
    v = {name: get_variant(name) for name in THESIS}
    for name in THESIS:
        assert v[name].enemies is EXPECTED_ENEMIES and v[name].enemies.fixed
        assert v[name].phases is RANDOM_PHASES
        assert v[name].rollout_years is None  # simulate to the end of the game
        assert not v[name].resample and v[name].final == "mean"
        assert v[name].cp == pytest.approx(2**-0.5)
    for name in ("v1", "v2", "v3", "v4"):
        assert isinstance(v[name].actions, ThesisActions)
    for name in ("v5", "v6", "v7", "v8"):
        assert isinstance(v[name].actions, WeightedActions)
    assert v["v1"].rollout_us is RANDOM_PLAYER and v["v1"].rollout_enemies == (RANDOM_PLAYER,)
    assert v["v2"].rollout_us is HEURISTIC_PLAYER
    assert v["v3"].rollout_us is TWO_STEP_PLAYER
    assert v["v4"].rollout_enemies == (GREEDY_ELSE_RANDOM_PLAYER,)
    assert v["v5"].rollout_us is HEURISTIC_PLAYER
    assert [n for n in THESIS if v[n].double_expansion] == ["v6"]
    assert v["v7"].rollout_us is WEIGHT_GREEDY_PLAYER
    assert set(v["v8"].rollout_enemies) == {RANDOM_PLAYER, WEIGHT_GREEDY_PLAYER, EXPECTED_PLAYER}
    assert DEFAULT_VARIANT == "dm"
    assert list(VARIANTS) == [*THESIS, "dm"]


def test_unknown_variants_are_refused_by_name() -> None:
    for retired in ("v9", "db", "dl", "erule=rm"):
        with pytest.raises(UnknownVariantError, match="v1"):
            get_variant(retired)
    with pytest.raises(UnknownPolicyError):
        make_policy("mcts:nonsense")
    assert isinstance(make_policy("mcts:V8", budget=1.0), MctsPlayer)
    assert make_policy("mcts").name == f"mcts:{DEFAULT_VARIANT}"


@pytest.mark.parametrize("name", list(VARIANTS))
def test_every_variant_gives_legal_orders_and_repeats_for_a_seed(name: str) -> None:
    variant = get_variant(name)
    player = MctsPlayer(variant, budget=None, iterations=12, final_year=1903)
    boards = [initial_position(M), *positions_of("movement")[5:40:12]]
    for pos in boards:
        for power in sorted({u[0] for u in pos.units.values()})[:3]:
            assert_legal(pos, power, player, Random(7))
            first = player.movement_orders(pos, power, Random(11))
            again = player.movement_orders(pos, power, Random(11))
            assert first == again
            assert player.last_stats["iterations"] == 12


def test_fixed_enemy_orders_are_computed_once_per_node() -> None:
    pos = initial_position(M)
    tree = new_search(pos, M.power_index["FRA"], get_variant("v1"), 1905, Random(0))
    tree.run(iterations=3)
    data = tree.root.data
    assert isinstance(data, dict) and data
    tree.run(iterations=20)
    assert tree.root.data is data
    chance = new_search(pos, M.power_index["FRA"], get_variant("dm"), 1905, Random(0))
    chance.run(iterations=5)
    # DumbBot enemies are drawn afresh at every descent: no orders kept (the compiled
    # step may keep their values there)
    assert not isinstance(chance.root.data, dict)


def test_the_search_reports_what_it_did() -> None:
    pos = initial_position(M)
    orders, stats = think(pos, 0, get_variant("v5"), 1902, Random(1), iterations=40)
    assert set(orders) == set(pos.units_of(0))
    assert stats["iterations"] == 40
    assert 0 < stats["rollouts"] <= 40  # leaves in the final year are scored, not simulated
    assert stats["nodes"] >= 2 and stats["root_actions"] >= 1
    assert 0.0 <= stats["best_value"] <= 1.0
    assert stats["variant"] == "v5"


def test_merge_adds_root_statistics_per_action() -> None:
    a, b = ((1, (0,)),), ((1, (1, 5)),)
    merged = merge([[(a, 3, 1.5), (b, 1, 0.9)], [(a, 2, 0.5), (b, 4, 3.0)]])
    assert merged == {a: (5, 2.0), b: (5, 3.9)}
    assert pick(merged, "mean") == b
    assert pick({a: (6, 1.0), b: (2, 1.9)}, "visits") == a
    assert pick({}, "mean") is None


def test_root_parallel_search_merges_the_helpers() -> None:
    pos = initial_position(M)
    variant = get_variant("v5")
    parallel = RootParallel(1)
    try:
        orders, stats = think(pos, 3, variant, 1902, Random(2), iterations=25, parallel=parallel)
        again, stats2 = think(pos, 3, variant, 1902, Random(2), iterations=25, parallel=parallel)
    finally:
        parallel.close()
    assert stats["workers"] == 2
    assert stats["merged_iterations"] == 50
    assert stats2["merged_iterations"] == 50
    assert orders == again and set(orders) == set(pos.units_of(3))


def test_the_anytime_chooser_reports_improvements_then_one_final_set() -> None:
    pos = initial_position(M)
    reports: list[tuple[dict, dict, bool]] = []
    choose = AnytimeChooser("mcts:v5", 1, 1903)
    stop_at = time.monotonic() + 1.0
    choose(SearchRequest(pos, 4, SearchLimit(stop_at, stop_at + 0.2)), Random(0),
           lambda o, s, f: reports.append((o, s, f)), lambda: False)  # fmt: skip
    choose.close()
    assert reports and reports[-1][2] is True
    assert sum(1 for r in reports if r[2]) == 1
    for orders, _, _ in reports:
        assert set(orders) == set(pos.units_of(4))


def test_a_stop_request_ends_the_search_early() -> None:
    pos = initial_position(M)
    calls = []

    def stop() -> bool:
        calls.append(1)
        return True

    began = time.monotonic()
    orders, stats = think(pos, 1, get_variant("v5"), 1905, Random(0),
                          deadline=began + 60, should_stop=stop)  # fmt: skip
    assert calls and stats["iterations"] >= 1
    assert set(orders) == set(pos.units_of(1))


def test_a_cpu_time_budget_is_for_one_worker() -> None:
    player = MctsPlayer(get_variant("v5"), budget=0.2, cpu_clock=True, final_year=1902)
    pos = initial_position(M)
    orders = player.movement_orders(pos, 2, Random(0))
    assert set(orders) == set(pos.units_of(2)) and player.last_stats["iterations"] >= 1
    with pytest.raises(ValueError, match="CPU"):
        MctsPlayer(get_variant("v5"), budget=1.0, cpu_clock=True, workers=2)


def test_variant_settings_can_be_overridden_by_name() -> None:
    v = get_variant("DM/cp=0.1/final=mean/years=full/widen=off/resample=off/double=on")
    assert v.name == "dm/cp=0.1/final=mean/years=full/widen=off/resample=off/double=on"
    assert (v.cp, v.final, v.rollout_years, v.widening) == (0.1, "mean", None, None)
    assert (v.resample, v.double_expansion) == (False, True)
    assert v.actions is get_variant("dm").actions  # what no setting names is the variant's
    assert (get_variant("v5/years=2").rollout_years, get_variant("v5/years=2").lookahead_years) == (
        2,
        2,
    )
    assert get_variant("dm/years=0").rollout_years == 0
    assert get_variant("dm/widen=1.5:0.25").widening == (1.5, 0.25)
    assert get_variant(v.name) == v  # rebuilt from its name (as helper processes do)
    assert make_policy("mcts:dm/cp=0.5").name == "mcts:dm/cp=0.5"


@pytest.mark.parametrize("bad", ["dm/cp", "dm/speed=9", "dm/arms=3", "dm/=1"])
def test_an_unknown_setting_is_refused_with_the_settings_named(bad: str) -> None:
    with pytest.raises(SettingError, match="unknown MCTS variant setting") as caught:
        get_variant(bad)
    assert "cp:" in str(caught.value) and "widen:" in str(caught.value)
    with pytest.raises(UnknownPolicyError, match="setting"):
        make_policy(f"mcts:{bad}")


@pytest.mark.parametrize(
    "bad",
    [
        "dm/cp=x",
        "dm/cp=-1",
        "dm/cp=nan",
        "dm/final=best",
        "dm/years=-1",
        "dm/years=1.5",
        "dm/double=y",
        "dm/resample=yes",
        "dm/widen=2",
        "dm/widen=a:b",
    ],
)
def test_a_bad_value_is_refused_naming_the_setting(bad: str) -> None:
    value = bad.partition("=")[2]
    with pytest.raises(SettingError, match=re.escape(f"bad value {value!r} for the MCTS variant")):
        get_variant(bad)


def test_every_error_of_a_variant_name_is_a_value_error() -> None:
    assert issubclass(UnknownVariantError, VariantError) and issubclass(SettingError, VariantError)
    assert issubclass(VariantError, ValueError)
    with pytest.raises(UnknownVariantError, match="choose one of v1, v2"):
        get_variant("eq")


def test_a_variant_is_frozen_settings_and_holds_no_game_data() -> None:
    dm = get_variant("dm")
    with pytest.raises(dataclasses.FrozenInstanceError):
        dm.cp = 0.1  # type: ignore[misc]
    assert [f.name for f in dataclasses.fields(SearchSettings)] == [
        "name", "description", "actions", "enemies", "phases", "rollout_us", "rollout_enemies",
        "cp", "final", "resample", "double_expansion", "widening", "rollout_years",
        "lookahead_years", "value",
    ]  # fmt: skip
    player = MctsPlayer(dm, budget=None, iterations=5, final_year=1902)
    player.movement_orders(initial_position(M), 0, Random(0))
    assert player.variant is dm  # playing changes nothing in the settings it plays by


@pytest.mark.parametrize("spec", ["dm", "v6", "dm/widen=off/resample=off/cp=0.1/final=visits"])
def test_a_new_tree_takes_the_variants_tree_options(spec: str) -> None:
    variant = get_variant(spec)
    options = variant.tree_options()
    assert options == {
        "cp": variant.cp,
        "resample": variant.resample,
        "double_expansion": variant.double_expansion,
        "widening": variant.widening,
        "final": variant.final,
    }
    tree = new_search(initial_position(M), 0, variant, 1902, Random(0))
    assert {name: getattr(tree, name) for name in options} == options
