"""Choosing movement orders in a worker process, so the event loop keeps serving the server.

:class:`Thinker` owns one worker process and talks to it in the typed
messages of :mod:`search.mcts.worker_protocol` over a pipe that the event loop
watches with ``add_reader`` — no thread and no blocking read.
``think(...)`` starts a job with its :class:`~search.policy.SearchLimit`
(from the phase's :class:`~bot.client.core.timebudget.PhaseClock`); the worker reports
every improved order set as it finds one (anytime search) and one final answer
right after the stop time, which the client still has time to submit.
``retime`` gives a job a new limit, ``cancel`` ends it early.  Every job
message is handed to ``on_message`` with its arrival time: which job is
current, and so which messages are stale, is the client core's business.

The worker is started when the bot starts, before it connects, and where it
can be it is a fork of the client (see :meth:`Thinker.start`): a game may
begin the moment the bot joins, and a fresh interpreter needs a second or
more to import the search while other bots start beside it.  It says when it
is ready (:class:`~search.mcts.worker_protocol.Ready`), builds its own copy of the map
once the client has the MDF (:meth:`Thinker.use_map`), and receives positions
as plain tuples.  It dies with the client (parent-death signal; end of its
pipe), and its root-parallel helpers die with it, so no search process
outlives a killed bot.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import gc
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from multiprocessing.connection import Connection as Pipe
from random import Random
from typing import Any

from adjudicator.maps import GameMap
from adjudicator.orders import Orders
from adjudicator.position import Position
from protocol.values import MapDefinition
from search.choosers import make_chooser
from search.mcts.inbox import PipeInbox
from search.mcts.parallel import die_with_parent, quiet_collector
from search.mcts.worker_protocol import (
    Answer,
    Cancel,
    Failed,
    JobControl,
    JobMessage,
    Progress,
    Ready,
    Retime,
    Shutdown,
    Think,
    ToWorker,
    UseMap,
)
from search.policy import Chooser, SearchLimit, SearchRequest

WORKER_NICENESS = 5
"""How much the search worker yields the CPU to the client process (``os.nice``).

The client's work is small but latency-bound (reading the deadline, sending
the last SUB on time); the search is throughput-bound.  When seven bots share
two cores, a niced worker lets each client's event loop run when it wakes.
"""

JOIN_TIMEOUT = 2.0
"""Seconds to wait for the worker to exit when asked, before it is killed."""


class ThinkerError(RuntimeError):
    """The worker process died or could not start."""


JobCallback = Callable[[JobMessage, float], None]
"""``on_message(message, at)``: a job's message and its arrival (a monotonic reading)."""


class Thinker:
    """The parent side of the worker process.

    ``on_ready`` is called with the worker's start-up time in seconds once it
    can search; ``on_message`` with every job message as it arrives.
    """

    def __init__(
        self,
        strategy: str,
        seed: int,
        workers: int = 1,
        final_year: int | None = None,
        on_ready: Callable[[float], None] | None = None,
        on_message: JobCallback | None = None,
    ) -> None:
        self.strategy = strategy
        self.map_name: str | None = None
        self._args = (strategy, seed, workers, final_year)
        self._on_ready = on_ready
        self._on_message = on_message
        self._proc: multiprocessing.process.BaseProcess | None = None
        self._conn: Pipe | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def start(self) -> None:
        """Start the worker process.

        On Linux, while this process has no other thread (the client starts
        its worker before it connects or starts telemetry), the worker is a
        fork of it: the search is imported already, so it is ready in
        milliseconds; it drops this process's signal handling and its end of
        the pipe.  Otherwise (a restart mid-game, other systems) it is a fresh
        interpreter, which takes a second or more to import the search.  The
        worker is not a daemon process, because it starts the root-parallel
        helpers itself (daemons may not have children); it ends with
        :meth:`close`, at this process's exit, or with this process.
        """
        method = "fork" if _fork_is_safe() else "spawn"
        ctx = (
            multiprocessing.get_context("fork")
            if method == "fork"
            else multiprocessing.get_context("spawn")
        )
        parent, child = ctx.Pipe(duplex=True)
        self._proc = ctx.Process(
            target=_worker_main,
            args=(child, parent if method == "fork" else None, time.monotonic(), *self._args),
            name="daide-mcts-search",
        )
        self._proc.start()
        atexit.register(self.close)
        child.close()
        self._conn = parent
        self._loop = asyncio.get_running_loop()
        self._loop.add_reader(parent.fileno(), self._on_readable)

    @property
    def pid(self) -> int | None:
        """The worker process's id while it runs (for resource readings)."""
        return self._proc.pid if self._proc is not None and self._proc.is_alive() else None

    @property
    def alive(self) -> bool:
        """True while the worker process runs."""
        return self._proc is not None and self._proc.is_alive()

    def use_map(self, definition: MapDefinition, name: str) -> None:
        """The game's map: the jobs from now on are on it."""
        self.map_name = name
        self._send(UseMap(definition, name))

    def think(
        self,
        job_id: int,
        pos: Position,
        power: int,
        limit: SearchLimit,
        ranked: int = 0,
    ) -> None:
        """Job ``job_id``: ``power``'s orders for ``pos`` within ``limit``.

        ``ranked`` asks for that many best sets in the answer's statistics (a hint).
        """
        if self._conn is None or not self.alive:
            raise ThinkerError("the search worker is not running")
        if self.map_name is None:
            raise ThinkerError("the search worker has not been given the map")
        self._send(Think(job_id, pos.to_data(), power, limit, ranked=ranked))

    def retime(self, job_id: int, limit: SearchLimit) -> None:
        """Job ``job_id`` now searches within ``limit`` (the deadline moved)."""
        self._send(Retime(job_id, limit))

    def cancel(self, job_id: int) -> None:
        """Stop job ``job_id`` now (its final answer still comes)."""
        self._send(Cancel(job_id))

    def _send(self, message: ToWorker) -> None:
        if self._conn is not None:
            with contextlib.suppress(OSError, BrokenPipeError):
                self._conn.send(message)

    def _on_readable(self) -> None:
        conn = self._conn
        if conn is None:
            return
        try:
            while conn.poll():
                message = conn.recv()
                at = time.monotonic()
                if isinstance(message, Ready):
                    if self._on_ready is not None:
                        self._on_ready(message.seconds)
                elif self._on_message is not None:
                    self._on_message(message, at)
        except (EOFError, OSError):
            self._detach()

    def _detach(self) -> None:
        if self._loop is not None and self._conn is not None:
            with contextlib.suppress(ValueError, OSError):
                self._loop.remove_reader(self._conn.fileno())
        self._conn = None

    def close(self) -> None:
        """Stop the worker process (and so its helpers)."""
        conn = self._conn
        self._detach()
        if conn is not None:
            with contextlib.suppress(OSError, BrokenPipeError):
                conn.send(Shutdown())
            conn.close()
        if self._proc is not None:
            self._proc.join(JOIN_TIMEOUT)
            if self._proc.is_alive():
                self._proc.kill()
                self._proc.join(JOIN_TIMEOUT)
            self._proc = None
        atexit.unregister(self.close)


# --- the worker process ---------------------------------------------------------------------


def _fork_is_safe() -> bool:
    """True on Linux in a process with one thread (no lock can be held mid-fork)."""
    return sys.platform.startswith("linux") and threading.active_count() == 1


def _forget_parent_signals() -> None:
    """Default signal handling in a forked worker.

    The parent's event loop routes its signals through a wakeup descriptor
    that the fork shares; a signal to the worker must not reach the parent.
    """
    with contextlib.suppress(ValueError):
        signal.set_wakeup_fd(-1)
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, signal.SIG_DFL)


def _worker_main(
    conn: Pipe,
    parent_end: Pipe | None,
    started_at: float,
    strategy: str,
    seed: int,
    workers: int,
    final_year: int | None,
) -> None:
    if parent_end is not None:  # forked: the parent's end must close with the parent
        parent_end.close()
        _forget_parent_signals()
    die_with_parent()
    quiet_collector()
    with contextlib.suppress(OSError, AttributeError):
        os.nice(WORKER_NICENESS)
    rng = Random(seed)
    chooser = make_chooser(strategy, workers, final_year)
    inbox: PipeInbox[ToWorker] = PipeInbox(conn, Shutdown())
    game_map: GameMap | None = None
    map_error = "none given"

    def send(message: JobMessage | Ready) -> None:
        with contextlib.suppress(OSError, BrokenPipeError):
            conn.send(message)

    send(Ready(time.monotonic() - started_at))
    try:
        while True:
            message = inbox.next()
            if isinstance(message, Shutdown):
                return
            if isinstance(message, UseMap):
                try:
                    game_map = GameMap.from_definition(message.definition, message.name)
                except Exception as exc:  # the jobs on it fail and say why
                    game_map, map_error = None, f"{type(exc).__name__}: {exc}"
                continue
            if not isinstance(message, Think):
                continue  # a cancel or retime for a job already answered
            if game_map is None:
                send(Failed(message.job_id, f"the worker has no usable map ({map_error})"))
                continue
            _answer_job(message, game_map, inbox, chooser, rng, send)
            gc.collect()  # between jobs, where a pause costs nothing
    finally:
        chooser.close()


def _answer_job(
    job: Think,
    game_map: GameMap,
    inbox: PipeInbox[ToWorker],
    chooser: Chooser,
    rng: Random,
    send: Callable[[JobMessage | Ready], None],
) -> None:
    """Search ``job``: its improvements and exactly one final message (an answer or a failure)."""
    control = JobControl(inbox, job)

    def report(orders: Orders, stats: dict[str, Any], final: bool) -> None:
        message = Answer if final else Progress
        send(message(job.job_id, orders, stats))

    try:
        pos = Position.from_data(game_map, job.position)
        request = SearchRequest(
            pos,
            job.power,
            job.limit,
            retimed=control.current,
            ranked=job.ranked,
        )
        chooser(request, rng, report, control.should_stop)
    except Exception as exc:
        send(Failed(job.job_id, f"{type(exc).__name__}: {exc}"))
