"""The thesis's metrics of finished games, however they were played (in-process or on a server).

Per game (:func:`game_points`, :func:`game_ranks`), a :class:`GameRecord`
holds seat by seat what happened; :func:`summarise` and :class:`Standings`
add them up per player label, per seat and per power (:class:`Summary`):

* supply centres at the end (mean, standard deviation, min and max);
* solo victories;
* points as BANDANA counts them: 12 for a solo (0 for the others), else
  shared by the survivors in the draw — 2 → 6, 3 → 4, 4 → 3, 5 or 6 → 2,
  7 → 1 — and 0 for an eliminated power (no centre left);
* rank by centres, equal centres sharing the average rank; among eliminated
  powers the one eliminated later ranks higher;
* the mean supply-centre curve: centres at the start and at the end of each
  year (a game ended by a solo keeps its final counts for the later years).

:mod:`bot.lab.arena.arena_games` plays games in-process and scores them with this module;
the local game runner and tournaments (``bot.local``) score server games with it.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

POINTS_BY_SURVIVORS = {1: 12, 2: 6, 3: 4, 4: 3, 5: 2, 6: 2, 7: 1}
"""BANDANA's points for each survivor of a draw, by the number of survivors."""

SOLO_POINTS = 12


# --- scoring one game ---------------------------------------------------------------------


def game_points(centres: Sequence[int], solo: int | None) -> list[float]:
    """BANDANA points per player: 12 to a soloist, else the draw's share to each survivor."""
    if solo is not None:
        return [float(SOLO_POINTS) if i == solo else 0.0 for i in range(len(centres))]
    survivors = sum(1 for c in centres if c > 0)
    share = float(POINTS_BY_SURVIVORS.get(survivors, 1))
    return [share if c > 0 else 0.0 for c in centres]


def game_ranks(centres: Sequence[int], eliminated: Sequence[int | None]) -> list[float]:
    """Rank per player (1 = best): by centres; eliminated players by elimination year, later higher.

    ``eliminated[i]`` is the year player ``i`` lost its last centre (``None``
    for survivors; a player with no centres and no year counts as eliminated
    last).  Players that compare equal share the average of their ranks.
    """
    keys: list[tuple[int, float]] = []
    for c, year in zip(centres, eliminated, strict=True):
        if c > 0:
            keys.append((c, 0.0))
        else:
            keys.append((0, float("inf") if year is None else float(year)))
    order = sorted(range(len(keys)), key=lambda i: keys[i], reverse=True)
    ranks = [0.0] * len(keys)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and keys[order[end + 1]] == keys[order[start]]:
            end += 1
        shared = (start + 1 + end + 1) / 2
        for k in range(start, end + 1):
            ranks[order[k]] = shared
        start = end + 1
    return ranks


@dataclass(frozen=True)
class GameRecord:
    """One finished game, seat by seat (seat ``i`` plays ``powers[i]``).

    ``years[k]`` labels ``curve[k]``, the centres per seat at the end of that
    year (the first entry, the year before the start, is the opening).
    ``eliminated[i]`` is the year seat ``i`` lost its last centre, if it did;
    ``solo`` is the seat that won outright, if one did.
    """

    index: int
    powers: tuple[str, ...]
    years: tuple[int, ...]
    curve: tuple[tuple[int, ...], ...]
    centres: tuple[int, ...]
    eliminated: tuple[int | None, ...]
    solo: int | None
    points: tuple[float, ...]
    ranks: tuple[float, ...]
    end: str
    seconds: float

    @classmethod
    def scored(
        cls,
        *,
        index: int,
        powers: Sequence[str],
        years: Sequence[int],
        curve: Sequence[Sequence[int]],
        centres: Sequence[int],
        eliminated: Sequence[int | None],
        solo: int | None,
        end: str,
        seconds: float,
    ) -> GameRecord:
        """A record with its points and ranks computed from the centres and eliminations."""
        return cls(
            index=index,
            powers=tuple(powers),
            years=tuple(years),
            curve=tuple(tuple(row) for row in curve),
            centres=tuple(centres),
            eliminated=tuple(eliminated),
            solo=solo,
            points=tuple(game_points(centres, solo)),
            ranks=tuple(game_ranks(centres, eliminated)),
            end=end,
            seconds=seconds,
        )

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameRecord:
        """The inverse of ``dataclasses.asdict`` (lists back to tuples); ValueError if malformed."""
        try:
            return cls(
                index=int(data["index"]),
                powers=tuple(str(p) for p in data["powers"]),
                years=tuple(int(y) for y in data["years"]),
                curve=tuple(tuple(int(c) for c in row) for row in data["curve"]),
                centres=tuple(int(c) for c in data["centres"]),
                eliminated=tuple(None if y is None else int(y) for y in data["eliminated"]),
                solo=None if data["solo"] is None else int(data["solo"]),
                points=tuple(float(p) for p in data["points"]),
                ranks=tuple(float(r) for r in data["ranks"]),
                end=str(data["end"]),
                seconds=float(data["seconds"]),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"not a game record: {exc!r}") from None


# --- many games -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Summary:
    """The thesis's metrics over a group of player-games (one label, seat or power)."""

    name: str
    games: int
    mean_centres: float
    sd_centres: float
    min_centres: int
    max_centres: int
    solos: int
    points: float
    mean_points: float
    mean_rank: float
    curve: tuple[tuple[int, float], ...]
    sd_points: float = 0.0
    sd_rank: float = 0.0


def _sd(values: Sequence[float]) -> float:
    return statistics.stdev(values) if len(values) > 1 else 0.0


def summarise(
    name: str, entries: Sequence[tuple[GameRecord, int]], years: Sequence[int]
) -> Summary:
    """Metrics of seat ``seat`` in each ``(game, seat)`` entry; ``years`` label the curve."""
    centres = [g.centres[s] for g, s in entries]
    points = [g.points[s] for g, s in entries]
    ranks = [g.ranks[s] for g, s in entries]
    curve = []
    for k, year in enumerate(years):
        at = [g.curve[min(k, len(g.curve) - 1)][s] for g, s in entries]
        curve.append((year, statistics.fmean(at)))
    return Summary(
        name=name,
        games=len(entries),
        mean_centres=statistics.fmean(centres),
        sd_centres=_sd(centres),
        min_centres=min(centres),
        max_centres=max(centres),
        solos=sum(1 for g, s in entries if g.solo == s),
        points=sum(points),
        mean_points=statistics.fmean(points),
        mean_rank=statistics.fmean(ranks),
        curve=tuple(curve),
        sd_points=_sd(points),
        sd_rank=_sd(ranks),
    )


def seat_names(lineup: Sequence[str]) -> tuple[str, ...]:
    """A name per seat: the label, numbered (``dumbbot#2``) when the label repeats."""
    seen: dict[str, int] = {}
    names = []
    for label in lineup:
        seen[label] = seen.get(label, 0) + 1
        names.append(f"{label}#{seen[label]}" if lineup.count(label) > 1 else label)
    return tuple(names)


@dataclass(frozen=True)
class Standings:
    """Games of one lineup (seat ``i`` has label ``lineup[i]``), summed up three ways.

    ``seats`` names the seats (default :func:`seat_names` of the lineup).
    """

    lineup: tuple[str, ...]
    games: tuple[GameRecord, ...]
    seats: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not self.seats:
            object.__setattr__(self, "seats", seat_names(self.lineup))

    @property
    def years(self) -> tuple[int, ...]:
        """The curve's years: the opening's label and every year played in the longest game."""
        return max((g.years for g in self.games), key=len, default=())

    def by_label(self) -> list[Summary]:
        """Metrics per player label, in lineup order."""
        labels = list(dict.fromkeys(self.lineup))
        return [
            summarise(
                label,
                [(g, s) for g in self.games for s, lab in enumerate(self.lineup) if lab == label],
                self.years,
            )
            for label in labels
        ]

    def by_seat(self) -> list[Summary]:
        """Metrics per seat, in lineup order."""
        return [
            summarise(name, [(g, s) for g in self.games], self.years)
            for s, name in enumerate(self.seats)
        ]

    def by_power(self) -> list[Summary]:
        """Metrics per power (whoever played it), in power order."""
        powers = sorted({p for g in self.games for p in g.powers})
        return [
            summarise(power, [(g, g.powers.index(power)) for g in self.games], self.years)
            for power in powers
        ]

    def summaries_dict(self) -> dict[str, object]:
        """The three groupings, JSON-ready."""
        return {
            "by_label": [asdict(s) for s in self.by_label()],
            "by_seat": [asdict(s) for s in self.by_seat()],
            "by_power": [asdict(s) for s in self.by_power()],
        }

    def tables(self) -> str:
        """Plain-text tables per label, per seat and per power, then the mean curves."""
        lines: list[str] = []
        for title, rows in (
            ("player", self.by_label()),
            ("seat", self.by_seat()),
            ("power", self.by_power()),
        ):
            lines.append(summary_table(title, rows))
            lines.append("")
        lines.append(curve_table("mean centres by year", self.by_label()))
        return "\n".join(lines)


def summary_table(title: str, rows: Sequence[Summary]) -> str:
    """One plain-text table of summaries, one row each."""
    width = max(len(title), *(len(r.name) for r in rows))
    head = (
        f"{title:<{width}}  games  centres    sd  min  max  solos  points"
        f"  pts/game    sd  rank    sd"
    )
    out = [head]
    for r in rows:
        out.append(
            f"{r.name:<{width}}  {r.games:5d}  {r.mean_centres:7.2f}  {r.sd_centres:4.2f}"
            f"  {r.min_centres:3d}  {r.max_centres:3d}  {r.solos:5d}  {r.points:6.0f}"
            f"  {r.mean_points:8.2f}  {r.sd_points:4.2f}  {r.mean_rank:4.2f}  {r.sd_rank:4.2f}"
        )
    return "\n".join(out)


def curve_table(title: str, rows: Sequence[Summary]) -> str:
    """Mean centres per year, one row per summary."""
    if not rows:
        return title
    width = max(len(title), *(len(r.name) for r in rows))
    years = [year for year, _ in rows[0].curve]
    labels = ["start", *(str(y) for y in years[1:])]
    out = [f"{title:<{width}}" + "".join(f"  {lab:>5}" for lab in labels)]
    for r in rows:
        out.append(f"{r.name:<{width}}" + "".join(f"  {v:5.2f}" for _, v in r.curve))
    return "\n".join(out)


def markdown_table(title: str, rows: Sequence[Summary]) -> str:
    """Summaries as a markdown table, each mean with its spread (± standard deviation)."""
    out = [
        f"| {title} | games | centres | min-max | solos | points/game | rank |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        out.append(
            f"| {r.name} | {r.games} | {r.mean_centres:.2f} ± {r.sd_centres:.2f}"
            f" | {r.min_centres}-{r.max_centres} | {r.solos}"
            f" | {r.mean_points:.2f} ± {r.sd_points:.2f} | {r.mean_rank:.2f} ± {r.sd_rank:.2f} |"
        )
    return "\n".join(out)
