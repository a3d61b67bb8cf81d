"""Adjudication of an adjustment (winter) phase: builds, removals, waives.

Orders are taken per power in the order given, each checked again against the
state the earlier ones left (so a build beyond the allowance fails).  A power
that removes too few units loses the ones farthest from its home centres
(fleets before armies at equal distance, then alphabetically by province);
a power that builds too few waives the rest.  How the distance is counted
differs between servers: see :class:`~adjudicator.rules.CivilDisorderRule`.
"""

from __future__ import annotations

from adjudicator.maps import FLEET, UNREACHABLE, GameMap
from adjudicator.orders import BUILD, REMOVE, SUC, WAIVE, WAIVE_ORDER, EngineOrder
from adjudicator.phases import after_adjustments
from adjudicator.position import Position
from adjudicator.rules import DEFAULT_CIVIL_DISORDER, JUDGE_NAMES, CivilDisorderRule

FAILED = -1
"""Result code of an adjustment order that no longer applies when adjudicated."""


class AdjustmentResult:
    """What a winter phase did, and the next position.

    ``outcomes`` lists ``(power, order, result)`` for every build, removal and
    waive, including the ones the rules filled in.
    """

    __slots__ = ("outcomes", "position")

    def __init__(self, position: Position, outcomes: list[tuple[int, EngineOrder, int]]) -> None:
        self.position = position
        self.outcomes = outcomes


def build_allowed(pos: Position, power: int, utype: int, loc: int) -> bool:
    """Whether ``power`` may build a unit of ``utype`` at ``loc`` now (ignoring the count)."""
    m = pos.map
    prov = m.loc_province[loc]
    return (
        prov in m.homes[power]
        and pos.owners[prov] == power
        and prov not in pos.units
        and m.can_stand(utype, loc)
    )


def home_distance(
    m: GameMap,
    power: int,
    prov: int,
    unit: tuple[int, int, int] | None = None,
    rule: CivilDisorderRule = DEFAULT_CIVIL_DISORDER,
) -> int:
    """Moves from ``prov`` to the nearest home centre of ``power``, counted by ``rule``.

    Under the DATC rule a fleet (``unit``, standing in ``prov``) counts fleet
    moves only; otherwise every step over land or sea counts.
    """
    if rule is CivilDisorderRule.DATC and unit is not None and unit[1] == FLEET:
        dist = m.fleet_distance[unit[2]]
    else:
        dist = m.distance[prov]
    best = UNREACHABLE
    for h in m.homes[power]:
        if dist[h] < best:
            best = dist[h]
    return best


def civil_disorder_removals(
    pos: Position, power: int, count: int, rule: CivilDisorderRule = DEFAULT_CIVIL_DISORDER
) -> list[int]:
    """The ``count`` units (provinces) civil disorder removes from ``power`` under ``rule``."""
    m = pos.map
    units = pos.units
    names = m.provinces
    if rule is CivilDisorderRule.DATC:
        names = tuple(JUDGE_NAMES.get(name, name) for name in names)
    ranked = sorted(
        (p for p, u in units.items() if u[0] == power),
        key=lambda p: (-home_distance(m, power, p, units[p], rule), -units[p][1], names[p]),
    )
    return ranked[:count]


def adjudicate_adjustments(
    position: Position,
    orders: dict[int, list[EngineOrder]],
    rule: CivilDisorderRule = DEFAULT_CIVIL_DISORDER,
) -> AdjustmentResult:
    """Adjudicate a winter phase; ``orders`` maps each power to its orders, in order.

    Missing removals are made by civil disorder under ``rule``.
    """
    nxt = position.copy()
    outcomes: list[tuple[int, EngineOrder, int]] = []
    adjust = position.adjustments()
    for power in range(position.map.num_powers):
        surplus = -adjust[power]  # units over centres: positive means removals due
        for order in orders.get(power, ()):
            kind = order[0]
            result = FAILED
            if kind == BUILD:
                if surplus < 0 and build_allowed(nxt, power, order[1], order[2]):
                    nxt.units[nxt.map.loc_province[order[2]]] = (power, order[1], order[2])
                    surplus += 1
                    result = SUC
            elif kind == REMOVE:
                unit = nxt.units.get(order[1])
                if surplus > 0 and unit is not None and unit[0] == power:
                    del nxt.units[order[1]]
                    surplus -= 1
                    result = SUC
            elif kind == WAIVE and surplus < 0:
                surplus += 1
                result = SUC
            outcomes.append((power, order, result))
        if surplus > 0:
            for p in civil_disorder_removals(nxt, power, surplus, rule):
                del nxt.units[p]
                outcomes.append((power, (REMOVE, p), SUC))
        for _ in range(-surplus if surplus < 0 else 0):
            outcomes.append((power, WAIVE_ORDER, SUC))
    after_adjustments(nxt)
    return AdjustmentResult(nxt, outcomes)
