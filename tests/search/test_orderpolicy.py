"""The learned order policy: choices and their labels, features, legal orders, model files."""

from __future__ import annotations

import json
from pathlib import Path
from random import Random

import numpy as np
import pytest

from adjudicator.maps import standard_map
from adjudicator.orders import HOLD_ORDER, MOVE, SUPPORT_HOLD, SUPPORT_MOVE, Orders
from adjudicator.position import FALL, NOBODY, Position, initial_position
from search.dumbbot import DumbBot
from search.orderpolicy import (
    DISTANCE_SCALE,
    FEATURES,
    MODELS_ENV,
    REACH_SCALE,
    LearnedPolicy,
    ModelError,
    OrderModel,
    choice_label,
    choice_probabilities,
    dumbbot_choice,
    load_model,
    orders_from_choices,
    power_features,
    unit_choices,
)
from tests.search.test_randombot import assert_legal, positions_of

M = standard_map()

BOARDS = [initial_position(M), *positions_of("movement")[3:60:7]]
ZERO = OrderModel(tuple([0.0] * len(FEATURES)), name="zero")


def _weights(**named: float) -> OrderModel:
    return OrderModel(tuple(named.get(f, 0.0) for f in FEATURES), name="hand-made")


def test_every_dumbbot_order_names_one_of_its_units_choices() -> None:
    bot = DumbBot()
    for pos in BOARDS:
        for power in sorted({u[0] for u in pos.units.values()}):
            orders = bot.movement_orders(pos, power, Random(3))
            for prov, order in orders.items():
                choices = unit_choices(pos, prov)
                k = choice_label(pos, prov, order, choices)
                assert k >= 0, (prov, order)
                if order[0] == MOVE:
                    assert choices[k] == order[1]
                elif order == HOLD_ORDER:
                    assert k == 0


def test_dumbbots_choices_turn_back_into_dumbbots_moves_and_legal_supports() -> None:
    bot = DumbBot()
    for pos in BOARDS:
        for power in sorted({u[0] for u in pos.units.values()}):
            orders = bot.movement_orders(pos, power, Random(5))
            picks = {
                prov: unit_choices(pos, prov)[
                    choice_label(pos, prov, order, unit_choices(pos, prov))
                ]
                for prov, order in orders.items()
            }
            movers_first = sorted(orders, key=lambda p: orders[p][0] != MOVE)
            rebuilt = orders_from_choices(pos, power, picks, movers_first)
            assert set(rebuilt) == set(orders)
            for prov, order in orders.items():
                if order[0] == MOVE:
                    assert rebuilt[prov] == order
                if order[0] in (SUPPORT_HOLD, SUPPORT_MOVE):
                    assert rebuilt[prov][0] in (SUPPORT_HOLD, SUPPORT_MOVE)


def test_features_have_a_row_per_choice_and_probabilities_sum_to_one() -> None:
    pos = BOARDS[3]
    power = sorted({u[0] for u in pos.units.values()})[0]
    provs, choices, matrix = power_features(pos, power, {})
    assert provs == pos.units_of(power) or provs == sorted(pos.units_of(power))
    assert matrix.shape == (sum(len(c) for c in choices), len(FEATURES))
    assert np.isfinite(matrix).all()
    stay = FEATURES.index("stay")
    start = 0
    for unit in choices:
        assert list(matrix[start : start + len(unit), stay]) == [1.0] + [0.0] * (len(unit) - 1)
        start += len(unit)
    weights = np.linspace(-1.0, 1.0, len(FEATURES))
    for p, unit in zip(choice_probabilities(matrix, choices, weights), choices, strict=True):
        assert len(p) == len(unit)
        assert p.sum() == pytest.approx(1.0)


@pytest.mark.parametrize(
    "model",
    [ZERO, _weights(stay=3.0), _weights(dumbbot_choice=2.0, centre=1.0, enemies_reaching=-1.0)],
    ids=["uniform", "holding", "dumbbot-like"],
)
def test_the_learned_policy_gives_every_unit_a_legal_order_and_repeats(model: OrderModel) -> None:
    policy = LearnedPolicy(model)
    for pos in BOARDS:
        for power in sorted({u[0] for u in pos.units.values()}):
            assert_legal(pos, power, policy, Random(9))
            assert policy.movement_orders(pos, power, Random(2)) == policy.movement_orders(
                pos, power, Random(2)
            )


def test_a_heavy_weight_on_dumbbots_choice_plays_dumbbot() -> None:
    policy = LearnedPolicy(_weights(dumbbot_choice=40.0))
    pos = BOARDS[5]
    for power in sorted({u[0] for u in pos.units.values()}):
        draw = DumbBot().movement_orders(pos, power, Random(4))
        ours = policy.movement_orders(pos, power, Random(4))
        moves = {p: o for p, o in draw.items() if o[0] == MOVE}
        assert {p: o for p, o in ours.items() if o[0] == MOVE} == moves


def test_a_model_file_round_trips_and_is_found_by_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    model = OrderModel(
        tuple(float(k) for k in range(len(FEATURES))), name="mine", provenance={"seed": 4}
    )
    model.save(tmp_path / "mine.json")
    assert load_model(str(tmp_path / "mine.json")) == model
    with pytest.raises(ModelError, match="no order model 'mine'"):
        load_model("mine")
    monkeypatch.setenv(MODELS_ENV, str(tmp_path))
    found = load_model("mine")
    assert found == model and found.provenance == {"seed": 4}


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("not json", "cannot read"),
        ("[1, 2]", "not an order model"),
        ('{"format": "something else"}', "not an order model"),
        ('{"format": "daide-mcts order policy", "version": 0}', "another layout"),
        (
            json.dumps(
                {"format": "daide-mcts order policy", "version": 1, "features": list(FEATURES),
                 "weights": ["a"] * len(FEATURES)}
            ),
            "list of numbers",
        ),
        (
            json.dumps(
                {"format": "daide-mcts order policy", "version": 1, "features": list(FEATURES),
                 "weights": [1.0]}
            ),
            "finite weights",
        ),
    ],
    ids=["text", "list", "format", "version", "strings", "short"],
)  # fmt: skip
def test_a_bad_model_file_is_refused_with_a_model_error(
    tmp_path: Path, content: str, message: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(ModelError, match=message):
        load_model(str(path))


def test_the_policys_kept_scores_give_the_feature_matrixs_probabilities() -> None:
    model = OrderModel(tuple(np.linspace(-1.0, 1.5, len(FEATURES))), name="ramp")
    policy = LearnedPolicy(model)
    pos = BOARDS[4]
    power = sorted({u[0] for u in pos.units.values()})[1]
    draw = DumbBot().movement_orders(pos, power, Random(8))
    provs, choices, matrix = power_features(pos, power, draw)
    expected = choice_probabilities(matrix, choices, model.vector)
    kept_provs, kept_choices, base = policy._board(pos, power)
    assert (kept_provs, kept_choices) == (provs, choices)
    w = dict(zip(FEATURES, model.weights, strict=True))
    for prov, unit, scores, p in zip(provs, choices, base, expected, strict=True):
        k = dumbbot_choice(pos, prov, draw.get(prov, HOLD_ORDER), unit)
        full = np.array(scores)
        full[k] += w["dumbbot_choice"] + (w["dumbbot_choice_stay"] if k == 0 else 0.0)
        e = np.exp(full - full.max())
        assert np.allclose(e / e.sum(), p)
    moved = pos.copy()
    moved.year += 1
    assert policy._board(moved, power) is not policy._board(pos, power)  # kept by content
    assert policy._board(pos.copy(), power) is policy._board(pos, power)


def _reference_features(
    pos: Position, power: int, dumbbot_orders: Orders
) -> tuple[list[int], list[list[int]], np.ndarray]:
    """The features one choice at a time, as plainly as they can be written."""
    m = pos.map
    units = pos.units
    owners = pos.owners
    loc_province = m.loc_province
    is_supply = m.is_supply
    homes = m.homes[power]
    fall = pos.season == FALL
    reaching_enemies = [0] * m.num_provinces
    reaching_friends = [0] * m.num_provinces
    for upower, utype, uloc in units.values():
        counts = reaching_friends if upower == power else reaching_enemies
        for p in m.reach(utype, uloc):
            counts[p] += 1
    targets = [sc for sc in m.supply_centres if owners[sc] != power]
    nearest_target = (
        np.asarray(m.distance)[:, targets].min(axis=1).tolist()
        if targets
        else [0] * m.num_provinces
    )
    provs = sorted(p for p, u in units.items() if u[0] == power)
    all_choices: list[list[int]] = []
    rows: list[float] = []
    for prov in provs:
        choices = unit_choices(pos, prov)
        all_choices.append(choices)
        own_reach = m.reach(units[prov][1], units[prov][2])
        dumb_k = dumbbot_choice(pos, prov, dumbbot_orders.get(prov, HOLD_ORDER), choices)
        for k, loc in enumerate(choices):
            d = loc_province[loc]
            stay = 1.0 if k == 0 else 0.0
            centre = is_supply[d]
            owner = owners[d]
            other = units.get(d)
            own_there = other is not None and other[0] == power and d != prov
            enemy_there = other is not None and other[0] != power
            to_take = centre and owner != power
            picked = 1.0 if k == dumb_k else 0.0
            friends = reaching_friends[d] - (1 if d in own_reach else 0)
            nearest = nearest_target[d]
            rows.extend(
                (
                    stay,
                    picked,
                    picked * stay,
                    1.0 if centre else 0.0,
                    1.0 if centre and owner == power else 0.0,
                    1.0 if centre and owner not in (power, NOBODY) else 0.0,
                    1.0 if centre and owner == NOBODY else 0.0,
                    1.0 if d in homes else 0.0,
                    1.0 if own_there else 0.0,
                    1.0 if enemy_there else 0.0,
                    reaching_enemies[d] / REACH_SCALE,
                    max(0, friends) / REACH_SCALE,
                    1.0 if fall and to_take else 0.0,
                    stay if fall and to_take else 0.0,
                    nearest / DISTANCE_SCALE,
                    stay * reaching_enemies[d] / REACH_SCALE,
                )
            )
    matrix = np.asarray(rows, dtype=np.float64).reshape(-1, len(FEATURES))
    return provs, all_choices, matrix


def test_the_features_are_computed_as_written_one_choice_at_a_time() -> None:
    bot = DumbBot()
    for pos in BOARDS:
        for power in sorted({u[0] for u in pos.units.values()}):
            draw = bot.movement_orders(pos, power, Random(6))
            provs, choices, matrix = power_features(pos, power, draw)
            ref_provs, ref_choices, reference = _reference_features(pos, power, draw)
            assert (provs, choices) == (ref_provs, ref_choices)
            assert np.array_equal(matrix, reference), pos
