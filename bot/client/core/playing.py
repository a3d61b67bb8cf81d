"""Playing the phases: the phase in play, its order book, its search jobs and its clock.

:class:`PhasePlayer` is the core's part that submits orders.  It is told each
new position the server confirms (:meth:`PhasePlayer.on_position`), the
server's answers to our orders (THX, MIS), the time left (TME), the search
worker's messages, the ticks it asked for, and a person's input, and puts its
actions in the core's :class:`~bot.client.core.outbox.Outbox`.

What to submit, and when, is its :class:`~bot.client.core.chooser.PhaseChooser`'s
(the search, a heuristic player, or a person at a page); the player runs the
phase protocol the same way for each: every SUB carries the phase's complete
order set and never an order the server refused in the phase; a refused order,
a ``MIS`` or our own error is answered with safe orders when the chooser lets
the core fill gaps; the draw is offered from the final year on; after a rejoin
a phase whose orders were final has them resent.

The chooser answers each question with :mod:`~bot.client.core.decisions`,
which the player carries out in order; the player alone moves the phase's
stage (:mod:`~bot.client.core.phasestate`'s table).  A person's input and a
request for a hint go to the chooser the same way, whoever it is: a bot's
seat refuses a person's orders, and every seat may be asked for a hint, which
the chooser answers (a search the player runs, or a set at once) and which is
noted (:class:`~bot.client.core.notes.HintReady`), never submitted.
"""

from __future__ import annotations

import contextlib
from random import Random

from adjudicator.orders import Orders
from adjudicator.position import Position
from adjudicator.rules import CivilDisorderRule
from bot.client.core import decisions as do
from bot.client.core import events as ev
from bot.client.core import notes
from bot.client.core.chooser import PhaseChooser, has_orders_to_give, safe_set
from bot.client.core.effects import CancelSearch, RetimeSearch, StartSearch
from bot.client.core.orderbook import OrderBook
from bot.client.core.outbox import Outbox
from bot.client.core.phasestate import PhaseStage, PhaseState, PhaseStep, SearchState
from bot.client.core.session import NotConnected, SessionNotReady
from bot.client.core.timebudget import PhaseClock, TimeBudget
from protocol.messages import Drw, Gof, Mis, Not, Sub, Thx
from protocol.notation import format_order, format_unit
from protocol.values import Order, Turn
from search.mcts.worker_protocol import Answer, Failed, Progress
from search.policy import SearchLimit


class PhasePlayer:
    """Plays each phase the server shows us: ``chooser``'s orders, in time, by the rules.

    ``final_year`` is BANDANA's ``-fy`` (a draw is offered from its end on);
    ``iterations`` caps every search (tests).  The player owns the phase's
    stage and carries out its chooser's decisions.
    """

    def __init__(
        self,
        out: Outbox,
        budget: TimeBudget,
        rng: Random,
        rule: CivilDisorderRule,
        chooser: PhaseChooser,
        final_year: int | None = None,
        iterations: int | None = None,
    ) -> None:
        self.out = out
        self.budget = budget
        self.rng = rng
        self.rule = rule
        self.chooser = chooser
        self.final_year = final_year
        self.iterations = iterations
        self.phase: PhaseState | None = None
        # Not mutated: first read by on_position, after HLO or a rejoin's greeting set it.
        self.replaying = False  # pragma: no mutate
        self._next_job = 0  # pragma: no mutate (job ids need only be distinct)
        self._cancelled: dict[int, float] = {}  # job id -> its stop time, answer still due
        # The phase in play (however restated) was noted as played.  Not mutated: each new
        # turn sets it before it is read.
        self._counted = False  # pragma: no mutate

    # --- the phases -------------------------------------------------------------------------

    def on_position(self, turn: Turn, pos: Position, power: str) -> None:
        """The server's position for ``turn`` (checked and taken by the mirror): play it.

        The same phase again is played again only after a rejoin (its orders
        resent if they were final); the same turn in another position restates
        the phase; a new turn ends the phase in play.
        """
        phase = self.phase
        if phase is not None and phase.turn == turn and phase.position == pos:
            if phase.playing or not self.replaying:
                return  # a duplicate
            phase.book.position = pos
            if phase.stage is PhaseStage.FINAL:
                self._resend_orders(phase)
            else:
                self._play(phase)
        elif phase is not None and phase.turn == turn:
            self.out.note(notes.PhaseRestated(turn))
            self._end_phase(phase, restated=True)
            earlier = phase
            phase = self.phase = self._new_phase(turn, pos, power, clock=earlier.clock)
            phase.book.carry_over(earlier.book)
            self._play(phase)
        else:
            if phase is not None:
                self._end_phase(phase)
            self._counted = False  # pragma: no mutate (None or False: only its truth is read)
            phase = self.phase = self._new_phase(turn, pos, power)
            self._play(phase)
        # Played (a game action held back before the rejoin raised past this line).
        self.replaying = False  # pragma: no mutate (None or False: only its truth is read)

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
        self._stop_jobs(phase)
        phase.step(PhaseStep.END)
        self.out.note(notes.PhaseEnded(phase.turn, phase.last_margin, restated))

    def end(self) -> None:
        """The game is over or the bot stops: the phase in play ends."""
        if self.phase is not None:
            self._end_phase(self.phase)
            self.phase = None

    def abandon(self) -> None:
        """The connection is gone: stop playing; the phase is played again after the rejoin."""
        if self.phase is not None:
            self._stop(self.phase)

    def failed(self, exc: Exception) -> None:
        """Playing raised (a bug of ours): note it, stop the search, submit safe orders."""
        phase = self.phase
        if phase is None:
            return
        self.out.note(notes.PhaseFailed(phase.turn, repr(exc)))
        self._stop(phase)
        # Nothing can be sent without a session; the phase is played again after a rejoin.
        with contextlib.suppress(SessionNotReady, NotConnected):
            self.recover()

    def _play(self, phase: PhaseState) -> None:
        """Play ``phase`` from its start (again, after a rejoin)."""
        pos = phase.position
        try:
            if self.final_year is not None and pos.ended_by(self.final_year):
                # The final year has been played out (BANDANA's -fy): offer the draw.
                self.out.send(Drw())
            phase.step(PhaseStep.PLAY)
            if has_orders_to_give(pos, phase.book.power_id):
                self._apply(phase, self.chooser.play(self._view(phase)))
                self._advance(phase)
            else:
                # No GOF outside movement: on MILA a GOF that completes a phase leaks into
                # the next one (docs/servers.md), and Parlance needs none there.
                self._settle(phase, PhaseStep.FINISH)
        except (SessionNotReady, NotConnected):
            self._stop(phase)  # played again when the session can take it
            raise
        except Exception as exc:  # a bug in our own play must not cost the phase
            self.failed(exc)

    def _stop(self, phase: PhaseState) -> None:
        """The phase stops being played (connection lost, our bug): its jobs are cancelled."""
        self._stop_jobs(phase)
        phase.step(PhaseStep.STOP)

    # --- the chooser's decisions --------------------------------------------------------------

    def _view(self, phase: PhaseState) -> do.PhaseView:
        """What the chooser sees of ``phase`` now."""
        return do.PhaseView(phase, self.out.now, self.rng, self.out.table, self.iterations)

    def _apply(self, phase: PhaseState, decisions: list[do.Decision]) -> None:
        """Carry out the chooser's ``decisions`` for ``phase``, in order."""
        for decision in decisions:
            match decision:
                case do.Submit(orders=orders):
                    self.submit_engine(phase, orders)
                case do.SubmitOrders(orders=orders):
                    self.submit(phase, list(orders))
                case do.HoldBack():
                    self.hold_back(phase)
                case do.Ready():
                    self.go(phase)
                case do.Final():
                    self._settle(phase, PhaseStep.FINISH)
                case do.OrdersIn():
                    self._settle(phase, PhaseStep.SET_IN)
                case do.Search(limit=limit):
                    self.start_search(phase, limit)
                case do.Retime(limit=limit):
                    self._retime(phase, limit)
                case do.StopSearch():
                    self.stop_search(phase)
                case do.WakeAt(at=at):
                    self.out.tick(at)
                case do.HintSearch(limit=limit, ranked=ranked):
                    self._cancel(phase.hint)
                    phase.hint = self._start_job(phase, limit, ranked)
                case do.Note(note=note):
                    self.out.note(note)

    def _settle(self, phase: PhaseState, step: PhaseStep) -> None:
        """Our orders for ``phase`` are final (``FINISH``) or a person's set is in (``SET_IN``).

        A rejoin then only resends them; the phase is noted as played once.
        """
        phase.step(step)
        if not self._counted:
            self._counted = True
            self.out.note(notes.PhasePlayed(phase.turn))

    def hold_back(self, phase: PhaseState) -> None:
        """Ask the server to wait for the deadline (``NOT (GOF)``)."""
        self.out.send(Not(Gof()))
        phase.book.ready = False  # pragma: no mutate (None or False: only its truth is read)

    def go(self, phase: PhaseState) -> None:
        """Tell the server our orders are final (``GOF``), noting the final set of a movement."""
        if phase.position.is_movement:
            # The set the server holds: a refused order is noted as what replaced it.
            chosen = tuple(format_order(o, self.out.table) for o in phase.book.current)
            self.out.note(notes.OrdersChosen(phase.turn, chosen))
        self.out.send(Gof())
        phase.book.ready = True

    def start_search(self, phase: PhaseState, limit: SearchLimit) -> SearchState:
        """Start the phase's search job for our power within ``limit``."""
        job = phase.search = self._start_job(phase, limit)
        self.out.note(notes.SearchStarted(phase.turn, job.job_id, limit.stop_at))
        return job

    def _start_job(self, phase: PhaseState, limit: SearchLimit, ranked: int = 0) -> SearchState:
        self._next_job += 1  # pragma: no mutate (job ids need only be distinct)
        job = SearchState(self._next_job, limit)
        power = phase.book.power_id
        self.out.act(StartSearch(job.job_id, phase.position, power, limit, ranked))
        return job

    def _retime(self, phase: PhaseState, limit: SearchLimit) -> None:
        """Give the phase's search job a new ``limit``."""
        search = phase.search
        if search is None:
            return
        search.limit = limit
        self.out.act(RetimeSearch(search.job_id, limit))
        self.out.note(notes.SearchRetimed(phase.turn, search.job_id, limit.stop_at))

    def stop_search(self, phase: PhaseState) -> None:
        """Cancel the phase's search job, if one is running."""
        self._cancel(phase.search)
        phase.search = None

    def _cancel(self, job: SearchState | None) -> None:
        if job is not None and not job.done:
            self._cancelled[job.job_id] = job.limit.stop_at
            self.out.act(CancelSearch(job.job_id))

    def _stop_jobs(self, phase: PhaseState) -> None:
        self.stop_search(phase)
        self._cancel(phase.hint)
        phase.hint = None

    # --- the search's messages and the clock ----------------------------------------------

    def search_unavailable(self, event: ev.SearchUnavailable) -> None:
        """The shell could not start a job: the chooser's phase goes on without it."""
        phase = self.phase
        if phase is None:
            return
        if phase.hint is not None and phase.hint.job_id == event.job_id:
            self._hint_report(phase, Failed(event.job_id, event.error))
        elif phase.search is not None and phase.search.job_id == event.job_id:
            self.out.note(notes.SearchUnavailable(phase.turn, event.job_id, event.error))
            phase.search = None
            self._advance(phase)

    def search_message(self, message: Progress | Answer | Failed) -> None:
        """The search worker's improvement, final answer or failure, for the job it is about."""
        phase = self.phase
        if phase is not None and phase.hint is not None and message.job_id == phase.hint.job_id:
            if not isinstance(message, Progress):
                self._hint_report(phase, message)
        elif phase is not None and phase.search is not None:
            if message.job_id == phase.search.job_id:
                self._search_report(phase, phase.search, message)
            else:
                self._stale(message)
        else:
            self._stale(message)

    def _search_report(
        self, phase: PhaseState, search: SearchState, message: Progress | Answer | Failed
    ) -> None:
        """Keep what the phase's job reported, tell the chooser, and move the phase on."""
        if isinstance(message, Failed):
            search.failed = True
            self.out.note(notes.SearchFailed(phase.turn, message.error))
        else:
            search.best = message
            final = isinstance(message, Answer)
            self.out.note(notes.SearchReport(phase.turn, message.job_id, final, message.stats))
            if isinstance(message, Answer):
                search.answer = message
                self.budget.handover.add(self.out.now - search.limit.stop_at)
        self._apply(phase, self.chooser.search_report(self._view(phase), message))
        self._advance(phase)

    def _hint_report(self, phase: PhaseState, message: Answer | Failed) -> None:
        """The hint's job is over: the chooser says what it was."""
        phase.hint = None
        self._apply(phase, self.chooser.hint_report(self._view(phase), message))

    def _stale(self, message: Progress | Answer | Failed) -> None:
        """A message about a job we no longer wait for: dropped, its lateness still measured."""
        self.out.note(notes.StaleSearchMessage(message.job_id))
        if isinstance(message, Progress):
            return
        stop_at = self._cancelled.pop(message.job_id, None)
        if isinstance(message, Answer) and stop_at is not None:
            self.budget.handover.add(self.out.now - stop_at)

    def advance(self) -> None:
        """Time passed or the server answered: the chooser moves the phase on."""
        if self.phase is not None:
            self._advance(self.phase)

    def _advance(self, phase: PhaseState) -> None:
        if phase.playing:
            self._apply(phase, self.chooser.advance(self._view(phase)))

    # --- a person's input ---------------------------------------------------------------------

    def person_input(self, event: ev.PersonOrders | ev.PersonReady | ev.HintRequested) -> None:
        """A person's orders, readiness or request for a hint, for the phase ``event.turn``."""
        phase = self.phase
        if phase is None or phase.turn != event.turn:
            now = "no phase" if phase is None else str(phase.turn)
            self.out.note(notes.PersonOrdersRefused(event.turn, f"the phase in play is {now}"))
            return
        view = self._view(phase)
        if isinstance(event, ev.HintRequested):
            decisions = self.chooser.hint(view, event.seconds)
        elif isinstance(event, ev.PersonReady):
            decisions = self.chooser.person_ready(view, event.ready)
        else:
            decisions = self.chooser.person_orders(view, event.orders)
        self._apply(phase, decisions)

    def propose_draw(self) -> None:
        """A person proposes a draw."""
        self.out.send(Drw())

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

    def submit(self, phase: PhaseState, orders: list[Order]) -> None:
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

    def submit_engine(self, phase: PhaseState, orders: Orders) -> None:
        """Submit a movement or retreat set in engine form (never an order refused before)."""
        self.submit(phase, phase.book.choose(orders))

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
        elif m.note == "MBV":
            self.out.note(notes.OrderAccepted(m.order))
        if verdict.resubmit is not None and self.chooser.fills_gaps:
            self.submit(phase, verdict.resubmit)
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
        listed = tuple(
            format_unit(u.unit, self.out.table) for u in m.units if u.unit.power == phase.book.power
        )
        self.out.note(notes.MissingListed(phase.turn, listed, m.count))
        if not self.chooser.fills_gaps:
            return
        if m.count is not None:
            orders, ignored = phase.book.on_mis_count(m.count)
            if ignored is not None:
                self.out.ignore(ignored, m)
            if orders is not None:
                self.out.note(notes.OrdersMissing(m.count, adjustments=True))
                self.submit(phase, orders)
            return
        units = [(u.unit, u.retreats is not None) for u in m.units]
        completed, ignored = phase.book.on_mis_units(units)
        if ignored is not None:
            self.out.ignore(ignored, m)
        if completed is not None:
            self.out.note(notes.OrdersMissing(len(completed) - len(phase.book.current)))
            self.submit(phase, completed)

    def recover(self) -> None:
        """Resubmit a complete, safe order set for the current phase (once per phase).

        A person's seat resubmits only what the person submitted, never a set of its own.
        """
        phase = self.phase
        if phase is None:
            return
        fills = self.chooser.fills_gaps

        def fallback() -> list[Order]:
            units = safe_set(phase.position, phase.book.power_id)
            return phase.book.choose(units) if fills and units else []

        orders = phase.book.recovery(fallback)
        if orders is not None:
            self.submit(phase, orders)

    def _resend_orders(self, phase: PhaseState) -> None:
        """After a rejoin in a phase whose orders were final: make sure the server has them."""
        if phase.book.current:
            self.submit(phase, list(phase.book.current))
        if phase.position.is_movement:
            self.out.send(Gof() if phase.book.ready else Not(Gof()))
