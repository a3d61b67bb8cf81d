"""A learned value of a position: the share of the centres a power ends the game with.

A :class:`ValueModel` predicts a power's *final* centres over the winning count
(capped at 1; 1 for its solo, 0 for another's) from a dozen features of the
position (:data:`VALUE_FEATURES`: its centres, units, home centres held, centres it
can take next phase, its centres enemies can reach, who stands next to it, the
strongest enemy, ...).  It is linear, one weight vector per number of movement
phases left in the game (:func:`phases_left`), fitted by ridge regression on the
outcomes of recorded games (``daide-mcts train value``, :mod:`bot.training.valuefit`).

The search uses it to value a rollout that stops before the game's end
(``mcts:dm/value=NAME``, :mod:`search.mcts.domain`).  Such a rollout stops in a
winter, before its adjustments: the features read a winter position as the spring
after it (the units its adjustments will leave, the phases left from that spring).

Models are JSON files found by name as the order models are
(:func:`search.orderpolicy.model_path`): ``search/models/<name>.json`` or a folder of
``$DAIDE_MCTS_MODELS``.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from adjudicator.maps import GameMap
from adjudicator.position import AUTUMN, FALL, NOBODY, WINTER, Position
from search.orderpolicy import ModelError, model_path

VALUE_FORMAT = "daide-mcts value model"
"""The ``format`` field every value model file carries."""

VALUE_VERSION = 1
"""The value model file layout this module reads (features and their order included)."""

VALUE_FEATURES = (
    "bias",
    "centres",
    "centres_squared",
    "units",
    "homes_held",
    "targets_in_reach",
    "targets_unguarded",
    "centres_threatened",
    "centres_exposed",
    "enemy_units_adjacent",
    "enemy_powers_adjacent",
    "strongest_enemy",
    "neutral_centres",
    "powers_alive",
)
"""The features of (position, power), in weight order; counts of centres and units are
divided by the winning count, counts of powers by the enemies there are.

``targets_in_reach``: centres not ours that a unit of ours can reach next phase;
``targets_unguarded``: those that no enemy unit stands on or can reach;
``centres_threatened``: our centres an enemy unit can reach; ``centres_exposed``:
those that no unit of ours stands on or can reach; ``enemy_units_adjacent`` and
``enemy_powers_adjacent``: the enemy units (and their powers) that can reach a
province where we stand or a centre of ours."""

FloatArray = npt.NDArray[np.float64]


def phases_left(pos: Position, final_year: int) -> int:
    """Movement phases still to play in a game ending in winter of ``final_year``.

    The current one counts if it is still to play; a winter counts as the spring after it.
    """
    if pos.season == WINTER:
        return 2 * (final_year - pos.year)
    if pos.season in (FALL, AUTUMN):
        return 2 * (final_year - pos.year) + 1
    return 2 * (final_year - pos.year) + 2


@dataclass(frozen=True)
class _MapArrays:
    """A map's tables as arrays: the features of every power are computed at once."""

    centre: npt.NDArray[np.bool_]
    homes: npt.NDArray[np.bool_]  # homes[power, province]
    home_counts: FloatArray
    reach: npt.NDArray[np.bool_]  # reach[unit_type * num_locations + loc, province]


@cache
def _arrays(m: GameMap) -> _MapArrays:
    homes = np.zeros((m.num_powers, m.num_provinces), dtype=np.bool_)
    for power, provinces in enumerate(m.homes):
        homes[power, list(provinces)] = True
    reach = np.zeros((2 * m.num_locations, m.num_provinces), dtype=np.bool_)
    for unit_type in (0, 1):
        for loc in range(m.num_locations):
            if m.can_stand(unit_type, loc):
                reach[unit_type * m.num_locations + loc, list(m.reach(unit_type, loc))] = True
    return _MapArrays(
        centre=np.asarray(m.is_supply, dtype=np.bool_),
        homes=homes,
        home_counts=np.maximum(1, homes.sum(axis=1)).astype(np.float64),
        reach=reach,
    )


def position_features(pos: Position) -> FloatArray:
    """The features (:data:`VALUE_FEATURES`) of every power in ``pos``: one row per power."""
    m = pos.map
    arrays = _arrays(m)
    powers = m.num_powers
    scale = float(m.win_centres)
    units = pos.units
    unit_power = np.fromiter((u[0] for u in units.values()), dtype=np.int64, count=len(units))
    rows = np.fromiter(
        (u[1] * m.num_locations + u[2] for u in units.values()), dtype=np.int64, count=len(units)
    )
    stands = np.fromiter(units, dtype=np.int64, count=len(units))
    member = unit_power[None, :] == np.arange(powers)[:, None]  # member[power, unit]
    unit_reach = arrays.reach[rows]  # unit_reach[unit, province]
    reach_count = member.astype(np.int64) @ unit_reach.astype(np.int64)
    in_reach = reach_count > 0  # in_reach[power, province]
    enemy_reach = (reach_count.sum(axis=0)[None, :] - reach_count) > 0
    occupant = np.full(m.num_provinces, NOBODY, dtype=np.int64)
    occupant[stands] = unit_power
    owners = np.asarray(pos.owners, dtype=np.int64)
    owned = (owners[None, :] == np.arange(powers)[:, None]) & arrays.centre[None, :]
    ours_here = occupant[None, :] == np.arange(powers)[:, None]
    enemy_here = (occupant[None, :] != NOBODY) & ~ours_here
    centres = owned.sum(axis=1).astype(np.float64)
    unit_counts = member.sum(axis=1).astype(np.float64)
    if pos.season == WINTER:
        free_homes = (owned & arrays.homes & (occupant[None, :] == NOBODY)).sum(axis=1)
        unit_counts = np.where(
            unit_counts >= centres, centres, np.minimum(centres, unit_counts + free_homes)
        )
    targets = arrays.centre[None, :] & ~owned & in_reach
    threatened = owned & enemy_reach
    exposed = threatened & ~in_reach & ~ours_here
    touched = unit_reach.astype(np.int64) @ (owned | ours_here).T.astype(np.int64) > 0
    enemy_touch = touched & ~member.T  # enemy_touch[unit, power]
    touching_powers = (member.astype(np.int64) @ enemy_touch.astype(np.int64)) > 0
    strongest = np.array(
        [np.max(np.delete(centres, q)) if powers > 1 else 0.0 for q in range(powers)]
    )
    neutral = float(np.count_nonzero(arrays.centre & (owners == NOBODY)))
    alive = float(np.count_nonzero((centres > 0) | (unit_counts > 0)))
    enemies = float(max(1, powers - 1))
    columns = (
        np.ones(powers),
        centres / scale,
        (centres / scale) ** 2,
        unit_counts / scale,
        (owned & arrays.homes).sum(axis=1) / arrays.home_counts,
        targets.sum(axis=1) / scale,
        (targets & ~enemy_reach & ~enemy_here).sum(axis=1) / scale,
        threatened.sum(axis=1) / scale,
        exposed.sum(axis=1) / scale,
        enemy_touch.sum(axis=0) / scale,
        touching_powers.sum(axis=0) / enemies,
        strongest / scale,
        np.full(powers, neutral / scale),
        np.full(powers, alive / m.num_powers),
    )
    return np.column_stack(columns).astype(np.float64)


@dataclass(frozen=True)
class ValueModel:
    """A linear value: weights per number of movement phases left, and where they came from.

    ``weights[k]`` is the weight vector (one per :data:`VALUE_FEATURES`) of positions
    with ``phases[k]`` movement phases left; a position with more (or fewer) phases
    left than any is valued by the nearest.
    """

    phases: tuple[int, ...]
    weights: tuple[tuple[float, ...], ...]
    name: str = "untrained"
    provenance: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    def __post_init__(self) -> None:
        if not self.phases or len(self.phases) != len(self.weights):
            raise ModelError("a value model needs one weight vector per number of phases left")
        if list(self.phases) != sorted(set(self.phases)):
            raise ModelError("a value model's phases left must be distinct and increasing")
        for row in self.weights:
            if len(row) != len(VALUE_FEATURES) or not all(math.isfinite(w) for w in row):
                raise ModelError(f"a value model needs {len(VALUE_FEATURES)} finite weights")

    def weights_for(self, left: int) -> FloatArray:
        """The weight vector of positions with ``left`` movement phases left."""
        k = int(np.argmin(np.abs(np.asarray(self.phases) - left)))
        return np.asarray(self.weights[k], dtype=np.float64)

    def value(self, pos: Position, power: int, final_year: int) -> float:
        """``power``'s predicted final share in ``pos`` (a game ending in ``final_year``).

        The products of features and weights are summed in feature order and clamped
        to [0, 1], as the compiled value (``search._fastbot.CValue``) does.
        """
        features = position_features(pos)[power].tolist()
        total = 0.0
        weights = self.weights_for(phases_left(pos, final_year)).tolist()
        for x, w in zip(features, weights, strict=True):
            total += x * w
        return min(1.0, max(0.0, total))

    def to_json(self) -> dict[str, Any]:
        """The model file's content."""
        return {
            "format": VALUE_FORMAT,
            "version": VALUE_VERSION,
            "name": self.name,
            "features": list(VALUE_FEATURES),
            "phases_left": list(self.phases),
            "weights": [list(row) for row in self.weights],
            "provenance": self.provenance,
        }

    def save(self, path: Path) -> None:
        """Write the model file."""
        path.write_text(json.dumps(self.to_json(), indent=1) + "\n")

    @classmethod
    def from_json(cls, data: object) -> ValueModel:
        """The model in a parsed model file; :class:`ModelError` if it is not one."""
        if not isinstance(data, dict) or data.get("format") != VALUE_FORMAT:
            raise ModelError(f"not a value model (no format {VALUE_FORMAT!r})")
        if data.get("version") != VALUE_VERSION or data.get("features") != list(VALUE_FEATURES):
            raise ModelError(
                f"a value model of another layout (version {data.get('version')!r}); "
                f"this build reads version {VALUE_VERSION}: retrain it with daide-mcts train value"
            )
        phases = data.get("phases_left")
        weights = data.get("weights")
        if not isinstance(phases, list) or not all(
            isinstance(p, int) and not isinstance(p, bool) for p in phases
        ):
            raise ModelError("a value model's phases_left must be a list of integers")
        if not isinstance(weights, list) or not all(
            isinstance(row, list) and all(_is_number(w) for w in row) for row in weights
        ):
            raise ModelError("a value model's weights must be lists of numbers")
        provenance = data.get("provenance", {})
        return cls(
            tuple(phases),
            tuple(tuple(float(w) for w in row) for row in weights),
            name=str(data.get("name", "untrained")),
            provenance=provenance if isinstance(provenance, dict) else {},
        )


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def load_value_model(name_or_path: str) -> ValueModel:
    """The value model named ``name`` (as :func:`~search.orderpolicy.model_path` finds it).

    Raises :class:`~search.orderpolicy.ModelError` when there is none or it cannot be read.
    """
    path = model_path(name_or_path, "value model")
    try:
        return _read_value_model(str(path.resolve()), path.stat().st_mtime_ns)
    except OSError as exc:
        raise ModelError(f"cannot read the value model {str(path)!r}: {exc}") from None


@cache
def _read_value_model(path: str, mtime_ns: int) -> ValueModel:
    """The model in the file (cached per file version: every search asks for it)."""
    del mtime_ns
    try:
        data = json.loads(Path(path).read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ModelError(f"cannot read the value model {path!r}: {exc}") from None
    return ValueModel.from_json(data)
