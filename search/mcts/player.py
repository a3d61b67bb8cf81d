"""The MCTS player: one search per movement phase, anytime, optionally root-parallel.

* :func:`new_search` builds the tree for one power in one position;
* :func:`think` runs it (and the helpers, with ``workers > 1``) until a
  deadline or an iteration cap, reporting each new best order set as it
  appears, and returns the final one with the search statistics;
* :class:`MctsPlayer` is a :class:`~search.policy.Policy` for the arena: it
  thinks for ``budget`` seconds (or ``iterations``) per movement phase and
  retreats and adjusts as the live bot does (random legal retreats,
  DumbBot-valued builds and removals);
* :func:`anytime_chooser` is what the live bot's search process calls.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from random import Random
from typing import Any

from adjudicator.orders import HOLD_ORDER, EngineOrder
from adjudicator.position import Position
from search.dumbbot import DumbBot
from search.heuristics import PhaseHeuristics
from search.mcts.actions import Action
from search.mcts.config import Variant
from search.mcts.domain import make_domain
from search.mcts.parallel import RootParallel, merge, pick
from search.mcts.uct import Mcts
from search.mcts.variants import get_variant
from search.opponents import OpponentStats

Orders = dict[int, EngineOrder]
Report = Callable[[Orders, dict[str, Any], bool], None]

OBSERVER_SEED = 1905
"""Seed of the DumbBot draws that compare each power's orders with DumbBot's."""

HELPER_GRACE = 0.25
"""Seconds to wait past the deadline for the helpers' statistics."""


def horizon(pos: Position, variant: Variant, final_year: int | None) -> int:
    """The last year the search looks at: the final year, or the variant's lookahead past it."""
    ahead = pos.year + variant.lookahead_years - 1
    if final_year is None or final_year < pos.year:
        return ahead
    return final_year


def new_search(
    pos: Position, power: int, variant: Variant, final_year: int | None, rng: Random
) -> Mcts[Position, Action]:
    """A fresh tree for ``power`` at ``pos`` (a movement phase) under ``variant``."""
    domain = make_domain(variant, power, horizon(pos, variant, final_year), pos.map.num_powers)
    return (variant.search or Mcts)(
        domain,
        pos,
        rng,
        cp=variant.cp,
        resample=variant.resample,
        double_expansion=variant.double_expansion,
        widening=variant.widening,
        final=variant.final,
    )


def _orders(pos: Position, power: int, action: Action | None) -> Orders:
    chosen = dict(action) if action is not None else {}
    return {p: chosen.get(p, HOLD_ORDER) for p, u in pos.units.items() if u[0] == power}


def think(
    pos: Position,
    power: int,
    variant: Variant,
    final_year: int | None,
    rng: Random,
    *,
    deadline: float | None = None,
    iterations: int | None = None,
    parallel: RootParallel | None = None,
    report: Report | None = None,
    should_stop: Callable[[], bool] | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> tuple[Orders, dict[str, Any]]:
    """Search ``power``'s orders at ``pos``; ``(orders, statistics)``.

    ``deadline`` is a reading of ``clock`` (see :meth:`Mcts.run`); helpers
    (``parallel``) need the default wall clock.

    Improvements go to ``report(orders, stats, False)`` as they appear (the
    first after the first iterations).  With ``parallel``, its helpers search
    too (seeds drawn from ``rng``) and their root statistics are merged into
    the final choice.  Units with no order in the chosen action hold.
    """
    if parallel is not None and clock is not time.monotonic:
        raise ValueError("root-parallel search runs on the wall clock")
    began = time.monotonic()
    seed = rng.randrange(1 << 62)
    helper_seeds = [rng.randrange(1 << 62) for _ in range(parallel.helpers if parallel else 0)]
    search = new_search(pos, power, variant, final_year, Random(seed))
    if parallel is not None:
        parallel.submit(
            pos, power, variant.name, horizon(pos, variant, final_year), helper_seeds,
            iterations=iterations, deadline=deadline,
        )  # fmt: skip
    reported: list[Action | None] = [None]

    def progress(tree: Mcts[Position, Action]) -> None:
        best = tree.best()
        if report is not None and best is not None and best.action != reported[0]:
            reported[0] = best.action
            report(_orders(pos, power, best.action), _stats(tree, variant, began), False)

    if iterations is not None or deadline is not None:
        search.run(
            iterations=iterations,
            deadline=deadline,
            should_stop=should_stop,
            on_progress=progress,
            progress_every=0.25,
            clock=clock,
        )
    stats = _stats(search, variant, began)
    action = search.best()
    chosen = action.action if action is not None else None
    if parallel is not None:
        if should_stop is not None and should_stop():
            parallel.stop()
        wait = HELPER_GRACE
        if deadline is None:
            wait += 3600.0
        elif deadline > time.monotonic():
            wait += deadline - time.monotonic()
        helpers = parallel.collect(wait)
        own = [(e.action, e.visits, e.total) for e in search.root.edges]
        merged = merge([own, *helpers])
        chosen = pick(merged, variant.final) or chosen
        stats["workers"] = 1 + len(helpers)
        stats["merged_iterations"] = sum(v for v, _ in merged.values())
    return _orders(pos, power, chosen), stats


def _stats(search: Mcts[Position, Action], variant: Variant, began: float) -> dict[str, Any]:
    out: dict[str, Any] = {"variant": variant.name, **search.stats().as_dict()}
    out["elapsed"] = round(time.monotonic() - began, 4)
    return out


class MctsPlayer:
    """An MCTS player for in-process games: ``budget`` seconds (or ``iterations``) per move.

    With ``cpu_clock`` the budget is CPU time of this process, so that
    strength measured on a loaded machine stays comparable.  It is a
    :class:`~search.policy.GameObserver`: for a variant that ``observes``, the
    orders it is shown feed :attr:`opponents`, given to every search.
    """

    def __init__(
        self,
        variant: Variant,
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
        self.opponents: OpponentStats | None = None
        self._phases = PhaseHeuristics()
        self._fallback = DumbBot()
        self._observing = Random(OBSERVER_SEED)

    def start_game(self) -> None:
        """Forget what the last game showed of the other powers."""
        self.opponents = None

    def observe(self, pos: Position, orders: Orders) -> None:
        """Learn from one movement phase's orders, if the variant uses them."""
        if self.variant.observes:
            stats = self.opponents or OpponentStats.empty(pos.map.num_powers)
            self.opponents = stats.observe(pos, orders, self._observing)

    def movement_orders(self, pos: Position, power: int, rng: Random) -> Orders:
        """The search's orders (DumbBot's if the search found no action in time)."""
        deadline = None if self.budget is None else self.clock() + self.budget
        variant = self.variant
        if self.opponents is not None:
            variant = dataclasses.replace(variant, opponents=self.opponents)
        orders, self.last_stats = think(
            pos,
            power,
            variant,
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


def anytime_chooser(
    strategy: str, workers: int, final_year: int | None = None
) -> Callable[[Position, int, float, Random, Report, Callable[[], bool]], None]:
    """The live bot's chooser for ``mcts`` or ``mcts:<variant>`` (see :mod:`bot.thinker`)."""
    from search.mcts.variants import DEFAULT_VARIANT

    _, _, name = strategy.partition(":")
    variant = get_variant(name or DEFAULT_VARIANT)
    parallel = RootParallel(workers - 1) if workers > 1 else None

    def choose(
        pos: Position,
        power: int,
        deadline: float,
        rng: Random,
        report: Report,
        should_stop: Callable[[], bool],
    ) -> None:
        orders, stats = think(
            pos,
            power,
            variant,
            final_year,
            rng,
            deadline=deadline,
            parallel=parallel,
            report=report,
            should_stop=should_stop,
        )
        report(orders, stats, True)

    return choose
