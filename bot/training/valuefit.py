"""Fitting a value model (:mod:`search.valuemodel`) on the outcomes of recorded games.

Every movement phase of every recorded game (:func:`bot.training.samples.read_games`)
gives one sample per power that still has a unit or a centre: the features of the
position for that power (:func:`search.valuemodel.position_features`), the movement
phases left to the game's final year, and the power's final share (its final centres
over the winning count, capped at 1; 1 for its solo, 0 for another's).  The last games
(a share ``held_out`` of them) are held out.

:func:`fit_value` fits one ridge regression (closed form, no penalty on the bias) per
number of phases left; :func:`evaluate_value` scores a model on held-out samples in
centres (R² and mean absolute error of the predicted final centres) beside two
baselines: the current centres, and the current centres times the training games'
mean growth for that many phases left.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from adjudicator.maps import standard_map
from adjudicator.position import MOVEMENT_SEASONS
from bot.training.samples import SampleError, phase_position
from search.valuemodel import VALUE_FEATURES, ValueModel, phases_left, position_features

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

_CENTRES = VALUE_FEATURES.index("centres")


@dataclass(frozen=True)
class ValueSamples:
    """One row per (phase, power): features, movement phases left, and the final share."""

    features: FloatArray
    phases: IntArray
    targets: FloatArray
    win_centres: int

    @property
    def size(self) -> int:
        """How many samples there are."""
        return len(self.targets)


def final_shares(centres: Sequence[int], win_centres: int) -> list[float]:
    """Each power's final share: centres over ``win_centres``, capped; 1 and 0s for a solo."""
    winners = [p for p, c in enumerate(centres) if c >= win_centres]
    if len(winners) == 1:
        return [1.0 if p == winners[0] else 0.0 for p in range(len(centres))]
    return [min(1.0, c / win_centres) for c in centres]


def value_samples(games: Sequence[dict[str, Any]], held_out: float) -> tuple[ValueSamples, ...]:
    """The samples of ``games``: (training, held-out), the last ``ceil(held_out * n)`` held out."""
    m = standard_map()
    cut = len(games) - math.ceil(held_out * len(games))
    parts: tuple[tuple[list[FloatArray], list[int], list[float]], ...] = (
        ([], [], []),
        ([], [], []),
    )
    for index, game in enumerate(games):
        rows, phases, targets = parts[0 if index < cut else 1]
        try:
            final_year = int(game["final_year"])
            shares = final_shares([int(c) for c in game["centres"]], m.win_centres)
            positions = [phase_position(m, phase) for phase in game["phases"]]
        except (KeyError, TypeError, ValueError) as exc:
            raise SampleError(f"game {game.get('game')}: cannot be read ({exc})") from None
        for pos in positions:
            if pos.season not in MOVEMENT_SEASONS:
                continue
            features = position_features(pos)
            left = phases_left(pos, final_year)
            for power, row in enumerate(features):
                if any(u[0] == power for u in pos.units.values()) or power in pos.owners:
                    rows.append(row)
                    phases.append(left)
                    targets.append(shares[power])
    return tuple(
        ValueSamples(
            features=np.asarray(rows, dtype=np.float64).reshape(-1, len(VALUE_FEATURES)),
            phases=np.asarray(phases, dtype=np.int64),
            targets=np.asarray(targets, dtype=np.float64),
            win_centres=m.win_centres,
        )
        for rows, phases, targets in parts
    )


def fit_value(samples: ValueSamples, l2: float) -> tuple[tuple[int, ...], list[FloatArray]]:
    """Ridge weights per number of phases left: ``(phases, weights)``, in increasing phases."""
    phases = tuple(int(p) for p in np.unique(samples.phases))
    penalty = l2 * np.eye(len(VALUE_FEATURES))
    penalty[0, 0] = 0.0  # the bias is not shrunk
    weights = []
    for left in phases:
        mask = samples.phases == left
        x = samples.features[mask]
        y = samples.targets[mask]
        weights.append(np.linalg.lstsq(x.T @ x + penalty, x.T @ y, rcond=None)[0])
    return phases, weights


def growth(samples: ValueSamples) -> dict[int, float]:
    """The mean final share over the mean current share, per number of phases left."""
    out = {}
    for left in np.unique(samples.phases):
        mask = samples.phases == left
        now = samples.features[mask, _CENTRES].mean()
        out[int(left)] = float(samples.targets[mask].mean() / now) if now > 0 else 1.0
    return out


@dataclass(frozen=True)
class Fit:
    """R² and mean absolute error (in centres) of predicted final centres."""

    r2: float
    mae: float

    def to_dict(self) -> dict[str, float]:
        """Rounded figures, for a model file's provenance."""
        return {"r2": round(self.r2, 4), "mae_centres": round(self.mae, 4)}


def _fit(predicted: FloatArray, samples: ValueSamples) -> Fit:
    scale = samples.win_centres
    error = (predicted - samples.targets) * scale
    spread = ((samples.targets - samples.targets.mean()) * scale) ** 2
    total = float(spread.sum())
    r2 = 1.0 - float((error**2).sum()) / total if total > 0 else 0.0
    return Fit(r2=r2, mae=float(np.abs(error).mean()))


@dataclass(frozen=True)
class ValueEvaluation:
    """A value model beside the baselines on the same samples."""

    model: Fit
    centres: Fit
    growth: Fit
    samples: int

    def to_dict(self) -> dict[str, object]:
        """The figures, for a model file's provenance."""
        return {
            "samples": self.samples,
            "model": self.model.to_dict(),
            "current_centres": self.centres.to_dict(),
            "centres_times_growth": self.growth.to_dict(),
        }

    def table(self) -> str:
        """The figures as a small table."""
        lines = [f"{'held out':28s} {'R^2':>7s} {'MAE (centres)':>14s}"]
        for label, fit in (
            ("value model", self.model),
            ("current centres", self.centres),
            ("centres x mean growth", self.growth),
        ):
            lines.append(f"{label:28s} {fit.r2:7.3f} {fit.mae:14.3f}")
        return "\n".join(lines)


def evaluate_value(
    model: ValueModel, samples: ValueSamples, growth_by_phases: dict[int, float]
) -> ValueEvaluation:
    """The model's and the baselines' fit on ``samples`` (growth from the training samples)."""
    predicted = np.empty(samples.size)
    scaled = np.empty(samples.size)
    current = samples.features[:, _CENTRES]
    for left in np.unique(samples.phases):
        mask = samples.phases == left
        predicted[mask] = np.clip(samples.features[mask] @ model.weights_for(int(left)), 0, 1)
        nearest = min(growth_by_phases, key=lambda k: abs(k - int(left)))
        scaled[mask] = np.minimum(1.0, current[mask] * growth_by_phases[nearest])
    return ValueEvaluation(
        model=_fit(predicted, samples),
        centres=_fit(current, samples),
        growth=_fit(scaled, samples),
        samples=samples.size,
    )
