"""Candidate order sets DumbBot rarely plays: supported attacks on centres and enemy units.

DumbBot moves each unit to its best-valued destination and supports a move
of its own only into a province some enemy competes for.  It seldom gathers
two or three units against one defended centre, which is what a tactical bot
(D-Brane) does all the time.  :class:`SupportedAttacks` makes such order
sets: one of our units moves into a *target* — a supply centre we do not own,
or a province an enemy unit holds next to one of our centres — and up to
:data:`MAX_SUPPORTERS` other units that border it support the move; the rest
of our units play a DumbBot draw.
"""

from __future__ import annotations

from dataclasses import dataclass
from random import Random

from adjudicator.orders import HOLD_ORDER, MOVE, SUPPORT_MOVE, EngineOrder
from adjudicator.position import Position
from search.mcts.actions import DEFAULT_CAP, Action, EmptySource, SampledActions, Sources, as_action
from search.policy import Policy

MAX_SUPPORTERS = 2
"""Most of our units supporting one attack."""

Attack = tuple[int, int, tuple[int, ...]]
"""``(mover's province, destination location, supporters' provinces)``."""


def attacks(pos: Position, power: int) -> list[Attack]:
    """Every supported attack ``power`` can make: one per target and mover, all supporters."""
    m = pos.map
    units = pos.units
    owners = pos.owners
    ours = pos.units_of(power)
    our_centres = {c for c in m.supply_centres if owners[c] == power}
    out: list[Attack] = []
    for target in range(m.num_provinces):
        holder = units.get(target)
        if holder is not None and holder[0] == power:
            continue
        if m.is_supply[target]:
            if owners[target] == power and holder is None:
                continue
        elif holder is None or not any(q in our_centres for q in m.neighbours[target]):
            continue
        movers = [
            (prov, loc)
            for prov in ours
            for loc in m.adjacent(units[prov][1], units[prov][2])
            if m.loc_province[loc] == target
        ]
        for mover, loc in movers:
            helpers = tuple(
                prov
                for prov in ours
                if prov != mover and target in m.reach(units[prov][1], units[prov][2])
            )
            if helpers:
                out.append((mover, loc, helpers))
    return out


@dataclass(frozen=True)
class SupportedAttacks:
    """Distinct order sets with one supported attack each, the other units from ``base``."""

    base: Policy
    cap: int = DEFAULT_CAP
    patience: int = 20

    def source(self, pos: Position, power: int, rng: Random) -> Sources:
        """Draws of a random attack over a draw of ``base``, lazily."""
        options = attacks(pos, power)
        if not options:
            return EmptySource()
        base = self.base

        def draw(r: Random) -> Action:
            mover, loc, helpers = options[r.randrange(len(options))]
            orders: dict[int, EngineOrder] = base.movement_orders(pos, power, r)
            for prov in pos.units_of(power):
                orders.setdefault(prov, HOLD_ORDER)
            orders[mover] = (MOVE, loc)
            target = pos.map.loc_province[loc]
            chosen = (
                helpers if len(helpers) <= MAX_SUPPORTERS else r.sample(helpers, MAX_SUPPORTERS)
            )
            for prov in chosen:
                orders[prov] = (SUPPORT_MOVE, mover, target)
            return as_action(orders)

        return SampledActions(draw, self.cap, self.patience)
