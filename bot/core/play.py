"""Playing the phases: the phase in play, its order book, its search job and its clock.

:class:`PhasePlayer` is the core's part that chooses and submits orders.  It
is told each new position the server confirms (:meth:`PhasePlayer.on_position`),
the server's answers to our orders (THX, MIS), the time left (TME), the search
worker's messages and the ticks it asked for, and puts its actions in the
core's :class:`~bot.core.outbox.Outbox`.

A movement phase: ``NOT (GOF)`` and a quick heuristic set at once; the search
starts with the phase clock's :class:`~bot.worker_protocol.SearchLimit` and
its improvements are submitted as they come (at most one SUB per
``RESUBMIT_INTERVAL``); its final answer, which arrives before the last
submission time because the search stops a measured hand-over earlier, is
submitted; then ``GOF``.  When the limit moves (a TME, a new round-trip
estimate) the job gets the new one.  Retreats are random legal retreats;
builds and removals follow the heuristic values.  Every SUB carries the
phase's complete order set, and never an order the server refused in the
phase.
"""

from __future__ import annotations

import contextlib
from random import Random
from typing import Any

from adjudicator.convert import adjustment_value, movement_value
from adjudicator.legal import complete_with_disbands as _complete_retreats
from adjudicator.legal import complete_with_holds as _complete
from adjudicator.position import Position
from adjudicator.rules import CivilDisorderRule
from bot.core import events as ev
from bot.core import notes
from bot.core.actions import CancelSearch, RetimeSearch, StartSearch
from bot.core.outbox import Outbox
from bot.orderbook import OrderBook
from bot.phase import PhaseState, SearchState
from bot.session import NotConnected, SessionNotReady
from bot.timebudget import PhaseClock, TimeBudget
from bot.worker_protocol import Answer, Failed, Orders, Progress, SearchLimit
from protocol.messages import Drw, Gof, Mis, Not, Sub, Thx
from protocol.values import Order, Turn
from search.heuristics import PhaseHeuristics
from search.registry import make_policy

RESUBMIT_INTERVAL = 1.0
"""Least seconds between two submissions of search improvements in one phase."""

RETIME_THRESHOLD = 0.05
"""Least change (seconds) of a job's stop time worth a new limit."""


class PhasePlayer:
    """Plays each phase the server shows us: orders in time, the search's best included.

    ``final_year`` is BANDANA's ``-fy`` (a draw is offered from its end on);
    ``iterations`` caps every search (tests).
    """

    def __init__(
        self,
        out: Outbox,
        budget: TimeBudget,
        rng: Random,
        rule: CivilDisorderRule,
        final_year: int | None = None,
        iterations: int | None = None,
    ) -> None:
        self.out = out
        self.budget = budget
        self.rng = rng
        self.rule = rule
        self.final_year = final_year
        self.iterations = iterations
        self.phase: PhaseState | None = None
        self.replaying = False
        self._quick_policy: Any = None
        self._heuristics = PhaseHeuristics()
        self._next_job = 0
        self._cancelled: dict[int, float] = {}  # job id -> its stop time, answer still due

    # --- the phases -------------------------------------------------------------------------

    def on_position(self, turn: Turn, pos: Position, power: str) -> None:
        """The server's position for ``turn`` (checked and taken by the mirror): play it.

        The same phase again is played again only after a rejoin (its orders
        resent if they were final); the same turn in another position restates
        the phase; a new turn ends the phase in play.
        """
        phase = self.phase
        if phase is not None and phase.turn == turn and phase.position == pos:
            if phase.active or not self.replaying:
                return  # a duplicate
            phase.book.position = pos
            if phase.complete:
                self._resend_orders(phase)
            else:
                self._play(phase)
        elif phase is not None and phase.turn == turn:
            self.out.note(notes.PhaseRestated(turn))
            self._end_phase(phase, restated=True)
            earlier = phase
            phase = self.phase = self._new_phase(turn, pos, power, clock=earlier.clock)
            phase.counted = earlier.counted
            phase.book.carry_over(earlier.book)
            self._play(phase)
        else:
            if phase is not None:
                self._end_phase(phase)
            phase = self.phase = self._new_phase(turn, pos, power)
            self._play(phase)
        # Played (a game action held back before the rejoin raised past this line).
        self.replaying = False

    def _new_phase(
        self, turn: Turn, pos: Position, power: str, clock: PhaseClock | None = None
    ) -> PhaseState:
        now = self.out.now
        clock = clock or self.budget.phase(pos.kind, now)
        self.budget.rtt.forget()
        deadline_in = clock.margin_at(now)
        self.out.note(
            notes.PhaseStarted(turn, None if deadline_in is None else round(deadline_in, 3))
        )
        return PhaseState(turn, clock, OrderBook(power, pos, self.rule))

    def _end_phase(self, phase: PhaseState, restated: bool = False) -> None:
        """The phase is over: stop playing it and note its last margin."""
        self._stop_search(phase)
        phase.active = False
        self.out.note(notes.PhaseEnded(phase.turn, phase.last_margin, restated))

    def end(self) -> None:
        """The game is over or the bot stops: the phase in play ends."""
        if self.phase is not None:
            self._end_phase(self.phase)
            self.phase = None

    def abandon(self) -> None:
        """The connection is gone: stop playing; the phase is played again after the rejoin."""
        if self.phase is not None:
            self._stop_search(self.phase)
            self.phase.active = False

    def failed(self, exc: Exception) -> None:
        """Playing raised (a bug of ours): note it, stop the search, submit safe orders."""
        phase = self.phase
        if phase is None:
            return
        self.out.note(notes.PhaseFailed(phase.turn, repr(exc)))
        self._stop_search(phase)
        phase.active = False
        # Nothing can be sent without a session; the phase is played again after a rejoin.
        with contextlib.suppress(SessionNotReady, NotConnected):
            self.recover()

    def _play(self, phase: PhaseState) -> None:
        """Play ``phase`` from its start (again, after a rejoin)."""
        pos = phase.position
        power = phase.book.power_id
        try:
            if self.final_year is not None and pos.ended_by(self.final_year):
                # The final year has been played out (BANDANA's -fy): offer the draw.
                self.out.send(Drw())
            if pos.is_movement:
                if any(u[0] == power for u in pos.units.values()):
                    self._start_movement(phase, power)  # ends with GOF, maybe later
                    return
            elif pos.is_retreat:
                if any(d[0] == power for d in pos.dislodged.values()):
                    orders = self._heuristics.retreat_orders(pos, power, self.rng)
                    self._submit_engine(phase, _complete_retreats(pos, power, orders))
            elif pos.adjustments()[power] != 0:
                chosen = self._heuristics.adjustment_orders(pos, power, self.rng)
                self._submit(phase, [adjustment_value(pos, power, o) for o in chosen])
            # No GOF outside movement: on MILA a GOF that completes a phase leaks into the
            # next one (docs/servers.md), and Parlance needs none there.
            self._complete(phase)
        except (SessionNotReady, NotConnected):
            self._stop_search(phase)
            phase.active = False  # played again when the session can take it
            raise
        except Exception as exc:  # a bug in our own play must not cost the phase
            self.failed(exc)

    def _complete(self, phase: PhaseState) -> None:
        phase.complete = True
        phase.active = False
        if not phase.counted:
            phase.counted = True
            self.out.note(notes.PhasePlayed(phase.turn))

    # --- the search --------------------------------------------------------------------------

    def _limit(self, clock: PhaseClock) -> SearchLimit:
        return SearchLimit(clock.stop_search_at(), clock.collect_helpers_by(), self.iterations)

    def _start_movement(self, phase: PhaseState, power: int) -> None:
        pos = phase.position
        phase.active = True
        self.out.send(Not(Gof()))
        self._submit_engine(phase, self._quick_orders(pos, power))
        self._next_job += 1
        limit = self._limit(phase.clock)
        phase.search = SearchState(self._next_job, limit, last_sent=self.out.now)
        self.out.act(StartSearch(self._next_job, pos, power, limit))
        self.out.note(notes.SearchStarted(phase.turn, self._next_job, limit.stop_at))
        self.advance()

    def _stop_search(self, phase: PhaseState) -> None:
        search = phase.search
        if search is not None and not search.done:
            self._cancelled[search.job_id] = search.limit.stop_at
            self.out.act(CancelSearch(search.job_id))
        phase.search = None

    def search_unavailable(self, event: ev.SearchUnavailable) -> None:
        """The shell could not start the job: the quick orders stand."""
        phase = self.phase
        if phase is None or phase.search is None or phase.search.job_id != event.job_id:
            return
        self.out.note(notes.SearchUnavailable(phase.turn, event.job_id, event.error))
        phase.search = None
        self._finish_movement(phase)

    def search_message(self, message: Progress | Answer | Failed) -> None:
        """The search worker's improvement, final answer or failure."""
        phase = self.phase
        search = phase.search if phase is not None else None
        if phase is None or search is None or message.job_id != search.job_id:
            self._stale(message)
            return
        if isinstance(message, Failed):
            search.failed = True
            self.out.note(notes.SearchFailed(phase.turn, message.error))
        else:
            final = isinstance(message, Answer)
            search.best = message
            if message.orders:
                search.pending = _complete(phase.position, phase.book.power_id, message.orders)
            self.out.note(notes.SearchReport(phase.turn, message.job_id, final, message.stats))
            if isinstance(message, Answer):
                search.answer = message
                self.budget.handover.add(self.out.now - search.limit.stop_at)
        self.advance()

    def _stale(self, message: Progress | Answer | Failed) -> None:
        """A message about a job we no longer wait for: dropped, its lateness still measured."""
        self.out.note(notes.StaleSearchMessage(message.job_id))
        if isinstance(message, Progress):
            return
        stop_at = self._cancelled.pop(message.job_id, None)
        if isinstance(message, Answer) and stop_at is not None:
            self.budget.handover.add(self.out.now - stop_at)

    def advance(self) -> None:
        """Move the movement phase on: submit what is due, retime, finish, or wait."""
        phase = self.phase
        if phase is None or not phase.active or not phase.position.is_movement:
            return
        search = phase.search
        if search is None:
            self._finish_movement(phase)
            return
        now = self.out.now
        due = search.done or now - search.last_sent >= RESUBMIT_INTERVAL
        if search.pending is not None and due:
            if search.pending != phase.book.engine:
                self._submit_engine(phase, search.pending)
                search.last_sent = now
            search.pending = None
        submit_by = phase.clock.submit_by()
        if search.done or now >= submit_by:
            self._finish_movement(phase)
            return
        self._retime(phase, search)
        wake = submit_by
        if search.pending is not None:
            wake = min(wake, search.last_sent + RESUBMIT_INTERVAL)
        self.out.tick(wake)

    def _retime(self, phase: PhaseState, search: SearchState) -> None:
        limit = self._limit(phase.clock)
        if abs(limit.stop_at - search.limit.stop_at) < RETIME_THRESHOLD:
            return
        search.limit = limit
        self.out.act(RetimeSearch(search.job_id, limit))
        self.out.note(notes.SearchRetimed(phase.turn, search.job_id, limit.stop_at))

    def _finish_movement(self, phase: PhaseState) -> None:
        """The last submission time has come (or the search is done): final set, then GOF."""
        search = phase.search
        if search is not None:
            best = search.best
            if search.answer is None and best is not None and best.orders:
                latest = _complete(phase.position, phase.book.power_id, best.orders)
                if latest != phase.book.engine:
                    self._submit_engine(phase, latest)
            stale = search.answer.stats.get("stale_helper_answers") if search.answer else None
            submitted = search.answer is not None
            stale_count = stale if isinstance(stale, int) else None
            self.out.note(notes.FinalAnswer(phase.turn, search.job_id, submitted, stale_count))
            self._stop_search(phase)
        pos = phase.position
        chosen = tuple(str(movement_value(pos, p, o)) for p, o in sorted(phase.book.engine.items()))
        self.out.note(notes.OrdersChosen(phase.turn, chosen))
        self.out.send(Gof())
        self._complete(phase)

    def _quick_orders(self, pos: Position, power: int) -> Orders:
        """A sensible order set in milliseconds: DumbBot's, or all holds if that fails."""
        try:
            if self._quick_policy is None:
                self._quick_policy = make_policy("dumbbot", seed=self.rng.randrange(1 << 30))
            orders = self._quick_policy.movement_orders(pos, power, self.rng)
            return _complete(pos, power, orders)
        except Exception as exc:  # a heuristic's bug must not cost the phase
            self.out.note(notes.QuickOrdersFailed(repr(exc)))
            return _complete(pos, power, {})

    # --- the time left -----------------------------------------------------------------------

    def time_left(self, seconds: int) -> str | None:
        """TME: the deadline is ``seconds`` away; why it was not taken, or None."""
        phase = self.phase
        if phase is None:
            return None
        limit = self.budget.limits.get(phase.position.kind) or 0
        if limit > 0 and not 0 <= seconds <= limit:
            # The time left cannot pass the phase's limit from HLO (nor be negative).
            return f"TME of {seconds} s in a phase of at most {limit:g} s"
        phase.clock.time_left(seconds, self.out.now)
        self.advance()
        return None

    # --- submitting, and the server's answers to our orders ----------------------------------

    def _submit(self, phase: PhaseState, orders: list[Order]) -> None:
        """Submit ``orders`` as the phase's complete set (some servers replace on SUB)."""
        if not orders:
            return
        now = self.out.now
        self.out.send(Sub(tuple(orders)))
        phase.book.record(orders)
        self.budget.rtt.sent(now, len(orders))
        margin = phase.clock.margin_at(now)
        if margin is not None:
            margin = round(margin, 4)
            phase.last_margin = margin
        self.out.note(notes.OrdersSubmitted(phase.turn, tuple(orders), margin))

    def _submit_engine(self, phase: PhaseState, orders: Orders) -> None:
        """Submit a movement or retreat set in engine form (never an order refused before)."""
        self._submit(phase, phase.book.choose(orders))

    def on_thx(self, m: Thx) -> None:
        """The server's verdict on one of our orders."""
        phase = self.phase
        if phase is None:
            self.out.ignore("THX outside a phase", m)
            return
        verdict = phase.book.on_thx(m.order, m.note)
        if verdict.ignored is not None:
            self.out.ignore(verdict.ignored, m)
            return
        self.budget.rtt.answered(self.out.now)
        if verdict.refused:
            self.out.note(notes.OrderRefused(m.order, m.note))
        if verdict.resubmit is not None:
            self._submit(phase, verdict.resubmit)
        self.advance()

    def on_mis(self, m: Mis, current: Turn | None) -> None:
        """The server lacks orders for ``current``: complete our set (once for adjustments)."""
        phase = self.phase
        if phase is None or current is None or phase.turn != current:
            return
        pos = phase.position
        if (m.count is not None) != pos.is_adjustment:
            if m.count or m.units:
                self.out.ignore(f"MIS of the wrong form for {pos.turn}", m)
            return
        if m.count is not None:
            orders, ignored = phase.book.on_mis_count(m.count)
            if ignored is not None:
                self.out.ignore(ignored, m)
            if orders is not None:
                self.out.note(notes.OrdersMissing(m.count, adjustments=True))
                self._submit(phase, orders)
            return
        units = [(u.unit, u.retreats is not None) for u in m.units]
        missing, ignored = phase.book.on_mis_units(units)
        if ignored is not None:
            self.out.ignore(ignored, m)
        if missing is not None:
            self.out.note(notes.OrdersMissing(len(missing)))
            self._submit(phase, missing)

    def recover(self) -> None:
        """Resubmit a complete, safe order set for the current phase (once per phase)."""
        phase = self.phase
        if phase is None:
            return
        pos = phase.position
        power = phase.book.power_id

        def safe_set() -> list[Order]:
            if pos.is_movement:
                units = _complete(pos, power, {})
            elif pos.is_retreat:
                units = _complete_retreats(pos, power, {})
            else:
                return []
            return phase.book.choose(units)

        orders = phase.book.recovery(safe_set)
        if orders is not None:
            self._submit(phase, orders)

    def _resend_orders(self, phase: PhaseState) -> None:
        """After a rejoin in a phase we had finished: make sure the server has our orders."""
        if phase.book.current:
            self._submit(phase, list(phase.book.current))
        if phase.position.is_movement:
            self.out.send(Gof())
