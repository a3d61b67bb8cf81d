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
values.  A refused order (THX note other than MBV) is replaced at once by a
safe one; a MIS is answered with orders for what is missing.  If the
connection drops, the client reconnects with backoff and rejoins with
``IAM (power) (passcode)``.  Nothing the server sends can crash it: a message
that does not parse is answered with HUH/PRN as the syntax prescribes, a
protocol violation with EM (and a reconnection).
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
from adjudicator.position import Position
from bot.connection import Connection, ConnectionLost
from bot.logs import GameLog
from bot.mirror import GameMirror
from bot.settings import BotSettings
from bot.thinker import Thinker, ThinkerError, ThinkJob
from protocol.errors import LanguageError
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
from protocol.values import Disband, Hold, Order, Turn, Unit
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
    """How a game went for the bot: what the tests and the game runner check."""

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
    margins: list[float] = field(default_factory=list)
    smr: str | None = None
    ended_cleanly: bool = False

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready dictionary."""
        return dict(self.__dict__)


class FatalClientError(Exception):
    """The game cannot be played (refused by the server, unreachable); the message says why."""


class DaideClient:
    """Plays one game on a DAIDE server; :meth:`run` returns its :class:`GameSummary`."""

    def __init__(self, settings: BotSettings, game_log: GameLog | None = None) -> None:
        self.settings = settings
        self.game_log = game_log or GameLog(None)
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
        self._deadline: float | None = None
        self._rtt: float | None = None
        self._sub_sent_at: float | None = None
        self._submitted: dict[int, EngineOrder] = {}
        self._quick_policy: Any = None
        self._heuristics = PhaseHeuristics()
        self._joined = asyncio.Event()
        self._greeted = False

    # --- the game loop ---------------------------------------------------------------------

    async def run(self) -> GameSummary:
        """Connect, play until the game ends (reconnecting as needed), and return the summary."""
        attempts = 0
        rejoin = self.power is not None and self.passcode is not None
        try:
            while not self.game_over:
                try:
                    await self._session(rejoin)
                    if self.game_over:
                        break
                    reason = "server closed the connection"
                except ConnectionLost as lost:
                    reason = lost.reason
                except (OSError, TimeoutError) as exc:
                    reason = f"cannot connect to {self.settings.host}:{self.settings.port}: {exc}"
                    if self.summary.power is None and attempts >= self.settings.reconnect_attempts:
                        raise FatalClientError(reason) from exc
                if self.game_over:
                    break
                attempts += 1
                if attempts > self.settings.reconnect_attempts:
                    raise FatalClientError(
                        f"giving up after {attempts - 1} reconnections: {reason}"
                    )
                rejoin = self.power is not None and self.passcode is not None
                delay = min(5.0, 0.1 * 2 ** (attempts - 1))
                log.warning("connection lost", reason=reason, retry_in=delay, rejoin=rejoin)
                self.game_log.write("connection_lost", reason=reason, retry_in=delay)
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
        try:
            while not self.game_over:
                wire = await self.conn.receive()
                if isinstance(wire, RepresentationMessage):
                    self.game_log.write("rm", entries=len(wire.entries))
                    if not self._greeted or rejoin:
                        self._greet(rejoin)
                        rejoin = False
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
        self._greeted = True
        if rejoin and self.power and self.passcode is not None:
            self.mirror.mark_resync()
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

    def _submit(self, orders: list[Order], margin_to: float | None = None) -> None:
        if not orders:
            return
        self._send(Sub(tuple(orders)))
        self._sub_sent_at = time.monotonic()
        self.summary.submissions += 1
        if margin_to is not None:
            margin = margin_to - time.monotonic()
            self.summary.margins.append(round(margin, 4))
            self.game_log.write("submit", orders=len(orders), margin=round(margin, 4))

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
            first = wire.tokens[0] if wire.tokens else None
            huh_or_prn = {Huh.command, Prn.command}
            if first not in huh_or_prn:
                with contextlib.suppress(Exception):
                    self._send(reply_to_bad_message(wire.tokens, exc, wire.table))
            return
        try:
            self._dispatch(message)
        except ConnectionLost:
            raise
        except (AdjudicatorError, ValueError, KeyError, IndexError) as exc:
            # A message that parses but makes no sense for our game: log it, keep playing.
            self.summary.bad_messages += 1
            log.error("could not handle message", error=repr(exc), text=text)
            self.game_log.write("handler_error", error=repr(exc), text=text)

    def _dispatch(self, m: Message) -> None:
        if isinstance(m, Now):
            self._on_now(m)
        elif isinstance(m, Ord):
            if m.entry is not None:
                self.mirror.on_ord(m.entry)
        elif isinstance(m, Sco):
            if m.centres is not None:
                self.mirror.on_sco(m.centres)
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
            log.info("server notice", message=m.to_text())

    def _on_hlo(self, m: Hlo) -> None:
        self.hlo = m
        self.power = m.power
        self.passcode = m.passcode
        self.summary.power = m.power
        self.summary.passcode = m.passcode
        self._joined.set()
        log.info("game started", power=m.power, passcode=m.passcode)
        self.game_log.write("hlo", power=m.power, passcode=m.passcode)
        self._ensure_thinker()

    def _on_yes(self, m: Yes) -> None:
        inner = m.message
        if isinstance(inner, Iam):
            log.info("rejoined", power=inner.power)
            self._joined.set()
            self._ensure_thinker()
            self._send(Hlo())
            self._send(Sco())
            self._send(Now())

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
        if self._phase_task is not None and not self._phase_task.done():
            if self._phase_turn == m.turn:
                return  # the same phase again (a resent NOW): keep playing it
            self._phase_task.cancel()
        self._deadline = self._phase_deadline(pos, received)
        self._phase_turn = m.turn
        self._submitted = {}
        self._phase_task = asyncio.create_task(self._play_phase(pos), name=f"phase {m.turn}")

    def _phase_deadline(self, pos: Position, start: float) -> float | None:
        """When this phase's orders are due, from HLO's limits (TME refines it)."""
        if self.hlo is None:
            return None
        v = self.hlo.variant
        if pos.season in (0, 2):
            limit = v.move_time_limit
        elif pos.season in (1, 3):
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

    def _margin(self) -> float:
        rtt = self._rtt if self._rtt is not None else DEFAULT_RTT
        return max(self.settings.min_margin, 3 * rtt + 0.1)

    async def _play_phase(self, pos: Position) -> None:
        power = self._power_id
        if power is None:
            return
        try:
            final = self.settings.final_year
            if final is not None and (pos.year > final or (pos.year == final and pos.season == 4)):
                # The final year has been played out (BANDANA's -fy): offer the draw.
                self._send(Drw())
            if pos.season in (0, 2):
                if any(u[0] == power for u in pos.units.values()):
                    await self._play_movement(pos, power)
            elif pos.season in (1, 3):
                if any(d[0] == power for d in pos.dislodged.values()):
                    orders = self._heuristics.retreat_orders(pos, power, self.rng)
                    self._submit_engine(pos, orders, margin_to=self._deadline)
            elif pos.adjustments()[power] != 0:
                orders_list = self._heuristics.adjustment_orders(pos, power, self.rng)
                self._submit_adjustments(pos, power, orders_list, margin_to=self._deadline)
            self.summary.phases_played += 1
        except ConnectionLost:
            pass  # the session loop notices and reconnects
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            log.exception("phase failed; submitting safe orders", error=repr(exc))
            with contextlib.suppress(Exception):
                self._recover_orders()

    async def _play_movement(self, pos: Position, power: int) -> None:
        self._send(Not(Gof()))
        quick = self._quick_orders(pos, power)
        self._submit_engine(pos, quick, margin_to=self._deadline)
        deadline = self._deadline
        if deadline is None:
            deadline = time.monotonic() + self.settings.think_time
        job: ThinkJob | None = None
        try:
            if self.thinker is not None and self.thinker.alive:
                job = self.thinker.think(pos, power, deadline - self._margin())
        except ThinkerError as exc:
            log.error("search unavailable; keeping the quick orders", error=str(exc))
        best = quick
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
                elif improvement.orders:
                    pending = self._complete(pos, power, improvement.orders)
                    self.game_log.write("search", final=improvement.final, stats=improvement.stats)
                if improvement.final:
                    job = None
            if pending is not None and (
                job is None or time.monotonic() - last_sent >= RESUBMIT_INTERVAL
            ):
                if pending != self._submitted:
                    best = pending
                    self._submit_engine(pos, best, margin_to=self._deadline)
                    last_sent = time.monotonic()
                pending = None
        if job is not None:
            latest = job.best
            self.thinker.cancel(job)  # type: ignore[union-attr]
            if latest is not None and latest.orders:
                final = self._complete(pos, power, latest.orders)
                if final != self._submitted:
                    self._submit_engine(pos, final, margin_to=self._deadline)
        if pending is not None and pending != self._submitted:
            self._submit_engine(pos, pending, margin_to=self._deadline)
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

    def _submit_engine(
        self, pos: Position, orders: dict[int, EngineOrder], margin_to: float | None
    ) -> None:
        if pos.season in (0, 2):
            values = [movement_value(pos, p, o) for p, o in sorted(orders.items())]
        else:
            values = [retreat_value(pos, p, o) for p, o in sorted(orders.items())]
        self._submitted = dict(orders)
        self._submit(values, margin_to)

    def _submit_adjustments(
        self, pos: Position, power: int, orders: list[EngineOrder], margin_to: float | None
    ) -> None:
        values = [adjustment_value(pos, power, o) for o in orders]
        self._submit(values, margin_to)

    # --- the server's answers to our orders -------------------------------------------------

    def _on_thx(self, m: Thx) -> None:
        if self._sub_sent_at is not None:
            rtt = time.monotonic() - self._sub_sent_at
            self._rtt = rtt if self._rtt is None else 0.8 * self._rtt + 0.2 * max(rtt, self._rtt)
            self._sub_sent_at = None
        if m.note == "MBV":
            return
        self.summary.refused_orders += 1
        log.error("order refused", order=str(m.order), note=m.note)
        self.game_log.write("refused", order=str(m.order), note=m.note)
        replacement = self._safe_order_for(m.order)
        if replacement is not None and replacement != m.order:
            self._submit([replacement], self._deadline)

    def _safe_order_for(self, order: Order) -> Order | None:
        pos = self.mirror.position
        unit: Unit | None = getattr(order, "unit", None)
        if pos is None or unit is None or unit.power != self.power:
            return None
        if pos.season in (0, 2):
            return Hold(unit)
        if pos.season in (1, 3):
            return Disband(unit)
        return None

    def _on_mis(self, m: Mis) -> None:
        pos = self.mirror.position
        power = self._power_id
        if pos is None or power is None or self.game_over:
            return
        if m.count is not None:
            if m.count < 0:  # builds still open: waive them
                values = [adjustment_value(pos, power, WAIVE_ORDER) for _ in range(-m.count)]
                self._submit(values, self._deadline)
            elif m.count > 0:
                removals = [(REMOVE, p) for p in civil_disorder_removals(pos, power, m.count)]
                self._submit_adjustments(pos, power, removals, self._deadline)
            return
        missing: list[Order] = []
        for unit_position in m.units:
            unit = unit_position.unit
            if unit.power != self.power:
                continue
            if unit_position.retreats is not None:
                missing.append(Disband(unit))
            else:
                missing.append(Hold(unit))
        if missing:
            log.warning("server says orders are missing", count=len(missing))
            self._submit(missing, self._deadline)

    def _recover_orders(self) -> None:
        """Resubmit a complete, safe order set for the current phase (after HUH or a failure)."""
        pos = self.mirror.position
        power = self._power_id
        if pos is None or power is None:
            return
        if pos.season in (0, 2):
            self._submit_engine(
                pos, self._submitted or self._complete(pos, power, {}), self._deadline
            )
        elif pos.season in (1, 3):
            orders = {p: DISBAND_ORDER for p, d in pos.dislodged.items() if d[0] == power}
            self._submit_engine(pos, orders, self._deadline)

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
            self._copy_shadow_counts()
            log.info("game finished", summary=self.summary.as_dict())
            self.game_log.write("summary", **self.summary.as_dict())

    async def _shutdown(self) -> None:
        if self._phase_task is not None and not self._phase_task.done():
            self._phase_task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._phase_task
        if self.thinker is not None:
            self.thinker.close()
            self.thinker = None
        if self.conn is not None:
            await self.conn.close()
        self._copy_shadow_counts()

    def _copy_shadow_counts(self) -> None:
        self.summary.shadow_checked = self.mirror.checked
        self.summary.shadow_mismatches = self.mirror.mismatches
        self.summary.shadow_skipped = self.mirror.skipped
