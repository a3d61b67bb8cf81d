"""Whole games in-process, seven players at a time, scored as the thesis scores them.

:func:`run_arena` plays ``games`` games with our adjudicator (no network): a
lineup of one player spec per seat (see :mod:`search.registry`), the seats
dealt to the powers at random each game (seeded), each game played until
winter of the final year (centre ownership updated, BANDANA's draw at the
final year) or until a solo (the map's winning count with a strict lead,
declared when the winner has just grown, as Parlance does).

The metrics (supply centres, solos, BANDANA points, rank, the centre curve)
live in :mod:`bot.measure.metrics`, shared with the server games of ``bot.local``;
their names are re-exported here.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from random import Random
from typing import TypeVar

from adjudicator.maps import GameMap, standard_map
from adjudicator.orders import Orders
from adjudicator.phases import solo_winner
from adjudicator.position import SEASONS, WINTER, Position, initial_position
from bot.measure.metrics import (
    POINTS_BY_SURVIVORS,
    SOLO_POINTS,
    GameRecord,
    Standings,
    Summary,
    curve_table,
    game_points,
    game_ranks,
    seat_names,
    summarise,
    summary_table,
)
from search.policy import Policy
from search.registry import make_policy

__all__ = [
    "POINTS_BY_SURVIVORS",
    "SOLO_POINTS",
    "ArenaProgress",
    "ArenaResult",
    "GameRecord",
    "Summary",
    "game_points",
    "game_ranks",
    "play_game",
    "run_arena",
    "seat_names",
    "summarise",
]
from search.simulate import play_phase

_T = TypeVar("_T")

ProgressCallback = Callable[["ArenaProgress"], None]


@dataclass(frozen=True)
class ArenaProgress:
    """Where a running arena is: games finished, games in all, and the phase just played."""

    games_done: int
    games: int
    turn: str
    elapsed: float


# --- one game -----------------------------------------------------------------------------


def play_game(
    seat_policies: Sequence[Policy],
    seat_powers: Sequence[int],
    final_year: int,
    rng: Random,
    *,
    index: int = 0,
    game_map: GameMap | None = None,
    on_phase: Callable[[str], None] | None = None,
    on_orders: Callable[[Position, Orders], None] | None = None,
) -> GameRecord:
    """Play one game from the opening; seat ``i`` (``seat_policies[i]``) plays ``seat_powers[i]``.

    ``on_phase`` hears the name of each phase once it is played (for progress bars);
    ``on_orders`` each movement phase's position and every order played in it
    (the games the coach's grades are measured on, :mod:`bot.lab.bench.bench_grades`).
    """
    m = game_map or standard_map()
    began = time.perf_counter()
    policies: list[Policy | None] = [None] * m.num_powers
    for policy, power in zip(seat_policies, seat_powers, strict=True):
        policies[power] = policy
    pos = initial_position(m)
    tally = _Tally(tuple(seat_powers), pos)
    while not pos.ended_by(final_year):
        year, season = pos.year, pos.season
        played: Orders | None = {} if on_orders is not None and pos.is_movement else None
        before = pos
        pos = play_phase(pos, policies, rng, played)
        if on_orders is not None and played is not None:
            on_orders(before, played)
        if on_phase is not None:
            on_phase(f"{SEASONS[season].value} {year}")
        year_over = season != WINTER and (pos.season == WINTER or pos.year != year)
        if year_over and tally.year_end(year, pos):
            break
    end = f"{SEASONS[pos.season].value} {pos.year}"
    return tally.record(m, index, end, time.perf_counter() - began)


class _Tally:
    """What a game's record needs, noted at the end of each year as the game is played."""

    def __init__(self, seat_powers: tuple[int, ...], opening: Position) -> None:
        self.seat_powers = seat_powers
        self.counts = opening.centre_counts()
        self.years = [opening.year - 1]
        self.curve = [self.seats(self.counts)]
        self.eliminated: list[int | None] = [None] * opening.map.num_powers
        self.solo: int | None = None

    def seats(self, per_power: Sequence[_T]) -> tuple[_T, ...]:
        """``per_power``'s values in seat order."""
        return tuple(per_power[p] for p in self.seat_powers)

    def year_end(self, year: int, pos: Position) -> bool:
        """Note the centres at the end of ``year`` (``pos``); whether someone has now won."""
        previous, self.counts = self.counts, pos.centre_counts()
        self.years.append(year)
        self.curve.append(self.seats(self.counts))
        for power, c in enumerate(self.counts):
            if c == 0 and self.eliminated[power] is None:
                self.eliminated[power] = year
        winner = solo_winner(pos, previous)
        if winner >= 0:
            self.solo = winner
        return winner >= 0

    def record(self, m: GameMap, index: int, end: str, seconds: float) -> GameRecord:
        """The game's record, by seat."""
        final = self.seats(self.counts)
        seat_eliminated = self.seats(self.eliminated)
        solo_seat = self.seat_powers.index(self.solo) if self.solo is not None else None
        return GameRecord(
            index=index,
            powers=self.seats(m.powers),
            years=tuple(self.years),
            curve=tuple(self.curve),
            centres=final,
            eliminated=seat_eliminated,
            solo=solo_seat,
            points=tuple(game_points(final, solo_seat)),
            ranks=tuple(game_ranks(final, seat_eliminated)),
            end=end,
            seconds=seconds,
        )


# --- many games -------------------------------------------------------------------------------


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
    def standings(self) -> Standings:
        """The games summed up per label, seat and power (see :mod:`bot.measure.metrics`)."""
        return Standings(self.lineup, self.games)

    @property
    def seats(self) -> tuple[str, ...]:
        """The seat names (see :func:`seat_names`)."""
        return seat_names(self.lineup)

    @property
    def years(self) -> tuple[int, ...]:
        """The curve's years: the opening's label and every year played in the longest game."""
        return self.standings.years

    def by_label(self) -> list[Summary]:
        """Metrics per player label, in lineup order."""
        return self.standings.by_label()

    def by_seat(self) -> list[Summary]:
        """Metrics per seat, in lineup order."""
        return self.standings.by_seat()

    def by_power(self) -> list[Summary]:
        """Metrics per power (whoever played it), in power order."""
        return self.standings.by_power()

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready dictionary: settings, summaries and every game."""
        return {
            "lineup": list(self.lineup),
            "seats": list(self.seats),
            "final_year": self.final_year,
            "budget": self.budget,
            "seed": self.seed,
            "seconds": self.seconds,
            **self.standings.summaries_dict(),
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
            lines.append(summary_table(title, rows))
        lines.append("")
        lines.append(curve_table("mean centres by year", self.by_label()))
        return "\n".join(lines)


def _check_arena(m: GameMap, lineup: Sequence[str], games: int, final_year: int) -> None:
    """Raise :class:`ValueError` unless the lineup fills the map and the run can be played."""
    if len(lineup) != m.num_powers:
        raise ValueError(
            f"the lineup needs {m.num_powers} players, one per power; got {len(lineup)}"
        )
    if games < 1:
        raise ValueError("play at least one game")
    if final_year < initial_position(m).year:
        raise ValueError(f"the final year must be {initial_position(m).year} or later")


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
    _check_arena(m, lineup, games, final_year)
    if policies is None:
        policies = [
            make_policy(spec, budget=budget, seed=seed + i, workers=workers,
                        final_year=final_year, cpu_clock=cpu_clock)
            for i, spec in enumerate(lineup)
        ]  # fmt: skip
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
