"""Reading DAIDE press at a game's syntax level, and the answer DAIDE prescribes to press refused.

:func:`parse_press` (tokens, or FRM's raw expression) and :func:`parse_press_text`
turn press into the values of :mod:`protocol.press`, at the game's level and
with its token table.  They are safe on anything: a value, or a
:class:`~protocol.daide_errors.LanguageError` whose ``index`` is where ``ERR``
goes in the ``HUH``:

* :class:`~protocol.daide_errors.PressLevelError` for a form above the game's
  level (``.needed`` is the level it needs);
* :class:`~protocol.daide_errors.UnsupportedPressError` for a form the level
  allows that we do not speak (``SCD`` at level 40...);
* :class:`~protocol.daide_errors.PressLimitError` past the caps
  (:data:`~protocol.press.MAX_PRESS_DEPTH` levels of nesting,
  :data:`~protocol.press.MAX_PARTS` parts in one ``AND``/``ORR``,
  :data:`~protocol.press.MAX_ARRANGEMENTS` arrangements in a message).  The
  parser recurses, but never deeper than the depth cap, and stops at the first
  part over a count cap: an ``AND`` of 10,000 offers or a ``NOT`` chain 1,000
  deep is refused at once;
* :class:`~protocol.daide_errors.UnknownTokenError` for a power or province not
  on the game's map, :class:`~protocol.daide_errors.GrammarError` for anything
  else malformed (a bracket error, for tokens fed directly, is a BracketError).

:func:`press_answer` gives the replies to press we refuse:
``SND (sender) (HUH (... ERR ...))`` and ``SND (sender) (TRY (tokens we speak))``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NoReturn, TypeAlias

from protocol.daide_errors import (
    LanguageError,
    PressLevelError,
    PressLimitError,
    UnsupportedPressError,
)
from protocol.expression import (
    MAX_MESSAGE_TOKENS,
    check_nesting,
    flatten,
    fold,
    tokenize,
)
from protocol.messages import SND_TO_ONE_TOKENS, Frm, Snd
from protocol.notation import read_order
from protocol.press import (
    FREE_TEXT_LEVEL,
    MAX_ARRANGEMENTS,
    MAX_PARTS,
    MAX_PRESS_DEPTH,
    MIN_DRAW_POWERS,
    MIN_MULTIPART,
    MULTIPART_LEVEL,
    NESTED_MULTIPART_LEVEL,
    ORDERS_LEVEL,
    PEACE_LEVEL,
    PRESS_TOKEN_LEVELS,
    TRY_READABLE,
    TRY_TOKENS,
    Accept,
    Alliance,
    AllOf,
    AnyOf,
    Arrangement,
    Cancel,
    Decline,
    Demilitarise,
    DoOrder,
    Draw,
    Fact,
    Form,
    Negation,
    NoArrangement,
    Peace,
    Press,
    PressMessage,
    Proposal,
    Puzzled,
    Reject,
    Solo,
    Try,
)
from protocol.reader import TokenReader
from protocol.tokens import (
    ALY,
    AND,
    BRA,
    BWX,
    CAT_TEXT,
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

# --- reading --------------------------------------------------------------------------------


class _Context:
    """What one parse knows: the game's level, the arrangements so far, where an offer starts."""

    __slots__ = ("arrangements", "level", "offer")

    def __init__(self, level: int) -> None:
        self.level = level
        self.arrangements = 0
        self.offer = -1
        """Index of the arrangement a PRP or FCT carries (where a level-30 AND/ORR may stand)."""


def _token_name(r: TokenReader, number: int) -> str:
    return r.table.name(number) or f"0x{number:04X}"


def _require(ctx: _Context, needed: int, what: str, index: int) -> None:
    if needed > ctx.level:
        raise PressLevelError(what, index, needed=needed, level=ctx.level)


def _unspoken(r: TokenReader, ctx: _Context, what: str) -> NoReturn:
    """Fail on the next token, which is not a form we read here: say why, by level."""
    index = r.pos
    number = r.peek()
    if number >> 8 == CAT_TEXT:
        name = "free text"
        needed: int | None = FREE_TEXT_LEVEL
    else:
        name = r.table.name(number) or ""
        needed = PRESS_TOKEN_LEVELS.get(name)
    if needed is None or needed <= MULTIPART_LEVEL:  # not press, or press we read elsewhere
        r.fail(f"expected {what}")
    _require(ctx, needed, name, index)
    raise UnsupportedPressError(f"{name} is press this client does not speak", index)


def _depth(r: TokenReader, depth: int) -> None:
    if depth > MAX_PRESS_DEPTH:
        raise PressLimitError(f"press nested deeper than {MAX_PRESS_DEPTH} levels", r.pos)


def _powers(r: TokenReader) -> tuple[str, ...]:
    """``(power power ...)``: one power at least."""
    r.open()
    powers = r.powers_until_close()
    if not powers:
        r.fail("expected a power")
    r.close()
    return powers


def _draw_powers(r: TokenReader) -> tuple[str, ...]:
    """A draw's ``(power power power ...)``: too few, and ERR goes before the ``(``.

    ``DRW`` alone is a whole offer, so what cannot follow it is the list
    itself (where Parlance's checker puts ERR too).
    """
    start = r.pos
    r.open()
    powers = r.powers_until_close()
    if len(powers) < MIN_DRAW_POWERS:
        r.fail(f"expected at least {MIN_DRAW_POWERS} powers in a draw", start)
    r.close()
    return powers


_Reader: TypeAlias = Callable[[TokenReader, _Context, int], Form]


def _group(r: TokenReader, read: _Reader, ctx: _Context, depth: int) -> Form:
    r.open()
    value = read(r, ctx, depth)
    r.close()
    return value


def _arrangement(r: TokenReader, ctx: _Context, depth: int) -> Arrangement:
    """One arrangement (inside its brackets)."""
    _depth(r, depth)
    index = r.pos
    number = r.peek()
    if number not in _ARRANGEMENT_TOKENS:
        _unspoken(r, ctx, "an arrangement")
    needed = _ARRANGEMENT_TOKENS[number]
    if number in (AND, ORR) and index != ctx.offer:  # below 50, AND/ORR only as the offer
        needed = NESTED_MULTIPART_LEVEL
    _require(ctx, needed, _token_name(r, number), index)
    ctx.arrangements += 1
    if ctx.arrangements > MAX_ARRANGEMENTS:
        raise PressLimitError(f"press of more than {MAX_ARRANGEMENTS} arrangements", index)
    r.take()
    if number == PCE:
        return Peace(_powers(r))
    if number == ALY:
        allies = _powers(r)
        r.expect(VSS, "VSS")
        return Alliance(allies, _powers(r))
    if number == DRW:
        return Draw(_draw_powers(r) if r.peek() == BRA else None)
    if number == SLO:
        r.open()
        power = r.power()
        r.close()
        return Solo(power)
    if number == XDO:
        r.open()
        order = read_order(r)
        r.close()
        return DoOrder(order)
    if number == DMZ:
        powers = _powers(r)
        r.open()
        provinces = r.provinces_until_close()
        if not provinces:
            r.fail("expected a province")
        r.close()
        return Demilitarise(powers, provinces)
    if number in (NOT, NAR):
        inner = _group(r, _arrangement, ctx, depth + 1)
        return Negation(inner) if number == NOT else NoArrangement(inner)  # type: ignore[arg-type]
    return _multipart(r, ctx, depth, number)


def _multipart(r: TokenReader, ctx: _Context, depth: int, number: int) -> Arrangement:
    """``AND``/``ORR`` (``number``, just read) and its parts.

    Below level 50 it must be the offer itself (``PRP (AND ...)``, Parlance's
    ``multipart_offer``); inside another arrangement it needs 50 (checked by
    the caller, before the token is taken).
    """
    parts: list[Arrangement] = []
    while r.more():
        if len(parts) == MAX_PARTS:
            raise PressLimitError(f"an AND/ORR of more than {MAX_PARTS} parts", r.pos)
        parts.append(_group(r, _arrangement, ctx, depth + 1))  # type: ignore[arg-type]
    if len(parts) < MIN_MULTIPART:
        r.fail(f"expected at least {MIN_MULTIPART} arrangements")
    return AllOf(tuple(parts)) if number == AND else AnyOf(tuple(parts))


def _press_message(r: TokenReader, ctx: _Context, depth: int) -> PressMessage:
    """PRP, CCL, FCT or TRY (inside its brackets)."""
    _depth(r, depth)
    index = r.pos
    number = r.peek()
    if number not in _MESSAGE_TOKENS:
        _unspoken(r, ctx, "a press message (PRP CCL FCT TRY)")
    _require(ctx, PEACE_LEVEL, _token_name(r, number), index)
    r.take()
    if number == TRY:
        return Try(_try_tokens(r))
    if number == CCL:
        r.open()
        inner = _accept(r, ctx, depth + 1) if r.peek() == YES else _press_message(r, ctx, depth + 1)
        r.close()
        return Cancel(inner)
    ctx.offer = r.pos + 1
    arrangement: Arrangement = _group(r, _arrangement, ctx, depth + 1)  # type: ignore[assignment]
    return Proposal(arrangement) if number == PRP else Fact(arrangement)


def _accept(r: TokenReader, ctx: _Context, depth: int) -> Accept:
    r.take()
    return Accept(_group(r, _press_message, ctx, depth + 1))  # type: ignore[arg-type]


def _try_tokens(r: TokenReader) -> tuple[str, ...]:
    r.open()
    names = []
    while not r.at_close():
        name = r.table.name(r.peek())
        if name is None or name not in TRY_READABLE:
            r.fail("expected a press token")
        names.append(name)
        r.take()
    r.close()
    return tuple(names)


def _press(r: TokenReader, ctx: _Context) -> Press:
    """A whole press message or reply."""
    number = r.peek()
    if ctx.level < PEACE_LEVEL:
        raise PressLevelError("press", r.pos, needed=PEACE_LEVEL, level=ctx.level)
    if number in (YES, REJ, BWX):
        r.take()
        inner = _group(r, _press_message, ctx, _TOP + 1)
        if number == YES:
            return Accept(inner)  # type: ignore[arg-type]
        return Reject(inner) if number == REJ else Decline(inner)  # type: ignore[arg-type]
    if number == HUH:
        r.take()
        stop = r.group_end()
        body = tuple(r.tokens[r.pos + 1 : stop])
        r.pos = stop + 1
        return Puzzled(body)
    return _press_message(r, ctx, _TOP)


_TOP = 1
"""The nesting depth of the whole press (a reply's press message is one deeper)."""
_ARRANGEMENT_TOKENS: dict[int, int] = {
    **dict.fromkeys((PCE, ALY, DRW, SLO, NOT, NAR), PEACE_LEVEL),
    **dict.fromkeys((XDO, DMZ), ORDERS_LEVEL),
    **dict.fromkeys((AND, ORR), MULTIPART_LEVEL),
}
_MESSAGE_TOKENS = frozenset({PRP, CCL, FCT, TRY})


def parse_press(tokens: Sequence[int], level: int, table: TokenTable) -> Press:
    """The typed press of a token sequence at syntax ``level`` (the game's ``LVL``).

    Raises only LanguageError subclasses, for any token numbers (see the
    module docstring); ``error.index`` is a position in ``tokens``.
    """
    check_nesting(tokens)
    r = TokenReader(tokens, table)
    if r.at_end():
        r.fail("expected press")
    result = _press(r, _Context(level))
    r.end()
    return result


def parse_frm_press(frm: Frm, level: int, table: TokenTable) -> Press:
    """The typed press a received ``FRM`` carries (its raw expression, parsed)."""
    return parse_press(flatten(frm.press), level, table)


def parse_press_text(text: str, level: int, table: TokenTable) -> Press:
    """The typed press of a text form, e.g. ``parse_press_text("PRP (DRW)", 10, table)``."""
    return parse_press(tokenize(text, table), level, table)


def spoken_tokens(level: int) -> tuple[str, ...]:
    """The press tokens we list in ``TRY`` at a game of syntax ``level`` (none at level 0)."""
    return tuple(name for name in TRY_TOKENS if PRESS_TOKEN_LEVELS[name] <= level)


def press_answer(frm: Frm, level: int, table: TokenTable) -> tuple[Snd, ...]:
    """What DAIDE prescribes to answer ``frm`` with, when its press is refused at ``level``.

    Empty when the press is understood (answering it is the negotiator's
    business), and for a ``HUH`` or ``TRY``, which are never answered.  Else
    ``SND (sender) (HUH (press with ERR before the first token not understood))``
    and ``SND (sender) (TRY (tokens we speak at this level))``; the HUH is left
    out when quoting the press would not fit in one message.
    """
    tokens = flatten(frm.press)
    if tokens and tokens[0] in (HUH, TRY):
        return ()
    try:
        parse_press(tokens, level, table)
    except LanguageError as error:
        at = 0 if error.index is None else max(0, min(error.index, len(tokens)))
    else:
        return ()
    sender = (frm.sender,)
    spoken = Try(spoken_tokens(level))
    replies = []
    huh = (HUH, BRA, *tokens[:at], ERR, *tokens[at:], KET)
    if len(huh) + SND_TO_ONE_TOKENS <= MAX_MESSAGE_TOKENS:
        replies.append(Snd(sender, fold(huh, table)))
    replies.append(Snd(sender, fold(spoken.to_tokens(table), table)))
    return tuple(replies)
