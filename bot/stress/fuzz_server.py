"""The replay server: plays a (mutated) recorded game to one real client and judges its orders.

:class:`ReplayServer` listens on 127.0.0.1 and speaks the real wire format
through our protocol package.  It answers the client's handshake with the
recorded replies (``NME`` with ``YES`` and ``MAP``, ``MDF`` with the map),
then sends the script's body as it comes, message by message.  At each
:class:`~bot.stress.fuzz_script.Barrier` it waits for the client's orders
for that phase: it is done when the client's last ``SUB`` is a complete set
of legal orders (checked as a server checks them, against the recorded
position) and, in a movement phase, a ``GOF`` followed it; or when the
recorded deadline has passed (the phase then counts as ordered if that last
``SUB`` was complete and legal).  It answers ``SUB`` with ``THX`` and ``MIS`` as
Parlance does, ``GOF`` and ``NOT (GOF)`` with ``YES``, and a rejoining client's
``IAM``, ``HLO``, ``SCO``, ``NOW`` and ``TME`` with the game as it stands in
the recording.

Whether a phase is *owed* orders is decided at its barrier, from what was
delivered: the handshake was the recorded one, the first ``HLO`` was the
game's, the game was not over, the last ``NOW`` the client could take was
this phase's recorded one, and an ``SCO`` came before it (in a winter, the
phase's recorded one: the builds depend on it).  A phase that
is not owed is given a short settling time only.  Everything is written down
in a :class:`Trace` for :mod:`bot.stress.fuzz` to check.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from dataclasses import dataclass, field

from adjudicator.validation import OrderBook
from bot.client.core.session import GAME_ACTIONS
from bot.stress.fuzz_script import (
    AwaitOrders,
    Barrier,
    Expect,
    Item,
    Pause,
    Script,
    base_script,
    item_of,
)
from bot.stress.fuzz_stream import GAME_END, GameStream, Phase
from bot.stress.scripted_peer import PeerLink, ScriptedPeer
from protocol.daide_errors import LanguageError, ProtocolViolation
from protocol.messages import (
    Drw,
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
    Prn,
    Rej,
    Sco,
    Snd,
    Sub,
    Thx,
    Tme,
    Yes,
    parse_message,
)
from protocol.wire import (
    DiplomacyMessage,
    encode_tokens,
)

SETTLE = 0.3
"""Seconds a phase that is owed nothing (or comes after a missed one) is given."""

HANDSHAKE_IDLE = 1.0
"""Seconds of silence after which a handshake that stalled is given up on (the body follows)."""

CONNECT_WAIT = 60.0
"""Seconds to wait for the client's first connection (a busy machine starts it slowly)."""

RECONNECT_WAIT = 5.0
"""Seconds to wait for the client to come back after it closed the connection."""

CLOSE_WAIT = 2.0
"""Seconds to wait, after a wire violation, for the client's EM and close."""

END_WAIT = 2.0
"""Seconds the client is given to leave after the last message."""

TAKEN = (Expect.ACCEPT, Expect.ANY)
"""Expectations of messages a client may take as the game's state."""


@dataclass
class ClientMessage:
    """One message from the client, with what the server had said on that connection."""

    at: float
    link: int
    text: str
    message: Message | None
    greeted: bool
    """The server had sent its RM on this connection."""
    joined: bool
    """The server had sent an HLO (or YES to IAM) on this connection."""


@dataclass
class PhaseVerdict:
    """One phase at its barrier: owed orders or not, and what the client had sent."""

    phase: int
    turn: str
    owed: bool
    reason: str
    needs_orders: bool
    done: bool
    detail: str
    waited: float
    hurried: bool = False
    """Given only a moment: an earlier phase was missed (the case has failed already)."""


@dataclass
class Trace:
    """Everything one replay saw: what was sent, what came back, each phase's verdict."""

    delivered: list[Item] = field(default_factory=list)
    received: list[ClientMessage] = field(default_factory=list)
    phases: list[PhaseVerdict] = field(default_factory=list)
    links: int = 0
    client_errors: list[int] = field(default_factory=list)
    """EM codes the client sent."""
    problems: list[str] = field(default_factory=list)
    """What went wrong on the client's side of the wire (a DM before IM ...)."""
    finished: bool = False
    """The whole script was played."""
    left_early: bool = False
    """The client closed the connection before the script's end and did not come back."""


@dataclass
class _Orders:
    """The client's orders for one phase, as the judge saw them."""

    subs: int = 0
    complete: bool = False
    legal: bool = False
    notes: list[str] = field(default_factory=list)
    gof: bool = False
    """A GOF came after the last SUB (and no NOT (GOF) after it)."""

    @property
    def ordered(self) -> bool:
        """The last SUB was a complete set of legal orders."""
        return self.complete and self.legal

    def finished(self, movement: bool) -> bool:
        """Ordered, and nothing more will come: in a movement phase, the client said GOF."""
        return self.ordered and (self.gof or not movement)

    def describe(self) -> str:
        if not self.subs:
            return "no SUB"
        refused = [n for n in self.notes if not n.endswith("( MBV )")]
        parts = [f"{self.subs} SUB"]
        if not self.complete:
            parts.append("last one incomplete")
        if refused:
            parts.append("refused: " + ", ".join(refused[:3]))
        return "; ".join(parts)


class ReplayServer(ScriptedPeer):
    """Replays ``script`` (a mutation of ``stream``) to the client that connects."""

    def __init__(self, stream: GameStream, script: Script, host: str = "127.0.0.1") -> None:
        super().__init__(host)
        self.stream = stream
        self.script = script
        self.trace = Trace()
        self.linked = asyncio.Event()
        self._ready = asyncio.Event()
        self._changed = asyncio.Event()
        self._cursor = -1
        self._books: dict[int, _Orders] = {}
        self._deadline: float | None = None
        self._hurry = False
        self._power_id = stream.power_id
        self._recorded = base_script(stream)
        self._answered: set[type[Message]] = set()

    # --- the replay ----------------------------------------------------------------------

    async def run(self) -> Trace:
        """Play the script to the client and return the trace (also kept in ``trace``)."""
        try:
            await asyncio.wait_for(self.linked.wait(), CONNECT_WAIT)
        except TimeoutError:
            self.trace.problems.append("the client never connected")
            return self.trace
        await self._await_handshake()
        for step in self.script.steps:
            if isinstance(step, Barrier):
                await self._barrier(self.stream.phases[step.phase])
                continue
            if isinstance(step, AwaitOrders):
                await self._await_orders(self.stream.phases[step.phase])
                continue
            if isinstance(step, Pause):
                await asyncio.sleep(step.seconds)
                continue
            if self.trace.left_early or not await self._ensure_link():
                continue
            self._deliver(step)
            if step.expect is Expect.VIOLATION:
                await self._await_close()
            await asyncio.sleep(0)
        self.trace.finished = True
        link = self.link
        if link is not None and not self.trace.left_early:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(link.closed.wait(), END_WAIT)
        return self.trace

    async def _await_handshake(self) -> None:
        """Until the client accepts the map, or falls silent in a handshake gone wrong."""
        started = time.monotonic()
        while not self._ready.is_set():
            now = time.monotonic()
            idle = now - self.last_activity
            if idle >= HANDSHAKE_IDLE or now - started >= CONNECT_WAIT:
                return
            self._changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), HANDSHAKE_IDLE - idle)

    async def _ensure_link(self) -> bool:
        """A live, joined connection to send on; waits for the client to come back if needed."""
        link = self.link
        if link is not None and not link.closed.is_set():
            return True
        if link is not None and link.clean_close:
            self.trace.left_early = True
            return False
        self.linked.clear()
        try:
            await asyncio.wait_for(self.linked.wait(), RECONNECT_WAIT)
            until = time.monotonic() + RECONNECT_WAIT
            while not self._back_in(self.link):
                if time.monotonic() >= until:
                    break
                self._changed.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._changed.wait(), until - time.monotonic())
        except TimeoutError:
            self.trace.problems.append("the client did not come back after losing the connection")
            self.trace.left_early = True
            return False
        return self.link is not None and not self.link.closed.is_set()

    def _back_in(self, link: PeerLink | None) -> bool:
        """The client is back in the game on ``link`` (or it closed again: no use waiting)."""
        if link is None or link.closed.is_set() or link.joined:
            return True
        return self._cursor < self.stream.hlo and link.accepted_map  # not begun: a new player

    async def _await_close(self) -> None:
        link = self.link
        if link is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(link.closed.wait(), CLOSE_WAIT)

    def _deliver(self, item: Item) -> None:
        link = self.link
        if link is None or not link.write(encode_tokens(item.tokens)):
            return
        self.trace.delivered.append(item)
        self.last_activity = time.monotonic()
        message = item.message
        if isinstance(message, Hlo) and message.power:
            link.joined = True
        if item.recorded is not None:
            self._cursor = max(self._cursor, item.recorded)

    # --- phases --------------------------------------------------------------------------

    def _current_phase(self) -> Phase | None:
        current = None
        for phase in self.stream.phases:
            if phase.now <= self._cursor:
                current = phase
        return current

    def _owed(self, phase: Phase) -> tuple[bool, str]:
        """Whether the client owes orders for ``phase``, and why (see the module docstring)."""
        if phase.after_end:
            return False, "the game was over"
        if not self.script.handshake_intact:
            return False, "the handshake was changed"
        delivered = self.trace.delivered
        hlo = next((i for i in delivered if isinstance(i.message, Hlo) and i.message.power), None)
        if hlo is None or hlo.recorded != self.stream.hlo:
            return False, "the game's HLO was not the first"
        last_now: Item | None = None
        last_sco: Item | None = None
        sco_before_now: Item | None = None  # the ownership the client had when the NOW came
        for item in delivered:
            message = item.message
            if item.expect not in TAKEN:
                continue
            if isinstance(message, GAME_END):
                return False, f"the game was over ({item.command})"
            if isinstance(message, Now) and message.turn is not None:
                last_now, sco_before_now = item, last_sco
            elif isinstance(message, Sco) and message.centres is not None:
                last_sco = item
        if last_now is None or last_now.recorded != phase.now:
            return False, "its NOW was not the last one sent"
        if sco_before_now is None:
            return False, "no SCO came before its NOW"
        if phase.is_adjustment and sco_before_now.recorded != phase.sco:
            return False, "its SCO was not the last one before its NOW"
        return True, "its NOW arrived"

    async def _await_orders(self, phase: Phase) -> None:
        """Until the client has ordered ``phase`` (and said GOF), or half its deadline passed."""
        book = self._books.setdefault(phase.index, _Orders())
        if self.trace.left_early or not phase.needs_orders(self._power_id):
            return
        movement = phase.position.is_movement
        until = time.monotonic() + phase.seconds / 2
        while not book.finished(movement) and (remaining := until - time.monotonic()) > 0:
            self._changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), remaining)

    async def _barrier(self, phase: Phase) -> None:
        owed, reason = self._owed(phase)
        needs = phase.needs_orders(self._power_id)
        movement = phase.position.is_movement
        book = self._books.setdefault(phase.index, _Orders())
        gone = self.trace.left_early
        hurried = owed and self._hurry
        patience = phase.seconds if owed and not hurried else SETTLE
        started = time.monotonic()
        self._deadline = started + patience
        while needs and not gone and not book.finished(movement):
            remaining = self._deadline - time.monotonic()
            if remaining <= 0:
                break
            self._changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), remaining)
        self._deadline = None
        done = not needs or book.ordered
        if owed and not done:
            self._hurry = True  # the case has failed: the rest only tests survival, quickly
        self.trace.phases.append(
            PhaseVerdict(
                phase.index,
                str(phase.turn),
                owed,
                reason,
                needs,
                done,
                book.describe() if needs else "nothing to order",
                round(time.monotonic() - started, 3),
                hurried,
            )
        )

    # --- the client's side -----------------------------------------------------------------

    # --- the connection ----------------------------------------------------------------

    def on_connect(self, link: PeerLink) -> None:
        """A (new) connection from the client: counted, and the replay may go on."""
        self.trace.links = link.index
        self.linked.set()
        self._changed.set()

    def on_client_error(self, link: PeerLink, code: int) -> None:
        """The client's EM."""
        self.trace.client_errors.append(code)

    def on_violation(self, link: PeerLink, violation: ProtocolViolation) -> None:
        """The client broke the wire protocol."""
        self.trace.problems.append(f"the client broke the wire protocol: {violation}")

    def on_closed(self, link: PeerLink) -> None:
        """An EOF without FM after the game was over is a clean leave, too."""
        if not link.clean_close and not link.closed.is_set():
            link.clean_close = self.trace.finished
        self._changed.set()

    def on_message(self, link: PeerLink, wire: DiplomacyMessage) -> None:
        """Record the client's message and answer it as the recorded server would."""
        try:
            message: Message | None = parse_message(wire.tokens, wire.table)
        except LanguageError:
            message = None
        self.trace.received.append(
            ClientMessage(
                time.monotonic(), link.index, wire.text, message, link.greeted, link.joined
            )
        )
        if message is not None:
            for reply in self._answer(link, message):
                if link.write(encode_tokens(reply.tokens)):
                    self.trace.delivered.append(reply)
        self._changed.set()

    def _answer(self, link: PeerLink, m: Message) -> list[Item]:
        """The server's replies to one message from the client."""
        stream = self.stream
        if isinstance(m, Nme):
            if link.joined or self._cursor >= stream.hlo:  # the game has begun: no new player
                return [item_of(Rej(m))]
            return [self._echo(item, m) for item in self._handshake(m)]
        if isinstance(m, Mdf) and m.definition is None:
            return self._handshake(m)
        if isinstance(m, Yes) and isinstance(m.message, Map):
            link.accepted_map = True
            self._ready.set()
            return []
        if isinstance(m, Iam):
            if m.power == stream.power and m.passcode == stream.greeting.passcode:
                link.joined = True
                self._ready.set()
                return [item_of(Yes(m))]
            return [item_of(Rej(m))]
        if isinstance(m, Hlo) and m.power is None:
            if self._cursor >= stream.hlo:
                return [item_of(stream.greeting, recorded=stream.hlo)]
            return [item_of(Rej(m))]
        if isinstance(m, Sco) and m.centres is None:
            return self._latest(Sco, m)
        if isinstance(m, Now) and m.turn is None:
            return self._latest(Now, m)
        if isinstance(m, Tme) and m.seconds is None:
            if self._deadline is None:
                return [item_of(Rej(m))]
            return [item_of(Tme(max(0, int(self._deadline - time.monotonic()))))]
        if isinstance(m, Sub):
            return self._judge(m)
        phase = self._current_phase()
        book = self._books.setdefault(phase.index, _Orders()) if phase is not None else None
        if isinstance(m, Gof):
            if book is not None:
                book.gof = True
            return [item_of(Yes(m))]
        if isinstance(m, Not) and isinstance(m.message, Gof):
            if book is not None:
                book.gof = False
            return [item_of(Yes(m))]
        if isinstance(m, Drw) or (isinstance(m, Not) and isinstance(m.message, Drw)):
            return [item_of(Yes(m))]
        if isinstance(m, Huh | Prn | Snd | Rej):
            return []
        return [item_of(Rej(m))]

    def _handshake(self, request: Message) -> list[Item]:
        """The script's replies the first time; the recorded ones when the client asks again.

        A changed reply is one fault: a client that rejoined after it is not sent it again.
        """
        script = self._recorded if type(request) in self._answered else self.script
        self._answered.add(type(request))
        return list(script.replies(request))

    @staticmethod
    def _echo(item: Item, request: Nme) -> Item:
        """The recorded ``YES (NME ...)`` names the recorded player: answer this one's NME."""
        message = item.message
        recorded = item.expect is Expect.ACCEPT and isinstance(message, Yes)
        if recorded and isinstance(message.message, Nme):  # type: ignore[union-attr]
            return item_of(Yes(request))
        return item

    def _latest(self, kind: type[Message], request: Message) -> list[Item]:
        """The game's latest recorded ``kind`` (SCO, NOW) so far: what a server would answer."""
        latest = None
        for i, message in enumerate(self.stream.body[: self._cursor + 1]):
            if isinstance(message, kind):
                latest = i
        if latest is None:
            return [item_of(Rej(request))]
        return [item_of(self.stream.body[latest], recorded=latest)]

    def _judge(self, m: Sub) -> list[Item]:
        """THX for each order, MIS if the set is incomplete: the set checked as a server would."""
        phase = self._current_phase()
        if phase is None:
            return [item_of(Rej(m))]
        pos = phase.position
        power = self.stream.power
        checker = OrderBook(pos)
        notes = [checker.submit(power, order) for order in m.orders]
        missing = checker.missing(self._power_id)
        book = self._books.setdefault(phase.index, _Orders())
        book.subs += 1
        book.complete = not missing
        book.legal = all(n == "MBV" for n in notes)
        book.notes = [Thx(o, n).to_text()[4:] for o, n in zip(m.orders, notes, strict=True)]
        book.gof = False
        replies = [item_of(Thx(o, n)) for o, n in zip(m.orders, notes, strict=True)]
        if isinstance(missing, int):
            if missing:
                replies.append(item_of(Mis(count=-missing)))
        elif missing:
            province = self.stream.game_map.province_index
            listed = tuple(
                u
                for u in pos.unit_positions()
                if province[u.unit.province] in missing
                and (u.retreats is not None) == pos.is_retreat
            )
            replies.append(item_of(Mis(listed)))
        return replies


def game_actions_before_joining(trace: Trace) -> list[ClientMessage]:
    """The client's messages sent before the server's RM, and its game actions before HLO."""
    return [
        c
        for c in trace.received
        if not c.greeted or (isinstance(c.message, GAME_ACTIONS) and not c.joined)
    ]
