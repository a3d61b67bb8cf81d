"""Playing phases forward with one policy per power: the engine of rollouts and arenas."""

from __future__ import annotations

from collections.abc import Sequence
from random import Random

from adjudicator.adjustments import adjudicate_adjustments
from adjudicator.movement import next_position
from adjudicator.orders import EngineOrder, Orders
from adjudicator.position import MOVEMENT_SEASONS, RETREAT_SEASONS, Position
from adjudicator.retreats import adjudicate_retreats
from search.policy import Policy


def play_phase(
    pos: Position,
    policies: Sequence[Policy | None],
    rng: Random,
    record: Orders | None = None,
) -> Position:
    """Adjudicate the phase ``pos`` is in, with ``policies[power]`` choosing each power's orders.

    A ``None`` policy gives no orders (units hold, dislodged units disband,
    builds are waived and removals made by the civil-disorder rule).  In a
    movement phase, ``record`` (if given) receives every order played.
    """
    season = pos.season
    if season in MOVEMENT_SEASONS:
        orders: Orders = {}
        powers_present = {u[0] for u in pos.units.values()}
        for power in powers_present:
            policy = policies[power]
            if policy is not None:
                orders.update(policy.movement_orders(pos, power, rng))
        if record is not None:
            record.update(orders)
        return next_position(pos, orders)
    if season in RETREAT_SEASONS:
        retreats: Orders = {}
        for power in {d[0] for d in pos.dislodged.values()}:
            policy = policies[power]
            if policy is not None:
                retreats.update(policy.retreat_orders(pos, power, rng))
        return adjudicate_retreats(pos, retreats).position
    adjust = pos.adjustments()
    builds: dict[int, list[EngineOrder]] = {}
    for power, due in enumerate(adjust):
        policy = policies[power]
        if due and policy is not None:
            builds[power] = policy.adjustment_orders(pos, power, rng)
    return adjudicate_adjustments(pos, builds).position
