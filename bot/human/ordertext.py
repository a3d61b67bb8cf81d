"""Orders in the usual notation, as a person types them: ``A PAR - BUR``, ``F NTH C A LON - NWY``.

:func:`parse_order_text` reads one order for a phase's position into the value
order the server is sent (the units' powers and coasts come from the
position); :func:`bot.toolkit.order_words.format_order_text` writes a value order back in the same
notation, so ``parse(format(o)) == o`` for every legal order.  The grammar
(case does not matter; ``/`` or parentheses give a coast: ``STP/NC``,
``SPA(SC)``)::

    A PAR H                      hold (also HOLD)
    A PAR - BUR                  move (an army's move over sea is by convoy)
    A LON - NWY VIA NTH          move by convoy along the named fleets
    A BUR S A PAR                support to hold (an ``H`` at the end is allowed)
    A BUR S A PAR - MAR          support to move
    F NTH C A LON - NWY          convoy
    A MUN R BOH  /  A MUN - BOH  retreat (in a retreat phase)
    A MUN D                      disband (retreats) or remove (winter); also DISBAND
    BUILD A PAR  /  F STP/NC B   build
    REMOVE A PAR                 remove
    WAIVE                        waive a build

The unit's kind letter may be left out (``PAR - BUR``); when given it must be
the unit's.  Whether the order is *legal* is not decided here but by
:mod:`bot.client.core.person`; a text that is not an order at all, or names a unit
that is not there or not the seat's, is an :class:`OrderTextError` with a
one-line reason.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from adjudicator.position import Position
from bot.client.core.person import PersonChoices
from bot.toolkit.order_words import COASTS
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
    SupportHold,
    SupportMove,
    Unit,
    UnitType,
    Waive,
)

KIND_LETTERS = {"A": UnitType.ARMY, "F": UnitType.FLEET}

MAX_TEXT = 120
"""The longest order text read (a real order is far shorter)."""

_WORDS = {
    "HOLD": "H",
    "HOLDS": "H",
    "SUPPORT": "S",
    "SUPPORTS": "S",
    "CONVOY": "C",
    "CONVOYS": "C",
    "RETREAT": "R",
    "DISBAND": "D",
    "BUILD": "B",
    "REMOVE": "REMOVE",
    "WAIVE": "WAIVE",
    "TO": "-",
}
_WINTER_VERBS = {"B": "build", "REMOVE": "remove", "WAIVE": "waive"}
"""The winter orders' verbs (as :func:`_tokens` reads them) and their names in a refusal."""
_TOKEN = re.compile(r"^[A-Z]{3}(?:/(?:[A-Z]{2}|[A-Z]{3}))?$")


class OrderTextError(ValueError):
    """A text that cannot be read as one of the seat's orders; the message says why (one line)."""


@dataclass(frozen=True, slots=True)
class _UnitText:
    kind: UnitType | None
    province: str
    coast: str | None


def _tokens(text: str) -> list[str]:
    if len(text) > MAX_TEXT:
        raise OrderTextError(f"an order is at most {MAX_TEXT} characters")
    if not text.isascii() or not text.isprintable():
        raise OrderTextError("an order is plain letters, '-', '/' and spaces")
    flat = re.sub(r"\(\s*([A-Z]{2,3})\s*\)", r"/\1", text.upper())
    flat = flat.replace("->", " - ").replace("-", " - ")
    return [_WORDS.get(t, t) for t in flat.split()]


def _location(token: str) -> tuple[str, str | None]:
    if not _TOKEN.match(token):
        raise OrderTextError(f"{token!r} is not a province (three letters, e.g. PAR or STP/NC)")
    province, _, coast = token.partition("/")
    if not coast:
        return province, None
    if coast in COASTS:
        return province, COASTS[coast]
    if coast in COASTS.values():
        return province, coast
    raise OrderTextError(f"{coast!r} is not a coast (NC, SC, EC or WC)")


def _unit_text(words: list[str]) -> _UnitText:
    """Reads ``[A|F] PROV`` from the front of ``words`` (consumed)."""
    if not words:
        raise OrderTextError("a unit is missing (e.g. A PAR)")
    kind = None
    if words[0] in KIND_LETTERS:
        kind = KIND_LETTERS[words.pop(0)]
        if not words:
            raise OrderTextError("the unit's province is missing")
    province, coast = _location(words.pop(0))
    return _UnitText(kind, province, coast)


class _Reader:
    """Resolves the units a text names against ``pos``."""

    def __init__(self, pos: Position, power: str) -> None:
        self.pos = pos
        self.power = power
        m = pos.map
        self.standing = {u.location.province: u for u in map(pos.unit_value, pos.units.values())}
        self.dislodged = {
            m.provinces[prov]: pos.unit_value((p, t, loc))
            for prov, (p, t, loc, _) in pos.dislodged.items()
        }

    def find(self, named: _UnitText, *, ours: bool, dislodged: bool = False) -> Unit:
        where = self.dislodged if dislodged else self.standing
        unit = where.get(named.province)
        what = "dislodged unit" if dislodged else "unit"
        if named.province not in self.pos.map.province_index:
            raise OrderTextError(f"{named.province} is not a province of this map")
        if unit is None:
            raise OrderTextError(f"there is no {what} in {named.province}")
        if named.kind is not None and named.kind != unit.kind:
            letter = "A" if unit.kind == UnitType.ARMY else "F"
            raise OrderTextError(f"the unit in {named.province} is {letter} {named.province}")
        if ours and unit.power != self.power:
            raise OrderTextError(f"the unit in {named.province} is {unit.power}'s, not yours")
        return unit

    def place(self, token: str) -> Location:
        province, coast = _location(token)
        if province not in self.pos.map.province_index:
            raise OrderTextError(f"{province} is not a province of this map")
        return Location(province, coast)


def _end(words: list[str], what: str) -> None:
    if words:
        raise OrderTextError(f"unexpected {' '.join(words)!r} after {what}")


def parse_order_text(text: str, pos: Position, power: str) -> Order:
    """The order ``text`` means for ``power`` in ``pos``; OrderTextError if it means none."""
    words = _tokens(text)
    if not words:
        raise OrderTextError("the order is empty")
    reader = _Reader(pos, power)
    if pos.is_adjustment:
        return _adjustment(words, reader)
    if words[0] in _WINTER_VERBS:
        raise OrderTextError(f"{_WINTER_VERBS[words[0]]} is a winter order; this is {pos.turn}")
    named = _unit_text(words)
    if pos.is_retreat:
        unit = reader.find(named, ours=True, dislodged=True)
        if not words or words[0] not in ("R", "-", "D"):
            raise OrderTextError("a retreat is 'A MUN R BOH' (or - BOH); a disband 'A MUN D'")
        verb = words.pop(0)
        if verb == "D":
            _end(words, "D")
            return Disband(unit)
        if not words:
            raise OrderTextError("where to retreat to is missing")
        dest = reader.place(words.pop(0))
        _end(words, "the retreat")
        return Retreat(unit, dest)
    unit = reader.find(named, ours=True)
    return _movement(unit, words, reader)


def chosen_order(text: str, choices: PersonChoices) -> Order:
    """The order ``text`` means in the phase of ``choices``, as its menus list it.

    :class:`OrderTextError` if the text is no order of the seat's; a
    :class:`~bot.client.core.person.PersonOrderError` if the order is not
    listed (:meth:`~bot.client.core.person.PersonChoices.resolve`).
    """
    return choices.resolve(parse_order_text(text, choices.position, choices.power))


def _movement(unit: Unit, words: list[str], reader: _Reader) -> Order:
    if not words:
        raise OrderTextError("what the unit does is missing (H, -, S or C)")
    verb = words.pop(0)
    if verb == "H":
        _end(words, "H")
        return Hold(unit)
    if verb == "-":
        if not words:
            raise OrderTextError("where to move to is missing")
        dest = reader.place(words.pop(0))
        if words and words[0] == "VIA":
            words.pop(0)
            path = tuple(reader.place(w).province for w in words)
            if not path:
                raise OrderTextError("VIA needs the convoying fleets' seas")
            return MoveByConvoy(unit, dest.province, path)
        _end(words, "the move")
        return _direct_or_convoy(unit, dest, reader.pos)
    if verb in ("S", "C"):
        other = reader.find(_unit_text(words), ours=False)
        if verb == "S" and (not words or words == ["H"]):
            return SupportHold(unit, other)
        if not words or words[0] != "-" or len(words) < 2:
            form = "A BUR S A PAR - MAR" if verb == "S" else "F NTH C A LON - NWY"
            raise OrderTextError(f"expected the form {form}")
        dest = reader.place(words[1])
        _end(words[2:], "the destination")
        if verb == "C":
            return Convoy(unit, other, dest.province)
        return SupportMove(unit, other, dest.province)
    raise OrderTextError(f"{verb!r} is not an order (H, -, S, C)")


def _direct_or_convoy(unit: Unit, dest: Location, pos: Position) -> Order:
    """A move; an army's move to a place it cannot walk to is a move by convoy."""
    m = pos.map
    if unit.kind == UnitType.ARMY:
        here = m.province_index[unit.location.province]
        there = m.province_index[dest.province]
        if there not in m.army_reach[here]:
            return MoveByConvoy(unit, dest.province, ())
        return Move(unit, Location(dest.province))
    return Move(unit, dest)


def _adjustment(words: list[str], reader: _Reader) -> Order:
    if words == ["WAIVE"]:
        return Waive(reader.power)
    verb = None
    if words[0] in ("B", "REMOVE", "D"):
        verb = words.pop(0)
    named = _unit_text(words)
    if verb is None:
        if not words or words[0] not in ("B", "REMOVE", "D"):
            raise OrderTextError("a winter order is 'BUILD A PAR', 'REMOVE A PAR' or 'WAIVE'")
        verb = words.pop(0)
    _end(words, "the winter order")
    if verb == "B":
        if named.kind is None:
            raise OrderTextError("say what to build: BUILD A PAR or BUILD F BRE")
        location = reader.place(named.province + (f"/{named.coast}" if named.coast else ""))
        return Build(Unit(reader.power, named.kind, location))
    return Remove(reader.find(named, ours=True))
