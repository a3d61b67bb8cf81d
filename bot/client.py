"""The DAIDE client: joins a game, mirrors it, and plays every phase before its deadline.

One :class:`DaideClient` plays one game as one power (or watches it).  The
event loop only moves messages; the search runs in the :class:`Thinker`'s
worker process.  In a movement phase the client

1. tells the server to wait for us (``NOT (GOF)``) and submits a quick
   heuristic order set at once, so something sensible is in even if all else
   fails;
2. resubmits the search's improvements as they arrive (at most one SUB per
   ``RESUBMIT_INTERVAL``), the last one before the deadline minus a safety
   margin derived from the measured round-trip time;
3. says ``GOF`` when done, so the server need not wait for the deadline.

Retreats are random legal retreats; builds and removals follow the heuristic
values.  Every SUB carries the phase's complete order set (MILA replaces a
power's orders on each SUB; Parlance merges them).  A refused order (THX
note other than MBV) is replaced at once by a safe one; a MIS is answered
with orders for the units it lists that we have not ordered.  THX for
orders we did not send this phase, a NOW older than the current phase and
ORD lines that do not fit the board are logged, counted and ignored.

If the connection drops, the client reconnects with backoff and rejoins
with ``IAM (power) (passcode)``, asks for HLO, SCO, NOW and the time left
(TME), and finishes the phase in progress against its original deadline.
Nothing the server sends can crash it: a message that does not parse is
answered with HUH/PRN as the syntax prescribes, a protocol violation (a
second RM included: we never select another game) with EM and a
reconnection.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from dataclasses import dataclass, field
from random import Random
from typing import Any

import structlog

from adjudicator.adjustments import civil_disorder_removals
from adjudicator.convert import adjustment_value, movement_value, retreat_value
from adjudicator.errors import AdjudicatorError
from adjudicator.orders import DISBAND_ORDER, HOLD_ORDER, REMOVE, WAIVE_ORDER, EngineOrder
from adjudicator.position import SEASON_INDEX, Position
from bot.connection import Connection, ConnectionLost
from bot.logs import GameLog
from bot.mirror import GameMirror
from bot.procstats import ResourceMonitor
from bot.settings import BotSettings
from bot.telemetry.events import (
    Centres,
    Connected,
    Disconnected,
    GameOver,
    Joined,
    OrderResult,
    OrdersSubmitted,
    PhaseStarted,
    SearchStats,
    phase_of,
)
from bot.telemetry.publisher import Telemetry, make_telemetry, search_fields
from bot.thinker import Thinker, ThinkerError, ThinkJob
from protocol.errors import LanguageError, ProtocolError
from protocol.messages import (
    Adm,
    Ccd,
    Drw,
    Frm,
    Gof,
    Hlo,
    Huh,
    Iam,
    Lod,
    Map,
    Mdf,
    Message,
    Mis,
    Nme,
    Not,
    Now,
    Obs,
    Off,
    Ord,
    Out,
    Prn,
    Rej,
    Sco,
    Slo,
    Smr,
    Sub,
    Sve,
    Thx,
    Tme,
    Yes,
    parse_message,
    press_replies,
    reply_to_bad_message,
)
from protocol.values import (
    Build,
    Disband,
    Hold,
    Order,
    Remove,
    Turn,
    Unit,
    Waive,
    order_power,
)
from protocol.wire import DiplomacyMessage, ErrorMessage, FinalMessage, RepresentationMessage
from search.heuristics import PhaseHeuristics
from search.registry import make_policy

RESUBMIT_INTERVAL = 1.0
"""Least seconds between two order submissions in one phase (each costs THX traffic)."""

DEFAULT_RTT = 0.2
"""Assumed round trip (seconds) before the first one is measured."""

log = structlog.get_logger("daide-mcts")


@dataclass
class GameSummary:
    """How a game went for the bot: what the tests and the game runner check.

    ``margins`` holds the deadline margin (seconds) of every submission and
    ``phase_margins`` that of the last submission of each phase; a margin is
    measured against the bot's own estimate of the deadline.
    ``bad_messages`` counts messages that did not parse or that the server
    did not understand (HUH/PRN); ``ignored_messages`` those that parsed but
    did not fit the game (a stale NOW, an ORD for a unit that does not exist,
    a THX for an order we never sent); ``wire_errors`` the protocol
    violations by the server (answered with EM, then a reconnection).
    CPU seconds and peak resident memory cover the client process and its
    search worker separately; ``yearly_peak_kb`` maps each game year to the
    peak of both processes together during that year.
    """

    power: str | None = None
    passcode: int | None = None
    result: str | None = None
    centres: int | None = None
    phases_played: int = 0
    submissions: int = 0
    refused_orders: int = 0
    missed_deadlines: int = 0
    shadow_checked: int = 0
    shadow_mismatches: int = 0
    shadow_skipped: int = 0
    reconnections: int = 0
    bad_messages: int = 0
    ignored_messages: int = 0
    wire_errors: int = 0
    margins: list[float] = field(default_factory=list)
    phase_margins: list[float] = field(default_factory=list)
    smr: str | None = None
    ended_cleanly: bool = False
    wall_seconds: float = 0.0
    cpu_seconds: float = 0.0
    worker_cpu_seconds: float = 0.0
    peak_rss_kb: int = 0
    worker_peak_rss_kb: int = 0
    yearly_peak_kb: dict[str, int] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready dictionary."""
        return dict(self.__dict__)


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
        self.game_log = game_log or GameLog(None)
        self.telemetry = telemetry or make_telemetry(settings, power_of=lambda: self.power)
        self.summary = GameSummary()
        self.mirror = GameMirror()
        self.rng = Random(settings.seed)
        self.conn: Connection | None = None
        self.thinker: Thinker | None = None
        self.power: str | None = settings.rejoin_power
        self.passcode: int | None = settings.rejoin_passcode
        self.hlo: Hlo | None = None
        self.map_name: str | None = None
        self.game_over = False
        self._phase_task: asyncio.Task[None] | None = None
        self._phase_turn: Turn | None = None
        self._phase_complete = False
        self._replay_phase = False
        self._deadline: float | None = None
        self._rtt: float | None = None
        self._sub_sent_at: float | None = None
        # The phase's orders: the engine form of the last movement/retreat set, the complete
        # set last submitted (values), every order sent and every order refused this phase.
        self._submitted: dict[int, EngineOrder] = {}
        self._order_set: list[Order] = []
        self._sent: set[Order] = set()
        self._refused: set[Order] = set()
        self._accepted: set[Order] = set()
        self._mis_answered = False
        self._recovered = False
        self._last_margin: float | None = None
        self._quick_policy: Any = None
        self._heuristics = PhaseHeuristics()
        self._resources = ResourceMonitor()
        self._joined = asyncio.Event()
        self._session_joined = False

    # --- the game loop ---------------------------------------------------------------------

    async def run(self) -> GameSummary:
        """Connect, play until the game ends (reconnecting as needed), and return the summary."""
        attempts = 0
        rejoin = self.power is not None and self.passcode is not None
        self.telemetry.start()
        try:
            while not self.game_over:
                self._session_joined = False
                try:
                    await self._session(rejoin)
                    if self.game_over:
                        break
                    reason = "server closed the connection"
                except ConnectionLost as lost:
                    reason = lost.reason
                    if lost.violation is not None:
                        self.summary.wire_errors += 1
                except (OSError, TimeoutError) as exc:
                    reason = f"cannot connect to {self.settings.host}:{self.settings.port}: {exc}"
                    if self.summary.power is None and attempts >= self.settings.reconnect_attempts:
                        raise FatalClientError(reason) from exc
                if self.game_over:
                    break
                if self._session_joined:
                    attempts = 0  # that connection worked: start the backoff afresh
                attempts += 1
                if attempts > self.settings.reconnect_attempts:
                    raise FatalClientError(
                        f"giving up after {attempts - 1} reconnections: {reason}"
                    )
                rejoin = self.power is not None and self.passcode is not None
                delay = min(5.0, 0.1 * 2 ** (attempts - 1))
                log.warning("connection lost", reason=reason, retry_in=delay, rejoin=rejoin)
                self.game_log.write("connection_lost", reason=reason, retry_in=delay)
                self.telemetry.emit(Disconnected, reason=reason, retry_in=delay)
                await asyncio.sleep(delay)
                if rejoin:
                    self.summary.reconnections += 1
        finally:
            await self._shutdown()
        return self.summary

    async def _session(self, rejoin: bool) -> None:
        """One connection's lifetime: handshake, then messages until it closes or the game ends."""
        s = self.settings
        self.conn = await Connection.open(s.host, s.port, s.connect_timeout)
        log.info("connected", host=s.host, port=s.port)
        self.game_log.write("connected", host=s.host, port=s.port, rejoin=rejoin)
        self.telemetry.emit(Connected, host=s.host, port=s.port, rejoin=rejoin)
        try:
            while not self.game_over:
                wire = await self.conn.receive()
                if isinstance(wire, RepresentationMessage):
                    # The connection accepts one RM only (we never select another game).
                    self.game_log.write("rm", entries=len(wire.entries))
                    self._greet(rejoin)
                elif isinstance(wire, DiplomacyMessage):
                    self._on_dm(wire)
                elif isinstance(wire, FinalMessage):
                    log.info("server sent FM")
                    await self.conn.close(final=False)
                    return
                elif isinstance(wire, ErrorMessage):
                    log.error("server sent EM", code=wire.code, meaning=wire.description)
                    self.game_log.write("em", code=wire.code, meaning=wire.description)
                    await self.conn.close(final=False)
                    return
        finally:
            if self.game_over and self.conn is not None:
                await self.conn.close()

    def _greet(self, rejoin: bool) -> None:
        """Say who we are: IAM to rejoin, OBS to watch, NME to play."""
        s = self.settings
        if rejoin and self.power and self.passcode is not None:
            self.mirror.mark_resync()
            self._replay_phase = True
            self._send(Iam(self.power, self.passcode))
        elif s.observe:
            self._send(Obs(s.name, s.version))
        else:
            self._send(Nme(s.name, s.version))

    # --- sending -------------------------------------------------------------------------

    def _send(self, message: Message) -> None:
        if self.conn is None or self.conn.closed:
            raise ConnectionLost("not connected")
        text = self.conn.send(message)
        self.game_log.message("out", text)

    def _submit_set(self, orders: list[Order]) -> None:
        """Submit the phase's complete order set (some servers replace, not merge, on SUB)."""
        if not orders:
            return
        self._order_set = list(orders)
        self._sent.update(orders)
        self._send(Sub(tuple(orders)))
        now = time.monotonic()
        self._sub_sent_at = now
        self.summary.submissions += 1
        margin = None if self._deadline is None else round(self._deadline - now, 4)
        if margin is not None:
            self._last_margin = margin
            self.summary.margins.append(margin)
        self.game_log.write("submit", orders=len(orders), margin=margin)
        self.telemetry.emit(OrdersSubmitted, turn=self._phase_turn, orders=orders, margin=margin)

    # --- receiving --------------------------------------------------------------------------

    def _on_dm(self, wire: DiplomacyMessage) -> None:
        text = wire.text
        self.game_log.message("in", text)
        try:
            message = parse_message(wire.tokens, wire.table)
        except LanguageError as exc:
            self.summary.bad_messages += 1
            log.warning("message does not parse", error=str(exc), text=text)
            self.game_log.write("bad_message", error=str(exc), text=text)
            try:
                reply = reply_to_bad_message(wire.tokens, exc, wire.table)
            except (ProtocolError, ValueError) as encode_exc:
                log.error("cannot quote the bad message back", error=str(encode_exc))
                reply = None
            if reply is not None:  # never answer a HUH or PRN
                self._send(reply)
            return
        try:
            self._dispatch(message)
        except ConnectionLost:
            raise
        except (AdjudicatorError, ProtocolError, ValueError, KeyError, IndexError) as exc:
            # A message that parses but makes no sense for our game: log it, keep playing.
            self.summary.ignored_messages += 1
            log.error("could not handle message", error=repr(exc), text=text)
            self.game_log.write("handler_error", error=repr(exc), text=text)

    def _ignore(self, why: str, message: Message) -> None:
        """Count and log a message that parsed but does not fit the game as we know it."""
        self.summary.ignored_messages += 1
        log.warning("message ignored", reason=why, message=str(message))
        self.game_log.write("ignored", reason=why, text=str(message))

    def _dispatch(self, m: Message) -> None:
        if isinstance(m, Now):
            self._on_now(m)
        elif isinstance(m, Ord):
            if m.entry is not None:
                problem = self.mirror.on_ord(m.entry)
                if problem is not None:
                    self._ignore(problem, m)
                else:
                    self.telemetry.emit(
                        OrderResult, turn=m.entry.turn, order=m.entry.order, result=m.entry.result
                    )
        elif isinstance(m, Sco):
            if m.centres is not None:
                self.mirror.on_sco(m.centres)
                self.telemetry.emit(Centres, counts={p: len(c) for p, c in m.centres})
        elif isinstance(m, Thx):
            self._on_thx(m)
        elif isinstance(m, Mis):
            self._on_mis(m)
        elif isinstance(m, Tme):
            if m.seconds is not None:
                self._deadline = time.monotonic() + m.seconds
        elif isinstance(m, Map):
            self.map_name = m.name or "standard"
            self._send(Mdf())
        elif isinstance(m, Mdf):
            if m.definition is not None:
                self.mirror.on_map(m.definition, self.map_name or "standard")
                self._send(Yes(Map(self.map_name or "standard")))
        elif isinstance(m, Hlo):
            self._on_hlo(m)
        elif isinstance(m, Yes):
            self._on_yes(m)
        elif isinstance(m, Rej):
            self._on_rej(m)
        elif isinstance(m, Ccd):
            if m.power == self.power and m.turn is not None:
                self.summary.missed_deadlines += 1
                log.error("we missed a deadline", turn=str(m.turn))
                self.game_log.write("missed", turn=str(m.turn))
            log.info("civil disorder", power=m.power, turn=str(m.turn) if m.turn else None)
        elif isinstance(m, Out):
            log.info("power eliminated", power=m.power)
        elif isinstance(m, Drw | Slo):
            self.summary.result = m.to_text()
            log.info("game over", result=self.summary.result)
        elif isinstance(m, Smr):
            self.summary.smr = m.to_text()
            for player in m.players:
                if player.power == self.power:
                    self.summary.centres = player.centres
            if self.summary.result is not None:
                self._finish()
        elif isinstance(m, Off):
            self._finish()
        elif isinstance(m, Frm):
            for reply in press_replies(m):
                self._send(reply)
        elif isinstance(m, Sve):
            self._send(Yes(m))
        elif isinstance(m, Lod):
            if self.power and self.passcode is not None:
                self._send(Iam(self.power, self.passcode))
            else:
                self._send(Rej(m))
        elif isinstance(m, Huh | Prn):
            self.summary.bad_messages += 1
            log.error("server did not understand us", reply=m.to_text())
            self._recover_orders()
        elif isinstance(m, Adm):
            log.info("admin", sender=m.name, text=m.text)
        elif isinstance(m, Not):
            if isinstance(m.message, Tme):
                log.info("the server stopped the clock", message=m.to_text())
            else:
                log.info("server notice", message=m.to_text())
        else:
            self._ignore("a message a server does not send", m)

    def _on_hlo(self, m: Hlo) -> None:
        self.hlo = m
        self.power = m.power
        self.passcode = m.passcode
        self.summary.power = m.power
        self.summary.passcode = m.passcode
        self._joined.set()
        self._session_joined = True
        log.info("game started", power=m.power, passcode=m.passcode)
        self.game_log.write("hlo", power=m.power, passcode=m.passcode)
        v = m.variant
        self.telemetry.emit(
            Joined,
            map=self.map_name or "standard",
            move_time_limit=v.move_time_limit,
            retreat_time_limit=v.retreat_time_limit,
            build_time_limit=v.build_time_limit,
        )
        self._ensure_thinker()

    def _on_yes(self, m: Yes) -> None:
        inner = m.message
        if isinstance(inner, Iam):
            log.info("rejoined", power=inner.power)
            self.game_log.write("rejoined", power=inner.power)
            self._joined.set()
            self._session_joined = True
            self._ensure_thinker()
            # The game as it stands, and the time left in this phase (Parlance answers a
            # bare TME; a server that cannot refuses it and HLO's limits stay in force).
            for request in (Hlo(), Sco(), Now(), Tme()):
                self._send(request)

    def _on_rej(self, m: Rej) -> None:
        inner = m.message
        log.warning("server refused", message=inner.to_text())
        if isinstance(inner, Nme | Obs) and not self._joined.is_set():
            raise FatalClientError(f"the server refused to let us join: {m.to_text()}")
        if isinstance(inner, Iam):
            # The passcode or the power is not accepted: try as a new player.
            self.power = None
            self.passcode = None
            self._send(Nme(self.settings.name, self.settings.version))

    # --- phases ----------------------------------------------------------------------------

    def _on_now(self, m: Now) -> None:
        if m.turn is None:
            return
        received = time.monotonic()
        current = self.mirror.position
        if (
            current is not None
            and not self.mirror.resync
            and _turn_order(m.turn) < _turn_order(current.turn)
        ):
            self._ignore(f"NOW for {m.turn} after {current.turn}", m)
            return
        report = self.mirror.on_now(m.turn, m.units)
        self._copy_shadow_counts()
        if report is not None:
            if not report.ok:
                log.error(
                    "shadow adjudication mismatch",
                    turn=str(report.turn),
                    differences=list(report.differences),
                    predicted=report.predicted,
                    actual=report.actual,
                )
            self.game_log.write(
                "shadow", turn=str(report.turn), ok=report.ok, differences=list(report.differences)
            )
        if self.game_over or self.settings.observe or self.power is None:
            return
        pos = self.mirror.position
        if pos is None or self.mirror.game_map is None:
            return
        running = self._phase_task is not None and not self._phase_task.done()
        if m.turn == self._phase_turn:
            # The same phase again: after a rejoin, finish it; otherwise it is a duplicate.
            if running or not self._replay_phase:
                return
            self._replay_phase = False
            if self._deadline is None:
                self._deadline = self._phase_deadline(pos, received)
            if self._phase_complete:
                self._resend_orders()
                return
        else:
            if running:
                self._phase_task.cancel()  # type: ignore[union-attr]
            self._end_phase_record()
            self._replay_phase = False
            self._deadline = self._phase_deadline(pos, received)
            self._phase_turn = m.turn
            self._submitted = {}
            self._order_set = []
            self._sent = set()
            self._refused = set()
            self._accepted = set()
            self._mis_answered = False
            self._recovered = False
            self._phase_complete = False
            finished_year = self._resources.new_year(pos.year, self._worker_pid)
            if finished_year is not None:
                self.game_log.write("year_peak", year=pos.year - 1, peak_kb=finished_year)
            self.telemetry.emit(
                PhaseStarted,
                turn=m.turn,
                phase=phase_of(m.turn.season),
                deadline_in=None if self._deadline is None else round(self._deadline - received, 3),
            )
        self._phase_task = asyncio.create_task(self._play_phase(pos), name=f"phase {m.turn}")

    def _end_phase_record(self) -> None:
        """The phase just ended: keep its last submission's margin and a resource reading."""
        if self._phase_turn is None:
            return
        if self._last_margin is not None:
            self.summary.phase_margins.append(self._last_margin)
        self._last_margin = None
        self.game_log.write(
            "resources", turn=str(self._phase_turn), **self._resources.sample(self._worker_pid)
        )

    def _phase_deadline(self, pos: Position, start: float) -> float | None:
        """When this phase's orders are due, from HLO's limits (TME refines it)."""
        if self.hlo is None:
            return None
        v = self.hlo.variant
        if pos.is_movement:
            limit = v.move_time_limit
        elif pos.is_retreat:
            limit = v.retreat_time_limit
        else:
            limit = v.build_time_limit
        return start + limit if limit else None

    @property
    def _power_id(self) -> int | None:
        game_map = self.mirror.game_map
        if game_map is None or self.power is None:
            return None
        return game_map.power_index.get(self.power)

    @property
    def _worker_pid(self) -> int | None:
        return self.thinker.pid if self.thinker is not None else None

    def _margin(self) -> float:
        rtt = self._rtt if self._rtt is not None else DEFAULT_RTT
        return max(self.settings.min_margin, 3 * rtt + 0.1)

    async def _play_phase(self, pos: Position) -> None:
        power = self._power_id
        if power is None:
            return
        try:
            final = self.settings.final_year
            if final is not None and pos.ended_by(final):
                # The final year has been played out (BANDANA's -fy): offer the draw.
                self._send(Drw())
            if pos.is_movement:
                if any(u[0] == power for u in pos.units.values()):
                    await self._play_movement(pos, power)  # ends with GOF
            elif pos.is_retreat:
                if any(d[0] == power for d in pos.dislodged.values()):
                    orders = self._heuristics.retreat_orders(pos, power, self.rng)
                    self._submit_engine(pos, self._complete_retreats(pos, power, orders))
            elif pos.adjustments()[power] != 0:
                orders_list = self._heuristics.adjustment_orders(pos, power, self.rng)
                self._submit_set([adjustment_value(pos, power, o) for o in orders_list])
            # No GOF outside movement: on MILA a GOF that completes a phase leaks into the
            # next one (README "Servers"), and Parlance needs none there.
            self._phase_complete = True
            self.summary.phases_played += 1
        except ConnectionLost:
            pass  # the session loop notices, reconnects, and the phase is replayed
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            log.exception("phase failed; submitting safe orders", error=repr(exc))
            with contextlib.suppress(Exception):
                self._recover_orders()

    async def _play_movement(self, pos: Position, power: int) -> None:
        self._send(Not(Gof()))
        quick = self._quick_orders(pos, power)
        self._submit_engine(pos, quick)
        deadline = self._deadline
        if deadline is None:
            deadline = time.monotonic() + self.settings.think_time
        job: ThinkJob | None = None
        try:
            if self.thinker is not None and self.thinker.alive:
                job = self.thinker.think(pos, power, deadline - self._margin())
        except ThinkerError as exc:
            log.error("search unavailable; keeping the quick orders", error=str(exc))
        last_sent = time.monotonic()
        pending: dict[int, EngineOrder] | None = None
        while job is not None:
            due = (self._deadline or deadline) - self._margin()
            remaining = due - time.monotonic()
            if remaining <= 0:
                break
            wait = remaining if pending is None else min(remaining, RESUBMIT_INTERVAL)
            improvement = await job.next(wait)
            if improvement is not None:
                if "error" in improvement.stats:
                    log.error("search failed", error=improvement.stats["error"])
                    self.game_log.write("search_error", error=improvement.stats["error"])
                elif improvement.orders:
                    pending = self._complete(pos, power, improvement.orders)
                    self.game_log.write("search", final=improvement.final, stats=improvement.stats)
                    self.telemetry.emit(
                        SearchStats,
                        turn=pos.turn,
                        final=improvement.final,
                        **search_fields(improvement.stats),
                    )
                if improvement.final:
                    job = None
            if pending is not None and (
                job is None or time.monotonic() - last_sent >= RESUBMIT_INTERVAL
            ):
                if pending != self._submitted:
                    self._submit_engine(pos, pending)
                    last_sent = time.monotonic()
                pending = None
        if job is not None:
            latest = job.best
            self.thinker.cancel(job)  # type: ignore[union-attr]
            if latest is not None and latest.orders:
                final = self._complete(pos, power, latest.orders)
                if final != self._submitted:
                    self._submit_engine(pos, final)
        if pending is not None and pending != self._submitted:
            self._submit_engine(pos, pending)
        self.game_log.write(
            "orders",
            turn=str(pos.turn),
            orders=[str(movement_value(pos, p, o)) for p, o in sorted(self._submitted.items())],
        )
        self._send(Gof())

    def _quick_orders(self, pos: Position, power: int) -> dict[int, EngineOrder]:
        """A sensible order set in milliseconds: DumbBot's, or all holds if that fails."""
        try:
            if self._quick_policy is None:
                self._quick_policy = make_policy("dumbbot", seed=self.rng.randrange(1 << 30))
            orders = self._quick_policy.movement_orders(pos, power, self.rng)
            return self._complete(pos, power, orders)
        except Exception as exc:
            log.error("quick orders failed; holding", error=repr(exc))
            return self._complete(pos, power, {})

    @staticmethod
    def _complete(
        pos: Position, power: int, orders: dict[int, EngineOrder]
    ) -> dict[int, EngineOrder]:
        """``orders`` for every unit of ``power`` (HLD where missing), nothing for others."""
        return {p: orders.get(p, HOLD_ORDER) for p, u in pos.units.items() if u[0] == power}

    @staticmethod
    def _complete_retreats(
        pos: Position, power: int, orders: dict[int, EngineOrder]
    ) -> dict[int, EngineOrder]:
        """``orders`` for every dislodged unit of ``power`` (DSB where missing)."""
        return {p: orders.get(p, DISBAND_ORDER) for p, d in pos.dislodged.items() if d[0] == power}

    def _submit_engine(self, pos: Position, orders: dict[int, EngineOrder]) -> None:
        if pos.is_movement:
            values = [movement_value(pos, p, o) for p, o in sorted(orders.items())]
        else:
            values = [retreat_value(pos, p, o) for p, o in sorted(orders.items())]
        self._submitted = dict(orders)
        self._submit_set(values)

    # --- the server's answers to our orders -------------------------------------------------

    def _on_thx(self, m: Thx) -> None:
        order = m.order
        if order not in self._sent:
            self._ignore("THX for an order we did not send in this phase", m)
            return
        if self._sub_sent_at is not None:
            rtt = time.monotonic() - self._sub_sent_at
            self._rtt = rtt if self._rtt is None else 0.8 * self._rtt + 0.2 * max(rtt, self._rtt)
            self._sub_sent_at = None
        if m.note == "MBV":
            self._accepted.add(order)
            return
        if order in self._refused:
            return
        if order in self._accepted:
            # The server took this order earlier in the phase and balks at the repeat (MILA
            # refuses a build it already has): our order stands, nothing to replace.
            self._ignore("refusal of an order the server accepted earlier this phase", m)
            return
        self.summary.refused_orders += 1
        self._refused.add(order)
        log.error("order refused", order=str(order), note=m.note)
        self.game_log.write("refused", order=str(order), note=m.note)
        if order not in self._order_set:
            return  # already superseded by a later submission
        orders = [o for o in self._order_set if o != order]
        replacement = self._safe_order_for(order)
        if replacement is not None and replacement not in self._refused:
            orders.append(replacement)
        self._submit_set(orders)

    def _safe_order_for(self, order: Order) -> Order | None:
        """What replaces a refused order: hold, disband, or waive a build."""
        pos = self.mirror.position
        if pos is None or order_power(order) != self.power:
            return None
        if isinstance(order, Build):
            return Waive(order.unit.power)
        unit: Unit | None = getattr(order, "unit", None)
        if unit is None:
            return None
        if pos.is_movement:
            return Hold(unit)
        if pos.is_retreat:
            return Disband(unit)
        return None

    def _on_mis(self, m: Mis) -> None:
        """The server lacks orders: complete our set (once per phase for builds/removals)."""
        pos = self.mirror.position
        power = self._power_id
        if pos is None or power is None or self.game_over or pos.turn != self._phase_turn:
            return
        if (m.count is not None) != (pos.is_adjustment):
            if m.count or m.units:
                self._ignore(f"MIS of the wrong form for {pos.turn}", m)
            return
        if m.count is not None:
            if m.count == 0 or self._mis_answered:
                return
            due = pos.adjustments()[power]  # builds (> 0) or removals (< 0) by our count
            if due > 0:
                covered = sum(isinstance(o, Build | Waive) for o in self._order_set) >= due
            else:
                covered = sum(isinstance(o, Remove) for o in self._order_set) >= -due
            if covered:
                # Our set is complete by the rules (MILA's MIS does not count waives).
                self._ignore("MIS for adjustments our submitted set already covers", m)
                return
            self._mis_answered = True
            log.warning("server says adjustments are missing", count=m.count)
            if m.count < 0:  # builds still open: waive them
                waive = adjustment_value(pos, power, WAIVE_ORDER)
                self._submit_set([*self._order_set, *([waive] * -m.count)])
            else:
                chosen = {o.unit for o in self._order_set if isinstance(o, Remove)}
                ranked = civil_disorder_removals(pos, power, len(pos.units_of(power)))
                extra = [adjustment_value(pos, power, (REMOVE, p)) for p in ranked]
                extra = [o for o in extra if getattr(o, "unit", None) not in chosen][: m.count]
                self._submit_set([*self._order_set, *extra])
            return
        ordered = {getattr(o, "unit", None) for o in self._order_set}
        missing: list[Order] = []
        for unit_position in m.units:
            unit = unit_position.unit
            if unit.power != self.power or unit in ordered:
                continue  # (MILA lists retreating units even when their order was accepted)
            missing.append(Disband(unit) if unit_position.retreats is not None else Hold(unit))
        if missing:
            log.warning("server says orders are missing", count=len(missing))
            self._submit_set([*self._order_set, *missing])

    def _recover_orders(self) -> None:
        """Resubmit a complete, safe order set for the current phase (once per phase)."""
        pos = self.mirror.position
        power = self._power_id
        if pos is None or power is None or self._recovered:
            return
        self._recovered = True
        if self._order_set:
            self._submit_set(list(self._order_set))
        elif pos.is_movement:
            self._submit_engine(pos, self._complete(pos, power, {}))
        elif pos.is_retreat:
            self._submit_engine(pos, self._complete_retreats(pos, power, {}))

    def _resend_orders(self) -> None:
        """After a rejoin in a phase we had finished: make sure the server has our orders."""
        if self._order_set:
            self._submit_set(list(self._order_set))
        pos = self.mirror.position
        if pos is not None and pos.is_movement:
            self._send(Gof())

    # --- set-up and shutdown ---------------------------------------------------------------

    def _ensure_thinker(self) -> None:
        if self.thinker is not None or self.settings.observe:
            return
        definition = self.mirror.game_map.definition if self.mirror.game_map else None
        if definition is None:
            return
        self.thinker = Thinker(
            self.settings.strategy,
            definition,
            self.map_name or "standard",
            self.rng.randrange(1 << 30),
            self.settings.workers,
            self.settings.final_year,
        )
        try:
            self.thinker.start()
        except (OSError, RuntimeError) as exc:
            log.error("could not start the search worker; playing heuristically", error=str(exc))
            self.thinker = None

    def _finish(self) -> None:
        if not self.game_over:
            self.game_over = True
            self.summary.ended_cleanly = True
            self._end_phase_record()
            self._phase_turn = None
            self._copy_resources()
            self._copy_shadow_counts()
            log.info("game finished", summary=self.summary.as_dict())
            self.game_log.write("summary", **self.summary.as_dict())
            self.telemetry.emit(GameOver, **self.summary.as_dict())

    async def _shutdown(self) -> None:
        if self._phase_task is not None and not self._phase_task.done():
            self._phase_task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._phase_task
        if not self.game_over:
            self._copy_resources()
        if self.thinker is not None:
            self.thinker.close()
            self.thinker = None
        if self.conn is not None:
            await self.conn.close()
        self._copy_shadow_counts()
        await self.telemetry.close()
        self.game_log.write("telemetry", **self.telemetry.stats())

    def _copy_resources(self) -> None:
        totals = self._resources.totals(self._worker_pid)
        for key, value in totals.items():
            setattr(self.summary, key, value)
        self.summary.yearly_peak_kb = dict(self._resources.yearly)

    def _copy_shadow_counts(self) -> None:
        self.summary.shadow_checked = self.mirror.checked
        self.summary.shadow_mismatches = self.mirror.mismatches
        self.summary.shadow_skipped = self.mirror.skipped


def _turn_order(turn: Turn) -> tuple[int, int]:
    """A sortable key for a phase: (year, season in playing order)."""
    return (turn.year, SEASON_INDEX[turn.season])
