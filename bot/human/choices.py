"""The legal orders a person may give in a phase, per unit (or build site), from the adjudicator.

Every order listed here is one a server accepts (``MBV``): the generators of
:mod:`adjudicator.legal` make them, :mod:`adjudicator.convert` spells them as
value orders.  A move by convoy carries its shortest route of fleets (servers
want one).  The page offers exactly these orders when a unit is clicked.
"""

from __future__ import annotations

from dataclasses import dataclass

from adjudicator.convert import adjustment_value, movement_value, retreat_value
from adjudicator.legal import (
    build_options,
    movement_orders,
    removal_options,
    retreat_orders,
)
from adjudicator.orders import BUILD, CONVOY_MOVE, EngineOrder
from adjudicator.position import Position
from adjudicator.validation import geometric_routes, minimal_routes
from protocol.values import MoveByConvoy, Order, Waive

WAIVE_KEY = "WAIVE"
"""The key of the waive choice in a winter with builds due."""


@dataclass(frozen=True, slots=True)
class Choices:
    """A phase's choices for one power.

    ``kind`` is ``movement``, ``retreat`` or ``adjustment``; ``options`` maps
    a province (the unit's, the dislodged unit's, the build site's; or
    :data:`WAIVE_KEY`) to its legal orders; ``due`` is the number of builds
    (positive) or removals (negative) of a winter, else 0.
    """

    kind: str
    options: dict[str, list[Order]]
    due: int = 0


def power_index(pos: Position, power: str) -> int:
    """The map's index of ``power``; ValueError if it is not one of the map's powers."""
    try:
        return pos.map.powers.index(power)
    except ValueError:
        raise ValueError(f"{power} is not a power of this map") from None


def _convoy_route(pos: Position, army: int, order: EngineOrder) -> tuple[int, ...] | None:
    if order[0] != CONVOY_MOVE:
        return None
    routes = minimal_routes(geometric_routes(pos, army, order[1]))
    return min(routes, key=len) if routes else None


def legal_choices(pos: Position, power: str) -> Choices:
    """What ``power`` may order in ``pos``, grouped by the province each order is about."""
    m = pos.map
    who = power_index(pos, power)
    options: dict[str, list[Order]] = {}
    if pos.is_movement:
        for prov in pos.units_of(who):
            options[m.provinces[prov]] = [
                movement_value(pos, prov, o, _convoy_route(pos, prov, o))
                for o in movement_orders(pos, prov)
            ]
        return Choices("movement", options)
    if pos.is_retreat:
        for prov, (owner, _, _, _) in sorted(pos.dislodged.items()):
            if owner == who:
                options[m.provinces[prov]] = [
                    retreat_value(pos, prov, o) for o in retreat_orders(pos, prov)
                ]
        return Choices("retreat", options)
    due = pos.adjustments()[who]
    if due > 0:
        for order in build_options(pos, who):
            site = m.provinces[m.loc_province[order[2]]] if order[0] == BUILD else WAIVE_KEY
            options.setdefault(site, []).append(adjustment_value(pos, who, order))
        options[WAIVE_KEY] = [Waive(power)]
    elif due < 0:
        for order in removal_options(pos, who):
            options[m.provinces[order[1]]] = [adjustment_value(pos, who, order)]
    return Choices("adjustment", options, due)


def legal_set(choices: Choices) -> set[Order]:
    """Every order of ``choices``, for membership tests."""
    return {o for orders in choices.options.values() for o in orders}


class IllegalOrder(ValueError):
    """An order (or a set) the seat will not send: the message says why in one line."""


def order_key(order: Order) -> str:
    """The key of ``order`` in :attr:`Choices.options`: the province it is about."""
    if isinstance(order, Waive):
        return WAIVE_KEY
    return order.unit.location.province


def resolve(order: Order, choices: Choices) -> Order:
    """``order`` as it is sent, if legal: a move by convoy gets the listed route if it has none.

    A move by convoy naming its own route must name the listed one; IllegalOrder otherwise.
    """
    listed = choices.options.get(order_key(order))
    if listed is None:
        raise IllegalOrder(f"nothing to order for {order_key(order)} in this phase")
    if order in listed:
        return order
    if isinstance(order, MoveByConvoy):
        for legal in listed:
            if (
                isinstance(legal, MoveByConvoy)
                and legal.unit == order.unit
                and legal.destination == order.destination
                and order.path in ((), legal.path)
            ):
                return legal
    raise IllegalOrder("this order is not legal here")


def check_order_set(orders: list[Order], choices: Choices) -> list[Order]:
    """The set as sent, each order resolved; IllegalOrder for an illegal order or set."""
    out = [resolve(o, choices) for o in orders]
    keys = [order_key(o) for o in out]
    twice = sorted({k for k in keys if keys.count(k) > 1 and k != WAIVE_KEY})
    if twice:
        raise IllegalOrder(f"two orders for {', '.join(twice)}")
    if choices.kind == "adjustment" and len(out) > abs(choices.due):
        word = "builds" if choices.due > 0 else "removals"
        raise IllegalOrder(f"{len(out)} orders but only {abs(choices.due)} {word} due")
    return out
