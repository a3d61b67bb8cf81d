"""Whole games in-process, seven players at a time, scored as the thesis scores them.

:func:`run_arena` plays ``games`` games with our adjudicator (no network): a
lineup of one player spec per seat (see :mod:`search.registry`), the seats
dealt to the powers at random each game (seeded), each game played until
winter of the final year (centre ownership updated, BANDANA's draw at the
final year) or until a solo (the map's winning count with a strict lead,
declared when the winner has just grown, as Parlance does).

Metrics, per game (:func:`game_points`, :func:`game_ranks`) and summed up per
player label, per seat and per power (:class:`Summary`):

* supply centres at the end (mean, standard deviation, min and max);
* solo victories;
* points as BANDANA counts them: 12 for a solo (0 for the others), else
  shared by the survivors in the draw — 2 → 6, 3 → 4, 4 → 3, 5 or 6 → 2,
  7 → 1 — and 0 for an eliminated power (no centre left);
* rank by centres, equal centres sharing the average rank; among eliminated
  powers the one eliminated later ranks higher;
* the mean supply-centre curve: centres at the start and at the end of each
  year (a game ended by a solo keeps its final counts for the later years).
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from random import Random

from adjudicator.maps import GameMap, standard_map
from adjudicator.phases import solo_winner
from adjudicator.position import SEASONS, WINTER, initial_position
from search.policy import Policy
from search.registry import make_policy
from search.simulate import play_phase

POINTS_BY_SURVIVORS = {1: 12, 2: 6, 3: 4, 4: 3, 5: 2, 6: 2, 7: 1}
"""BANDANA's points for each survivor of a draw, by the number of survivors."""

SOLO_POINTS = 12

ProgressCallback = Callable[["ArenaProgress"], None]


@dataclass(frozen=True)
class ArenaProgress:
    """Where a running arena is: games finished, games in all, and the phase just played."""

    games_done: int
    games: int
    turn: str
    elapsed: float


# --- scoring ------------------------------------------------------------------------------


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


# --- one game -----------------------------------------------------------------------------


@dataclass(frozen=True)
class GameRecord:
    """One arena game, seat by seat (seat ``i`` plays ``powers[i]``).

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


def play_game(
    seat_policies: Sequence[Policy],
    seat_powers: Sequence[int],
    final_year: int,
    rng: Random,
    *,
    index: int = 0,
    game_map: GameMap | None = None,
    on_phase: Callable[[str], None] | None = None,
) -> GameRecord:
    """Play one game from the opening; seat ``i`` (``seat_policies[i]``) plays ``seat_powers[i]``.

    ``on_phase`` hears the name of each phase once it is played (for progress bars).
    """
    m = game_map or standard_map()
    began = time.perf_counter()
    policies: list[Policy | None] = [None] * m.num_powers
    for policy, power in zip(seat_policies, seat_powers, strict=True):
        policies[power] = policy
    pos = initial_position(m)
    counts = pos.centre_counts()
    years = [pos.year - 1]
    curve = [tuple(counts[p] for p in seat_powers)]
    eliminated: list[int | None] = [None] * m.num_powers
    solo: int | None = None
    while not (pos.year > final_year or (pos.year == final_year and pos.season == WINTER)):
        year, season = pos.year, pos.season
        pos = play_phase(pos, policies, rng)
        if on_phase is not None:
            on_phase(f"{SEASONS[season].value} {year}")
        if season != WINTER and (pos.season == WINTER or pos.year != year):
            previous, counts = counts, pos.centre_counts()
            years.append(year)
            curve.append(tuple(counts[p] for p in seat_powers))
            for power, c in enumerate(counts):
                if c == 0 and eliminated[power] is None:
                    eliminated[power] = year
            winner = solo_winner(pos, previous)
            if winner >= 0:
                solo = winner
                break
    final = tuple(counts[p] for p in seat_powers)
    seat_eliminated = tuple(eliminated[p] for p in seat_powers)
    solo_seat = list(seat_powers).index(solo) if solo is not None else None
    return GameRecord(
        index=index,
        powers=tuple(m.powers[p] for p in seat_powers),
        years=tuple(years),
        curve=tuple(curve),
        centres=final,
        eliminated=seat_eliminated,
        solo=solo_seat,
        points=tuple(game_points(final, solo_seat)),
        ranks=tuple(game_ranks(final, seat_eliminated)),
        end=f"{SEASONS[pos.season].value} {pos.year}",
        seconds=time.perf_counter() - began,
    )


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
        sd_centres=statistics.stdev(centres) if len(centres) > 1 else 0.0,
        min_centres=min(centres),
        max_centres=max(centres),
        solos=sum(1 for g, s in entries if g.solo == s),
        points=sum(points),
        mean_points=statistics.fmean(points),
        mean_rank=statistics.fmean(ranks),
        curve=tuple(curve),
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
class ArenaResult:
    """Every game of an arena run and the settings it ran with; summaries on demand."""

    lineup: tuple[str, ...]
    final_year: int
    budget: float
    seed: int
    games: tuple[GameRecord, ...]
    seconds: float

    @property
    def seats(self) -> tuple[str, ...]:
        """The seat names (see :func:`seat_names`)."""
        return seat_names(self.lineup)

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

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready dictionary: settings, summaries and every game."""
        return {
            "lineup": list(self.lineup),
            "seats": list(self.seats),
            "final_year": self.final_year,
            "budget": self.budget,
            "seed": self.seed,
            "seconds": self.seconds,
            "by_label": [asdict(s) for s in self.by_label()],
            "by_seat": [asdict(s) for s in self.by_seat()],
            "by_power": [asdict(s) for s in self.by_power()],
            "games": [asdict(g) for g in self.games],
        }

    def report(self) -> str:
        """The metrics as plain-text tables (per label, per seat, per power, and curves)."""
        lines = [
            f"{len(self.games)} games to WIN {self.final_year}, seed {self.seed}, "
            f"{self.seconds:.1f} s; lineup: {' '.join(self.lineup)}"
        ]
        for title, rows in (
            ("player", self.by_label()),
            ("seat", self.by_seat()),
            ("power", self.by_power()),
        ):
            lines.append("")
            lines.append(_table(title, rows))
        lines.append("")
        lines.append(_curves("mean centres by year", self.by_label()))
        return "\n".join(lines)


def _table(title: str, rows: Sequence[Summary]) -> str:
    width = max(len(title), *(len(r.name) for r in rows))
    head = f"{title:<{width}}  games  centres   sd  min  max  solos  points  pts/game  rank"
    out = [head]
    for r in rows:
        out.append(
            f"{r.name:<{width}}  {r.games:5d}  {r.mean_centres:7.2f}  {r.sd_centres:4.2f}"
            f"  {r.min_centres:3d}  {r.max_centres:3d}  {r.solos:5d}  {r.points:6.0f}"
            f"  {r.mean_points:8.2f}  {r.mean_rank:4.2f}"
        )
    return "\n".join(out)


def _curves(title: str, rows: Sequence[Summary]) -> str:
    if not rows:
        return title
    width = max(len(title), *(len(r.name) for r in rows))
    years = [year for year, _ in rows[0].curve]
    labels = ["start", *(str(y) for y in years[1:])]
    out = [f"{title:<{width}}" + "".join(f"  {lab:>5}" for lab in labels)]
    for r in rows:
        out.append(f"{r.name:<{width}}" + "".join(f"  {v:5.2f}" for _, v in r.curve))
    return "\n".join(out)


def run_arena(
    lineup: Sequence[str],
    *,
    games: int,
    final_year: int = 1905,
    budget: float = 5.0,
    seed: int = 0,
    workers: int = 1,
    cpu_clock: bool = False,
    policies: Sequence[Policy] | None = None,
    progress: ProgressCallback | None = None,
) -> ArenaResult:
    """Play ``games`` games of the ``lineup`` (one player spec per seat) and collect the records.

    Players are built once per seat with :func:`search.registry.make_policy`
    (seat ``i`` gets seed ``seed + i``) unless ``policies`` are given.  Game
    ``k`` draws its power assignment and all its randomness from its own
    generator, seeded from ``seed`` and ``k``, so runs with heuristic players
    repeat exactly.  Raises :class:`ValueError` (or a registry error) for a
    lineup that does not fit the map.
    """
    m = standard_map()
    if len(lineup) != m.num_powers:
        raise ValueError(
            f"the lineup needs {m.num_powers} players, one per power; got {len(lineup)}"
        )
    if games < 1:
        raise ValueError("play at least one game")
    if final_year < initial_position(m).year:
        raise ValueError(f"the final year must be {initial_position(m).year} or later")
    if policies is None:
        policies = [
            make_policy(
                spec,
                budget=budget,
                seed=seed + i,
                workers=workers,
                final_year=final_year,
                cpu_clock=cpu_clock,
            )
            for i, spec in enumerate(lineup)
        ]
    began = time.perf_counter()
    records: list[GameRecord] = []
    for index in range(games):
        rng = Random(f"arena:{seed}:{index}")
        powers = rng.sample(range(m.num_powers), m.num_powers)

        def on_phase(turn: str, done: int = index) -> None:
            if progress is not None:
                progress(ArenaProgress(done, games, turn, time.perf_counter() - began))

        records.append(
            play_game(policies, powers, final_year, rng, index=index, game_map=m, on_phase=on_phase)
        )
        if progress is not None:
            progress(ArenaProgress(index + 1, games, records[-1].end, time.perf_counter() - began))
    return ArenaResult(
        lineup=tuple(lineup),
        final_year=final_year,
        budget=budget,
        seed=seed,
        games=tuple(records),
        seconds=time.perf_counter() - began,
    )
