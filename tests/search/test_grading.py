"""Grading an order set against the search's choice (search.grading)."""

from __future__ import annotations

import dataclasses
from random import Random

import pytest

from adjudicator.orders import DISBAND_ORDER, HOLD_ORDER, MOVE, RETREAT, EngineOrder, Orders
from adjudicator.position import Position, initial_position
from bot.measure.student_t import t95 as exact_t95
from search.dumbbot import DumbBot
from search.grading import (
    BLUNDER_LOSS,
    INACCURACY_LOSS,
    MISTAKE_LOSS,
    BudgetError,
    GradingSettings,
    IllegalOrderError,
    NothingToGradeError,
    PhaseOrders,
    centres_after,
    checked_orders,
    grade,
    grade_phase,
    horizon_year,
    label_for,
    matters,
    mean_interval,
    reference_orders,
    t95,
)
from search.simulate import play_phase
from tests.search.boards import M, loc, position, power, prov

QUICK = GradingSettings(rollouts=96, iterations=300)
"""Small budgets: the tests check what grades say, not how precisely."""

OPENING = initial_position(M)


def _game_phase(seed: int, turn: str) -> Position:
    """The position at ``turn`` of a game of seven DumbBots (seeded)."""
    rng = Random(seed)
    pos = OPENING
    bots = [DumbBot()] * M.num_powers
    while str(pos.turn) != turn:
        pos = play_phase(pos, bots, rng)
    return pos


def _hold_all(pos: Position, name: str) -> Orders:
    return {p: HOLD_ORDER for p, u in pos.units.items() if u[0] == power(name)}


# --- what a grade says ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "years"),
    [("FRA", 2), ("GER", 2), ("RUS", 2), ("TUR", 2), ("AUS", 2), ("ITA", 1), ("ENG", 2)],
)
def test_holding_everything_in_the_opening_is_graded_worse_than_the_search(
    name: str, years: int
) -> None:
    settings = dataclasses.replace(QUICK, years=years)
    us = power(name)
    reference = reference_orders(OPENING, us, seed=1, settings=settings)
    graded = grade(OPENING, us, _hold_all(OPENING, name), reference, 5, settings)
    assert graded.loss > 0 and graded.low > 0, graded
    assert graded.reference > graded.submitted
    assert graded.loss == pytest.approx(graded.reference - graded.submitted)
    assert graded.horizon == 1900 + years
    assert graded.turn == "SPR 1901" and graded.power == name


@pytest.mark.parametrize(
    "orders",
    [
        "search",
        {prov("PAR"): (MOVE, loc("BUR")), prov("MAR"): (MOVE, loc("SPA"))},
        {},
    ],
    ids=["the-search's", "two-moves-and-a-hold", "all-holds"],
)
def test_a_set_graded_against_itself_loses_nothing(orders: PhaseOrders | str) -> None:
    us = power("FRA")
    if orders == "search":
        orders = reference_orders(OPENING, us, seed=2, settings=QUICK)
    assert not isinstance(orders, str)
    graded = grade(OPENING, us, orders, orders, 9, QUICK)
    assert graded.loss == 0 and graded.low == 0 and graded.high == 0
    assert graded.submitted == graded.reference
    assert graded.label == "good"


def test_the_same_seed_gives_the_same_grade_and_another_seed_other_rollouts() -> None:
    pos = _game_phase(0, "SPR 1903")
    us = power("GER")
    first = grade_phase(pos, us, _hold_all(pos, "GER"), 11, QUICK)
    again = grade_phase(pos, us, _hold_all(pos, "GER"), 11, QUICK)
    assert first == again
    sets = [first.submitted, first.reference]
    assert centres_after(pos, us, sets, 1, QUICK) == centres_after(pos, us, sets, 1, QUICK)
    assert centres_after(pos, us, sets, 1, QUICK) != centres_after(pos, us, sets, 2, QUICK)


def test_retreats_and_builds_are_graded_from_their_phase() -> None:
    summer = _game_phase(0, "SUM 1903")
    ita = power("ITA")
    (where,) = [p for p, d in summer.dislodged.items() if d[0] == ita]
    disband = grade_phase(summer, ita, {where: DISBAND_ORDER}, 3, QUICK)
    assert disband.reference[where][0] == RETREAT
    assert disband.grade.horizon == 1903
    assert disband.grade.low > 0  # a unit lost before the fall costs centres
    autumn = _game_phase(0, "AUT 1902")
    rus = power("RUS")
    (where,) = [p for p, d in autumn.dislodged.items() if d[0] == rus]
    disband = grade_phase(autumn, rus, {where: DISBAND_ORDER}, 3, QUICK)
    assert disband.grade.horizon == 1903  # the fall's retreats look to the next winter
    assert disband.grade.high < 0 and disband.grade.label == "good"  # a build at home instead
    winter = _game_phase(0, "WIN 1901")
    waived = grade_phase(winter, power("TUR"), [], 3, QUICK)
    assert waived.grade.horizon == 1902
    assert len(waived.reference) == 1 and waived.grade.low > 0  # a build waived costs


# --- labels, intervals, horizons ----------------------------------------------------------------

LABEL_CASES = [
    (-2.0, "good"),
    (0.0, "good"),
    (INACCURACY_LOSS - 1e-9, "good"),
    (INACCURACY_LOSS, "inaccuracy"),
    (MISTAKE_LOSS - 1e-9, "inaccuracy"),
    (MISTAKE_LOSS, "mistake"),
    (BLUNDER_LOSS - 1e-9, "mistake"),
    (BLUNDER_LOSS, "blunder"),
    (7.0, "blunder"),
]


@pytest.mark.parametrize(("loss", "label"), LABEL_CASES)
def test_labels_follow_the_documented_thresholds(loss: float, label: str) -> None:
    assert label_for(loss) == label


def test_the_thresholds_rise() -> None:
    assert 0 < INACCURACY_LOSS < MISTAKE_LOSS < BLUNDER_LOSS


@pytest.mark.parametrize("df", [1, 2, 3, 5, 10, 29, 30, 31, 40, 60, 100, 511, 5000])
def test_the_t_quantile_matches_the_exact_one(df: int) -> None:
    assert t95(df) == pytest.approx(exact_t95(df), abs=2e-4)


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        ([1.0, 1.0, 1.0], (1.0, 1.0, 1.0)),
        ([0.0, 2.0], (1.0, 1.0 - 12.7062 * 2**0.5 / 2**0.5, 1.0 + 12.7062)),
    ],
)
def test_mean_intervals(values: list[float], expected: tuple[float, float, float]) -> None:
    assert mean_interval(values) == pytest.approx(expected, abs=1e-3)


@pytest.mark.parametrize(
    ("turn", "years", "final_year", "horizon"),
    [
        ("SPR 1901", 1, None, 1901),
        ("SUM 1901", 1, None, 1901),
        ("FAL 1901", 1, None, 1901),
        ("AUT 1901", 1, None, 1902),
        ("WIN 1901", 1, None, 1902),
        ("SPR 1901", 3, None, 1903),
        ("SPR 1901", 3, 1902, 1902),
        ("WIN 1901", 1, 1901, 1901),
    ],
)
def test_the_horizon_is_the_coming_winter_or_later(
    turn: str, years: int, final_year: int | None, horizon: int
) -> None:
    pos = position(turn, ["FRA A PAR"], {"FRA": ["PAR"]})
    assert horizon_year(pos, years, final_year) == horizon


# --- what has a choice, and bad input ------------------------------------------------------------


@pytest.mark.parametrize(
    ("turn", "name", "expected"),
    [
        ("SPR 1901", "FRA", True),
        ("WIN 1901", "AUS", False),  # no adjustment due (seed 0's game)
        ("WIN 1901", "TUR", True),  # a build
        ("AUT 1902", "RUS", True),  # a dislodged unit with somewhere to go
        ("AUT 1902", "FRA", False),
    ],
)
def test_which_phases_give_a_power_a_choice(turn: str, name: str, expected: bool) -> None:
    assert matters(_game_phase(0, turn), power(name)) is expected


def test_checked_orders_complete_a_set_with_holds() -> None:
    us = power("FRA")
    checked = checked_orders(OPENING, us, {prov("PAR"): (MOVE, loc("BUR"))})
    assert checked == {
        prov("PAR"): (MOVE, loc("BUR")),
        prov("MAR"): HOLD_ORDER,
        prov("BRE"): HOLD_ORDER,
    }


BAD_ORDERS: list[tuple[str, PhaseOrders, str]] = [
    ("another-power's-unit", {prov("BER"): HOLD_ORDER}, "FRA has no unit to order in BER"),
    ("no-unit-there", {prov("BUR"): HOLD_ORDER}, "FRA has no unit to order in BUR"),
    ("no-such-province", {999: HOLD_ORDER}, "FRA has no unit to order in 999"),
    ("too-far", {prov("PAR"): (MOVE, loc("MUN"))}, "is refused here (FAR)"),
    ("garbage", {prov("PAR"): (MOVE,)}, "is no order of FRA here"),
    ("a-retreat-in-spring", {prov("PAR"): (RETREAT, loc("BUR"))}, "no order of FRA in this phase"),
    ("not-a-tuple", {prov("PAR"): "A PAR - BUR"}, "no order of FRA in this phase"),  # type: ignore[dict-item]
    ("a-winter-list-in-spring", [(MOVE, loc("BUR"))], "keyed by the province of each unit"),
]


@pytest.mark.parametrize(("name", "orders", "message"), BAD_ORDERS, ids=[b[0] for b in BAD_ORDERS])
def test_an_order_that_is_not_the_powers_is_a_typed_error(
    name: str, orders: PhaseOrders, message: str
) -> None:
    us = power("FRA")
    with pytest.raises(IllegalOrderError, match=message.replace("(", r"\(").replace(")", r"\)")):
        grade(OPENING, us, orders, {}, 1, QUICK)


def test_a_phase_without_a_choice_or_past_the_end_is_a_typed_error() -> None:
    pos = _game_phase(0, "AUT 1902")
    with pytest.raises(NothingToGradeError, match="FRA has no choice to make in AUT 1902"):
        grade(pos, power("FRA"), {}, {}, 1, QUICK)
    with pytest.raises(NothingToGradeError):
        reference_orders(pos, power("FRA"), 1, QUICK)
    with pytest.raises(NothingToGradeError):
        grade(OPENING, power("FRA"), {}, {}, 1, QUICK, final_year=1900)
    winter: list[EngineOrder] = [(MOVE, loc("BUR"))]
    with pytest.raises(IllegalOrderError, match="no order of ENG in this phase"):
        grade(_game_phase(0, "WIN 1901"), power("ENG"), winter, [], 1, QUICK)
    with pytest.raises(IllegalOrderError, match="a list of builds"):
        grade(_game_phase(0, "WIN 1901"), power("ENG"), {}, [], 1, QUICK)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"rollouts": 1}, "at least 2 rollouts"),
        ({"rollouts": -5}, "at least 2 rollouts"),
        ({"years": 0}, "at least one winter ahead"),
        ({"iterations": 0}, "at least one iteration"),
    ],
)
def test_a_budget_a_grade_cannot_run_with_is_a_typed_error(
    changes: dict[str, int], message: str
) -> None:
    with pytest.raises(BudgetError, match=message):
        GradingSettings(**changes)  # type: ignore[arg-type]
