"""Comparing players from arena runs: means with 95% intervals, and paired differences.

Two arena runs with the same seed and the same number of seats deal the powers
alike in every game, so the first seat's centres can be compared game by game
(the *paired* difference), which removes most of the spread that comes from
the powers drawn.  :func:`compare` reads two ``arena --json`` files and says
how the first seat did in each, alone and paired.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

Z95 = 1.96
"""The normal quantile of a two-sided 95% interval."""


@dataclass(frozen=True)
class Estimate:
    """A mean over ``n`` values and the half-width of its 95% interval (1.96·sd/√n)."""

    mean: float
    half_width: float
    n: int

    def __str__(self) -> str:
        return f"{self.mean:.2f} ± {self.half_width:.2f} (n={self.n})"


def estimate(values: Sequence[float]) -> Estimate:
    """The mean of ``values`` with its 95% interval (sample standard deviation)."""
    n = len(values)
    if n == 0:
        raise ValueError("no values to estimate from")
    mean = sum(values) / n
    if n == 1:
        return Estimate(mean, math.inf, 1)
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return Estimate(mean, Z95 * math.sqrt(var / n), n)


def seat_centres(run: dict[str, object], seat: int = 0) -> list[int]:
    """The centres of ``seat`` in every game of an arena run (its JSON as a dict)."""
    games = run["games"]
    assert isinstance(games, list)
    return [int(g["centres"][seat]) for g in games]


def others_mean(run: dict[str, object], seat: int = 0) -> list[float]:
    """Per game, the mean centres of every seat but ``seat``."""
    games = run["games"]
    assert isinstance(games, list)
    out = []
    for g in games:
        others = [c for k, c in enumerate(g["centres"]) if k != seat]
        out.append(sum(others) / len(others))
    return out


def paired(a: dict[str, object], b: dict[str, object], seat: int = 0) -> Estimate:
    """``seat``'s centres in run ``a`` minus in run ``b``, game by game (same powers dealt).

    ValueError if the runs did not deal the same powers (another seed or lineup size).
    """
    games_a, games_b = a["games"], b["games"]
    assert isinstance(games_a, list) and isinstance(games_b, list)
    n = min(len(games_a), len(games_b))
    diffs = []
    for ga, gb in zip(games_a[:n], games_b[:n], strict=True):
        if ga["powers"][seat] != gb["powers"][seat]:
            raise ValueError(f"game {ga['index']}: the runs dealt {seat}'s seat different powers")
        diffs.append(float(ga["centres"][seat] - gb["centres"][seat]))
    return estimate(diffs)


def compare(first: Path, second: Path) -> str:
    """A few lines on the first seat of two arena runs: each alone, and paired if they match."""
    a, b = (json.loads(p.read_text()) for p in (first, second))
    lines = []
    for path, run in ((first, a), (second, b)):
        lines.append(
            f"{path.name}: {run['lineup'][0]} {estimate(seat_centres(run))}, "
            f"others {estimate(others_mean(run))}"
        )
    try:
        lines.append(f"paired (first - second): {paired(a, b)}")
    except ValueError as exc:
        lines.append(f"not paired: {exc}")
    return "\n".join(lines)
