"""The DAIDE client's asyncio shell: the socket, the search worker and the timers around the core.

One :class:`DaideClient` plays one game as one power.  The rules live in
:class:`bot.client.core.BotCore` (events in, effects out, no I/O); this shell owns
what the core may not touch and feeds it:

* the **connection** (:mod:`bot.client.connection`): each wire message becomes a
  :class:`~bot.client.core.events.ServerMessage` with its arrival time; a lost
  connection is a :class:`~bot.client.core.events.ConnectionLost`, followed by a new
  connection after a backoff (the core greets it with IAM);
* the **search worker** (:class:`~bot.client.thinker.Thinker`): started before the
  game, restarted if it dies (at most ``WORKER_RESTARTS`` times); its job
  messages become :class:`~bot.client.core.events.SearchMessage` events;
* the **timers**: each :class:`~bot.client.core.effects.ScheduleTick` becomes a
  :class:`~bot.client.core.events.Tick` at that time.

Everything the bot does is published once, as a note, on one
:class:`~bot.client.listeners.NoteStream`; the console, the JSON-lines game
log, MQTT telemetry and the :class:`GameSummary` are its listeners.
"""

from __future__ import annotations

import asyncio
import contextlib
import time

from bot import __version__
from bot.client.connection import Connection, ConnectionLost
from bot.client.core import events as ev
from bot.client.core import notes
from bot.client.core.core import BotCore, CoreSettings
from bot.client.core.effects import (
    CancelSearch,
    Disconnect,
    Effect,
    GiveUp,
    Publish,
    RetimeSearch,
    ScheduleTick,
    Send,
    StartSearch,
    UseMap,
)
from bot.client.core.summary import GameSummary, SummaryListener
from bot.client.gamelog import GameLog
from bot.client.listeners import GameLogWriter, NoteStream, TelemetryWriter, console
from bot.client.mqtt_publisher import Telemetry
from bot.client.procstats import ResourceMonitor
from bot.client.settings import BotSettings, make_telemetry
from bot.client.thinker import Thinker, ThinkerError
from protocol.wire import WireMessage
from search.mcts.worker_protocol import JobMessage

__all__ = ["DaideClient", "FatalClientError", "GameSummary"]

WORKER_RESTARTS = 3
"""How many times a game may start a new search worker after one died."""

MAX_BACKOFF = 5.0
"""Longest wait between two reconnection attempts (seconds)."""

FIRST_BACKOFF = 0.1
"""First wait before reconnecting (seconds); it doubles up to ``MAX_BACKOFF``."""


REASON_WAIT = 1.0
"""Seconds a failed send waits for the reading side to say why the connection ended."""


class FatalClientError(Exception):
    """The game cannot be played (refused by the server, unreachable); the message says why."""


class DaideClient:
    """Plays one game on a DAIDE server; :meth:`run` returns its :class:`GameSummary`."""

    def __init__(
        self,
        settings: BotSettings,
        game_log: GameLog | None = None,
        telemetry: Telemetry | None = None,
    ) -> None:
        self.settings = settings
        self.core = BotCore(core_settings(settings))
        self.game_log = game_log or GameLog(None)
        self.telemetry = telemetry or make_telemetry(settings, power_of=lambda: self.core.power)
        self._summary = SummaryListener()
        self.stream = NoteStream(
            self._summary,
            console,
            GameLogWriter(self.game_log),
            TelemetryWriter(self.telemetry),
            self._on_note,
        )
        self.thinker: Thinker | None = None
        self._resources = ResourceMonitor()
        self._worker_restarts = 0
        self._events: asyncio.Queue[ev.Event] | None = None
        self._conn: Connection | None = None
        self._timers: dict[float, asyncio.TimerHandle] = {}
        self._closing: bool | None = None  # set by Disconnect: whether to say FM
        self._lost: ev.ConnectionLost | None = None
        self._give_up: str | None = None

    @property
    def summary(self) -> GameSummary:
        """How the game went so far."""
        return self._summary.summary

    @property
    def power(self) -> str | None:
        """Our power's token once known."""
        return self.core.power

    # --- the game loop ---------------------------------------------------------------------

    async def run(self) -> GameSummary:
        """Connect, play until the game ends (reconnecting as needed), and return the summary."""
        self._events = asyncio.Queue()
        attempts = 0
        self._ensure_thinker()  # before telemetry's thread: the worker can be a fork
        self.telemetry.start()
        try:
            while not self.core.game_over:
                joined, violation = False, False
                try:
                    joined = await self._connection()
                    if self.core.game_over:
                        break
                    lost = self._lost
                    reason = lost.reason if lost else "server closed the connection"
                    violation = lost.violation if lost else False
                except (OSError, TimeoutError) as exc:
                    s = self.settings
                    reason = f"cannot connect to {s.host}:{s.port}: {exc}"
                    if self.summary.power is None and attempts >= s.reconnect_attempts:
                        raise FatalClientError(reason) from exc
                if joined:
                    attempts = 0  # that connection worked: start the backoff afresh
                attempts += 1
                if attempts > self.settings.reconnect_attempts:
                    raise FatalClientError(
                        f"giving up after {attempts - 1} reconnections: {reason}"
                    )
                rejoin = self.core.can_rejoin
                delay = min(MAX_BACKOFF, FIRST_BACKOFF * 2 ** (attempts - 1))
                self.stream.publish(notes.ConnectionDropped(reason, delay, rejoin, violation))
                await asyncio.sleep(delay)
                if rejoin:
                    self.stream.publish(notes.Reconnecting())
        finally:
            await self._shutdown()
        return self.summary

    def stop(self, reason: str) -> None:
        """The bot is being stopped (a signal): the summary says so; :meth:`run` is cancelled."""
        self.stream.publish(notes.Stopping(reason))

    async def _connection(self) -> bool:
        """One connection's life; returns whether it joined the game.

        The next server message is read only once the last one has been handled
        (as a message arrives, so do its answers), while search messages and
        ticks are handled as they come.
        """
        # Stays whole: the two waits (the socket, the event queue) and their hand-offs
        # are one loop; split, the order of reads and cancellations is no longer visible.
        assert self._events is not None
        s = self.settings
        conn = self._conn = await Connection.open(s.host, s.port, s.connect_timeout)
        self._closing, self._lost = None, None
        joined = False
        receiving: asyncio.Task[WireMessage] | None = None
        waiting: asyncio.Task[ev.Event] | None = None
        try:
            self._feed(ev.ConnectionOpened(time.monotonic(), s.host, s.port))
            while self._closing is None and self._lost is None and not self.core.game_over:
                if receiving is None:
                    receiving = asyncio.create_task(conn.receive(), name="daide receive")
                if waiting is None:
                    waiting = asyncio.create_task(self._events.get(), name="bot events")
                done, _ = await asyncio.wait(
                    {receiving, waiting}, return_when=asyncio.FIRST_COMPLETED
                )
                if receiving in done:
                    task, receiving = receiving, None
                    try:
                        wire = task.result()
                    except ConnectionLost as lost:
                        at = time.monotonic()
                        violation = lost.violation is not None
                        self._lost = ev.ConnectionLost(at, lost.reason, violation)
                        break
                    self._feed(ev.ServerMessage(time.monotonic(), wire))
                else:
                    assert waiting is not None
                    event, waiting = waiting.result(), None
                    if isinstance(event, ev.ConnectionLost):
                        # A send failed: the reading side says why, if it can in time.
                        assert receiving is not None
                        self._lost = await self._reason(receiving) or event
                        break
                    self._feed(event)
                joined = joined or self.core.joined
                if self._give_up is not None:
                    raise FatalClientError(self._give_up)
        finally:
            await self._stop_waiting(receiving, waiting)
            final = bool(self._closing) or self.core.game_over
            await conn.close(final=final)
            self._conn = None
            self._feed(ev.ConnectionLost(time.monotonic(), "connection closed"))
        return joined

    async def _reason(self, receiving: asyncio.Task[WireMessage]) -> ev.ConnectionLost | None:
        """The loss as the reading side saw it (a protocol violation, say), or None."""
        done, _ = await asyncio.wait({receiving}, timeout=REASON_WAIT)
        if not done or receiving.cancelled():
            return None
        lost = receiving.exception()
        if not isinstance(lost, ConnectionLost):
            return None
        return ev.ConnectionLost(time.monotonic(), lost.reason, lost.violation is not None)

    async def _stop_waiting(
        self, receiving: asyncio.Task[WireMessage] | None, waiting: asyncio.Task[ev.Event] | None
    ) -> None:
        """The connection ends: stop reading it; an event already taken goes back in line."""
        for task in (receiving, waiting):
            if task is not None and not task.done():
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        if waiting is not None and waiting.done() and not waiting.cancelled():
            self._queue(waiting.result())
        queue = self._events
        if queue is None:
            return
        kept = []
        while not queue.empty():
            event = queue.get_nowait()
            if not isinstance(event, ev.ConnectionLost):  # the old connection's
                kept.append(event)
        for event in kept:
            queue.put_nowait(event)

    # --- carrying out the core's actions -----------------------------------------------------

    def _feed(self, event: ev.Event) -> None:
        for action in self.core.handle(event):
            self._do(action)

    def _do(self, action: Effect) -> None:
        match action:
            case Publish(note=note):
                self.stream.publish(note)
            case Send(message=message):
                self._send(message)
            case ScheduleTick(at=at):
                self._schedule(at)
            case StartSearch(
                job_id=job_id,
                position=pos,
                power=power,
                limit=limit,
                ranked=ranked,
            ):
                self._ensure_thinker()
                try:
                    if self.thinker is None:
                        raise ThinkerError("no search worker")
                    self.thinker.think(job_id, pos, power, limit, ranked)
                except ThinkerError as exc:
                    self._queue(ev.SearchUnavailable(time.monotonic(), job_id, str(exc)))
            case RetimeSearch(job_id=job_id, limit=limit):
                if self.thinker is not None:
                    self.thinker.retime(job_id, limit)
            case CancelSearch(job_id=job_id):
                if self.thinker is not None:
                    self.thinker.cancel(job_id)
            case UseMap(definition=definition, name=name):
                if self.thinker is not None:
                    self.thinker.use_map(definition, name)
            case Disconnect(final=final):
                self._closing = final
            case GiveUp(reason=reason):
                self._give_up = reason

    def _send(self, message: object) -> None:
        conn = self._conn
        if conn is None or self._lost is not None:
            return
        try:
            text = conn.send(message)  # type: ignore[arg-type]
        except ConnectionLost as lost:
            self._queue(ev.ConnectionLost(time.monotonic(), lost.reason))
            return
        self.stream.publish(notes.MessageOut(text))

    def feed_later(self, event: ev.Event) -> None:
        """Hand the core ``event`` from outside the shell (a person's page), in the loop's turn.

        Call it from the client's event loop; the event is handled after the
        ones already waiting, while a connection is open (a person's input
        waits for the connection, like everything else the core is told).
        """
        self._queue(event)

    def _queue(self, event: ev.Event) -> None:
        if self._events is not None:
            self._events.put_nowait(event)

    def _schedule(self, at: float) -> None:
        if at in self._timers:
            return
        loop = asyncio.get_running_loop()

        def fire() -> None:
            self._timers.pop(at, None)
            self._queue(ev.Tick(time.monotonic()))

        self._timers[at] = loop.call_later(max(0.0, at - time.monotonic()), fire)

    # --- the search worker and the resources ---------------------------------------------------

    def _on_search_message(self, message: JobMessage, at: float) -> None:
        self._queue(ev.SearchMessage(at, message))

    def _ensure_thinker(self) -> None:
        """Start the search worker (again, if it died: at most ``WORKER_RESTARTS`` times).

        The first start is at :meth:`run`'s, before connecting, so that the worker
        is ready when the game begins; it gets the map as soon as the core has it.
        """
        if self.thinker is not None and not self.thinker.alive:
            if self._worker_restarts >= WORKER_RESTARTS:
                return
            self._worker_restarts += 1
            self.stream.publish(notes.WorkerRestarted(self._worker_restarts))
            self.thinker.close()
            self.thinker = None
        if self.thinker is not None:
            return
        if not self.core.player.chooser.needs_worker:
            return
        self.thinker = Thinker(
            self.settings.strategy,
            self.core.rng.randrange(1 << 30),
            self.settings.search_workers,
            self.settings.final_year,
            on_ready=lambda seconds: self.stream.publish(notes.WorkerReady(seconds)),
            on_message=self._on_search_message,
        )
        try:
            self.thinker.start()
        except (OSError, RuntimeError) as exc:
            self.stream.publish(notes.WorkerUnavailable(str(exc)))
            self.thinker = None
            return
        game_map = self.core.mirror.game_map
        if game_map is not None:
            self.thinker.use_map(game_map.definition, game_map.name)

    @property
    def _worker_pid(self) -> int | None:
        return self.thinker.pid if self.thinker is not None else None

    def _on_note(self, note: notes.Note) -> None:
        """The shell's own listener: resource readings at phase ends, a worker at each join."""
        match note:
            case notes.PhaseStarted(turn=turn):
                finished = self._resources.new_year(turn.year, self._worker_pid)
                if finished is not None:
                    self.stream.publish(notes.YearPeak(turn.year - 1, finished))
            case notes.PhaseEnded(turn=turn):
                readings = self._resources.sample(self._worker_pid)
                self.stream.publish(notes.ResourceSample(turn, readings))
            case notes.Joined() | notes.Rejoined():
                self._ensure_thinker()

    async def _shutdown(self) -> None:
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()
        self._feed(ev.Closing(time.monotonic()))
        totals = self._resources.totals(self._worker_pid)
        self.stream.publish(notes.ResourceTotals(totals, dict(self._resources.yearly)))
        self.stream.publish(notes.GameFinished(self.summary.as_dict()))
        if self.thinker is not None:
            self.thinker.close()
            self.thinker = None
        if self._conn is not None:
            await self._conn.close()
            self._conn = None
        await self.telemetry.close()
        self.stream.publish(notes.TelemetryStats(self.telemetry.stats()))


def core_settings(settings: BotSettings) -> CoreSettings:
    """The plain values the core needs from the bot's settings."""
    return CoreSettings(
        name=settings.name,
        version=__version__,
        final_year=settings.final_year,
        think_time=settings.think_time,
        min_margin=settings.min_margin,
        max_think=settings.max_think,
        rules=settings.rules,
        seed=settings.seed,
        rejoin_power=settings.rejoin_power,
        rejoin_passcode=settings.rejoin_passcode,
        strategy=settings.strategy,
        chooser=settings.chooser,
        press=settings.press,
        press_turn=settings.press_turn,
    )
