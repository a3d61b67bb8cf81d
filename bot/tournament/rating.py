"""Ratings of player labels from tournament folders: openskill's Plackett-Luce model.

Every finished game of the given tournament folders (see
:mod:`bot.tournament`) is one ranking of its seven seats by supply
centres (ties shared, eliminated players by the year they went out: the
ranks the results tables use).  Each player label gets a Gaussian skill
belief, mean ``mu`` and uncertainty ``sigma``; games update them in the
order they were played, folder after folder.  A label holds the same program
in every game, so its skill does not drift (``tau`` 0).

A label that holds several seats of one game (six DumbBots) gets one update
per seat, each computed from the same belief as if that seat's placement
were its own game, and the updates are multiplied together as Gaussians
(their precisions and precision-weighted means add): each seat's placement
counts as an observation.  The table is sorted by the conservative estimate
``mu - 3 sigma`` (openskill's ordinal), which a label only climbs with many
games; labels from different lineups are thereby comparable.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from bot.tournament.saved import TournamentError, finished_games

CONFIDENCE = 3.0
"""Sigmas subtracted from mu for the conservative rating (openskill's ordinal)."""

RATINGS_FILES = ("ratings.md", "ratings.csv", "ratings.json")


class RatingsError(Exception):
    """A folder that cannot be rated (no tournament, no finished game, a corrupt game file)."""


@dataclass(frozen=True)
class RatedGame:
    """One finished game as the ratings see it: each seat's label and rank (1 = best)."""

    source: str
    index: int
    labels: tuple[str, ...]
    ranks: tuple[float, ...]
    map: str = "standard"
    """The map the game was played on: ratings pool games of one map only."""


@dataclass(frozen=True)
class Rating:
    """A label's skill belief after all the games, with what it is based on."""

    label: str
    mu: float
    sigma: float
    games: int
    seats: int
    mean_rank: float

    @property
    def conservative(self) -> float:
        """``mu - 3 sigma``: the skill the label has with high confidence."""
        return self.mu - CONFIDENCE * self.sigma

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready, with the conservative rating."""
        return {**asdict(self), "conservative": self.conservative}


def tournament_games(folder: Path) -> list[RatedGame]:
    """The finished games of the tournament in ``folder``, in order; RatingsError if none."""
    try:
        settings, entries = finished_games(folder)
    except TournamentError as exc:
        raise RatingsError(str(exc)) from exc
    labels = tuple(seat.label for seat in settings.seats)
    return [
        RatedGame(str(folder), e.index, labels, tuple(e.record.ranks), settings.map)
        for e in entries
    ]


def rate(games: Iterable[RatedGame]) -> list[Rating]:
    """Rate every label of ``games`` (in that order); the table, best conservative rating first.

    RatingsError if the games were played on different maps (a rating is a map's).
    """
    from openskill.models import PlackettLuce

    games = list(games)
    maps = sorted({game.map for game in games})
    if len(maps) > 1:
        raise RatingsError(f"the games were played on {', '.join(maps)}: rate one map at a time")

    model = PlackettLuce(tau=0.0)
    belief: dict[str, tuple[float, float]] = {}
    played: dict[str, int] = {}
    seats: dict[str, int] = {}
    rank_sum: dict[str, float] = {}
    for game in games:
        for label in set(game.labels):
            belief.setdefault(label, (model.mu, model.sigma))
            played[label] = played.get(label, 0) + 1
        teams = [[model.rating(*belief[label])] for label in game.labels]
        updated = model.rate(teams, ranks=list(game.ranks))
        precision: dict[str, float] = {}
        weighted: dict[str, float] = {}
        for label, rank, (after,) in zip(game.labels, game.ranks, updated, strict=True):
            mu, sigma = belief[label]
            prior = 1.0 / sigma**2
            gained = 1.0 / after.sigma**2 - prior
            precision[label] = precision.get(label, prior) + gained
            gained_mean = after.mu / after.sigma**2 - prior * mu
            weighted[label] = weighted.get(label, prior * mu) + gained_mean
            seats[label] = seats.get(label, 0) + 1
            rank_sum[label] = rank_sum.get(label, 0.0) + rank
        for label, p in precision.items():
            belief[label] = (weighted[label] / p, p**-0.5)
    table = [
        Rating(label, mu, sigma, played[label], seats[label], rank_sum[label] / seats[label])
        for label, (mu, sigma) in belief.items()
    ]
    return sorted(table, key=lambda r: (-r.conservative, r.label))


def markdown(table: Sequence[Rating], sources: Sequence[str], games: int) -> str:
    """The ratings as a markdown document."""
    lines = [
        "# Ratings",
        "",
        f"openskill Plackett-Luce over {games} games from {', '.join(sources)}; each game ranks "
        "its seats by supply centres.  mu ± sigma is the skill belief (start 25 ± 8.33); "
        "the table is sorted by mu - 3 sigma.",
        "",
        "| player | mu | sigma | mu - 3 sigma | games | seats | mean rank |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in table:
        lines.append(
            f"| {r.label} | {r.mu:.2f} | {r.sigma:.2f} | {r.conservative:.2f} | {r.games} "
            f"| {r.seats} | {r.mean_rank:.2f} |"
        )
    return "\n".join(lines) + "\n"


def text_table(table: Sequence[Rating]) -> str:
    """The ratings as aligned plain text, for the terminal."""
    width = max(6, *(len(r.label) for r in table))
    lines = [f"{'player':<{width}}     mu  sigma  mu-3s  games  seats  rank"]
    for r in table:
        lines.append(
            f"{r.label:<{width}}  {r.mu:5.2f}  {r.sigma:5.2f}  {r.conservative:5.2f}"
            f"  {r.games:5d}  {r.seats:5d}  {r.mean_rank:4.2f}"
        )
    return "\n".join(lines)


def write_ratings(
    out: Path, table: Sequence[Rating], sources: Sequence[str], games: int
) -> list[Path]:
    """Write ratings.md, ratings.csv and ratings.json into ``out``; their paths."""
    out.mkdir(parents=True, exist_ok=True)
    md, csv_path, js = (out / name for name in RATINGS_FILES)
    md.write_text(markdown(table, sources, games))
    with open(csv_path, "w", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(["player", "mu", "sigma", "conservative", "games", "seats", "mean_rank"])
        for r in table:
            writer.writerow(
                [
                    r.label,
                    *(round(v, 4) for v in (r.mu, r.sigma, r.conservative)),
                    r.games,
                    r.seats,
                    round(r.mean_rank, 4),
                ]
            )
    js.write_text(
        json.dumps(
            {
                "model": "openskill PlackettLuce (tau 0)",
                "sources": list(sources),
                "games": games,
                "ratings": [r.as_dict() for r in table],
            },
            indent=1,
        )
        + "\n"
    )
    return [md, csv_path, js]
