"""daide-mcts train end to end: tiny self-play data, a tiny fit, a game played with the model."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.cli import main
from bot.lab.arena.arena_games import run_arena
from search.dumbbot import DumbBot
from search.mcts.player import MctsPlayer
from search.mcts.variants import get_variant
from search.orderpolicy import MODELS_ENV, LearnedPolicy, load_model

GENERATE = ["train", "generate", "--games", "2", "--iterations", "4", "--final-year", "1901"]


def test_generate_fit_evaluate_and_play_a_game_with_the_model(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "data"
    assert main([*GENERATE, "--seed", "5", "--out", str(data)]) == 0
    assert "2 games, 4 movement phases" in capsys.readouterr().out
    games = [json.loads(line) for line in (data / "games.jsonl").read_text().splitlines()]
    assert [g["game"] for g in games] == [0, 1]
    assert all(sum(g["centres"]) >= 22 for g in games)  # 1901's fall: every centre counted
    first = games[0]["phases"][0]
    assert first["year"] == 1901 and len(first["orders"]) == 22  # every unit's order, 7 powers
    manifest = json.loads((data / "manifest.json").read_text())
    assert manifest["seed"] == 5 and manifest["lineup"] == ["mcts:dm"] * 7

    again = tmp_path / "again"
    assert main([*GENERATE, "--seed", "5", "--out", str(again)]) == 0
    assert (again / "games.jsonl").read_text() == (data / "games.jsonl").read_text()

    model_path = tmp_path / "models" / "tiny.json"
    model_path.parent.mkdir()
    fit = ["train", "fit", str(data), "--held-out", "0.5", "--steps", "40", "--out"]
    assert main([*fit, str(model_path)]) == 0
    out = capsys.readouterr().out
    assert "model" in out and "dumbbot" in out and "uniform" in out
    saved = json.loads(model_path.read_text())
    assert saved["name"] == "tiny"
    assert saved["provenance"]["command"].startswith("daide-mcts train fit ")
    made = saved["provenance"]["data"][0]
    assert made["seed"] == 5
    assert made["command"] == (
        f"daide-mcts train generate --games 2 --iterations 4 --final-year 1901 --seed 5 "
        f"--out {data}"
    )

    assert main(["train", "evaluate", str(data), "--model", str(model_path)]) == 0
    assert "on 88 unit choices" in capsys.readouterr().out  # 2 games x 2 phases x 22 units

    monkeypatch.setenv(MODELS_ENV, str(model_path.parent))
    variant = get_variant("dm/model=tiny")
    assert isinstance(variant.enemies.player, LearnedPolicy)
    assert variant.enemies.player.model == load_model("tiny")
    players = [
        MctsPlayer(variant, budget=None, iterations=8, final_year=1901),
        MctsPlayer(get_variant("dm"), budget=None, iterations=8, final_year=1901),
        *[DumbBot() for _ in range(5)],
    ]
    lineup = ["mcts:dm/model=tiny", "mcts:dm", *["dumbbot"] * 5]
    result = run_arena(lineup, games=1, final_year=1901, seed=3, policies=players)
    assert result.games[0].end == "WIN 1901"
    assert players[0].last_stats["iterations"] == 8


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["train", "fit", "{tmp}", "--out", "{tmp}/m.json"], "no recorded games"),
        (["train", "fit", "{tmp}", "--out", "{tmp}/m.txt"], "a .json file"),
        (["train", "evaluate", "{tmp}", "--model", "nothing-here"], "no order model"),
        ([*GENERATE, "--out", "{tmp}/d", "--lineup", "dumbbot", "dumbbot"], "one player spec or 7"),
        ([*GENERATE, "--out", "{tmp}/d", "--lineup", "nobody"], "--lineup"),
        (["train", "generate", "--games", "0", "--out", "{tmp}/d"], "--games"),
    ],
    ids=["no-games", "not-json", "no-model", "two-specs", "bad-spec", "no-games-asked"],
)
def test_bad_input_is_one_line_and_exit_code_two(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code = main([a.replace("{tmp}", str(tmp_path)) for a in argv])
    err = capsys.readouterr().err
    assert code == 2
    assert message in err and "Traceback" not in err


def test_generate_refuses_a_folder_that_holds_games(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = [*GENERATE, "--games", "1", "--lineup", "dumbbot", "--out", str(tmp_path)]
    assert main(argv) == 0
    assert main(argv) == 2
    assert "exists" in capsys.readouterr().err
