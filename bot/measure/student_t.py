"""Student's t distribution: its quantiles, for the 95% intervals of small samples.

A mean of ``n`` values has the interval ``mean ± t(0.975, n - 1)·sd/√n``; the
normal quantile 1.96 is the limit for large ``n`` and too narrow below about
thirty values (twelve-fold at ``n = 2``).  SciPy would give the quantile but
is not a dependency of the core, so it is found here: the distribution
function from the regularized incomplete beta function (Lentz's continued
fraction, as in *Numerical Recipes* §6.4), inverted by bisection.
"""

from __future__ import annotations

import functools
import math
from statistics import NormalDist

CONFIDENCE = 0.95
"""The two-sided coverage of the project's intervals."""

_EPSILON = 1e-15
"""Relative precision the continued fraction stops at."""
_TINY = 1e-300
"""Stands in for a zero denominator in Lentz's method."""
_MAX_TERMS = 1000
"""Continued fraction terms at most (a few dozen suffice for the degrees of freedom we meet)."""
_BISECTIONS = 200
"""Halvings of the bracket: enough to reach the floating point resolution."""


def _continued_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function ``I_x(a, b)`` (Lentz)."""
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > _TINY else _TINY)
    fraction = d
    for m in range(1, _MAX_TERMS + 1):
        for numerator in (
            m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
            -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1)),
        ):
            d = 1.0 + numerator * d
            d = 1.0 / (d if abs(d) > _TINY else _TINY)
            c = 1.0 + numerator / c
            c = c if abs(c) > _TINY else _TINY
            step = c * d
            fraction *= step
        if abs(step - 1.0) < _EPSILON:
            break
    return fraction


def incomplete_beta(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function ``I_x(a, b)`` (``a, b > 0``, ``0 ≤ x ≤ 1``)."""
    if a <= 0 or b <= 0:
        raise ValueError(f"the beta function's parameters must be positive, not {a}, {b}")
    if not 0.0 <= x <= 1.0:
        raise ValueError(f"x must lie in [0, 1], not {x}")
    if x in (0.0, 1.0):
        return x
    log_front = (
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    )
    front = math.exp(log_front)
    # The fraction converges fast below the mean a/(a+b); above it use the symmetry.
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _continued_fraction(a, b, x) / a
    return 1.0 - front * _continued_fraction(b, a, 1.0 - x) / b


def t_cdf(t: float, df: float) -> float:
    """``P(T ≤ t)`` for Student's t with ``df`` (> 0, not necessarily whole) degrees of freedom."""
    if df <= 0:
        raise ValueError(f"degrees of freedom must be positive, not {df}")
    tail = 0.5 * incomplete_beta(df / 2.0, 0.5, df / (df + t * t))
    return 1.0 - tail if t > 0 else tail


def t_quantile(p: float, df: float) -> float:
    """The ``t`` with ``P(T ≤ t) = p`` for Student's t with ``df`` degrees of freedom.

    ``p`` lies strictly between 0 and 1; ``df`` is positive (a Welch-Satterthwaite
    count may be fractional).  ValueError otherwise.
    """
    if not 0.0 < p < 1.0:
        raise ValueError(f"a quantile's probability lies strictly between 0 and 1, not {p}")
    if df <= 0 or math.isnan(df):
        raise ValueError(f"degrees of freedom must be positive, not {df}")
    if p == 0.5:
        return 0.0
    if p < 0.5:
        return -t_quantile(1.0 - p, df)
    low, high = 0.0, 1.0
    while t_cdf(high, df) < p:
        low, high = high, high * 2.0
    for _ in range(_BISECTIONS):
        middle = (low + high) / 2.0
        if middle in (low, high):
            break
        if t_cdf(middle, df) < p:
            low = middle
        else:
            high = middle
    return (low + high) / 2.0


@functools.cache
def t95(df: float) -> float:
    """The factor of a two-sided 95% interval with ``df`` degrees of freedom (``t(0.975, df)``).

    Infinite ``df`` gives the normal quantile 1.959964.
    """
    p = 1.0 - (1.0 - CONFIDENCE) / 2.0
    if math.isinf(df):
        return NormalDist().inv_cdf(p)
    return t_quantile(p, df)
