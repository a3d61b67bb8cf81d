"""A hostile DAIDE server: a real game, plus what a well-behaved server never sends.

:class:`HostileServer` speaks the real wire format through our protocol
package.  It plays a standard game in which our bot holds one power and the
six others are played by DumbBot inside the server; it validates the bot's
orders as a server would (THX notes, MIS), adjudicates every phase with our
engine and reports ORD, SCO, NOW and TME like Parlance, ending with DRW, SMR
and OFF.  In each movement phase, right after NOW and TME, it commits one
:class:`Fault` and then watches for the reaction the protocol prescribes:

=====================  ==============================================  ========================
fault                  what the server sends                           the bot must
=====================  ==============================================  ========================
``bad-bracket``        ``SCO ( ENG LON`` (brackets do not balance)     answer ``PRN (...)``
``unknown-token``      ``TME ( 0x4A7E )``                              answer HUH, ERR before it
``bad-grammar``        ``TME ( SPR )``                                 answer HUH, ERR before SPR
``press``              ``FRM (FRA) (ENG) (PRP (PCE (ENG FRA)))``       answer HUH and ``TRY ()``
``foreign-ord``        an ORD for a unit of ours that does not exist   ignore it
``out-of-order``       a stale NOW; THX, MIS nobody asked for          ignore them
``tme-flood``          thousands of TME messages                       ignore them, stay small
``partial-frame``      half a FRM, a long pause, the other half        answer once it is whole
``press-bomb``         a 49 KB proposal: an AND of 3,500 peace offers  read it (within the wire's
                                                                       limit) and answer it
``press-deep``         a proposal nested 1,000 brackets deep           answer HUH, ERR at the cap
``press-flood``        300 proposals in the phase's last second        answer them, orders in
``oversized-length``   a DM header claiming 65535 octets (odd: one     EM 0x09, rejoin with IAM
                       more than the longest DM)
``reserved-token``     a DM holding a reserved-category token          EM 0x0E, rejoin with IAM
``rm-mid-game``        a second RM on the open connection              EM 0x0C, rejoin with IAM
=====================  ==============================================  ========================

and, whatever happens, submit a complete order set before every deadline.
A phase ends early once the bot's orders are complete, it has said GOF and
the fault's reaction is in (or at the deadline).  :meth:`HostileServer.run`
returns a :class:`HostileReport`: one :class:`FaultOutcome` per fault and one
:class:`PhaseRecord` per phase (orders complete in time, margin of the last
SUB before the deadline as the server measured it).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from random import Random
from typing import Any

from adjudicator.convert import adjustment_value, movement_value
from adjudicator.daide import adjudicate_phase
from adjudicator.maps import standard_map
from adjudicator.position import Position, initial_position
from adjudicator.standard import standard_definition
from adjudicator.validation import OrderBook
from bot.stress.scripted_peer import PeerLink, ScriptedPeer
from protocol.daide_errors import ErrorCode, LanguageError
from protocol.expression import flatten
from protocol.messages import (
    Ccd,
    Drw,
    Frm,
    Gof,
    Hlo,
    Huh,
    Iam,
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
    PlayerSummary,
    Prn,
    Rej,
    Sco,
    Smr,
    Snd,
    Sub,
    Thx,
    Tme,
    Yes,
    parse_message,
    parse_text,
    reply_to_bad_message,
)
from protocol.tokens import BRA, ERR, FRM, HUH, KET, NOT, PCE, PRP, SCO, SPR, STANDARD, TME
from protocol.values import (
    Hold,
    Location,
    Order,
    OrderResult,
    Season,
    Turn,
    Unit,
    UnitType,
    order_power,
)
from protocol.variant import Variant
from protocol.wire import (
    DiplomacyMessage,
    encode_message,
    encode_representation,
    encode_tokens,
)
from search.dumbbot import DumbBot
from search.heuristics import PhaseHeuristics

UNKNOWN_TOKEN = 0x4A7E
"""A token number in a language category that no DAIDE document assigns."""
RESERVED_TOKEN = 0x5800
"""A token in the reserved categories (0x58-0x5F), which must never be sent."""


BOMB_OFFERS = 3500
"""Peace offers in the press bomb: about 49 KB, within the wire's 65,535-octet limit."""

DEEP_PRESS = 1000
"""Brackets of the deep proposal (the language caps nesting far below)."""

FLOOD_PROPOSALS = 300
"""Proposals in the flood."""

FLOOD_LEAD = 1.0
"""Seconds before the deadline the flood arrives."""


class Fault(StrEnum):
    """The misbehaviours the server can commit, one per movement phase."""

    BAD_BRACKET = "bad-bracket"
    UNKNOWN_TOKEN = "unknown-token"
    BAD_GRAMMAR = "bad-grammar"
    PRESS = "press"
    FOREIGN_ORD = "foreign-ord"
    OUT_OF_ORDER = "out-of-order"
    TME_FLOOD = "tme-flood"
    PARTIAL_FRAME = "partial-frame"
    PRESS_BOMB = "press-bomb"
    PRESS_DEEP = "press-deep"
    PRESS_FLOOD = "press-flood"
    OVERSIZED_LENGTH = "oversized-length"
    RESERVED_TOKEN = "reserved-token"
    RM_MID_GAME = "rm-mid-game"


ALL_FAULTS: tuple[Fault, ...] = tuple(Fault)
"""Every fault, in the order a full hostile game commits them."""

RECONNECTING_FAULTS = frozenset({Fault.OVERSIZED_LENGTH, Fault.RESERVED_TOKEN, Fault.RM_MID_GAME})
"""Faults that are protocol violations: the bot must send EM, close, and rejoin."""

_GARBLED_FAULTS = frozenset({Fault.BAD_BRACKET, Fault.UNKNOWN_TOKEN, Fault.BAD_GRAMMAR})
"""Faults that are messages the bot cannot read: it must answer PRN or HUH."""

_PRESS_FAULTS = frozenset(
    {Fault.PRESS, Fault.PARTIAL_FRAME, Fault.PRESS_BOMB, Fault.PRESS_DEEP, Fault.PRESS_FLOOD}
)
"""Faults that are press: the bot must answer it (or refuse it) and keep its orders."""

_EXPECTED_EM = {
    Fault.OVERSIZED_LENGTH: ErrorCode.MESSAGE_TOO_SHORT,
    Fault.RESERVED_TOKEN: ErrorCode.INVALID_TOKEN,
    Fault.RM_MID_GAME: ErrorCode.RM_UNEXPECTED,
}


@dataclass
class FaultOutcome:
    """How the bot reacted to one fault."""

    fault: Fault
    turn: str
    passed: bool = False
    detail: str = "no reaction before the deadline"


@dataclass
class PhaseRecord:
    """One phase as the server saw it: were our orders complete by the deadline, and when."""

    turn: str
    needed_orders: bool
    complete: bool
    margin: float | None
    """Seconds between the bot's last SUB of the phase and the deadline (server clock)."""


@dataclass
class HostileReport:
    """The outcome of a hostile game."""

    power: str = ""
    faults: list[FaultOutcome] = field(default_factory=list)
    phases: list[PhaseRecord] = field(default_factory=list)
    connections: int = 0
    ended: bool = False

    @property
    def missed(self) -> int:
        """Phases in which the bot owed orders and had not completed them by the deadline."""
        return sum(1 for p in self.phases if p.needed_orders and not p.complete)

    @property
    def all_passed(self) -> bool:
        """Every fault got its prescribed reaction and no order was missed."""
        return self.ended and self.missed == 0 and all(f.passed for f in self.faults)

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready dictionary."""
        return {
            "power": self.power,
            "ended": self.ended,
            "connections": self.connections,
            "missed": self.missed,
            "faults": [
                {"fault": str(f.fault), "turn": f.turn, "passed": f.passed, "detail": f.detail}
                for f in self.faults
            ],
            "phases": [p.__dict__ for p in self.phases],
        }


@dataclass
class _Event:
    """Something the bot did, as the server saw it."""

    at: float
    kind: str  # "msg", "bad", "em", "connect", "close"
    message: Message | None = None
    detail: Any = None
    command: int | None = None
    """The first token of a message that did not parse here (a reply deeper than we read)."""


class HostileServer(ScriptedPeer):
    """A scripted DAIDE server that plays a real game and misbehaves on purpose.

    ``faults`` are committed one per movement phase, in order; the game lasts
    at least ``min_movement_phases`` movement phases.  ``deadline`` is the
    seconds per phase (all kinds), ``pause`` the length of the partial-frame
    stall, ``flood`` the number of TME messages in a flood.
    """

    def __init__(
        self,
        faults: Sequence[Fault] = ALL_FAULTS,
        *,
        deadline: int = 5,
        power: str = "ENG",
        min_movement_phases: int = 2,
        pause: float = 2.0,
        flood: int = 20000,
        seed: int = 0,
        host: str = "127.0.0.1",
        port: int = 0,
    ) -> None:
        if deadline < 2:
            raise ValueError("the hostile server needs a deadline of at least 2 seconds")
        super().__init__(host, port)
        self.faults = list(faults)
        self.deadline = deadline
        self.power = power
        self.min_movement_phases = min_movement_phases
        self.pause = pause
        self.flood = flood
        self.passcode = 4242
        self.report = HostileReport(power=power)
        self._rng = Random(seed)
        self._map = standard_map()
        self._definition = standard_definition()
        self._pos: Position = initial_position(self._map)
        self._power_id = self._map.power_index[power]
        self._events: list[_Event] = []
        self._changed = asyncio.Event()
        self._joined = asyncio.Event()
        self._started = False
        self._phase_deadline = 0.0
        self._book: OrderBook | None = None
        self._ours: dict[object, Order] = {}
        self._winter: list[Order] = []
        self._gof = False
        self._last_sub: float | None = None
        self._previous_now: Now | None = None
        self._dumbbot = DumbBot()
        self._heuristics = PhaseHeuristics()

    async def run(self, join_timeout: float = 60.0) -> HostileReport:
        """Wait for the bot, play the whole game, and return the report."""
        await asyncio.wait_for(self._joined.wait(), join_timeout)
        movement_phases = max(self.min_movement_phases, len(self.faults))
        played = 0
        while played < movement_phases:
            fault = None
            if self._pos.is_movement:
                if played < len(self.faults):
                    fault = self.faults[played]
                played += 1
            await self._play_phase(fault)
        self._send(Drw())
        self._send(
            Smr(
                self._pos.turn,
                tuple(
                    PlayerSummary(name, "bot" if name == self.power else "DumbBot", "1", count)
                    for name, count in zip(self._map.powers, self._pos.centre_counts(), strict=True)
                ),
            )
        )
        self._send(Off())
        self.report.ended = True
        await asyncio.sleep(0.2)  # let the bot read the end before the socket closes
        return self.report

    # --- one phase ------------------------------------------------------------------

    async def _play_phase(self, fault: Fault | None) -> None:
        pos = self._pos
        turn = str(pos.turn)
        self._book = OrderBook(pos)
        self._ours = {}
        self._winter = []
        self._gof = False
        self._last_sub = None
        self._phase_deadline = time.monotonic() + self.deadline
        now = Now(pos.turn, pos.unit_positions())
        self._send(Sco(pos.centres()))
        self._send(now)
        self._send(Tme(self.deadline))
        outcome: FaultOutcome | None = None
        check: Callable[[FaultOutcome], bool] | None = None
        if fault is not None:
            outcome = FaultOutcome(fault, turn)
            self.report.faults.append(outcome)
            check = await self._commit(fault, outcome)
        while True:
            complete = self._orders_complete()
            settled = check is None or check(outcome)  # type: ignore[arg-type]
            gof = self._gof or pos.season not in (0, 2) or not self._needs_orders()
            if complete and gof and settled:
                break
            remaining = self._phase_deadline - time.monotonic()
            if remaining <= 0:
                break
            self._changed.clear()
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(remaining):
                    await self._changed.wait()
        if check is not None and outcome is not None:
            check(outcome)
        needed = self._needs_orders()
        complete = self._orders_complete()
        margin = None if self._last_sub is None else self._phase_deadline - self._last_sub
        self.report.phases.append(PhaseRecord(turn, needed, complete, margin))
        if needed and not complete:
            self._send(Ccd(self.power, pos.turn))
        self._previous_now = now
        self._process()

    def _needs_orders(self) -> bool:
        pos, power = self._pos, self._power_id
        if pos.is_movement:
            return any(u[0] == power for u in pos.units.values())
        if pos.is_retreat:
            return any(d[0] == power for d in pos.dislodged.values())
        return pos.adjustments()[power] != 0

    def _orders_complete(self) -> bool:
        if not self._needs_orders():
            return True
        book = self._book
        return book is not None and not book.missing(self._power_id)

    def _process(self) -> None:
        """Adjudicate the phase with everyone's orders and report it as Parlance does."""
        pos = self._pos
        orders: list[Order] = (
            list(self._ours.values()) if not pos.is_adjustment else list(self._winter)
        )
        for power in range(self._map.num_powers):
            if power != self._power_id:
                orders.extend(self._others_orders(pos, power))
        outcome = adjudicate_phase(pos, orders)
        for result in outcome.results:
            self._send(Ord(result))
        self._pos = outcome.position

    def _others_orders(self, pos: Position, power: int) -> list[Order]:
        if pos.is_movement:
            chosen = self._dumbbot.movement_orders(pos, power, self._rng)
            return [movement_value(pos, p, o) for p, o in chosen.items() if p in pos.units]
        if pos.is_retreat:
            return []  # their dislodged units disband
        return [
            adjustment_value(pos, power, o)
            for o in self._heuristics.adjustment_orders(pos, power, self._rng)
        ]

    # --- faults -------------------------------------------------------------------------

    async def _commit(self, fault: Fault, outcome: FaultOutcome) -> Callable[[FaultOutcome], bool]:
        """Misbehave; returns a check that fills ``outcome`` and says whether it is settled."""
        start = len(self._events)
        if fault in _GARBLED_FAULTS:
            return self._send_garbled(fault, start)
        if fault in _PRESS_FAULTS:
            return await self._send_hostile_press(fault, start)
        if fault in RECONNECTING_FAULTS:
            return self._violate_the_wire(fault, start)
        return await self._send_out_of_turn(fault, start)

    def _send_garbled(self, fault: Fault, start: int) -> Callable[[FaultOutcome], bool]:
        """A message the bot cannot read: it must answer PRN or HUH."""
        if fault is Fault.BAD_BRACKET:
            sent = (SCO, BRA, STANDARD.number("ENG"), STANDARD.number("LON"))
            self._write(encode_tokens(sent))
            return self._expect_reply(start, lambda m: isinstance(m, Prn) and m.body == sent)
        if fault is Fault.UNKNOWN_TOKEN:
            self._write(encode_tokens((TME, BRA, UNKNOWN_TOKEN, KET)))
            marked = (TME, BRA, ERR, UNKNOWN_TOKEN, KET)
        else:
            self._write(encode_tokens((TME, BRA, SPR, KET)))
            marked = (TME, BRA, ERR, SPR, KET)
        return self._expect_reply(start, lambda m: isinstance(m, Huh) and flatten(m.body) == marked)

    async def _send_hostile_press(self, fault: Fault, start: int) -> Callable[[FaultOutcome], bool]:
        """Press the bot must answer or refuse without losing its orders."""
        if fault is Fault.PRESS:
            self._send(_press(self.power))
            return self._expect_press_replies(start)
        if fault is Fault.PARTIAL_FRAME:
            data = encode_message(_press(self.power))
            half = len(data) // 2
            self._write(data[:half])
            link = self.link
            if link is not None:
                link.hold()
            await asyncio.sleep(self.pause)
            if link is not None:
                link.release(data[half:])
            return self._expect_press_replies(start)
        if fault is Fault.PRESS_BOMB:
            self._send(_press(self.power, offers=BOMB_OFFERS))
            return self._expect_press_replies(start)
        if fault is Fault.PRESS_DEEP:
            self._write(encode_tokens(_deep_press(self.power)))
            return self._expect_quoted_huh(start)
        await asyncio.sleep(max(0.0, self._phase_deadline - time.monotonic() - FLOOD_LEAD))
        flood = encode_message(_press(self.power))
        self._write(flood * FLOOD_PROPOSALS)
        return self._expect_answers(start, FLOOD_PROPOSALS)

    async def _send_out_of_turn(self, fault: Fault, start: int) -> Callable[[FaultOutcome], bool]:
        """Messages the bot must ignore: a foreign ORD, stale ones, a flood of TME."""
        pos = self._pos
        if fault is Fault.FOREIGN_ORD:
            self._send(Ord(OrderResult(pos.turn, Hold(self._absent_unit()), ("SUC",))))
        elif fault is Fault.OUT_OF_ORDER:
            stale = self._previous_now or Now(Turn(Season.WINTER, 1900), pos.unit_positions())
            self._send(stale)
            self._send(Thx(Hold(self._absent_unit()), "MBV"))
            self._send(Mis(count=-2))
        else:
            remaining = max(1, int(self._phase_deadline - time.monotonic()))
            data = encode_message(Tme(remaining))
            for _ in range(self.flood // 500):
                self._write(data * 500)
                await asyncio.sleep(0)  # let the transport drain between bursts
        return self._expect_silence(start)

    def _violate_the_wire(self, fault: Fault, start: int) -> Callable[[FaultOutcome], bool]:
        """A wire-level violation: the bot must answer with EM, close, and rejoin."""
        if fault is Fault.OVERSIZED_LENGTH:
            self._write(bytes((2, 0, 0xFF, 0xFF)))  # any even length up to 65534 is a DM
        elif fault is Fault.RESERVED_TOKEN:
            self._write(encode_tokens((TME, BRA, RESERVED_TOKEN, KET)))
        else:
            self._write(encode_representation(STANDARD))
        return self._expect_em_and_rejoin(start, _EXPECTED_EM[fault])

    def _absent_unit(self) -> Unit:
        """A fleet of the bot's power in a sea province where no unit stands."""
        taken = {u.unit.location.province for u in self._pos.unit_positions()}
        for sea in ("NAO", "NWG", "BAR", "MAO", "WES", "ION", "EAS", "BLA"):
            if sea not in taken:
                return Unit(self.power, UnitType.FLEET, Location(sea))
        raise RuntimeError("every sea province is occupied")

    def _after(self, start: int) -> list[_Event]:
        return self._events[start:]

    def _expect_reply(
        self, start: int, matches: Callable[[Message], bool]
    ) -> Callable[[FaultOutcome], bool]:
        def check(outcome: FaultOutcome) -> bool:
            for event in self._after(start):
                if event.kind == "msg" and event.message is not None and matches(event.message):
                    outcome.passed, outcome.detail = True, f"answered {event.message}"
                    return True
            return False

        return check

    def _expect_press_replies(self, start: int) -> Callable[[FaultOutcome], bool]:
        def check(outcome: FaultOutcome) -> bool:
            sent = [e.message for e in self._after(start) if isinstance(e.message, Snd)]
            huh = any(s.press and str(s.press[0]) == "HUH" for s in sent)
            tried = any(s.press and str(s.press[0]) == "TRY" for s in sent)
            if huh and tried:
                outcome.passed, outcome.detail = True, "answered with HUH and TRY"
                return True
            return False

        return check

    def _expect_quoted_huh(self, start: int) -> Callable[[FaultOutcome], bool]:
        """A HUH quoting the message back: as deep as it, so it may not parse here either."""

        def check(outcome: FaultOutcome) -> bool:
            for event in self._after(start):
                if isinstance(event.message, Huh) or (event.kind == "bad" and event.command == HUH):
                    outcome.passed, outcome.detail = True, "answered HUH"
                    return True
            return False

        return check

    def _expect_answers(self, start: int, count: int) -> Callable[[FaultOutcome], bool]:
        """Every one of ``count`` proposals answered (a TRY each), the connection kept."""

        def check(outcome: FaultOutcome) -> bool:
            events = self._after(start)
            dropped = [e for e in events if e.kind in ("em", "close")]
            if dropped:
                outcome.passed, outcome.detail = False, f"the bot reacted: {dropped[0].kind}"
                return True
            sent = [e.message for e in events if isinstance(e.message, Snd)]
            tried = sum(1 for m in sent if m.press and str(m.press[0]) == "TRY")
            if tried >= count:
                outcome.passed, outcome.detail = True, f"answered all {count} proposals"
                return True
            return False

        return check

    def _expect_silence(self, start: int) -> Callable[[FaultOutcome], bool]:
        """Nothing to answer: it passes unless the bot complained or dropped the connection."""

        def check(outcome: FaultOutcome) -> bool:
            complaints = [
                e
                for e in self._after(start)
                if e.kind in ("em", "close")
                or (e.kind == "msg" and isinstance(e.message, Huh | Prn))
            ]
            if complaints:
                outcome.passed = False
                outcome.detail = f"the bot reacted: {complaints[0].kind} {complaints[0].message}"
            else:
                outcome.passed, outcome.detail = True, "ignored, kept playing"
            return True

        return check

    def _expect_em_and_rejoin(self, start: int, code: ErrorCode) -> Callable[[FaultOutcome], bool]:
        def check(outcome: FaultOutcome) -> bool:
            events = self._after(start)
            em = next((e for e in events if e.kind == "em"), None)
            if em is None:
                return False
            if em.detail != int(code):
                outcome.detail = f"EM 0x{em.detail:02X}, expected 0x{int(code):02X}"
                return False
            rejoined = any(
                e.kind == "msg"
                and isinstance(e.message, Iam)
                and e.message.power == self.power
                and e.message.passcode == self.passcode
                for e in events
                if e.at >= em.at
            )
            if rejoined:
                outcome.passed, outcome.detail = True, f"EM 0x{int(code):02X}, rejoined with IAM"
            else:
                outcome.detail = f"EM 0x{int(code):02X} but no rejoin yet"
            return rejoined

        return check

    # --- connections ---------------------------------------------------------------------

    def _send(self, message: Message) -> None:
        self._write(encode_message(message))

    def _write(self, data: bytes) -> None:
        if self.link is not None:
            self.link.write(data)

    def _event(
        self,
        kind: str,
        message: Message | None = None,
        detail: Any = None,
        command: int | None = None,
    ) -> None:
        self._events.append(_Event(time.monotonic(), kind, message, detail, command))
        self._changed.set()

    # --- the connection ------------------------------------------------------------------

    def on_connect(self, link: PeerLink) -> None:
        """The bot (re)connected."""
        self.report.connections += 1
        self._event("connect")

    def on_client_error(self, link: PeerLink, code: int) -> None:
        """The bot's EM."""
        self._event("em", detail=code)

    def on_closed(self, link: PeerLink) -> None:
        """The connection ended."""
        self._event("close")

    def on_message(self, link: PeerLink, wire: DiplomacyMessage) -> None:
        """Note the bot's message and answer it (a message that does not parse: HUH/PRN)."""
        try:
            message = parse_message(wire.tokens, wire.table)
        except LanguageError as exc:
            self._event("bad", detail=str(exc), command=wire.tokens[0] if wire.tokens else None)
            reply = reply_to_bad_message(wire.tokens, exc, wire.table)
            if reply is not None:
                link.send(reply)
            return
        self._event("msg", message)
        for out in self._answer(message):
            link.send(out)

    def _answer(self, m: Message) -> list[Message]:
        """The server's replies to one message from the bot."""
        pos = self._pos
        if isinstance(m, Nme):
            if self._started:
                return [Rej(m)]
            return [Yes(m), Map("standard")]
        if isinstance(m, Obs):
            return [Rej(m)]
        if isinstance(m, Mdf):
            return [Mdf(self._definition)]
        if isinstance(m, Yes) and isinstance(m.message, Map):
            if self._started:
                return []
            self._started = True
            self._joined.set()
            return [self._hlo()]
        if isinstance(m, Iam):
            if m.power == self.power and m.passcode == self.passcode:
                return [Yes(m)]
            return [Rej(m)]
        if isinstance(m, Hlo) and m.power is None:
            return [self._hlo()]
        if isinstance(m, Sco) and m.centres is None:
            return [Sco(pos.centres())]
        if isinstance(m, Now) and m.turn is None:
            return [Now(pos.turn, pos.unit_positions())]
        if isinstance(m, Tme) and m.seconds is None:
            return [Tme(max(0, int(self._phase_deadline - time.monotonic())))]
        if isinstance(m, Sub):
            return self._on_sub(m)
        if isinstance(m, Gof):
            self._gof = True
            return [Yes(m)]
        if isinstance(m, Not) and isinstance(m.message, Gof):
            self._gof = False
            return [Yes(m)]
        if isinstance(m, Drw):
            return [Yes(m)]
        if isinstance(m, Snd | Huh | Prn):
            return []  # replies to our faults: recorded as events
        return [Rej(m)]

    def _hlo(self) -> Hlo:
        variant = Variant.of(
            0,
            move_time_limit=self.deadline,
            retreat_time_limit=self.deadline,
            build_time_limit=self.deadline,
        )
        return Hlo(self.power, self.passcode, variant)

    def _on_sub(self, m: Sub) -> list[Message]:
        if self._book is None:
            return [Rej(m)]
        self._last_sub = time.monotonic()
        pos = self._pos
        replies: list[Message] = []
        if pos.is_adjustment:
            self._book = OrderBook(pos)  # a winter SUB replaces the earlier set
            self._winter = []
        for order in m.orders:
            if order_power(order) != self.power:
                replies.append(Thx(order, "NYU"))
                continue
            note = self._book.submit(self.power, order)
            replies.append(Thx(order, note))
            if note == "MBV":
                if pos.is_adjustment:
                    self._winter.append(order)
                else:
                    self._ours[order.unit] = order  # type: ignore[union-attr]
        missing = self._book.missing(self._power_id)
        if pos.is_adjustment:
            if isinstance(missing, int) and missing:
                replies.append(Mis(count=-missing))
        elif not isinstance(missing, int) and missing:
            replies.append(
                Mis(tuple(u for u in pos.unit_positions() if _province(u.unit) in missing))
            )
        self._changed.set()
        return replies


def _sender(power: str) -> str:
    return "FRA" if power != "FRA" else "ENG"


def _press(power: str, offers: int = 1) -> Frm:
    """A peace proposal from France (or England, if we are France) to our power.

    With ``offers`` > 1, an ``AND`` of that many copies of the offer (a bomb).
    """
    sender = _sender(power)
    offer = f"( PCE ( {power} {sender} ) )"
    arrangement = offer if offers == 1 else "( AND " + " ".join([offer] * offers) + " )"
    body = parse_text(f"SND ( {power} ) ( PRP {arrangement} )")
    return Frm(sender, (power,), body.press)  # type: ignore[attr-defined]


def _deep_press(power: str) -> tuple[int, ...]:
    """``FRM (sender) (power) (PRP (NOT (NOT ... (PCE ...))))``, ``DEEP_PRESS`` brackets deep."""
    sender, us = STANDARD.number(_sender(power)), STANDARD.number(power)
    inner = (BRA, PCE, BRA, us, sender, KET, KET)
    nested = (BRA, NOT) * DEEP_PRESS + inner + (KET,) * DEEP_PRESS
    return (FRM, BRA, sender, KET, BRA, us, KET, BRA, PRP, *nested, KET)


def _province(unit: Unit) -> int:
    return standard_map().province_index[unit.location.province]
