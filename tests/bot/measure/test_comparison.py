"""Means with 95% intervals, margins over other labels, and paired differences between runs."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import replace

import pytest

from bot.measure.comparison import (
    ComparisonError,
    Run,
    at_year,
    estimate,
    focus_label,
    pair,
    standing,
    stratified,
)
from bot.measure.metrics import GameRecord
from bot.measure.student_t import t95

POWERS = ("AUS", "ENG", "FRA", "GER", "ITA", "RUS", "TUR")


def _game(index: int, powers: Sequence[str], centres: Sequence[int]) -> GameRecord:
    return GameRecord.scored(
        index=index,
        powers=powers,
        years=(1900, 1901),
        curve=((3,) * len(centres), tuple(centres)),
        centres=centres,
        eliminated=[None] * len(centres),
        solo=None,
        end="WIN 1901",
        seconds=1.0,
    )


def _run(
    lineup: Sequence[str],
    games: Sequence[tuple[Sequence[str], Sequence[int]]],
    seed: int | None = 1,
) -> Run:
    played = tuple(_game(k, p, c) for k, (p, c) in enumerate(games))
    return Run("test", tuple(lineup), seed, played)


def test_an_estimate_is_the_mean_and_its_student_t_interval() -> None:
    e = estimate([4.0, 6.0, 8.0])
    assert e.mean == 6.0 and e.n == 3
    assert e.half_width == pytest.approx(4.3026527 * 2.0 / math.sqrt(3))  # t(0.975, 2)
    # Thirty values: t(0.975, 29) = 2.045, already close to the normal 1.96.
    thirty = estimate([float(k % 2) for k in range(30)])
    sd = math.sqrt(15 * 0.25 * 30 / 29 / 15)  # stdev of fifteen 0s and fifteen 1s
    assert thirty.half_width == pytest.approx(2.0452296 * sd / math.sqrt(30))
    assert estimate([5.0]).half_width == math.inf
    assert estimate([5.0]).as_dict()["half_width"] is None
    with pytest.raises(ValueError):
        estimate([])


@pytest.mark.parametrize(
    ("lineup", "focus"),
    [
        (("mcts:dm", "dbrane", "dbrane", "dumbbot"), "mcts:dm"),
        (("dbrane", "dbrane", "dumbbot", "mcts:dm"), "dumbbot"),  # tied: the earliest
        (("dumbbot",) * 7, "dumbbot"),
    ],
)
def test_the_focus_is_the_label_with_the_fewest_seats(lineup: tuple[str, ...], focus: str) -> None:
    assert focus_label(lineup) == focus


def test_a_standing_gives_centres_and_the_margin_over_each_other_label() -> None:
    lineup = ("ours", "db", "db", "dumb")
    run = _run(lineup, [(POWERS[:4], (8, 5, 3, 2)), (POWERS[:4], (6, 7, 5, 0))])
    result = standing([run])
    assert result.label == "ours"
    assert result.centres.mean == 7.0 and result.centres.n == 2
    # game 1: 8 - 4 = +4, game 2: 6 - 6 = 0
    assert result.margins["db"].mean == pytest.approx(2.0)
    assert result.margins["dumb"].mean == pytest.approx(6.0)
    assert list(result.margins) == ["db", "dumb"]
    assert result.lines()[0].startswith("ours: 7.00 ± ")
    assert list(result.by_power) == ["AUS"] and result.balanced is None
    # Another label on request: the mean of the seats it holds, with no power of its own.
    db = standing([run], "db")
    assert db.centres.mean == pytest.approx(5.0) and db.by_power == {} and db.balanced is None


def test_the_power_balanced_mean_weighs_every_power_alike() -> None:
    result = stratified({"AUS": [1.0, 3.0], "RUS": [5.0, 7.0, 6.0, 6.0]})
    assert result is not None and result.mean == pytest.approx(4.0) and result.n == 6
    shares = (2.0 / 2 / 4, (2 / 3) / 4 / 4)  # (s²/n of each power) / powers²
    variance = sum(shares)
    # Welch-Satterthwaite: 0.2917² / (0.25²/1 + 0.0417²/3) = 1.3486 degrees of freedom
    df = variance**2 / (shares[0] ** 2 / 1 + shares[1] ** 2 / 3)
    assert df == pytest.approx(1.3486, abs=1e-4)
    assert result.half_width == pytest.approx(t95(df) * math.sqrt(variance))
    assert t95(2) < t95(df) < t95(1)
    flat = stratified({"AUS": [2.0, 2.0], "RUS": [5.0, 5.0]})
    assert flat is not None and flat.mean == 3.5 and flat.half_width == 0.0
    assert stratified({"AUS": [1.0, 3.0]}) is None
    assert stratified({"AUS": [1.0, 3.0], "RUS": [5.0]}) is None
    # A row that dealt Russia three times as often as Austria:
    lineup = ("ours", "db")
    games = [(("AUS", "RUS"), (2, 5)), (("AUS", "RUS"), (4, 3))]
    games += [(("RUS", "AUS"), (8, 1)), (("RUS", "AUS"), (10, 2))] * 3
    row = standing([_run(lineup, games)])
    assert row.centres.mean == pytest.approx(7.5)
    assert row.balanced is not None and row.balanced.mean == pytest.approx(6.0)
    assert {p: e.mean for p, e in row.by_power.items()} == {"AUS": 3.0, "RUS": 9.0}
    assert "power-balanced: 6.00 ± " in "\n".join(row.lines())


def test_runs_pool_and_a_missing_label_is_refused() -> None:
    a = _run(("ours", "db"), [(POWERS[:2], (6, 4))] * 3)
    b = _run(("ours", "db"), [(POWERS[:2], (4, 6))] * 3)
    pooled = standing([a, b])
    assert pooled.centres.mean == 5.0 and pooled.centres.n == 6
    assert pooled.margins["db"].mean == 0.0
    with pytest.raises(ComparisonError, match="no seat labelled 'x'"):
        standing([a, b], "x")
    with pytest.raises(ComparisonError, match="no run"):
        standing([])


def test_a_label_holding_every_seat_speaks_through_its_first_seat() -> None:
    run = _run(("dm",) * 3, [(POWERS[:3], (6, 3, 3)), (POWERS[:3], (2, 5, 5))])
    assert run.focus("dm") == (0,) and run.others("dm") == {"dm": (1, 2)}
    result = standing([run])
    assert result.label == "dm (first seat)"
    assert result.centres.mean == 4.0 and result.margins["dm"].mean == 0.0


def test_pairs_match_by_seed_game_and_power_and_count_the_rest() -> None:
    lineup_a, lineup_b = ("new", "db", "dumb"), ("old", "db", "dumb")
    a = _run(
        lineup_a,
        [
            (("FRA", "GER", "ITA"), (7, 4, 1)),
            (("GER", "ITA", "FRA"), (5, 4, 3)),
            (("ITA", "FRA", "GER"), (3, 3, 6)),
        ],
    )
    b = _run(
        lineup_b,
        [
            (("FRA", "GER", "ITA"), (6, 5, 1)),
            (("AUS", "ITA", "FRA"), (5, 4, 3)),
            (("ITA", "FRA", "GER"), (3, 4, 5)),
        ],
    )
    result = pair([a], [b])
    assert (result.first, result.second) == ("new", "old")
    assert result.matched == 2 and result.unmatched == 1
    assert result.centres is not None and result.centres.mean == pytest.approx(0.5)
    # margins over db: game 1 (7-4)-(6-5) = 2, game 3 (3-3)-(3-4) = 1
    assert result.margins["db"].mean == pytest.approx(1.5)
    assert "1 left out (other powers)" in result.lines()[0]
    other_seed = _run(lineup_b, [(("FRA", "GER", "ITA"), (6, 5, 1))], seed=2)
    nothing = pair([a], [other_seed])
    assert nothing.centres is None and nothing.matched == 0
    assert "no game dealt alike" in nothing.lines()[0]
    unseeded = _run(lineup_b, [(("FRA", "GER", "ITA"), (6, 5, 1))], seed=None)
    assert pair([unseeded], [unseeded]).matched == 0


def test_a_self_play_control_pairs_through_its_first_seat() -> None:
    """One new bot among six old ones against seven old ones: seat 1 against seat 1."""
    games_a = [(POWERS, (8, 4, 4, 4, 4, 4, 4)), (POWERS[::-1], (3, 5, 5, 5, 5, 5, 5))]
    games_b = [(POWERS, (6, 4, 4, 4, 4, 4, 4)), (POWERS[::-1], (3, 5, 5, 5, 5, 5, 5))]
    a = _run(("new",) + ("old",) * 6, games_a)
    b = _run(("old",) * 7, games_b)
    result = pair([a], [b])
    assert result.matched == 2 and result.centres is not None
    assert result.centres.mean == pytest.approx(1.0)
    assert result.margins["old"].mean == pytest.approx(1.0)


def test_pairing_removes_the_spread_the_powers_bring() -> None:
    """A planted +1 centre: seen through the power noise only when paired."""
    rng = random.Random(7)
    strength = {p: 1 + 2.5 * k for k, p in enumerate(POWERS)}
    games_a, games_b = [], []
    for k in range(70):
        dealt = POWERS[k % 7 :] + POWERS[: k % 7]
        base = [round(strength[p] + rng.gauss(0, 0.5)) for p in dealt]
        games_b.append((dealt, base))
        games_a.append((dealt, [base[0] + 1, *base[1:]]))
    lineup = ("bot",) + ("field",) * 6
    a, b = _run(lineup, games_a), _run(lineup, games_b)
    result = pair([a], [b])
    alone = standing([a]).centres
    assert result.centres is not None and result.centres.mean == pytest.approx(1.0)
    assert result.centres.half_width < 0.01 < alone.half_width
    assert alone.mean - alone.half_width < standing([b]).centres.mean


def test_a_year_replaces_the_final_counts_with_that_years() -> None:
    def game(index: int, years: tuple[int, ...], curve: tuple[tuple[int, ...], ...]) -> GameRecord:
        return replace(_game(index, ("FRA", "ENG"), curve[-1]), years=years, curve=curve)

    long = game(0, (1900, 1901, 1902), ((3, 3), (5, 4), (6, 2)))
    solo = game(1, (1900, 1901), ((3, 3), (18, 0)))  # over before 1902
    run = Run("r", ("ours", "eng"), 1, (long, solo))
    assert [g.centres for g in at_year(run, 1901).games] == [(5, 4), (18, 0)]
    assert [g.centres for g in at_year(run, 1902).games] == [(6, 2), (18, 0)]
    assert standing([at_year(run, 1901)]).margins["eng"].mean == pytest.approx(9.5)
    with pytest.raises(ComparisonError, match="no count for 1899"):
        at_year(run, 1899)
    broken = Run("r", ("ours", "eng"), 1, (game(0, (1900, 1901), ((3, 3), (5,))),))
    with pytest.raises(ComparisonError, match="malformed curve"):
        at_year(broken, 1901)
