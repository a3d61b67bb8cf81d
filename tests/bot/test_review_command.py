"""``daide-mcts review``: a recorded game's phases graded for one power, and bad input."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.cli import main
from bot.coach.game_review import review_game
from bot.coach.recorded_game import read_recorded_game
from bot.toolkit.messagelog import MESSAGES_FILE
from search.grading import LABELS, GradingSettings

QUICK = ["--budget", "48", "--iterations", "200"]
"""Small budgets: the tests check what a review holds, not how precise it is."""


@pytest.fixture(scope="module")
def recorded_game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A game to 1902 on Parlance: our search and six DumbBots, 1-second deadlines."""
    out = tmp_path_factory.mktemp("review") / "run"
    code = main(
        ["game", "--final-year", "1902", "--mtl", "1", "--rtl", "1", "--btl", "1",
         "--seed", "5", "--out", str(out)]
    )  # fmt: skip
    assert code == 0
    return out


def review(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(["review", *args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.slow
def test_every_movement_phase_is_graded_with_the_graph_and_the_costliest_moments(
    recorded_game: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    target = tmp_path / "fra.json"
    code, out, err = review(
        capsys, str(recorded_game), "--power", "fra", *QUICK, "--json", str(target)
    )
    assert code == 0 and err == ""
    data = json.loads(target.read_text())
    assert data["power"] == "FRA" and data["rollouts"] == 48 and data["final_year"] == 1902
    turns = [p["turn"] for p in data["phases"]]
    movement = [p["turn"] for p in data["phases"] if p["kind"] == "movement"]
    assert movement == ["SPR 1901", "FAL 1901", "SPR 1902", "FAL 1902"]
    assert "WIN 1902" not in turns  # the game is over then
    for phase in data["phases"]:
        grade = phase["grade"]
        assert grade["label"] in LABELS
        assert grade["low"] <= grade["loss"] <= grade["high"]
        assert grade["loss"] == pytest.approx(grade["reference"] - grade["submitted"], abs=2e-3)
        assert phase["played"], phase  # France's orders were recorded
        assert phase["same"] == (phase["played"] == phase["better"])
        assert f"{phase['turn']:<9}" in out
    assert [g["turn"] for g in data["graph"]] == turns
    costly = data["costly"]
    assert len(costly) <= 3
    losses = {p["turn"]: p["grade"]["loss"] for p in data["phases"]}
    assert all(losses[t] > 0 for t in costly)
    assert [losses[t] for t in costly] == sorted((losses[t] for t in costly), reverse=True)
    assert "evaluation graph" in out and f"written to {target}" in out


@pytest.mark.slow
def test_the_same_seed_and_budget_give_the_same_grades(
    recorded_game: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    runs = []
    for name, seed in (("a", "3"), ("b", "3"), ("c", "4")):
        target = tmp_path / f"{name}.json"
        code, _, _ = review(
            capsys, str(recorded_game), "--power", "FRA", *QUICK, "--seed", seed,
            "--json", str(target),
        )  # fmt: skip
        assert code == 0
        runs.append(json.loads(target.read_text())["phases"])
    assert runs[0] == runs[1]
    grades = [[p["grade"] for p in run] for run in runs]
    assert grades[0] != grades[2]  # another seed draws other rollouts


@pytest.mark.slow
def test_the_review_core_reads_the_game_the_command_reviews(recorded_game: Path) -> None:
    game = read_recorded_game(recorded_game)
    assert game.final_year == 1902 and game.map.powers[0] == "AUS"
    turns = [str(p.position.turn) for p in game.phases]
    assert turns[:2] == ["SPR 1901", "FAL 1901"]
    # a retreat phase follows only where a unit was dislodged: the games differ there
    expected = ["SPR 1901", "SUM 1901", "FAL 1901", "AUT 1901", "WIN 1901"]
    expected += [t.replace("1901", "1902") for t in expected]
    assert turns == [t for t in expected if t in turns]
    assert len(game.phases[0].orders_of("FRA")) == 3
    settings = GradingSettings(rollouts=8, iterations=50)
    made = review_game(game, "TUR", 1, settings, movement_only=True)
    assert len(made.phases) == 4 and made.power == "TUR"


def _replace(old: str, new: str) -> Callable[[Path], None]:
    def edit(folder: Path) -> None:
        path = folder / MESSAGES_FILE
        text = path.read_text()
        assert old in text
        path.write_text(text.replace(old, new))

    return edit


def _write(text: str) -> Callable[[Path], None]:
    def edit(folder: Path) -> None:
        (folder / MESSAGES_FILE).write_text(text)

    return edit


def _summary(text: str) -> Callable[[Path], None]:
    def edit(folder: Path) -> None:
        (folder / "summary.json").write_text(text)

    return edit


BAD_RECORDS: list[tuple[str, Callable[[Path], None], str]] = [
    ("no-messages", lambda f: (f / MESSAGES_FILE).unlink(), "holds no messages.daide"),
    ("empty", _write(""), "records no map and position"),
    ("unit-off-the-map", _replace("( FRA AMY PAR )", "( FRA AMY NTH )"), "does not fit its map"),
    ("corrupt-summary", _summary("[1"), "summary.json: not JSON"),
]  # fmt: skip


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "breaks", "message"), BAD_RECORDS, ids=[b[0] for b in BAD_RECORDS]
)
def test_a_broken_record_is_one_line_and_exit_2(
    recorded_game: Path,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    name: str,
    breaks: Callable[[Path], None],
    message: str,
) -> None:
    folder = tmp_path / name
    folder.mkdir()
    for path in recorded_game.iterdir():
        if path.is_file():
            (folder / path.name).write_bytes(path.read_bytes())
    breaks(folder)
    code, out, err = review(capsys, str(folder), "--power", "FRA", *QUICK)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("daide-mcts review: error: "), err
    assert message in err


BAD_OPTIONS: list[tuple[list[str], str]] = [
    (["--power", "XYZ"], "XYZ is not a power of this game (AUS, ENG, FRA, GER, ITA, RUS, TUR)"),
    (["--power", "FRA", "--budget", "1"], "a grade needs at least 2 rollouts, not 1"),
    (["--power", "FRA", "--years", "0"], "the rollouts must look at least one winter ahead, not 0"),
    (["--power", "FRA", "--iterations", "0"], "the search needs at least one iteration, not 0"),
]  # fmt: skip


@pytest.mark.slow
@pytest.mark.parametrize(("args", "message"), BAD_OPTIONS)
def test_a_bad_option_is_one_line_and_exit_2(
    recorded_game: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    code, out, err = review(capsys, str(recorded_game), *args)
    assert code == 2 and out == ""
    assert err == f"daide-mcts review: error: {message}\n"


def test_a_missing_folder_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = review(capsys, str(tmp_path / "nowhere"), "--power", "FRA")
    assert code == 2 and out == ""
    assert err == f"daide-mcts review: error: {tmp_path / 'nowhere'} is not a folder\n"
