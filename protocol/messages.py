"""Typed DAIDE messages: one small frozen dataclass per command, parsed from and built to tokens.

Every message a client meets at press level 0 has a class named after its
command token (``Hlo``, ``Now``, ``Sub``...).  Where the syntax has a bare
form (the client's request ``NOW``, ``MAP``, ``HLO``...), the payload fields
default to ``None`` / ``()`` and the bare message is the default instance
(``Now()``).  Units, orders, turns, positions and maps are the plain values
of :mod:`protocol.values`.

* :func:`parse_message` (tokens or nested expression) and :func:`parse_text`
  turn a message into its class; anything malformed raises a
  :class:`~protocol.daide_errors.LanguageError` whose ``index`` is where ``ERR``
  belongs;
* ``message.to_tokens(table)`` / ``message.to_text(table)`` / ``str(message)``
  build it back;
* :func:`reply_to_bad_message` builds the ``HUH``/``PRN`` answer to a message
  that failed to parse; :func:`press_replies` the polite level-0 answer to press.

``YES``/``REJ`` keep the message they answer parsed when it parses, else as a
:class:`RawMessage`; ``HUH``, ``PRN`` and press bodies are kept raw.

Any token sequence is safe to hand to :func:`parse_message`, whatever its
length, tokens or nesting: it returns a message or raises a
:class:`~protocol.daide_errors.LanguageError`, nothing else.  Brackets nested
deeper than :data:`protocol.expression.MAX_NESTING_DEPTH` (64, far beyond any
real message; the reasoning is in :mod:`protocol.expression`) raise
:class:`~protocol.daide_errors.NestingError` before the recursive parser runs, and
:func:`reply_to_bad_message` and :func:`press_replies` quote a message back
without recursion.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import ClassVar, TypeVar

from protocol.daide_errors import BracketError, EncodeError, LanguageError
from protocol.expression import (
    MAX_MESSAGE_TOKENS,
    Expression,
    check_nesting,
    flatten,
    fold,
    format_expression,
    format_tokens,
)
from protocol.expression import tokenize as _tokenize
from protocol.mapdef import read_map_definition, write_map_definition
from protocol.notation import (
    Centres,
    read_centres,
    read_order,
    read_unit_position,
    write_centres,
    write_order,
    write_turn,
    write_unit_position,
)
from protocol.reader import TokenReader
from protocol.tokens import (
    ADM,
    BRA,
    CAT_ORDER_NOTE,
    CAT_PHASE,
    CAT_RESULT,
    CCD,
    DRW,
    ERR,
    FRM,
    GOF,
    HLO,
    HST,
    HUH,
    IAM,
    KET,
    LOD,
    MAP,
    MDF,
    MIS,
    NME,
    NOT,
    NOW,
    OBS,
    OFF,
    ORD,
    OUT,
    PRN,
    REJ,
    SCO,
    SLO,
    SMR,
    SND,
    STANDARD,
    SUB,
    SVE,
    THX,
    TME,
    TRY,
    YES,
    Token,
    TokenTable,
    integer_token,
    text_tokens,
)
from protocol.values import MapDefinition, Order, OrderResult, Turn, UnitPosition
from protocol.variant import NO_OPTIONS, Variant, read_variant, write_variant

M = TypeVar("M", bound="Message")


class Message:
    """Base class of the typed messages: knows its command token and how to write itself."""

    __slots__ = ()
    command: ClassVar[int]
    """The message's first token (e.g. ``NOW``)."""

    def to_tokens(self, table: TokenTable = STANDARD) -> tuple[int, ...]:
        """The message's token sequence (EncodeError for names ``table`` does not know)."""
        out = [self.command]
        self._write(out, table)
        return tuple(out)

    def to_text(self, table: TokenTable = STANDARD) -> str:
        """The canonical text form, e.g. ``NOW ( SPR 1901 ) ( AUS AMY BUD ) ...``."""
        return format_tokens(self.to_tokens(table), table)

    def __str__(self) -> str:
        try:
            return self.to_text()
        except EncodeError:  # names the standard table lacks (a variant): still printable
            return repr(self)

    def _write(self, out: list[int], table: TokenTable) -> None:
        """Append the tokens after the command."""

    @classmethod
    def _read(cls: type[M], r: TokenReader) -> M:
        """Read the tokens after the command (the reader stands just after it)."""
        raise NotImplementedError


# --- small helpers --------------------------------------------------------------------


def _bracket_text(out: list[int], text: str) -> None:
    out.append(BRA)
    out += text_tokens(text)
    out.append(KET)


def _bracket_number(out: list[int], value: int) -> None:
    out += (BRA, integer_token(value), KET)


def _bracket_names(out: list[int], names: Sequence[str], table: TokenTable) -> None:
    out.append(BRA)
    out.extend(table.number(name) for name in names)
    out.append(KET)


def _bracket_raw(out: list[int], expression: Expression) -> None:
    out.append(BRA)
    out += flatten(expression)
    out.append(KET)


def _bracket_message(out: list[int], message: Message, table: TokenTable) -> None:
    out.append(BRA)
    out += message.to_tokens(table)
    out.append(KET)


def _read_inner(r: TokenReader) -> Message:
    """``(message)``: a bracketed message, parsed."""
    r.open()
    message = read_message(r)
    r.close()
    return message


def _read_inner_or_raw(r: TokenReader) -> Message:
    """``(message)``, parsed if it parses, else kept as a RawMessage."""
    start = r.pos
    try:
        return _read_inner(r)
    except LanguageError:
        r.pos = start
        return RawMessage(r.raw_group())


# --- raw -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RawMessage(Message):
    """A message kept as a nested expression (the inside of a YES/REJ that did not parse)."""

    expression: Expression

    def to_tokens(self, table: TokenTable = STANDARD) -> tuple[int, ...]:
        """The expression's tokens."""
        return flatten(self.expression)

    def to_text(self, table: TokenTable = STANDARD) -> str:
        """The expression's canonical text."""
        return format_expression(self.expression)


# --- joining a game -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Nme(Message):
    """``NME ('name') ('version')``: the client joins as a player."""

    name: str
    version: str
    command: ClassVar[int] = NME

    def _write(self, out: list[int], table: TokenTable) -> None:
        _bracket_text(out, self.name)
        _bracket_text(out, self.version)

    @classmethod
    def _read(cls, r: TokenReader) -> Nme:
        return cls(r.bracketed_string(), r.bracketed_string())


@dataclass(frozen=True, slots=True)
class Obs(Message):
    """``OBS [('name') ('version')]``: the client joins as an observer."""

    name: str | None = None
    version: str | None = None
    command: ClassVar[int] = OBS

    def _write(self, out: list[int], table: TokenTable) -> None:
        if self.name is not None:
            _bracket_text(out, self.name)
            _bracket_text(out, self.version or "")

    @classmethod
    def _read(cls, r: TokenReader) -> Obs:
        if not r.more():
            return cls()
        return cls(r.bracketed_string(), r.bracketed_string())


@dataclass(frozen=True, slots=True)
class Iam(Message):
    """``IAM (power) (passcode)``: the client takes back its power after a disconnection."""

    power: str
    passcode: int
    command: ClassVar[int] = IAM

    def _write(self, out: list[int], table: TokenTable) -> None:
        _bracket_names(out, (self.power,), table)
        _bracket_number(out, self.passcode)

    @classmethod
    def _read(cls, r: TokenReader) -> Iam:
        r.open()
        power = r.power()
        r.close()
        return cls(power, r.bracketed_integer())


@dataclass(frozen=True, slots=True)
class Map(Message):
    """``MAP ('name')`` from the server; bare ``MAP`` is the client's request for it."""

    name: str | None = None
    command: ClassVar[int] = MAP

    def _write(self, out: list[int], table: TokenTable) -> None:
        if self.name is not None:
            _bracket_text(out, self.name)

    @classmethod
    def _read(cls, r: TokenReader) -> Map:
        return cls(r.bracketed_string() if r.more() else None)


@dataclass(frozen=True, slots=True)
class Mdf(Message):
    """``MDF (powers) (provinces) (adjacencies)`` from the server; bare ``MDF`` requests it."""

    definition: MapDefinition | None = None
    command: ClassVar[int] = MDF

    def _write(self, out: list[int], table: TokenTable) -> None:
        if self.definition is not None:
            write_map_definition(out, self.definition, table)

    @classmethod
    def _read(cls, r: TokenReader) -> Mdf:
        return cls(read_map_definition(r) if r.more() else None)


@dataclass(frozen=True, slots=True)
class Hlo(Message):
    """``HLO (power) (passcode) (variant)``: the game starts; bare ``HLO`` requests it again.

    ``power`` is ``UNO`` for an observer.
    """

    power: str | None = None
    passcode: int | None = None
    variant: Variant = NO_OPTIONS
    command: ClassVar[int] = HLO

    def _write(self, out: list[int], table: TokenTable) -> None:
        if self.power is not None:
            _bracket_names(out, (self.power,), table)
            _bracket_number(out, self.passcode or 0)
            write_variant(out, self.variant, table)

    @classmethod
    def _read(cls, r: TokenReader) -> Hlo:
        if not r.more():
            return cls()
        r.open()
        power = r.power_or_uno()
        r.close()
        passcode = r.bracketed_integer()
        return cls(power, passcode, read_variant(r))


# --- the position ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Now(Message):
    """``NOW (turn) (unit) ... (unit MRT (location ...)) ...``; bare ``NOW`` requests it."""

    turn: Turn | None = None
    units: tuple[UnitPosition, ...] = ()
    command: ClassVar[int] = NOW

    def _write(self, out: list[int], table: TokenTable) -> None:
        if self.turn is not None:
            write_turn(out, self.turn, table)
            for position in self.units:
                write_unit_position(out, position, table)

    @classmethod
    def _read(cls, r: TokenReader) -> Now:
        if not r.more():
            return cls()
        turn = r.turn()
        units = []
        while r.more():
            r.open()
            units.append(read_unit_position(r))
            r.close()
        return cls(turn, tuple(units))


@dataclass(frozen=True, slots=True)
class Sco(Message):
    """``SCO (power centre ...) ... (UNO centre ...)``; bare ``SCO`` requests it."""

    centres: Centres | None = None
    command: ClassVar[int] = SCO

    def _write(self, out: list[int], table: TokenTable) -> None:
        if self.centres is not None:
            write_centres(out, self.centres, table)

    @classmethod
    def _read(cls, r: TokenReader) -> Sco:
        return cls(read_centres(r) if r.more() else None)


@dataclass(frozen=True, slots=True)
class Hst(Message):
    """``HST (turn)``: the client asks for the results of a past turn."""

    turn: Turn
    command: ClassVar[int] = HST

    def _write(self, out: list[int], table: TokenTable) -> None:
        write_turn(out, self.turn, table)

    @classmethod
    def _read(cls, r: TokenReader) -> Hst:
        return cls(r.turn())


# --- orders -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Sub(Message):
    """``SUB (order) (order) ...``: the player submits orders (bare ``SUB`` inside ``NOT``)."""

    orders: tuple[Order, ...] = ()
    command: ClassVar[int] = SUB

    def _write(self, out: list[int], table: TokenTable) -> None:
        for order in self.orders:
            out.append(BRA)
            write_order(out, order, table)
            out.append(KET)

    @classmethod
    def _read(cls, r: TokenReader) -> Sub:
        orders = []
        while r.more():
            r.open()
            orders.append(read_order(r))
            r.close()
        return cls(tuple(orders))


@dataclass(frozen=True, slots=True)
class Thx(Message):
    """``THX (order) (note)``: the server's verdict on one submitted order (note ``MBV`` = ok)."""

    order: Order
    note: str
    command: ClassVar[int] = THX

    def _write(self, out: list[int], table: TokenTable) -> None:
        out.append(BRA)
        write_order(out, self.order, table)
        out += (KET, BRA, table.number(self.note), KET)

    @classmethod
    def _read(cls, r: TokenReader) -> Thx:
        r.open()
        order = read_order(r)
        r.close()
        r.open()
        note = r.token_of(CAT_ORDER_NOTE, "an order note")
        r.close()
        return cls(order, note)


@dataclass(frozen=True, slots=True)
class Mis(Message):
    """``MIS``: orders still missing.

    Three forms: ``MIS (unit) ...`` (movement), ``MIS (unit MRT (...)) ...``
    (retreats; both in ``units``), ``MIS (n)`` (``count``: n > 0 disbands,
    n < 0 builds still due).  Bare ``MIS`` is the client's request, or the
    server saying nothing is missing.
    """

    units: tuple[UnitPosition, ...] = ()
    count: int | None = None
    command: ClassVar[int] = MIS

    def _write(self, out: list[int], table: TokenTable) -> None:
        if self.count is not None:
            _bracket_number(out, self.count)
        for position in self.units:
            write_unit_position(out, position, table)

    @classmethod
    def _read(cls, r: TokenReader) -> Mis:
        if r.peek() == BRA and 0 <= r.tokens[r.pos + 1] < 0x4000:
            return cls(count=r.bracketed_integer())
        units = []
        while r.more():
            r.open()
            units.append(read_unit_position(r))
            r.close()
        return cls(tuple(units))


@dataclass(frozen=True, slots=True)
class Ord(Message):
    """``ORD (turn) (order) (result)``: one adjudicated order.

    Bare ``ORD`` is the client's request for the last turn's results.
    """

    entry: OrderResult | None = None
    command: ClassVar[int] = ORD

    def _write(self, out: list[int], table: TokenTable) -> None:
        if self.entry is not None:
            write_turn(out, self.entry.turn, table)
            out.append(BRA)
            write_order(out, self.entry.order, table)
            out.append(KET)
            _bracket_names(out, self.entry.result, table)

    @classmethod
    def _read(cls, r: TokenReader) -> Ord:
        if not r.more():
            return cls()
        turn = r.turn()
        r.open()
        order = read_order(r)
        r.close()
        r.open()
        results = [r.token_of(CAT_RESULT, "a result")]
        while not r.at_close():
            results.append(r.token_of(CAT_RESULT, "a result"))
        r.close()
        return cls(OrderResult(turn, order, tuple(results)))


@dataclass(frozen=True, slots=True)
class Gof(Message):
    """``GOF``: process orders as soon as everyone is ready (``NOT (GOF)``: wait)."""

    command: ClassVar[int] = GOF

    @classmethod
    def _read(cls, r: TokenReader) -> Gof:
        return cls()


# --- deadlines, draws, end of game --------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Tme(Message):
    """``TME (seconds)``: time to the deadline (server), or a reminder request (client)."""

    seconds: int | None = None
    command: ClassVar[int] = TME

    def _write(self, out: list[int], table: TokenTable) -> None:
        if self.seconds is not None:
            _bracket_number(out, self.seconds)

    @classmethod
    def _read(cls, r: TokenReader) -> Tme:
        return cls(r.bracketed_integer() if r.more() else None)


@dataclass(frozen=True, slots=True)
class Drw(Message):
    """``DRW [(power ...)]``: the player accepts a draw, or the server declares one."""

    powers: tuple[str, ...] | None = None
    command: ClassVar[int] = DRW

    def _write(self, out: list[int], table: TokenTable) -> None:
        if self.powers is not None:
            _bracket_names(out, self.powers, table)

    @classmethod
    def _read(cls, r: TokenReader) -> Drw:
        if not r.more():
            return cls()
        r.open()
        powers = r.powers_until_close()
        r.close()
        return cls(powers)


@dataclass(frozen=True, slots=True)
class Slo(Message):
    """``SLO (power)``: the game ended in a solo win."""

    power: str
    command: ClassVar[int] = SLO

    def _write(self, out: list[int], table: TokenTable) -> None:
        _bracket_names(out, (self.power,), table)

    @classmethod
    def _read(cls, r: TokenReader) -> Slo:
        r.open()
        power = r.power()
        r.close()
        return cls(power)


@dataclass(frozen=True, slots=True)
class PlayerSummary:
    """One power's line in SMR: who played it, its final centres, its elimination year."""

    power: str
    name: str
    version: str
    centres: int
    eliminated: int | None = None


@dataclass(frozen=True, slots=True)
class Smr(Message):
    """``SMR (turn) (power ('name') ('version') centres [year]) ...``; bare ``SMR`` requests it."""

    turn: Turn | None = None
    players: tuple[PlayerSummary, ...] = ()
    command: ClassVar[int] = SMR

    def _write(self, out: list[int], table: TokenTable) -> None:
        if self.turn is None:
            return
        write_turn(out, self.turn, table)
        for player in self.players:
            out += (BRA, table.number(player.power))
            _bracket_text(out, player.name)
            _bracket_text(out, player.version)
            out.append(integer_token(player.centres))
            if player.eliminated is not None:
                out.append(integer_token(player.eliminated))
            out.append(KET)

    @classmethod
    def _read(cls, r: TokenReader) -> Smr:
        if not r.more():
            return cls()
        turn = r.turn()
        players = []
        while r.more():
            r.open()
            power = r.power()
            name = r.bracketed_string()
            version = r.bracketed_string()
            centres = r.integer()
            eliminated = None if r.at_close() else r.integer()
            r.close()
            players.append(PlayerSummary(power, name, version, centres, eliminated))
        return cls(turn, tuple(players))


@dataclass(frozen=True, slots=True)
class Off(Message):
    """``OFF``: the server tells the client to exit."""

    command: ClassVar[int] = OFF

    @classmethod
    def _read(cls, r: TokenReader) -> Off:
        return cls()


# --- press (read generically, answered politely) -------------------------------------------


@dataclass(frozen=True, slots=True)
class Snd(Message):
    """``SND [(turn)] (power ...) (press)``: send press; ``press`` is the inside of its brackets.

    The turn is the later DAIDE document's optional form, which MILA's server
    reads (and needs: it takes the group of a lone recipient for a turn);
    Parlance's syntax has no turn.
    """

    recipients: tuple[str, ...]
    press: Expression
    turn: Turn | None = None
    command: ClassVar[int] = SND

    def _write(self, out: list[int], table: TokenTable) -> None:
        if self.turn is not None:
            write_turn(out, self.turn, table)
        _bracket_names(out, self.recipients, table)
        _bracket_raw(out, self.press)

    @classmethod
    def _read(cls, r: TokenReader) -> Snd:
        if r.peek() == BRA and r.tokens[r.pos + 1] >> 8 == CAT_PHASE:
            turn = r.turn()
            r.open()
            recipients = r.powers_until_close()
            r.close()
            return cls(recipients, r.raw_group(), turn)
        r.open()
        recipients = r.powers_until_close()
        r.close()
        return cls(recipients, r.raw_group())


@dataclass(frozen=True, slots=True)
class Frm(Message):
    """``FRM (power) (power ...) (press)``: press from ``sender``; ``press`` kept raw."""

    sender: str
    recipients: tuple[str, ...]
    press: Expression
    command: ClassVar[int] = FRM

    def _write(self, out: list[int], table: TokenTable) -> None:
        _bracket_names(out, (self.sender,), table)
        _bracket_names(out, self.recipients, table)
        _bracket_raw(out, self.press)

    @classmethod
    def _read(cls, r: TokenReader) -> Frm:
        r.open()
        sender = r.power()
        r.close()
        r.open()
        recipients = r.powers_until_close()
        r.close()
        return cls(sender, recipients, r.raw_group())


# --- civil disorder, elimination ------------------------------------------------------------


def _read_snd_group(r: TokenReader) -> Snd:
    r.open()
    r.expect(SND, "SND")
    message = Snd._read(r)
    r.close()
    return message


@dataclass(frozen=True, slots=True)
class Ccd(Message):
    """``CCD (power)``: the power is in civil disorder.

    ``CCD (power) (turn)``: it missed the deadline of ``turn``;
    ``CCD (power) (SND ...)``: press to it was refused (``sent``).
    """

    power: str
    turn: Turn | None = None
    sent: Snd | None = None
    command: ClassVar[int] = CCD

    def _write(self, out: list[int], table: TokenTable) -> None:
        _bracket_names(out, (self.power,), table)
        if self.turn is not None:
            write_turn(out, self.turn, table)
        if self.sent is not None:
            _bracket_message(out, self.sent, table)

    @classmethod
    def _read(cls, r: TokenReader) -> Ccd:
        r.open()
        power = r.power()
        r.close()
        if not r.more():
            return cls(power)
        if r.peek() == BRA and r.tokens[r.pos + 1] >> 8 == CAT_PHASE:
            return cls(power, turn=r.turn())
        return cls(power, sent=_read_snd_group(r))


@dataclass(frozen=True, slots=True)
class Out(Message):
    """``OUT (power)``: the power is eliminated (``OUT (power) (SND ...)``: press refused)."""

    power: str
    sent: Snd | None = None
    command: ClassVar[int] = OUT

    def _write(self, out: list[int], table: TokenTable) -> None:
        _bracket_names(out, (self.power,), table)
        if self.sent is not None:
            _bracket_message(out, self.sent, table)

    @classmethod
    def _read(cls, r: TokenReader) -> Out:
        r.open()
        power = r.power()
        r.close()
        return cls(power, _read_snd_group(r) if r.more() else None)


# --- answers ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Yes(Message):
    """``YES (message)``: acceptance of ``message`` (a RawMessage if it did not parse)."""

    message: Message
    command: ClassVar[int] = YES

    def _write(self, out: list[int], table: TokenTable) -> None:
        _bracket_message(out, self.message, table)

    @classmethod
    def _read(cls, r: TokenReader) -> Yes:
        return cls(_read_inner_or_raw(r))


@dataclass(frozen=True, slots=True)
class Rej(Message):
    """``REJ (message)``: refusal of ``message`` (a RawMessage if it did not parse)."""

    message: Message
    command: ClassVar[int] = REJ

    def _write(self, out: list[int], table: TokenTable) -> None:
        _bracket_message(out, self.message, table)

    @classmethod
    def _read(cls, r: TokenReader) -> Rej:
        return cls(_read_inner_or_raw(r))


@dataclass(frozen=True, slots=True)
class Not(Message):
    """``NOT (message)``: cancel or negate: ``NOT (GOF)``, ``NOT (DRW)``, ``NOT (CCD (ENG))``."""

    message: Message
    command: ClassVar[int] = NOT

    def _write(self, out: list[int], table: TokenTable) -> None:
        _bracket_message(out, self.message, table)

    @classmethod
    def _read(cls, r: TokenReader) -> Not:
        return cls(_read_inner(r))


@dataclass(frozen=True, slots=True)
class Huh(Message):
    """``HUH (message)``: a syntax error in ``body``, just before its ``ERR`` token."""

    body: Expression
    command: ClassVar[int] = HUH

    def _write(self, out: list[int], table: TokenTable) -> None:
        _bracket_raw(out, self.body)

    @classmethod
    def _read(cls, r: TokenReader) -> Huh:
        return cls(r.raw_group())

    def error_index(self) -> int | None:
        """Where ERR stands in the quoted message's tokens (None if it has none)."""
        tokens = flatten(self.body)
        return tokens.index(ERR) if ERR in tokens else None


@dataclass(frozen=True, slots=True)
class Prn(Message):
    """``PRN (message)``: ``message`` (raw tokens, brackets unbalanced) had a bracket error."""

    body: tuple[int, ...]
    command: ClassVar[int] = PRN

    def _write(self, out: list[int], table: TokenTable) -> None:
        out.append(BRA)
        out += self.body
        out.append(KET)


# --- administration ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Adm(Message):
    """``ADM ('name') ('message')``: an administrative message to or from the server."""

    name: str
    text: str
    command: ClassVar[int] = ADM

    def _write(self, out: list[int], table: TokenTable) -> None:
        _bracket_text(out, self.name)
        _bracket_text(out, self.text)

    @classmethod
    def _read(cls, r: TokenReader) -> Adm:
        return cls(r.bracketed_string(), r.bracketed_string())


@dataclass(frozen=True, slots=True)
class Sve(Message):
    """``SVE ('gamename')``: the server asks the client to save the game."""

    game: str
    command: ClassVar[int] = SVE

    def _write(self, out: list[int], table: TokenTable) -> None:
        _bracket_text(out, self.game)

    @classmethod
    def _read(cls, r: TokenReader) -> Sve:
        return cls(r.bracketed_string())


@dataclass(frozen=True, slots=True)
class Lod(Message):
    """``LOD ('gamename')``: the server asks the client to load a saved game."""

    game: str
    command: ClassVar[int] = LOD

    def _write(self, out: list[int], table: TokenTable) -> None:
        _bracket_text(out, self.game)

    @classmethod
    def _read(cls, r: TokenReader) -> Lod:
        return cls(r.bracketed_string())


# --- parsing ----------------------------------------------------------------------

MESSAGE_TYPES: tuple[type[Message], ...] = (
    Nme, Obs, Iam, Map, Mdf, Hlo, Now, Sco, Hst, Sub, Thx, Mis, Ord, Gof, Tme, Drw, Slo,
    Smr, Off, Snd, Frm, Ccd, Out, Yes, Rej, Not, Huh, Prn, Adm, Sve, Lod,
)  # fmt: skip
"""Every typed message class."""

_READERS: dict[int, Callable[[TokenReader], Message]] = {
    cls.command: cls._read for cls in MESSAGE_TYPES if cls is not Prn
}


def read_message(r: TokenReader) -> Message:
    """Read one message (a command and its arguments) up to the end of the current group."""
    index = r.pos
    read = _READERS.get(r.take())
    if read is None:
        r.fail("expected a command this client understands", index)
    return read(r)


def _as_tokens(message: Sequence[int] | Expression) -> Sequence[int]:
    if message and not isinstance(message[0], int):
        return flatten(message)  # type: ignore[arg-type]
    return message  # type: ignore[return-value]


def parse_message(message: Sequence[int] | Expression, table: TokenTable = STANDARD) -> Message:
    """The typed message for a token sequence (or a nested expression starting with a Token).

    Raises only LanguageError subclasses, for any input; ``error.index`` is a
    position in the token sequence (of the flattened expression).  Brackets
    nested deeper than :data:`~protocol.expression.MAX_NESTING_DEPTH` raise
    NestingError (a PRN, whose body is kept flat, is exempt).
    """
    tokens = _as_tokens(message)
    if len(tokens) >= 3 and tokens[0] == PRN and tokens[1] == BRA and tokens[-1] == KET:
        return Prn(tuple(tokens[2:-1]))  # PRN quotes a message whose brackets do not balance
    check_nesting(tokens)
    r = TokenReader(tokens, table)
    if r.at_end():
        r.fail("expected a message")
    result = read_message(r)
    r.end()
    return result


def parse_text(text: str, table: TokenTable = STANDARD) -> Message:
    """The typed message for a text form, e.g. ``parse_text('TME (3)') == Tme(3)``."""
    return parse_message(_tokenize(text, table), table)


def to_text(message: Message, table: TokenTable = STANDARD) -> str:
    """The canonical text form of a typed message."""
    return message.to_text(table)


# --- answering ----------------------------------------------------------------------


SND_TO_ONE_TOKENS = 6
"""Tokens ``SND ( power ) ( ... )`` adds around the press it sends to one power."""
QUOTE_TOKENS = 4
"""Tokens a HUH or PRN adds to the message it quotes: ``HUH ( ... ERR ... )``."""


def huh_for(tokens: Sequence[int], index: int | None, table: TokenTable = STANDARD) -> Huh:
    """``HUH (message)`` with ``ERR`` inserted before token ``index`` (at the start if None).

    ``tokens`` must have balanced brackets (else answer with PRN).
    """
    at = 0 if index is None else max(0, min(index, len(tokens)))
    marked = [*tokens[:at], ERR, *tokens[at:]]
    return Huh(fold(marked, table))


def reply_to_bad_message(
    tokens: Sequence[int], error: LanguageError, table: TokenTable = STANDARD
) -> Message | None:
    """What a client answers to a message that failed to parse with ``error``.

    The answers DAIDE prescribes, by error:

    * :class:`~protocol.daide_errors.BracketError`: ``PRN (message)``, the tokens
      quoted as they came;
    * any other LanguageError (an unknown token, bad grammar, brackets nested
      deeper than :data:`~protocol.expression.MAX_NESTING_DEPTH`):
      ``HUH (message)`` with ``ERR`` inserted before the first bad token
      (``error.index``; at the start when it is unknown);
    * a bad message that is itself a ``HUH`` or ``PRN``: ``None``, as the
      syntax forbids answering those;
    * a message within :data:`QUOTE_TOKENS` tokens of the longest message
      (:data:`~protocol.expression.MAX_MESSAGE_TOKENS`): ``None``, as no reply
      quoting it in full fits in one message.

    (A wire-level violation, e.g. a reserved token or a body over the length
    cap, never gets here: the decoder raises ProtocolViolation, answered with
    the EM code it carries, and the connection closes.)  Works at any length
    and depth, without recursion; the reply quotes the message in full, so it
    is up to :data:`QUOTE_TOKENS` tokens longer than the message.
    """
    if tokens and tokens[0] in (HUH, PRN):
        return None
    if len(tokens) + QUOTE_TOKENS > MAX_MESSAGE_TOKENS:
        return None  # a quote of it cannot be sent: no message is that long
    if isinstance(error, BracketError):
        return Prn(tuple(tokens))
    return huh_for(tokens, error.index, table)


def press_replies(message: Frm) -> tuple[Snd, ...]:
    """The level-0 answer to press: ``SND (sender) (HUH (ERR press))``, ``SND (sender) (TRY ())``.

    Empty when the press is itself a HUH or TRY (which must not be answered);
    the HUH is left out when its quote would not fit in one message.  This is
    :func:`protocol.press_reader.press_answer` at level 0, which needs no token
    table; at a press level, use that.
    """
    press = message.press
    if press and isinstance(press[0], Token) and press[0].number in (HUH, TRY):
        return ()
    err = Token(ERR, "ERR")
    huh = Token(HUH, "HUH")
    try_ = Token(TRY, "TRY")
    refused = Snd((message.sender,), (huh, (err, *press)))
    spoken = Snd((message.sender,), (try_, ()))
    if len(flatten(press)) + QUOTE_TOKENS + SND_TO_ONE_TOKENS > MAX_MESSAGE_TOKENS:
        return (spoken,)
    return (refused, spoken)
