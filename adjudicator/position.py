"""A game position as small integer tables, cheap to copy.

A :class:`Position` holds the phase (season and year), the units (one per
province: power, type, location), the owner of every supply centre and, in a
retreat phase, the dislodged units with their legal retreats.  The search
copies positions tens of thousands of times a move, so a copy is one dict copy
and one list copy; units are shared immutable tuples.
"""

from __future__ import annotations

from enum import Enum, IntEnum

from adjudicator.maps import ARMY, FLEET, UNIT_TYPES, GameMap
from adjudicator.rule_errors import PositionError
from protocol.values import (
    UNOWNED,
    Location,
    Season,
    Turn,
    Unit,
    UnitPosition,
    UnitType,
)


class PhaseKind(Enum):
    """What a phase asks of the players."""

    MOVEMENT = "movement"
    RETREAT = "retreat"
    ADJUSTMENT = "adjustment"


class EngineSeason(IntEnum):
    """A phase of the year in engine form: its index in playing order.

    Positions store the season as this small int (``Position.season``), so
    that the next phase is arithmetic and comparisons stay cheap.
    """

    SPRING = 0  # spring movement
    SUMMER = 1  # spring retreats
    FALL = 2  # fall movement
    AUTUMN = 3  # fall retreats
    WINTER = 4  # adjustments

    @property
    def kind(self) -> PhaseKind:
        """The kind of phase this season is."""
        return PHASE_KINDS[self]


SPRING, SUMMER, FALL, AUTUMN, WINTER = EngineSeason
PHASE_KINDS = (
    PhaseKind.MOVEMENT,
    PhaseKind.RETREAT,
    PhaseKind.MOVEMENT,
    PhaseKind.RETREAT,
    PhaseKind.ADJUSTMENT,
)
"""The kind of each engine season, indexed by it."""
MOVEMENT_SEASONS = frozenset({SPRING, FALL})
RETREAT_SEASONS = frozenset({SUMMER, AUTUMN})
SEASONS = (Season.SPRING, Season.SUMMER, Season.FALL, Season.AUTUMN, Season.WINTER)
"""The protocol's season of each engine season, indexed by it."""
SEASON_INDEX = {s: EngineSeason(i) for i, s in enumerate(SEASONS)}
"""The engine season of each protocol season."""

NOBODY = -1
"""Owner of a neutral centre (and of every non-centre province)."""

UnitTuple = tuple[int, int, int]
"""A unit in engine form: (power, unit type, location)."""

DislodgedTuple = tuple[int, int, int, tuple[int, ...]]
"""A dislodged unit: (power, unit type, location, legal retreat locations)."""

PositionData = tuple[int, int, dict[int, UnitTuple], list[int], dict[int, DislodgedTuple]]
"""A position as plain data: (season, year, units, owners, dislodged); see ``to_data``."""


class Position:
    """The state of a game at the start of a phase, in engine form.

    ``units`` maps a province id to its unit ``(power, type, location)``;
    ``owners[p]`` is the power owning province ``p`` (``NOBODY`` if neutral or
    not a centre); ``dislodged`` maps a province id to the unit that must
    retreat from it, with its legal retreat locations (retreat phases only).
    """

    __slots__ = ("dislodged", "map", "owners", "season", "units", "year")

    def __init__(
        self,
        game_map: GameMap,
        season: int,
        year: int,
        units: dict[int, UnitTuple],
        owners: list[int],
        dislodged: dict[int, DislodgedTuple] | None = None,
    ) -> None:
        self.map = game_map
        self.season = season
        self.year = year
        self.units = units
        self.owners = owners
        self.dislodged = dislodged if dislodged is not None else {}

    def copy(self) -> Position:
        """An independent copy (units and dislodged units are shared immutable tuples)."""
        new = Position.__new__(Position)
        new.map = self.map
        new.season = self.season
        new.year = self.year
        new.units = self.units.copy()
        new.owners = self.owners.copy()
        new.dislodged = self.dislodged.copy() if self.dislodged else {}
        return new

    def to_data(self) -> PositionData:
        """The position as plain picklable data, without the map (for other processes)."""
        return (self.season, self.year, dict(self.units), list(self.owners), dict(self.dislodged))

    @classmethod
    def from_data(cls, game_map: GameMap, data: PositionData) -> Position:
        """The inverse of :meth:`to_data`, on ``game_map``."""
        season, year, units, owners, dislodged = data
        return cls(game_map, season, year, dict(units), list(owners), dict(dislodged))

    # --- queries -------------------------------------------------------------------

    @property
    def kind(self) -> PhaseKind:
        """Movement, retreats or adjustments."""
        return PHASE_KINDS[self.season]

    @property
    def is_movement(self) -> bool:
        """True in a movement phase (spring or fall)."""
        return self.season in MOVEMENT_SEASONS

    @property
    def is_retreat(self) -> bool:
        """True in a retreat phase (summer or autumn)."""
        return self.season in RETREAT_SEASONS

    @property
    def is_adjustment(self) -> bool:
        """True in the winter adjustment phase."""
        return self.season == WINTER

    def ended_by(self, final_year: int) -> bool:
        """True once the winter of ``final_year`` has been reached (or passed)."""
        return self.year > final_year or (self.year == final_year and self.season == WINTER)

    @property
    def turn(self) -> Turn:
        """The phase as a value type."""
        return Turn(SEASONS[self.season], self.year)

    def centre_counts(self) -> list[int]:
        """Number of supply centres each power owns."""
        counts = [0] * self.map.num_powers
        owners = self.owners
        for sc in self.map.supply_centres:
            owner = owners[sc]
            if owner >= 0:
                counts[owner] += 1
        return counts

    def unit_counts(self) -> list[int]:
        """Number of units each power has on the board (dislodged ones included)."""
        counts = [0] * self.map.num_powers
        for power, _, _ in self.units.values():
            counts[power] += 1
        for power, _, _, _ in self.dislodged.values():
            counts[power] += 1
        return counts

    def units_of(self, power: int) -> list[int]:
        """Provinces holding ``power``'s units, in province order."""
        return sorted(p for p, u in self.units.items() if u[0] == power)

    def adjustments(self) -> list[int]:
        """Per power: centres minus units (positive: builds due; negative: removals due)."""
        centres = self.centre_counts()
        units = self.unit_counts()
        return [c - u for c, u in zip(centres, units, strict=True)]

    def key(self) -> tuple[object, ...]:
        """A hashable summary (for tests and transposition checks)."""
        return (
            self.season,
            self.year,
            tuple(sorted(self.units.items())),
            tuple(self.owners),
            tuple(sorted(self.dislodged.items())),
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Position) and self.map is other.map and self.key() == other.key()

    def __hash__(self) -> int:
        return hash(self.key())

    def __repr__(self) -> str:
        return f"<Position {self.turn} units={len(self.units)} dislodged={len(self.dislodged)}>"

    # --- conversion to and from the value types (the edges) ----------------------------

    def unit_value(self, unit: UnitTuple) -> Unit:
        """A unit tuple as the value type."""
        power, utype, loc = unit
        return Unit(self.map.powers[power], UNIT_TYPES[utype], self.map.location_name(loc))

    def unit_positions(self) -> tuple[UnitPosition, ...]:
        """The units as NOW lists them, dislodged ones with their MRT lists."""
        m = self.map

        def order(item: tuple[int, UnitTuple | DislodgedTuple]) -> tuple[int, int, str]:
            return (item[1][0], item[1][1], m.provinces[item[0]])

        out = [UnitPosition(self.unit_value(u)) for _, u in sorted(self.units.items(), key=order)]
        for _, (power, utype, loc, retreats) in sorted(self.dislodged.items(), key=order):
            out.append(
                UnitPosition(
                    self.unit_value((power, utype, loc)),
                    tuple(m.location_name(r) for r in retreats),
                )
            )
        return tuple(out)

    def centres(self) -> tuple[tuple[str, tuple[str, ...]], ...]:
        """Supply centre ownership as SCO lists it: each power, then ``UNO``."""
        m = self.map
        owned: dict[int, list[str]] = {}
        for sc in m.supply_centres:
            owned.setdefault(self.owners[sc], []).append(m.provinces[sc])
        out = [(m.powers[p], tuple(owned[p])) for p in range(m.num_powers) if p in owned]
        if NOBODY in owned:
            out.append((UNOWNED, tuple(owned[NOBODY])))
        return tuple(out)

    @classmethod
    def from_values(
        cls,
        game_map: GameMap,
        turn: Turn,
        units: tuple[UnitPosition, ...] | list[UnitPosition],
        centres: tuple[tuple[str, tuple[str, ...]], ...] | list[tuple[str, tuple[str, ...]]],
    ) -> Position:
        """Build a position from NOW's turn and units and SCO's ownership lists.

        Raises :class:`PositionError` if a name is unknown, a unit cannot stand
        where it is said to, a centre is listed twice, or a unit is dislodged
        (has an ``MRT`` list) outside a retreat phase.
        """
        m = game_map
        owners = [NOBODY] * m.num_provinces
        listed: set[int] = set()
        for power_name, provs in centres:
            power = NOBODY if power_name == UNOWNED else _power_id(m, power_name)
            for prov_name in provs:
                pid = _province_id(m, prov_name)
                if not m.is_supply[pid]:
                    raise PositionError(f"{prov_name} is not a supply centre")
                if pid in listed:
                    raise PositionError(f"supply centre {prov_name} is listed twice")
                listed.add(pid)
                owners[pid] = power
        season = SEASON_INDEX[turn.season]
        pos = cls(m, season, turn.year, {}, owners, {})
        for up in units:
            unit = encode_unit(m, up.unit)
            prov = m.loc_province[unit[2]]
            if up.retreats is not None and season not in RETREAT_SEASONS:
                raise PositionError(
                    f"{up.unit} is dislodged (MRT) in {turn.season.value}, not a retreat phase"
                )
            if up.retreats is None:
                if prov in pos.units:
                    raise PositionError(f"two units in {m.provinces[prov]}")
                pos.units[prov] = unit
            else:
                if prov in pos.dislodged:
                    raise PositionError(f"two dislodged units in {m.provinces[prov]}")
                retreats = tuple(sorted(_location_id(m, loc) for loc in up.retreats))
                pos.dislodged[prov] = (*unit, retreats)
        return pos


def _power_id(m: GameMap, name: str) -> int:
    try:
        return m.power_index[name]
    except KeyError:
        raise PositionError(f"unknown power {name}") from None


def _province_id(m: GameMap, name: str) -> int:
    try:
        return m.province_index[name]
    except KeyError:
        raise PositionError(f"unknown province {name}") from None


def _location_id(m: GameMap, loc: Location) -> int:
    try:
        return m.location_index[(loc.province, loc.coast)]
    except KeyError:
        raise PositionError(f"unknown location {loc}") from None


def encode_unit(m: GameMap, unit: Unit) -> UnitTuple:
    """A value-type unit in engine form; :class:`PositionError` if it cannot stand there."""
    power = _power_id(m, unit.power)
    utype = ARMY if unit.kind is UnitType.ARMY else FLEET
    loc = _location_id(m, unit.location)
    if not m.can_stand(utype, loc):
        raise PositionError(f"{unit} cannot stand there")
    return (power, utype, loc)


def initial_position(game_map: GameMap) -> Position:
    """The standard opening position (Spring 1901) for the standard map."""
    from adjudicator.standard import standard_start

    turn, units, centres = standard_start()
    return Position.from_values(game_map, turn, units, centres)
