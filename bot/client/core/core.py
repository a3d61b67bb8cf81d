"""The DAIDE client's rules, with no I/O: events in, effects out (the h11 pattern).

:class:`BotCore` plays one game as one power.  The shell
(:mod:`bot.client.shell`) feeds it :mod:`~bot.client.core.events` — a server message, a
clock tick, a search-worker message, a connection opened or lost, each with
the time it happened — and carries out the :mod:`~bot.client.core.effects` that
:meth:`BotCore.handle` returns, in order: send a message, start, retime or
cancel a search job, schedule a tick, publish a note.  Nothing here reads a
clock, touches a socket or awaits.

Its parts each own their state once:

* the **session** (:mod:`bot.client.core.session`): this connection's stage; no game
  action leaves before the session has joined (it is noted as held back);
* the **mirror** (:mod:`bot.client.core.mirror`): the game as the server tells it, and the
  shadow adjudication;
* the **player** (:mod:`bot.client.core.playing`): the phase in play
  (:mod:`bot.client.core.phasestate`), its order book (:mod:`bot.client.core.orderbook`:
  submissions, THX, MIS, recovery) and its search job;
* the **time budget** (:mod:`bot.client.core.timebudget`): the server's deadline and the
  measured delays in, one :class:`~search.policy.SearchLimit` and the
  last submission time out.

This module keeps the session's rules and the game's messages; how a phase is
played is :mod:`bot.client.core.playing`'s.

A lost connection abandons the phase (its job is cancelled); after the
reconnection the core rejoins with ``IAM``, asks for HLO, SCO, NOW and TME,
and plays the phase again from the server's state, or resends its orders if
they were final.  A message that does not parse is answered with HUH/PRN, one
that parses but does not fit the game is noted as ignored (counted by kind)
and changes nothing, so that it never poisons a later message: positions are
checked before they are stored, the server's latest NOW that fits the game is
the phase played (a NOW for the same turn in another position restates it),
YES and REJ count only for what we sent, HLO only once per game (or when a
rejoin asked for it), MIS only for units we have, TME only within the phase's
limit.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from random import Random
from typing import Any

from adjudicator.position import PhaseKind
from adjudicator.rule_errors import AdjudicatorError
from adjudicator.rules import CivilDisorderRule
from bot.client.core import events as ev
from bot.client.core import notes
from bot.client.core.chooser import PhaseChooser, bot_chooser
from bot.client.core.effects import (
    Disconnect,
    Effect,
    GiveUp,
    UseMap,
)
from bot.client.core.mirror import GameMirror, ShadowReport
from bot.client.core.negotiator import Negotiator, Outcome, Say
from bot.client.core.outbox import Outbox, kind
from bot.client.core.person import PersonChooser, PhaseInPlay
from bot.client.core.person_press import FOR_THE_PERSON, PersonPressError, check_person_press
from bot.client.core.phasestate import PhaseState
from bot.client.core.playing import PhasePlayer
from bot.client.core.session import NotConnected, Session, SessionNotReady
from bot.client.core.timebudget import DEFAULT_MIN_MARGIN, DEFAULT_THINK_TIME, TimeBudget
from protocol.daide_errors import LanguageError, ProtocolError
from protocol.expression import flatten
from protocol.messages import (
    Adm,
    Ccd,
    Drw,
    Frm,
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
    Off,
    Ord,
    Out,
    Prn,
    Rej,
    Sco,
    Slo,
    Smr,
    Snd,
    Sve,
    Thx,
    Tme,
    Yes,
    parse_message,
    reply_to_bad_message,
)
from protocol.press import PEACE_LEVEL, Press, Proposal, Reject, check_level, press_snd
from protocol.press_reader import parse_frm_press, press_answer
from protocol.tokens import SND, TokenTable
from protocol.values import Turn
from protocol.wire import DiplomacyMessage, ErrorMessage, FinalMessage, RepresentationMessage

DEFAULT_MAP = "standard"
"""The map's name when the server's MAP names none."""

MESSAGE_ERRORS = (AdjudicatorError, ProtocolError, ValueError, KeyError, IndexError)
"""What handling a message that parsed but makes no sense for our game may raise."""


@dataclass(frozen=True, slots=True)
class CoreSettings:
    """What the core needs to know of the bot's settings (all plain values).

    ``rejoin_power`` and ``rejoin_passcode`` rejoin a game in progress;
    ``final_year`` is BANDANA's ``-fy`` (a draw is offered from its end on);
    ``chooser`` is who chooses the orders: ``bot`` (the ``strategy``) or
    ``person`` (a person at a page; the strategy then gives the hints);
    ``press`` is the negotiator's mode in a press game (:data:`PRESS_MODES`):
    ``unbound`` (the default: it answers and proposes by value, but its
    agreements do not bind our orders — what won at a table of PeaceBots,
    docs/research.md) or ``off`` (every proposal understood is refused);
    ``press_turn`` names the turn in every ``SND`` (MILA's server takes a lone
    recipient's group for a turn).
    """

    name: str
    version: str
    final_year: int | None = None
    think_time: float = DEFAULT_THINK_TIME
    min_margin: float = DEFAULT_MIN_MARGIN
    max_think: float | None = None
    rules: str = "parlance"
    seed: int | None = None
    rejoin_power: str | None = None
    rejoin_passcode: int | None = None
    iterations: int | None = None
    strategy: str = "mcts"
    chooser: str = "bot"
    press: str = "unbound"
    press_turn: bool = False

    def __post_init__(self) -> None:
        if self.press not in PRESS_MODES:
            raise ValueError(f"unknown press mode {self.press!r}; one of {', '.join(PRESS_MODES)}")


PRESS_MODES = ("off", "unbound")
"""The negotiator's modes (:attr:`CoreSettings.press`).  ``on``, agreements binding the
search, was removed: it lost to ``unbound`` at a table of PeaceBots (docs/research.md)."""


CHOOSERS = ("bot", "person")
"""Who may choose a seat's orders (:attr:`CoreSettings.chooser`)."""


def make_phase_chooser(settings: CoreSettings, rng: Random) -> PhaseChooser:
    """The chooser ``settings`` ask for; ValueError for an unknown one."""
    if settings.chooser == "person":
        return PersonChooser()
    if settings.chooser == "bot":
        return bot_chooser(settings.strategy, rng)
    raise ValueError(f"unknown chooser {settings.chooser!r}; one of {', '.join(CHOOSERS)}")


class BotCore:
    """One game's rules: :meth:`handle` an event, get the effects to carry out."""

    def __init__(self, settings: CoreSettings) -> None:
        # Stays whole: the parts and the table of message handlers, read in one place.
        self.settings = settings
        self.out = Outbox()
        self.mirror = GameMirror(rule=CivilDisorderRule(settings.rules))
        self.rng = Random(settings.seed)
        self.budget = TimeBudget(
            think_time=settings.think_time,
            min_margin=settings.min_margin,
            max_think=settings.max_think,
        )
        self.player = PhasePlayer(
            self.out,
            self.budget,
            self.rng,
            self.mirror.rule,
            make_phase_chooser(settings, self.rng),
            settings.final_year,
            settings.iterations,
        )
        self.negotiator = Negotiator(seed=settings.seed or 0)
        self.power: str | None = settings.rejoin_power
        self.passcode: int | None = settings.rejoin_passcode
        self.hlo: Hlo | None = None
        self.map_name: str | None = None  # pragma: no mutate (only read as "or DEFAULT_MAP")
        self.turn: Turn | None = None
        self.result: str | None = None
        self.game_over = False
        self.ever_joined = False  # pragma: no mutate (only read for its truth)
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

    @property
    def press_level(self) -> int:
        """The game's press level from HLO (0, no press, before it or when it names none)."""
        level = None if self.hlo is None else self.hlo.variant.level
        return level or 0

    @property
    def table(self) -> TokenTable:
        """The game's token table (the server's RM; no power or province before it)."""
        return self.out.table

    # --- the one entry point -----------------------------------------------------------------

    def handle(self, event: ev.Event) -> list[Effect]:
        """Take one event; the effects it calls for, in the order to carry them out."""
        self.out.begin(event.at)
        try:
            if isinstance(event, ev.ServerMessage):
                self._on_wire(event)
            elif isinstance(event, ev.Tick):
                self.player.advance()
            elif isinstance(event, ev.SearchMessage):
                self.player.search_message(event.message)
            elif isinstance(event, ev.SearchUnavailable):
                self.player.search_unavailable(event)
            elif isinstance(event, ev.ConnectionOpened):
                self._on_opened(event)
            elif isinstance(event, ev.ConnectionLost):
                self._on_lost()
            elif isinstance(event, ev.Closing):
                self.player.end()
            elif isinstance(event, ev.PersonOrders | ev.PersonReady | ev.HintRequested):
                self.player.person_input(event)
            elif isinstance(event, ev.PersonDraw):
                self.player.propose_draw()
            elif isinstance(event, ev.PersonPress):
                self._person_press(event)
        except SessionNotReady as exc:
            self._note(notes.HeldBack(str(exc)))
        except NotConnected:
            pass  # the shell notices the loss and tells us; the phase is played again
        except Exception as exc:  # a bug of ours must not cost the game: safe orders instead
            if self.player.phase is None:
                self._note(notes.HandlerError(repr(exc), "", "CORE"))
            self.player.failed(exc)
        return self.out.take()

    @property
    def session(self) -> Session | None:
        """The session of the connection in use (None before the first connection)."""
        return self.out.session

    @property
    def phase(self) -> PhaseState | None:
        """The phase in play (the player's)."""
        return self.player.phase

    def phase_in_play(self) -> PhaseInPlay | None:
        """The phase in play, read only, as a person's seat shows it (None before the first)."""
        phase = self.player.phase
        if phase is None:
            return None
        return PhaseInPlay(phase.turn, phase.position, self.power, phase.clock.deadline)

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

    def _note(self, note: notes.Note) -> None:
        self.out.note(note)

    def _send(self, message: Message) -> Message:
        """Send ``message``, an ``SND`` naming the turn if the server needs it; the message sent.

        This is the one place an ``SND`` gets its turn (``press_turn``), so a
        record of what went out is made of the message this returns.
        """
        if isinstance(message, Snd) and self.settings.press_turn and message.turn is None:
            message = replace(message, turn=self.turn)
        self.out.send(message)
        return message

    def _ignore(self, why: str, message: Message) -> None:
        self.out.ignore(why, message)

    # --- the connection --------------------------------------------------------------------

    def _on_opened(self, event: ev.ConnectionOpened) -> None:
        session = self.out.session = Session(self.can_rejoin)
        self._note(notes.Connected(event.host, event.port, session.rejoin))

    def _on_lost(self) -> None:
        if self.session is not None:
            self.session.close()
        self.player.abandon()

    def _on_wire(self, event: ev.ServerMessage) -> None:
        wire = event.wire
        if isinstance(wire, RepresentationMessage):
            # The connection accepts one RM only (we never select another game).
            self.out.table = wire.table
            self._note(notes.RepresentationReceived(len(wire.entries), self.table))
            if self.session is not None:
                self.session.greeted()
                self._greet()
        elif isinstance(wire, DiplomacyMessage):
            self._on_dm(wire)
        elif isinstance(wire, FinalMessage):
            self._note(notes.ServerClosed())
            self.out.act(Disconnect(final=False))
        elif isinstance(wire, ErrorMessage):
            self._note(notes.ServerError(wire.code, wire.description))
            self.out.act(Disconnect(final=False))

    def _greet(self) -> None:
        """Say who we are: IAM to rejoin, NME to play."""
        s = self.settings
        if self.session is not None and self.session.rejoin and self.can_rejoin:
            self.mirror.mark_resync()
            self.player.replaying = True
            self._send(Iam(self.power, self.passcode))  # type: ignore[arg-type]
        else:
            self._send(Nme(s.name, s.version))

    def _joined(self) -> None:
        if self.session is not None:
            self.session.join()
        self.ever_joined = True

    def _on_dm(self, wire: DiplomacyMessage) -> None:
        text = wire.text
        self.out.table = wire.table
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
            self._note(notes.HandlerError(repr(exc), text, kind(message)))

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
            if self.negotiating:
                self._carry_out(self.negotiator.on_result(entry.turn, entry.order))

    def _on_sco(self, m: Sco) -> None:
        if m.centres is None:
            self._ignore("SCO without centres (a request: servers do not send it)", m)
            return
        try:
            self.mirror.on_sco(m.centres)
        except AdjudicatorError as exc:
            self._ignore(f"SCO does not fit the map: {exc}", m)
            return
        self._note(notes.CentresCounted({p: len(c) for p, c in m.centres}))

    def _on_tme(self, m: Tme) -> None:
        if m.seconds is None:
            return
        problem = self.player.time_left(m.seconds)
        if problem is not None:
            self._ignore(problem, m)

    def _on_map(self, m: Map) -> None:
        self.map_name = m.name or DEFAULT_MAP
        self._send(Mdf())

    def _on_mdf(self, m: Mdf) -> None:
        """Take the server's map, or refuse one we cannot play on and leave (never crash).

        Once a game is under way, a different or unusable map is ignored: the
        game goes on on the map it began on.
        """
        if m.definition is None:
            return
        name = self.map_name or DEFAULT_MAP
        current = self.mirror.game_map
        if current is not None and self.mirror.position is not None:
            if m.definition != current.definition:
                self._ignore("a new map in the middle of the game", m)
                return
        else:
            try:
                self.mirror.on_map(m.definition, name)
            except AdjudicatorError as exc:  # the map is not usable (MapError)
                self._note(notes.BadMap(name, str(exc)))
                self._send(Rej(Map(name)))
                self.out.act(GiveUp(f"the server's map {name} is not usable: {exc}"))
                return
            game_map = self.mirror.game_map
            if game_map is not None and game_map.oddities:
                self._note(notes.MapOddities(name, game_map.oddities))
            self.out.act(UseMap(m.definition, name))
        self._send(Yes(Map(name)))

    def _on_ccd(self, m: Ccd) -> None:
        self._note(notes.CivilDisorder(m.power, m.turn, m.power == self.power))

    def _on_out(self, m: Out) -> None:
        self._note(notes.PowerEliminated(m.power))

    def _on_result(self, m: Drw | Slo) -> None:
        self.result = self.out.text(m)
        self.mirror.on_game_end()
        self._note(notes.GameResult(self.result))

    def _on_smr(self, m: Smr) -> None:
        ours = [p.centres for p in m.players if p.power == self.power]
        self._note(notes.ScoresReceived(self.out.text(m), ours[-1] if ours else None))
        if self.result is not None:
            self._finish()

    def _on_off(self, m: Off) -> None:
        self._finish()

    # --- press ------------------------------------------------------------------------------

    @property
    def negotiating(self) -> bool:
        """True when the negotiator speaks: press is on, the game allows it, no person speaks."""
        return (
            self.settings.press != "off"
            and self.press_level >= PEACE_LEVEL
            and not self.person_speaks
        )

    @property
    def person_speaks(self) -> bool:
        """True at a person's seat: the person answers press and writes their own."""
        return self.settings.chooser == "person"

    def _on_frm(self, m: Frm) -> None:
        replies = press_answer(m, self.press_level, self.table)
        for reply in replies:
            self._send(reply)
        text = self.out.text(m)
        if replies:
            self.negotiator.counts["not_understood"] += 1
            self._note(notes.PressIn(m.sender, text, "not understood: HUH/TRY"))
            return
        if self.person_speaks:
            self._note(notes.PressIn(m.sender, text, FOR_THE_PERSON))
            return
        press = parse_frm_press(m, self.press_level, self.table)
        if not self.negotiating:
            self._note(notes.PressIn(m.sender, text, "press off"))
            if isinstance(press, Proposal):  # we agree to nothing
                self._say(Say((m.sender,), Reject(press)))
            return
        outcome = self.negotiator.on_press(m.sender, press, self._seconds_left())
        self._note(notes.PressIn(m.sender, text, _reaction(outcome)))
        self._carry_out(outcome)

    def _person_press(self, event: ev.PersonPress) -> None:
        """Send a person's press if it may go (else note why not: nothing is sent)."""
        game_map = self.mirror.game_map
        powers = () if game_map is None else game_map.powers
        try:
            check_person_press(event.recipients, event.press, self.press_level, powers, self.power)
            self._send_press(event.recipients, event.press)
        except (
            PersonPressError,
            ProtocolError,
            ValueError,
            KeyError,
            SessionNotReady,
            NotConnected,
        ) as exc:
            self._note(notes.PersonPressRefused(event.recipients, str(exc)))

    def _seconds_left(self) -> float | None:
        """Seconds to the deadline of the phase in play (None: no phase, or no deadline)."""
        phase = self.player.phase
        return None if phase is None else phase.clock.margin_at(self.out.now)

    def _say(self, say: Say) -> None:
        """Send one press message (if it fits the game's level and table; else count it)."""
        try:
            check_level(say.press, self.press_level)
            self._send_press(say.recipients, say.press)
        except (ProtocolError, ValueError, KeyError) as exc:
            self.negotiator.counts["unsendable"] += 1
            self._note(notes.HandlerError(repr(exc), repr(say.press), "SND"))

    def _send_press(self, recipients: Sequence[str], press: Press) -> None:
        """Send ``press`` to ``recipients`` as one ``SND``, and note that ``SND`` as it was sent.

        The bot's press and the person's both leave here, so the ``PressOut``
        note (the game log's ``press_out``, the person's panel) is the message
        sent, turn included.  Raises what building the message (a name not in
        the game's table) or sending it (the session) raises.
        """
        sent = self._send(press_snd(recipients, press, self.table))
        self._note(notes.PressOut(tuple(recipients), self.out.text(sent)))

    def _carry_out(self, outcome: Outcome) -> None:
        """Say what the negotiator decided and note its agreement changes."""
        for say in outcome.said:
            self._say(say)
        for change in outcome.changes:
            agreement = change.agreement
            try:
                text = agreement.arrangement.to_text(self.table)
            except (ProtocolError, ValueError, KeyError):  # not seen: its names are the table's
                text = repr(agreement.arrangement)  # pragma: no mutate (so never reached)
            self._note(
                notes.AgreementChanged(
                    change.change,
                    agreement.partner,
                    agreement.kind,
                    text,
                    agreement.since,
                    change.why,
                    self.negotiator.trust_in(agreement.partner),
                )
            )

    def _on_sve(self, m: Sve) -> None:
        self._send(Yes(m))

    def _on_lod(self, m: Lod) -> None:
        if self.power and self.passcode is not None:
            self._send(Iam(self.power, self.passcode))
        else:
            self._send(Rej(m))

    def _on_huh(self, m: Huh | Prn) -> None:
        self._note(notes.NotUnderstood(self.out.text(m)))
        if isinstance(m, Huh) and flatten(m.body)[:1] == (SND,):
            # Press the server would not relay (its syntax at this level): not our orders.
            self.negotiator.counts["press_refused_by_server"] += 1
            return
        self.player.recover()

    def _on_adm(self, m: Adm) -> None:
        self._note(notes.ServerNotice(m.text, sender=m.name))

    def _on_not(self, m: Not) -> None:
        self._note(notes.ServerNotice(self.out.text(m)))

    def _on_hlo(self, m: Hlo) -> None:
        problem = self._hlo_problem(m)
        if problem is not None:
            self._ignore(problem, m)
            return
        # For the types: _hlo_problem refused a bare HLO, and the wire gives a power its passcode.
        if m.power is None or m.passcode is None:  # pragma: no mutate (never true, as above)
            return
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
            self._note(notes.Rejoined(inner.power))
            self._joined()
            # The game as it stands, and the time left in this phase (Parlance answers a
            # bare TME; a server that cannot refuses it and HLO's limits stay in force).
            for request in (Hlo(), Sco(), Now(), Tme()):
                self._send(request)

    def _on_rej(self, m: Rej) -> None:
        if not self._answers_ours(m):
            return
        inner = m.message
        self._note(notes.Refused(self.out.text(inner)))
        if isinstance(inner, Nme) and not self.ever_joined:
            self.out.act(GiveUp(f"the server refused to let us join: {self.out.text(m)}"))
            return
        if isinstance(inner, Iam) and not self.joined:
            # The passcode or the power is not accepted: try as a new player.
            self.power = None
            self.passcode = None
            self.hlo = None
            self.player.replaying = False
            self._send(Nme(self.settings.name, self.settings.version))

    # --- phases --------------------------------------------------------------------------------

    def _on_now(self, m: Now) -> None:
        """The server's latest well-formed NOW that fits the game is the phase we play."""
        if m.turn is None:
            self._ignore("NOW without a turn (a request: servers do not send it)", m)
            return
        problem = self.mirror.now_problem(m.turn, m.units)
        if problem is not None:
            self._ignore(problem, m)
            return
        try:
            report = self.mirror.on_now(m.turn, m.units)
        except AdjudicatorError as exc:
            self._ignore(f"NOW does not fit the game: {exc}", m)
            return
        self.turn = m.turn
        self._note_shadow(report)
        pos = self.mirror.position
        if self.game_over or self.power is None or pos is None:
            return
        if self.power_id is not None:
            game_map = self.mirror.game_map
            if self.negotiating and game_map is not None:
                # Press first: answers and proposals go out before the phase's search starts.
                self._carry_out(self.negotiator.on_phase(self.power, game_map, m.turn, pos, None))
            self.player.on_position(m.turn, pos, self.power)

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

    def _on_thx(self, m: Thx) -> None:
        self.player.on_thx(m)

    def _on_mis(self, m: Mis) -> None:
        """The server lacks orders: the player completes our set."""
        current = self.mirror.position
        if not self.game_over:
            self.player.on_mis(m, None if current is None else current.turn)

    # --- the end --------------------------------------------------------------------------------

    def _finish(self) -> None:
        if self.game_over:
            return
        self.game_over = True
        self.player.end()
        self._note(notes.GameEnded())
        self.out.act(Disconnect(final=True))


def _reaction(outcome: Outcome) -> str:
    """What the negotiator did with one press message, in a few words (for the game log)."""
    said = ", ".join(  # pragma: no mutate (one press heard is one reply at most)
        type(say.press).__name__ for say in outcome.said
    )
    changes = ", ".join(
        f"{c.change} {c.agreement.kind} {c.agreement.partner}" for c in outcome.changes
    )
    return "; ".join(part for part in (said, changes) if part) or "noted"
