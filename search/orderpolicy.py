"""A learned per-unit order policy: where each unit goes, scored by a linear model over features.

The model (trained by ``daide-mcts train``, :mod:`bot.lab.training`) sees each unit's
*choices*: its own location (stay) and every location it can move to.  Every
choice has a feature vector (:data:`FEATURES`: a supply centre, whose, who
stands there, who can reach it, where DumbBot would send the unit, ...); a
choice's score is the features' dot product with the weights, and a unit's
choices are drawn by the softmax of their scores (a conditional logit).

A unit's order becomes its choice as DumbBot would play it
(:func:`orders_from_choices`): staying is a hold; a choice where one of our
units stays is a support of it; a choice another of our units already moves
into is a support of that move; any other choice is a move.  Read the other
way (:func:`choice_label`), every hold, move or support names the choice it
came from, which is what the model is trained to predict.

Inference is NumPy on a few hundred numbers per power; when the compiled code
runs, :meth:`LearnedPolicy.movement_orders` draws in C instead
(``search._fastbot.CPolicy``: the same orders, the generator left in the same
state), fast enough for the enemies in the compiled tree.  Models are JSON files
(:class:`OrderModel`); :func:`load_model` reads one by path or by name: shipped
in :mod:`search.models`, or in a folder of ``$DAIDE_MCTS_MODELS``.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from random import Random
from typing import Any

import numpy as np
import numpy.typing as npt

from adjudicator import compiled_rules as switch
from adjudicator.maps import GameMap
from adjudicator.orders import (
    HOLD,
    HOLD_ORDER,
    MOVE,
    SUPPORT_HOLD,
    SUPPORT_MOVE,
    EngineOrder,
    Orders,
)
from adjudicator.per_map import PerMap
from adjudicator.position import FALL, NOBODY, Position
from search import compiled_search as speedups
from search.dumbbot import DumbBot
from search.tables import tables_for

MODEL_FORMAT = "daide-mcts order policy"
"""The ``format`` field every model file carries."""

MODEL_VERSION = 1
"""The model file layout this module reads (features and their order included)."""

MODELS_DIR = Path(__file__).resolve().parent / "models"
"""Where shipped models live: ``<name>.json``."""

REACH_SCALE = 3.0
"""Counts of units reaching a province are divided by this (a few units at most)."""

DISTANCE_SCALE = 5.0
"""Distances to the nearest centre to take are divided by this."""

FEATURES = (
    "stay",
    "dumbbot_choice",
    "dumbbot_choice_stay",
    "centre",
    "centre_ours",
    "centre_theirs",
    "centre_neutral",
    "home_ours",
    "own_unit_there",
    "enemy_unit_there",
    "enemies_reaching",
    "friends_reaching",
    "fall_centre_to_take",
    "fall_stay_on_centre_to_take",
    "target_distance",
    "stay_threatened",
)
"""The features of one choice, in weight order."""

FloatArray = npt.NDArray[np.float64]


class ModelError(ValueError):
    """A model file that cannot be read, or a model name that names none."""


@dataclass(frozen=True)
class OrderModel:
    """A linear order policy: one weight per feature, and where it came from."""

    weights: tuple[float, ...]
    name: str = "untrained"
    provenance: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    def __post_init__(self) -> None:
        if len(self.weights) != len(FEATURES) or not all(math.isfinite(w) for w in self.weights):
            raise ModelError(f"an order model needs {len(FEATURES)} finite weights")

    @property
    def vector(self) -> FloatArray:
        """The weights as an array."""
        return np.asarray(self.weights, dtype=np.float64)

    def to_json(self) -> dict[str, Any]:
        """The model file's content."""
        return {
            "format": MODEL_FORMAT,
            "version": MODEL_VERSION,
            "name": self.name,
            "features": list(FEATURES),
            "weights": list(self.weights),
            "provenance": self.provenance,
        }

    def save(self, path: Path) -> None:
        """Write the model file."""
        path.write_text(json.dumps(self.to_json(), indent=1) + "\n")

    @classmethod
    def from_json(cls, data: object) -> OrderModel:
        """The model in a parsed model file; :class:`ModelError` if it is not one."""
        if not isinstance(data, dict) or data.get("format") != MODEL_FORMAT:
            raise ModelError(f"not an order model (no format {MODEL_FORMAT!r})")
        if data.get("version") != MODEL_VERSION or data.get("features") != list(FEATURES):
            raise ModelError(
                f"an order model of another layout (version {data.get('version')!r}); "
                f"this build reads version {MODEL_VERSION}: retrain it with daide-mcts train fit"
            )
        weights = data.get("weights")
        if not isinstance(weights, list) or not all(
            isinstance(w, int | float) and not isinstance(w, bool) for w in weights
        ):
            raise ModelError("an order model's weights must be a list of numbers")
        provenance = data.get("provenance", {})
        return cls(
            tuple(float(w) for w in weights),
            name=str(data.get("name", "untrained")),
            provenance=provenance if isinstance(provenance, dict) else {},
        )


MODELS_ENV = "DAIDE_MCTS_MODELS"
"""An environment variable: more folders (``os.pathsep``-separated) to find models in by name."""


def model_dirs() -> list[Path]:
    """Where models are found by name: :data:`MODELS_DIR`, then :data:`MODELS_ENV`'s folders."""
    extra = os.environ.get(MODELS_ENV, "")
    return [MODELS_DIR, *(Path(d) for d in extra.split(os.pathsep) if d)]


def load_model(name_or_path: str) -> OrderModel:
    """The model named ``name`` (``<name>.json`` in :func:`model_dirs`), or the file at the path.

    Raises :class:`ModelError` naming the models found when neither exists.
    """
    for folder in model_dirs():
        path = folder / f"{name_or_path}.json"
        if path.is_file():
            break
    else:
        path = Path(name_or_path)
    if not path.is_file():
        names = sorted({p.stem for d in model_dirs() for p in d.glob("*.json")})
        raise ModelError(
            f"no order model {name_or_path!r}: give a model's name or a model file's path "
            f"(models found: {', '.join(names) or 'none'})"
        )
    try:
        return _read_model(str(path.resolve()), path.stat().st_mtime_ns)
    except OSError as exc:
        raise ModelError(f"cannot read the order model {str(path)!r}: {exc}") from None


@cache
def _read_model(path: str, mtime_ns: int) -> OrderModel:
    """The model in the file (cached per file version: every search asks for it)."""
    del mtime_ns
    try:
        data = json.loads(Path(path).read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ModelError(f"cannot read the order model {path!r}: {exc}") from None
    return OrderModel.from_json(data)


# --- choices and their features ----------------------------------------------------------


def unit_choices(pos: Position, prov: int) -> list[int]:
    """The locations the unit in ``prov`` may choose: its own, then every adjacent one."""
    _, utype, loc = pos.units[prov]
    return [loc, *pos.map.adjacent(utype, loc)]


def choice_label(pos: Position, prov: int, order: EngineOrder, choices: Sequence[int]) -> int:
    """The index in ``choices`` of the choice ``order`` was made from, or -1 (a convoy, say)."""
    kind = order[0]
    if kind == HOLD:
        return 0
    if kind == MOVE:
        return choices.index(order[1]) if order[1] in choices else -1
    if kind == SUPPORT_HOLD:
        target = order[1]
    elif kind == SUPPORT_MOVE:
        target = order[2]
    else:
        return -1
    loc_province = pos.map.loc_province
    for k in range(1, len(choices)):
        if loc_province[choices[k]] == target:
            return k
    return -1


def dumbbot_choice(pos: Position, prov: int, order: EngineOrder, choices: Sequence[int]) -> int:
    """The index of the choice DumbBot's ``order`` came from (staying, for a convoy)."""
    k = choice_label(pos, prov, order, choices)
    return k if k >= 0 else 0


@dataclass(frozen=True)
class _MapArrays:
    """A map's tables as arrays, for computing features a whole power at once."""

    loc_province: npt.NDArray[np.int64]
    centre: npt.NDArray[np.bool_]
    homes: tuple[npt.NDArray[np.bool_], ...]
    distance: npt.NDArray[np.int64]


_ARRAYS = PerMap()
"""Each map's :class:`_MapArrays`."""


def _arrays(m: GameMap) -> _MapArrays:
    """``m``'s arrays, made at their first use."""
    arrays: _MapArrays | None = _ARRAYS.get(m)
    if arrays is None:
        arrays = _ARRAYS.put(m, _map_arrays(m))
    return arrays


def _map_arrays(m: GameMap) -> _MapArrays:
    homes = []
    for power in range(m.num_powers):
        mask = np.zeros(m.num_provinces, dtype=np.bool_)
        mask[list(m.homes[power])] = True
        homes.append(mask)
    return _MapArrays(
        loc_province=np.asarray(m.loc_province, dtype=np.int64),
        centre=np.asarray(m.is_supply, dtype=np.bool_),
        homes=tuple(homes),
        distance=np.asarray(m.distance, dtype=np.int64),
    )


def power_features(
    pos: Position, power: int, dumbbot_orders: Orders
) -> tuple[list[int], list[list[int]], FloatArray]:
    """Features of every choice of every unit of ``power``.

    Returns the units' provinces (sorted), each unit's choices, and a matrix
    with one row per choice (units' rows in turn) and one column per feature.
    ``dumbbot_orders`` are one draw of DumbBot's orders for ``power``.
    """
    # Stays whole: one pass fills the per-province tables every feature reads; the
    # vectorised form is held to the plain one-choice-at-a-time reference by the tests.
    m = pos.map
    units = pos.units
    arrays = _arrays(m)
    provs = sorted(p for p, u in units.items() if u[0] == power)
    if not provs:
        return [], [], np.zeros((0, len(FEATURES)))
    enemy_counts = [0] * m.num_provinces
    friend_counts = [0] * m.num_provinces
    occupants = [NOBODY] * m.num_provinces
    for uprov, (upower, utype, uloc) in units.items():
        counts = friend_counts if upower == power else enemy_counts
        for p in m.reach(utype, uloc):
            counts[p] += 1
        occupants[uprov] = upower
    reaching_enemies = np.asarray(enemy_counts, dtype=np.float64)
    reaching_friends = np.asarray(friend_counts, dtype=np.float64)
    occupant = np.asarray(occupants, dtype=np.int64)
    owners = np.asarray(pos.owners, dtype=np.int64)
    targets = arrays.centre & (owners != power)
    nearest_target = (
        arrays.distance[:, targets].min(axis=1) if targets.any() else np.zeros(m.num_provinces)
    )
    all_choices: list[list[int]] = []
    locs: list[int] = []
    home_prov: list[int] = []
    picked_rows: list[int] = []
    self_reach: list[float] = []
    for prov in provs:
        choices = unit_choices(pos, prov)
        dumb_k = dumbbot_choice(pos, prov, dumbbot_orders.get(prov, HOLD_ORDER), choices)
        picked_rows.append(len(locs) + dumb_k)
        stay_in_reach = prov in m.reach(units[prov][1], units[prov][2])
        self_reach.extend([1.0 if stay_in_reach else 0.0] + [1.0] * (len(choices) - 1))
        home_prov.extend([prov] * len(choices))
        locs.extend(choices)
        all_choices.append(choices)
    rows = len(locs)
    stay = np.zeros(rows)
    starts = np.cumsum([0] + [len(c) for c in all_choices[:-1]])
    stay[starts] = 1.0
    picked = np.zeros(rows)
    picked[picked_rows] = 1.0
    d = arrays.loc_province[np.asarray(locs, dtype=np.int64)]
    centre = arrays.centre[d]
    owner = owners[d]
    there = occupant[d]
    own_there = (there == power) & (d != np.asarray(home_prov, dtype=np.int64))
    enemy_there = (there != NOBODY) & (there != power)
    to_take = centre & (owner != power)
    fall_take = to_take if pos.season == FALL else np.zeros(rows, dtype=np.bool_)
    friends = np.maximum(0.0, reaching_friends[d] - np.asarray(self_reach))
    enemies = reaching_enemies[d] / REACH_SCALE
    columns = (
        stay,
        picked,
        picked * stay,
        centre,
        centre & (owner == power),
        centre & (owner != power) & (owner != NOBODY),
        centre & (owner == NOBODY),
        arrays.homes[power][d],
        own_there,
        enemy_there,
        enemies,
        friends / REACH_SCALE,
        fall_take,
        stay * fall_take,
        nearest_target[d] / DISTANCE_SCALE,
        stay * enemies,
    )
    matrix = np.column_stack(columns).astype(np.float64)
    return provs, all_choices, matrix


def choice_probabilities(
    matrix: FloatArray, choices: Sequence[Sequence[int]], weights: FloatArray
) -> list[FloatArray]:
    """Each unit's softmax over its choices (rows of ``matrix`` in unit order)."""
    scores = matrix @ weights
    out: list[FloatArray] = []
    start = 0
    for unit in choices:
        s = scores[start : start + len(unit)]
        e = np.exp(s - s.max())
        out.append(e / e.sum())
        start += len(unit)
    return out


def orders_from_choices(
    pos: Position, power: int, picks: dict[int, int], order_of: Sequence[int]
) -> Orders:
    """Orders for ``power``'s units from each unit's chosen location (see the module docstring).

    ``order_of`` is the order in which units claim a province (the first to
    choose a province moves in; the later ones support it).  A unit choosing
    the province of another of our units waits until that one's order is
    known: a support of it if it stays, else as if the province were empty
    (units waiting on each other in a cycle: the first of them supports the
    next one holding, so the cycle holds and supports).
    """
    units = pos.units
    loc_province = pos.map.loc_province
    orders: Orders = {}
    mover_into: dict[int, int] = {}

    def move_or_support(prov: int, loc: int, d: int) -> None:
        if d in mover_into:
            orders[prov] = (SUPPORT_MOVE, mover_into[d], d)
        else:
            orders[prov] = (MOVE, loc)
            mover_into[d] = prov

    waiting = list(order_of)
    while waiting:
        later: list[int] = []
        for prov in waiting:
            loc = picks[prov]
            d = loc_province[loc]
            if d == prov:
                orders[prov] = HOLD_ORDER
                continue
            other = units.get(d)
            if other is not None and other[0] == power:
                if d not in orders:
                    later.append(prov)
                    continue
                if orders[d][0] != MOVE:
                    orders[prov] = (SUPPORT_HOLD, d)
                    continue
            move_or_support(prov, loc, d)
        if later and len(later) == len(waiting):
            first = later.pop(0)  # waiting on each other in a cycle: the first stays
            orders[first] = (SUPPORT_HOLD, loc_province[picks[first]])
        waiting = later
    return orders


BOARDS_KEPT = 4096
"""Positions whose choices and scores a :class:`LearnedPolicy` keeps (then it starts afresh)."""

_DUMBBOT_CHOICE = FEATURES.index("dumbbot_choice")
_DUMBBOT_CHOICE_STAY = FEATURES.index("dumbbot_choice_stay")
_BASE_FEATURES = tuple(
    j for j in range(len(FEATURES)) if j not in (_DUMBBOT_CHOICE, _DUMBBOT_CHOICE_STAY)
)
"""The features whose scores depend on the position only (DumbBot's choice is drawn per call)."""

_Board = tuple[list[int], list[list[int]], list[list[float]]]
"""A power's units, each unit's choices, and each choice's score but DumbBot's features."""


class LearnedPolicy:
    """A :class:`~search.policy.Policy` playing a learned :class:`OrderModel`'s movement orders.

    Retreats and builds are DumbBot's.  The model's feature of DumbBot's
    choice comes from one DumbBot draw per call; every other feature depends
    on the position only, so the scores they give are kept per position and
    power (the tree asks again at every descent), keyed by the position's
    content, never its identity.
    """

    def __init__(self, model: OrderModel) -> None:
        self.model = model
        self.name = f"learned:{model.name}"
        self._weights = model.vector
        self._dumbbot = DumbBot()
        self._boards: dict[tuple[object, ...], _Board] = {}
        self._compiled: tuple[object, int, Any] = (None, -1, None)

    def __getstate__(self) -> dict[str, object]:
        # kept scores and the compiled policy stay behind
        return {**self.__dict__, "_boards": {}, "_compiled": (None, -1, None)}

    def _board(self, pos: Position, power: int) -> _Board:
        key = (power, pos.season, pos.year, frozenset(pos.units.items()), tuple(pos.owners))
        board = self._boards.get(key)
        if board is None:
            provs, choices, matrix = power_features(pos, power, {})
            w = self._weights
            # feature by feature, in order: the sums the compiled policy makes, to the bit
            total = np.zeros(len(matrix))
            for j in _BASE_FEATURES:
                total = total + matrix[:, j] * w[j]
            scores = total.tolist()
            per_unit: list[list[float]] = []
            start = 0
            for unit in choices:
                per_unit.append(scores[start : start + len(unit)])
                start += len(unit)
            if len(self._boards) >= BOARDS_KEPT:
                self._boards.clear()
            board = self._boards[key] = (provs, choices, per_unit)
        return board

    def compiled(self, game_map: GameMap) -> Any:
        """The compiled policy on ``game_map`` (``search._fastbot.CPolicy``), or None.

        It draws the same orders as :meth:`movement_orders` does in Python, leaving the
        generator in the same state; None when the compiled code does not run.
        """
        memo = self._compiled
        if memo[0] is not game_map or memo[1] != switch.generation:
            fast = speedups.learned_policy(
                tables_for(game_map), self.model.weights, self._dumbbot.weights
            )
            memo = self._compiled = (game_map, switch.generation, fast)
        return memo[2]

    def movement_orders(self, pos: Position, power: int, rng: Random) -> Orders:
        """A draw of the model's orders for every unit of ``power``."""
        fast = self.compiled(pos.map)
        if fast is not None:
            assert speedups.COMPILED is not None
            cmap = speedups.compiled_map(tables_for(pos.map))
            return speedups.COMPILED.learned_orders(  # type: ignore[no-any-return]
                cmap, fast, pos, power, rng
            )
        dumb = self._dumbbot.movement_orders(pos, power, rng)
        provs, choices, base = self._board(pos, power)
        if not provs:
            return {}
        bonus = float(self._weights[_DUMBBOT_CHOICE])
        bonus_stay = bonus + float(self._weights[_DUMBBOT_CHOICE_STAY])
        picks: dict[int, int] = {}
        for prov, unit, unit_scores in zip(provs, choices, base, strict=True):
            scores = list(unit_scores)
            k = dumbbot_choice(pos, prov, dumb.get(prov, HOLD_ORDER), unit)
            scores[k] += bonus_stay if k == 0 else bonus
            top = max(scores)
            weights = [math.exp(x - top) for x in scores]
            r = rng.random() * speedups.plain_sum(weights)  # as the compiled policy adds
            k = 0
            acc = weights[0]
            while acc < r and k + 1 < len(unit):
                k += 1
                acc += weights[k]
            picks[prov] = unit[k]
        order_of = list(provs)
        rng.shuffle(order_of)
        # DumbBot's own movers claim their provinces first, so agreeing with DumbBot plays it
        order_of.sort(key=lambda p: dumb.get(p, HOLD_ORDER) != (MOVE, picks[p]))
        return orders_from_choices(pos, power, picks, order_of)

    def retreat_orders(self, pos: Position, power: int, rng: Random) -> Orders:
        """DumbBot's retreats."""
        return self._dumbbot.retreat_orders(pos, power, rng)

    def adjustment_orders(self, pos: Position, power: int, rng: Random) -> list[EngineOrder]:
        """DumbBot's builds or removals."""
        return self._dumbbot.adjustment_orders(pos, power, rng)

    def __repr__(self) -> str:
        return f"<LearnedPolicy {self.model.name}>"
