"""Recorded games as training samples: every unit's choices, their features and the one taken.

:func:`load_samples` reads the ``games.jsonl`` of data folders
(:mod:`bot.lab.training.selfplay`), rebuilds each movement phase's position, and for
every power that gave orders turns each unit's order into the index of its
choice (:func:`search.orderpolicy.choice_label`); units whose order names no
choice (a convoy) are left out; with ``players``, so are the powers other
players played (the ``players`` of each game line).  The features' DumbBot draw
is seeded per game, phase and power, so the samples repeat for a seed.  The last games (a share
``held_out`` of them) are the held-out set.

Beside the features, each unit carries how often DumbBot itself picks each
choice over :data:`DUMBBOT_DRAWS` draws: the baseline the fit is measured
against.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from random import Random
from typing import Any

import numpy as np
import numpy.typing as npt

from adjudicator.maps import GameMap, standard_map
from adjudicator.orders import HOLD_ORDER, EngineOrder, Orders
from adjudicator.position import MOVEMENT_SEASONS, Position, UnitTuple
from bot.lab.training.selfplay import GAMES_FILE
from search.dumbbot import DumbBot
from search.orderpolicy import FEATURES, choice_label, power_features

DUMBBOT_DRAWS = 8
"""DumbBot draws per power behind the baseline's choice frequencies."""

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]


class SampleError(ValueError):
    """A data folder without recorded games, or a line that is no recorded game."""


@dataclass(frozen=True)
class Samples:
    """Unit choices: a feature row per choice, and per unit its rows and the choice taken.

    ``starts[u]`` is the first row of unit ``u``, ``sizes[u]`` its number of
    choices, ``labels[u]`` the index (within them) of the one taken;
    ``dumbbot[r]`` is the share of DumbBot's draws picking row ``r``'s choice.
    """

    features: FloatArray
    starts: IntArray
    sizes: IntArray
    labels: IntArray
    dumbbot: FloatArray

    @property
    def units(self) -> int:
        """How many unit choices there are."""
        return len(self.labels)


class _Builder:
    def __init__(self) -> None:
        self.rows: list[FloatArray] = []
        self.sizes: list[int] = []
        self.labels: list[int] = []
        self.dumbbot: list[float] = []
        self.count = 0

    def build(self) -> Samples:
        sizes = np.asarray(self.sizes, dtype=np.int64)
        starts = np.concatenate(([0], np.cumsum(sizes)[:-1])).astype(np.int64)
        features = (
            np.concatenate(self.rows) if self.rows else np.zeros((0, len(FEATURES)))
        ).astype(np.float64)
        return Samples(
            features=features,
            starts=starts if len(sizes) else np.zeros(0, dtype=np.int64),
            sizes=sizes,
            labels=np.asarray(self.labels, dtype=np.int64),
            dumbbot=np.asarray(self.dumbbot, dtype=np.float64),
        )


def _position(m: GameMap, phase: dict[str, Any]) -> Position:
    units: dict[int, UnitTuple] = {}
    for prov, power, utype, loc in phase["units"]:
        units[int(prov)] = (int(power), int(utype), int(loc))
    return Position(m, int(phase["season"]), int(phase["year"]), units, list(phase["owners"]))


def _engine_order(order: list[Any]) -> EngineOrder:
    """An order of a ``games.jsonl`` line: ints, and a convoy's route as a list of ints."""
    return tuple(
        tuple(int(p) for p in field) if isinstance(field, list) else int(field) for field in order
    )


def _orders(phase: dict[str, Any]) -> dict[int, Orders]:
    out: dict[int, Orders] = {}
    for power, prov, order in phase["orders"]:
        out.setdefault(int(power), {})[int(prov)] = _engine_order(order)
    return out


def read_games(folders: Sequence[Path]) -> list[dict[str, Any]]:
    """Every recorded game of the folders, in order; :class:`SampleError` if none."""
    games: list[dict[str, Any]] = []
    for folder in folders:
        path = folder / GAMES_FILE
        try:
            lines = path.read_text().splitlines()
        except OSError as exc:
            raise SampleError(f"no recorded games in {folder}: {exc}") from None
        for n, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                game = json.loads(line)
                if not isinstance(game, dict) or not isinstance(game.get("phases"), list):
                    raise ValueError("no phases")
            except ValueError as exc:
                raise SampleError(f"{path}:{n}: not a recorded game ({exc})") from None
            games.append(game)
    if not games:
        raise SampleError(f"no recorded games in {', '.join(map(str, folders))}")
    return games


def game_players(game: dict[str, Any]) -> list[str | None]:
    """The player of each power of a recorded game (lower case); SampleError if it has none."""
    players = game.get("players")
    if not isinstance(players, list) or not all(p is None or isinstance(p, str) for p in players):
        raise SampleError(
            f"game {game.get('game')} does not record who played each power "
            "(made before players were recorded): generate or import it again"
        )
    return [None if p is None else p.lower() for p in players]


def _chosen_powers(game: dict[str, Any], players: frozenset[str] | None) -> set[int] | None:
    """The powers of ``game`` played by one of ``players`` (None: every power)."""
    if players is None:
        return None
    return {power for power, p in enumerate(game_players(game)) if p in players}


def _unit_samples(
    m: GameMap,
    game: dict[str, Any],
    seed: int,
    dumbbot: DumbBot,
    players: frozenset[str] | None = None,
) -> Iterator[tuple[FloatArray, list[int], list[float]]]:
    """(feature rows, labels, DumbBot shares) of each power's units in each phase of ``game``.

    With ``players``, only the powers those players played.
    """
    chosen = _chosen_powers(game, players)
    for n, phase in enumerate(game["phases"]):
        try:
            pos = _position(m, phase)
            orders = _orders(phase)
        except (KeyError, TypeError, ValueError) as exc:
            raise SampleError(
                f"game {game.get('game')}: a phase that cannot be read ({exc})"
            ) from None
        if pos.season not in MOVEMENT_SEASONS:
            continue
        for power in sorted(orders):
            if chosen is not None and power not in chosen:
                continue
            rng = Random(f"samples:{seed}:{game.get('game')}:{n}:{power}")
            draw = dumbbot.movement_orders(pos, power, rng)
            provs, choices, matrix = power_features(pos, power, draw)
            shares: list[list[float]] = [[0.0] * len(c) for c in choices]
            for _ in range(DUMBBOT_DRAWS):
                other = dumbbot.movement_orders(pos, power, rng)
                for u, prov in enumerate(provs):
                    k = choice_label(pos, prov, other.get(prov, HOLD_ORDER), choices[u])
                    if k >= 0:
                        shares[u][k] += 1.0 / DUMBBOT_DRAWS
            labels = [
                choice_label(pos, prov, orders[power].get(prov, HOLD_ORDER), choices[u])
                for u, prov in enumerate(provs)
            ]
            start = 0
            for u, unit in enumerate(choices):
                rows = matrix[start : start + len(unit)]
                start += len(unit)
                if labels[u] >= 0:
                    yield rows, [labels[u]], shares[u]


def load_samples(
    folders: Sequence[Path],
    *,
    seed: int,
    held_out: float,
    players: Sequence[str] | None = None,
) -> tuple[Samples, Samples]:
    """The recorded unit choices of ``folders``: (training, held-out) by game.

    The last ``ceil(held_out * games)`` games are held out (``held_out=1``:
    every game).  With ``players`` (names as recorded, e.g. ``dumbbot`` or
    ``bandana:dbrane``, any case), only the orders of the powers they played;
    SampleError if none of the games has one of them.
    """
    m = standard_map()
    games = read_games(folders)
    wanted = None if players is None else frozenset(p.lower() for p in players)
    if wanted is not None:
        recorded = {p for game in games for p in game_players(game) if p is not None}
        if not wanted & recorded:
            raise SampleError(
                f"no game of {', '.join(sorted(wanted))} in "
                f"{', '.join(map(str, folders))}; its players are {', '.join(sorted(recorded))}"
            )
    cut = len(games) - math.ceil(held_out * len(games))
    dumbbot = DumbBot()
    builders = (_Builder(), _Builder())
    for index, game in enumerate(games):
        builder = builders[0 if index < cut else 1]
        for rows, label, shares in _unit_samples(m, game, seed, dumbbot, wanted):
            builder.rows.append(rows)
            builder.sizes.append(len(rows))
            builder.labels.append(label[0])
            builder.dumbbot.extend(shares)
    return builders[0].build(), builders[1].build()
