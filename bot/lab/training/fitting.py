"""Fitting the order policy: a conditional logit over each unit's choices, in NumPy.

A unit's choice ``k`` has probability ``exp(x_k·w) / Σ_j exp(x_j·w)`` over its
choices' feature rows ``x``; :func:`fit_policy` minimises the mean negative
log-likelihood of the choices taken plus ``l2·|w|²/2`` by full-batch Adam from
zero weights (deterministic: no randomness at all).  :func:`evaluate` reports a
model's accuracy (its likeliest choice is the one taken) and log-loss on
samples beside two baselines: DumbBot (its choice frequencies over a few draws,
smoothed) and the uniform choice.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from bot.lab.training.samples import FloatArray, IntArray, Samples

DUMBBOT_SMOOTHING = 0.5
"""Pseudo-count added to every choice's DumbBot draws before taking its log-likelihood."""


@dataclass(frozen=True)
class FitSettings:
    """Adam's steps and learning rate, and the L2 penalty."""

    steps: int = 400
    learning_rate: float = 0.05
    l2: float = 1e-3


def _segment_log_softmax(scores: FloatArray, starts: IntArray, sizes: IntArray) -> FloatArray:
    """Each row's log-probability within its unit's choices."""
    unit_of = np.repeat(np.arange(len(sizes)), sizes)
    peak = np.maximum.reduceat(scores, starts)
    shifted = scores - peak[unit_of]
    log_total = np.log(np.add.reduceat(np.exp(shifted), starts))
    result: FloatArray = shifted - log_total[unit_of]
    return result


def loss_and_gradient(weights: FloatArray, samples: Samples, l2: float) -> tuple[float, FloatArray]:
    """The mean negative log-likelihood (plus the L2 term) and its gradient."""
    x = samples.features
    logp = _segment_log_softmax(x @ weights, samples.starts, samples.sizes)
    taken = samples.starts + samples.labels
    n = samples.units
    loss = -float(logp[taken].sum()) / n + 0.5 * l2 * float(weights @ weights)
    residual = np.exp(logp)
    residual[taken] -= 1.0
    gradient: FloatArray = x.T @ residual / n + l2 * weights
    return loss, gradient


def fit_policy(samples: Samples, settings: FitSettings) -> tuple[FloatArray, float]:
    """The fitted weights and their final training loss (ValueError without samples)."""
    if samples.units == 0:
        raise ValueError("no unit choices to fit")
    w = np.zeros(samples.features.shape[1])
    m = np.zeros_like(w)
    v = np.zeros_like(w)
    beta1, beta2, eps = 0.9, 0.999, 1e-8
    loss = math.inf
    for t in range(1, settings.steps + 1):
        loss, g = loss_and_gradient(w, samples, settings.l2)
        m = beta1 * m + (1 - beta1) * g
        v = beta2 * v + (1 - beta2) * g * g
        w = w - settings.learning_rate * (m / (1 - beta1**t)) / (np.sqrt(v / (1 - beta2**t)) + eps)
    loss, _ = loss_and_gradient(w, samples, settings.l2)
    return w, loss


@dataclass(frozen=True)
class Scores:
    """Accuracy and log-loss (nats per unit) of a predictor on some unit choices."""

    accuracy: float
    log_loss: float


@dataclass(frozen=True)
class Evaluation:
    """The model's scores beside DumbBot's and the uniform choice's, on ``units`` choices."""

    units: int
    model: Scores
    dumbbot: Scores
    uniform: Scores

    def to_dict(self) -> dict[str, object]:
        """Rounded figures for a model file's provenance."""
        return {
            "units": self.units,
            **{
                f"{who}_{what}": round(getattr(getattr(self, who), what), 4)
                for who in ("model", "dumbbot", "uniform")
                for what in ("accuracy", "log_loss")
            },
        }

    def table(self) -> str:
        """A small plain-text table."""
        lines = [f"{'predictor':<10} {'accuracy':>9} {'log-loss':>9}"]
        for who in ("model", "dumbbot", "uniform"):
            s: Scores = getattr(self, who)
            lines.append(f"{who:<10} {s.accuracy:>9.3f} {s.log_loss:>9.3f}")
        return "\n".join(lines)


def evaluate(weights: FloatArray, samples: Samples) -> Evaluation:
    """The scores of ``weights`` and of the baselines on ``samples`` (which must not be empty)."""
    starts, sizes, labels = samples.starts, samples.sizes, samples.labels
    taken = starts + labels
    n = samples.units
    unit_of = np.repeat(np.arange(n), sizes)
    logp = _segment_log_softmax(samples.features @ weights, starts, sizes)

    def accuracy(values: FloatArray) -> float:
        best = np.maximum.reduceat(values, starts)
        # a tie counts as a share of a hit, so a constant predictor scores as chance
        ties = np.add.reduceat((values == best[unit_of]).astype(np.float64), starts)
        hit = values[taken] == best
        return float(np.where(hit, 1.0 / ties, 0.0).mean())

    counts = samples.dumbbot + DUMBBOT_SMOOTHING / 8
    dumb_logp = np.log(counts) - np.log(np.add.reduceat(counts, starts))[unit_of]
    return Evaluation(
        units=n,
        model=Scores(accuracy(logp), -float(logp[taken].mean())),
        dumbbot=Scores(accuracy(samples.dumbbot), -float(dumb_logp[taken].mean())),
        uniform=Scores(float((1.0 / sizes).mean()), float(np.log(sizes).mean())),
    )
