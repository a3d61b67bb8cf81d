"""Root parallelism: helper processes search the same position; their root statistics are merged.

With ``workers = n`` the calling process searches as usual while ``n - 1``
helper processes (started once, kept for the whole game) each grow their own
tree from the same root with their own seed, until the same deadline or
iteration cap.  Each sends back its root edges' ``(action, visits, total)``;
:func:`merge` adds them up per action (actions are hashable order sets, so
the trees need not agree on anything else) and the variant's final-selection
rule picks from the sums.

Helpers are fresh interpreters (``spawn``), so they share nothing mutable
with the caller; a position travels as :meth:`Position.to_data` plus the
map's definition (the map is rebuilt once per helper and definition).
"""

from __future__ import annotations

import contextlib
import multiprocessing
import time
from collections.abc import Iterable, Sequence
from multiprocessing.connection import Connection
from random import Random

from adjudicator.maps import GameMap
from adjudicator.position import Position, PositionData
from protocol.values import MapDefinition
from search.mcts.actions import Action

RootStats = list[tuple[Action, int, float]]
"""A tree's root edges: ``(action, visits, total reward)``."""

Job = tuple[MapDefinition, str, PositionData, int, str, int, int, int | None, float | None]
"""What a helper is asked: (map definition, map name, position, power, variant, final year,
seed, iteration cap, monotonic deadline)."""


def merge(stats: Iterable[RootStats]) -> dict[Action, tuple[int, float]]:
    """Visits and total reward per action, summed over trees."""
    merged: dict[Action, list[float]] = {}
    for tree in stats:
        for action, visits, total in tree:
            entry = merged.setdefault(action, [0, 0.0])
            entry[0] += visits
            entry[1] += total
    return {a: (int(v), t) for a, (v, t) in merged.items()}


def pick(merged: dict[Action, tuple[int, float]], final: str) -> Action | None:
    """The action the final-selection rule picks from merged statistics (None if empty)."""
    if not merged:
        return None

    def mean(a: Action) -> float:
        visits, total = merged[a]
        return total / visits if visits else 0.0

    if final == "visits":
        return max(merged, key=lambda a: (merged[a][0], mean(a), a))
    return max(merged, key=lambda a: (mean(a), merged[a][0], a))


class RootParallel:
    """``helpers`` helper processes for root-parallel search; close with :meth:`close`."""

    def __init__(self, helpers: int) -> None:
        if helpers < 1:
            raise ValueError("root parallelism needs at least one helper process")
        self.helpers = helpers
        self._procs: list[multiprocessing.process.BaseProcess] = []
        self._conns: list[Connection] = []
        self._busy: list[bool] = []

    def _start(self) -> None:
        ctx = multiprocessing.get_context("spawn")
        for i in range(self.helpers):
            parent, child = ctx.Pipe(duplex=True)
            proc = ctx.Process(
                target=_helper_main, args=(child,), name=f"daide-mcts-root-{i}", daemon=True
            )
            proc.start()
            child.close()
            self._procs.append(proc)
            self._conns.append(parent)
            self._busy.append(False)

    def submit(
        self,
        pos: Position,
        power: int,
        variant: str,
        final_year: int,
        seeds: Sequence[int],
        *,
        iterations: int | None,
        deadline: float | None,
    ) -> None:
        """Start every helper searching ``pos`` (helper ``i`` with ``seeds[i]``)."""
        if not self._procs:
            self._start()
        m = pos.map
        data = pos.to_data()
        for i, conn in enumerate(self._conns):
            job: Job = (
                m.definition, m.name, data, power, variant, final_year, seeds[i], iterations,
                deadline,
            )  # fmt: skip
            try:
                conn.send(("search", job))
                self._busy[i] = True
            except (OSError, BrokenPipeError):
                self._busy[i] = False

    def stop(self) -> None:
        """Ask busy helpers to stop early (their statistics still come back)."""
        for i, conn in enumerate(self._conns):
            if self._busy[i]:
                with contextlib.suppress(OSError, BrokenPipeError):
                    conn.send(("stop",))

    def collect(self, timeout: float) -> list[RootStats]:
        """The root statistics of every helper that answers within ``timeout`` seconds."""
        out: list[RootStats] = []
        until = time.monotonic() + timeout
        for i, conn in enumerate(self._conns):
            if not self._busy[i]:
                continue
            try:
                if conn.poll(max(0.0, until - time.monotonic())):
                    kind, stats = conn.recv()
                    if kind == "stats":
                        out.append(stats)
                    self._busy[i] = False
            except (EOFError, OSError):
                self._busy[i] = False
        return out

    def close(self) -> None:
        """Stop the helper processes."""
        for conn in self._conns:
            with contextlib.suppress(OSError, BrokenPipeError):
                conn.send(("quit",))
                conn.close()
        for proc in self._procs:
            proc.join(2.0)
            if proc.is_alive():
                proc.kill()
                proc.join(1.0)
        self._procs.clear()
        self._conns.clear()
        self._busy.clear()


def _helper_main(conn: Connection) -> None:
    from search.mcts.player import new_search
    from search.mcts.variants import get_variant

    maps: dict[str, tuple[MapDefinition, GameMap]] = {}
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message[0] == "quit":
            return
        if message[0] != "search":
            continue
        definition, name, data, power, variant_name, final_year, seed, iterations, deadline = (
            message[1]
        )
        cached = maps.get(name)
        if cached is None or cached[0] != definition:
            cached = maps[name] = (definition, GameMap.from_definition(definition, name))
        pos = Position.from_data(cached[1], data)
        search = new_search(pos, power, get_variant(variant_name), final_year, Random(seed))
        stop = False

        def should_stop() -> bool:
            nonlocal stop
            with contextlib.suppress(EOFError, OSError):
                while conn.poll():
                    if conn.recv()[0] in ("stop", "quit"):
                        stop = True
            return stop

        if iterations is not None or deadline is not None:
            search.run(iterations=iterations, deadline=deadline, should_stop=should_stop)
        stats = [(e.action, e.visits, e.total) for e in search.root.edges]
        try:
            conn.send(("stats", stats))
        except (OSError, BrokenPipeError):
            return
