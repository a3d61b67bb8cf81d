"""The run folder's charts, drawn by matplotlib and read back as PNG files."""

from __future__ import annotations

from pathlib import Path

from bot.local.chart import game_chart, standings_chart
from bot.measure.metrics import GameRecord, Standings
from bot.view.colours import PALETTE, POWER_COLOURS
from tests.bot.local.pngread import png_size_and_colours


def _record() -> GameRecord:
    powers = ("FRA", "AUS", "ENG", "GER", "ITA", "RUS", "TUR")
    curve = ((3, 3, 3, 3, 3, 4, 3), (5, 2, 3, 4, 4, 4, 4), (7, 0, 4, 4, 5, 4, 4))
    return GameRecord.scored(
        index=0,
        powers=powers,
        years=(1900, 1901, 1902),
        curve=curve,
        centres=curve[-1],
        eliminated=(None, 1902, None, None, None, None, None),
        solo=None,
        end="WIN 1902",
        seconds=1.0,
    )


def test_the_game_chart_draws_a_line_per_power(tmp_path: Path) -> None:
    figure = game_chart(_record(), [f"seat-{i}" for i in range(7)], "DRW at WIN 1902")
    assert figure is not None
    axes = figure.axes[0]
    assert [t.get_text() for t in axes.get_xticklabels()] == ["start", "1901", "1902"]
    labels = [line.get_label() for line in axes.get_lines()]
    assert labels == sorted(labels) and labels[0] == "AUS seat-1"
    path = tmp_path / "c.png"
    figure.savefig(path)
    size, colours = png_size_and_colours(path)
    assert size == (960, 540)
    assert set(POWER_COLOURS.values()) <= colours


def test_the_standings_chart_draws_a_line_per_label(tmp_path: Path) -> None:
    table = Standings(("a", "b", "b", "b", "b", "b", "b"), (_record(), _record()))
    path = tmp_path / "c.png"
    assert standings_chart(table, "2 games", path)
    size, colours = png_size_and_colours(path)
    assert size == (960, 540)
    assert PALETTE[0] in colours and PALETTE[1] in colours
