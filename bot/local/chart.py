"""Charts of supply centres per year, drawn with :mod:`bot.local.png`.

* :func:`centres_chart`: one game, one line per power (labelled with who played it);
* :func:`standings_chart`: a tournament, the mean centres per year of each player label.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from bot.local.png import BLACK, WHITE, Canvas, Colour
from search.metrics import GameRecord, Standings

if TYPE_CHECKING:
    from bot.local.runner import GameOutcome

POWER_COLOURS: dict[str, Colour] = {
    "AUS": (200, 30, 30),
    "ENG": (30, 60, 170),
    "FRA": (60, 170, 230),
    "GER": (100, 70, 40),
    "ITA": (40, 160, 60),
    "RUS": (140, 70, 180),
    "TUR": (235, 170, 20),
}
"""The usual map colours of the seven powers."""

PALETTE: tuple[Colour, ...] = (
    (200, 30, 30),
    (30, 60, 170),
    (40, 160, 60),
    (235, 140, 20),
    (140, 70, 180),
    (60, 170, 230),
    (100, 70, 40),
)
"""Colours for series that are not powers (player labels), in order."""

GRID: Colour = (225, 225, 225)
AXIS: Colour = (90, 90, 90)
SCALE = 2
"""Text is the 5x7 font drawn twice as large."""


@dataclass(frozen=True)
class Series:
    """One line of a chart: its legend text, a value per x label, its colour."""

    name: str
    values: Sequence[float]
    colour: Colour


def _nice_top(value: float) -> int:
    step = 2 if value <= 12 else 5
    return max(step, int(math.ceil(value / step) * step))


def line_chart(
    title: str,
    subtitle: str,
    x_labels: Sequence[str],
    series: Sequence[Series],
    *,
    y_label: str = "supply centres",
    width: int = 960,
    height: int = 540,
) -> Canvas:
    """Lines over labelled x positions, a y axis from 0, a legend on the right."""
    c = Canvas(width, height, WHITE)
    char = 6 * SCALE
    legend_width = max((len(s.name) for s in series), default=4) * char + 5 * char
    left, right, top, bottom = 8 * char, width - legend_width, 6 * char, height - 5 * char - 4
    c.text(left, char, title, BLACK, SCALE)
    c.text(left, char + 10 * SCALE, subtitle, AXIS, SCALE)
    top_value = _nice_top(max((max(s.values, default=0) for s in series), default=1))
    step = 1 if top_value <= 6 else (2 if top_value <= 12 else 5)

    def y_of(v: float) -> int:
        return round(bottom - (bottom - top) * v / top_value)

    def x_of(i: int) -> int:
        if len(x_labels) <= 1:
            return (left + right) // 2
        return round(left + (right - left) * i / (len(x_labels) - 1))

    for v in range(0, top_value + 1, step):
        y = y_of(v)
        c.line(left, y, right, y, GRID)
        label = str(v)
        c.text(left - Canvas.text_width(label, SCALE) - char // 2, y - 7, label, AXIS, SCALE)
    for i, label in enumerate(x_labels):
        x = x_of(i)
        c.line(x, top, x, bottom, GRID)
        c.text(x - Canvas.text_width(label, SCALE) // 2, bottom + char, label, AXIS, SCALE)
    c.line(left, top, left, bottom, AXIS, 2)
    c.line(left, bottom, right, bottom, AXIS, 2)
    c.text(left, bottom + 3 * char, y_label + " at the end of each year", AXIS, SCALE)
    for s in series:
        points = [(x_of(i), y_of(v)) for i, v in enumerate(s.values)]
        for (xa, ya), (xb, yb) in itertools.pairwise(points):
            c.line(xa, ya, xb, yb, s.colour, 3)
        for x, y in points:
            c.rect(x - 4, y - 4, x + 4, y + 4, s.colour)
    lx = right + 2 * char
    for k, s in enumerate(series):
        y = top + k * 3 * char
        c.rect(lx, y, lx + 2 * char, y + 7 * SCALE, s.colour)
        c.text(lx + 3 * char, y, s.name, BLACK, SCALE)
    return c


def _year_labels(years: Sequence[int]) -> list[str]:
    return ["start", *(str(y) for y in years[1:])]


def game_chart(record: GameRecord, players: Sequence[str], subtitle: str) -> Canvas:
    """Supply centres per power per year for one game; ``players[i]`` played seat ``i``."""
    order = sorted(range(len(record.powers)), key=lambda i: record.powers[i])
    series = [
        Series(
            f"{record.powers[i]} {players[i]}",
            [row[i] for row in record.curve],
            POWER_COLOURS.get(record.powers[i], PALETTE[k % len(PALETTE)]),
        )
        for k, i in enumerate(order)
    ]
    return line_chart("Supply centres per power", subtitle, _year_labels(record.years), series)


def centres_chart(outcome: GameOutcome, path: Path) -> None:
    """Write the chart of one finished game to ``path``."""
    record = outcome.record
    if record is None:
        return
    subtitle = f"{outcome.result or 'no result'} at {outcome.end}"
    canvas = game_chart(record, [s.name for s in outcome.config.seats], subtitle)
    path.write_bytes(canvas.to_png())


def standings_chart(standings: Standings, subtitle: str, path: Path) -> None:
    """Write the mean supply centres per year of each player label to ``path``."""
    rows = standings.by_label()
    years = [year for year, _ in rows[0].curve] if rows else []
    series = [
        Series(r.name, [v for _, v in r.curve], PALETTE[k % len(PALETTE)])
        for k, r in enumerate(rows)
    ]
    canvas = line_chart(
        "Mean supply centres per player",
        subtitle,
        _year_labels(years),
        series,
        y_label="mean supply centres",
    )
    path.write_bytes(canvas.to_png())
