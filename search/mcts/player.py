"""The MCTS player: one search per movement phase, anytime, optionally root-parallel.

* :func:`~search.mcts.tree.new_search` builds the tree for one power in one position;
* :func:`search_within` runs it (and the helpers, with ``workers > 1``)
  within a :class:`~search.policy.SearchLimit` — a stop time, an iteration
  cap or both — reporting each new best order set as it appears, and returns
  the final one with the search statistics; :func:`think` is the same with
  the limit given as a deadline and a cap (arenas, benchmarks, tests);
* :class:`MctsPlayer` is a :class:`~search.policy.Policy` for the arena: it
  thinks for ``budget`` seconds (or ``iterations``) per movement phase and
  retreats and adjusts as the live bot does (random legal retreats,
  DumbBot-valued builds and removals);
* :class:`AnytimeChooser` is what the live bot's search process calls.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from random import Random
from typing import Any

from adjudicator.legal import complete_with_holds
from adjudicator.orders import EngineOrder, Orders
from adjudicator.position import Position
from search.dumbbot import DumbBot
from search.generator import SearchRandom
from search.heuristics import PhaseHeuristics
from search.mcts.config import SearchSettings
from search.mcts.order_sets import Action
from search.mcts.parallel import POLL_EVERY, RootParallel, collector_paused, merge, pick
from search.mcts.root_summary import summarize
from search.mcts.tree import horizon, new_search
from search.mcts.uct import Mcts
from search.mcts.variants import DEFAULT_VARIANT, get_variant
from search.policy import Report, SearchLimit, SearchRequest

HELPER_GRACE = 0.25
"""Seconds past the stop time to wait for the helpers' statistics when no one says otherwise."""

NO_LIMIT_WAIT = 3600.0
"""Seconds to wait for the helpers of a search capped by iterations alone."""

REPORT_EVERY = 0.25
"""Least seconds between two anytime reports of a new best order set."""


def _orders(pos: Position, power: int, action: Action | None) -> Orders:
    return complete_with_holds(pos, power, dict(action) if action is not None else {})


def think(
    pos: Position,
    power: int,
    variant: SearchSettings,
    final_year: int | None,
    rng: Random,
    *,
    deadline: float | None = None,
    iterations: int | None = None,
    parallel: RootParallel | None = None,
    collect_by: float | None = None,
    report: Report | None = None,
    report_final: bool = False,
    should_stop: Callable[[], bool] | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> tuple[Orders, dict[str, Any]]:
    """:func:`search_within` the limit of ``deadline`` (or none), ``iterations`` and ``collect_by``.

    ``collect_by`` defaults to ``HELPER_GRACE`` after the deadline.
    """
    stop_at = math.inf if deadline is None else deadline
    if collect_by is None:
        collect_by = stop_at + HELPER_GRACE
    return search_within(
        pos,
        power,
        variant,
        final_year,
        rng,
        SearchLimit(stop_at, collect_by, iterations),
        parallel=parallel,
        report=report,
        report_final=report_final,
        should_stop=should_stop,
        clock=clock,
    )


@collector_paused()  # left when the call returns, with the tree freed
def search_within(
    pos: Position,
    power: int,
    variant: SearchSettings,
    final_year: int | None,
    rng: Random,
    limit: SearchLimit,
    *,
    parallel: RootParallel | None = None,
    report: Report | None = None,
    report_final: bool = False,
    should_stop: Callable[[], bool] | None = None,
    clock: Callable[[], float] = time.monotonic,
    retimed: Callable[[], SearchLimit] | None = None,
    ranked: int = 0,
) -> tuple[Orders, dict[str, Any]]:
    """Search ``power``'s orders at ``pos`` within ``limit``; ``(orders, statistics)``.

    The search stops at the limit's stop time (a reading of ``clock``, see
    :meth:`Mcts.run`), after its iterations, or once ``should_stop()`` says so
    (it is asked every ``POLL_EVERY`` seconds).  Improvements go to
    ``report(orders, stats, False)`` as they appear.  With ``parallel``, its
    helpers search too (seeds drawn from ``rng``, stopping at the same time)
    and the root statistics of those that answer by the limit's collection
    time are merged into the final choice; helpers need the wall clock.  Units
    with no order in the chosen action hold.

    ``retimed()``, asked with ``should_stop``, gives the limit as it stands
    when it may move (the deadline moved): the search stops at the new time,
    earlier or later, and its helpers are told.

    With ``report_final`` the final set also goes to ``report(orders, stats,
    True)``, before the tree is freed (freeing a large tree takes a tenth of
    a second or more, which a deadline cannot spare).

    With ``ranked`` the statistics also hold, under ``"ranked"``, the
    :class:`~search.mcts.root_summary.RootSummary` of this process's root: its
    ``ranked`` best sets and each unit's spread over its orders (for a
    person's hint; not JSON).
    """
    # Stays whole: the helpers' job, the search loop with its retimes and the merge of
    # their statistics share one limit and one stop signal.
    if parallel is not None and clock is not time.monotonic:
        raise ValueError("root-parallel search runs on the wall clock")
    began = time.monotonic()
    seed = rng.randrange(1 << 62)
    helper_seeds = [rng.randrange(1 << 62) for _ in range(parallel.helpers if parallel else 0)]
    search = new_search(pos, power, variant, final_year, SearchRandom(seed))
    iterations = limit.iterations
    job_id = None
    if parallel is not None:
        job_id = parallel.submit(
            pos, power, variant.name, horizon(pos, variant, final_year), helper_seeds, limit
        )
    current = _Limit(limit, retimed, clock)
    if parallel is not None and job_id is not None:
        current.helpers = (parallel, job_id)
    stop = _StopSignal(should_stop, current)
    progress = _Progress(pos, power, variant, began, report)
    while iterations is not None or current.deadline is not None:
        search.run(
            iterations=iterations,
            deadline=current.deadline,
            should_stop=stop,
            on_progress=progress,
            progress_every=POLL_EVERY,
            clock=clock,
        )
        if iterations is not None or stop.stopped or not current.extended():
            break  # else a retime moved the stop time later: search on until then
    stats = _stats(search, variant, began)
    action = search.best()
    chosen = action.action if action is not None else None
    if parallel is not None and job_id is not None:
        collect_by = current.collect_by if current.deadline is not None else began + NO_LIMIT_WAIT
        merged = _merge_helpers(search, variant, parallel, job_id, collect_by, stop.stopped, stats)
        chosen = merged or chosen
    orders = _orders(pos, power, chosen)
    if ranked > 0:
        root = {e.action: (e.visits, e.total) for e in search.root.edges}
        units = [p for p, u in pos.units.items() if u[0] == power]
        stats["ranked"] = summarize(root, units, variant.final, ranked)
    if report_final and report is not None:
        report(orders, stats, True)
    return orders, stats


class _Limit:
    """The search's :class:`SearchLimit` as it stands, moved by ``retimed()`` and told to helpers.

    ``deadline`` is its stop time, or None when only iterations cap the search.
    """

    def __init__(
        self,
        limit: SearchLimit,
        retimed: Callable[[], SearchLimit] | None,
        clock: Callable[[], float],
    ) -> None:
        self.limit = limit
        self.retimed = retimed
        self.clock = clock
        self.helpers: tuple[RootParallel, int] | None = None

    @property
    def deadline(self) -> float | None:
        """The stop time (None: no time limit)."""
        return self.limit.stop_at if self.limit.timed else None

    @property
    def collect_by(self) -> float:
        """When to stop waiting for the helpers' statistics."""
        return self.limit.collect_by

    def refresh(self) -> None:
        """Take a retime, if any: the new limit, its stop time told to the helpers."""
        if self.retimed is None or self.deadline is None:
            return
        limit = self.retimed()
        if limit.stop_at != self.limit.stop_at:
            self.limit = limit
            if self.helpers is not None:
                self.helpers[0].retime(self.helpers[1], limit)

    def due(self) -> bool:
        """True once the (retimed) stop time has come."""
        return self.deadline is not None and self.clock() >= self.deadline

    def extended(self) -> bool:
        """True when a retime moved the stop time past now."""
        self.refresh()
        return self.deadline is not None and not self.due()


class _StopSignal:
    """``should_stop`` asked at each poll, remembered once it has said yes.

    The ``limit``'s retimes are taken at each poll too: an earlier stop time
    stops the search then (that is no early stop: the helpers stop with it).
    """

    def __init__(self, should_stop: Callable[[], bool] | None, limit: _Limit) -> None:
        self.should_stop = should_stop
        self.limit = limit
        self.stopped = False

    def __call__(self) -> bool:
        self.stopped = self.stopped or (self.should_stop is not None and self.should_stop())
        self.limit.refresh()
        return self.stopped or self.limit.due()


class _Progress:
    """Reports a new best order set to ``report``, at most once every ``REPORT_EVERY`` seconds."""

    def __init__(
        self,
        pos: Position,
        power: int,
        variant: SearchSettings,
        began: float,
        report: Report | None,
    ) -> None:
        self.pos = pos
        self.power = power
        self.variant = variant
        self.began = began
        self.report = report
        self.reported: Action | None = None
        self.next_report = began

    def __call__(self, tree: Mcts[Position, Action]) -> None:
        now = time.monotonic()
        if self.report is None or now < self.next_report:
            return
        best = tree.best()
        if best is not None and best.action != self.reported:
            self.reported = best.action
            self.next_report = now + REPORT_EVERY
            stats = _stats(tree, self.variant, self.began)
            self.report(_orders(self.pos, self.power, best.action), stats, False)


def _merge_helpers(
    search: Mcts[Position, Action],
    variant: SearchSettings,
    parallel: RootParallel,
    job_id: int,
    collect_by: float,
    stopped: bool,
    stats: dict[str, Any],
) -> Action | None:
    """The choice over our root statistics merged with the helpers' that answer by ``collect_by``.

    A search stopped early stops its helpers and waits for them only ``HELPER_GRACE``
    more; what was merged goes into ``stats``.
    """
    if stopped:
        parallel.stop(job_id)
        collect_by = min(collect_by, time.monotonic() + HELPER_GRACE)
    helpers = parallel.collect(job_id, collect_by)
    own = tuple((e.action, e.visits, e.total) for e in search.root.edges)
    merged = merge([own, *(h.root for h in helpers)])
    stats["workers"] = 1 + len(helpers)
    stats["merged_iterations"] = sum(v for v, _ in merged.values())
    stats["helper_job"] = job_id
    stats["stale_helper_answers"] = parallel.stale
    return pick(merged, variant.final)


def _stats(search: Mcts[Position, Action], variant: SearchSettings, began: float) -> dict[str, Any]:
    out: dict[str, Any] = {"variant": variant.name, **search.stats().as_dict()}
    out["elapsed"] = round(time.monotonic() - began, 4)
    return out


class MctsPlayer:
    """An MCTS player for in-process games: ``budget`` seconds (or ``iterations``) per move.

    With ``cpu_clock`` the budget is CPU time of this process, so that
    strength measured on a loaded machine stays comparable.
    """

    def __init__(
        self,
        variant: SearchSettings,
        *,
        budget: float | None = 5.0,
        iterations: int | None = None,
        workers: int = 1,
        final_year: int | None = None,
        cpu_clock: bool = False,
    ) -> None:
        if budget is None and iterations is None:
            raise ValueError("an MCTS player needs a time budget or an iteration cap")
        if cpu_clock and workers > 1:
            raise ValueError("a CPU-time budget is for one worker (helpers run on the wall clock)")
        self.clock = time.process_time if cpu_clock else time.monotonic
        self.variant = variant
        self.name = f"mcts:{variant.name}"
        self.budget = budget
        self.iterations = iterations
        self.final_year = final_year
        self.parallel = RootParallel(workers - 1) if workers > 1 else None
        self.last_stats: dict[str, Any] = {}
        self._phases = PhaseHeuristics()
        self._fallback = DumbBot()

    def movement_orders(self, pos: Position, power: int, rng: Random) -> Orders:
        """The search's orders (DumbBot's if the search found no action in time)."""
        deadline = None if self.budget is None else self.clock() + self.budget
        orders, self.last_stats = think(
            pos,
            power,
            self.variant,
            self.final_year,
            rng,
            deadline=deadline,
            iterations=self.iterations,
            parallel=self.parallel,
            clock=self.clock,
        )
        if self.last_stats.get("iterations", 0) == 0:
            return self._fallback.movement_orders(pos, power, rng)
        return orders

    def retreat_orders(self, pos: Position, power: int, rng: Random) -> Orders:
        """Random legal retreats (the product's rule)."""
        return self._phases.retreat_orders(pos, power, rng)

    def adjustment_orders(self, pos: Position, power: int, rng: Random) -> list[EngineOrder]:
        """DumbBot-valued builds or removals."""
        return self._phases.adjustment_orders(pos, power, rng)

    def close(self) -> None:
        """Stop any helper processes."""
        if self.parallel is not None:
            self.parallel.close()


def make_policy(
    variant: str,
    budget: float,
    seed: int,
    workers: int,
    final_year: int | None = None,
    cpu_clock: bool = False,
) -> MctsPlayer:
    """The registry's factory (see :mod:`search.registry`).

    ``seed`` is unused: each move draws from the generator its call is given.
    """
    del seed
    return MctsPlayer(
        get_variant(variant),
        budget=budget,
        workers=workers,
        final_year=final_year,
        cpu_clock=cpu_clock,
    )


class AnytimeChooser:
    """The live bot's search for ``mcts`` or ``mcts:<variant>`` (see :mod:`bot.client.thinker`).

    Called once per movement phase; keeps its root-parallel helpers (with
    ``workers > 1``) for the whole game.  :meth:`close` stops them.
    """

    def __init__(self, strategy: str, workers: int, final_year: int | None = None) -> None:
        _, _, name = strategy.partition(":")
        self.variant = get_variant(name or DEFAULT_VARIANT)
        self.final_year = final_year
        self.parallel = RootParallel(workers - 1) if workers > 1 else None
        if self.parallel is not None:
            self.parallel.start()  # warm before the first movement phase

    def __call__(
        self,
        request: SearchRequest,
        rng: Random,
        report: Report,
        should_stop: Callable[[], bool],
    ) -> None:
        """Search within the request's limit, merge helpers, report the final set."""
        search_within(
            request.position,
            request.power,
            self.variant,
            self.final_year,
            rng,
            request.limit,
            parallel=self.parallel,
            retimed=request.retimed,
            ranked=request.ranked,
            report=report,
            report_final=True,
            should_stop=should_stop,
        )

    def close(self) -> None:
        """Stop the helpers."""
        if self.parallel is not None:
            self.parallel.close()
