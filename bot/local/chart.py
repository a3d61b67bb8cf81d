"""Charts of supply centres per year, drawn by matplotlib (the optional ``charts`` extra).

* :func:`centres_chart`: one game, one line per power (labelled with who played it);
* :func:`standings_chart`: a tournament, the mean centres per year of each player label.

matplotlib is imported when a chart is drawn, with its non-interactive
``Agg`` backend.  Without it the charts are skipped (the functions return
False); everything else of a game or tournament is written as usual.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bot.local.outcome import GameOutcome
from bot.measure.metrics import GameRecord, Standings
from bot.view.colours import PALETTE, colour_of

if TYPE_CHECKING:
    from matplotlib.figure import Figure

SIZE_INCHES = (9.6, 5.4)
DPI = 100
"""With :data:`SIZE_INCHES`, a 960 x 540 pixel image."""

LINE_WIDTH = 2.5
MARKER_SIZE = 6


@dataclass(frozen=True)
class Series:
    """One line of a chart: its legend text, a value per x label, its colour (CSS hex)."""

    name: str
    values: Sequence[float]
    colour: str


def _pyplot() -> Any | None:
    """Matplotlib's pyplot on the Agg backend, or None when the charts extra is missing."""
    try:
        import matplotlib
    except ImportError:
        return None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def line_chart(
    title: str,
    subtitle: str,
    x_labels: Sequence[str],
    series: Sequence[Series],
    *,
    y_label: str = "supply centres at the end of each year",
) -> Figure | None:
    """Lines over labelled x positions, y from 0, a legend at the right; None without matplotlib."""
    plt = _pyplot()
    if plt is None:
        return None
    figure, axes = plt.subplots(figsize=SIZE_INCHES, dpi=DPI)
    xs = range(len(x_labels))
    for s in series:
        axes.plot(
            xs,
            s.values,
            color=s.colour,
            label=s.name,
            linewidth=LINE_WIDTH,
            marker="s",
            markersize=MARKER_SIZE,
        )
    axes.set_xticks(list(xs), list(x_labels))
    axes.set_ylim(bottom=0)
    axes.set_ylabel(y_label)
    axes.grid(True, color="#e1e1e1")
    axes.set_title(f"{title}\n{subtitle}", loc="left", fontsize=11)
    axes.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    figure.tight_layout()
    return figure


def _year_labels(years: Sequence[int]) -> list[str]:
    return ["start", *(str(y) for y in years[1:])]


def game_chart(record: GameRecord, players: Sequence[str], subtitle: str) -> Figure | None:
    """Supply centres per power per year for one game; ``players[i]`` played seat ``i``."""
    order = sorted(range(len(record.powers)), key=lambda i: record.powers[i])
    series = [
        Series(
            f"{record.powers[i]} {players[i]}",
            [row[i] for row in record.curve],
            colour_of(record.powers[i], k),
        )
        for k, i in enumerate(order)
    ]
    return line_chart("Supply centres per power", subtitle, _year_labels(record.years), series)


def _save(figure: Figure | None, path: Path) -> bool:
    if figure is None:
        return False
    figure.savefig(path, dpi=DPI)
    import matplotlib.pyplot as plt

    plt.close(figure)
    return True


def centres_chart(outcome: GameOutcome, path: Path) -> bool:
    """Write the chart of one finished game to ``path``; False if it was not drawn."""
    record = outcome.record
    if record is None:
        return False
    subtitle = f"{outcome.result or 'no result'} at {outcome.end}"
    return _save(game_chart(record, [s.name for s in outcome.config.seats], subtitle), path)


def standings_chart(standings: Standings, subtitle: str, path: Path) -> bool:
    """Write the mean supply centres per year of each player label to ``path``; False if not."""
    rows = standings.by_label()
    years = [year for year, _ in rows[0].curve] if rows else []
    series = [
        Series(r.name, [v for _, v in r.curve], PALETTE[k % len(PALETTE)])
        for k, r in enumerate(rows)
    ]
    figure = line_chart(
        "Mean supply centres per player",
        subtitle,
        _year_labels(years),
        series,
        y_label="mean supply centres at the end of each year",
    )
    return _save(figure, path)
