"""Comparing player labels over finished games: means with 95% intervals, margins, pairs.

A *run* is the games of one lineup, from a tournament folder or an arena JSON
file (seat ``i`` holds label ``lineup[i]`` in every game).  Runs of one lineup
pool: :func:`standing` gives a label's centres with their 95% interval and its
*margin* over every other label (its centres minus that label's mean, game by
game, the "ours - D-Brane" of the benchmarks).

Two sets of runs whose games were dealt alike (the same seed and game number,
and the focus label on the same power: rotated tournaments, arenas) compare
game by game with :func:`pair`, which removes most of the spread the powers
bring (a power's mean differs from another's by up to four centres).
"""

from __future__ import annotations

import dataclasses
import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from bot.measure.metrics import GameRecord
from bot.measure.student_t import t95


class ComparisonError(Exception):
    """Runs that cannot be compared: unreadable, empty, or without the label asked for."""


@dataclass(frozen=True)
class Estimate:
    """A mean over ``n`` values and the half-width of its 95% interval (t(0.975, n-1)·sd/√n)."""

    mean: float
    half_width: float
    n: int

    def __str__(self) -> str:
        return f"{self.mean:+.2f} ± {self.half_width:.2f} (n={self.n})"

    def as_dict(self) -> dict[str, float | int | None]:
        """JSON-ready (an infinite half-width, from one value, as None)."""
        width = None if math.isinf(self.half_width) else self.half_width
        return {"mean": self.mean, "half_width": width, "n": self.n}


def estimate(values: Sequence[float]) -> Estimate:
    """The mean of ``values`` with its 95% interval (Student's t, sample standard deviation)."""
    n = len(values)
    if n == 0:
        raise ValueError("no values to estimate from")
    mean = statistics.fmean(values)
    if n == 1:
        return Estimate(mean, math.inf, 1)
    return Estimate(mean, t95(n - 1) * statistics.stdev(values, mean) / math.sqrt(n), n)


def stratified(strata: dict[str, Sequence[float]]) -> Estimate | None:
    """The mean of the strata's means, each stratum weighing alike, and its 95% interval.

    This is the power-balanced mean: what a row would give had every power been
    played equally often.  None unless there are two strata of two values or more.
    The interval's t has the Welch-Satterthwaite degrees of freedom of the
    strata's variances; with no spread at all (every variance zero) it is empty.
    """
    if len(strata) < 2 or any(len(v) < 2 for v in strata.values()):
        return None
    k = len(strata)
    # The variance each stratum's mean adds to the mean of the k means.
    shares = [statistics.variance(v) / len(v) / k**2 for v in strata.values()]
    variance = sum(shares)
    mean = sum(statistics.fmean(v) for v in strata.values()) / k
    n = sum(len(v) for v in strata.values())
    if variance == 0:
        return Estimate(mean, 0.0, n)
    df = variance**2 / sum(
        s**2 / (len(v) - 1) for s, v in zip(shares, strata.values(), strict=True)
    )
    return Estimate(mean, t95(df) * math.sqrt(variance), n)


@dataclass(frozen=True)
class Run:
    """The finished games of one lineup, from ``source``; ``seed`` None if unseeded."""

    source: str
    lineup: tuple[str, ...]
    seed: int | None
    games: tuple[GameRecord, ...]
    map: str = "standard"
    """The map the games were played on: runs compare on one map only."""

    def seats_of(self, label: str) -> tuple[int, ...]:
        """The seats ``label`` holds (empty if none)."""
        return tuple(i for i, lab in enumerate(self.lineup) if lab == label)

    def focus(self, label: str) -> tuple[int, ...]:
        """The seats that speak for ``label``: all it holds, or the first if it holds every seat.

        In a lineup of one label (seven copies of a bot, the control of a
        self-play arena) the label's mean is the same in every game, so its
        first seat stands for it.
        """
        seats = self.seats_of(label)
        return seats[:1] if len(seats) == len(self.lineup) else seats

    def others(self, label: str) -> dict[str, tuple[int, ...]]:
        """The seats besides :meth:`focus`, grouped by label in lineup order."""
        focus = self.focus(label)
        groups: dict[str, tuple[int, ...]] = {}
        for i, lab in enumerate(self.lineup):
            if i not in focus:
                groups[lab] = (*groups.get(lab, ()), i)
        return groups


def checked(run: Run) -> Run:
    """``run`` if every game has one power and one centre count per seat; else ComparisonError."""
    if not run.games:
        raise ComparisonError(f"{run.source} holds no finished game")
    seats = len(run.lineup)
    for game in run.games:
        if len(game.powers) != seats or len(game.centres) != seats:
            raise ComparisonError(
                f"{run.source}: game {game.index + 1} has {len(game.centres)} seats, "
                f"the lineup {seats}"
            )
    return run


def at_year(run: Run, year: int) -> Run:
    """``run`` with every game's centres as they stood at the end of ``year``.

    A game that ended earlier (a solo) keeps its final counts; ComparisonError if
    a game's record does not reach back to ``year`` or its curve is malformed.
    """
    games = []
    for game in run.games:
        if year not in game.years:
            if game.years and game.years[-1] < year:
                games.append(game)
                continue
            raise ComparisonError(f"{run.source}: game {game.index + 1} has no count for {year}")
        row = game.curve[game.years.index(year)] if len(game.curve) == len(game.years) else ()
        if len(row) != len(run.lineup):
            raise ComparisonError(f"{run.source}: game {game.index + 1} has a malformed curve")
        games.append(dataclasses.replace(game, centres=tuple(row)))
    return dataclasses.replace(run, games=tuple(games))


def focus_label(lineup: Sequence[str]) -> str:
    """The label holding the fewest seats (the bot under test), the earliest if tied."""
    if not lineup:
        raise ComparisonError("an empty lineup has no label")
    return min(dict.fromkeys(lineup), key=lineup.count)


def _label_focus(runs: Sequence[Run], label: str | None) -> str:
    """``label``, or the focus label the runs agree on; ComparisonError if none fits."""
    if not runs:
        raise ComparisonError("no run to compare")
    maps = {run.map for run in runs}
    if len(maps) > 1:
        played = ", ".join(f"{run.source} on {run.map}" for run in runs)
        raise ComparisonError(f"the runs were played on different maps ({played}): one at a time")
    chosen = label if label is not None else focus_label(runs[0].lineup)
    for run in runs:
        if not run.seats_of(chosen):
            raise ComparisonError(
                f"{run.source} has no seat labelled {chosen!r} (its labels: "
                f"{', '.join(dict.fromkeys(run.lineup))})"
            )
    return chosen


def _mean_centres(game: GameRecord, seats: Sequence[int]) -> float:
    return sum(game.centres[i] for i in seats) / len(seats)


@dataclass(frozen=True)
class Standing:
    """A label's centres over pooled runs and its margin over each other label."""

    label: str
    """The label, with "(first seat)" where it held every seat (see :meth:`Run.focus`)."""
    centres: Estimate
    margins: dict[str, Estimate]
    """Per other label: this label's centres minus that label's mean, game by game."""
    by_power: dict[str, Estimate]
    """The centres per power played (when the label speaks through one seat), in power order."""
    balanced: Estimate | None
    """The power-balanced mean (:func:`stratified`), when every power played was played twice."""

    def lines(self) -> list[str]:
        """Plain-text lines, one per figure."""
        c = self.centres
        out = [f"{self.label}: {c.mean:.2f} ± {c.half_width:.2f} centres (n={c.n})"]
        out += [f"  {self.label} - {other}: {m}" for other, m in self.margins.items()]
        if self.by_power:
            powers = ", ".join(f"{p} {e.mean:.1f}" for p, e in self.by_power.items())
            out.append(f"  by power: {powers}")
        if self.balanced is not None:
            b = self.balanced
            out.append(f"  power-balanced: {b.mean:.2f} ± {b.half_width:.2f}")
        return out

    def as_dict(self) -> dict[str, object]:
        """JSON-ready."""
        return {
            "label": self.label,
            "centres": self.centres.as_dict(),
            "margins": {k: v.as_dict() for k, v in self.margins.items()},
            "by_power": {k: v.as_dict() for k, v in self.by_power.items()},
            "balanced": None if self.balanced is None else self.balanced.as_dict(),
        }


def standing(runs: Sequence[Run], label: str | None = None) -> Standing:
    """``label``'s (default: the focus label's) figures over every game of ``runs``."""
    chosen = _label_focus(runs, label)
    centres: list[float] = []
    margins: dict[str, list[float]] = {}
    powers: dict[str, list[float]] = {}
    whole, one_seat = True, True
    for run in runs:
        focus, others = run.focus(chosen), run.others(chosen)
        whole = whole and focus == run.seats_of(chosen)
        one_seat = one_seat and len(focus) == 1
        for game in run.games:
            ours = _mean_centres(game, focus)
            centres.append(ours)
            powers.setdefault(game.powers[focus[0]], []).append(ours)
            for other, seats in others.items():
                margins.setdefault(other, []).append(ours - _mean_centres(game, seats))
    name = chosen if whole else f"{chosen} (first seat)"
    if not one_seat:
        powers = {}  # several seats, several powers: no power of its own
    by_power = {p: estimate(powers[p]) for p in sorted(powers)}
    return Standing(
        name,
        estimate(centres),
        {k: estimate(v) for k, v in margins.items()},
        by_power,
        stratified({p: powers[p] for p in sorted(powers)}),
    )


@dataclass(frozen=True)
class Pairing:
    """Two labels' figures in games dealt alike: first minus second, game by game."""

    first: str
    second: str
    centres: Estimate | None
    margins: dict[str, Estimate]
    """Per label both lineups have besides the focus seats: the difference of the margins."""
    matched: int
    unmatched: int
    """Games with the same seed and number whose focus seats played different powers."""

    def lines(self) -> list[str]:
        """Plain-text lines, one per figure."""
        head = f"paired, {self.first} - {self.second}"
        if self.centres is None:
            return [f"{head}: no game dealt alike ({self.unmatched} with other powers)"]
        skipped = f", {self.unmatched} left out (other powers)" if self.unmatched else ""
        out = [f"{head}: {self.centres} centres{skipped}"]
        out += [f"  margin over {other}: {m}" for other, m in self.margins.items()]
        return out

    def as_dict(self) -> dict[str, object]:
        """JSON-ready."""
        return {
            "first": self.first,
            "second": self.second,
            "centres": None if self.centres is None else self.centres.as_dict(),
            "margins": {k: v.as_dict() for k, v in self.margins.items()},
            "matched": self.matched,
            "unmatched": self.unmatched,
        }


Seats = tuple[tuple[int, ...], dict[str, tuple[int, ...]]]
"""A run's focus seats for a label, and its other seats by label (see :class:`Run`)."""


def _dealt(runs: Sequence[Run], label: str) -> dict[tuple[int, int], tuple[Seats, GameRecord]]:
    """Games by (seed, game number), with their run's seats; a later run's game replaces one."""
    dealt: dict[tuple[int, int], tuple[Seats, GameRecord]] = {}
    for run in runs:
        if run.seed is None:
            continue
        seats = (run.focus(label), run.others(label))
        for game in run.games:
            dealt[(run.seed, game.index)] = (seats, game)
    return dealt


def pair(
    first: Sequence[Run],
    second: Sequence[Run],
    first_label: str | None = None,
    second_label: str | None = None,
) -> Pairing:
    """The two labels compared in the games both sets of runs dealt alike.

    Games match by seed and game number and only if the two labels' first seats
    (see :meth:`Run.focus`) played the same power; the rest are counted in ``unmatched``.
    """
    a_label, b_label = _label_focus(first, first_label), _label_focus(second, second_label)
    a_games, b_games = _dealt(first, a_label), _dealt(second, b_label)
    centres: list[float] = []
    margins: dict[str, list[float]] = {}
    unmatched = 0
    for key in sorted(a_games.keys() & b_games.keys()):
        ((a_focus, a_others), a), ((b_focus, b_others), b) = a_games[key], b_games[key]
        if a.powers[a_focus[0]] != b.powers[b_focus[0]]:
            unmatched += 1
            continue
        a_ours, b_ours = _mean_centres(a, a_focus), _mean_centres(b, b_focus)
        centres.append(a_ours - b_ours)
        for other in sorted(a_others.keys() & b_others.keys()):
            a_margin = a_ours - _mean_centres(a, a_others[other])
            b_margin = b_ours - _mean_centres(b, b_others[other])
            margins.setdefault(other, []).append(a_margin - b_margin)
    return Pairing(
        a_label,
        b_label,
        estimate(centres) if centres else None,
        {k: estimate(v) for k, v in margins.items()},
        len(centres),
        unmatched,
    )
