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

A chooser is asked with a read-only :class:`~bot.client.core.decisions.PhaseView`
and answers with :mod:`~bot.client.core.decisions` (orders to submit, ``GOF``,
a search to start, "final", a note...), which the player carries out in order;
it sends nothing and moves no stage itself.  Every chooser answers the same
questions, a person's input and a hint among them: there is one door.  It
keeps nothing across phases beyond its settings (the search's improvements
waiting to go out are the phase's, begun again by :meth:`PhaseChooser.play`),
so a rejoin that plays a phase again simply calls :meth:`PhaseChooser.play` again.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from random import Random
from typing import Protocol

from adjudicator.convert import adjustment_value, movement_value, retreat_value
from adjudicator.legal import complete_with_disbands, complete_with_holds
from adjudicator.orders import EngineOrder, Orders
from adjudicator.position import Position
from bot.client.core import notes
from bot.client.core.decisions import (
    Decision,
    Final,
    HintSearch,
    HoldBack,
    Note,
    PhaseView,
    Ready,
    Retime,
    Search,
    StopSearch,
    Submit,
    SubmitOrders,
    WakeAt,
)
from protocol.notation import format_order
from protocol.values import Order
from search.heuristics import PhaseHeuristics
from search.mcts.root_summary import RANKED_SETS, RootSummary
from search.mcts.worker_protocol import Answer, Failed, Progress
from search.policy import Policy, SearchLimit
from search.registry import make_policy, parse_spec

RESUBMIT_INTERVAL = 1.0
"""Least seconds between two submissions of search improvements in one phase."""

RETIME_THRESHOLD = 0.05
"""Least change (seconds) of a job's stop time worth a new limit."""

HINT_COLLECT = 0.5
"""Seconds after a hint's stop time that its root-parallel helpers are waited for."""

MIN_HINT_SECONDS = 0.1
"""The shortest a hint may search."""

MAX_HINT_SECONDS = 30.0
"""The longest a hint may search."""

NOT_A_PERSON = "this seat is not a person's"
"""Why a bot's seat refuses a person's orders and readiness."""


class PhaseChooser(Protocol):
    """Chooses one power's orders for each phase the core plays (the one door to them).

    ``fills_gaps`` says whether the core may order for the chooser: a safe
    order in place of one the server refused, holds or disbands for the units a
    ``MIS`` names, a safe set after our own error.  A bot's chooser does; a
    person's does not (their units hold by the server's rules instead).
    ``needs_worker`` says whether the shell should start a search worker.
    Every method answers with the decisions to carry out, in order.
    """

    fills_gaps: bool
    needs_worker: bool

    def play(self, view: PhaseView) -> list[Decision]:
        """The phase begins (or is played again after a rejoin): choose, submit, or wait."""
        ...

    def advance(self, view: PhaseView) -> list[Decision]:
        """Time passed or the server answered (a tick, a THX, a TME): move the phase on."""
        ...

    def search_report(self, view: PhaseView, message: Progress | Answer | Failed) -> list[Decision]:
        """The phase's search job reported (the player then moves the phase on)."""
        ...

    def person_orders(self, view: PhaseView, orders: Sequence[Order]) -> list[Decision]:
        """A person's complete set for the phase."""
        ...

    def person_ready(self, view: PhaseView, ready: bool) -> list[Decision]:
        """A person is done (``GOF``), or not yet (``NOT (GOF)``)."""
        ...

    def hint(self, view: PhaseView, seconds: float) -> list[Decision]:
        """A person asks what the bot would play, searching for at most ``seconds``."""
        ...

    def hint_report(self, view: PhaseView, message: Answer | Failed) -> list[Decision]:
        """The hint's search answered (or failed, or could not start)."""
        ...


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


def one_shot(phases: Policy | PhaseHeuristics, view: PhaseView) -> Submit | SubmitOrders:
    """A retreat or adjustment phase's complete set as ``phases`` choose it, at once."""
    pos = view.position
    power = view.power_id
    if pos.is_retreat:
        orders = phases.retreat_orders(pos, power, view.rng)
        return Submit(complete_with_disbands(pos, power, orders))
    chosen = phases.adjustment_orders(pos, power, view.rng)
    return SubmitOrders(tuple(adjustment_value(pos, power, o) for o in chosen))


def _as_text(view: PhaseView, chosen: Submit | SubmitOrders) -> tuple[str, ...]:
    """A set as DAIDE text in the game's token table, one order each."""
    if isinstance(chosen, SubmitOrders):
        return tuple(format_order(o, view.table) for o in chosen.orders)
    pos = view.position
    value = movement_value if pos.is_movement else retreat_value
    return tuple(
        format_order(value(pos, p, o), view.table) for p, o in sorted(chosen.orders.items())
    )


def _ranked_text(
    view: PhaseView, summary: RootSummary
) -> tuple[tuple[notes.HintSet, ...], tuple[tuple[notes.HintShare, ...], ...]]:
    """The search's best sets and each unit's spread, in DAIDE text."""
    pos = view.position

    def text(province: int, order: EngineOrder) -> str:
        return format_order(movement_value(pos, province, order), view.table)

    sets = tuple(
        notes.HintSet(
            tuple(text(p, o) for p, o in sorted(s.orders.items())), s.value, s.visits, s.share
        )
        for s in summary.sets
    )
    spread = tuple(
        tuple(notes.HintShare(text(p, s.order), s.share, s.value) for s in shares)
        for p, shares in sorted(summary.spread.items())
    )
    return sets, spread


class Advisor:
    """Hints for a person: what the bot would play (the search in movement, else heuristics)."""

    def hint(self, view: PhaseView, seconds: float) -> list[Decision]:
        """A search for our power in movement, the heuristics' set at once in other phases."""
        pos = view.position
        if not has_orders_to_give(pos, view.power_id):
            return [Note(notes.HintFailed(view.turn, "nothing to order in this phase"))]
        if not pos.is_movement:
            chosen = _as_text(view, one_shot(PhaseHeuristics(), view))
            return [Note(notes.HintReady(view.turn, chosen, {}))]
        seconds = min(max(seconds, MIN_HINT_SECONDS), MAX_HINT_SECONDS)
        stop_at = view.now + seconds
        limit = SearchLimit(stop_at, stop_at + HINT_COLLECT, view.iterations)
        return [HintSearch(limit, RANKED_SETS)]

    def hint_report(self, view: PhaseView, message: Answer | Failed) -> list[Decision]:
        """The hint's orders, completed with holds, as a note (never submitted).

        With the search's ranked sets and each unit's spread, when it gave them.
        """
        if isinstance(message, Failed):
            return [Note(notes.HintFailed(view.turn, message.error))]
        engine = complete_with_holds(view.position, view.power_id, message.orders)
        stats = dict(message.stats)
        summary = stats.pop("ranked", None)
        sets: tuple[notes.HintSet, ...] = ()
        spread: tuple[tuple[notes.HintShare, ...], ...] = ()
        if isinstance(summary, RootSummary):
            sets, spread = _ranked_text(view, summary)
        chosen = _as_text(view, Submit(engine))
        return [Note(notes.HintReady(view.turn, chosen, stats, sets, spread))]


class _BotChooser(Advisor):
    """A bot's chooser: it fills gaps, refuses a person's input, plays one-shot phases at once."""

    fills_gaps = True

    def __init__(self, phases: Policy | PhaseHeuristics) -> None:
        self._phases = phases

    def play_other(self, view: PhaseView) -> list[Decision]:
        """A retreat or adjustment phase: the policy's set, final."""
        return [one_shot(self._phases, view), Final()]

    def person_orders(self, view: PhaseView, orders: Sequence[Order]) -> list[Decision]:
        """Refused: no person plays this seat."""
        return [Note(notes.PersonOrdersRefused(view.turn, NOT_A_PERSON))]

    def person_ready(self, view: PhaseView, ready: bool) -> list[Decision]:
        """Refused: no person plays this seat."""
        return [Note(notes.PersonOrdersRefused(view.turn, NOT_A_PERSON))]


class SearchChooser(_BotChooser):
    """The bot: DumbBot's set at once, then the search's, the final one before the deadline."""

    needs_worker = True

    def __init__(self) -> None:
        super().__init__(PhaseHeuristics())
        self._quick_policy: Policy | None = None
        self._pending: Orders | None = None  # an improvement not submitted yet
        self._last_sent = 0.0  # when the phase's last set from the search (or the quick one) went

    def play(self, view: PhaseView) -> list[Decision]:
        """Movement: NOT (GOF), the quick set, a search job; other phases at once."""
        if not view.position.is_movement:
            return self.play_other(view)
        self._pending = None
        self._last_sent = view.now
        decisions: list[Decision] = [HoldBack()]
        decisions += self._quick_orders(view)
        decisions.append(Search(view.search_limit()))
        return decisions

    def _quick_orders(self, view: PhaseView) -> list[Decision]:
        """A sensible order set in milliseconds: DumbBot's, or all holds if that fails."""
        pos = view.position
        power = view.power_id
        try:
            if self._quick_policy is None:
                self._quick_policy = make_policy("dumbbot", seed=view.rng.randrange(1 << 30))
            orders = self._quick_policy.movement_orders(pos, power, view.rng)
            return [Submit(complete_with_holds(pos, power, orders))]
        except Exception as exc:  # a heuristic's bug must not cost the phase
            failed = Note(notes.QuickOrdersFailed(repr(exc)))
            return [failed, Submit(complete_with_holds(pos, power, {}))]

    def search_report(self, view: PhaseView, message: Progress | Answer | Failed) -> list[Decision]:
        """Keep the search's latest set, submitted at most once per interval."""
        if not isinstance(message, Failed) and message.orders:
            self._pending = complete_with_holds(view.position, view.power_id, message.orders)
        return []

    def advance(self, view: PhaseView) -> list[Decision]:
        """Submit what is due, retime, finish, or wait."""
        if not view.position.is_movement:
            return []
        search = view.search
        if search is None:
            return self._finish(view, view.submitted)
        decisions: list[Decision] = []
        submitted: Mapping[int, EngineOrder] = view.submitted
        now = view.now
        due = search.done or now - self._last_sent >= RESUBMIT_INTERVAL
        if self._pending is not None and due:
            if self._pending != submitted:
                decisions.append(Submit(self._pending))
                submitted = self._pending
                self._last_sent = now
            self._pending = None
        submit_by = view.submit_by()
        if search.done or now >= submit_by:
            return decisions + self._finish(view, submitted)
        limit = view.search_limit()
        if abs(limit.stop_at - search.limit.stop_at) >= RETIME_THRESHOLD:
            decisions.append(Retime(limit))
        wake = submit_by
        if self._pending is not None:
            wake = min(wake, self._last_sent + RESUBMIT_INTERVAL)
        decisions.append(WakeAt(wake))
        return decisions

    def _finish(self, view: PhaseView, submitted: Mapping[int, EngineOrder]) -> list[Decision]:
        """The last submission time has come (or the search is done): final set, then GOF.

        ``submitted`` is the set last submitted, counting the decisions already made.
        """
        decisions: list[Decision] = []
        search = view.search
        if search is not None:
            best = search.best
            if search.answer is None and best is not None and best.orders:
                latest = complete_with_holds(view.position, view.power_id, best.orders)
                if latest != submitted:
                    decisions.append(Submit(latest))
            stale = search.answer.stats.get("stale_helper_answers") if search.answer else None
            submitted_answer = search.answer is not None
            stale_count = stale if isinstance(stale, int) else None
            final = notes.FinalAnswer(view.turn, search.job_id, submitted_answer, stale_count)
            decisions += [Note(final), StopSearch()]
        return [*decisions, Ready(), Final()]


class WithoutSearch:
    """A chooser that runs no search of its phases: nothing to wait for, no job to hear from."""

    def advance(self, view: PhaseView) -> list[Decision]:
        """Nothing to wait for."""
        return []

    def search_report(self, view: PhaseView, message: Progress | Answer | Failed) -> list[Decision]:
        """No search of the phase runs."""
        return []


class HeuristicChooser(WithoutSearch, _BotChooser):
    """A one-shot player (``dumbbot``, ``random``) answering every phase at once, in process."""

    needs_worker = False

    def __init__(self, policy: Policy) -> None:
        super().__init__(policy)
        self.policy = policy

    def play(self, view: PhaseView) -> list[Decision]:
        """The policy's orders for the phase, submitted and final."""
        pos = view.position
        if not pos.is_movement:
            return self.play_other(view)
        power = view.power_id
        decisions: list[Decision] = []
        try:
            orders = self.policy.movement_orders(pos, power, view.rng)
        except Exception as exc:  # a heuristic's bug must not cost the phase
            decisions.append(Note(notes.QuickOrdersFailed(repr(exc))))
            orders = {}
        return [*decisions, Submit(complete_with_holds(pos, power, orders)), Ready(), Final()]


def bot_chooser(strategy: str, rng: Random) -> PhaseChooser:
    """The chooser of a bot playing ``strategy``: the search for ``mcts``, else the heuristic."""
    if parse_spec(strategy)[0] == "mcts":
        return SearchChooser()
    return HeuristicChooser(make_policy(strategy, seed=rng.randrange(1 << 30)))
