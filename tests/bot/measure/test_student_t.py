"""Student's t quantiles against published tables, and the distribution they invert."""

from __future__ import annotations

import math

import pytest

from bot.measure.student_t import incomplete_beta, t95, t_cdf, t_quantile

# t(0.975, df), the two-sided 95% factor, from the standard tables (and scipy.stats.t.ppf).
TABLE_95 = [
    (1, 12.7062047),
    (2, 4.3026527),
    (3, 3.1824463),
    (5, 2.5705818),
    (9, 2.2621572),
    (10, 2.2281389),
    (29, 2.0452296),
    (30, 2.0422725),
    (60, 2.0002978),
    (100, 1.9839715),
    (1000, 1.9623391),
]

# Other tail probabilities: (p, df, t(p, df)).
TABLE_OTHER = [
    (0.9, 3, 1.6377444),
    (0.95, 7, 1.8945786),
    (0.995, 10, 3.1692727),
    (0.9995, 4, 8.6103016),
    (0.75, 1, 1.0),  # Cauchy: tan(pi/4)
    (0.6, 2, 0.2886751),  # closed form for df=2: t = (2p-1)·sqrt(2/(4p(1-p)))
]


@pytest.mark.parametrize(("df", "expected"), TABLE_95)
def test_the_95_percent_factor_matches_the_tables(df: int, expected: float) -> None:
    assert t95(df) == pytest.approx(expected, abs=5e-7)


@pytest.mark.parametrize(("p", "df", "expected"), TABLE_OTHER)
def test_other_quantiles_match_the_tables(p: float, df: int, expected: float) -> None:
    assert t_quantile(p, df) == pytest.approx(expected, abs=5e-7)
    assert t_quantile(1 - p, df) == pytest.approx(-expected, abs=5e-7)


def test_large_samples_tend_to_the_normal_quantile() -> None:
    assert t95(math.inf) == pytest.approx(1.959964, abs=1e-6)
    assert t95(10**6) == pytest.approx(1.959964, abs=1e-5)
    assert t95(1000) > t95(10**4) > t95(math.inf)


def test_fractional_degrees_of_freedom_lie_between_their_neighbours() -> None:
    assert t95(2) > t95(2.5) > t95(3)
    assert t_cdf(t95(2.5), 2.5) == pytest.approx(0.975, abs=1e-12)


def test_the_distribution_function_is_the_cauchy_one_at_one_degree() -> None:
    for t in (-3.0, -0.5, 0.0, 0.7, 12.0):
        assert t_cdf(t, 1) == pytest.approx(0.5 + math.atan(t) / math.pi, abs=1e-12)


def test_the_incomplete_beta_function_has_its_closed_forms() -> None:
    # I_x(a, 1) = x^a and I_x(1, b) = 1 - (1 - x)^b
    for x in (0.0, 0.1, 0.5, 0.93, 1.0):
        assert incomplete_beta(3.0, 1.0, x) == pytest.approx(x**3, abs=1e-12)
        assert incomplete_beta(1.0, 4.5, x) == pytest.approx(1 - (1 - x) ** 4.5, abs=1e-12)


@pytest.mark.parametrize(
    ("p", "df"), [(0.0, 3), (1.0, 3), (1.5, 3), (0.975, 0), (0.975, -1), (0.975, math.nan)]
)
def test_impossible_arguments_are_refused(p: float, df: float) -> None:
    with pytest.raises(ValueError):
        t_quantile(p, df)
