"""The person's press panel: press heard and sent, in DAIDE and in English, and what is agreed.

:class:`PressLog` is pure (no I/O, no clock), like :class:`~bot.human.desk.SeatDesk`:
the seat hands it the core's notes (:meth:`PressLog.noted`: press heard,
press sent, press refused) and it keeps one :class:`Entry` per message and the
agreements in force, which it reads from the answers: a proposal of the
person's that a power accepts (``YES``), or a power's proposal the person
accepts, is an agreement with that power; a ``CCL`` of it ends it.

:class:`PressPanel` serves the panel's two requests: ``POST /api/press`` (a
:class:`~bot.human.api.PressRequest`: a proposal from the menus, or DAIDE text)
and ``POST /api/press/answer`` (a :class:`~bot.human.api.PressAnswerRequest`: YES
or REJ to a proposal heard).  Press is read and checked as the core checks it
(:func:`~protocol.press_reader.parse_press_text` at the game's level with its
token table, then :func:`~bot.client.core.person_press.check_person_press`):
what is malformed, names what the game does not have, or is above the game's
level is a :class:`~bot.human.api.BadRequest` with one line, and nothing is sent.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal, Protocol

from bot.client.core import notes
from bot.client.core.person import PersonChoices
from bot.client.core.person_press import PersonPressError, check_person_press
from bot.human.api import (
    AgreementLine,
    AllianceForm,
    BadRequest,
    DrawForm,
    OrdersForm,
    PeaceForm,
    PressAnswerRequest,
    PressForm,
    PressLine,
    PressRequest,
    PressSent,
    PressView,
    TextForm,
    ZoneForm,
    quoted,
    read_request,
)
from bot.human.ordertext import OrderTextError, parse_order_text
from bot.human.press_english import YOU, arrangement_english, press_english
from protocol.daide_errors import ProtocolError
from protocol.expression import flatten
from protocol.messages import Frm, Snd, parse_text
from protocol.press import (
    ORDERS_LEVEL,
    PEACE_LEVEL,
    Accept,
    Alliance,
    AllOf,
    Arrangement,
    Cancel,
    Demilitarise,
    DoOrder,
    Draw,
    Peace,
    Press,
    Proposal,
    Reject,
)
from protocol.press_reader import parse_press, parse_press_text
from protocol.tokens import TokenTable
from protocol.values import Turn

MAX_LINES = 300
"""Press lines kept (a flood beyond them drops the oldest; the agreements stay)."""

QUOTED = 60
"""Characters of refused press text quoted in the answer."""

LEVEL_KINDS: tuple[tuple[int, str], ...] = (
    (PEACE_LEVEL, "peace"),
    (PEACE_LEVEL, "alliance"),
    (PEACE_LEVEL, "draw"),
    (ORDERS_LEVEL, "orders"),
    (ORDERS_LEVEL, "dmz"),
    (PEACE_LEVEL, "text"),
)
"""The panel's kinds of press and the level each needs."""

NOT_UNDERSTOOD = "not understood: the seat answered HUH and TRY"
REFUSED_BY_SERVER = "the server refused it (HUH)"


@dataclass
class Entry:
    """One press message heard (``in``) or sent (``out``), read at the game's level if it can be."""

    line: int
    turn: str | None
    way: Literal["in", "out"]
    sender: str
    recipients: tuple[str, ...]
    text: str
    press: Press | None
    note: str | None = None
    answer: str | None = None
    answers: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Agreed:
    """An arrangement agreed with ``partner`` since ``since``."""

    partner: str
    arrangement: Arrangement
    since: str | None


def read_message_press(message: Frm | Snd, level: int, table: TokenTable) -> Press | None:
    """The typed press inside FRM or SND at ``level`` (None: the level does not allow it)."""
    try:
        return parse_press(flatten(message.press), level, table)
    except (ProtocolError, ValueError):
        return None


@dataclass
class PressLog:
    """The record of press the panel shows (see the module's docstring)."""

    entries: list[Entry] = field(default_factory=list)
    agreements: list[Agreed] = field(default_factory=list)
    refused: str | None = None
    count: int = 0
    listeners: list[Callable[[], None]] = field(default_factory=list)

    def _bump(self) -> None:
        for listener in self.listeners:
            listener()

    def noted(self, note: notes.Note, table: TokenTable, level: int, turn: Turn | None) -> None:
        """A note of the core: press heard, sent, refused by the core or by the server."""
        match note:
            case notes.PressIn(sender=sender, text=text, reaction=reaction):
                self.heard(sender, text, reaction, table, level, turn)
            case notes.PressOut(recipients=recipients, text=text):
                self.sent(recipients, text, table, level, turn)
            case notes.PersonPressRefused(reason=reason):
                self.refused = reason
                self._bump()
            case notes.NotUnderstood(reply=reply) if _quotes_snd(reply):
                self.refused = REFUSED_BY_SERVER
                self._bump()

    def _add(self, entry: Entry) -> Entry:
        self.entries.append(entry)
        del self.entries[:-MAX_LINES]
        self.count += 1
        return entry

    def heard(
        self,
        sender: str,
        text: str,
        reaction: str,
        table: TokenTable,
        level: int,
        turn: Turn | None,
    ) -> None:
        """``FRM`` from ``sender`` (its text), and what the seat did with it."""
        message = _parsed(text, table)
        press = read_message_press(message, level, table) if isinstance(message, Frm) else None
        recipients = message.recipients if isinstance(message, Frm) else ()
        note = NOT_UNDERSTOOD if press is None or reaction.startswith("not understood") else None
        entry = self._add(
            Entry(self.count, _turn(turn), "in", sender, recipients, text, press, note)
        )
        if isinstance(press, Accept | Reject) and isinstance(press.press, Proposal):
            said = "YES" if isinstance(press, Accept) else "REJ"
            ours = next(
                (
                    e
                    for e in reversed(self.entries)
                    if e.way == "out"
                    and e.press == press.press
                    and sender in e.recipients
                    and sender not in e.answers
                ),
                None,
            )
            if ours is not None:  # an answer to nothing of ours agrees to nothing
                ours.answers[sender] = said
                if said == "YES":
                    self._agree(sender, press.press.arrangement, entry.turn)
        elif isinstance(press, Cancel) and isinstance(press.press, Proposal):
            self._end({sender}, press.press.arrangement)
            for theirs in self.entries:
                if theirs.way == "in" and theirs.sender == sender and theirs.press == press.press:
                    theirs.answer = theirs.answer or "withdrawn"
        self._bump()

    def sent(
        self, recipients: Sequence[str], text: str, table: TokenTable, level: int, turn: Turn | None
    ) -> None:
        """``SND`` the seat sent for the person (its text)."""
        message = _parsed(text, table)
        press = read_message_press(message, level, table) if isinstance(message, Snd) else None
        self.refused = None
        self._add(Entry(self.count, _turn(turn), "out", YOU, tuple(recipients), text, press))
        if isinstance(press, Accept | Reject) and isinstance(press.press, Proposal):
            said = "YES" if isinstance(press, Accept) else "REJ"
            for theirs in self.entries:
                if (
                    theirs.way == "in"
                    and theirs.sender in recipients
                    and theirs.press == press.press
                    and theirs.answer is None
                ):
                    theirs.answer = said
                    if said == "YES":
                        self._agree(theirs.sender, press.press.arrangement, _turn(turn))
        elif isinstance(press, Cancel) and isinstance(press.press, Proposal):
            self._end(set(recipients), press.press.arrangement)
        self._bump()

    def _agree(self, partner: str, arrangement: Arrangement, since: str | None) -> None:
        if not any(a.partner == partner and a.arrangement == arrangement for a in self.agreements):
            self.agreements.append(Agreed(partner, arrangement, since))

    def _end(self, partners: set[str], arrangement: Arrangement) -> None:
        self.agreements = [
            a
            for a in self.agreements
            if not (a.partner in partners and a.arrangement == arrangement)
        ]

    def entry(self, line: int) -> Entry | None:
        """The entry of ``line`` (None: no such line, or dropped)."""
        return next((e for e in self.entries if e.line == line), None)

    def view(
        self, level: int, power: str | None, powers: Sequence[str], table: TokenTable
    ) -> PressView:
        """The panel as the page shows it."""
        return PressView(
            level=level,
            power=power,
            powers=[p for p in powers if p != power],
            kinds=[kind for needs, kind in LEVEL_KINDS if needs <= level],
            lines=[_line(e, power) for e in self.entries],
            agreements=[_agreement(a, power, table) for a in self.agreements],
            refused=self.refused,
        )


def _quotes_snd(reply: str) -> bool:
    """Whether a HUH quotes one of our SND (press the server would not relay)."""
    return reply.replace("ERR ", "").startswith("HUH ( SND")


def _parsed(text: str, table: TokenTable) -> object:
    try:
        return parse_text(text, table)
    except (ProtocolError, ValueError):
        return None


def _turn(turn: Turn | None) -> str | None:
    return None if turn is None else str(turn)


def _line(e: Entry, power: str | None) -> PressLine:
    if e.press is None:
        english = f"{'You' if e.way == 'out' else e.sender}: press this game cannot read"
    else:
        english = press_english(e.press, e.sender, power)
    return PressLine(
        line=e.line,
        turn=e.turn,
        way=e.way,
        sender=e.sender,
        recipients=list(e.recipients),
        text=e.text,
        english=english,
        answerable=e.way == "in" and isinstance(e.press, Proposal) and e.answer is None,
        answer=e.answer,
        answers=dict(e.answers),
        note=e.note,
    )


def _agreement(a: Agreed, power: str | None, table: TokenTable) -> AgreementLine:
    try:
        text = a.arrangement.to_text(table)
    except (ProtocolError, ValueError):
        text = repr(a.arrangement)
    return AgreementLine(
        partner=a.partner,
        text=text,
        english=arrangement_english(a.arrangement, power),
        since=a.since,
    )


# --- the requests ---------------------------------------------------------------------------


class PressControl(Protocol):
    """What the panel asks of the seat: the game's press level, names and powers; sending."""

    def current(self) -> PersonChoices | None:
        """The phase being played: the seat's legal orders in it, its position and power.

        None between phases.
        """

    def press_level(self) -> int:
        """The game's press level (0 before HLO, or in a no-press game)."""

    def press_table(self) -> TokenTable:
        """The game's token table (its powers' and provinces' names)."""

    def press_powers(self) -> tuple[str, ...]:
        """The game's powers (none before its map)."""

    def press_power(self) -> str | None:
        """The seat's power."""

    def send_press(self, recipients: tuple[str, ...], press: Press) -> None:
        """Send ``press`` to ``recipients`` (the core checks it again)."""


class PressPanel:
    """The panel's requests and view, for the seat ``control`` and its record ``log``."""

    def __init__(self, control: PressControl, log: PressLog) -> None:
        self.control = control
        self.log = log

    def view(self) -> PressView:
        """The panel as the page shows it."""
        c = self.control
        return self.log.view(c.press_level(), c.press_power(), c.press_powers(), c.press_table())

    def send(self, raw: bytes) -> PressSent:
        """``POST /api/press``: build or read the press, check it, send it."""
        body = read_request(raw, PressRequest)
        level = self._level()
        press = self._press(body.press, level)
        return self._send(tuple(p.upper() for p in body.to), press, level)

    def answer(self, raw: bytes) -> PressSent:
        """``POST /api/press/answer``: YES or REJ to a proposal heard."""
        body = read_request(raw, PressAnswerRequest)
        level = self._level()
        entry = self.log.entry(body.line)
        if entry is None:
            raise BadRequest(f"no press line {body.line}")
        if entry.way != "in" or not isinstance(entry.press, Proposal):
            raise BadRequest(f"press line {body.line} is not a proposal heard")
        if entry.answer is not None:
            raise BadRequest(f"press line {body.line} is answered already ({entry.answer})")
        reply = Accept(entry.press) if body.yes else Reject(entry.press)
        return self._send((entry.sender,), reply, level)

    def _level(self) -> int:
        level = self.control.press_level()
        if level < PEACE_LEVEL:
            raise BadRequest(f"this game has no press (level {level})")
        return level

    def _send(self, recipients: tuple[str, ...], press: Press, level: int) -> PressSent:
        control = self.control
        try:
            check_person_press(
                recipients, press, level, control.press_powers(), control.press_power()
            )
            text = press.to_text(control.press_table())
        except (PersonPressError, ProtocolError, ValueError) as exc:
            raise BadRequest(str(exc)) from None
        control.send_press(recipients, press)
        return PressSent(text=text, english=press_english(press, YOU, control.press_power()))

    def _press(self, form: PressForm, level: int) -> Press:
        """The press a request's form asks for (names upper-cased and checked)."""
        if isinstance(form, TextForm):
            try:
                return parse_press_text(form.text, level, self.control.press_table())
            except (ProtocolError, ValueError) as exc:
                raise BadRequest(f"{quoted(form.text, QUOTED)}: {exc}") from None
        return Proposal(self._arrangement(form))

    def _arrangement(self, form: PressForm) -> Arrangement:
        if isinstance(form, PeaceForm):
            return Peace(self._powers(form.powers, "peace", 2))
        if isinstance(form, AllianceForm):
            return Alliance(
                self._powers(form.allies, "the allies", 1),
                self._powers(form.enemies, "the enemies", 1),
            )
        if isinstance(form, DrawForm):
            return Draw()
        if isinstance(form, ZoneForm):
            provinces = tuple(p.upper() for p in form.provinces)
            if not provinces:
                raise BadRequest("a demilitarised zone needs at least one province")
            return Demilitarise(self._powers(form.powers, "the zone's powers", 1), provinces)
        assert isinstance(form, OrdersForm)
        return self._orders(form)

    def _powers(self, names: list[str], what: str, least: int) -> tuple[str, ...]:
        powers = tuple(dict.fromkeys(p.upper() for p in names))
        if len(powers) < least:
            raise BadRequest(f"{what} needs at least {least} power(s)")
        unknown = [p for p in powers if p not in self.control.press_powers()]
        if unknown:
            raise BadRequest(f"not a power of this game: {' '.join(unknown)}")
        return powers

    def _orders(self, form: OrdersForm) -> Arrangement:
        current = self.control.current()
        if current is None:
            raise BadRequest("orders are proposed during a phase (none is being played)")
        parts = []
        for text in form.orders:
            try:
                parts.append(DoOrder(parse_order_text(text, current.position, current.power)))
            except OrderTextError as exc:
                raise BadRequest(f"{quoted(text, QUOTED)}: {exc}") from None
        return parts[0] if len(parts) == 1 else AllOf(tuple(parts))
