"""The DAIDE notation of the plain values: locations, units, turns, orders, positions, centres.

Two layers, usable on their own (the adjudicator's DAIDE entry point and the
DATC table use the text functions):

* ``read_*(reader)`` / ``write_*(out, value, table)``: read a value from a
  :class:`~protocol.reader.TokenReader`, or append its tokens to a list;
  the message parsers are built from these;
* ``parse_*(text)`` / ``format_*(value)``: the same through the text form,
  e.g. ``parse_order("(ENG FLT NTH) MTO PIC")``, ``parse_unit("RUS FLT (STP SCS)")``,
  ``parse_unit_position("ENG FLT NTH MRT (LON YOR)")``, ``parse_turn("SPR 1901")``.
  A text may also be wrapped in one pair of brackets, as it appears inside a
  message (``"(ENG FLT NTH)"``, ``"((ENG FLT NTH) HLD)"``, ``"(ENG WVE)"``).

Every ``parse_*`` raises only :class:`~protocol.daide_errors.LanguageError`
subclasses; every ``write_*`` / ``format_*`` raises only
:class:`~protocol.daide_errors.EncodeError` (a name the token table does not know).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, TypeVar

from protocol.daide_errors import EncodeError
from protocol.expression import format_tokens, tokenize
from protocol.reader import END, TokenReader
from protocol.tokens import (
    AMY,
    BLD,
    BRA,
    CTO,
    CVY,
    DSB,
    FLT,
    HLD,
    KET,
    MRT,
    MTO,
    REM,
    RTO,
    STANDARD,
    SUP,
    VIA,
    WVE,
    TokenTable,
    integer_token,
)
from protocol.values import (
    Build,
    Convoy,
    Disband,
    Hold,
    Location,
    Move,
    MoveByConvoy,
    Order,
    Remove,
    Retreat,
    Season,
    SupportHold,
    SupportMove,
    Turn,
    Unit,
    UnitPosition,
    UnitType,
    Waive,
)

Centres = tuple[tuple[str, tuple[str, ...]], ...]
"""Supply-centre ownership as SCO lists it: (power or UNO, centres) pairs."""

T = TypeVar("T")

_SEASON_TOKENS = {season: 0x4700 + i for i, season in enumerate(Season)}
_UNIT_TYPE_TOKENS = {UnitType.ARMY: AMY, UnitType.FLEET: FLT}

# --- reading -------------------------------------------------------------------


def read_order(r: TokenReader) -> Order:
    """An order's items: ``(unit) MTO province``, ``power WVE``... (inside its brackets)."""
    if r.peek() != BRA:
        power = r.power()
        r.expect(WVE, "WVE after a power")
        return Waive(power)
    unit = r.unit()
    index = r.pos
    op = r.take()
    if op == HLD:
        return Hold(unit)
    if op == MTO:
        return Move(unit, r.location())
    if op == SUP:
        supported = r.unit()
        if r.accept(MTO):
            target = r.location()  # a coast is outside DAIDE's syntax, but Parlance accepts it
            return SupportMove(unit, supported, target.province, target.coast)
        return SupportHold(unit, supported)
    if op == CVY:
        army = r.unit()
        r.expect(CTO, "CTO")
        return Convoy(unit, army, r.province())
    if op == CTO:
        destination = r.province()
        if not r.accept(VIA):  # no path: Parlance lets the server find the route
            return MoveByConvoy(unit, destination, ())
        r.open()
        path = [r.province()]
        while not r.at_close():
            path.append(r.province())
        r.close()
        return MoveByConvoy(unit, destination, tuple(path))
    if op == RTO:
        return Retreat(unit, r.location())
    if op == DSB:
        return Disband(unit)
    if op == BLD:
        return Build(unit)
    if op == REM:
        return Remove(unit)
    r.fail("expected an order type (HLD MTO SUP CVY CTO RTO DSB BLD REM)", index)


def read_unit_position(r: TokenReader) -> UnitPosition:
    """``power unit_type location [MRT (location ...)]`` (inside the unit's brackets)."""
    unit = r.unit_body()
    if not r.accept(MRT):
        return UnitPosition(unit)
    r.open()
    retreats = []
    while not r.at_close():
        retreats.append(r.location())
    r.close()
    return UnitPosition(unit, tuple(retreats))


def read_unit_positions(r: TokenReader) -> tuple[UnitPosition, ...]:
    """``(unit) (unit MRT (...)) ...`` up to the end of the message."""
    units = []
    while not r.at_end():
        r.open()
        units.append(read_unit_position(r))
        r.close()
    return tuple(units)


def read_centres(r: TokenReader) -> Centres:
    """``(power centre ...) (UNO centre ...) ...`` up to the end of the message."""
    centres = []
    while not r.at_end():
        r.open()
        power = r.power_or_uno()
        centres.append((power, r.provinces_until_close()))
        r.close()
    return tuple(centres)


# --- writing -------------------------------------------------------------------


def _number(table: TokenTable, name: str) -> int:
    number = table.lookup(name)
    if number is None:
        raise EncodeError(f"no token called {name!r} in this token table")
    return number


def write_location(out: list[int], location: Location, table: TokenTable) -> None:
    """Append ``province`` or ``( province coast )``."""
    if location.coast is None:
        out.append(_number(table, location.province))
    else:
        out += (BRA, _number(table, location.province), _number(table, location.coast), KET)


def write_unit_body(out: list[int], unit: Unit, table: TokenTable) -> None:
    """Append ``power unit_type location``."""
    out.append(_number(table, unit.power))
    out.append(_UNIT_TYPE_TOKENS[unit.kind])
    write_location(out, unit.location, table)


def write_unit(out: list[int], unit: Unit, table: TokenTable) -> None:
    """Append ``( power unit_type location )``."""
    out.append(BRA)
    write_unit_body(out, unit, table)
    out.append(KET)


def write_turn_body(out: list[int], turn: Turn, table: TokenTable) -> None:
    """Append ``season year``."""
    out.append(_SEASON_TOKENS[turn.season])
    out.append(integer_token(turn.year))


def write_turn(out: list[int], turn: Turn, table: TokenTable) -> None:
    """Append ``( season year )``."""
    out.append(BRA)
    write_turn_body(out, turn, table)
    out.append(KET)


def _write_hold(out: list[int], o: Hold, table: TokenTable) -> None:
    write_unit(out, o.unit, table)
    out.append(HLD)


def _write_move(out: list[int], o: Move, table: TokenTable) -> None:
    write_unit(out, o.unit, table)
    out.append(MTO)
    write_location(out, o.destination, table)


def _write_support_hold(out: list[int], o: SupportHold, table: TokenTable) -> None:
    write_unit(out, o.unit, table)
    out.append(SUP)
    write_unit(out, o.supported, table)


def _write_support_move(out: list[int], o: SupportMove, table: TokenTable) -> None:
    write_unit(out, o.unit, table)
    out.append(SUP)
    write_unit(out, o.supported, table)
    out.append(MTO)
    if o.coast is None:
        out.append(_number(table, o.destination))
    else:
        out += (BRA, _number(table, o.destination), _number(table, o.coast), KET)


def _write_convoy(out: list[int], o: Convoy, table: TokenTable) -> None:
    write_unit(out, o.unit, table)
    out.append(CVY)
    write_unit(out, o.army, table)
    out.append(CTO)
    out.append(_number(table, o.destination))


def _write_move_by_convoy(out: list[int], o: MoveByConvoy, table: TokenTable) -> None:
    write_unit(out, o.unit, table)
    out.append(CTO)
    out.append(_number(table, o.destination))
    if o.path:
        out.append(VIA)
        out.append(BRA)
        out.extend(_number(table, sea) for sea in o.path)
        out.append(KET)


def _write_retreat(out: list[int], o: Retreat, table: TokenTable) -> None:
    write_unit(out, o.unit, table)
    out.append(RTO)
    write_location(out, o.destination, table)


def _unit_then(token: int) -> Callable[[list[int], Disband | Build | Remove, TokenTable], None]:
    def write(out: list[int], o: Disband | Build | Remove, table: TokenTable) -> None:
        write_unit(out, o.unit, table)
        out.append(token)

    return write


def _write_waive(out: list[int], o: Waive, table: TokenTable) -> None:
    out.append(_number(table, o.power))
    out.append(WVE)


_ORDER_WRITERS: dict[type, Callable[[list[int], Any, TokenTable], None]] = {
    Hold: _write_hold,
    Move: _write_move,
    SupportHold: _write_support_hold,
    SupportMove: _write_support_move,
    Convoy: _write_convoy,
    MoveByConvoy: _write_move_by_convoy,
    Retreat: _write_retreat,
    Disband: _unit_then(DSB),
    Build: _unit_then(BLD),
    Remove: _unit_then(REM),
    Waive: _write_waive,
}


def write_order(out: list[int], order: Order, table: TokenTable) -> None:
    """Append an order's items (without the brackets around the whole order)."""
    writer = _ORDER_WRITERS.get(type(order))
    if writer is None:
        raise EncodeError(f"{order!r} is not an order")
    writer(out, order, table)


def write_unit_position(out: list[int], position: UnitPosition, table: TokenTable) -> None:
    """Append ``( unit [MRT ( location ... )] )``."""
    out.append(BRA)
    write_unit_body(out, position.unit, table)
    if position.retreats is not None:
        out.append(MRT)
        out.append(BRA)
        for location in position.retreats:
            write_location(out, location, table)
        out.append(KET)
    out.append(KET)


def write_centres(out: list[int], centres: Centres, table: TokenTable) -> None:
    """Append ``( power centre ... ) ...``."""
    for power, owned in centres:
        out.append(BRA)
        out.append(_number(table, power))
        out.extend(_number(table, centre) for centre in owned)
        out.append(KET)


# --- text ----------------------------------------------------------------------


def _unwrapped(tokens: tuple[int, ...]) -> int:
    """1 if the whole sequence is one bracketed group (so the parse starts inside it), else 0."""
    if len(tokens) < 2 or tokens[0] != BRA or tokens[-1] != KET:
        return 0
    depth = 0
    for index, number in enumerate(tokens):
        if number == BRA:
            depth += 1
        elif number == KET:
            depth -= 1
            if not depth:
                return 1 if index == len(tokens) - 1 else 0
    return 0


def _parse_text(
    text: str, table: TokenTable, read: Callable[[TokenReader], T], unwrap: bool = True
) -> T:
    tokens = tokenize(text, table)
    inner = _unwrapped(tokens) if unwrap else 0
    r = TokenReader(tokens, table, start=inner)
    value = read(r)
    if inner:
        r.close()
    r.end()
    return value


def parse_location(text: str, table: TokenTable = STANDARD) -> Location:
    """``"STP"`` or ``"(STP NCS)"`` -> Location."""
    return _parse_text(text, table, TokenReader.location, unwrap=False)


def parse_unit(text: str, table: TokenTable = STANDARD) -> Unit:
    """``"ENG FLT NTH"``, ``"(ENG FLT NTH)"``, ``"RUS FLT (STP SCS)"`` -> Unit."""
    return _parse_text(text, table, TokenReader.unit_body)


def parse_unit_position(text: str, table: TokenTable = STANDARD) -> UnitPosition:
    """``"ENG FLT NTH"`` or ``"ENG FLT NTH MRT (LON YOR)"`` (as NOW lists units) -> UnitPosition."""
    return _parse_text(text, table, read_unit_position)


def parse_turn(text: str, table: TokenTable = STANDARD) -> Turn:
    """``"SPR 1901"`` or ``"(SPR 1901)"`` -> Turn."""
    return _parse_text(text, table, TokenReader.turn_body)


def parse_order(text: str, table: TokenTable = STANDARD) -> Order:
    """An order as SUB/ORD/THX write it: ``"(ENG FLT NTH) MTO PIC"``, ``"ENG WVE"``..."""
    return _parse_text(text, table, read_order)


def parse_centres(text: str, table: TokenTable = STANDARD) -> Centres:
    """An SCO body, ``"(AUS BUD TRI VIE) ... (UNO BEL ...)"`` -> (power, centres) pairs."""
    return _parse_text(text, table, read_centres, unwrap=False)


def parse_unit_positions(text: str, table: TokenTable = STANDARD) -> tuple[UnitPosition, ...]:
    """The units of a NOW body, ``"(ENG FLT NTH) (RUS FLT (STP SCS)) ..."``."""
    return _parse_text(text, table, read_unit_positions, unwrap=False)


def parse_results(text: str, table: TokenTable = STANDARD) -> tuple[str, ...]:
    """Result tokens as ORD lists them, ``"SUC"``, ``"BNC RET"``, ``"(CUT RET)"`` -> names."""

    def read(r: TokenReader) -> tuple[str, ...]:
        results = [r.token_of(0x45, "a result")]
        while r.peek() not in (END, KET):
            results.append(r.token_of(0x45, "a result"))
        return tuple(results)

    return _parse_text(text, table, read)


def _format(write: Callable[[list[int], T, TokenTable], None], value: T, table: TokenTable) -> str:
    out: list[int] = []
    write(out, value, table)
    return format_tokens(out, table)


def format_location(location: Location, table: TokenTable = STANDARD) -> str:
    """``STP`` or ``( STP NCS )``."""
    return _format(write_location, location, table)


def format_unit(unit: Unit, table: TokenTable = STANDARD) -> str:
    """``ENG FLT NTH`` (no outer brackets), ``RUS FLT ( STP SCS )``."""
    return _format(write_unit_body, unit, table)


def format_unit_position(position: UnitPosition, table: TokenTable = STANDARD) -> str:
    """``ENG FLT NTH`` or ``ENG FLT NTH MRT ( LON YOR )`` (no outer brackets)."""
    out: list[int] = []
    write_unit_position(out, position, table)
    return format_tokens(out[1:-1], table)


def format_turn(turn: Turn, table: TokenTable = STANDARD) -> str:
    """``SPR 1901``."""
    return _format(write_turn_body, turn, table)


def format_order(order: Order, table: TokenTable = STANDARD) -> str:
    """``( ENG FLT NTH ) MTO PIC``, ``ENG WVE``."""
    return _format(write_order, order, table)


def format_centres(centres: Centres, table: TokenTable = STANDARD) -> str:
    """``( AUS BUD TRI VIE ) ... ( UNO BEL ... )``."""
    return _format(write_centres, centres, table)


def order_tokens(order: Order, table: TokenTable = STANDARD) -> tuple[int, ...]:
    """An order's token sequence (without outer brackets)."""
    out: list[int] = []
    write_order(out, order, table)
    return tuple(out)


def unit_tokens(unit: Unit, table: TokenTable = STANDARD) -> tuple[int, ...]:
    """A unit's token sequence, with its brackets."""
    out: list[int] = []
    write_unit(out, unit, table)
    return tuple(out)


def order_text(order: Order) -> str:
    """``order`` in DAIDE text with the names it holds, e.g. ``( ENG FLT LON ) MTO NTH``.

    No game's table is needed: the order's own powers and provinces make one
    (:meth:`TokenTable.of_names`), so the text is the same whatever the map.
    """
    powers: list[str] = []
    provinces: list[str] = []
    _collect_names(order, powers, provinces)
    return format_order(order, TokenTable.of_names(powers, provinces))


def _collect_names(value: object, powers: list[str], provinces: list[str]) -> None:
    if isinstance(value, Unit):
        powers.append(value.power)
        provinces.append(value.location.province)
    elif isinstance(value, Location):
        provinces.append(value.province)
    elif isinstance(value, tuple):
        for item in value:
            _collect_names(item, powers, provinces)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            _collect_names(getattr(value, field.name), powers, provinces)
