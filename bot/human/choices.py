"""The legal orders a person may give in a phase, per unit (or build site), from the adjudicator.

Every order listed here is one a server accepts (``MBV``): the core's
:func:`bot.client.core.person.legal_choices` (the generators of :mod:`adjudicator.legal`)
lists them; here a move by convoy gets its shortest route of fleets (servers
want one), and typed orders are matched to them.  The page offers exactly
these orders when a unit is clicked.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from adjudicator.position import Position
from adjudicator.validation import geometric_routes, minimal_routes
from bot.client.core.person import WAIVE_KEY, PersonOrderError, check_person_orders
from bot.client.core.person import legal_choices as person_choices
from protocol.values import MoveByConvoy, Order, Waive

__all__ = ["WAIVE_KEY", "Choices", "IllegalOrder", "check_order_set", "legal_choices", "resolve"]


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


def _with_route(pos: Position, order: Order) -> Order:
    """A move by convoy with the shortest route of fleets that can carry it (servers want one)."""
    if not isinstance(order, MoveByConvoy) or order.path:
        return order
    m = pos.map
    army = m.province_index[order.unit.location.province]
    routes = minimal_routes(geometric_routes(pos, army, m.province_index[order.destination]))
    if not routes:
        return order
    return replace(order, path=tuple(m.provinces[p] for p in min(routes, key=len)))


def legal_choices(pos: Position, power: str) -> Choices:
    """What ``power`` may order in ``pos``, grouped by the province each order is about.

    The orders are the core's (:func:`bot.client.core.person.legal_choices`), so the
    page offers exactly what the core lets through; moves by convoy get a route.
    """
    who = power_index(pos, power)
    options = {
        key: [_with_route(pos, o) for o in orders]
        for key, orders in person_choices(pos, power).items()
    }
    if pos.is_movement:
        return Choices("movement", options)
    if pos.is_retreat:
        return Choices("retreat", options)
    return Choices("adjustment", options, pos.adjustments()[who])


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


def check_order_set(orders: list[Order], pos: Position, power: str) -> list[Order]:
    """The set as sent, each order resolved; IllegalOrder for an illegal order or set.

    The set as a whole is checked by the core's own check
    (:func:`bot.client.core.person.check_person_orders`), so nothing the page lets
    through is refused by the core.
    """
    choices = legal_choices(pos, power)
    out = [resolve(o, choices) for o in orders]
    try:
        check_person_orders(pos, power, out)
    except PersonOrderError as exc:
        raise IllegalOrder(str(exc)) from None
    return out
