"""The seat's coach: every phase the person played graded live, and "try again" from any of them.

:class:`SeatCoach` hears every message the server sends the seat (as text, read as a
run folder's record is read: :class:`~bot.toolkit.messagelog.RecordedText` and
:class:`~bot.coach.recorded_game.GameReader`).  When a phase is over (the next one
begins, or the game ends), the person's orders in it, as the server adjudicated
them, are graded against the bot's choice from the same position by
:func:`bot.coach.game_review.review_phase` — the very function ``daide-mcts
review`` grades each phase with — with the same seed (:data:`GRADE_SEED`, review's
default) and budget (:data:`~search.grading.DEFAULT_SETTINGS`), so ``daide-mcts
review`` on the game's record gives the grades the page gave.

The grading runs in one worker process (spawned, at a lower priority), never in
the seat's event loop: the person and the bots never wait for it.  Its results
arrive on the pool's thread; :attr:`SeatCoach.listeners` hear each one (the web
app wakes its event stream).  :meth:`SeatCoach.view` is what the page shows
(:class:`~bot.human.api.CoachView`).

:meth:`SeatCoach.try_again` plays a graded phase again: the same position, the
other powers' recorded orders, the person's new orders, adjudicated by the
project's adjudicator (:func:`adjudicator.daide.adjudicate_phase`), and compares
the outcome with what happened.
"""

from __future__ import annotations

import contextlib
import functools
import multiprocessing
import os
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass

from adjudicator.daide import adjudicate_phase
from adjudicator.position import Position
from adjudicator.rule_errors import AdjudicatorError
from bot.client.core.person import legal_choices
from bot.coach.game_review import PhaseReview, Review, adjudicated, gradable, review_phase
from bot.coach.recorded_game import GameReader, RecordedPhase
from bot.human.api import (
    BadRequest,
    CoachView,
    GradeView,
    MomentView,
    OutcomeView,
    ResultView,
    TryAnswer,
    read_orders,
)
from bot.toolkit.messagelog import RecordedText
from bot.toolkit.order_words import format_order_text
from bot.view.timeline import describe_result, order_json
from protocol.messages import Off, Smr
from protocol.values import OrderResult, order_power
from search.grading import DEFAULT_SETTINGS, GradingError, GradingSettings

GRADE_SEED = 0
"""The seed of the live grades: ``daide-mcts review``'s default, so both give the same grades."""

WORKER_NICENESS = 10
"""How much lower the grading worker's priority is than the seat's (``os.nice``)."""

MAP_NAME = "seat"
"""The name the reader gives the game's map (only its messages' names matter)."""


def _lower_priority() -> None:
    """The worker's initializer: grading yields the processor to the seat and the bots."""
    with contextlib.suppress(OSError):
        os.nice(WORKER_NICENESS)


def grade_in_worker(
    phase: RecordedPhase,
    power: str,
    seed: int,
    settings: GradingSettings,
    final_year: int | None,
) -> PhaseReview:
    """One phase graded (in the worker process): :func:`bot.coach.game_review.review_phase`."""
    return review_phase(phase, power, seed, settings, final_year)


def grade_view(review: PhaseReview) -> GradeView:
    """A graded phase as the page shows it: the label, both sets' centres, the bot's set drawn."""
    g = review.grade
    return GradeView(
        turn=g.turn,
        kind=review.kind,
        label=g.label,
        played_centres=round(g.submitted, 3),
        bot_centres=round(g.reference, 3),
        loss=round(g.loss, 3),
        low=round(g.low, 3),
        high=round(g.high, 3),
        rollouts=g.rollouts,
        horizon=g.horizon,
        centres=review.centres,
        played=list(review.played),
        better=list(review.better),
        better_draw=[order_json(o) for o in review.better_orders],
        same=review.same,
    )


Pool = Callable[[], ProcessPoolExecutor]
"""Makes the grading worker (a pool of one process)."""


def spawn_pool() -> ProcessPoolExecutor:
    """One spawned worker process at a lower priority (spawned: the seat runs threads)."""
    return ProcessPoolExecutor(
        max_workers=1,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_lower_priority,
    )


@dataclass
class _Graded:
    """One phase's grade as it stands: waiting, done, or failed."""

    review: PhaseReview | None = None
    error: str | None = None


class SeatCoach:
    """Grades the person's phases as the game goes on (see the module's docstring).

    ``power_of`` says which power the seat plays (None until the server says);
    ``final_year`` is the game's last year, if known (it caps the search and the
    rollouts, as the record's summary does for ``review``).
    """

    def __init__(
        self,
        power_of: Callable[[], str | None],
        final_year: int | None = None,
        seed: int = GRADE_SEED,
        settings: GradingSettings = DEFAULT_SETTINGS,
        pool: Pool = spawn_pool,
    ) -> None:
        self.power_of = power_of
        self.final_year = final_year
        self.seed = seed
        self.settings = settings
        self.listeners: list[Callable[[], None]] = []
        self._make_pool = pool
        self._pool: ProcessPoolExecutor | None = None
        self._texts = RecordedText()
        self._reader = GameReader(MAP_NAME)
        self._graded: dict[int, _Graded] = {}
        self._over = False
        self._problem: str | None = None
        self._lock = threading.Lock()
        self._closed = False

    # --- hearing the game ---------------------------------------------------------------

    def heard(self, text: str) -> None:
        """A message the server sent the seat (its DAIDE text)."""
        message = self._texts.read(text)
        try:
            began = self._reader.feed(message)
        except AdjudicatorError as exc:
            self._problem = f"the game cannot be graded: {exc}"
            self._tell()
            return
        if began:
            self._grade_until(len(self._reader.phases) - 1)
        elif isinstance(message, Smr | Off) and not self._over:
            # The game is over: its last phase too, if it was played out (as review grades).
            self._over = True
            phases = self._reader.phases
            if phases and adjudicated(phases, len(phases) - 1):
                self._grade_until(len(phases))
            self._tell()

    def _grade_until(self, end: int) -> None:
        """Grade every phase before ``end`` not yet sent to the worker."""
        power = self.power_of()
        if power is None or self._closed:
            return
        phases = self._reader.phases
        for index in range(end):
            if index in self._graded:
                continue
            pos = phases[index].position
            if power not in pos.map.power_index:
                continue
            if not gradable(pos, pos.map.power_index[power], self.final_year):
                continue
            with self._lock:
                self._graded[index] = _Graded()
            if self._pool is None:
                self._pool = self._make_pool()
            future = self._pool.submit(
                grade_in_worker, phases[index], power, self.seed, self.settings, self.final_year
            )
            future.add_done_callback(functools.partial(self._done, index))
            self._tell()

    def _done(self, index: int, future: Future[PhaseReview]) -> None:
        """A grade came back from the worker (on the pool's thread)."""
        if future.cancelled():
            return
        error = future.exception()
        with self._lock:
            if error is None:
                self._graded[index] = _Graded(review=future.result())
            else:
                self._graded[index] = _Graded(error=_one_line(error))
        self._tell()

    def _tell(self) -> None:
        for listener in self.listeners:
            listener()

    def close(self) -> None:
        """Stop the worker (grades not done are dropped)."""
        self._closed = True
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)

    # --- what the page reads ------------------------------------------------------------

    def reviews(self) -> list[PhaseReview]:
        """The phases graded so far, in playing order."""
        with self._lock:
            return [g.review for _, g in sorted(self._graded.items()) if g.review is not None]

    def view(self) -> CoachView:
        """The grades so far, the phases still being graded, the costliest moments."""
        with self._lock:
            graded = sorted(self._graded.items())
        phases = self._reader.phases
        reviews = [g.review for _, g in graded if g.review is not None]
        power = self.power_of()
        costly = (
            []
            if power is None
            else Review(
                "", power, self.seed, self.settings, self.final_year, tuple(reviews)
            ).costly()
        )
        return CoachView(
            power=power,
            seed=self.seed,
            rollouts=self.settings.rollouts,
            iterations=self.settings.iterations,
            years=self.settings.years,
            grades=[grade_view(r) for r in reviews],
            pending=[str(phases[i].position.turn) for i, g in graded if g == _Graded()],
            failed={str(phases[i].position.turn): g.error for i, g in graded if g.error},
            costly=[r.grade.turn for r in costly],
            over=self._over,
            problem=self._problem,
        )

    # --- trying a moment again ----------------------------------------------------------

    def _moment(self, turn: str) -> tuple[int, RecordedPhase, str]:
        power = self.power_of()
        if power is None:
            raise BadRequest("the seat has no power yet")
        phases = self._reader.phases
        with self._lock:
            graded = {
                str(phases[i].position.turn): i
                for i, g in self._graded.items()
                if g.review is not None
            }
        index = graded.get(turn)
        if index is None:
            raise BadRequest(f"{turn[:16]!r} is not a graded phase of this game")
        return index, phases[index], power

    def moment(self, turn: str) -> MomentView:
        """A graded phase to try again: the orders the person may give there, and those played."""
        _, phase, power = self._moment(turn)
        choices = legal_choices(phase.position, power)
        return MomentView(
            turn=turn,
            kind=choices.kind,
            due=choices.due,
            options={k: [format_order_text(o) for o in orders] for k, orders in choices.items()},
            played=[format_order_text(o) for o in phase.orders_of(power)],
        )

    def try_again(self, turn: str, texts: Sequence[str]) -> TryAnswer:
        """``texts`` played in ``turn`` instead, against the others' recorded orders; compared."""
        index, phase, power = self._moment(turn)
        pos = phase.position
        mine = read_orders(texts, legal_choices(pos, power))
        theirs = [r.order for r in phase.results if order_power(r.order) != power]
        tried = adjudicate_phase(pos, [*theirs, *mine])
        happened = self._reader.phases[index + 1] if index + 1 < len(self._reader.phases) else None
        return TryAnswer(
            turn=turn,
            tried=_outcome(tried.results, tried.position, power),
            happened=None
            if happened is None
            else _outcome(phase.results, happened.position, power),
        )


def _outcome(results: Sequence[OrderResult], after: Position, power: str) -> OutcomeView:
    """A phase's orders with their results, and where ``power`` stood after it."""
    index = after.map.power_index[power]
    return OutcomeView(
        results=[
            ResultView(
                text=format_order_text(r.order),
                power=order_power(r.order),
                outcome=describe_result(r.result),
                ok="SUC" in r.result,
                draw={**order_json(r.order), "result": list(r.result)},
            )
            for r in results
        ],
        turn=str(after.turn),
        centres=after.centre_counts()[index],
        units=sum(1 for u in after.units.values() if u[0] == index),
        dislodged=sum(1 for d in after.dislodged.values() if d[0] == index),
    )


def _one_line(error: BaseException) -> str:
    if isinstance(error, GradingError):
        return str(error)
    return " ".join(f"{type(error).__name__}: {error}".split())[:200]
