"""Adjudication of a retreat phase.

Each dislodged unit retreats to one of its legal locations or disbands; a
unit without an order disbands; two or more units retreating to the same
province all bounce and are disbanded (results BNC), as on Parlance.
"""

from __future__ import annotations

from adjudicator.orders import BNC, DISBAND_ORDER, RETREAT, SUC, EngineOrder
from adjudicator.phases import after_retreats
from adjudicator.position import Position


class RetreatResult:
    """What a retreat phase did, and the next position.

    ``results[p]`` is SUC or BNC for the unit dislodged from ``p``; ``orders``
    are the orders as adjudicated (disbands filled in).
    """

    __slots__ = ("orders", "position", "results")

    def __init__(
        self, position: Position, orders: dict[int, EngineOrder], results: dict[int, int]
    ) -> None:
        self.position = position
        self.orders = orders
        self.results = results


def adjudicate_retreats(position: Position, orders: dict[int, EngineOrder]) -> RetreatResult:
    """Adjudicate a retreat phase; ``orders`` maps dislodged units' provinces to orders."""
    m = position.map
    full: dict[int, EngineOrder] = {}
    results: dict[int, int] = {}
    by_target: dict[int, list[int]] = {}
    for p, (_, _, _, options) in position.dislodged.items():
        order = orders.get(p, DISBAND_ORDER)
        if order[0] == RETREAT and order[1] in options:
            by_target.setdefault(m.loc_province[order[1]], []).append(p)
        else:
            order = DISBAND_ORDER
            results[p] = SUC
        full[p] = order
    nxt = position.copy()
    for target, movers in by_target.items():
        if len(movers) == 1:
            p = movers[0]
            power, utype, _, _ = position.dislodged[p]
            nxt.units[target] = (power, utype, full[p][1])
            results[p] = SUC
        else:
            for p in movers:
                results[p] = BNC
    after_retreats(nxt)
    return RetreatResult(nxt, full, results)
