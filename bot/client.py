"""The DAIDE client: joins a game, mirrors it, and plays every phase before its deadline.

One :class:`DaideClient` plays one game as one power (or watches it).  The
event loop only moves messages; three pieces do the thinking around it:

* the **session** (:mod:`bot.session`): one connection's handshake, greeting
  and rejoin, and the rule that no order leaves before the session has joined;
* the **phase** (:mod:`bot.phase`, :mod:`bot.orderbook`): the phase being
  played, its order book (submissions, THX, MIS, recovery) and its task;
* the **time budget** (:mod:`bot.timebudget`): the server's deadline and the
  measured delays in, the search's stop time and the last submission time out.

The search runs in the :class:`~bot.thinker.Thinker`'s worker process.  In a
movement phase the client

1. tells the server to wait for us (``NOT (GOF)``) and submits a quick
   heuristic order set at once, so something sensible is in even if all else
   fails;
2. starts the search with the phase clock's stop time and resubmits its
   improvements as they arrive (at most one SUB per ``RESUBMIT_INTERVAL``);
3. submits the search's final answer, which arrives before the last
   submission time because the search stops a measured hand-over earlier;
4. says ``GOF``, so the server need not wait for the deadline.

Retreats are random legal retreats; builds and removals follow the heuristic
values.  Every SUB carries the phase's complete order set.

If the connection drops, the phase in play is stopped (its task and search
job cancelled), the client reconnects with backoff and rejoins with
``IAM (power) (passcode)``, asks for HLO, SCO, NOW and the time left (TME),
and plays the phase again from the server's state.  Nothing the server sends
can crash it: a message that does not parse is answered with HUH/PRN as the
syntax prescribes, a protocol violation (a second RM included: we never select
another game) with EM and a reconnection, and a message that parses but does
not fit the game is logged as an error, counted by kind (the summary's
``ignored_by_kind``) and ignored, so that it never poisons a later message:
positions are checked before they are stored, the server's latest NOW that
fits the game is the phase played (a NOW for the same turn in another position
restates it), YES and REJ count only for what we sent, HLO only once per game
(or when a rejoin asked for it), MIS only for units we have.  A server that
stops reading is a lost connection (:mod:`bot.connection`).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from random import Random
from typing import Any

import structlog

from adjudicator.convert import adjustment_value, movement_value, retreat_value
from adjudicator.errors import AdjudicatorError
from adjudicator.legal import complete_with_disbands as _complete_retreats
from adjudicator.legal import complete_with_holds as _complete
from adjudicator.orders import Orders
from adjudicator.position import PhaseKind, Position
from adjudicator.rules import CivilDisorderRule
from bot import __version__
from bot.connection import Connection, ConnectionLost
from bot.logs import GameLog
from bot.mirror import GameMirror
from bot.orderbook import OrderBook, ThxVerdict
from bot.phase import PhaseState
from bot.procstats import ResourceMonitor
from bot.session import Session, SessionNotReady
from bot.settings import BotSettings, make_telemetry
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
from bot.telemetry.publisher import Telemetry, search_fields
from bot.thinker import Thinker, ThinkerError, ThinkJob
from bot.timebudget import PhaseClock, TimeBudget
from bot.worker_protocol import Answer, Failed, Progress
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
from protocol.values import Order, Turn
from protocol.wire import DiplomacyMessage, ErrorMessage, FinalMessage, RepresentationMessage
from search.heuristics import PhaseHeuristics
from search.registry import make_policy

CONSOLE_TEXT = 300
"""Characters of a bad message shown on the console (the game log keeps all of it)."""

RESUBMIT_INTERVAL = 1.0
"""Least seconds between two submissions of search improvements in one phase."""

RECHECK = 0.1
"""Most seconds the movement loop sleeps before it looks at the phase clock again."""

WORKER_RESTARTS = 3
"""How many times a game may start a new search worker after one died."""

MAX_BACKOFF = 5.0
"""Longest wait between two reconnection attempts (seconds)."""

FIRST_BACKOFF = 0.1
"""First wait before reconnecting (seconds); it doubles up to ``MAX_BACKOFF``."""

log = structlog.get_logger("daide-mcts")


@dataclass
class GameSummary:
    """How a game went for the bot: what the tests and the game runner check.

    ``margins`` holds the deadline margin (seconds) of every submission and
    ``phase_margins`` that of the last submission of each phase; a margin is
    measured against the bot's own estimate of the deadline.
    ``searched_phases`` counts movement phases with a search job and
    ``final_answers`` those whose final search answer was submitted.
    ``bad_messages`` counts messages that did not parse or that the server
    did not understand (HUH/PRN); ``ignored_messages`` those that parsed but
    did not fit the game (a stale NOW, an ORD for a unit that does not exist,
    a THX for an order we never sent, a SCO that does not fit the map, an
    answer to something we never sent, a second HLO), and ``ignored_by_kind``
    counts them by message (``{"NOW": 2, "REJ": 1}``); ``wire_errors`` the protocol
    violations by the server (answered with EM, then a reconnection);
    ``held_back`` game actions not sent because the session had not joined;
    ``stale_worker_messages`` and ``stale_helper_answers`` search messages
    dropped because they belonged to an earlier job.
    CPU seconds and peak resident memory cover the client process and its
    search worker separately; ``yearly_peak_kb`` maps each game year to the
    peak of both processes together during that year.  ``stopped_by`` names
    the signal that ended the bot before the game did.
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
    ignored_by_kind: dict[str, int] = field(default_factory=dict)
    wire_errors: int = 0
    held_back: int = 0
    searched_phases: int = 0
    final_answers: int = 0
    stale_worker_messages: int = 0
    stale_helper_answers: int = 0
    margins: list[float] = field(default_factory=list)
    phase_margins: list[float] = field(default_factory=list)
    smr: str | None = None
    ended_cleanly: bool = False
    stopped_by: str | None = None
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


Handler = Callable[[Any], None]


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
        self.mirror = GameMirror(rule=CivilDisorderRule(settings.rules))
        self.rng = Random(settings.seed)
        self.budget = TimeBudget(think_time=settings.think_time, min_margin=settings.min_margin)
        self.session: Session | None = None
        self.thinker: Thinker | None = None
        self.phase: PhaseState | None = None
        self.power: str | None = settings.rejoin_power
        self.passcode: int | None = settings.rejoin_passcode
        self.hlo: Hlo | None = None
        self.map_name: str | None = None
        self.game_over = False
        self._replaying = False
        self._quick_policy: Any = None
        self._heuristics = PhaseHeuristics()
        self._resources = ResourceMonitor()
        self._ever_joined = False
        self._worker_restarts = 0
        self._handlers: dict[type[Message], Handler] = {
            Now: self._on_now,
            Ord: self._on_ord,
            Sco: self._on_sco,
            Thx: self._on_thx,
            Mis: self._on_mis,
            Tme: self._on_tme,
            Map: self._on_map,
            Mdf: self._on_mdf,
            Hlo: self._on_hlo,
            Yes: self._on_yes,
            Rej: self._on_rej,
            Ccd: self._on_ccd,
            Out: self._on_out,
            Drw: self._on_result,
            Slo: self._on_result,
            Smr: self._on_smr,
            Off: self._on_off,
            Frm: self._on_frm,
            Sve: self._on_sve,
            Lod: self._on_lod,
            Huh: self._on_huh,
            Prn: self._on_huh,
            Adm: self._on_adm,
            Not: self._on_not,
        }

    # --- the game loop ---------------------------------------------------------------------

    async def run(self) -> GameSummary:
        """Connect, play until the game ends (reconnecting as needed), and return the summary."""
        attempts = 0
        rejoin = self.power is not None and self.passcode is not None
        self._ensure_thinker()  # before telemetry's thread: the worker can be a fork
        self.telemetry.start()
        try:
            while not self.game_over:
                session_joined = False
                try:
                    session_joined = await self._session(rejoin)
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
                finally:
                    self._abandon_phase()
                if self.game_over:
                    break
                if session_joined or (self.session is not None and self.session.joined):
                    attempts = 0  # that connection worked: start the backoff afresh
                attempts += 1
                if attempts > self.settings.reconnect_attempts:
                    raise FatalClientError(
                        f"giving up after {attempts - 1} reconnections: {reason}"
                    )
                rejoin = self.power is not None and self.passcode is not None
                delay = min(MAX_BACKOFF, FIRST_BACKOFF * 2 ** (attempts - 1))
                log.warning("connection lost", reason=reason, retry_in=delay, rejoin=rejoin)
                self.game_log.write("connection_lost", reason=reason, retry_in=delay)
                self.telemetry.emit(Disconnected, reason=reason, retry_in=delay)
                await asyncio.sleep(delay)
                if rejoin:
                    self.summary.reconnections += 1
        finally:
            await self._shutdown()
        return self.summary

    def stop(self, reason: str) -> None:
        """The bot is being stopped (a signal): the summary says so; :meth:`run` is cancelled."""
        self.summary.stopped_by = reason
        log.warning("stopping", reason=reason)
        self.game_log.write("stopping", reason=reason)

    async def _session(self, rejoin: bool) -> bool:
        """One connection's life; returns whether it joined the game."""
        s = self.settings
        conn = await Connection.open(s.host, s.port, s.connect_timeout)
        session = self.session = Session(conn, rejoin)
        log.info("connected", host=s.host, port=s.port)
        self.game_log.write("connected", host=s.host, port=s.port, rejoin=rejoin)
        self.telemetry.emit(Connected, host=s.host, port=s.port, rejoin=rejoin)
        try:
            while not self.game_over:
                wire = await conn.receive()
                if isinstance(wire, RepresentationMessage):
                    # The connection accepts one RM only (we never select another game).
                    self.game_log.write("rm", entries=len(wire.entries))
                    session.greeted()
                    self._greet(rejoin)
                elif isinstance(wire, DiplomacyMessage):
                    self._on_dm(wire)
                elif isinstance(wire, FinalMessage):
                    log.info("server sent FM")
                    await conn.close(final=False)
                    break
                elif isinstance(wire, ErrorMessage):
                    log.error("server sent EM", code=wire.code, meaning=wire.description)
                    self.game_log.write("em", code=wire.code, meaning=wire.description)
                    await conn.close(final=False)
                    break
        finally:
            joined = session.joined
            session.close()
            if self.game_over:
                await conn.close()
        return joined

    def _greet(self, rejoin: bool) -> None:
        """Say who we are: IAM to rejoin, OBS to watch, NME to play."""
        s = self.settings
        if rejoin and self.power and self.passcode is not None:
            self.mirror.mark_resync()
            self._replaying = True
            self._send(Iam(self.power, self.passcode))
        elif s.observe:
            self._send(Obs(s.name, __version__))
        else:
            self._send(Nme(s.name, __version__))

    def _joined(self) -> None:
        if self.session is not None:
            self.session.join()
        self._ever_joined = True
        self._ensure_thinker()

    # --- sending -------------------------------------------------------------------------

    def _send(self, message: Message) -> None:
        if self.session is None:
            raise ConnectionLost("not connected")
        text = self.session.send(message)
        self.game_log.message("out", text)

    def _submit(self, phase: PhaseState, orders: list[Order]) -> None:
        """Submit ``orders`` as the phase's complete set (some servers replace on SUB)."""
        if not orders:
            return
        self._send(Sub(tuple(orders)))
        phase.book.record(orders)
        now = time.monotonic()
        self.budget.rtt.sent(now, len(orders))
        self.summary.submissions += 1
        margin = phase.clock.margin_at(now)
        if margin is not None:
            margin = round(margin, 4)
            phase.last_margin = margin
            self.summary.margins.append(margin)
        self.game_log.write("submit", orders=len(orders), margin=margin)
        self.telemetry.emit(OrdersSubmitted, turn=phase.turn, orders=orders, margin=margin)

    def _submit_engine(self, phase: PhaseState, orders: Orders) -> None:
        """Submit a movement or retreat set given in engine form (never an order refused before)."""
        pos = phase.position
        value = movement_value if pos.is_movement else retreat_value
        phase.book.engine = dict(orders)
        chosen = [value(pos, p, o) for p, o in sorted(orders.items())]
        self._submit(phase, phase.book.without_refused(chosen))

    # --- receiving --------------------------------------------------------------------------

    def _on_dm(self, wire: DiplomacyMessage) -> None:
        text = wire.text
        self.game_log.message("in", text)
        try:
            message = parse_message(wire.tokens, wire.table)
        except LanguageError as exc:
            self.summary.bad_messages += 1
            log.warning("message does not parse", error=str(exc), text=_excerpt(text))
            self.game_log.write("bad_message", error=str(exc), text=text)
            try:
                reply = reply_to_bad_message(wire.tokens, exc, wire.table)
            except (ProtocolError, ValueError) as encode_exc:
                log.error("cannot quote the bad message back", error=str(encode_exc))
                reply = None
            if reply is not None:  # never answer a HUH or PRN
                self._send(reply)
            return
        handler = self._handlers.get(type(message))
        try:
            if handler is None:
                self._ignore("a message a server does not send", message)
            else:
                handler(message)
        except SessionNotReady as exc:
            self.summary.held_back += 1
            log.warning("not sent before joining", reason=str(exc))
            self.game_log.write("held_back", reason=str(exc))
        except (AdjudicatorError, ProtocolError, ValueError, KeyError, IndexError) as exc:
            # A message that parses but makes no sense for our game: log it, keep playing.
            self._count_ignored(message)
            log.error("could not handle message", error=repr(exc), text=_excerpt(text))
            self.game_log.write("handler_error", error=repr(exc), text=text)

    def _ignore(self, why: str, message: Message) -> None:
        """Count and log a message that parsed but does not fit the game as we know it."""
        self._count_ignored(message)
        log.error("message ignored", reason=why, message=_excerpt(str(message)))
        self.game_log.write("ignored", reason=why, text=str(message))

    def _count_ignored(self, message: Message) -> None:
        kind = type(message).__name__.upper()
        counts = self.summary.ignored_by_kind
        self.summary.ignored_messages += 1
        counts[kind] = counts.get(kind, 0) + 1

    def _on_ord(self, m: Ord) -> None:
        if m.entry is None:
            return
        problem = self.mirror.on_ord(m.entry)
        if problem is not None:
            self._ignore(problem, m)
        else:
            self.telemetry.emit(
                OrderResult, turn=m.entry.turn, order=m.entry.order, result=m.entry.result
            )

    def _on_sco(self, m: Sco) -> None:
        if m.centres is None:
            self._ignore("SCO without centres (a request: servers do not send it)", m)
            return
        try:
            self.mirror.on_sco(m.centres)
        except AdjudicatorError as exc:
            self._ignore(f"SCO does not fit the map: {exc}", m)
            return
        self.telemetry.emit(Centres, counts={p: len(c) for p, c in m.centres})

    def _on_tme(self, m: Tme) -> None:
        phase = self.phase
        if m.seconds is None or phase is None:
            return
        limit = self.budget.limits.get(phase.position.kind) or 0
        if limit > 0 and not 0 <= m.seconds <= limit:
            # The time left cannot pass the phase's limit from HLO (nor be negative).
            self._ignore(f"TME of {m.seconds} s in a phase of at most {limit:g} s", m)
            return
        phase.clock.time_left(m.seconds, time.monotonic())

    def _on_map(self, m: Map) -> None:
        self.map_name = m.name or "standard"
        self._send(Mdf())

    def _on_mdf(self, m: Mdf) -> None:
        """Take the server's map, or refuse one we cannot play on and leave (never crash).

        Once a game is under way, a different or unusable map is ignored: the
        game goes on on the map it began on.
        """
        if m.definition is None:
            return
        name = self.map_name or "standard"
        current = self.mirror.game_map
        if current is not None and self.mirror.position is not None:
            if m.definition != current.definition:
                self._ignore("a new map in the middle of the game", m)
                return
        else:
            try:
                self.mirror.on_map(m.definition, name)
            except AdjudicatorError as exc:  # the map is not usable (MapError)
                log.error("the server's map is not usable", map=name, error=str(exc))
                self.game_log.write("bad_map", map=name, error=str(exc))
                self._send(Rej(Map(name)))
                raise FatalClientError(f"the server's map {name} is not usable: {exc}") from None
            self._give_map()
        self._send(Yes(Map(name)))

    def _on_ccd(self, m: Ccd) -> None:
        if m.power == self.power and m.turn is not None:
            self.summary.missed_deadlines += 1
            log.error("we missed a deadline", turn=str(m.turn))
            self.game_log.write("missed", turn=str(m.turn))
        log.info("civil disorder", power=m.power, turn=str(m.turn) if m.turn else None)

    def _on_out(self, m: Out) -> None:
        log.info("power eliminated", power=m.power)

    def _on_result(self, m: Drw | Slo) -> None:
        self.summary.result = m.to_text()
        self.mirror.on_game_end()
        log.info("game over", result=self.summary.result)

    def _on_smr(self, m: Smr) -> None:
        self.summary.smr = m.to_text()
        for player in m.players:
            if player.power == self.power:
                self.summary.centres = player.centres
        if self.summary.result is not None:
            self._finish()

    def _on_off(self, m: Off) -> None:
        self._finish()

    def _on_frm(self, m: Frm) -> None:
        for reply in press_replies(m):
            self._send(reply)

    def _on_sve(self, m: Sve) -> None:
        self._send(Yes(m))

    def _on_lod(self, m: Lod) -> None:
        if self.power and self.passcode is not None:
            self._send(Iam(self.power, self.passcode))
        else:
            self._send(Rej(m))

    def _on_huh(self, m: Huh | Prn) -> None:
        self.summary.bad_messages += 1
        log.error("server did not understand us", reply=m.to_text())
        self._recover_orders()

    def _on_adm(self, m: Adm) -> None:
        log.info("admin", sender=m.name, text=m.text)

    def _on_not(self, m: Not) -> None:
        if isinstance(m.message, Tme):
            log.info("the server stopped the clock", message=m.to_text())
        else:
            log.info("server notice", message=m.to_text())

    def _on_hlo(self, m: Hlo) -> None:
        problem = self._hlo_problem(m)
        if problem is not None:
            self._ignore(problem, m)
            return
        self.hlo = m
        self.power = m.power
        self.passcode = m.passcode
        self.summary.power = m.power
        self.summary.passcode = m.passcode
        v = m.variant
        self.budget.set_limits(
            {
                PhaseKind.MOVEMENT: v.move_time_limit or 0,
                PhaseKind.RETREAT: v.retreat_time_limit or 0,
                PhaseKind.ADJUSTMENT: v.build_time_limit or 0,
            }
        )
        log.info("game started", power=m.power, passcode=m.passcode)
        self.game_log.write("hlo", power=m.power, passcode=m.passcode)
        self.telemetry.emit(
            Joined,
            map=self.map_name or "standard",
            move_time_limit=v.move_time_limit,
            retreat_time_limit=v.retreat_time_limit,
            build_time_limit=v.build_time_limit,
        )
        self._joined()

    def _hlo_problem(self, m: Hlo) -> str | None:
        """Why an HLO cannot be taken: one per game, unless we asked (a rejoin), for our power."""
        asked = self.session is not None and self.session.take(Hlo())
        if m.power is None:
            return "HLO without a power (a request: servers do not send it)"
        if self.hlo is not None and not asked:
            return f"a second HLO (we play {self.power}); we did not ask for one"
        ours = (self.power, self.passcode)
        if None not in ours and (m.power, m.passcode) != ours:
            return f"HLO for {m.power} ({m.passcode}) while we play {self.power}"
        return None

    def _answers_ours(self, m: Yes | Rej) -> bool:
        """Whether a YES or REJ answers a message we sent on this connection (else ignore it)."""
        if self.session is not None and self.session.take(m.message):
            return True
        self._ignore("an answer to a message we did not send (or that was answered)", m)
        return False

    def _on_yes(self, m: Yes) -> None:
        if not self._answers_ours(m):
            return
        inner = m.message
        if isinstance(inner, Iam):
            log.info("rejoined", power=inner.power)
            self.game_log.write("rejoined", power=inner.power)
            self._joined()
            # The game as it stands, and the time left in this phase (Parlance answers a
            # bare TME; a server that cannot refuses it and HLO's limits stay in force).
            for request in (Hlo(), Sco(), Now(), Tme()):
                self._send(request)
        elif isinstance(inner, Obs) and self.settings.observe:
            self._joined()

    def _on_rej(self, m: Rej) -> None:
        if not self._answers_ours(m):
            return
        inner = m.message
        log.warning("server refused", message=inner.to_text())
        if isinstance(inner, Nme | Obs) and not self._ever_joined:
            raise FatalClientError(f"the server refused to let us join: {m.to_text()}")
        if isinstance(inner, Iam) and self.session is not None and not self.session.joined:
            # The passcode or the power is not accepted: try as a new player.
            self.power = None
            self.passcode = None
            self.hlo = None
            self._replaying = False
            self._send(Nme(self.settings.name, __version__))

    # --- phases ----------------------------------------------------------------------------

    def _on_now(self, m: Now) -> None:
        """The server's latest well-formed NOW that fits the game is the phase we play."""
        if m.turn is None:
            self._ignore("NOW without a turn (a request: servers do not send it)", m)
            return
        received = time.monotonic()
        problem = self.mirror.now_problem(m.turn, m.units)
        if problem is not None:
            self._ignore(problem, m)
            return
        try:
            report = self.mirror.on_now(m.turn, m.units)
        except AdjudicatorError as exc:
            self._ignore(f"NOW does not fit the game: {exc}", m)
            return
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
        pos = self.mirror.position
        if self.game_over or self.settings.observe or self.power is None or pos is None:
            return
        phase = self.phase
        if phase is not None and phase.turn == m.turn and phase.position == pos:
            # The same phase again: after a rejoin, play it again; otherwise a duplicate.
            if phase.running or not self._replaying:
                return
            self._replaying = False
            phase.book.position = pos
            if phase.complete:
                self._resend_orders(phase)
                return
        elif phase is not None and phase.turn == m.turn:
            # The same turn in another position: the server's latest NOW is the phase.
            log.warning("the server restated the phase", turn=str(m.turn))
            self.game_log.write("phase_restated", turn=str(m.turn))
            self._end_phase(phase, restated=True)
            self._replaying = False
            counted = phase.counted
            phase = self.phase = self._new_phase(m.turn, pos, received, clock=phase.clock)
            phase.counted = counted
        else:
            if phase is not None:
                self._end_phase(phase)
            self._replaying = False
            phase = self.phase = self._new_phase(m.turn, pos, received)
        phase.task = asyncio.create_task(self._play_phase(phase), name=f"phase {m.turn}")

    def _new_phase(
        self, turn: Turn, pos: Position, received: float, clock: PhaseClock | None = None
    ) -> PhaseState:
        """A new phase to play; ``clock`` is kept when the server restates the phase."""
        clock = clock or self.budget.phase(pos.kind, received)
        self.budget.rtt.forget()
        book = OrderBook(self.power or "", pos, self.mirror.rule)
        finished_year = self._resources.new_year(pos.year, self._worker_pid)
        if finished_year is not None:
            self.game_log.write("year_peak", year=pos.year - 1, peak_kb=finished_year)
        deadline_in = clock.margin_at(received)
        self.telemetry.emit(
            PhaseStarted,
            turn=turn,
            phase=phase_of(turn.season),
            deadline_in=None if deadline_in is None else round(deadline_in, 3),
        )
        return PhaseState(turn, pos, clock, book)

    def _end_phase(self, phase: PhaseState, restated: bool = False) -> None:
        """The phase is over: stop playing it, keep its last margin and a resource reading.

        A phase the server ``restated`` (same turn, another position) goes on
        under a new state: its margin is not kept.
        """
        phase.stop()
        self._cancel_job(phase)
        if phase.last_margin is not None and not restated:
            self.summary.phase_margins.append(phase.last_margin)
        self.game_log.write(
            "resources", turn=str(phase.turn), **self._resources.sample(self._worker_pid)
        )

    def _abandon_phase(self) -> None:
        """The connection is gone: stop playing; the phase is played again after the rejoin."""
        if self.phase is not None:
            self.phase.stop()
            self._cancel_job(self.phase)

    def _cancel_job(self, phase: PhaseState) -> None:
        if phase.job is not None and self.thinker is not None:
            self.thinker.cancel(phase.job)
        phase.job = None

    @property
    def _power_id(self) -> int | None:
        game_map = self.mirror.game_map
        if game_map is None or self.power is None:
            return None
        return game_map.power_index.get(self.power)

    @property
    def _worker_pid(self) -> int | None:
        return self.thinker.pid if self.thinker is not None else None

    async def _play_phase(self, phase: PhaseState) -> None:
        power = self._power_id
        if power is None:
            return
        pos = phase.position
        try:
            final = self.settings.final_year
            if final is not None and pos.ended_by(final):
                # The final year has been played out (BANDANA's -fy): offer the draw.
                self._send(Drw())
            if pos.is_movement:
                if any(u[0] == power for u in pos.units.values()):
                    await self._play_movement(phase, power)  # ends with GOF
            elif pos.is_retreat:
                if any(d[0] == power for d in pos.dislodged.values()):
                    orders = self._heuristics.retreat_orders(pos, power, self.rng)
                    self._submit_engine(phase, _complete_retreats(pos, power, orders))
            elif pos.adjustments()[power] != 0:
                orders_list = self._heuristics.adjustment_orders(pos, power, self.rng)
                self._submit(phase, [adjustment_value(pos, power, o) for o in orders_list])
            # No GOF outside movement: on MILA a GOF that completes a phase leaks into the
            # next one (README "Servers"), and Parlance needs none there.
            phase.complete = True
            if not phase.counted:
                phase.counted = True
                self.summary.phases_played += 1
        except (ConnectionLost, SessionNotReady):
            pass  # the session loop notices, reconnects, and the phase is played again
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            log.exception("phase failed; submitting safe orders", error=repr(exc))
            with contextlib.suppress(Exception):
                self._recover_orders()

    async def _play_movement(self, phase: PhaseState, power: int) -> None:
        pos, clock = phase.position, phase.clock
        self._send(Not(Gof()))
        self._ensure_thinker()
        self._submit_engine(phase, self._quick_orders(pos, power))
        job: ThinkJob | None = None
        try:
            if self.thinker is not None and self.thinker.alive:
                job = self.thinker.think(
                    pos,
                    power,
                    clock.stop_search_at(),
                    clock.collect_helpers_by(),
                )
                job.on_late_answer = _measure_late(clock)
                phase.job = job
                self.summary.searched_phases += 1
        except ThinkerError as exc:
            log.error("search unavailable; keeping the quick orders", error=str(exc))
        last_sent = time.monotonic()
        pending: Orders | None = None
        while job is not None:
            if self.thinker is not None:
                self.thinker.retime(job, clock.stop_search_at(), clock.collect_helpers_by())
            now = time.monotonic()
            remaining = clock.submit_by() - now
            if remaining <= 0:
                break
            wait = min(remaining, RECHECK)
            message = await job.next(wait)
            if isinstance(message, Failed):
                log.error("search failed", error=message.error)
                self.game_log.write("search_error", error=message.error)
                break
            if isinstance(message, Progress | Answer):
                final = isinstance(message, Answer)
                if message.orders:
                    pending = _complete(pos, power, message.orders)
                self.game_log.write("search", final=final, job=message.job_id, stats=message.stats)
                self.telemetry.emit(
                    SearchStats, turn=pos.turn, final=final, **search_fields(message.stats)
                )
                if final and job.answered_at is not None:
                    clock.answer_arrived(job.answered_at, job.stop_at)
            now = time.monotonic()
            if pending is not None and (job.done or now - last_sent >= RESUBMIT_INTERVAL):
                if pending != phase.book.engine:
                    self._submit_engine(phase, pending)
                    last_sent = now
                pending = None
            if job.done:
                break
        if job is not None:
            self._finish_search(phase, power, job)
        self.game_log.write(
            "orders",
            turn=str(pos.turn),
            orders=[str(movement_value(pos, p, o)) for p, o in sorted(phase.book.engine.items())],
        )
        self._send(Gof())

    def _finish_search(self, phase: PhaseState, power: int, job: ThinkJob) -> None:
        """The last submission time has come: make sure the search's best set is in."""
        if job.answer is not None:
            self.summary.final_answers += 1
        elif job.best is not None and job.best.orders:
            latest = _complete(phase.position, power, job.best.orders)
            if latest != phase.book.engine:
                self._submit_engine(phase, latest)
        self.game_log.write(
            "final_answer", turn=str(phase.turn), job=job.job_id, submitted=job.answer is not None
        )
        self._cancel_job(phase)
        if self.thinker is not None:
            self.summary.stale_worker_messages = self.thinker.stale
        if job.answer is not None:
            stale = job.answer.stats.get("stale_helper_answers")
            if isinstance(stale, int):
                self.summary.stale_helper_answers = stale

    def _quick_orders(self, pos: Position, power: int) -> Orders:
        """A sensible order set in milliseconds: DumbBot's, or all holds if that fails."""
        try:
            if self._quick_policy is None:
                self._quick_policy = make_policy("dumbbot", seed=self.rng.randrange(1 << 30))
            orders = self._quick_policy.movement_orders(pos, power, self.rng)
            return _complete(pos, power, orders)
        except Exception as exc:
            log.error("quick orders failed; holding", error=repr(exc))
            return _complete(pos, power, {})

    # --- the server's answers to our orders -------------------------------------------------

    def _on_thx(self, m: Thx) -> None:
        phase = self.phase
        if phase is None:
            self._ignore("THX outside a phase", m)
            return
        verdict: ThxVerdict = phase.book.on_thx(m.order, m.note)
        if verdict.ignored is not None:
            self._ignore(verdict.ignored, m)
            return
        self.budget.rtt.answered(time.monotonic())
        if verdict.refused:
            self.summary.refused_orders += 1
            log.error("order refused", order=str(m.order), note=m.note)
            self.game_log.write("refused", order=str(m.order), note=m.note)
        if verdict.resubmit is not None:
            self._submit(phase, verdict.resubmit)

    def _on_mis(self, m: Mis) -> None:
        """The server lacks orders: complete our set (once per phase for builds/removals)."""
        phase = self.phase
        current = self.mirror.position
        if phase is None or self.game_over or current is None or phase.turn != current.turn:
            return
        pos = phase.position
        if (m.count is not None) != pos.is_adjustment:
            if m.count or m.units:
                self._ignore(f"MIS of the wrong form for {pos.turn}", m)
            return
        if m.count is not None:
            orders, ignored = phase.book.on_mis_count(m.count)
            if ignored is not None:
                self._ignore(ignored, m)
            if orders is not None:
                log.warning("server says adjustments are missing", count=m.count)
                self._submit(phase, orders)
            return
        units = [(u.unit, u.retreats is not None) for u in m.units]
        missing, ignored = phase.book.on_mis_units(units)
        if ignored is not None:
            self._ignore(ignored, m)
        if missing is not None:
            log.warning("server says orders are missing", count=len(missing))
            self._submit(phase, missing)

    def _recover_orders(self) -> None:
        """Resubmit a complete, safe order set for the current phase (once per phase)."""
        phase = self.phase
        power = self._power_id
        if phase is None or power is None:
            return
        pos = phase.position

        def safe_set() -> list[Order]:
            if pos.is_movement:
                units = _complete(pos, power, {})
            elif pos.is_retreat:
                units = _complete_retreats(pos, power, {})
            else:
                return []
            value = movement_value if pos.is_movement else retreat_value
            phase.book.engine = units
            return [value(pos, p, o) for p, o in sorted(units.items())]

        orders = phase.book.recovery(safe_set)
        if orders is not None:
            self._submit(phase, orders)

    def _resend_orders(self, phase: PhaseState) -> None:
        """After a rejoin in a phase we had finished: make sure the server has our orders."""
        if phase.book.current:
            self._submit(phase, list(phase.book.current))
        if phase.position.is_movement:
            self._send(Gof())

    # --- set-up and shutdown ---------------------------------------------------------------

    def _ensure_thinker(self) -> None:
        """Start the search worker (again, if it died: at most ``WORKER_RESTARTS`` times).

        The first start is at :meth:`run`'s, before connecting, so that the worker
        is ready when the game begins; it gets the map as soon as the client has it.
        """
        if self.thinker is not None and not self.thinker.alive:
            if self._worker_restarts >= WORKER_RESTARTS:
                return
            self._worker_restarts += 1
            log.error("the search worker died; starting a new one")
            self.game_log.write("worker_restart", restarts=self._worker_restarts)
            self.thinker.close()
            self.thinker = None
        if self.thinker is not None or self.settings.observe:
            return
        self.thinker = Thinker(
            self.settings.strategy,
            self.rng.randrange(1 << 30),
            self.settings.search_workers,
            self.settings.final_year,
            on_ready=lambda seconds: self.game_log.write("worker_ready", seconds=round(seconds, 3)),
        )
        try:
            self.thinker.start()
        except (OSError, RuntimeError) as exc:
            log.error("could not start the search worker; playing heuristically", error=str(exc))
            self.thinker = None
            return
        self._give_map()

    def _give_map(self) -> None:
        """Tell the search worker the game's map, once the client has it."""
        game_map = self.mirror.game_map
        if self.thinker is not None and game_map is not None:
            self.thinker.use_map(game_map.definition, game_map.name)

    def _finish(self) -> None:
        if not self.game_over:
            self.game_over = True
            self.summary.ended_cleanly = True
            self._wrap_up()

    def _wrap_up(self) -> None:
        """Write the summary: the game ended, or the bot is being stopped."""
        if self.phase is not None:
            self._end_phase(self.phase)
            self.phase = None
        self._copy_resources()
        self._copy_shadow_counts()
        log.info("game finished", summary=self.summary.as_dict())
        self.game_log.write("summary", **self.summary.as_dict())
        self.telemetry.emit(GameOver, **self.summary.as_dict())

    async def _shutdown(self) -> None:
        if self.phase is not None:
            task = self.phase.task
            self.phase.stop()
            if task is not None:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        if not self.game_over:
            self._wrap_up()
        if self.thinker is not None:
            self.thinker.close()
            self.thinker = None
        if self.session is not None:
            await self.session.conn.close()
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


def _measure_late(clock: PhaseClock) -> Callable[[ThinkJob], None]:
    """Teach the time budget how late a final answer that missed its phase came."""

    def measure(job: ThinkJob) -> None:
        if job.answered_at is not None:
            clock.answer_arrived(job.answered_at, job.stop_at)

    return measure


def _excerpt(text: str) -> str:
    """``text`` cut to ``CONSOLE_TEXT`` characters for the console."""
    if len(text) <= CONSOLE_TEXT:
        return text
    return f"{text[:CONSOLE_TEXT]}... ({len(text)} characters)"
