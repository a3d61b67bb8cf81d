"""The PNG writer, the bitmap font and the charts, read back with a strict PNG reader."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.local.chart import PALETTE, POWER_COLOURS, game_chart, standings_chart
from bot.local.png import FONT, GLYPH_HEIGHT, GLYPH_WIDTH, WHITE, Canvas, encode_png
from search.metrics import GameRecord, Standings
from tests.bot.local.pngcheck import read_png

RED = (255, 0, 0)


def test_pixels_survive_the_round_trip() -> None:
    rgb = bytes([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18])
    image = read_png(encode_png(3, 2, rgb))
    assert (image.width, image.height) == (3, 2)
    assert image.pixel(0, 0) == (1, 2, 3) and image.pixel(2, 1) == (16, 17, 18)
    with pytest.raises(ValueError, match="3x3"):
        encode_png(3, 3, rgb)


def test_lines_rectangles_and_clipping() -> None:
    c = Canvas(10, 10)
    c.line(0, 0, 9, 9, RED)
    assert all(c.get(i, i) == RED for i in range(10))
    assert c.get(9, 0) == WHITE
    c.line(0, 5, 9, 5, RED, width=3)
    assert c.get(4, 4) == RED and c.get(4, 6) == RED and c.get(4, 7) == WHITE
    c.rect(-5, -5, 1, 1, RED)  # clipped, not an error
    c.set(50, 50, RED)
    assert c.get(1, 1) == RED


def test_text_draws_the_font_glyphs() -> None:
    assert Canvas.text_width("AB", 2) == (2 * 6 - 1) * 2
    c = Canvas(GLYPH_WIDTH, GLYPH_HEIGHT)
    c.text(0, 0, "7", RED)
    for y, columns in enumerate(FONT["7"]):
        for x in range(GLYPH_WIDTH):
            assert (c.get(x, y) == RED) == (x in columns), (x, y)
    lower, upper = Canvas(GLYPH_WIDTH, GLYPH_HEIGHT), Canvas(GLYPH_WIDTH, GLYPH_HEIGHT)
    lower.text(0, 0, "g", RED)
    upper.text(0, 0, "G", RED)
    assert lower.pixels == upper.pixels
    unknown, question = Canvas(GLYPH_WIDTH, GLYPH_HEIGHT), Canvas(GLYPH_WIDTH, GLYPH_HEIGHT)
    unknown.text(0, 0, "\u00e9", RED)
    question.text(0, 0, "?", RED)
    assert unknown.pixels == question.pixels


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
    players = [f"seat-{i}" for i in range(7)]
    data = game_chart(_record(), players, "DRW at WIN 1902").to_png()
    image = read_png(data)
    assert (image.width, image.height) == (960, 540)
    colours = image.colours()
    for power, colour in POWER_COLOURS.items():
        assert colour in colours, power


def test_the_standings_chart_draws_a_line_per_label(tmp_path: Path) -> None:
    table = Standings(("a", "b", "b", "b", "b", "b", "b"), (_record(), _record()))
    path = tmp_path / "c.png"
    standings_chart(table, "2 games", path)
    image = read_png(path.read_bytes())
    assert (image.width, image.height) == (960, 540)
    assert PALETTE[0] in image.colours() and PALETTE[1] in image.colours()
