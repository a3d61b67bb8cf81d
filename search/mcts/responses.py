"""Our best replies to the enemies' likely orders, as extra candidates at the root.

MCTS weighs only the order sets its generators hand it, and DumbBot's draws
rarely hold a threatened centre, support a unit that must hold, or gather two
units against one defended centre.  A *reply* is found by local search
instead: draw :data:`PROFILES` order sets of all the enemies from the
domain's enemy model, start from a DumbBot draw of ours, and change one
unit's order at a time (hold, a move, a move with another unit's support, a
support of one of our units' current orders) to the change with the best
mean :func:`phase_value` over those profiles, for at most :data:`PASSES`
passes or until no change helps.

:class:`RepliesDomain` hands :data:`REPLIES` such replies out at the root, in
turn with the variant's own candidates; below the root the tree is the
variant's.  A reply costs a few hundred to a thousand adjudications of one
phase (4 to 25 ms, measured on a loaded 2-core VM), once per search.
"""

from __future__ import annotations

from random import Random

from adjudicator.legal import move_orders
from adjudicator.movement import next_position
from adjudicator.orders import HOLD, MOVE, SUPPORT_HOLD, SUPPORT_MOVE, EngineOrder
from adjudicator.position import Position
from search.mcts.actions import Action, InTurn, SampledActions, Sources, as_action
from search.mcts.config import Variant
from search.mcts.domain import DiplomacyDomain
from search.mcts.learned import LearnedEnemiesDomain
from search.policy import Policy

PROFILES = 6
"""Enemy order sets each reply is measured against."""

PASSES = 2
"""Passes over our units of the local search."""

REPLIES = 3
"""Replies handed out at the root (each from its own start and profiles)."""

DISLODGED_COST = 0.5
"""Centres' worth lost for each of our units dislodged in the phase."""


def phase_value(after: Position, power: int) -> float:
    """How well the movement went for ``power``, from the position right after it.

    The centres it stands on or owns with no enemy unit on them, minus
    :data:`DISLODGED_COST` for each of its units that must retreat.
    """
    m = after.map
    owners = after.owners
    units = after.units
    held = 0
    for sc in m.supply_centres:
        unit = units.get(sc)
        if (unit is not None and unit[0] == power) or (unit is None and owners[sc] == power):
            held += 1
    dislodged = sum(1 for d in after.dislodged.values() if d[0] == power)
    return held - DISLODGED_COST * dislodged


def unit_options(
    pos: Position, prov: int, orders: dict[int, EngineOrder], power: int
) -> list[EngineOrder]:
    """The unit's hold and moves, and its supports of our other units' orders in ``orders``.

    A unit that moves gets a support of that move, one that stays (holds or
    supports) a support to hold.
    """
    m = pos.map
    _, utype, loc = pos.units[prov]
    reach = m.reach(utype, loc)
    out = move_orders(pos, prov)
    for other, order in orders.items():
        if other == prov or pos.units[other][0] != power:
            continue
        if order[0] == MOVE:
            dest = m.loc_province[order[1]]
            if dest in reach and dest != prov:
                out.append((SUPPORT_MOVE, other, dest))
        elif other in reach:
            out.append((SUPPORT_HOLD, other))
    return out


def unit_changes(
    pos: Position, prov: int, orders: dict[int, EngineOrder], power: int
) -> list[dict[int, EngineOrder]]:
    """Changes the local search tries for the unit in ``prov``.

    Each of its :func:`unit_options` alone, and each of its moves with the
    support of one other unit of ours that can reach the destination: a
    supported attack on a held province gains nothing move by move, so it
    is tried as one change.
    """
    m = pos.map
    changes: list[dict[int, EngineOrder]] = []
    for option in unit_options(pos, prov, orders, power):
        changes.append({prov: option})
        if option[0] != MOVE:
            continue
        dest = m.loc_province[option[1]]
        for other in orders:
            if other == prov:
                continue
            _, otype, oloc = pos.units[other]
            if dest in m.reach(otype, oloc):
                changes.append({prov: option, other: (SUPPORT_MOVE, prov, dest)})
    return changes


def best_reply(
    pos: Position,
    power: int,
    start: dict[int, EngineOrder],
    profiles: list[dict[int, EngineOrder]],
    rng: Random,
    passes: int = PASSES,
) -> dict[int, EngineOrder]:
    """``start`` improved a unit at a time against ``profiles`` (see the module docstring).

    A change may leave another unit's support void (its unit now does
    something else); the value counts that, and the reply's void supports
    are holds.
    """
    ours = dict(start)
    for prov in pos.units_of(power):
        ours.setdefault(prov, (HOLD,))

    def value(candidate: dict[int, EngineOrder]) -> float:
        total = 0.0
        for enemies in profiles:
            orders = dict(enemies)
            orders.update(candidate)
            total += phase_value(next_position(pos, orders), power)
        return total / len(profiles)

    current = value(ours)
    provs = list(ours)
    for _ in range(passes):
        rng.shuffle(provs)
        improved = False
        for prov in provs:
            best: dict[int, EngineOrder] | None = None
            for change in unit_changes(pos, prov, ours, power):
                saved = {p: ours[p] for p in change}
                if saved == change:
                    continue
                ours.update(change)
                trial = value(ours)
                ours.update(saved)
                if trial > current + 1e-9:
                    current, best = trial, change
            if best is not None:
                ours.update(best)
                improved = True
        if not improved:
            break
    return _drop_void_supports(ours, pos)


def _void(order: EngineOrder, orders: dict[int, EngineOrder], pos: Position) -> bool:
    """A support of one of our units that does not match what that unit does."""
    if order[0] == SUPPORT_HOLD:
        return orders.get(order[1], (HOLD,))[0] == MOVE
    if order[0] == SUPPORT_MOVE:
        target = orders.get(order[1])
        return target is None or target[0] != MOVE or pos.map.loc_province[target[1]] != order[2]
    return False


def _drop_void_supports(orders: dict[int, EngineOrder], pos: Position) -> dict[int, EngineOrder]:
    """Supports that no longer match their unit's order become holds (the same in effect)."""
    return {prov: (HOLD,) if _void(order, orders, pos) else order for prov, order in orders.items()}


class RepliesDomain(DiplomacyDomain):
    """:class:`DiplomacyDomain` whose root candidates include our best replies.

    The root is the first state whose actions the search asks for; ``start``
    is the player whose draw each reply starts from.
    """

    def __init__(
        self,
        variant: Variant,
        us: int,
        final_year: int,
        num_powers: int,
        *,
        start: Policy,
        replies: int = REPLIES,
    ) -> None:
        super().__init__(variant, us, final_year, num_powers)
        self.start = start
        self.replies = replies
        self.root: Position | None = None

    def actions(self, state: Position, rng: Random) -> Sources:
        """At the root, our replies in turn with the variant's candidates; elsewhere those."""
        own = super().actions(state, rng)
        if self.root is None:
            self.root = state
        if state is not self.root or self.replies <= 0:
            return own
        return InTurn([SampledActions(lambda r: self._reply(state, r), self.replies, 3), own])

    def _reply(self, pos: Position, rng: Random) -> Action:
        model = self.enemy_model()
        profiles = [model.orders(pos, self.us, rng) for _ in range(PROFILES)]
        start = self.start.movement_orders(pos, self.us, rng)
        return as_action(best_reply(pos, self.us, start, profiles, rng))


class LearnedRepliesDomain(RepliesDomain, LearnedEnemiesDomain):
    """Our best replies to the enemies' fitted mixtures, which also play them in the tree.

    ``rollouts`` as in :class:`~search.mcts.learned.LearnedEnemiesDomain`.
    """

    def __init__(
        self,
        variant: Variant,
        us: int,
        final_year: int,
        num_powers: int,
        *,
        start: Policy,
        replies: int = REPLIES,
        rollouts: bool = True,
    ) -> None:
        super().__init__(variant, us, final_year, num_powers, start=start, replies=replies)
        self.in_rollouts = rollouts
