"""Root parallelism: helper processes search the same position; their root statistics are merged.

With ``workers = n`` the calling process searches as usual while ``n - 1``
helper processes (started once, kept for the whole game) each grow their own
tree from the same root with their own seed, until the same stop time or
iteration cap; a new stop time for the job (:meth:`RootParallel.retime`)
reaches them too.  Each sends back its root edges' ``(action, visits, total)``;
:func:`merge` adds them up per action (actions are hashable order sets, so
the trees need not agree on anything else) and the variant's final-selection
rule picks from the sums.

Caller and helpers speak the search's one worker protocol
(:mod:`search.mcts.worker_protocol`, the bot's search worker's too): every
message carries the job's id, so a helper's answer to an old job (late, or
cut short by a newer job) is recognised, dropped and counted, never merged into
another search; a helper that is still busy when the next job comes stops at
once and takes it, so it never falls a phase behind.

Helpers are fresh interpreters (``spawn``), so they share nothing mutable
with the caller; a position travels as :meth:`Position.to_data`, and the map's
definition once per helper and map (:class:`~search.mcts.worker_protocol.UseMap`).  A
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
from collections.abc import Iterable, Iterator, Sequence
from multiprocessing.connection import Connection

from adjudicator.maps import GameMap
from adjudicator.position import Position
from protocol.values import MapDefinition
from search.generator import SearchRandom
from search.mcts.inbox import PipeInbox
from search.mcts.order_sets import Action
from search.mcts.tree import new_search
from search.mcts.variants import get_variant
from search.mcts.worker_protocol import (
    Answer,
    Cancel,
    JobControl,
    Retime,
    RootStats,
    Shutdown,
    Think,
    ToWorker,
    UseMap,
)
from search.policy import SearchLimit

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


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """No automatic cyclic garbage collection inside; the collector as it was after.

    What :func:`quiet_collector` does for a searching process, for one search in
    any process: a collector left on walks the growing tree again and again (a
    tenth of the CPU time of a two-second search from the mid-game).  Leave the
    block only once the tree is freed, or the first collection after it walks
    the whole tree.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


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
        self._map: tuple[str, MapDefinition] | None = None  # the map the helpers were told
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
        horizon: int,
        seeds: Sequence[int],
        limit: SearchLimit,
    ) -> int:
        """Start every helper searching ``pos`` (helper ``i`` with ``seeds[i]``); the job's id."""
        self.start()
        self._next_id += 1
        job_id = self._next_id
        m = pos.map
        game_map = (m.name, m.definition)
        told = self._map == game_map
        self._map = game_map
        data = pos.to_data()
        for i, conn in enumerate(self._conns):
            job = Think(job_id, data, power, limit, seeds[i], variant, horizon)
            try:
                if not told:
                    conn.send(UseMap(m.definition, m.name))
                conn.send(job)
                self._waiting[i] = job_id
            except (OSError, BrokenPipeError):
                self._waiting[i] = None
        return job_id

    def stop(self, job_id: int) -> None:
        """Ask the helpers still on ``job_id`` to stop now (their statistics still come back)."""
        self._tell(job_id, Cancel(job_id))

    def retime(self, job_id: int, limit: SearchLimit) -> None:
        """Tell the helpers still on ``job_id`` its new limit."""
        self._tell(job_id, Retime(job_id, limit))

    def _tell(self, job_id: int, message: ToWorker) -> None:
        for i, conn in enumerate(self._conns):
            if self._waiting[i] == job_id:
                with contextlib.suppress(OSError, BrokenPipeError):
                    conn.send(message)

    def collect(self, job_id: int, until: float) -> list[Answer]:
        """The answers to ``job_id`` that arrive by ``until`` (monotonic); stale ones dropped."""
        out: list[Answer] = []
        for i, conn in enumerate(self._conns):
            while self._waiting[i] is not None:
                try:
                    if not conn.poll(max(0.0, until - time.monotonic())):
                        break  # late: its answer will be dropped as stale next time
                    answer = conn.recv()
                except (EOFError, OSError):
                    self._waiting[i] = None
                    break
                if not isinstance(answer, Answer) or answer.job_id != self._waiting[i]:
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
                conn.send(Shutdown())
                conn.close()
        for proc in self._procs:
            proc.join(JOIN_TIMEOUT)
            if proc.is_alive():
                proc.kill()
                proc.join(JOIN_TIMEOUT)
        self._procs.clear()
        self._conns.clear()
        self._waiting.clear()
        self._map = None


# --- the helper process -----------------------------------------------------------------------


def _helper_main(conn: Connection) -> None:
    die_with_parent()
    quiet_collector()
    inbox: PipeInbox[ToWorker] = PipeInbox(conn, Shutdown())
    game_map: GameMap | None = None
    while True:
        job = inbox.next()
        if isinstance(job, Shutdown):
            return
        if isinstance(job, UseMap):
            game_map = GameMap.from_definition(job.definition, job.name)
            continue
        if not isinstance(job, Think) or game_map is None:
            continue  # a cancel or retime for a job already answered
        if not _answer(conn, inbox, job, game_map):
            return
        gc.collect()  # between jobs, where a pause costs nothing


def _answer(conn: Connection, inbox: PipeInbox[ToWorker], job: Think, game_map: GameMap) -> bool:
    """Search ``job`` and send its root statistics; False once the caller is gone."""
    assert job.variant is not None and job.horizon is not None and job.seed is not None
    pos = Position.from_data(game_map, job.position)
    variant = get_variant(job.variant)
    search = new_search(pos, job.power, variant, job.horizon, SearchRandom(job.seed))
    control = JobControl(inbox, job)
    iterations = job.limit.iterations

    def should_stop() -> bool:
        # A retime to an earlier stop ends the search here: the deadline given to run()
        # is the one the job started with.
        limit = control.current()
        return control.should_stop() or (limit.timed and time.monotonic() >= limit.stop_at)

    while True:
        limit = control.current()
        search.run(
            iterations=iterations,
            deadline=limit.stop_at if limit.timed else None,
            should_stop=should_stop,
            progress_every=POLL_EVERY,
        )
        control.should_stop()  # take a retime that came since the last look
        later = control.current()
        if iterations is not None or control.stopped or not later.timed:
            break
        if time.monotonic() >= later.stop_at:
            break  # else a retime moved the stop time later: search on until then
    root = tuple((e.action, e.visits, e.total) for e in search.root.edges)
    try:
        conn.send(Answer(job.job_id, {}, {"iterations": search.iterations}, root))
    except (OSError, BrokenPipeError):
        return False
    return True


POLL_EVERY = 0.02
"""Seconds between a searching process's looks at its pipe (a stop is noticed this fast)."""
