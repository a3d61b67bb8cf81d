"""Agreements as constraints on orders: how the rollouts that value an agreement play it.

An agreement made in press (:mod:`bot.client.core.negotiator`) binds orders:

* **peace** with a power: neither side attacks the other — no move into (nor
  support of a move into, nor convoy to) a province where the other has a unit
  or owns a centre;
* a **demilitarised zone**: the named powers move no unit into the provinces;
* an **order promised** (``XDO``), for one movement phase: the unit gives that
  order (ours: we keep the agreement; a partner's: we take it at its word).

:class:`Constraints` is the typed value of power indices and engine-form orders
that :func:`search.negotiation.agreement_gain` plays its paired rollouts with
and without.  :meth:`Constraints.restrain` applies it to one power's order set:
an order that breaks it becomes a hold, and a promised order replaces the
unit's own in the promise's phase, so a restrained set is always a complete
legal set (a promise is checked legal when it is agreed).  The movement search
is not bound by agreements (``--press on`` did that, and lost to leaving it
free: docs/research.md, "Press at a table of PeaceBots").
"""

from __future__ import annotations

from dataclasses import dataclass, field

from adjudicator.orders import (
    CONVOY,
    CONVOY_MOVE,
    HOLD_ORDER,
    MOVE,
    SUPPORT_MOVE,
    EngineOrder,
    Orders,
)
from adjudicator.position import Position


@dataclass(frozen=True, slots=True)
class Zone:
    """A demilitarised zone: ``powers`` keep their units out of ``provinces`` (indices)."""

    powers: frozenset[int]
    provinces: frozenset[int]


@dataclass(frozen=True, slots=True)
class Promise:
    """An order promised (``XDO``) for one phase.

    In the phase ``(season, year)`` (engine season), the unit of ``power`` in
    ``province`` gives ``order`` (engine form, legal in that phase).
    """

    power: int
    province: int
    order: EngineOrder
    season: int
    year: int

    def applies(self, pos: Position, power: int) -> bool:
        """Whether the promise binds ``power``'s unit in ``pos`` (its phase, its unit)."""
        if power != self.power or pos.season != self.season or pos.year != self.year:
            return False
        unit = pos.units.get(self.province)
        return unit is not None and unit[0] == power


@dataclass(frozen=True, slots=True)
class Constraints:
    """The agreements of power ``us`` in force: peace partners, zones, orders promised.

    ``peace`` holds the power indices ``us`` is at peace with; ``zones`` the
    demilitarised zones; ``promised`` the orders promised, ours and our
    partners'.  The empty value (the default) constrains nothing.
    """

    us: int = -1
    peace: frozenset[int] = frozenset()
    zones: tuple[Zone, ...] = ()
    promised: tuple[Promise, ...] = field(default=())

    def __bool__(self) -> bool:
        """True when something is constrained."""
        return bool(self.peace or self.zones or self.promised)

    def target(self, pos: Position, order: EngineOrder) -> int | None:
        """The province an order attacks or helps attack (a move, a support to move, a convoy)."""
        code = order[0]
        if code == MOVE:
            return int(pos.map.loc_province[order[1]])
        if code == SUPPORT_MOVE or code == CONVOY:
            return int(order[2])
        if code == CONVOY_MOVE:
            return int(order[1])
        return None

    def _enemy_of(self, pos: Position, power: int, province: int) -> int | None:
        """Whose the province is, for an attack: the unit's power there, else the centre's owner."""
        unit = pos.units.get(province)
        if unit is not None and unit[0] != power:
            return int(unit[0])
        owner = pos.owners[province]
        if owner >= 0 and owner != power and pos.map.is_supply[province]:
            return int(owner)
        return None

    def breaks(self, pos: Position, power: int, order: EngineOrder) -> bool:
        """Whether ``power`` giving ``order`` in ``pos`` breaks an agreement of ``us``."""
        target = self.target(pos, order)
        if target is None:
            return False
        if self.peace:
            victim = self._enemy_of(pos, power, target)
            if power == self.us and victim in self.peace:
                return True
            if power in self.peace and victim == self.us:
                return True
        code = order[0]
        if code == MOVE or code == CONVOY_MOVE:
            return any(power in z.powers and target in z.provinces for z in self.zones)
        return False

    def restrain(self, pos: Position, power: int, orders: Orders) -> Orders:
        """``orders`` of ``power`` with each order breaking an agreement made a hold.

        A promised order replaces the unit's own in the promise's phase (ours
        when we keep our word, a partner's when we take it at its word).
        Returns ``orders`` itself when nothing changes.
        """
        changed: Orders | None = None
        for province, order in orders.items():
            if self.breaks(pos, power, order):
                changed = changed if changed is not None else dict(orders)
                changed[province] = HOLD_ORDER
        for promise in self.promised:
            if promise.applies(pos, power) and orders.get(promise.province) != promise.order:
                changed = changed if changed is not None else dict(orders)
                changed[promise.province] = promise.order
        return orders if changed is None else changed


NO_CONSTRAINTS = Constraints()
"""Nothing agreed."""
