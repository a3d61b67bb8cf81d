"""The one interface through which the core gets a phase's orders, and the bot's choosers.

The core (:class:`~bot.client.core.playing.PhasePlayer`) runs the phase protocol the same
way whoever chooses: it submits complete sets through the order book, answers
THX and MIS, follows the deadline, offers the draw, resends after a rejoin.
What to submit, and when, is a :class:`PhaseChooser`'s:

* :class:`SearchChooser` — the bot: a quick DumbBot set at once, the MCTS
  worker's improvements as they come, its final answer before the last
  submission time; random legal retreats; heuristic builds and removals;
* :class:`HeuristicChooser` — a one-shot player (``dumbbot``, ``random``)
  answering every phase at once, in this process;
* :class:`~bot.client.core.person.PersonChooser` — a person at a page: orders
  arrive as events, nothing is submitted for them.

A chooser acts through the :class:`Seat` it is handed (the player's verbs);
it keeps no state of its own across phases beyond its settings, so a rejoin
that plays a phase again simply calls :meth:`PhaseChooser.play` again.
"""

from __future__ import annotations

from random import Random
from typing import Protocol

from adjudicator.convert import adjustment_value
from adjudicator.legal import complete_with_disbands, complete_with_holds
from adjudicator.orders import Orders
from adjudicator.position import Position
from bot.client.core import events as ev
from bot.client.core import notes
from bot.client.core.effects import RetimeSearch
from bot.client.core.outbox import Outbox
from bot.client.core.phasestate import PhaseState, SearchState
from bot.client.core.timebudget import TimeBudget
from protocol.values import Order
from search.heuristics import PhaseHeuristics
from search.mcts.worker_protocol import Answer, Failed, Progress
from search.policy import Policy, SearchLimit
from search.registry import make_policy, parse_spec

RESUBMIT_INTERVAL = 1.0
"""Least seconds between two submissions of search improvements in one phase."""

RETIME_THRESHOLD = 0.05
"""Least change (seconds) of a job's stop time worth a new limit."""


class Seat(Protocol):
    """What a chooser may do in the phase in play (the player's verbs)."""

    out: Outbox
    budget: TimeBudget
    rng: Random

    def submit(self, phase: PhaseState, orders: list[Order]) -> None:
        """Submit ``orders`` as the phase's complete set."""

    def submit_engine(self, phase: PhaseState, orders: Orders) -> None:
        """Submit a movement or retreat set in engine form (never an order refused before)."""

    def hold_back(self, phase: PhaseState) -> None:
        """Ask the server to wait for the deadline (``NOT (GOF)``)."""

    def go(self, phase: PhaseState) -> None:
        """Tell the server our orders are final (``GOF``)."""

    def complete(self, phase: PhaseState) -> None:
        """Our orders for the phase are final: a rejoin only resends them."""

    def start_search(self, phase: PhaseState, limit: SearchLimit) -> SearchState:
        """Start a search job for our power in the phase's position."""

    def stop_search(self, phase: PhaseState) -> None:
        """Cancel the phase's search job, if one is running."""

    def search_limit(self, phase: PhaseState) -> SearchLimit:
        """The phase clock's current limit for a search."""


class PhaseChooser(Protocol):
    """Chooses one power's orders for each phase the core plays.

    ``fills_gaps`` says whether the core may order for the chooser: a safe
    order in place of one the server refused, holds or disbands for the units a
    ``MIS`` names, a safe set after our own error.  A bot's chooser does; a
    person's does not (their units hold by the server's rules instead).
    ``needs_worker`` says whether the shell should start a search worker.
    """

    fills_gaps: bool
    needs_worker: bool

    def play(self, phase: PhaseState, seat: Seat) -> None:
        """``phase`` begins (or is played again after a rejoin): choose, submit, or wait."""

    def advance(self, phase: PhaseState, seat: Seat) -> None:
        """Time passed or the server answered (a tick, a THX, a TME): move the phase on."""

    def search_message(
        self, phase: PhaseState, seat: Seat, message: Progress | Answer | Failed
    ) -> None:
        """The phase's search job reported (an improvement, its answer, a failure)."""

    def search_unavailable(
        self, phase: PhaseState, seat: Seat, event: ev.SearchUnavailable
    ) -> None:
        """The phase's search job could not start."""


def safe_set(pos: Position, power: int) -> Orders:
    """Holds for every unit in a movement phase, disbands in a retreat phase; else nothing."""
    if pos.is_movement:
        return complete_with_holds(pos, power, {})
    if pos.is_retreat:
        return complete_with_disbands(pos, power, {})
    return {}


def has_orders_to_give(pos: Position, power: int) -> bool:
    """Whether ``power`` orders anything in ``pos``: units, dislodged units, or adjustments."""
    if pos.is_movement:
        return any(u[0] == power for u in pos.units.values())
    if pos.is_retreat:
        return any(d[0] == power for d in pos.dislodged.values())
    return pos.adjustments()[power] != 0


class _OneShotPhases:
    """Retreats and adjustments chosen by ``policy`` at once; the phase is then final."""

    def __init__(self, policy: Policy | PhaseHeuristics) -> None:
        self._phases = policy

    def play_other(self, phase: PhaseState, seat: Seat) -> None:
        """A retreat or adjustment phase: submit the policy's set and finish."""
        pos = phase.position
        power = phase.book.power_id
        if pos.is_retreat:
            orders = self._phases.retreat_orders(pos, power, seat.rng)
            seat.submit_engine(phase, complete_with_disbands(pos, power, orders))
        else:
            chosen = self._phases.adjustment_orders(pos, power, seat.rng)
            seat.submit(phase, [adjustment_value(pos, power, o) for o in chosen])
        seat.complete(phase)


class SearchChooser(_OneShotPhases):
    """The bot: DumbBot's set at once, then the search's, the final one before the deadline."""

    fills_gaps = True
    needs_worker = True

    def __init__(self) -> None:
        super().__init__(PhaseHeuristics())
        self._quick_policy: Policy | None = None

    def play(self, phase: PhaseState, seat: Seat) -> None:
        """Movement: quick set, search job, GOF at the end; other phases at once."""
        if not phase.position.is_movement:
            self.play_other(phase, seat)
            return
        phase.active = True
        seat.hold_back(phase)
        seat.submit_engine(phase, self._quick_orders(phase, seat))
        seat.start_search(phase, seat.search_limit(phase))
        self.advance(phase, seat)

    def _quick_orders(self, phase: PhaseState, seat: Seat) -> Orders:
        """A sensible order set in milliseconds: DumbBot's, or all holds if that fails."""
        pos = phase.position
        power = phase.book.power_id
        try:
            if self._quick_policy is None:
                self._quick_policy = make_policy("dumbbot", seed=seat.rng.randrange(1 << 30))
            orders = self._quick_policy.movement_orders(pos, power, seat.rng)
            return complete_with_holds(pos, power, orders)
        except Exception as exc:  # a heuristic's bug must not cost the phase
            seat.out.note(notes.QuickOrdersFailed(repr(exc)))
            return complete_with_holds(pos, power, {})

    def search_message(
        self, phase: PhaseState, seat: Seat, message: Progress | Answer | Failed
    ) -> None:
        """Keep the search's latest set (submitted at most once per interval) and its answer."""
        search = phase.search
        assert search is not None
        if isinstance(message, Failed):
            search.failed = True
            seat.out.note(notes.SearchFailed(phase.turn, message.error))
        else:
            search.best = message
            if message.orders:
                pos = phase.position
                search.pending = complete_with_holds(pos, phase.book.power_id, message.orders)
            final = isinstance(message, Answer)
            seat.out.note(notes.SearchReport(phase.turn, message.job_id, final, message.stats))
            if isinstance(message, Answer):
                search.answer = message
                seat.budget.handover.add(seat.out.now - search.limit.stop_at)
        self.advance(phase, seat)

    def search_unavailable(
        self, phase: PhaseState, seat: Seat, event: ev.SearchUnavailable
    ) -> None:
        """The quick orders stand."""
        seat.out.note(notes.SearchUnavailable(phase.turn, event.job_id, event.error))
        phase.search = None
        self._finish_movement(phase, seat)

    def advance(self, phase: PhaseState, seat: Seat) -> None:
        """Submit what is due, retime, finish, or wait."""
        if not phase.active or not phase.position.is_movement:
            return
        search = phase.search
        if search is None:
            self._finish_movement(phase, seat)
            return
        now = seat.out.now
        due = search.done or now - search.last_sent >= RESUBMIT_INTERVAL
        if search.pending is not None and due:
            if search.pending != phase.book.engine:
                seat.submit_engine(phase, search.pending)
                search.last_sent = now
            search.pending = None
        submit_by = phase.clock.submit_by()
        if search.done or now >= submit_by:
            self._finish_movement(phase, seat)
            return
        self._retime(phase, search, seat)
        wake = submit_by
        if search.pending is not None:
            wake = min(wake, search.last_sent + RESUBMIT_INTERVAL)
        seat.out.tick(wake)

    def _retime(self, phase: PhaseState, search: SearchState, seat: Seat) -> None:
        limit = seat.search_limit(phase)
        if abs(limit.stop_at - search.limit.stop_at) < RETIME_THRESHOLD:
            return
        search.limit = limit
        seat.out.act(RetimeSearch(search.job_id, limit))
        seat.out.note(notes.SearchRetimed(phase.turn, search.job_id, limit.stop_at))

    def _finish_movement(self, phase: PhaseState, seat: Seat) -> None:
        """The last submission time has come (or the search is done): final set, then GOF."""
        search = phase.search
        if search is not None:
            best = search.best
            if search.answer is None and best is not None and best.orders:
                latest = complete_with_holds(phase.position, phase.book.power_id, best.orders)
                if latest != phase.book.engine:
                    seat.submit_engine(phase, latest)
            stale = search.answer.stats.get("stale_helper_answers") if search.answer else None
            submitted = search.answer is not None
            stale_count = stale if isinstance(stale, int) else None
            seat.out.note(notes.FinalAnswer(phase.turn, search.job_id, submitted, stale_count))
            seat.stop_search(phase)
        seat.go(phase)
        seat.complete(phase)


class WithoutSearch:
    """A chooser that runs no search of its phases: nothing to wait for, no job to hear from."""

    def advance(self, phase: PhaseState, seat: Seat) -> None:
        """Nothing to wait for."""

    def search_message(
        self, phase: PhaseState, seat: Seat, message: Progress | Answer | Failed
    ) -> None:
        """No search of the phase runs."""

    def search_unavailable(
        self, phase: PhaseState, seat: Seat, event: ev.SearchUnavailable
    ) -> None:
        """No search of the phase runs."""


class HeuristicChooser(WithoutSearch, _OneShotPhases):
    """A one-shot player (``dumbbot``, ``random``) answering every phase at once, in process."""

    fills_gaps = True
    needs_worker = False

    def __init__(self, policy: Policy) -> None:
        super().__init__(policy)
        self.policy = policy

    def play(self, phase: PhaseState, seat: Seat) -> None:
        """The policy's orders for the phase, submitted and final."""
        pos = phase.position
        if not pos.is_movement:
            self.play_other(phase, seat)
            return
        power = phase.book.power_id
        try:
            orders = self.policy.movement_orders(pos, power, seat.rng)
        except Exception as exc:  # a heuristic's bug must not cost the phase
            seat.out.note(notes.QuickOrdersFailed(repr(exc)))
            orders = {}
        seat.submit_engine(phase, complete_with_holds(pos, power, orders))
        seat.go(phase)
        seat.complete(phase)


def bot_chooser(strategy: str, rng: Random) -> PhaseChooser:
    """The chooser of a bot playing ``strategy``: the search for ``mcts``, else the heuristic."""
    if parse_spec(strategy)[0] == "mcts":
        return SearchChooser()
    return HeuristicChooser(make_policy(strategy, seed=rng.randrange(1 << 30)))
