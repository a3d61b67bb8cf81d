"""Plain value types shared by the protocol and the rules engine.

These are the only types that cross the line between ``protocol`` (the DAIDE
language) and ``adjudicator`` (the rules of Diplomacy).  They carry names as
DAIDE spells them (three-letter, upper case: ``"ENG"``, ``"STP"``, ``"NCS"``),
so a variant whose powers and provinces come from an RM works unchanged.

They are small, frozen and hashable; they are *not* used in the search's hot
loops, where the adjudicator works on integer ids instead.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class UnitType(StrEnum):
    """The kind of a unit, spelled as its DAIDE token."""

    ARMY = "AMY"
    FLEET = "FLT"


class Season(StrEnum):
    """A phase of the year, spelled as its DAIDE token."""

    SPRING = "SPR"  # spring movement
    SUMMER = "SUM"  # spring retreats
    FALL = "FAL"  # fall movement
    AUTUMN = "AUT"  # fall retreats
    WINTER = "WIN"  # adjustments

    @property
    def is_movement(self) -> bool:
        """True for the two movement phases."""
        return self in (Season.SPRING, Season.FALL)

    @property
    def is_retreat(self) -> bool:
        """True for the two retreat phases."""
        return self in (Season.SUMMER, Season.AUTUMN)

    @property
    def is_adjustment(self) -> bool:
        """True for the winter build/removal phase."""
        return self is Season.WINTER


UNOWNED = "UNO"
"""The pseudo-power that owns neutral supply centres in SCO and MDF."""


@dataclass(frozen=True, slots=True)
class Turn:
    """A season and a year, as in ``(SPR 1901)``."""

    season: Season
    year: int

    def __str__(self) -> str:
        return f"{self.season} {self.year}"


@dataclass(frozen=True, slots=True)
class Location:
    """A province, with a coast for fleets in a multi-coast province."""

    province: str
    coast: str | None = None

    def __str__(self) -> str:
        return f"({self.province} {self.coast})" if self.coast else self.province


@dataclass(frozen=True, slots=True)
class Unit:
    """A unit on the board, as in ``(ENG FLT (STP NCS))``."""

    power: str
    kind: UnitType
    location: Location

    @property
    def province(self) -> str:
        """The province the unit stands in, without its coast."""
        return self.location.province

    def __str__(self) -> str:
        return f"({self.power} {self.kind} {self.location})"


@dataclass(frozen=True, slots=True)
class Hold:
    """``(unit) HLD``."""

    unit: Unit


@dataclass(frozen=True, slots=True)
class Move:
    """``(unit) MTO province`` (a fleet into a split province names the coast)."""

    unit: Unit
    destination: Location


@dataclass(frozen=True, slots=True)
class SupportHold:
    """``(unit) SUP (unit)``: support the other unit where it stands."""

    unit: Unit
    supported: Unit


@dataclass(frozen=True, slots=True)
class SupportMove:
    """``(unit) SUP (unit) MTO province``: support a move.

    DAIDE's syntax gives no coast here; ``coast`` is set when an order names
    one anyway (``MTO (SPA NCS)``), as Parlance accepts (DATC 4.B.4).
    """

    unit: Unit
    supported: Unit
    destination: str
    coast: str | None = None


@dataclass(frozen=True, slots=True)
class Convoy:
    """``(fleet) CVY (army) CTO province``."""

    unit: Unit
    army: Unit
    destination: str


@dataclass(frozen=True, slots=True)
class MoveByConvoy:
    """``(army) CTO province VIA (sea sea ...)``; an empty ``path`` is a CTO without VIA.

    Parlance accepts a convoyed move without its path (DATC 4.A.6 b).
    """

    unit: Unit
    destination: str
    path: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Retreat:
    """``(unit) RTO province`` in a retreat phase."""

    unit: Unit
    destination: Location


@dataclass(frozen=True, slots=True)
class Disband:
    """``(unit) DSB`` in a retreat phase."""

    unit: Unit


@dataclass(frozen=True, slots=True)
class Build:
    """``(unit) BLD`` in an adjustment phase."""

    unit: Unit


@dataclass(frozen=True, slots=True)
class Remove:
    """``(unit) REM`` in an adjustment phase."""

    unit: Unit


@dataclass(frozen=True, slots=True)
class Waive:
    """``power WVE``: decline one build."""

    power: str


Order = (
    Hold
    | Move
    | SupportHold
    | SupportMove
    | Convoy
    | MoveByConvoy
    | Retreat
    | Disband
    | Build
    | Remove
    | Waive
)
"""Any order a player can give, in any phase."""

MovementOrder = Hold | Move | SupportHold | SupportMove | Convoy | MoveByConvoy
"""The orders of a movement phase."""


def order_power(order: Order) -> str:
    """The power that gives ``order``."""
    if isinstance(order, Waive):
        return order.power
    return order.unit.power


@dataclass(frozen=True, slots=True)
class UnitPosition:
    """A unit as NOW lists it; ``retreats`` is set (possibly empty) when it must retreat (MRT)."""

    unit: Unit
    retreats: tuple[Location, ...] | None = None

    @property
    def dislodged(self) -> bool:
        """True when the unit must retreat or disband this phase."""
        return self.retreats is not None


@dataclass(frozen=True, slots=True)
class Board:
    """The public state of a game: the bodies of one NOW and one SCO.

    ``centres`` maps each power (and ``UNO``) to the supply centres it owns.
    """

    turn: Turn
    units: tuple[UnitPosition, ...]
    centres: tuple[tuple[str, tuple[str, ...]], ...]

    def owner_of(self) -> dict[str, str]:
        """Supply centre -> owning power (``UNO`` for neutral)."""
        return {centre: power for power, owned in self.centres for centre in owned}


@dataclass(frozen=True, slots=True)
class OrderResult:
    """One line of ORD: an order of ``turn`` and its result tokens.

    ``result`` holds the DAIDE result tokens in order, e.g. ``("SUC",)``,
    ``("BNC", "RET")`` or ``("RET",)`` for a dislodged holding unit.
    """

    turn: Turn
    order: Order
    result: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Adjacency:
    """One ``(unit_type adj_prov ...)`` entry of an MDF province.

    ``coast`` is set for the ``((FLT coast) ...)`` entries of split provinces.
    """

    kind: UnitType
    coast: str | None
    destinations: tuple[Location, ...]


@dataclass(frozen=True, slots=True)
class ProvinceAdjacencies:
    """Everything a province's MDF entry says: where each unit type may go from it."""

    province: str
    entries: tuple[Adjacency, ...]


@dataclass(frozen=True, slots=True)
class MapDefinition:
    """The content of an MDF message: a whole map, variant-neutral.

    ``supply_centres`` pairs the powers whose home a group of centres is
    (``("UNO",)`` for neutral centres; several powers for shared homes) with
    those centres, in the order the MDF lists them.
    """

    powers: tuple[str, ...]
    supply_centres: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]
    non_supply_centres: tuple[str, ...]
    adjacencies: tuple[ProvinceAdjacencies, ...]
