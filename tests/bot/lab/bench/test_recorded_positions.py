"""Positions read back from a recorded game on its own map (bot.lab.bench.recorded_positions)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli import main
from bot.lab.bench.bench_search import main as bench_search
from bot.lab.bench.recorded_positions import RecordedGameError, recorded_positions
from bot.toolkit.messagelog import MESSAGES_FILE


@pytest.fixture(scope="module")
def sailho_game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A short game on Parlance's ``sailho`` (four powers), DumbBots of ours in every seat."""
    out = tmp_path_factory.mktemp("sailho") / "run"
    code = main(
        ["game", "--map", "sailho", "--lineup", "dumbbot", "--final-year", "1902",
         "--mtl", "1", "--rtl", "1", "--btl", "1", "--seed", "5", "--out", str(out)]
    )  # fmt: skip
    assert code == 0
    return out


@pytest.mark.slow
def test_the_opening_and_a_later_spring_on_the_games_map(sailho_game: Path) -> None:
    positions = recorded_positions(sailho_game)
    assert list(positions) == ["start (SPR 1901)", "mid-game (SPR 1902)"]
    start = positions["start (SPR 1901)"]
    assert start.map.powers == ("EST", "NTH", "STH", "WST")
    assert len(start.map.supply_centres) == 16
    assert len(start.units) == 8
    assert positions["mid-game (SPR 1902)"].year == 1902


@pytest.mark.slow
def test_the_search_bench_runs_on_a_recorded_variant(
    sailho_game: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["--game", str(sailho_game), "--variants", "dm", "--seconds", "0.2", "--repeats", "1"]
    assert bench_search(args) == 0
    out = capsys.readouterr().out
    assert "EST searching" in out and "(4 powers, 16 centres)" in out
    assert out.count("dm ") == 2


@pytest.mark.parametrize(
    ("lines", "error"),
    [
        (None, "messages.daide"),
        ("", "records no map"),
        ("1.0 observer in NOW ( SPR 1901 ) ( ENG FLT LON )\n", "records no map"),
    ],
)
def test_a_record_without_a_game_is_a_typed_error(
    tmp_path: Path, lines: str | None, error: str
) -> None:
    if lines is not None:
        (tmp_path / MESSAGES_FILE).write_text(lines)
    with pytest.raises(RecordedGameError, match=error):
        recorded_positions(tmp_path)
