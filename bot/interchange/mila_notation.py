"""DAIDE's values and MILA's strings, both ways: powers, provinces, units, orders, phases, results.

MILA's ``diplomacy`` package writes orders as short strings: ``A PAR - BUR``,
``F STP/SC - BOT``, ``A PAR S A MAR - BUR``, ``F NTH C A LON - NWY``,
``A LON - NWY VIA``, ``A BUL R GRE``, ``A BUL D``, ``A PAR B``, ``WAIVE``;
phases as ``S1901M``, ``S1901R``, ``F1901M``, ``F1901R``, ``W1901A``; powers in
full (``FRANCE``). DAIDE spells the three sea areas ``ECH``, ``GOB``, ``GOL``
where MILA (as the judges) spells them ``ENG``, ``BOT``, ``LYO``, and coasts
``NCS`` where MILA writes ``/NC``.

What MILA's notation does not say is filled in from the board when an order
is read back: the power of a supported or convoyed unit (the one standing
there) and the sea areas a convoyed army goes through (the fleets ordered to
convoy it, in their order along the way).  Everything here is pure.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping

from adjudicator.maps import ARMY, FLEET, standard_map
from adjudicator.rules import JUDGE_NAMES
from bot.interchange.exchange_errors import NotAMilaGameError, NotStandardMapError
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
    UnitType,
    Waive,
)

MILA_POWERS = {
    "AUS": "AUSTRIA", "ENG": "ENGLAND", "FRA": "FRANCE", "GER": "GERMANY",
    "ITA": "ITALY", "RUS": "RUSSIA", "TUR": "TURKEY",
}  # fmt: skip
"""DAIDE's power tokens and MILA's power names on the standard map."""

DAIDE_POWERS = {name: token for token, name in MILA_POWERS.items()}
"""MILA's power names and DAIDE's tokens."""

MILA_PROVINCES = JUDGE_NAMES
"""The provinces DAIDE spells differently from MILA (all others are spelled alike)."""

DAIDE_PROVINCES = {name: token for token, name in MILA_PROVINCES.items()}
"""MILA's spelling of those provinces and DAIDE's."""

MILA_COASTS = {"NCS": "NC", "SCS": "SC", "ECS": "EC", "WCS": "WC"}
"""DAIDE's coast tokens and MILA's coast suffixes."""

DAIDE_COASTS = {suffix: token for token, suffix in MILA_COASTS.items()}
"""MILA's coast suffixes and DAIDE's tokens."""

UNIT_LETTERS = {UnitType.ARMY: "A", UnitType.FLEET: "F"}
"""A unit's kind as MILA's first letter."""

UNIT_KINDS = {letter: kind for kind, letter in UNIT_LETTERS.items()}
"""MILA's first letter and the unit's kind."""

PHASE_CODES = {
    Season.SPRING: ("S", "M"),
    Season.SUMMER: ("S", "R"),
    Season.FALL: ("F", "M"),
    Season.AUTUMN: ("F", "R"),
    Season.WINTER: ("W", "A"),
}
"""Each DAIDE season as MILA's season letter and phase-type letter."""

SEASONS = {codes: season for season, codes in PHASE_CODES.items()}
"""MILA's (season letter, phase-type letter) and DAIDE's season."""

WAIVE = "WAIVE"
"""MILA's order for a build a power declines."""

VIA = "VIA"
"""MILA's mark of a move by convoy."""

MILA_RESULTS = {
    "bounce": "BNC",
    "cut": "CUT",
    "void": "NSO",
    "no convoy": "NSO",
    "disrupted": "DSR",
    "dislodged": "RET",
}
"""MILA's order results and DAIDE's result tokens (``disband`` has none: the unit is gone)."""

SUCCESS = "SUC"
"""DAIDE's result of an order that did what it said."""

MOVE_FAILURES = {"BNC", "CUT", "NSO", "DSR"}
"""DAIDE's results that take the place of SUC."""

DISLODGED = "RET"
"""DAIDE's result of a dislodged unit (after BNC or CUT, or alone for one that held)."""


# --- DAIDE -> MILA --------------------------------------------------------------------------


def mila_power(power: str) -> str:
    """A DAIDE power token as MILA's name (``FRA`` → ``FRANCE``); NotStandardMapError if none."""
    try:
        return MILA_POWERS[power]
    except KeyError:
        raise NotStandardMapError(
            f"{power} is not a power of the standard map, the only one MILA's engine exports"
        ) from None


def mila_province(province: str) -> str:
    """A DAIDE province token as MILA spells it (``ECH`` → ``ENG``, ``PAR`` → ``PAR``)."""
    return MILA_PROVINCES.get(province, province)


def mila_location(location: Location) -> str:
    """A location in MILA's notation (``PAR``, ``STP/SC``)."""
    name = mila_province(location.province)
    return f"{name}/{MILA_COASTS[location.coast]}" if location.coast else name


def mila_unit(unit: Unit) -> str:
    """A unit in MILA's notation (``A PAR``, ``F STP/SC``)."""
    return f"{UNIT_LETTERS[unit.kind]} {mila_location(unit.location)}"


def mila_order(order: Order) -> str:
    """One order in MILA's notation, in any phase (``A PAR - BUR``, ``F BOT D``, ``WAIVE``)."""
    if isinstance(order, Waive):
        return WAIVE
    unit = mila_unit(order.unit)
    if isinstance(order, Hold):
        return f"{unit} H"
    if isinstance(order, Move):
        return f"{unit} - {mila_location(order.destination)}"
    if isinstance(order, MoveByConvoy):
        return f"{unit} - {mila_province(order.destination)} {VIA}"
    if isinstance(order, SupportHold):
        return f"{unit} S {mila_unit(order.supported)}"
    if isinstance(order, SupportMove):
        return f"{unit} S {mila_unit(order.supported)} - {mila_province(order.destination)}"
    if isinstance(order, Convoy):
        return f"{unit} C {mila_unit(order.army)} - {mila_province(order.destination)}"
    if isinstance(order, Retreat):
        return f"{unit} R {mila_location(order.destination)}"
    if isinstance(order, Build):
        return f"{unit} B"
    # a disband in a retreat phase and a removal in winter are both D in MILA's notation
    assert isinstance(order, Disband | Remove)
    return f"{unit} D"


def mila_phase(turn: Turn) -> str:
    """A turn as MILA's phase name (``SPR 1901`` → ``S1901M``, ``WIN 1901`` → ``W1901A``)."""
    season, kind = PHASE_CODES[turn.season]
    return f"{season}{turn.year}{kind}"


# --- MILA -> DAIDE --------------------------------------------------------------------------


def turn_of_phase(name: str) -> Turn:
    """MILA's phase name as a turn (``F1901R`` → ``AUT 1901``); NotAMilaGameError if it is none."""
    codes = (name[:1], name[-1:])
    if len(name) < 3 or codes not in SEASONS or not name[1:-1].isdigit():
        raise NotAMilaGameError(f"{name!r} is not a phase of MILA's (such as S1901M)")
    return Turn(SEASONS[codes], int(name[1:-1]))


def daide_power(name: str) -> str:
    """MILA's power name as a DAIDE token; NotAMilaGameError for a power not of the standard map."""
    try:
        return DAIDE_POWERS[name]
    except KeyError:
        raise NotAMilaGameError(f"{name!r} is not a power of the standard map") from None


def daide_province(name: str) -> str:
    """A province as MILA spells it, as DAIDE's token; NotAMilaGameError if the map has none."""
    token = DAIDE_PROVINCES.get(name, name)
    if token not in standard_map().province_index:
        raise NotAMilaGameError(f"{name!r} is not a province of the standard map")
    return token


def daide_location(text: str) -> Location:
    """MILA's location (``STP/SC``) as ours; NotAMilaGameError if it is not one."""
    province, _, coast = text.partition("/")
    if coast and coast not in DAIDE_COASTS:
        raise NotAMilaGameError(f"{text!r} is not a location of the standard map")
    return Location(daide_province(province), DAIDE_COASTS[coast] if coast else None)


def daide_unit(text: str, power: str) -> Unit:
    """MILA's unit (``F STP/SC``) of ``power`` (a DAIDE token) as ours."""
    letter, _, where = text.partition(" ")
    if letter not in UNIT_KINDS or not where or " " in where:
        raise NotAMilaGameError(f"{text!r} is not a unit in MILA's notation (such as A PAR)")
    return Unit(power, UNIT_KINDS[letter], daide_location(where))


def convoy_path(origin: str, destination: str, fleets: Iterable[str]) -> tuple[str, ...]:
    """The sea areas from ``origin`` to ``destination`` through the convoying ``fleets``' areas.

    The shortest chain of adjacent fleets' areas (DAIDE tokens) joining the two
    coasts; empty if the fleets join nothing (MILA's record keeps no path).
    """
    m = standard_map()
    seas = {m.province_index[p] for p in fleets if p in m.province_index}
    start, goal = m.province_index[origin], m.province_index[destination]
    came_from: dict[int, int] = {}
    queue = deque(s for s in m.neighbours[start] if s in seas)
    for s in queue:
        came_from[s] = start
    while queue:
        here = queue.popleft()
        if goal in m.neighbours[here]:
            path = [here]
            while came_from[path[-1]] != start:
                path.append(came_from[path[-1]])
            return tuple(m.provinces[p] for p in reversed(path))
        for there in m.neighbours[here]:
            if there in seas and there not in came_from:
                came_from[there] = here
                queue.append(there)
    return ()


def daide_order(
    text: str,
    power: str,
    season: Season,
    board: Mapping[str, Unit],
    convoys: Mapping[tuple[str, str], tuple[str, ...]] | None = None,
) -> Order:
    """One of ``power``'s orders of a ``season`` in MILA's notation as ours.

    ``board`` maps each province (DAIDE token) to the unit standing there, for
    the power of a supported or convoyed unit; ``convoys`` maps (army's
    province, destination) to the provinces of the fleets convoying it, for a
    move by convoy's path.  NotAMilaGameError if ``text`` is not an order.
    """
    words = text.split()
    if words == [WAIVE]:
        return Waive(power)
    if len(words) < 3:
        raise NotAMilaGameError(f"{text!r} is not an order in MILA's notation")
    unit = daide_unit(" ".join(words[:2]), power)
    verb, rest = words[2], words[3:]
    if verb == "H" and not rest:
        return Hold(unit)
    if verb == "-" and len(rest) in (1, 2) and rest[1:] in ([], [VIA]):
        destination = daide_location(rest[0])
        if rest[1:] or destination.province not in _reach(unit):
            path = convoy_path(
                unit.province,
                destination.province,
                (convoys or {}).get((unit.province, destination.province), ()),
            )
            return MoveByConvoy(unit, destination.province, path)
        return Move(unit, destination)
    if verb in ("S", "C") and len(rest) in (2, 3, 4):
        other = _board_unit(" ".join(rest[:2]), board, text)
        tail = rest[2:]
        if verb == "S" and tail in ([], ["H"]):
            return SupportHold(unit, other)
        if len(tail) == 2 and tail[0] == "-":
            target = daide_location(tail[1]).province
            if verb == "S":
                return SupportMove(unit, other, target)
            return Convoy(unit, other, target)
    if verb == "R" and len(rest) == 1:
        return Retreat(unit, daide_location(rest[0]))
    if verb == "B" and not rest:
        return Build(unit)
    if verb == "D" and not rest:
        # MILA writes both a retreat phase's disband and a winter's removal as D
        return Remove(unit) if season.is_adjustment else Disband(unit)
    raise NotAMilaGameError(f"{text!r} is not an order in MILA's notation")


def _reach(unit: Unit) -> set[str]:
    """The provinces ``unit`` can move to in one step (none from where it cannot stand)."""
    m = standard_map()
    kind = ARMY if unit.kind is UnitType.ARMY else FLEET
    try:
        loc = m.location(unit.province, unit.location.coast)
    except KeyError:
        return set()
    return {m.provinces[m.loc_province[d]] for d in m.adjacent(kind, loc)}


def _board_unit(text: str, board: Mapping[str, Unit], order: str) -> Unit:
    """The unit MILA names in a support or convoy, with its power from the board."""
    where = text.partition(" ")[2]
    location = daide_location(where)
    standing = board.get(location.province)
    if standing is None:
        raise NotAMilaGameError(f"{order!r}: no unit stands in {where}")
    found = daide_unit(text, standing.power)
    if found.kind is standing.kind and location.coast is None:
        return standing  # MILA may leave out the coast of a supported fleet
    return found


def daide_results(words: Iterable[str]) -> tuple[str, ...]:
    """MILA's results of one order as DAIDE's result tokens (``[]`` → ``SUC``).

    A unit dislodged while holding has ``RET`` alone, as DAIDE's servers say.
    """
    tokens = [MILA_RESULTS[w] for w in words if w in MILA_RESULTS]
    if not (MOVE_FAILURES | {DISLODGED}) & set(tokens):  # a dislodged unit that held: RET alone
        tokens.insert(0, SUCCESS)
    return tuple(dict.fromkeys(tokens))
