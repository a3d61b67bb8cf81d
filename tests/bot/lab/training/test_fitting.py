"""The conditional-logit fit: its gradient, recovering known weights, the held-out scores."""

from __future__ import annotations

import numpy as np
import pytest

from bot.lab.training.fitting import FitSettings, evaluate, fit_policy, loss_and_gradient
from bot.lab.training.samples import Samples


def _synthetic(weights: np.ndarray, units: int, seed: int) -> Samples:
    """Units with 2-6 random choices each, the choice taken drawn from ``weights``' softmax."""
    rng = np.random.default_rng(seed)
    sizes = rng.integers(2, 7, size=units)
    features = rng.normal(size=(int(sizes.sum()), len(weights)))
    starts = np.concatenate(([0], np.cumsum(sizes)[:-1]))
    labels = []
    for start, size in zip(starts, sizes, strict=True):
        s = features[start : start + size] @ weights
        p = np.exp(s - s.max())
        labels.append(rng.choice(size, p=p / p.sum()))
    return Samples(
        features=features,
        starts=starts.astype(np.int64),
        sizes=sizes.astype(np.int64),
        labels=np.asarray(labels, dtype=np.int64),
        dumbbot=np.full(int(sizes.sum()), 0.5),
    )


TRUE = np.array([1.5, -1.0, 0.5, 0.0])


def test_the_gradient_matches_finite_differences() -> None:
    samples = _synthetic(TRUE, 50, seed=1)
    w = np.array([0.3, -0.2, 0.1, 0.4])
    _, grad = loss_and_gradient(w, samples, l2=0.01)
    eps = 1e-6
    for i in range(len(w)):
        step = np.zeros_like(w)
        step[i] = eps
        up, _ = loss_and_gradient(w + step, samples, l2=0.01)
        down, _ = loss_and_gradient(w - step, samples, l2=0.01)
        assert grad[i] == pytest.approx((up - down) / (2 * eps), abs=1e-6)


def test_the_fit_recovers_the_weights_that_made_the_choices() -> None:
    samples = _synthetic(TRUE, 3000, seed=2)
    weights, loss = fit_policy(samples, FitSettings(steps=300, l2=0.0))
    assert np.allclose(weights, TRUE, atol=0.15), weights
    start_loss, _ = loss_and_gradient(np.zeros(4), samples, 0.0)
    assert loss < start_loss


def test_the_fit_is_deterministic() -> None:
    samples = _synthetic(TRUE, 200, seed=3)
    first, _ = fit_policy(samples, FitSettings(steps=50))
    again, _ = fit_policy(samples, FitSettings(steps=50))
    assert np.array_equal(first, again)


def test_the_true_weights_beat_the_baselines_and_zero_weights_score_as_chance() -> None:
    samples = _synthetic(TRUE, 2000, seed=4)
    good = evaluate(TRUE, samples)
    chance = evaluate(np.zeros(4), samples)
    assert good.model.accuracy > good.uniform.accuracy + 0.2
    assert good.model.log_loss < good.uniform.log_loss - 0.2
    assert chance.model.accuracy == pytest.approx(chance.uniform.accuracy)
    assert chance.model.log_loss == pytest.approx(chance.uniform.log_loss)
    # the DumbBot column here is a constant share for every choice: chance as well
    assert chance.dumbbot.log_loss == pytest.approx(chance.uniform.log_loss)
    assert good.to_dict()["units"] == 2000
    assert "model" in good.table()


def test_nothing_to_fit_is_refused() -> None:
    empty = _synthetic(TRUE, 1, seed=5)
    empty = Samples(
        features=empty.features[:0],
        starts=empty.starts[:0],
        sizes=empty.sizes[:0],
        labels=empty.labels[:0],
        dumbbot=empty.dumbbot[:0],
    )
    with pytest.raises(ValueError, match="no unit choices"):
        fit_policy(empty, FitSettings())
