"""Choosing movement orders in a worker process, so the event loop keeps serving the server.

:class:`Thinker` owns one worker process (started once, before the game) and
talks to it over a pipe that the event loop watches with ``add_reader`` — no
thread and no blocking read.  ``think(position, power, deadline)`` starts a
job; the worker reports every improved order set as it finds one (anytime
search) and a final one before the deadline; ``cancel()`` stops a job early.

The worker imports the search, builds its own copy of the map from the MDF
content once, and receives positions as plain tuples.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection as Pipe
from random import Random
from typing import Any

from adjudicator.maps import GameMap
from adjudicator.orders import EngineOrder
from adjudicator.position import Position
from protocol.values import MapDefinition

Orders = dict[int, EngineOrder]


@dataclass
class Improvement:
    """One order set from the worker: ``final`` is True for the last one of a job."""

    orders: Orders
    stats: dict[str, Any]
    final: bool
    received: float = field(default_factory=time.monotonic)


class ThinkJob:
    """A running job: await :meth:`next` for improvements until one is final."""

    def __init__(self, job_id: int) -> None:
        self.job_id = job_id
        self.queue: asyncio.Queue[Improvement] = asyncio.Queue()
        self.best: Improvement | None = None
        self.done = False

    def _deliver(self, improvement: Improvement) -> None:
        self.best = improvement
        self.done = improvement.final
        self.queue.put_nowait(improvement)

    async def next(self, timeout: float) -> Improvement | None:
        """The next improvement, or None if none arrives within ``timeout`` seconds."""
        try:
            return await asyncio.wait_for(self.queue.get(), max(0.0, timeout))
        except TimeoutError:
            return None


class ThinkerError(RuntimeError):
    """The worker process died or could not start."""


class Thinker:
    """The parent side of the worker process."""

    def __init__(
        self,
        strategy: str,
        definition: MapDefinition,
        map_name: str,
        seed: int,
        workers: int = 1,
        final_year: int | None = None,
    ) -> None:
        self.strategy = strategy
        self._args = (strategy, definition, map_name, seed, workers, final_year)
        self._proc: multiprocessing.process.BaseProcess | None = None
        self._conn: Pipe | None = None
        self._jobs: dict[int, ThinkJob] = {}
        self._next_id = 0
        self._loop: asyncio.AbstractEventLoop | None = None

    def start(self) -> None:
        """Start the worker process (a fresh interpreter, not a fork of the event loop)."""
        ctx = multiprocessing.get_context("spawn")
        parent, child = ctx.Pipe(duplex=True)
        self._proc = ctx.Process(
            target=_worker_main, args=(child, *self._args), name="daide-mcts-search", daemon=True
        )
        self._proc.start()
        child.close()
        self._conn = parent
        self._loop = asyncio.get_running_loop()
        self._loop.add_reader(parent.fileno(), self._on_readable)

    @property
    def alive(self) -> bool:
        """True while the worker process runs."""
        return self._proc is not None and self._proc.is_alive()

    def think(self, pos: Position, power: int, deadline: float) -> ThinkJob:
        """Start choosing ``power``'s orders for ``pos``; the final set comes by ``deadline``."""
        if self._conn is None or not self.alive:
            raise ThinkerError("the search worker is not running")
        self._next_id += 1
        job = ThinkJob(self._next_id)
        self._jobs[job.job_id] = job
        self._conn.send(("think", job.job_id, pos.to_data(), power, deadline))
        return job

    def cancel(self, job: ThinkJob) -> None:
        """Ask the worker to stop ``job`` (its last improvement stays available)."""
        if self._conn is not None and not job.done:
            with contextlib.suppress(OSError, BrokenPipeError):
                self._conn.send(("cancel", job.job_id))
        self._jobs.pop(job.job_id, None)

    def _on_readable(self) -> None:
        conn = self._conn
        if conn is None:
            return
        try:
            while conn.poll():
                kind, job_id, orders, stats = conn.recv()
                job = self._jobs.get(job_id)
                if job is not None:
                    job._deliver(Improvement(orders, stats, kind == "done"))
                    if kind == "done":
                        self._jobs.pop(job_id, None)
        except (EOFError, OSError):
            self._detach()

    def _detach(self) -> None:
        if self._loop is not None and self._conn is not None:
            with contextlib.suppress(ValueError, OSError):
                self._loop.remove_reader(self._conn.fileno())
        self._conn = None

    def close(self) -> None:
        """Stop the worker process."""
        conn = self._conn
        self._detach()
        if conn is not None:
            with contextlib.suppress(OSError, BrokenPipeError):
                conn.send(("stop",))
            conn.close()
        if self._proc is not None:
            self._proc.join(2.0)
            if self._proc.is_alive():
                self._proc.kill()
                self._proc.join(2.0)
            self._proc = None


# --- the worker process ---------------------------------------------------------------------


def _worker_main(
    conn: Pipe,
    strategy: str,
    definition: MapDefinition,
    map_name: str,
    seed: int,
    workers: int,
    final_year: int | None,
) -> None:
    game_map = GameMap.from_definition(definition, map_name)
    rng = Random(seed)
    chooser = make_chooser(strategy, workers, final_year)
    stash: list[tuple[Any, ...]] = []

    def next_message() -> tuple[Any, ...] | None:
        if stash:
            return stash.pop(0)
        try:
            return conn.recv()
        except (EOFError, OSError):
            return None

    while True:
        message = next_message()
        if message is None or message[0] == "stop":
            return
        if message[0] != "think":
            continue
        _, job_id, data, power, deadline = message
        pos = Position.from_data(game_map, data)

        def should_stop(job_id: int = job_id) -> bool:
            while conn.poll():
                incoming = conn.recv()
                if incoming[0] == "cancel" and incoming[1] == job_id:
                    return True
                stash.append(incoming)
                if incoming[0] in ("think", "stop"):
                    return True
            return False

        def report(
            orders: Orders, stats: dict[str, Any], final: bool, job_id: int = job_id
        ) -> None:
            with contextlib.suppress(OSError, BrokenPipeError):
                conn.send(("done" if final else "improve", job_id, orders, stats))

        try:
            chooser(pos, power, deadline, rng, report, should_stop)
        except Exception as exc:
            report({}, {"error": f"{type(exc).__name__}: {exc}"}, True)


Chooser = Callable[
    [
        Position,
        int,
        float,
        Random,
        Callable[[Orders, dict[str, Any], bool], None],
        Callable[[], bool],
    ],
    None,
]


def make_chooser(strategy: str, workers: int, final_year: int | None = None) -> Chooser:
    """The function that chooses movement orders for ``strategy`` inside the worker.

    It must call ``report(orders, stats, final=True)`` exactly once at the end,
    and may call ``report(..., final=False)`` with improvements before that.
    MCTS reports its improvements as it finds them (anytime); the heuristic
    players answer once.
    """
    from search.mcts import anytime_chooser
    from search.registry import make_policy, parse_spec

    if parse_spec(strategy)[0] == "mcts":
        return anytime_chooser(strategy, workers, final_year)

    def choose(
        pos: Position,
        power: int,
        deadline: float,
        rng: Random,
        report: Callable[[Orders, dict[str, Any], bool], None],
        should_stop: Callable[[], bool],
    ) -> None:
        budget = max(0.05, deadline - time.monotonic())
        policy = make_policy(strategy, budget=budget, seed=rng.randrange(1 << 30), workers=workers)
        started = time.monotonic()
        orders = policy.movement_orders(pos, power, rng)
        report(orders, {"strategy": strategy, "seconds": time.monotonic() - started}, True)

    return choose
