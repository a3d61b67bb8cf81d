"""Root parallelism: helper processes search the same position; their root statistics are merged.

With ``workers = n`` the calling process searches as usual while ``n - 1``
helper processes (started once, kept for the whole game) each grow their own
tree from the same root with their own seed, until the same stop time or
iteration cap; a new stop time for the job (:meth:`RootParallel.retime`)
reaches them too.  Each sends back its root edges' ``(action, visits, total)``;
:func:`merge` adds them up per action (actions are hashable order sets, so
the trees need not agree on anything else) and the variant's final-selection
rule picks from the sums.

Every message between the caller and a helper is a small typed value that
carries the job's id: a helper's answer to an old job (late, or cut short by
a newer job) is recognised, dropped and counted, never merged into another
search; a helper that is still busy when the next job comes stops at once and
takes it, so it never falls a phase behind.

Helpers are fresh interpreters (``spawn``), so they share nothing mutable
with the caller; a position travels as :meth:`Position.to_data` plus the
map's definition (the map is rebuilt once per helper and definition).  A
helper dies with the process that started it (Linux's parent-death signal,
and an end-of-file on its pipe elsewhere), so no helper outlives a killed bot.
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
import multiprocessing
import os
import signal
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection
from random import Random

from adjudicator.maps import GameMap
from adjudicator.position import Position, PositionData
from protocol.values import MapDefinition
from search.mcts.inbox import PipeInbox
from search.mcts.order_sets import Action
from search.mcts.tree import new_search
from search.mcts.variants import get_variant

RootStats = list[tuple[Action, int, float]]
"""A tree's root edges: ``(action, visits, total reward)``."""

PR_SET_PDEATHSIG = 1
"""Linux ``prctl`` option: the signal a process gets when its parent dies."""

JOIN_TIMEOUT = 2.0
"""Seconds to wait for a helper to exit when asked, before it is killed."""


def die_with_parent() -> None:
    """Make the calling (child) process end when its parent does, even by SIGKILL.

    On Linux the kernel sends SIGKILL to the child when the parent exits; if
    the parent is already gone when this runs, the child exits at once.
    Elsewhere it does nothing (children then notice the end of their pipe).
    """
    if not sys.platform.startswith("linux"):
        return
    parent = os.getppid()
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:  # the parent died before prctl took effect
        os._exit(1)


def quiet_collector() -> None:
    """No automatic cyclic garbage collection in this (searching) process.

    A search tree of a long think holds hundreds of thousands of objects, and
    a full collection pass over them takes up to a third of a second — at any
    moment, the stop time included.  The tree makes no reference cycles
    (its garbage is freed by reference counting), so a searching process
    turns the collector off and calls :func:`gc.collect` between jobs.
    """
    gc.disable()


# --- the messages between the caller and a helper -------------------------------------------


@dataclass(frozen=True, slots=True)
class HelperJob:
    """Search ``position`` for ``power`` until ``stop_at`` (monotonic) or ``iterations``."""

    job_id: int
    definition: MapDefinition
    map_name: str
    position: PositionData
    power: int
    variant: str
    final_year: int
    seed: int
    iterations: int | None
    stop_at: float | None


@dataclass(frozen=True, slots=True)
class HelperStop:
    """Stop job ``job_id`` now and send its statistics."""

    job_id: int


@dataclass(frozen=True, slots=True)
class HelperRetime:
    """Job ``job_id`` now stops at ``stop_at`` (monotonic; earlier or later than before)."""

    job_id: int
    stop_at: float


@dataclass(frozen=True, slots=True)
class HelperQuit:
    """Exit the helper process."""


@dataclass(frozen=True, slots=True)
class HelperStats:
    """A helper's answer: its tree's root statistics for job ``job_id``."""

    job_id: int
    stats: RootStats
    iterations: int


HelperMessage = HelperJob | HelperStop | HelperRetime | HelperQuit


# --- merging ----------------------------------------------------------------------------------


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


# --- the caller's side ------------------------------------------------------------------------


class RootParallel:
    """``helpers`` helper processes for root-parallel search; close with :meth:`close`.

    ``stale`` counts the answers dropped because they belonged to an earlier job.
    """

    def __init__(self, helpers: int) -> None:
        if helpers < 1:
            raise ValueError("root parallelism needs at least one helper process")
        self.helpers = helpers
        self.stale = 0
        self._procs: list[multiprocessing.process.BaseProcess] = []
        self._conns: list[Connection] = []
        self._waiting: list[int | None] = []  # the job each helper owes an answer for
        self._next_id = 0

    def __enter__(self) -> RootParallel:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def start(self) -> None:
        """Start the helper processes now (else the first job starts them)."""
        if self._procs:
            return
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
            self._waiting.append(None)

    @property
    def pids(self) -> list[int]:
        """The helper processes' ids (for resource readings and tests)."""
        return [p.pid for p in self._procs if p.pid is not None and p.is_alive()]

    def submit(
        self,
        pos: Position,
        power: int,
        variant: str,
        final_year: int,
        seeds: Sequence[int],
        *,
        iterations: int | None,
        stop_at: float | None,
    ) -> int:
        """Start every helper searching ``pos`` (helper ``i`` with ``seeds[i]``); the job's id."""
        self.start()
        self._next_id += 1
        job_id = self._next_id
        m = pos.map
        data = pos.to_data()
        for i, conn in enumerate(self._conns):
            job = HelperJob(
                job_id, m.definition, m.name, data, power, variant, final_year, seeds[i],
                iterations, stop_at,
            )  # fmt: skip
            try:
                conn.send(job)
                self._waiting[i] = job_id
            except (OSError, BrokenPipeError):
                self._waiting[i] = None
        return job_id

    def stop(self, job_id: int) -> None:
        """Ask the helpers still on ``job_id`` to stop now (their statistics still come back)."""
        for i, conn in enumerate(self._conns):
            if self._waiting[i] == job_id:
                with contextlib.suppress(OSError, BrokenPipeError):
                    conn.send(HelperStop(job_id))

    def retime(self, job_id: int, stop_at: float) -> None:
        """Tell the helpers still on ``job_id`` its new stop time."""
        for i, conn in enumerate(self._conns):
            if self._waiting[i] == job_id:
                with contextlib.suppress(OSError, BrokenPipeError):
                    conn.send(HelperRetime(job_id, stop_at))

    def collect(self, job_id: int, until: float) -> list[HelperStats]:
        """The answers to ``job_id`` that arrive by ``until`` (monotonic); stale ones dropped."""
        out: list[HelperStats] = []
        for i, conn in enumerate(self._conns):
            while self._waiting[i] is not None:
                try:
                    if not conn.poll(max(0.0, until - time.monotonic())):
                        break  # late: its answer will be dropped as stale next time
                    answer = conn.recv()
                except (EOFError, OSError):
                    self._waiting[i] = None
                    break
                if not isinstance(answer, HelperStats) or answer.job_id != self._waiting[i]:
                    self.stale += 1
                    continue
                self._waiting[i] = None
                if answer.job_id == job_id:
                    out.append(answer)
        return out

    def close(self) -> None:
        """Stop the helper processes (killing any that do not exit in time)."""
        for conn in self._conns:
            with contextlib.suppress(OSError, BrokenPipeError):
                conn.send(HelperQuit())
                conn.close()
        for proc in self._procs:
            proc.join(JOIN_TIMEOUT)
            if proc.is_alive():
                proc.kill()
                proc.join(JOIN_TIMEOUT)
        self._procs.clear()
        self._conns.clear()
        self._waiting.clear()


# --- the helper process -----------------------------------------------------------------------


class _HelperControl:
    """A helper's view of its job: its stop time (retimed), and the messages that end it."""

    def __init__(self, inbox: PipeInbox[HelperMessage], job: HelperJob) -> None:
        self.inbox = inbox
        self.job_id = job.job_id
        self.stop_at = job.stop_at
        self.stopped = False

    def should_stop(self) -> bool:
        """True from the job's stop, a newer job, a quit or its (retimed) stop time on."""
        if self.stopped:
            return True
        for message in self.inbox.arrived():
            if isinstance(message, HelperStop):
                self.stopped = self.stopped or message.job_id == self.job_id
            elif isinstance(message, HelperRetime):
                if message.job_id == self.job_id:
                    self.stop_at = message.stop_at
            else:  # a newer job, or quit: stop this one and handle that next
                self.inbox.keep(message)
                self.stopped = True
        if self.stop_at is not None and time.monotonic() >= self.stop_at:
            self.stopped = True
        return self.stopped

    def extended(self) -> bool:
        """True when a retime moved the stop time past now (the search goes on)."""
        return (
            not self.should_stop() and self.stop_at is not None and time.monotonic() < self.stop_at
        )


def _helper_main(conn: Connection) -> None:
    die_with_parent()
    quiet_collector()
    inbox: PipeInbox[HelperMessage] = PipeInbox(conn, HelperQuit())
    maps: dict[str, tuple[MapDefinition, GameMap]] = {}
    while True:
        job = inbox.next()
        if isinstance(job, HelperQuit):
            return
        if not isinstance(job, HelperJob):
            continue  # a stop for a job already answered
        cached = maps.get(job.map_name)
        if cached is None or cached[0] != job.definition:
            game_map = GameMap.from_definition(job.definition, job.map_name)
            cached = maps[job.map_name] = (job.definition, game_map)
        pos = Position.from_data(cached[1], job.position)
        variant = get_variant(job.variant)
        search = new_search(pos, job.power, variant, job.final_year, Random(job.seed))
        if job.iterations is not None or job.stop_at is not None:
            control = _HelperControl(inbox, job)
            while True:
                search.run(
                    iterations=job.iterations,
                    deadline=control.stop_at,
                    should_stop=control.should_stop,
                    progress_every=POLL_EVERY,
                )
                if job.iterations is not None or not control.extended():
                    break
        stats = [(e.action, e.visits, e.total) for e in search.root.edges]
        try:
            conn.send(HelperStats(job.job_id, stats, search.iterations))
        except (OSError, BrokenPipeError):
            return
        del search
        gc.collect()  # between jobs, where a pause costs nothing


POLL_EVERY = 0.02
"""Seconds between a searching process's looks at its pipe (a stop is noticed this fast)."""
