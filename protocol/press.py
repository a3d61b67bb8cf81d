"""DAIDE's press language, levels 10 to 30: typed press messages and arrangements, read and written.

What a power says inside ``SND``/``FRM`` is a *press message* (``PRP``,
``CCL``, ``FCT``, ``TRY``) or a *reply* to one (``YES``, ``REJ``, ``BWX``,
``HUH``); a proposal carries an *arrangement*::

    level 10  PRP (arr)  CCL (press)  FCT (arr)  TRY (tokens)
              YES (press)  REJ (press)  BWX (press)  HUH (press with ERR)
              PCE (powers)  ALY (powers) VSS (powers)  DRW [(powers)]  SLO (power)
              NOT (arr)  NAR (arr)
    level 20  XDO (order)  DMZ (powers) (provinces)
    level 30  AND (arr) (arr) ...  ORR (arr) (arr) ...   (at least two parts, and only
              as the offer itself, PRP (AND ...): inside another arrangement, level 50)

as the DAIDE message syntax gives them (Parlance's ``syntax.html``, and the
later DAIDE document for ``CCL``, ``FCT`` and ``NAR`` at level 10).  Every form
is a frozen dataclass; ``press.to_tokens(table)`` / ``press.to_text(table)``
write it with the game's token table (passed explicitly), and
:func:`press_level` says the lowest level a value needs.

Reading is in :mod:`protocol.press_reader` (:func:`~protocol.press_reader.parse_press`,
:func:`~protocol.press_reader.press_answer`).  Writing checks the caps
(:data:`MAX_PRESS_DEPTH`, :data:`MAX_PARTS`, :data:`MAX_ARRANGEMENTS`) the
reader applies, so nothing we send is press we would refuse ourselves, and
:func:`check_level` checks a value against the game's level before it is sent.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, TypeAlias

from protocol.daide_errors import EncodeError
from protocol.expression import fold, format_tokens
from protocol.messages import Snd
from protocol.notation import write_order
from protocol.tokens import (
    ALY,
    AND,
    BRA,
    BWX,
    CCL,
    DMZ,
    DRW,
    ERR,
    FCT,
    HUH,
    KET,
    NAR,
    NOT,
    ORR,
    PCE,
    PRP,
    REJ,
    SLO,
    TRY,
    VSS,
    XDO,
    YES,
    TokenTable,
)
from protocol.values import Order

# --- levels and caps -------------------------------------------------------------------

NO_PRESS = 0
"""Level 0: no press at all."""
PEACE_LEVEL = 10
"""Level 10: peace, alliances, draws and solos; the press messages and replies."""
ORDERS_LEVEL = 20
"""Level 20: orders (XDO) and demilitarised zones (DMZ)."""
MULTIPART_LEVEL = 30
"""Level 30: AND and ORR, one of them, not nested."""
NESTED_MULTIPART_LEVEL = 50
"""Level 50: AND and ORR nested, or more than one in a message."""
FREE_TEXT_LEVEL = 8000
"""Level 8000: free text as press."""
MIN_MULTIPART = 2
"""An AND or ORR has at least two parts."""
MIN_DRAW_POWERS = 2
"""A draw with a power list names at least two powers."""

MAX_PRESS_DEPTH = 16
"""Press messages and arrangements nested deeper than this are refused (real press: 5 or so)."""
MAX_PARTS = 100
"""Parts one AND or ORR may have (a real one has a few; 34 orders is a whole board)."""
MAX_ARRANGEMENTS = 400
"""Arrangements one message may hold in all."""

PRESS_TOKEN_LEVELS: dict[str, int] = {
    **dict.fromkeys(
        (
            *("PRP", "YES", "REJ", "BWX", "HUH", "CCL", "FCT", "TRY"),
            *("PCE", "ALY", "VSS", "DRW", "SLO", "NOT", "NAR"),
        ),
        PEACE_LEVEL,
    ),
    **dict.fromkeys(("XDO", "DMZ"), ORDERS_LEVEL),
    **dict.fromkeys(("AND", "ORR"), MULTIPART_LEVEL),
    **dict.fromkeys(("SCD", "OCC", "UNT"), 40),
    "CHO": NESTED_MULTIPART_LEVEL,
    **dict.fromkeys(("INS", "QRY", "THK", "IDK", "SUG"), 60),
    **dict.fromkeys(("WHT", "HOW"), 70),
    **dict.fromkeys(("EXP", "SRY"), 80),
    "FOR": 90,
    **dict.fromkeys(("IFF", "THN", "ELS"), 100),
    **dict.fromkeys(("XOY", "YDO"), 110),
    **dict.fromkeys(("FRM", "FWD", "BCC", "SND"), 120),
    **dict.fromkeys(("WHY", "POB"), 130),
}
"""Press token -> the syntax level that introduces it (the DAIDE syntax's list of levels)."""

TRY_TOKENS: tuple[str, ...] = (
    *("PRP", "PCE", "ALY", "VSS", "DRW", "SLO", "NOT", "YES", "REJ", "BWX", "FCT"),
    *("XDO", "DMZ", "AND", "ORR"),
)
"""What we list in ``TRY`` (those the game's level allows): the syntax's TRY list that we read.

``CCL`` and ``NAR``, which we read too, are left out: Parlance's token table
lacks them, and a ``TRY`` naming them would not reach anyone.
"""

TRY_READABLE = frozenset(
    PRESS_TOKEN_LEVELS.keys() | {"CCL", "NAR", "HUH", "TRY", "IOU", "UOM", "PPT"}
)
"""What a TRY may list: any press token, current or removed."""


# --- arrangements ----------------------------------------------------------------------


class _Form:
    """Base of every press form: its leading token and the level the form itself needs."""

    __slots__ = ()
    token: ClassVar[int]
    """The form's first token (``PCE``, ``PRP``...)."""
    needs: ClassVar[int]
    """The lowest syntax level that has this form (its parts may need more)."""

    def to_tokens(self, table: TokenTable) -> tuple[int, ...]:
        """The form's token sequence (EncodeError: a name ``table`` lacks, or past the caps)."""
        _check_caps(self)  # type: ignore[arg-type]
        out: list[int] = []
        _write(out, self, table)  # type: ignore[arg-type]
        return tuple(out)

    def to_text(self, table: TokenTable) -> str:
        """The canonical text form, e.g. ``PRP ( PCE ( ENG FRA ) )``."""
        return format_tokens(self.to_tokens(table), table)


@dataclass(frozen=True, slots=True)
class Peace(_Form):
    """``PCE (power power ...)``: peace between the powers, from now on."""

    powers: tuple[str, ...]
    token: ClassVar[int] = PCE
    needs: ClassVar[int] = PEACE_LEVEL


@dataclass(frozen=True, slots=True)
class Alliance(_Form):
    """``ALY (power ...) VSS (power ...)``: the allies against the enemies, from now on."""

    allies: tuple[str, ...]
    enemies: tuple[str, ...]
    token: ClassVar[int] = ALY
    needs: ClassVar[int] = PEACE_LEVEL


@dataclass(frozen=True, slots=True)
class Draw(_Form):
    """``DRW``, or ``DRW (power power ...)`` (a partial draw, in a PDA game)."""

    powers: tuple[str, ...] | None = None
    token: ClassVar[int] = DRW
    needs: ClassVar[int] = PEACE_LEVEL


@dataclass(frozen=True, slots=True)
class Solo(_Form):
    """``SLO (power)``: a solo for the power."""

    power: str
    token: ClassVar[int] = SLO
    needs: ClassVar[int] = PEACE_LEVEL


@dataclass(frozen=True, slots=True)
class Negation(_Form):
    """``NOT (arrangement)``: the opposite of the arrangement."""

    arrangement: Arrangement
    token: ClassVar[int] = NOT
    needs: ClassVar[int] = PEACE_LEVEL


@dataclass(frozen=True, slots=True)
class NoArrangement(_Form):
    """``NAR (arrangement)``: no arrangement either way (most often, undoing one)."""

    arrangement: Arrangement
    token: ClassVar[int] = NAR
    needs: ClassVar[int] = PEACE_LEVEL


@dataclass(frozen=True, slots=True)
class DoOrder(_Form):
    """``XDO (order)``: the order is given (in the next phase it fits)."""

    order: Order
    token: ClassVar[int] = XDO
    needs: ClassVar[int] = ORDERS_LEVEL


@dataclass(frozen=True, slots=True)
class Demilitarise(_Form):
    """``DMZ (power ...) (province ...)``: the powers keep out of the provinces, from now on."""

    powers: tuple[str, ...]
    provinces: tuple[str, ...]
    token: ClassVar[int] = DMZ
    needs: ClassVar[int] = ORDERS_LEVEL


@dataclass(frozen=True, slots=True)
class AllOf(_Form):
    """``AND (arrangement) (arrangement) ...``: all of them, accepted or rejected together."""

    arrangements: tuple[Arrangement, ...]
    token: ClassVar[int] = AND
    needs: ClassVar[int] = MULTIPART_LEVEL


@dataclass(frozen=True, slots=True)
class AnyOf(_Form):
    """``ORR (arrangement) (arrangement) ...``: at least one of them."""

    arrangements: tuple[Arrangement, ...]
    token: ClassVar[int] = ORR
    needs: ClassVar[int] = MULTIPART_LEVEL


Arrangement: TypeAlias = (
    Peace
    | Alliance
    | Draw
    | Solo
    | Negation
    | NoArrangement
    | DoOrder
    | Demilitarise
    | AllOf
    | AnyOf
)
"""Any arrangement of levels 10 to 30 (nested AND/ORR: level 50)."""


# --- press messages and replies ----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Proposal(_Form):
    """``PRP (arrangement)``: the sender proposes the arrangement."""

    arrangement: Arrangement
    token: ClassVar[int] = PRP
    needs: ClassVar[int] = PEACE_LEVEL


@dataclass(frozen=True, slots=True)
class Cancel(_Form):
    """``CCL (press)``: the sender withdraws a proposal (or its YES) not yet agreed."""

    press: PressMessage | Accept
    token: ClassVar[int] = CCL
    needs: ClassVar[int] = PEACE_LEVEL


@dataclass(frozen=True, slots=True)
class Fact(_Form):
    """``FCT (arrangement)``: the arrangement is true (no reply expected)."""

    arrangement: Arrangement
    token: ClassVar[int] = FCT
    needs: ClassVar[int] = PEACE_LEVEL


@dataclass(frozen=True, slots=True)
class Try(_Form):
    """``TRY (token ...)``: the press tokens the sender understands (possibly none)."""

    tokens: tuple[str, ...] = ()
    token: ClassVar[int] = TRY
    needs: ClassVar[int] = PEACE_LEVEL


@dataclass(frozen=True, slots=True)
class Accept(_Form):
    """``YES (press)``: acceptance of a received press message."""

    press: PressMessage
    token: ClassVar[int] = YES
    needs: ClassVar[int] = PEACE_LEVEL


@dataclass(frozen=True, slots=True)
class Reject(_Form):
    """``REJ (press)``: rejection of a received press message."""

    press: PressMessage
    token: ClassVar[int] = REJ
    needs: ClassVar[int] = PEACE_LEVEL


@dataclass(frozen=True, slots=True)
class Decline(_Form):
    """``BWX (press)``: no answer: none of the sender's business."""

    press: PressMessage
    token: ClassVar[int] = BWX
    needs: ClassVar[int] = PEACE_LEVEL


@dataclass(frozen=True, slots=True)
class Puzzled(_Form):
    """``HUH (press)``: the press was not understood; ``body`` quotes it with ``ERR`` inside.

    ``body`` is kept as raw token numbers: it is whatever came, plus ERR.
    """

    body: tuple[int, ...]
    token: ClassVar[int] = HUH
    needs: ClassVar[int] = PEACE_LEVEL

    @property
    def error_index(self) -> int | None:
        """Where ``ERR`` stands in ``body`` (None if it has none)."""
        return self.body.index(ERR) if ERR in self.body else None


PressMessage: TypeAlias = Proposal | Cancel | Fact | Try
"""A press message: what a power says first."""
Reply: TypeAlias = Accept | Reject | Decline | Puzzled
"""A reply to a press message."""
Press: TypeAlias = PressMessage | Reply
"""Anything inside the last brackets of SND and FRM."""
Form: TypeAlias = Press | Arrangement
"""Any value of this module."""


# --- what a value needs ------------------------------------------------------------------


def _children(form: Form) -> tuple[Form, ...]:
    if isinstance(form, AllOf | AnyOf):
        return form.arrangements
    if isinstance(form, Negation | NoArrangement | Proposal | Fact):
        return (form.arrangement,)
    if isinstance(form, Cancel | Accept | Reject | Decline):
        return (form.press,)
    return ()


def _walk(form: Form) -> tuple[int, int, int]:
    """(level of the forms, deepest nesting, arrangement count), iteratively."""
    level = NO_PRESS
    deepest = arrangements = 0
    stack: list[tuple[Form, int, bool]] = [(form, 1, False)]
    while stack:
        item, depth, offer = stack.pop()
        level = max(level, item.needs)
        deepest = max(deepest, depth)
        if isinstance(item, AllOf | AnyOf):
            if not offer:  # level 30 has AND/ORR only as the offer of a PRP or FCT
                level = max(level, NESTED_MULTIPART_LEVEL)
            if len(item.arrangements) > MAX_PARTS:
                deepest = max(deepest, MAX_PRESS_DEPTH + 1)  # reported as over the caps
        if not isinstance(item, PressMessage | Reply):
            arrangements += 1
        if depth <= MAX_PRESS_DEPTH:  # a value deeper than the cap is refused anyway
            carries = isinstance(item, Proposal | Fact)
            stack.extend((child, depth + 1, carries) for child in _children(item))
    return level, deepest, arrangements


def press_level(form: Form) -> int:
    """The lowest syntax level at which ``form`` may be sent.

    The largest level of its parts; 50 for an AND/ORR that is not the offer
    of a PRP or FCT itself (level 30 has them only as ``PRP (AND ...)``).
    """
    return _walk(form)[0]


def _check_caps(form: Form) -> None:
    _, deepest, arrangements = _walk(form)
    if deepest > MAX_PRESS_DEPTH:
        raise EncodeError(
            f"press nested deeper than {MAX_PRESS_DEPTH} levels or an AND/ORR of more "
            f"than {MAX_PARTS} parts"
        )
    if arrangements > MAX_ARRANGEMENTS:
        raise EncodeError(f"press of more than {MAX_ARRANGEMENTS} arrangements")


# --- writing --------------------------------------------------------------------------------


def _names(out: list[int], names: Sequence[str], table: TokenTable, at_least: int = 1) -> None:
    if len(names) < at_least:
        raise EncodeError(f"a list of {len(names)} names where the syntax needs {at_least}")
    out.append(BRA)
    out.extend(table.number(name) for name in names)
    out.append(KET)


def _inner(out: list[int], form: Form, table: TokenTable) -> None:
    out.append(BRA)
    _write(out, form, table)
    out.append(KET)


def _write(out: list[int], form: Form, table: TokenTable) -> None:
    """Append ``form``'s tokens (its depth was checked: the recursion is bounded)."""
    out.append(form.token)
    if isinstance(form, Peace):
        _names(out, form.powers, table)
    elif isinstance(form, Alliance):
        _names(out, form.allies, table)
        out.append(VSS)
        _names(out, form.enemies, table)
    elif isinstance(form, Draw):
        if form.powers is not None:
            _names(out, form.powers, table, MIN_DRAW_POWERS)
    elif isinstance(form, Solo):
        _names(out, (form.power,), table)
    elif isinstance(form, DoOrder):
        out.append(BRA)
        write_order(out, form.order, table)
        out.append(KET)
    elif isinstance(form, Demilitarise):
        _names(out, form.powers, table)
        _names(out, form.provinces, table)
    elif isinstance(form, Try):
        unknown = [name for name in form.tokens if name not in TRY_READABLE]
        if unknown:
            raise EncodeError(f"TRY lists tokens that are not press: {' '.join(unknown)}")
        _names(out, form.tokens, table, 0)
    elif isinstance(form, Puzzled):
        out.append(BRA)
        out += form.body
        out.append(KET)
    else:
        children = _children(form)
        if isinstance(form, AllOf | AnyOf) and len(children) < MIN_MULTIPART:
            raise EncodeError(f"an AND/ORR of {len(children)} parts (it needs {MIN_MULTIPART})")
        for child in children:
            _inner(out, child, table)


def check_level(form: Form, level: int) -> None:
    """Raise EncodeError if ``form`` needs a syntax level above ``level`` (before sending it)."""
    needed = press_level(form)
    if needed > level:
        raise EncodeError(f"this press needs level {needed}, the game is at level {level}")


# --- sending and answering ------------------------------------------------------------------


def press_snd(recipients: Sequence[str], press: Press, table: TokenTable) -> Snd:
    """``SND (recipients) (press)``: the message that sends ``press``."""
    return Snd(tuple(recipients), fold(press.to_tokens(table), table))
