"""daide-mcts train value end to end on tiny self-play data, and the value's samples."""

from __future__ import annotations

import json
from pathlib import Path
from random import Random

import pytest

from adjudicator.maps import standard_map
from adjudicator.position import initial_position
from bot.cli import main
from bot.training.valuefit import final_shares
from search.mcts.player import MctsPlayer
from search.mcts.variants import get_variant
from search.orderpolicy import MODELS_ENV
from search.valuemodel import VALUE_FEATURES, load_value_model
from tests.search.test_randombot import assert_legal

GENERATE = ["train", "generate", "--games", "4", "--iterations", "4", "--final-year", "1902"]


def test_train_value_fits_reports_the_baselines_and_plays(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "data"
    assert main([*GENERATE, "--seed", "3", "--out", str(data)]) == 0
    capsys.readouterr()
    out_file = tmp_path / "models" / "tiny.json"
    out_file.parent.mkdir()
    argv = ["train", "value", str(data), "--held-out", "0.5", "--out", str(out_file)]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "trained on 56 (phase, power) samples, held out 56" in out  # 2 games x 4 x 7
    for label in ("value model", "current centres", "centres x mean growth"):
        assert label in out
    saved = json.loads(out_file.read_text())
    assert saved["name"] == "tiny" and saved["features"] == list(VALUE_FEATURES)
    assert saved["phases_left"] == [1, 2, 3, 4]
    provenance = saved["provenance"]
    assert provenance["command"].startswith("daide-mcts train value ")
    assert provenance["data"][0]["seed"] == 3
    held_out = provenance["held_out"]
    assert held_out["samples"] == 56
    assert set(held_out) == {"samples", "model", "current_centres", "centres_times_growth"}

    assert main(argv) == 0  # the fit is closed form: the same file again
    assert json.loads(out_file.read_text()) == saved

    monkeypatch.setenv(MODELS_ENV, str(out_file.parent))
    assert load_value_model("tiny").name == "tiny"
    player = MctsPlayer(get_variant("dm/value=tiny"), budget=None, iterations=10, final_year=1905)
    assert_legal(initial_position(standard_map()), 2, player, Random(1))


def test_a_solo_is_one_for_the_winner_and_nothing_for_the_others() -> None:
    assert final_shares([18, 4, 3, 3, 2, 2, 2], 18) == [1.0, 0, 0, 0, 0, 0, 0]
    assert final_shares([9, 6, 5, 5, 3, 3, 3], 18) == pytest.approx(
        [9 / 18, 6 / 18, 5 / 18, 5 / 18, 3 / 18, 3 / 18, 3 / 18]
    )


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["train", "value", "{tmp}", "--out", "{tmp}/v.json"], "no recorded games"),
        (["train", "value", "{tmp}", "--out", "{tmp}/v.txt"], "a .json file"),
        (["train", "value", "{tmp}", "--out", "{tmp}/v.json", "--held-out", "1"], "--held-out"),
        (["train", "value", "{tmp}", "--out", "{tmp}/v.json", "--l2", "-1"], "--l2"),
    ],
    ids=["no-games", "not-json", "held-out", "l2"],
)
def test_bad_input_is_one_line_and_exit_code_two(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code = main([a.replace("{tmp}", str(tmp_path)) for a in argv])
    err = capsys.readouterr().err
    assert code == 2
    assert message in err and "Traceback" not in err
