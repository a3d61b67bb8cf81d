"""The time budget: every deadline figure of a phase, from the server's deadline and the delays."""

from __future__ import annotations

import pytest

from adjudicator.position import PhaseKind
from bot.client.core.timebudget import (
    DEFAULT_HANDOVER,
    DEFAULT_RTT,
    MAX_HANDOVER,
    MIN_HANDOVER,
    PROCESSING,
    DelayEstimate,
    RoundTrips,
    TimeBudget,
)

LIMITS = {PhaseKind.MOVEMENT: 5.0, PhaseKind.RETREAT: 2.0, PhaseKind.ADJUSTMENT: 0.0}


@pytest.mark.parametrize(
    ("kind", "deadline"),
    [(PhaseKind.MOVEMENT, 105.0), (PhaseKind.RETREAT, 102.0), (PhaseKind.ADJUSTMENT, None)],
)
def test_the_deadline_comes_from_hlos_limit_for_the_phase_kind(kind, deadline) -> None:
    clock = TimeBudget(LIMITS).phase(kind, 100.0)
    assert clock.deadline == deadline


@pytest.mark.parametrize("rtts", [[], [0.01], [0.3, 0.5, 0.2], [2.0]])
@pytest.mark.parametrize("handovers", [[], [0.02], [0.5, 0.9], [5.0]])
def test_the_search_stops_strictly_before_the_last_submission(rtts, handovers) -> None:
    budget = TimeBudget(LIMITS, min_margin=0.5)
    for rtt in rtts:
        budget.rtt.sent(0.0, 1)
        budget.rtt.answered(rtt)
    for h in handovers:
        budget.handover.add(h)
    clock = budget.phase(PhaseKind.MOVEMENT, 100.0)
    stop, collect, submit = clock.stop_search_at(), clock.collect_helpers_by(), clock.submit_by()
    assert stop < collect < submit < clock.deadline
    assert submit - stop >= MIN_HANDOVER - 1e-9
    assert clock.deadline - submit >= 0.5


def test_without_a_deadline_the_think_time_is_the_budget() -> None:
    budget = TimeBudget({}, think_time=8.0)
    clock = budget.phase(PhaseKind.MOVEMENT, 100.0)
    assert clock.deadline is None and clock.submit_by() == 108.0
    assert clock.stop_search_at() == 108.0 - DEFAULT_HANDOVER
    assert clock.margin_at(107.0) is None


def test_tme_moves_the_deadline_and_every_figure_with_it() -> None:
    clock = TimeBudget(LIMITS).phase(PhaseKind.MOVEMENT, 100.0)
    before = (clock.submit_by(), clock.stop_search_at())
    clock.time_left(2.0, at=101.0)
    assert clock.deadline == 103.0
    assert (clock.submit_by(), clock.stop_search_at()) == (before[0] - 2.0, before[1] - 2.0)


@pytest.mark.parametrize(("seconds", "deadline"), [(0.0, 101.0), (0.5, 101.5), (-1.0, 101.0)])
def test_tme_of_no_time_left_puts_the_deadline_now(seconds: float, deadline: float) -> None:
    clock = TimeBudget(LIMITS).phase(PhaseKind.MOVEMENT, 100.0)
    clock.time_left(seconds, at=101.0)
    assert clock.deadline == deadline


@pytest.mark.parametrize(("limit", "submit_by"), [(1.0, 100.5), (0.4, 100.2)])
def test_a_short_phase_keeps_half_its_time_to_think(limit: float, submit_by: float) -> None:
    clock = TimeBudget({PhaseKind.MOVEMENT: limit}, min_margin=0.5).phase(PhaseKind.MOVEMENT, 100.0)
    assert clock.deadline == 100.0 + limit
    assert clock.submit_by() == pytest.approx(submit_by)


def test_a_sub_with_no_orders_is_not_timed() -> None:
    trips = RoundTrips()
    trips.sent(0.0, 0)
    trips.sent(1.0, 1)
    trips.answered(1.5)
    assert trips.estimate.value == pytest.approx(0.5)


def test_the_margin_shrinks_again_after_one_slow_round_trip() -> None:
    budget = TimeBudget(LIMITS, min_margin=0.0)
    for _ in range(20):
        budget.rtt.sent(0.0, 1)
        budget.rtt.answered(0.05)
    fast = budget.margin
    budget.rtt.sent(0.0, 1)
    budget.rtt.answered(3.0)  # one THX stuck for three seconds
    assert budget.margin > fast
    for _ in range(40):
        budget.rtt.sent(0.0, 1)
        budget.rtt.answered(0.05)
    assert budget.margin < fast + 0.05, "one slow sample set the margin for the rest of the game"


def test_each_sub_is_timed_from_its_own_send_time() -> None:
    trips = RoundTrips()
    trips.sent(10.0, 2)  # a SUB of two orders
    trips.sent(10.5, 1)  # another before the first was answered
    trips.answered(10.1)  # the first SUB's first THX: 0.1
    trips.answered(10.2)  # its second THX: no new sample
    trips.answered(10.6)  # the second SUB's THX: 0.1, not 0.6 (nor 0.1 from 10.5)
    assert trips.estimate.samples == 2
    assert trips.estimate.value == pytest.approx(0.1)


def test_a_thx_without_a_pending_sub_is_no_sample() -> None:
    trips = RoundTrips()
    trips.answered(5.0)
    trips.sent(1.0, 1)
    trips.forget()
    trips.answered(9.0)
    assert trips.estimate.samples == 0 and trips.estimate.value == DEFAULT_RTT


def test_the_handover_is_learnt_and_bounded() -> None:
    budget = TimeBudget(LIMITS)
    assert budget.handover_time == DEFAULT_HANDOVER
    for _ in range(30):
        budget.handover.add(0.01)
    assert budget.handover_time == MIN_HANDOVER
    for _ in range(30):
        budget.handover.add(10.0)
    assert budget.handover_time == MAX_HANDOVER


def test_max_think_caps_the_phase_from_its_start_whatever_the_deadline() -> None:
    budget = TimeBudget({PhaseKind.MOVEMENT: 300}, max_think=5.0)
    clock = budget.phase(PhaseKind.MOVEMENT, 10.0)
    assert clock.submit_by() == pytest.approx(15.0)
    assert clock.stop_search_at() == pytest.approx(15.0 - budget.handover_time)
    assert clock.margin_at(10.0) == pytest.approx(300.0)  # the server's deadline is unchanged
    short = TimeBudget({PhaseKind.MOVEMENT: 2}, max_think=5.0).phase(PhaseKind.MOVEMENT, 0.0)
    assert short.submit_by() < 2.0  # a nearer deadline still wins


def test_delay_estimates_follow_rfc_6298() -> None:
    est = DelayEstimate(1.0)
    est.add(0.4)
    assert (est.value, est.deviation) == (pytest.approx(0.4), pytest.approx(0.2))
    est.add(0.8)
    assert est.deviation == pytest.approx(0.75 * 0.2 + 0.25 * 0.4)
    assert est.value == pytest.approx(0.875 * 0.4 + 0.125 * 0.8)
    assert est.safe == pytest.approx(est.value + 4 * est.deviation)


def test_the_margin_never_drops_below_the_users_minimum() -> None:
    budget = TimeBudget(LIMITS, min_margin=1.5)
    assert budget.margin == 1.5
    budget.min_margin = 0.0
    assert budget.margin == pytest.approx(DEFAULT_RTT + PROCESSING)
