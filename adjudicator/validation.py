"""Checking orders from outside, with the verdicts a DAIDE server gives in THX.

:class:`OrderBook` collects one phase's orders as a server does: each
submitted order gets a note (``MBV`` when accepted; ``FAR``, ``NSU``, ``NYU``,
``NRS``, ``NAS``, ``NSF``, ``NSA``, ``CST``, ``NRN``, ``NVR``, ``NSC``,
``YSC``, ``HSC``, ``ESC``, ``NMB``, ``NMR`` otherwise), a later order for the
same unit replaces an earlier one, and refused orders are dropped (the unit
then holds, or disbands in a retreat phase).  Accepted orders come out in
engine form for :mod:`adjudicator.movement` and friends.

The checks follow Parlance 1.4.1 with its default DATC options:

* an army ordered ``MTO`` to a coastal province it cannot reach by land moves
  by convoy if a chain of fleet-occupied seas leads there (otherwise ``FAR``);
* ``CTO`` needs such a chain (``FAR``), an army in a coastal province
  (``NSA``) and, if ``VIA`` is given, a path of fleets at sea that is one of
  those chains (``NSF``, ``NAS``, ``FAR``);
* a fleet ordered into a split-coast province without a coast goes to the
  only coast it can reach, and gets ``CST`` when it could reach both
  (DATC 4.B.1 a, 4.B.2 a); a coast it cannot reach gets ``FAR`` (4.B.3 b); a
  coast given for a single-coast province is ignored (4.B.6 b); a unit named
  with the wrong coast does not exist (``NSU``, 4.B.5 a);
* supports may name a coast or not (4.B.4 d); a support for a move that needs
  a convoy needs a chain that does not pass through the supporter;
* a convoy order is accepted from any fleet on some chain from the army to the
  destination, even one that lies only on a detour and is necessary for no
  route (DATC 6.G.19 and issue 4.E.1 offer both readings; the DATC prefers to
  refuse such an order, Parlance accepts it, and so it can show France's
  intent to convoy in 6.G.19).
"""

from __future__ import annotations

from adjudicator.maps import ARMY, COASTAL, FLEET, SEA, GameMap
from adjudicator.orders import (
    BUILD,
    CONVOY,
    CONVOY_MOVE,
    DISBAND_ORDER,
    HOLD_ORDER,
    MOVE,
    REMOVE,
    RETREAT,
    SUPPORT_HOLD,
    SUPPORT_MOVE,
    WAIVE_ORDER,
    EngineOrder,
)
from adjudicator.position import MOVEMENT_SEASONS, RETREAT_SEASONS, Position, UnitTuple
from adjudicator.routes import sea_chains
from protocol.values import (
    Build,
    Convoy,
    Disband,
    Hold,
    Location,
    Move,
    MoveByConvoy,
    Order,
    Remove,
    Retreat,
    SupportHold,
    SupportMove,
    Unit,
    UnitType,
    Waive,
)

MBV = "MBV"

_MOVEMENT_ORDERS = (Hold, Move, SupportHold, SupportMove, Convoy, MoveByConvoy)
_RETREAT_ORDERS = (Retreat, Disband)
_ADJUSTMENT_ORDERS = (Build, Remove, Waive)


class _Refused(Exception):
    def __init__(self, note: str) -> None:
        self.note = note


def _unit_id(m: GameMap, unit: Unit) -> tuple[int, int, int]:
    """(power, type, location) of a value unit, or refuse with NSP/NSU-like notes."""
    power = m.power_index.get(unit.power)
    prov = m.province_index.get(unit.location.province)
    if power is None or prov is None:
        raise _Refused("NSP")
    utype = ARMY if unit.kind is UnitType.ARMY else FLEET
    loc = m.location_index.get((unit.location.province, unit.location.coast))
    if loc is None:
        raise _Refused("NSU")
    return power, utype, loc


def geometric_routes(pos: Position, army_prov: int, dest: int) -> list[tuple[int, ...]]:
    """Chains of fleet-occupied seas from ``army_prov`` to the coastal ``dest`` (shortest first).

    This is where a convoy *could* go whatever the fleets are ordered to do; a
    server accepts convoy-related orders only along such chains.
    """
    m = pos.map
    if dest == army_prov or m.kind[dest] != COASTAL:
        return []
    seas = {p for p, u in pos.units.items() if m.kind[p] == SEA and u[1] == FLEET}
    return sea_chains(m, army_prov, dest, seas)


def minimal_routes(routes: list[tuple[int, ...]]) -> list[tuple[int, ...]]:
    """The routes no other route is a strict subset of (the fleets that are *necessary*).

    Not a legality rule (a server accepts a convoy order on any route, see the
    module docstring): the random-order corpus uses it to convoy along routes
    without detours.
    """
    sets = [frozenset(r) for r in routes]
    return [r for r, s in zip(routes, sets, strict=True) if not any(o < s for o in sets)]


def destination_location(m: GameMap, utype: int, loc: int, dest: Location) -> int | None:
    """The location a unit at ``loc`` ordered to ``dest`` means, as Parlance reads it.

    Armies go to the province.  Fleets: an exact coast that exists is taken as
    given; no coast (or an irrelevant one) picks the only coast of the province
    the fleet can reach; ``None`` when that is ambiguous or impossible.
    """
    prov = m.province_index.get(dest.province)
    if prov is None:
        return None
    if utype == ARMY:
        return prov if m.kind[prov] != SEA else None
    exact = m.location_index.get((dest.province, dest.coast))
    coasts = m.fleet_locations[prov]
    if exact is not None and exact in coasts:
        return exact
    candidates = [c for c in coasts if dest.coast is None or m.loc_coast[c] == dest.coast]
    if not candidates:
        candidates = list(coasts)  # an irrelevant coast is ignored (4.B.6 b)
    if len(candidates) == 1:
        return candidates[0]
    nearby = [c for c in candidates if c in m.fleet_adjacent[loc]]
    return nearby[0] if len(nearby) == 1 else None


class OrderBook:
    """One phase's accepted orders, with the THX note of each submission."""

    __slots__ = ("_adjustments", "_by_unit", "_values", "pos")

    def __init__(self, pos: Position) -> None:
        self.pos = pos
        self._by_unit: dict[int, EngineOrder] = {}
        self._values: dict[int, Order] = {}
        self._adjustments: dict[int, list[tuple[EngineOrder, Order]]] = {}

    # --- submission --------------------------------------------------------------------

    def submit(self, power: str, order: Order) -> str:
        """Check ``order`` from ``power`` and keep it if valid; returns the THX note."""
        try:
            self._accept(power, order)
        except _Refused as refused:
            return refused.note
        return MBV

    def _accept(self, power_name: str, order: Order) -> None:
        pos = self.pos
        season = pos.season
        if season in MOVEMENT_SEASONS:
            if not isinstance(order, _MOVEMENT_ORDERS):
                raise _Refused("NRS")
        elif season in RETREAT_SEASONS:
            if not isinstance(order, _RETREAT_ORDERS):
                raise _Refused("NRS")
        elif not isinstance(order, _ADJUSTMENT_ORDERS):
            raise _Refused("NRS")

        power = pos.map.power_index.get(power_name)
        if isinstance(order, Waive):
            if order.power != power_name or power is None:
                raise _Refused("NYU")
            if self._builds_remaining(power) <= 0:
                raise _Refused("NMB")
            self._adjustments.setdefault(power, []).append((WAIVE_ORDER, order))
            return
        if order.unit.power != power_name:
            raise _Refused("NYU")
        if isinstance(order, Build):
            self._accept_build(power_name, order)
            return
        prov, unit = self._existing(order.unit, season in RETREAT_SEASONS)
        if isinstance(order, Remove):
            if self._builds_remaining(unit[0]) >= 0:
                raise _Refused("NMR")
            self._adjustments.setdefault(unit[0], []).append(((REMOVE, prov), order))
            return
        engine = self._engine_order(prov, unit, order)
        self._by_unit[prov] = engine
        self._values[prov] = order

    def _existing(self, value: Unit, dislodged: bool) -> tuple[int, UnitTuple]:
        m = self.pos.map
        power, utype, loc = _unit_id(m, value)
        prov = m.loc_province[loc]
        if dislodged:
            d = self.pos.dislodged.get(prov)
            if d is not None and d[:3] == (power, utype, loc):
                return prov, (power, utype, loc)
            if self.pos.units.get(prov) == (power, utype, loc):
                raise _Refused("NRN")
            raise _Refused("NSU")
        if self.pos.units.get(prov) != (power, utype, loc):
            raise _Refused("NSU")
        return prov, (power, utype, loc)

    def _engine_order(self, prov: int, unit: UnitTuple, order: Order) -> EngineOrder:
        pos = self.pos
        m = pos.map
        _, utype, loc = unit
        if isinstance(order, Hold):
            return HOLD_ORDER
        if isinstance(order, Disband):
            return DISBAND_ORDER
        if isinstance(order, Retreat):
            target = destination_location(m, utype, loc, order.destination)
            options = pos.dislodged[prov][3]
            if target is None or target not in options:
                raise _Refused("NVR")
            return (RETREAT, target)
        if isinstance(order, Move):
            return self._move(prov, utype, loc, order.destination)
        if isinstance(order, MoveByConvoy):
            return self._convoy_move(prov, utype, order)
        if isinstance(order, SupportHold):
            sprov, _ = self._existing(order.supported, False)
            if sprov not in m.reach(utype, loc):
                raise _Refused("FAR")
            return (SUPPORT_HOLD, sprov)
        if isinstance(order, SupportMove):
            return self._support_move(prov, utype, loc, order)
        if isinstance(order, Convoy):
            return self._convoy(prov, utype, order)
        raise _Refused("NRS")  # pragma: no cover - the phase check covers every type

    def _move(self, prov: int, utype: int, loc: int, dest: Location) -> EngineOrder:
        pos = self.pos
        m = pos.map
        target_prov = m.province_index.get(dest.province)
        if target_prov is None:
            raise _Refused("NSP")
        if utype == ARMY:
            if target_prov in m.army_reach[loc]:
                return (MOVE, target_prov)
            if m.kind[prov] == COASTAL and geometric_routes(pos, prov, target_prov):
                return (CONVOY_MOVE, target_prov, ())
            raise _Refused("FAR")
        if target_prov not in m.fleet_reach[loc]:
            raise _Refused("FAR")
        target = destination_location(m, utype, loc, dest)
        if target is None:
            raise _Refused("CST")
        if target not in m.fleet_adjacent[loc]:
            raise _Refused("FAR")
        return (MOVE, target)

    def _convoy_move(self, prov: int, utype: int, order: MoveByConvoy) -> EngineOrder:
        pos = self.pos
        m = pos.map
        if utype != ARMY or m.kind[prov] != COASTAL:
            raise _Refused("NSA")
        dest = m.province_index.get(order.destination)
        if dest is None:
            raise _Refused("NSP")
        if m.kind[dest] == SEA:
            raise _Refused("CST")
        routes = geometric_routes(pos, prov, dest)
        if not routes:
            raise _Refused("FAR")
        if not order.path:
            return (CONVOY_MOVE, dest, ())
        path: list[int] = []
        for name in order.path:
            p = m.province_index.get(name)
            if p is None:
                raise _Refused("NSP")
            path.append(p)
        if any(p not in pos.units for p in path):
            raise _Refused("NSF")
        if any(m.kind[p] != SEA for p in path):
            raise _Refused("NAS")
        if any(pos.units[p][1] != FLEET for p in path):
            raise _Refused("NSF")
        if tuple(path) not in routes:
            raise _Refused("FAR")
        return (CONVOY_MOVE, dest, tuple(path))

    def _support_move(self, prov: int, utype: int, loc: int, order: SupportMove) -> EngineOrder:
        pos = self.pos
        m = pos.map
        sprov, (_, stype, sloc) = self._existing(order.supported, False)
        dest = m.province_index.get(order.destination)
        if dest is None:
            raise _Refused("NSP")
        if dest not in m.reach(utype, loc):
            raise _Refused("FAR")
        if dest not in m.reach(stype, sloc):
            if stype != ARMY or m.kind[sprov] != COASTAL:
                raise _Refused("FAR")
            routes = geometric_routes(pos, sprov, dest)
            if not any(prov not in route for route in routes):
                raise _Refused("FAR")
        if order.coast is not None and stype == FLEET:
            named = m.location_index.get((order.destination, order.coast))
            if named is not None and len(m.fleet_locations[dest]) > 1:
                return (SUPPORT_MOVE, sprov, dest, named)
        return (SUPPORT_MOVE, sprov, dest)

    def _convoy(self, prov: int, utype: int, order: Convoy) -> EngineOrder:
        pos = self.pos
        m = pos.map
        if m.kind[prov] != SEA:
            raise _Refused("NAS")
        if utype != FLEET:
            raise _Refused("NSF")
        try:
            aprov, (_, atype, _) = self._existing(order.army, False)
        except _Refused:
            raise _Refused("NSA") from None
        if atype != ARMY or m.kind[aprov] != COASTAL:
            raise _Refused("NSA")
        dest = m.province_index.get(order.destination)
        if dest is None:
            raise _Refused("NSP")
        if m.kind[dest] == SEA:
            raise _Refused("CST")
        if not any(prov in route for route in geometric_routes(pos, aprov, dest)):
            raise _Refused("FAR")
        return (CONVOY, aprov, dest)

    # --- adjustments ----------------------------------------------------------------------

    def _builds_remaining(self, power: int) -> int:
        """Builds still to order (positive) or removals still to order (negative)."""
        due = self.pos.adjustments()[power]
        orders = self._adjustments.get(power, ())
        if due > 0:
            builds = {o[2] for o, _ in orders if o[0] == BUILD}
            waives = sum(1 for o, _ in orders if o[0] != BUILD and o[0] != REMOVE)
            return max(0, due - len(builds) - waives)
        if due < 0:
            removes = {o[1] for o, _ in orders if o[0] == REMOVE}
            return min(0, due + len(removes))
        return 0

    def _accept_build(self, power_name: str, order: Build) -> None:
        pos = self.pos
        m = pos.map
        power = m.power_index.get(power_name)
        if power is None:
            raise _Refused("NSP")
        utype = ARMY if order.unit.kind is UnitType.ARMY else FLEET
        loc = m.location_index.get((order.unit.location.province, order.unit.location.coast))
        if loc is None or not m.can_stand(utype, loc):
            raise _Refused("CST")
        prov = m.loc_province[loc]
        if prov in pos.units and pos.units[prov] == (power, utype, loc):
            raise _Refused("ESC")
        if not m.is_supply[prov]:
            raise _Refused("NSC")
        if pos.owners[prov] != power:
            raise _Refused("YSC")
        if prov not in m.homes[power]:
            raise _Refused("HSC")
        if prov in pos.units:
            raise _Refused("ESC")
        if any(
            o[0] == BUILD and m.loc_province[o[2]] == prov
            for o, _ in self._adjustments.get(power, ())
        ):
            raise _Refused("ESC")
        if self._builds_remaining(power) <= 0:
            raise _Refused("NMB")
        self._adjustments.setdefault(power, []).append(((BUILD, utype, loc), order))

    # --- output -------------------------------------------------------------------------------

    def unit_orders(self) -> dict[int, EngineOrder]:
        """Accepted movement or retreat orders, by unit province."""
        return dict(self._by_unit)

    def adjustment_orders(self) -> dict[int, list[EngineOrder]]:
        """Accepted winter orders, per power, in submission order."""
        return {p: [o for o, _ in lst] for p, lst in self._adjustments.items()}

    def missing(self, power: int) -> list[int] | int:
        """What ``power`` has yet to order: unit provinces (movement, retreats) or a count.

        In winter the count is positive for builds still open and negative for
        removals still due, the opposite sign of DAIDE's ``MIS (n)``.
        """
        pos = self.pos
        if pos.is_movement:
            return [
                p for p, u in sorted(pos.units.items()) if u[0] == power and p not in self._by_unit
            ]
        if pos.is_retreat:
            return [
                p
                for p, d in sorted(pos.dislodged.items())
                if d[0] == power and p not in self._by_unit
            ]
        return self._builds_remaining(power)
