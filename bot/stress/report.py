"""Figures of a stress run: margin distributions, CPU share, peak memory; table and JSON."""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0..100) by linear interpolation between closest ranks."""
    if not values:
        return math.nan
    ordered = sorted(values)
    position = (len(ordered) - 1) * q / 100
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def distribution(values: Sequence[float]) -> dict[str, float | int]:
    """Count, minimum, 1st percentile, median and 99th percentile of ``values``."""
    if not values:
        return {"count": 0}
    return {
        "count": len(values),
        "min": round(min(values), 3),
        "p1": round(percentile(values, 1), 3),
        "median": round(statistics.median(values), 3),
        "p99": round(percentile(values, 99), 3),
    }


@dataclass
class BotFigures:
    """One bot's figures in one scenario."""

    index: int
    power: str | None
    ended_cleanly: bool
    missed_reported_to_bot: int
    missed_seen_by_harness: int
    refused_orders: int
    shadow_mismatches: int
    reconnections: int
    server_margins: list[float]
    bot_margins: list[float]
    cpu_share: float | None
    peak_kb: int
    yearly_peak_kb: dict[str, int]
    exit_code: int | None
    late_submissions: int = 0

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready dictionary (margin lists summarised)."""
        d = dict(self.__dict__)
        d["server_margins"] = distribution(self.server_margins)
        d["bot_margins"] = distribution(self.bot_margins)
        return d


@dataclass
class ScenarioResult:
    """What one scenario produced, and whether it met every requirement."""

    name: str
    description: str
    settings: dict[str, Any]
    bots: list[BotFigures] = field(default_factory=list)
    wall_seconds: float = 0.0
    problems: list[str] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def passed(self) -> bool:
        """No problem found."""
        return not self.problems

    def check(self) -> None:
        """Record every requirement a bot failed in ``problems``."""
        if not self.bots:
            self.problems.append("no bot finished")
        for bot in self.bots:
            who = f"bot {bot.index} ({bot.power})"
            if not bot.ended_cleanly:
                self.problems.append(f"{who} did not end cleanly (exit {bot.exit_code})")
            if bot.missed_reported_to_bot or bot.missed_seen_by_harness:
                self.problems.append(
                    f"{who} missed orders: {bot.missed_reported_to_bot} reported to it, "
                    f"{bot.missed_seen_by_harness} seen by the harness"
                )
            if bot.refused_orders:
                self.problems.append(f"{who} had {bot.refused_orders} orders refused")
            if bot.shadow_mismatches:
                self.problems.append(f"{who} had {bot.shadow_mismatches} shadow mismatches")

    def aggregate(self) -> dict[str, Any]:
        """The scenario's figures over all its bots."""
        margins = [m for b in self.bots for m in b.server_margins]
        shares = [b.cpu_share for b in self.bots if b.cpu_share is not None]
        peaks = [b.peak_kb for b in self.bots if b.peak_kb]
        return {
            "missed_orders": sum(
                max(b.missed_reported_to_bot, b.missed_seen_by_harness) for b in self.bots
            ),
            "late_submissions": sum(b.late_submissions for b in self.bots),
            "server_margins": distribution(margins),
            "bot_margins": distribution([m for b in self.bots for m in b.bot_margins]),
            "cpu_share": {
                "mean": round(statistics.fmean(shares), 3) if shares else None,
                "max": round(max(shares), 3) if shares else None,
            },
            "peak_mb": {
                "mean": round(statistics.fmean(peaks) / 1024, 1) if peaks else None,
                "max": round(max(peaks) / 1024, 1) if peaks else None,
            },
            "reconnections": sum(b.reconnections for b in self.bots),
        }

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready dictionary."""
        return {
            "name": self.name,
            "description": self.description,
            "settings": self.settings,
            "passed": self.passed,
            "problems": self.problems,
            "wall_seconds": round(self.wall_seconds, 1),
            "aggregate": self.aggregate(),
            "bots": [b.as_dict() for b in self.bots],
            **self.extra,
        }


def table(results: Sequence[ScenarioResult]) -> str:
    """The figures as a fixed-width text table, one row per scenario."""
    header = (
        f"{'scenario':<20} {'ok':<4} {'bots':>4} {'phases':>6} {'missed':>6} "
        f"{'margin min':>10} {'p1':>6} {'median':>7} {'p99':>6} "
        f"{'cpu/bot':>8} {'cpu max':>7} {'peak MB':>7} {'rejoins':>7} {'wall s':>7}"
    )
    lines = [header, "-" * len(header)]
    for r in results:
        a = r.aggregate()
        m = a["server_margins"]
        cpu = a["cpu_share"]
        lines.append(
            f"{r.name:<20} {'yes' if r.passed else 'NO':<4} {len(r.bots):>4} "
            f"{m.get('count', 0):>6} {a['missed_orders']:>6} "
            f"{_num(m.get('min')):>10} {_num(m.get('p1')):>6} {_num(m.get('median')):>7} "
            f"{_num(m.get('p99')):>6} {_pct(cpu['mean']):>8} {_pct(cpu['max']):>7} "
            f"{_num(a['peak_mb']['max'], 1):>7} {a['reconnections']:>7} "
            f"{r.wall_seconds:>7.0f}"
        )
    lines.append(
        "margins: seconds between a bot's last SUB of a phase and the deadline, measured at the "
        "server's side of the wire; cpu: share of one core per bot (client + search worker); "
        "peak MB: largest peak resident memory of one bot (client + worker)"
    )
    return "\n".join(lines)


def yearly_table(result: ScenarioResult) -> str:
    """Peak memory per game year (largest over the bots), for the long game."""
    years = sorted({y for b in result.bots for y in b.yearly_peak_kb}, key=int)
    lines = [f"{'year':<6} {'peak MB (max over bots)':>24} {'mean MB':>8}"]
    for year in years:
        values = [b.yearly_peak_kb[year] for b in result.bots if year in b.yearly_peak_kb]
        lines.append(
            f"{year:<6} {max(values) / 1024:>24.1f} {statistics.fmean(values) / 1024:>8.1f}"
        )
    return "\n".join(lines)


def _num(value: float | None, digits: int = 2) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    return f"{value:.{digits}f}"


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}%"
