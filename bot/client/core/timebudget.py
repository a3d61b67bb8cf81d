"""Time control: one object turns the server's deadline and the measured delays into our times.

Every deadline figure the client uses comes from here (Leela Zero's
``TimeControl`` is the model): the phase's deadline is set from HLO's limits
when the phase starts and corrected by every ``TME``; round trips are measured
from each SUB to its first THX; the search worker's hand-over (from its stop
time to the moment its final answer is in the client's hands) is measured
every phase.  From these a :class:`PhaseClock` answers three questions:

* :meth:`~PhaseClock.submit_by` — the last moment to send a SUB: the deadline
  minus a safety margin (the round trip's smoothed value plus four deviations,
  never less than ``min_margin``, never more than half the phase);
* :meth:`~PhaseClock.stop_search_at` — when the search must stop: strictly
  before ``submit_by``, by the expected hand-over, so its final answer arrives
  in time to be sent;
* :meth:`~PhaseClock.collect_helpers_by` — when the worker stops waiting for
  its root-parallel helpers' statistics (between the two).

Estimates follow RFC 6298 (smoothed value and mean deviation), so they shrink
again after a slow sample instead of only growing.  Times are readings of
:func:`time.monotonic`, passed in by the caller: this module reads no clock.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from adjudicator.position import PhaseKind

DEFAULT_THINK_TIME = 8.0
"""Seconds to think in a phase when the server sets no deadline."""

DEFAULT_MIN_MARGIN = 0.5
"""Least seconds kept between the last submission and a deadline."""

DEFAULT_RTT = 0.2
"""Round trip (seconds) assumed before the first one is measured."""

DEFAULT_HANDOVER = 0.3
"""Search hand-over (seconds) assumed before the first one is measured."""

MIN_HANDOVER = 0.1
"""Least time allowed between the search's stop and the last submission."""

MAX_HANDOVER = 2.0
"""Most time allowed between the search's stop and the last submission."""

HELPER_SHARE = 0.5
"""Share of the hand-over given to collecting root-parallel helpers' statistics."""

MAX_MARGIN_SHARE = 0.5
"""Most of a phase's time limit the safety margin may take (the rest is for thinking)."""

PROCESSING = 0.1
"""Seconds added to every margin for our own and the server's processing."""

SMOOTHING = 0.125
"""RFC 6298's alpha: weight of a new sample in the smoothed value."""

DEVIATION_SMOOTHING = 0.25
"""RFC 6298's beta: weight of a new sample in the mean deviation."""

DEVIATIONS = 4
"""How many mean deviations a safety margin adds to the smoothed value."""


@dataclass
class DelayEstimate:
    """A smoothed delay and its mean deviation (RFC 6298), in seconds."""

    initial: float
    smoothed: float | None = None
    deviation: float = 0.0
    samples: int = 0

    def add(self, sample: float) -> None:
        """Take one measured delay into the estimate."""
        sample = max(0.0, sample)
        self.samples += 1
        if self.smoothed is None:
            self.smoothed = sample
            self.deviation = sample / 2
            return
        error = abs(self.smoothed - sample)
        self.deviation += DEVIATION_SMOOTHING * (error - self.deviation)
        self.smoothed += SMOOTHING * (sample - self.smoothed)

    @property
    def value(self) -> float:
        """The smoothed delay (the initial guess before any sample)."""
        return self.initial if self.smoothed is None else self.smoothed

    @property
    def safe(self) -> float:
        """A delay rarely exceeded: the smoothed value plus ``DEVIATIONS`` deviations."""
        return self.value + DEVIATIONS * self.deviation


class RoundTrips:
    """Round trips from each SUB to the server's first THX for it.

    Every SUB is timed on its own (a queue of send times, answered in order),
    so one late THX neither hides another SUB's send time nor sets the margin
    for the rest of the game.
    """

    def __init__(self) -> None:
        self.estimate = DelayEstimate(DEFAULT_RTT)
        self._outstanding: deque[list[float]] = deque()  # [sent at, THX still due, timed]

    def sent(self, at: float, orders: int) -> None:
        """A SUB with ``orders`` orders left at ``at``."""
        if orders > 0:
            self._outstanding.append([at, orders, 0])

    def answered(self, at: float) -> None:
        """A THX for one of our orders arrived at ``at``."""
        if not self._outstanding:
            return
        head = self._outstanding[0]
        if not head[2]:
            self.estimate.add(at - head[0])
            head[2] = 1  # pragma: no mutate (a flag tested only for truth)
        head[1] -= 1
        if head[1] <= 0:
            self._outstanding.popleft()

    def forget(self) -> None:
        """Drop the SUBs still unanswered (a new phase, or a new connection)."""
        self._outstanding.clear()


class TimeBudget:
    """The game's time control: deadlines in, the search's and the client's times out.

    ``limits`` are HLO's seconds per phase kind (0 or absent: no deadline);
    ``think_time`` is how long to think when the server sets none;
    ``min_margin`` is the least time kept between the last SUB and a deadline;
    ``max_think``, when set, caps the seconds from a phase's start to its last
    SUB whatever the deadline (bots of ours beside a person, who has minutes).
    """

    def __init__(
        self,
        limits: dict[PhaseKind, float] | None = None,
        *,
        think_time: float = DEFAULT_THINK_TIME,
        min_margin: float = DEFAULT_MIN_MARGIN,
        max_think: float | None = None,
    ) -> None:
        self.limits = dict(limits or {})
        self.think_time = think_time
        self.min_margin = min_margin
        self.max_think = max_think
        self.rtt = RoundTrips()
        self.handover = DelayEstimate(DEFAULT_HANDOVER)

    def set_limits(self, limits: dict[PhaseKind, float]) -> None:
        """HLO's limits (seconds per phase kind; 0 means none)."""
        self.limits = dict(limits)

    def phase(self, kind: PhaseKind, started: float) -> PhaseClock:
        """The clock of a phase of ``kind`` whose NOW arrived at ``started``."""
        limit = self.limits.get(kind) or 0.0
        deadline = started + limit if limit > 0 else None
        return PhaseClock(self, started, deadline)

    @property
    def margin(self) -> float:
        """Seconds kept between the last SUB and the deadline."""
        return max(self.min_margin, self.rtt.estimate.safe + PROCESSING)

    @property
    def handover_time(self) -> float:
        """Seconds between the search's stop and the last SUB (its final answer's way over)."""
        return min(MAX_HANDOVER, max(MIN_HANDOVER, self.handover.safe))


class PhaseClock:
    """The times of one phase, kept current by ``TME`` and by the measured delays.

    ``deadline`` is the server's deadline as we estimate it (a monotonic
    reading), or None when the server sets none: then the phase is given
    ``think_time`` from its start for the search and the last submission.
    """

    def __init__(self, budget: TimeBudget, started: float, deadline: float | None) -> None:
        self.budget = budget
        self.started = started
        self.deadline = deadline

    def time_left(self, seconds: float, at: float) -> None:
        """``TME (seconds)`` arrived at ``at``: the deadline is that far away."""
        self.deadline = at + max(0.0, seconds)

    @property
    def _due(self) -> float:
        if self.deadline is None:
            return self.started + self.budget.think_time
        return self.deadline

    def submit_by(self) -> float:
        """The last moment to send a SUB: the deadline minus the safety margin.

        The margin takes at most ``MAX_MARGIN_SHARE`` of the time from the
        phase's start to its deadline, so some time is always left to think;
        the budget's ``max_think`` caps it from the phase's start.
        """
        if self.deadline is None:
            due = self._due
        else:
            share = MAX_MARGIN_SHARE * max(0.0, self.deadline - self.started)
            due = self._due - min(self.budget.margin, share)
        cap = self.budget.max_think
        return due if cap is None else min(due, self.started + cap)

    def stop_search_at(self) -> float:
        """When the search stops: the hand-over before :meth:`submit_by`, never after the start."""
        return max(self.started, self.submit_by() - self.budget.handover_time)

    def collect_helpers_by(self) -> float:
        """When the worker stops waiting for root-parallel helpers (before :meth:`submit_by`)."""
        stop = self.stop_search_at()
        return stop + HELPER_SHARE * (self.submit_by() - stop)

    def margin_at(self, at: float) -> float | None:
        """Seconds from ``at`` to the deadline (None without a deadline)."""
        return None if self.deadline is None else self.deadline - at
