"""Means with 95% intervals and paired differences between arena runs."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from search.comparison import compare, estimate, paired, seat_centres


def _run(centres: list[list[int]], powers: list[str]) -> dict[str, object]:
    games = [
        {"index": k, "powers": [powers[k], "X"], "centres": list(c)} for k, c in enumerate(centres)
    ]
    return {"lineup": ["mcts:a", "dumbbot"], "games": games}


def test_an_estimate_is_the_mean_and_its_normal_interval() -> None:
    e = estimate([4.0, 6.0, 8.0])
    assert e.mean == 6.0 and e.n == 3
    assert e.half_width == pytest.approx(1.96 * 2.0 / math.sqrt(3))
    assert estimate([5.0]).half_width == math.inf
    with pytest.raises(ValueError):
        estimate([])


def test_paired_differences_need_the_same_powers(tmp_path: Path) -> None:
    a = _run([[9, 3], [7, 5], [8, 4]], ["FRA", "TUR", "ENG"])
    b = _run([[8, 3], [7, 5], [5, 4]], ["FRA", "TUR", "ENG"])
    assert seat_centres(a) == [9, 7, 8]
    diff = paired(a, b)
    assert diff.mean == pytest.approx(4 / 3) and diff.n == 3
    other = _run([[8, 3], [7, 5], [5, 4]], ["FRA", "RUS", "ENG"])
    with pytest.raises(ValueError, match="different powers"):
        paired(a, other)
    (tmp_path / "a.json").write_text(json.dumps(a))
    (tmp_path / "b.json").write_text(json.dumps(other))
    text = compare(tmp_path / "a.json", tmp_path / "b.json")
    assert "mcts:a 8.00 ±" in text and "not paired" in text
