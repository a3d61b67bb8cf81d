"""A tournament's results: the standings, as JSON, CSV, markdown tables and a chart."""

from __future__ import annotations

import csv
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path

from bot.local.chart import standings_chart
from bot.measure.comparison import focus_label, standing
from bot.measure.metrics import Standings, markdown_table
from bot.toolkit.jsonfiles import write_json_object
from bot.tournament.saved import POWER_DEAL_TEXT, GameEntry, TournamentSettings, as_run


def standings(settings: TournamentSettings, entries: Sequence[GameEntry]) -> Standings:
    """The finished games summed up per label, seat and power."""
    return Standings(
        lineup=tuple(s.label for s in settings.seats),
        games=tuple(e.record for e in sorted(entries, key=lambda e: e.index)),
        seats=tuple(s.name for s in settings.seats),
    )


SUMMARY_FIELDS = (
    "group",
    "name",
    "games",
    "mean_centres",
    "sd_centres",
    "min_centres",
    "max_centres",
    "solos",
    "points",
    "mean_points",
    "sd_points",
    "mean_rank",
    "sd_rank",
)

GAME_FIELDS = (
    "game",
    "seat",
    "label",
    "power",
    "centres",
    "solo",
    "points",
    "rank",
    "eliminated",
    "result",
    "end",
)


def write_results(
    folder: Path, settings: TournamentSettings, entries: Sequence[GameEntry], games: int
) -> Standings | None:
    """Write results.json/.csv/.md, summary.csv and centres.png; the standings (None if no game)."""
    if not entries:
        return None
    table = standings(settings, entries)
    ordered = sorted(entries, key=lambda e: e.index)
    groups = (("label", table.by_label()), ("seat", table.by_seat()), ("power", table.by_power()))
    write_json_object(
        folder / "results.json",
        {
            "settings": settings.as_dict(),
            "games_planned": games,
            "games_finished": len(ordered),
            **table.summaries_dict(),
            "games": [e.to_dict() for e in ordered],
        },
    )
    with open(folder / "results.csv", "w", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(GAME_FIELDS)
        for e in ordered:
            r = e.record
            for i, seat in enumerate(settings.seats):
                writer.writerow(
                    [
                        e.index + 1,
                        seat.name,
                        seat.label,
                        r.powers[i],
                        r.centres[i],
                        int(r.solo == i),
                        r.points[i],
                        r.ranks[i],
                        "" if r.eliminated[i] is None else r.eliminated[i],
                        e.result,
                        e.end,
                    ]
                )
    with open(folder / "summary.csv", "w", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(SUMMARY_FIELDS)
        for group, rows in groups:
            for s in rows:
                d = asdict(s)
                writer.writerow([group, *(_round(d[k]) for k in SUMMARY_FIELDS[1:])])
    (folder / "results.md").write_text(
        markdown_report(settings, table, len(ordered), games, ordered)
    )
    subtitle = f"{len(ordered)} games on {settings.map} to WIN {settings.final_year}"
    standings_chart(table, subtitle, folder / "centres.png")
    return table


def _round(value: object) -> object:
    return round(value, 4) if isinstance(value, float) else value


def focus_lines(settings: TournamentSettings, entries: Sequence[GameEntry]) -> list[str]:
    """The focus label's centres and margins with 95% intervals (none for a one-label lineup)."""
    run = as_run(settings, entries)
    if len(set(run.lineup)) < 2 or not entries:
        return []
    return standing([run], focus_label(run.lineup)).lines()


def _focus_section(settings: TournamentSettings, entries: Sequence[GameEntry]) -> list[str]:
    lines = focus_lines(settings, entries)
    if not lines:
        return []
    head = "With 95% intervals (`daide-mcts compare` pools and pairs folders):"
    return [head, "", "```", *lines, "```", ""]


def markdown_report(
    settings: TournamentSettings,
    table: Standings,
    finished: int,
    games: int,
    entries: Sequence[GameEntry] = (),
) -> str:
    """The tournament's results as a markdown document."""
    lineup = ", ".join(f"{s.name} ({s.label})" for s in settings.seats)
    lines = [
        "# Tournament results",
        "",
        f"{finished} of {games} games on the {settings.map} map, each to WIN "
        f"{settings.final_year}; "
        f"deadlines {settings.deadlines}; {POWER_DEAL_TEXT[settings.powers]}"
        f"{f'; press level {settings.press_level}' if settings.press_level else ''}.",
        "",
        f"Lineup: {lineup}.",
        "",
        *_focus_section(settings, entries),
        "Means over games, ± one standard deviation.  Points as BANDANA counts them "
        "(12 for a solo, else the draw shared by the survivors); rank 1 is best.",
        "",
        "## Per player label",
        "",
        markdown_table("player", table.by_label()),
        "",
        "## Per seat",
        "",
        markdown_table("seat", table.by_seat()),
        "",
        "## Per power",
        "",
        markdown_table("power", table.by_power()),
        "",
    ]
    return "\n".join(lines)
