"""Engine-form orders as DAIDE value orders (for SUB messages and ORD reports)."""

from __future__ import annotations

from adjudicator.orders import (
    BUILD,
    CONVOY,
    CONVOY_MOVE,
    HOLD,
    MOVE,
    REMOVE,
    RETREAT,
    SUPPORT_HOLD,
    SUPPORT_MOVE,
    EngineOrder,
)
from adjudicator.position import Position
from protocol.values import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    MoveByConvoy,
    Order,
    Remove,
    Retreat,
    SupportHold,
    SupportMove,
    Waive,
)


def movement_value(
    pos: Position, prov: int, order: EngineOrder, route: tuple[int, ...] | None = None
) -> Order:
    """The value order for the unit in ``prov``; ``route`` (fleet provinces) makes a move a convoy.

    A move by convoy is written with its route (``CTO ... VIA (...)``) when one
    is known, as Parlance reports it.
    """
    m = pos.map
    unit = pos.unit_value(pos.units[prov])
    kind = order[0]
    if kind == HOLD:
        return Hold(unit)
    if kind == MOVE and route is None:
        return Move(unit, m.location_name(order[1]))
    if kind == MOVE or kind == CONVOY_MOVE:
        dest = m.provinces[m.loc_province[order[1]]]
        path = route if route is not None else (order[2] if kind == CONVOY_MOVE else ())
        return MoveByConvoy(unit, dest, tuple(m.provinces[f] for f in path))
    if kind == SUPPORT_HOLD:
        return SupportHold(unit, pos.unit_value(pos.units[order[1]]))
    if kind == SUPPORT_MOVE:
        coast = m.loc_coast[order[3]] if len(order) > 3 else None
        supported = pos.unit_value(pos.units[order[1]])
        return SupportMove(unit, supported, m.provinces[order[2]], coast)
    if kind == CONVOY:
        return Convoy(unit, pos.unit_value(pos.units[order[1]]), m.provinces[order[2]])
    raise ValueError(f"not a movement order: {order!r}")


def retreat_value(pos: Position, prov: int, order: EngineOrder) -> Order:
    """The value order (RTO or DSB) for the unit dislodged from ``prov``."""
    power, utype, loc, _ = pos.dislodged[prov]
    unit = pos.unit_value((power, utype, loc))
    if order[0] == RETREAT:
        return Retreat(unit, pos.map.location_name(order[1]))
    return Disband(unit)


def adjustment_value(pos: Position, power: int, order: EngineOrder) -> Order:
    """The value order (BLD, REM or WVE) of ``power``'s winter order."""
    if order[0] == BUILD:
        return Build(pos.unit_value((power, order[1], order[2])))
    if order[0] == REMOVE:
        return Remove(pos.unit_value(pos.units[order[1]]))
    return Waive(pos.map.powers[power])
