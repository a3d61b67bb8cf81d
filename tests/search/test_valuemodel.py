"""The value model: its features (against a plain one-power-at-a-time reference), its
prediction, and its file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from adjudicator.maps import standard_map
from adjudicator.position import NOBODY, WINTER, Position, initial_position
from search import compiled_search as speedups
from search.orderpolicy import MODELS_ENV, ModelError
from search.tables import tables_for
from search.valuemodel import (
    VALUE_FEATURES,
    ValueModel,
    load_value_model,
    phases_left,
    position_features,
)
from tests.search.boards import dumbbot_game, position, power

M = standard_map()
SCALE = M.win_centres


def _reference(pos: Position, us: int) -> list[float]:
    """The features of ``us`` as written in :data:`VALUE_FEATURES`, one loop at a time."""
    m = pos.map
    units = pos.units
    reach = {p: m.reach(u[1], u[2]) for p, u in units.items()}
    ours = {p for p, u in units.items() if u[0] == us}
    owned = {p for p in m.supply_centres if pos.owners[p] == us}
    counts = pos.centre_counts()
    our_reach = set().union(*(reach[p] for p in ours))
    enemy_reach = set().union(*(reach[p] for p in units if p not in ours))
    enemy_on = {p for p in units if p not in ours}
    targets = {c for c in m.supply_centres if c not in owned and c in our_reach}
    threatened = owned & enemy_reach
    touching = [p for p in units if p not in ours and reach[p] & (owned | ours)]
    unit_count = len(ours)
    if pos.season == WINTER:
        free = len([h for h in m.homes[us] if h in owned and h not in units])
        unit_count = min(len(owned), unit_count + free) if unit_count < len(owned) else len(owned)
    alive = {u[0] for u in units.values()} | {o for o in pos.owners if o != NOBODY}
    return [
        1.0,
        len(owned) / SCALE,
        (len(owned) / SCALE) ** 2,
        unit_count / SCALE,
        len(owned & m.homes[us]) / len(m.homes[us]),
        len(targets) / SCALE,
        len({c for c in targets if c not in enemy_reach and c not in enemy_on}) / SCALE,
        len(threatened) / SCALE,
        len({c for c in threatened if c not in our_reach and c not in ours}) / SCALE,
        len(touching) / SCALE,
        len({units[p][0] for p in touching}) / (m.num_powers - 1),
        max(c for q, c in enumerate(counts) if q != us) / SCALE,
        len([c for c in m.supply_centres if pos.owners[c] == NOBODY]) / SCALE,
        len([q for q in range(m.num_powers) if q in alive]) / m.num_powers,
    ]


def _positions() -> list[Position]:
    out = [initial_position(M)]
    for seed in range(2):
        out += [pos for pos, _ in dumbbot_game(seed, 5)[1::2]]
    return out


def test_the_features_are_computed_as_written() -> None:
    for pos in _positions():
        features = position_features(pos)
        assert features.shape == (M.num_powers, len(VALUE_FEATURES))
        for us in range(M.num_powers):
            assert features[us] == pytest.approx(_reference(pos, us)), (pos.turn, us)


def test_the_opening_features() -> None:
    features = position_features(initial_position(M))
    column = {name: features[:, k] for k, name in enumerate(VALUE_FEATURES)}
    russia = power("RUS")
    assert column["centres"] * SCALE == pytest.approx([4 if p == russia else 3 for p in range(7)])
    assert column["strongest_enemy"] * SCALE == pytest.approx(
        [3 if p == russia else 4 for p in range(7)]
    )
    assert list(column["homes_held"]) == [1.0] * 7
    assert list(column["neutral_centres"] * SCALE) == pytest.approx([12.0] * 7)


def test_a_winter_counts_the_units_its_adjustments_leave() -> None:
    owners = {"FRA": ["PAR", "MAR", "BRE", "SPA", "POR"], "GER": ["BER", "KIE", "MUN"]}
    pos = position(
        "WIN 1901",
        ["FRA A SPA", "FRA F POR", "FRA A BUR", "GER A MUN", "GER F HOL", "GER A RUH", "GER A KIE"],
        owners,
    )
    features = position_features(pos)
    units = VALUE_FEATURES.index("units")
    assert features[power("FRA"), units] * SCALE == pytest.approx(5)  # 3 units, 2 builds
    assert features[power("GER"), units] * SCALE == pytest.approx(3)  # 4 units, 1 removal
    assert phases_left(pos, 1905) == 8  # spring 1902 to fall 1905


def test_phases_left_count_the_movement_phases_still_to_play() -> None:
    pos = initial_position(M)
    assert phases_left(pos, 1901) == 2
    assert phases_left(pos, 1905) == 10
    fall = position("FAL 1903", ["FRA A PAR"], {"FRA": ["PAR"]})
    assert phases_left(fall, 1903) == 1


def _model(**named: float) -> ValueModel:
    weights = [0.0] * len(VALUE_FEATURES)
    for name, w in named.items():
        weights[VALUE_FEATURES.index(name)] = w
    return ValueModel((2, 6), (tuple(weights), tuple(2 * w for w in weights)), name="hand")


def test_the_value_is_linear_per_phases_left_and_clamped() -> None:
    model = _model(bias=0.1, centres=1.0)
    pos = initial_position(M)
    russia = power("RUS")
    assert model.value(pos, russia, 1901) == pytest.approx(0.1 + 4 / SCALE)  # 2 phases left
    assert model.value(pos, russia, 1905) == pytest.approx(0.2 + 8 / SCALE)  # 10: nearest is 6
    assert model.value(pos, russia, 1903) == pytest.approx(0.2 + 8 / SCALE)  # 6
    assert _model(bias=3.0).value(pos, russia, 1905) == 1.0
    assert _model(bias=-3.0).value(pos, russia, 1905) == 0.0


def test_a_model_file_round_trips_and_is_found_by_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    model = _model(centres=1.0)
    model.save(tmp_path / "v.json")
    assert load_value_model(str(tmp_path / "v.json")) == model
    with pytest.raises(ModelError, match="no value model 'v'"):
        load_value_model("v")
    monkeypatch.setenv(MODELS_ENV, str(tmp_path))
    assert load_value_model("v") == model


def _file(**changes: object) -> str:
    data = _model(centres=1.0).to_json()
    data.update(changes)
    return json.dumps(data)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("not json", "cannot read"),
        ("[1, 2]", "not a value model"),
        (_file(format="daide-mcts order policy"), "not a value model"),
        (_file(version=0), "another layout"),
        (_file(features=["bias"]), "another layout"),
        (_file(phases_left=["a", "b"]), "list of integers"),
        (_file(weights=[["a"], ["b"]]), "lists of numbers"),
        (_file(weights=[[1.0], [2.0]]), "finite weights"),
        (_file(phases_left=[2]), "one weight vector per"),
        (_file(phases_left=[6, 2]), "increasing"),
    ],
    ids=[
        "text", "list", "format", "version", "features", "phases", "strings", "short", "count",
        "order",
    ],
)  # fmt: skip
def test_a_bad_model_file_is_refused_with_a_model_error(
    tmp_path: Path, content: str, message: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(ModelError, match=message):
        load_value_model(str(path))


def _winters() -> list[Position]:
    """Movement positions of DumbBot games read as winters (their units not yet adjusted)."""
    out = []
    for pos in _positions()[1::2]:
        out.append(Position(M, WINTER, pos.year, dict(pos.units), list(pos.owners), {}))
    return out


def test_the_compiled_features_and_value_are_the_numpy_ones(compiled: None) -> None:
    assert speedups.COMPILED is not None
    cmap = speedups.compiled_map(tables_for(M))
    model = _model(
        bias=0.05, centres=0.8, centres_squared=-0.3, targets_unguarded=0.3, homes_held=0.01
    )
    value = speedups.compiled_value(tables_for(M), model)
    for pos in _positions() + _winters():
        features = position_features(pos)
        for us in range(M.num_powers):
            fast = speedups.COMPILED.value_features(cmap, pos, us, M.win_centres)
            assert fast == features[us].tolist(), (pos.turn, us)
            for final_year in (pos.year, pos.year + 1, 1905):
                assert speedups.COMPILED.position_value(
                    cmap, value, pos, us, final_year, M.win_centres
                ) == model.value(pos, us, final_year), (pos.turn, us, final_year)


def test_a_compiled_value_refuses_weights_of_another_layout(compiled: None) -> None:
    assert speedups.COMPILED is not None
    cmap = speedups.compiled_map(tables_for(M))
    with pytest.raises(ValueError, match="weights per vector"):
        speedups.COMPILED.CValue(cmap, (2,), ((1.0, 2.0),))
    with pytest.raises(ValueError, match="one weight vector"):
        speedups.COMPILED.CValue(cmap, (2, 4), ((1.0,) * len(VALUE_FEATURES),))
