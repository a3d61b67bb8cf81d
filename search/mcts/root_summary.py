"""What the search thought at the root, for a person: its best sets and each unit's spread.

:func:`summarize` reads the root's statistics (each order set tried, its visits
and total reward, as :func:`search.mcts.parallel.merge` gives them) and says:

* the best ``top`` sets by the search's own final-selection rule, each with its
  mean value, its visits and its share of all root visits;
* per unit, how the visits spread over its orders: for each order, the share
  of root visits whose set gave the unit that order, and their mean value.

A unit a set leaves without an order holds (as the search plays it).  Pure:
no clock, no randomness.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from adjudicator.orders import HOLD_ORDER, EngineOrder, Orders
from search.mcts.config import FinalSelection
from search.mcts.order_sets import Action

RANKED_SETS = 5
"""How many of the best sets a person's hint shows."""


@dataclass(frozen=True, slots=True)
class RankedSet:
    """One order set of the root: every unit's order, its mean value, visits and visit share."""

    orders: Orders
    value: float
    visits: int
    share: float


@dataclass(frozen=True, slots=True)
class OrderShare:
    """One order of a unit: the share of root visits that gave it, and their mean value."""

    order: EngineOrder
    share: float
    value: float


@dataclass(frozen=True, slots=True)
class RootSummary:
    """The root's best sets (best first) and each unit's spread (most visited order first)."""

    sets: tuple[RankedSet, ...]
    spread: Mapping[int, tuple[OrderShare, ...]]
    visits: int


def _key(final: FinalSelection, visits: int, total: float) -> tuple[float, float]:
    mean = total / visits if visits else 0.0
    return (visits, mean) if final == "visits" else (mean, visits)


def summarize(
    root: Mapping[Action, tuple[int, float]],
    units: Iterable[int],
    final: FinalSelection,
    top: int = RANKED_SETS,
) -> RootSummary:
    """The summary of ``root`` (visits and total reward per set) for the power's ``units``.

    Sets never visited are left out; ties keep the order of ``root``.
    """
    provinces = tuple(units)
    tried = [(action, v, t) for action, (v, t) in root.items() if v > 0]
    visits = sum(v for _, v, _ in tried)
    if visits == 0:
        return RootSummary((), {p: () for p in provinces}, 0)
    ranked = sorted(tried, key=lambda e: _key(final, e[1], e[2]), reverse=True)
    sets = tuple(
        RankedSet(_complete(action, provinces), t / v, v, v / visits)
        for action, v, t in ranked[:top]
    )
    tallies: dict[int, dict[EngineOrder, list[float]]] = {p: {} for p in provinces}
    for action, v, t in tried:
        for province, order in _complete(action, provinces).items():
            tally = tallies[province].setdefault(order, [0.0, 0.0])
            tally[0] += v
            tally[1] += t
    spread = {
        province: tuple(
            sorted(
                (OrderShare(order, n / visits, total / n) for order, (n, total) in tally.items()),
                key=lambda s: s.share,
                reverse=True,
            )
        )
        for province, tally in tallies.items()
    }
    return RootSummary(sets, spread, visits)


def _complete(action: Action, provinces: tuple[int, ...]) -> Orders:
    given = dict(action)
    return {p: given.get(p, HOLD_ORDER) for p in provinces}
