"""Orders in the usual notation (``A PAR - BUR``, ``F NTH C A LON - NWY``), as the tools write them.

The viewer lists a phase's results this way and a person's seat shows and reads
orders this way (:mod:`bot.human.ordertext` parses the same notation back).
"""

from __future__ import annotations

from protocol.values import (
    Build,
    Convoy,
    Disband,
    Hold,
    Location,
    Move,
    MoveByConvoy,
    Order,
    Retreat,
    SupportHold,
    SupportMove,
    Unit,
    UnitType,
    Waive,
)

COASTS = {"NC": "NCS", "SC": "SCS", "EC": "ECS", "WC": "WCS"}
"""The usual coast abbreviations and their DAIDE tokens (the tokens are accepted too)."""


def unit_words(unit: Unit) -> str:
    """``A PAR``, ``F STP/NC``."""
    letter = "A" if unit.kind == UnitType.ARMY else "F"
    return f"{letter} {place_words(unit.location)}"


def place_words(location: Location) -> str:
    """``BUR``, ``STP/NC``."""
    if location.coast is None:
        return location.province
    short = {v: k for k, v in COASTS.items()}.get(location.coast, location.coast)
    return f"{location.province}/{short}"


def format_order_text(order: Order) -> str:
    """``order`` in the notation :func:`parse_order_text` reads."""
    if isinstance(order, Waive):
        return "WAIVE"
    unit = unit_words(order.unit)
    if isinstance(order, Hold):
        return f"{unit} H"
    if isinstance(order, Move):
        return f"{unit} - {place_words(order.destination)}"
    if isinstance(order, MoveByConvoy):
        via = f" VIA {' '.join(order.path)}" if order.path else ""
        return f"{unit} - {order.destination}{via}"
    if isinstance(order, SupportHold):
        return f"{unit} S {unit_words(order.supported)}"
    if isinstance(order, SupportMove):
        return f"{unit} S {unit_words(order.supported)} - {order.destination}"
    if isinstance(order, Convoy):
        return f"{unit} C {unit_words(order.army)} - {order.destination}"
    if isinstance(order, Retreat):
        return f"{unit} R {place_words(order.destination)}"
    if isinstance(order, Disband):
        return f"{unit} D"
    if isinstance(order, Build):
        return f"BUILD {unit}"
    return f"REMOVE {unit}"
