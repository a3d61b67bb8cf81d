"""The DAIDE client's rules, with no I/O: events in, actions out (the h11 pattern).

:class:`BotCore` plays one game as one power.  The shell
(:mod:`bot.client`) feeds it :mod:`~bot.core.events` — a server message, a
clock tick, a search-worker message, a connection opened or lost, each with
the time it happened — and carries out the :mod:`~bot.core.actions` that
:meth:`BotCore.handle` returns, in order: send a message, start, retime or
cancel a search job, schedule a tick, publish a note.  Nothing here reads a
clock, touches a socket or awaits.

Its parts each own their state once:

* the **session** (:mod:`bot.session`): this connection's stage; no game
  action leaves before the session has joined (it is noted as held back);
* the **mirror** (:mod:`bot.mirror`): the game as the server tells it, and the
  shadow adjudication;
* the **phase** (:mod:`bot.phase`, :mod:`bot.orderbook`): the phase in play,
  its order book (submissions, THX, MIS, recovery) and its search job;
* the **time budget** (:mod:`bot.timebudget`): the server's deadline and the
  measured delays in, one :class:`~bot.worker_protocol.SearchLimit` and the
  last submission time out.

A movement phase: ``NOT (GOF)`` and a quick heuristic set at once; the search
starts with the clock's limit and its improvements are submitted as they come
(at most one SUB per ``RESUBMIT_INTERVAL``); its final answer, which arrives
before the last submission time because the search stops a measured hand-over
earlier, is submitted; then ``GOF``.  A TME or a new round-trip estimate that
moves the limit retimes the job.  Retreats are random legal retreats; builds
and removals follow the heuristic values.  Every SUB carries the phase's
complete order set.

A lost connection abandons the phase (its job is cancelled); after the
reconnection the core rejoins with ``IAM``, asks for HLO, SCO, NOW and TME,
and plays the phase again from the server's state, or resends its orders if
they were final.  A message that does not parse is answered with HUH/PRN, one
that parses but does not fit the game is noted and ignored: nothing the
server sends changes state it should not or stops the game.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from random import Random
from typing import Any

from adjudicator.convert import adjustment_value, movement_value
from adjudicator.errors import AdjudicatorError
from adjudicator.orders import DISBAND_ORDER, HOLD_ORDER
from adjudicator.position import SEASON_INDEX, PhaseKind, Position
from adjudicator.rules import CivilDisorderRule
from bot.core import events as ev
from bot.core import notes
from bot.core.actions import (
    Action,
    CancelSearch,
    Disconnect,
    GiveUp,
    Publish,
    RetimeSearch,
    ScheduleTick,
    Send,
    StartSearch,
    UseMap,
)
from bot.mirror import GameMirror, ShadowReport
from bot.orderbook import OrderBook
from bot.phase import PhaseState, SearchState
from bot.session import NotConnected, Session, SessionNotReady
from bot.timebudget import PhaseClock, TimeBudget
from bot.worker_protocol import Answer, Failed, Orders, Progress, SearchLimit
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

RESUBMIT_INTERVAL = 1.0
"""Least seconds between two submissions of search improvements in one phase."""

RETIME_THRESHOLD = 0.05
"""Least change (seconds) of a job's stop time worth a new limit."""

DEFAULT_MAP = "standard"
"""The map's name when the server's MAP names none."""

MESSAGE_ERRORS = (AdjudicatorError, ProtocolError, ValueError, KeyError, IndexError)
"""What handling a message that parsed but makes no sense for our game may raise."""


@dataclass(frozen=True, slots=True)
class CoreSettings:
    """What the core needs to know of the bot's settings (all plain values).

    ``rejoin_power`` and ``rejoin_passcode`` rejoin a game in progress;
    ``final_year`` is BANDANA's ``-fy`` (a draw is offered from its end on).
    """

    name: str
    version: str
    final_year: int | None = None
    think_time: float = 8.0
    min_margin: float = 0.5
    rules: str = "parlance"
    seed: int | None = None
    observe: bool = False
    rejoin_power: str | None = None
    rejoin_passcode: int | None = None
    iterations: int | None = None


class BotCore:
    """One game's rules: :meth:`handle` an event, get the actions to carry out."""

    def __init__(self, settings: CoreSettings) -> None:
        self.settings = settings
        self.mirror = GameMirror(rule=CivilDisorderRule(settings.rules))
        self.rng = Random(settings.seed)
        self.budget = TimeBudget(think_time=settings.think_time, min_margin=settings.min_margin)
        self.session: Session | None = None
        self.phase: PhaseState | None = None
        self.power: str | None = settings.rejoin_power
        self.passcode: int | None = settings.rejoin_passcode
        self.hlo: Hlo | None = None
        self.map_name: str | None = None
        self.result: str | None = None
        self.game_over = False
        self.ever_joined = False
        self._replaying = False
        self._quick_policy: Any = None
        self._heuristics = PhaseHeuristics()
        self._next_job = 0
        self._cancelled: dict[int, float] = {}  # job id -> its stop time, answer still due
        self._now = 0.0
        self._out: list[Action] = []
        self._handlers: dict[type[Message], Any] = {
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

    # --- the one entry point -----------------------------------------------------------------

    def handle(self, event: ev.Event) -> list[Action]:
        """Take one event; the actions it calls for, in the order to carry them out."""
        self._now = event.at
        self._out = []
        try:
            if isinstance(event, ev.ServerMessage):
                self._on_wire(event)
            elif isinstance(event, ev.Tick):
                self._advance()
            elif isinstance(event, ev.SearchMessage):
                self._on_search(event)
            elif isinstance(event, ev.SearchUnavailable):
                self._on_search_unavailable(event)
            elif isinstance(event, ev.ConnectionOpened):
                self._on_opened(event)
            elif isinstance(event, ev.ConnectionLost):
                self._on_lost()
            elif isinstance(event, ev.Closing):
                self._on_closing()
        except SessionNotReady as exc:
            self._note(notes.HeldBack(str(exc)))
        except NotConnected:
            pass  # the shell notices the loss and tells us; the phase is played again
        except Exception as exc:  # a bug of ours must not cost the game: safe orders instead
            self._on_bug(exc)
        out, self._out = self._out, []
        return out

    @property
    def joined(self) -> bool:
        """True while this connection's session has joined the game."""
        return self.session is not None and self.session.joined

    @property
    def can_rejoin(self) -> bool:
        """True once we know our power and passcode (a new connection greets with IAM)."""
        return self.power is not None and self.passcode is not None

    @property
    def power_id(self) -> int | None:
        """Our power's index on the game's map (None before the map and HLO)."""
        game_map = self.mirror.game_map
        if game_map is None or self.power is None:
            return None
        return game_map.power_index.get(self.power)

    def _on_bug(self, exc: Exception) -> None:
        phase = self.phase
        if phase is None:
            self._note(notes.HandlerError(repr(exc), "", "CORE"))
            return
        self._note(notes.PhaseFailed(phase.turn, repr(exc)))
        self._stop_search(phase)
        phase.active = False
        with contextlib.suppress(SessionNotReady, NotConnected):
            self._recover_orders()

    # --- actions ------------------------------------------------------------------------------

    def _note(self, note: notes.Note) -> None:
        self._out.append(Publish(note))

    def _send(self, message: Message) -> None:
        if self.session is None:
            raise NotConnected("not connected")
        self.session.check(message)
        self._out.append(Send(message))

    def _tick_at(self, at: float) -> None:
        self._out.append(ScheduleTick(at))

    # --- the connection --------------------------------------------------------------------

    def _on_opened(self, event: ev.ConnectionOpened) -> None:
        self.session = Session(self.can_rejoin)
        self._note(notes.Connected(event.host, event.port, self.session.rejoin))

    def _on_lost(self) -> None:
        if self.session is not None:
            self.session.close()
        self._abandon_phase()

    def _on_wire(self, event: ev.ServerMessage) -> None:
        wire = event.wire
        if isinstance(wire, RepresentationMessage):
            # The connection accepts one RM only (we never select another game).
            self._note(notes.RepresentationReceived(len(wire.entries)))
            if self.session is not None:
                self.session.greeted()
                self._greet()
        elif isinstance(wire, DiplomacyMessage):
            self._on_dm(wire)
        elif isinstance(wire, FinalMessage):
            self._note(notes.ServerClosed())
            self._out.append(Disconnect(final=False))
        elif isinstance(wire, ErrorMessage):
            self._note(notes.ServerError(wire.code, wire.description))
            self._out.append(Disconnect(final=False))

    def _greet(self) -> None:
        """Say who we are: IAM to rejoin, OBS to watch, NME to play."""
        s = self.settings
        if self.session is not None and self.session.rejoin and self.can_rejoin:
            self.mirror.mark_resync()
            self._replaying = True
            self._send(Iam(self.power, self.passcode))  # type: ignore[arg-type]
        elif s.observe:
            self._send(Obs(s.name, s.version))
        else:
            self._send(Nme(s.name, s.version))

    def _joined(self) -> None:
        if self.session is not None:
            self.session.join()
        self.ever_joined = True

    def _on_dm(self, wire: DiplomacyMessage) -> None:
        text = wire.text
        self._note(notes.MessageIn(text))
        try:
            message = parse_message(wire.tokens, wire.table)
        except LanguageError as exc:
            try:
                reply = reply_to_bad_message(wire.tokens, exc, wire.table)
                quote_error = None
            except (ProtocolError, ValueError) as encode_exc:
                reply, quote_error = None, str(encode_exc)
            self._note(notes.BadMessage(str(exc), text, quote_error))
            if reply is not None:  # never answer a HUH or PRN
                self._send(reply)
            return
        handler = self._handlers.get(type(message))
        try:
            if handler is None:
                self._ignore("a message a server does not send", message)
            else:
                handler(message)
        except MESSAGE_ERRORS as exc:
            # A message that parses but makes no sense for our game: note it, keep playing.
            self._note(notes.HandlerError(repr(exc), text, _kind(message)))

    def _ignore(self, why: str, message: Message) -> None:
        """Note a message that parsed but does not fit the game as we know it."""
        self._note(notes.MessageIgnored(why, str(message), _kind(message)))

    # --- the server's game messages ------------------------------------------------------------

    def _on_ord(self, m: Ord) -> None:
        if m.entry is None:
            return
        problem = self.mirror.on_ord(m.entry)
        if problem is not None:
            self._ignore(problem, m)
        else:
            entry = m.entry
            self._note(notes.OrderResulted(entry.turn, entry.order, tuple(entry.result)))

    def _on_sco(self, m: Sco) -> None:
        if m.centres is not None:
            self.mirror.on_sco(m.centres)
            self._note(notes.CentresCounted({p: len(c) for p, c in m.centres}))

    def _on_tme(self, m: Tme) -> None:
        if m.seconds is not None and self.phase is not None:
            self.phase.clock.time_left(m.seconds, self._now)
            self._advance()

    def _on_map(self, m: Map) -> None:
        self.map_name = m.name or DEFAULT_MAP
        self._send(Mdf())

    def _on_mdf(self, m: Mdf) -> None:
        if m.definition is not None:
            name = self.map_name or DEFAULT_MAP
            self.mirror.on_map(m.definition, name)
            self._out.append(UseMap(m.definition, name))
            self._send(Yes(Map(name)))

    def _on_ccd(self, m: Ccd) -> None:
        self._note(notes.CivilDisorder(m.power, m.turn, m.power == self.power))

    def _on_out(self, m: Out) -> None:
        self._note(notes.PowerEliminated(m.power))

    def _on_result(self, m: Drw | Slo) -> None:
        self.result = m.to_text()
        self.mirror.on_game_end()
        self._note(notes.GameResult(self.result))

    def _on_smr(self, m: Smr) -> None:
        ours = [p.centres for p in m.players if p.power == self.power]
        self._note(notes.ScoresReceived(m.to_text(), ours[-1] if ours else None))
        if self.result is not None:
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
        self._note(notes.NotUnderstood(m.to_text()))
        self._recover_orders()

    def _on_adm(self, m: Adm) -> None:
        self._note(notes.ServerNotice(m.text, sender=m.name))

    def _on_not(self, m: Not) -> None:
        self._note(notes.ServerNotice(m.to_text()))

    def _on_hlo(self, m: Hlo) -> None:
        self.hlo = m
        self.power = m.power
        self.passcode = m.passcode
        v = m.variant
        self.budget.set_limits(
            {
                PhaseKind.MOVEMENT: v.move_time_limit or 0,
                PhaseKind.RETREAT: v.retreat_time_limit or 0,
                PhaseKind.ADJUSTMENT: v.build_time_limit or 0,
            }
        )
        self._note(
            notes.Joined(
                m.power,
                m.passcode,
                self.map_name or DEFAULT_MAP,
                v.move_time_limit,
                v.retreat_time_limit,
                v.build_time_limit,
            )
        )
        self._joined()

    def _on_yes(self, m: Yes) -> None:
        inner = m.message
        if isinstance(inner, Iam):
            self._note(notes.Rejoined(inner.power))
            self._joined()
            # The game as it stands, and the time left in this phase (Parlance answers a
            # bare TME; a server that cannot refuses it and HLO's limits stay in force).
            for request in (Hlo(), Sco(), Now(), Tme()):
                self._send(request)
        elif isinstance(inner, Obs) and self.settings.observe:
            self._joined()

    def _on_rej(self, m: Rej) -> None:
        inner = m.message
        self._note(notes.Refused(inner.to_text()))
        if isinstance(inner, Nme | Obs) and not self.ever_joined:
            self._out.append(GiveUp(f"the server refused to let us join: {m.to_text()}"))
            return
        if isinstance(inner, Iam):
            # The passcode or the power is not accepted: try as a new player.
            self.power = None
            self.passcode = None
            self._replaying = False
            self._send(Nme(self.settings.name, self.settings.version))

    # --- phases --------------------------------------------------------------------------------

    def _on_now(self, m: Now) -> None:
        if m.turn is None:
            return
        current = self.mirror.position
        if (
            current is not None
            and not self.mirror.resync
            and _turn_order(m.turn) < _turn_order(current.turn)
        ):
            self._ignore(f"NOW for {m.turn} after {current.turn}", m)
            return
        report = self.mirror.on_now(m.turn, m.units)
        self._note_shadow(report)
        pos = self.mirror.position
        if self.game_over or self.settings.observe or self.power is None or pos is None:
            return
        phase = self.phase
        if phase is not None and phase.turn == m.turn:
            # The same phase again: after a rejoin, play it again; otherwise a duplicate.
            if phase.active or not self._replaying:
                return
            phase.book.position = pos
            if phase.complete:
                self._resend_orders(phase)
            else:
                self._play(phase)
        else:
            if phase is not None:
                self._end_phase(phase)
            phase = self.phase = self._new_phase(m.turn, pos)
            self._play(phase)
        # Played (a game action held back before the rejoin raised past this line).
        self._replaying = False

    def _note_shadow(self, report: ShadowReport | None) -> None:
        mirror = self.mirror
        if report is not None:
            self._note(
                notes.ShadowChecked(
                    report.turn,
                    report.ok,
                    tuple(report.differences),
                    report.predicted,
                    report.actual,
                )
            )
        self._note(notes.ShadowTotals(mirror.checked, mirror.mismatches, mirror.skipped))

    def _new_phase(self, turn: Turn, pos: Position, clock: PhaseClock | None = None) -> PhaseState:
        clock = clock or self.budget.phase(pos.kind, self._now)
        self.budget.rtt.forget()
        book = OrderBook(self.power or "", pos, self.mirror.rule)
        deadline_in = clock.margin_at(self._now)
        self._note(notes.PhaseStarted(turn, None if deadline_in is None else round(deadline_in, 3)))
        return PhaseState(turn, clock, book)

    def _end_phase(self, phase: PhaseState, restated: bool = False) -> None:
        """The phase is over: stop playing it and note its last margin."""
        self._stop_search(phase)
        phase.active = False
        self._note(notes.PhaseEnded(phase.turn, phase.last_margin, restated))

    def _abandon_phase(self) -> None:
        """The connection is gone: stop playing; the phase is played again after the rejoin."""
        if self.phase is not None:
            self._stop_search(self.phase)
            self.phase.active = False

    def _stop_search(self, phase: PhaseState) -> None:
        search = phase.search
        if search is not None and not search.done:
            self._cancelled[search.job_id] = search.limit.stop_at
            self._out.append(CancelSearch(search.job_id))
        phase.search = None

    def _play(self, phase: PhaseState) -> None:
        """Play ``phase`` from its start (again, after a rejoin)."""
        power = self.power_id
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
                    self._start_movement(phase, power)  # ends with GOF, maybe later
                    return
            elif pos.is_retreat:
                if any(d[0] == power for d in pos.dislodged.values()):
                    orders = self._heuristics.retreat_orders(pos, power, self.rng)
                    self._submit_engine(phase, _complete_retreats(pos, power, orders))
            elif pos.adjustments()[power] != 0:
                chosen = self._heuristics.adjustment_orders(pos, power, self.rng)
                self._submit(phase, [adjustment_value(pos, power, o) for o in chosen])
            # No GOF outside movement: on MILA a GOF that completes a phase leaks into the
            # next one (README "Servers"), and Parlance needs none there.
            self._complete(phase)
        except (SessionNotReady, NotConnected):
            self._stop_search(phase)
            phase.active = False  # played again when the session can take it
            raise
        except Exception as exc:  # a bug in our own play must not cost the phase
            self._on_bug(exc)

    def _complete(self, phase: PhaseState) -> None:
        phase.complete = True
        phase.active = False
        if not phase.counted:
            phase.counted = True
            self._note(notes.PhasePlayed(phase.turn))

    def _limit(self, clock: PhaseClock) -> SearchLimit:
        return SearchLimit(
            clock.stop_search_at(), clock.collect_helpers_by(), self.settings.iterations
        )

    def _start_movement(self, phase: PhaseState, power: int) -> None:
        pos = phase.position
        phase.active = True
        self._send(Not(Gof()))
        self._submit_engine(phase, self._quick_orders(pos, power))
        self._next_job += 1
        limit = self._limit(phase.clock)
        phase.search = SearchState(self._next_job, limit, last_sent=self._now)
        self._out.append(StartSearch(self._next_job, pos, power, limit))
        self._note(notes.SearchStarted(phase.turn, self._next_job, limit.stop_at))
        self._advance()

    def _on_search_unavailable(self, event: ev.SearchUnavailable) -> None:
        phase = self.phase
        if phase is None or phase.search is None or phase.search.job_id != event.job_id:
            return
        self._note(notes.SearchUnavailable(phase.turn, event.job_id, event.error))
        phase.search = None
        self._finish_movement(phase)

    def _on_search(self, event: ev.SearchMessage) -> None:
        message = event.message
        phase = self.phase
        search = phase.search if phase is not None else None
        if phase is None or search is None or message.job_id != search.job_id:
            self._stale(message)
            return
        if isinstance(message, Failed):
            search.failed = True
            self._note(notes.SearchFailed(phase.turn, message.error))
        else:
            final = isinstance(message, Answer)
            search.best = message
            if message.orders:
                power = self.power_id
                if power is not None:
                    search.pending = _complete(phase.position, power, message.orders)
            self._note(notes.SearchReport(phase.turn, message.job_id, final, message.stats))
            if isinstance(message, Answer):
                search.answer = message
                self.budget.handover.add(self._now - search.limit.stop_at)
        self._advance()

    def _stale(self, message: Progress | Answer | Failed) -> None:
        """A message about a job we no longer wait for: dropped, its lateness still measured."""
        self._note(notes.StaleSearchMessage(message.job_id))
        if isinstance(message, Progress):
            return
        stop_at = self._cancelled.pop(message.job_id, None)
        if isinstance(message, Answer) and stop_at is not None:
            self.budget.handover.add(self._now - stop_at)

    def _advance(self) -> None:
        """Move the movement phase on: submit what is due, retime, finish, or wait."""
        phase = self.phase
        if phase is None or not phase.active or not phase.position.is_movement:
            return
        search = phase.search
        if search is None:
            self._finish_movement(phase)
            return
        now = self._now
        due = search.done or now - search.last_sent >= RESUBMIT_INTERVAL
        if search.pending is not None and due:
            if search.pending != phase.book.engine:
                self._submit_engine(phase, search.pending)
                search.last_sent = now
            search.pending = None
        submit_by = phase.clock.submit_by()
        if search.done or now >= submit_by:
            self._finish_movement(phase)
            return
        self._retime(phase, search)
        wake = submit_by
        if search.pending is not None:
            wake = min(wake, search.last_sent + RESUBMIT_INTERVAL)
        self._tick_at(wake)

    def _retime(self, phase: PhaseState, search: SearchState) -> None:
        limit = self._limit(phase.clock)
        if abs(limit.stop_at - search.limit.stop_at) < RETIME_THRESHOLD:
            return
        search.limit = limit
        self._out.append(RetimeSearch(search.job_id, limit))
        self._note(notes.SearchRetimed(phase.turn, search.job_id, limit.stop_at))

    def _finish_movement(self, phase: PhaseState) -> None:
        """The last submission time has come (or the search is done): final set, then GOF."""
        search = phase.search
        power = self.power_id
        if search is not None:
            best = search.best
            if search.answer is None and best is not None and best.orders and power is not None:
                latest = _complete(phase.position, power, best.orders)
                if latest != phase.book.engine:
                    self._submit_engine(phase, latest)
            stale = search.answer.stats.get("stale_helper_answers") if search.answer else None
            self._note(
                notes.FinalAnswer(
                    phase.turn,
                    search.job_id,
                    search.answer is not None,
                    stale if isinstance(stale, int) else None,
                )
            )
            self._stop_search(phase)
        pos = phase.position
        chosen = tuple(str(movement_value(pos, p, o)) for p, o in sorted(phase.book.engine.items()))
        self._note(notes.OrdersChosen(phase.turn, chosen))
        self._send(Gof())
        self._complete(phase)

    def _quick_orders(self, pos: Position, power: int) -> Orders:
        """A sensible order set in milliseconds: DumbBot's, or all holds if that fails."""
        try:
            if self._quick_policy is None:
                self._quick_policy = make_policy("dumbbot", seed=self.rng.randrange(1 << 30))
            orders = self._quick_policy.movement_orders(pos, power, self.rng)
            return _complete(pos, power, orders)
        except Exception as exc:  # a heuristic's bug must not cost the phase
            self._note(notes.QuickOrdersFailed(repr(exc)))
            return _complete(pos, power, {})

    # --- submitting, and the server's answers to our orders -------------------------------------

    def _submit(self, phase: PhaseState, orders: list[Order]) -> None:
        """Submit ``orders`` as the phase's complete set (some servers replace on SUB)."""
        if not orders:
            return
        self._send(Sub(tuple(orders)))
        phase.book.record(orders)
        self.budget.rtt.sent(self._now, len(orders))
        margin = phase.clock.margin_at(self._now)
        if margin is not None:
            margin = round(margin, 4)
            phase.last_margin = margin
        self._note(notes.OrdersSubmitted(phase.turn, tuple(orders), margin))

    def _submit_engine(self, phase: PhaseState, orders: Orders) -> None:
        """Submit a movement or retreat set in engine form (never an order refused before)."""
        self._submit(phase, phase.book.choose(orders))

    def _on_thx(self, m: Thx) -> None:
        phase = self.phase
        if phase is None:
            self._ignore("THX outside a phase", m)
            return
        verdict = phase.book.on_thx(m.order, m.note)
        if verdict.ignored is not None:
            self._ignore(verdict.ignored, m)
            return
        self.budget.rtt.answered(self._now)
        if verdict.refused:
            self._note(notes.OrderRefused(m.order, m.note))
        if verdict.resubmit is not None:
            self._submit(phase, verdict.resubmit)
        self._advance()

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
                self._note(notes.OrdersMissing(m.count, adjustments=True))
                self._submit(phase, orders)
            return
        units = [(u.unit, u.retreats is not None) for u in m.units]
        missing = phase.book.on_mis_units(units)
        if missing is not None:
            self._note(notes.OrdersMissing(len(missing)))
            self._submit(phase, missing)

    def _recover_orders(self) -> None:
        """Resubmit a complete, safe order set for the current phase (once per phase)."""
        phase = self.phase
        power = self.power_id
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
            return phase.book.choose(units)

        orders = phase.book.recovery(safe_set)
        if orders is not None:
            self._submit(phase, orders)

    def _resend_orders(self, phase: PhaseState) -> None:
        """After a rejoin in a phase we had finished: make sure the server has our orders."""
        if phase.book.current:
            self._submit(phase, list(phase.book.current))
        if phase.position.is_movement:
            self._send(Gof())

    # --- the end --------------------------------------------------------------------------------

    def _on_closing(self) -> None:
        if self.phase is not None:
            self._end_phase(self.phase)
            self.phase = None

    def _finish(self) -> None:
        if self.game_over:
            return
        self.game_over = True
        if self.phase is not None:
            self._end_phase(self.phase)
            self.phase = None
        self._note(notes.GameEnded())
        self._out.append(Disconnect(final=True))


def _complete(pos: Position, power: int, orders: Orders) -> Orders:
    """``orders`` for every unit of ``power`` (HLD where missing), nothing for others."""
    return {p: orders.get(p, HOLD_ORDER) for p, u in pos.units.items() if u[0] == power}


def _complete_retreats(pos: Position, power: int, orders: Orders) -> Orders:
    """``orders`` for every dislodged unit of ``power`` (DSB where missing)."""
    return {p: orders.get(p, DISBAND_ORDER) for p, d in pos.dislodged.items() if d[0] == power}


def _kind(message: Message) -> str:
    """A message's name as the counters use it (``NOW``, ``REJ``)."""
    return type(message).__name__.upper()


def _turn_order(turn: Turn) -> tuple[int, int]:
    """A sortable key for a phase: (year, season in playing order)."""
    return (turn.year, SEASON_INDEX[turn.season])
