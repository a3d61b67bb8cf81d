"""The MCTS player: one search per movement phase, anytime, optionally root-parallel.

* :func:`~search.mcts.tree.new_search` builds the tree for one power in one position;
* :func:`think` runs it (and the helpers, with ``workers > 1``) until a
  deadline or an iteration cap, reporting each new best order set as it
  appears, and returns the final one with the search statistics;
* :class:`MctsPlayer` is a :class:`~search.policy.Policy` for the arena: it
  thinks for ``budget`` seconds (or ``iterations``) per movement phase and
  retreats and adjusts as the live bot does (random legal retreats,
  DumbBot-valued builds and removals);
* :class:`AnytimeChooser` is what the live bot's search process calls.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from random import Random
from typing import Any

from adjudicator.orders import HOLD_ORDER, EngineOrder
from adjudicator.position import Position
from search.choosers import Report, SearchRequest
from search.dumbbot import DumbBot
from search.heuristics import PhaseHeuristics
from search.mcts.actions import Action
from search.mcts.config import SearchSettings
from search.mcts.parallel import POLL_EVERY, RootParallel, merge, pick
from search.mcts.tree import horizon, new_search
from search.mcts.uct import Mcts
from search.mcts.variants import DEFAULT_VARIANT, get_variant

Orders = dict[int, EngineOrder]

HELPER_GRACE = 0.25
"""Seconds past the stop time to wait for the helpers' statistics when no one says otherwise."""

REPORT_EVERY = 0.25
"""Least seconds between two anytime reports of a new best order set."""


def _orders(pos: Position, power: int, action: Action | None) -> Orders:
    chosen = dict(action) if action is not None else {}
    return {p: chosen.get(p, HOLD_ORDER) for p, u in pos.units.items() if u[0] == power}


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
    retimed: Callable[[], tuple[float, float]] | None = None,
) -> tuple[Orders, dict[str, Any]]:
    """Search ``power``'s orders at ``pos``; ``(orders, statistics)``.

    The search stops at ``deadline`` (a reading of ``clock``, see
    :meth:`Mcts.run`), after ``iterations``, or once ``should_stop()`` says so
    (it is asked every ``POLL_EVERY`` seconds).  Improvements go to
    ``report(orders, stats, False)`` as they appear.  With ``parallel``, its
    helpers search too (seeds drawn from ``rng``, stopping at the same time)
    and the root statistics of those that answer by ``collect_by`` (default:
    ``HELPER_GRACE`` after the deadline) are merged into the final choice;
    helpers need the wall clock.  Units with no order in the chosen action hold.

    ``retimed()``, asked with ``should_stop``, gives the current stop and
    collection times when they may move (the deadline moved): the search stops
    at the new time, earlier or later, and its helpers are told.

    With ``report_final`` the final set also goes to ``report(orders, stats,
    True)``, before the tree is freed (freeing a large tree takes a tenth of
    a second or more, which a deadline cannot spare).
    """
    if parallel is not None and clock is not time.monotonic:
        raise ValueError("root-parallel search runs on the wall clock")
    began = time.monotonic()
    seed = rng.randrange(1 << 62)
    helper_seeds = [rng.randrange(1 << 62) for _ in range(parallel.helpers if parallel else 0)]
    search = new_search(pos, power, variant, final_year, Random(seed))
    job_id = None
    if parallel is not None:
        job_id = parallel.submit(
            pos, power, variant.name, horizon(pos, variant, final_year), helper_seeds,
            iterations=iterations, stop_at=deadline,
        )  # fmt: skip
    reported: list[Action | None] = [None]
    next_report = [began]
    stopped = [False]

    def refresh() -> None:
        """Take a retime: the new stop and collection times, passed on to the helpers."""
        nonlocal deadline, collect_by
        if retimed is not None and deadline is not None:
            new_stop, new_collect = retimed()
            if new_stop != deadline:
                deadline, collect_by = new_stop, new_collect
                if parallel is not None and job_id is not None:
                    parallel.retime(job_id, new_stop)

    def stop() -> bool:
        stopped[0] = stopped[0] or (should_stop is not None and should_stop())
        refresh()
        return stopped[0] or (deadline is not None and clock() >= deadline)

    def progress(tree: Mcts[Position, Action]) -> None:
        now = time.monotonic()
        if report is None or now < next_report[0]:
            return
        best = tree.best()
        if best is not None and best.action != reported[0]:
            reported[0] = best.action
            next_report[0] = now + REPORT_EVERY
            report(_orders(pos, power, best.action), _stats(tree, variant, began), False)

    if iterations is not None or deadline is not None:
        while True:
            search.run(
                iterations=iterations,
                deadline=deadline,
                should_stop=stop,
                on_progress=progress,
                progress_every=POLL_EVERY,
                clock=clock,
            )
            # A retime that moved the stop time later: search on until then.
            if iterations is not None or stopped[0] or deadline is None:
                break
            refresh()
            if clock() >= deadline:
                break
    stats = _stats(search, variant, began)
    action = search.best()
    chosen = action.action if action is not None else None
    if parallel is not None and job_id is not None:
        if stopped[0]:
            parallel.stop(job_id)
        if collect_by is None:
            collect_by = began + 3600.0 if deadline is None else deadline + HELPER_GRACE
        if stopped[0]:
            collect_by = min(collect_by, time.monotonic() + HELPER_GRACE)
        helpers = parallel.collect(job_id, collect_by)
        own = [(e.action, e.visits, e.total) for e in search.root.edges]
        merged = merge([own, *(h.stats for h in helpers)])
        chosen = pick(merged, variant.final) or chosen
        stats["workers"] = 1 + len(helpers)
        stats["merged_iterations"] = sum(v for v, _ in merged.values())
        stats["helper_job"] = job_id
        stats["stale_helper_answers"] = parallel.stale
    orders = _orders(pos, power, chosen)
    if report_final and report is not None:
        report(orders, stats, True)
    return orders, stats


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
    """The live bot's search for ``mcts`` or ``mcts:<variant>`` (see :mod:`bot.thinker`).

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
        """Search until the request's stop time, merge helpers, report the final set."""
        think(
            request.position,
            request.power,
            self.variant,
            self.final_year,
            rng,
            deadline=request.stop_at,
            iterations=request.iterations,
            parallel=self.parallel,
            collect_by=request.collect_by,
            retimed=request.retimed,
            report=report,
            report_final=True,
            should_stop=should_stop,
        )

    @property
    def helper_pids(self) -> list[int]:
        """The root-parallel helpers' process ids."""
        return self.parallel.pids if self.parallel is not None else []

    def close(self) -> None:
        """Stop the helpers."""
        if self.parallel is not None:
            self.parallel.close()
