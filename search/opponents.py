"""What each power has been seen to do this game: statistics of its actual orders.

After every movement phase the server reports every power's orders (``ORD``).
:meth:`OpponentStats.observe` folds one phase into the statistics: for each
power, how many unit orders it gave, how many were holds, moves, supports and
convoys, how many of its moves went into a province another power owns or
occupies (per target power: "attacks us"), and how *DumbBot-like* its orders
were.  The last compares the probability DumbBot gives each order the power
actually gave (estimated from :data:`DUMBBOT_SAMPLES` draws of DumbBot in the
same position) with the probability DumbBot gives its own orders (the chance
that two of its draws agree).  For DumbBot itself the two sums grow alike, so
:meth:`OpponentStats.dumbbot_likeness` tends to 1; for a power that plays
otherwise it falls towards 0.

The statistics are a small frozen value of tuples, cheap to pickle.  In the
live bot the search process keeps them with an :class:`OpponentTracker`: the
client hands each job the movement phases seen so far, as ``(position data,
every unit's engine order)`` pairs (:data:`Observed`; :func:`orders_from_results`
turns a phase's ``ORD`` results into those orders), and the tracker folds in
the phases it has not seen yet (about 0.1 s of DumbBot draws per phase).

Each profile also keeps the estimated probabilities of the power's latest
unit orders under every player of :func:`search.behaviour.library`, and the
mixture of those players fitted to them (:meth:`OpponentStats.mixture`):
what a search that learns its enemies plays them as.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from random import Random

from adjudicator.maps import GameMap
from adjudicator.orders import (
    CONVOY,
    CONVOY_MOVE,
    HOLD,
    MOVE,
    SUPPORT_HOLD,
    SUPPORT_MOVE,
    EngineOrder,
)
from adjudicator.position import Position, PositionData
from adjudicator.validation import OrderBook
from protocol.values import OrderResult, order_power
from search.behaviour import (
    MEMORY,
    PRIOR_WEIGHTS,
    Likelihoods,
    Weights,
    fit_mixture,
    order_likelihoods,
)
from search.dumbbot import DumbBot
from search.policy import Policy

DUMBBOT_SAMPLES = 16
"""DumbBot's draws per power and phase that estimate the probability of an order."""

PRIOR_UNITS = 8.0
"""Unit orders' worth of prior belief that a power plays as DumbBot (shrinks early estimates)."""

TRACKER_SEED = 1905
"""Seed of the tracker's DumbBot draws (the statistics repeat for the same game)."""

NO_OWNER = -1

Observed = Sequence[tuple[PositionData, Mapping[int, EngineOrder]]]
"""A game's movement phases so far: each position (``Position.to_data()``) and every order."""


@dataclass(frozen=True)
class PowerProfile:
    """One power's orders so far.

    ``likelihood`` sums, over its unit orders, DumbBot's estimated probability
    of that order; ``typical`` sums DumbBot's probability of agreeing with
    itself for the same units.  ``attacks[q]`` counts its moves into a
    province power ``q`` owned or occupied.  ``rows`` holds the probability
    of each of its latest unit orders under every player of the behaviour
    library (at most :data:`~search.behaviour.MEMORY`), and ``mixture`` the
    weights fitted to them.
    """

    units: int = 0
    holds: int = 0
    moves: int = 0
    supports: int = 0
    convoys: int = 0
    likelihood: float = 0.0
    typical: float = 0.0
    attacks: tuple[int, ...] = ()
    rows: tuple[Likelihoods, ...] = ()
    mixture: Weights = PRIOR_WEIGHTS


@dataclass(frozen=True)
class OpponentStats:
    """Every power's :class:`PowerProfile`, over ``phases`` observed movement phases."""

    phases: int
    powers: tuple[PowerProfile, ...]

    @classmethod
    def empty(cls, num_powers: int) -> OpponentStats:
        """No phase seen yet."""
        return cls(0, tuple(PowerProfile(attacks=(0,) * num_powers) for _ in range(num_powers)))

    def dumbbot_likeness(self, power: int, prior: float = PRIOR_UNITS) -> float:
        """How much ``power`` plays like DumbBot, 1 for DumbBot itself, in [0, 1].

        The ratio of ``likelihood`` to ``typical``, each with ``prior`` unit
        orders of DumbBot's own play added, so a power starts at 1.
        """
        p = self.powers[power]
        if p.typical <= 0:
            return 1.0
        mean_typical = p.typical / max(1, p.units)
        ratio = (p.likelihood + prior * mean_typical) / (p.typical + prior * mean_typical)
        return max(0.0, min(1.0, ratio))

    def mixture(self, power: int) -> Weights:
        """``power``'s weights over the behaviour library (DumbBot alone before any order)."""
        return self.powers[power].mixture

    def observe(
        self,
        pos: Position,
        orders: Mapping[int, EngineOrder],
        rng: Random,
        *,
        model: Policy | None = None,
        samples: int = DUMBBOT_SAMPLES,
    ) -> OpponentStats:
        """These statistics with one more movement phase: every unit's ``orders`` in ``pos``.

        A unit without an order counts as holding.  ``model`` (DumbBot by
        default) is the player the likeness compares with.  Each power's
        mixture over the behaviour library is refitted.
        """
        player = model if model is not None else _DUMBBOT
        by_power: dict[int, list[int]] = {}
        for prov, unit in pos.units.items():
            by_power.setdefault(unit[0], []).append(prov)
        profiles = list(self.powers)
        for power, provs in by_power.items():
            draws = [player.movement_orders(pos, power, rng) for _ in range(samples)]
            profile = _fold(profiles[power], pos, provs, orders, draws)
            rows = (*profile.rows, *order_likelihoods(pos, power, orders, rng))[-MEMORY:]
            mixture = fit_mixture(rows, profile.mixture)
            profiles[power] = replace(profile, rows=rows, mixture=mixture)
        return replace(self, phases=self.phases + 1, powers=tuple(profiles))


_DUMBBOT = DumbBot()


def _fold(
    profile: PowerProfile,
    pos: Position,
    provs: list[int],
    orders: Mapping[int, EngineOrder],
    draws: list[dict[int, EngineOrder]],
) -> PowerProfile:
    """``profile`` with the orders of the units in ``provs`` added."""
    m = pos.map
    n = len(draws)
    kinds = Counter[int]()
    attacks = list(profile.attacks)
    likelihood = typical = 0.0
    for prov in provs:
        order = orders.get(prov, (HOLD,))
        kind = order[0]
        kinds[kind] += 1
        if kind in (MOVE, CONVOY_MOVE):
            dest = m.loc_province[order[1]] if kind == MOVE else order[1]
            victim = _holder(pos, dest)
            if victim not in (NO_OWNER, pos.units[prov][0]):
                attacks[victim] += 1
        counts = Counter(d.get(prov, (HOLD,)) for d in draws)
        likelihood += counts[order] / n
        if n > 1:
            typical += (sum(c * c for c in counts.values()) - n) / (n * (n - 1))
        else:
            typical += 1.0
    return PowerProfile(
        units=profile.units + len(provs),
        holds=profile.holds + kinds[HOLD],
        moves=profile.moves + kinds[MOVE] + kinds[CONVOY_MOVE],
        supports=profile.supports + kinds[SUPPORT_HOLD] + kinds[SUPPORT_MOVE],
        convoys=profile.convoys + kinds[CONVOY],
        likelihood=profile.likelihood + likelihood,
        typical=profile.typical + typical,
        attacks=tuple(attacks),
        rows=profile.rows,
        mixture=profile.mixture,
    )


def _holder(pos: Position, prov: int) -> int:
    """Who stands in ``prov``, else who owns it (a centre), else nobody."""
    unit = pos.units.get(prov)
    if unit is not None:
        return unit[0]
    return pos.owners[prov] if pos.map.is_supply[prov] else NO_OWNER


def orders_from_results(pos: Position, results: Iterable[OrderResult]) -> dict[int, EngineOrder]:
    """Every unit's engine order in the movement phase ``pos``, from the server's ``ORD`` results.

    An order our rules would refuse is left out (its unit counts as holding).
    """
    book = OrderBook(pos)
    for result in results:
        book.submit(order_power(result.order), result.order)
    return book.unit_orders()


class OpponentTracker:
    """One game's :class:`OpponentStats`, kept where the search runs and fed phase by phase."""

    def __init__(self, seed: int = TRACKER_SEED) -> None:
        self.stats: OpponentStats | None = None
        self.seen = 0
        self._seed = seed
        self._rng = Random(seed)

    def update(self, game_map: GameMap, observed: Observed) -> OpponentStats | None:
        """The statistics of ``observed`` (the whole game so far); None before any phase.

        Phases already folded in are skipped; a shorter sequence than before
        means a new game, which starts afresh.
        """
        if len(observed) < self.seen:
            self.stats, self.seen, self._rng = None, 0, Random(self._seed)
        for data, orders in observed[self.seen :]:
            pos = Position.from_data(game_map, data)
            stats = self.stats or OpponentStats.empty(game_map.num_powers)
            self.stats = stats.observe(pos, orders, self._rng)
        self.seen = len(observed)
        return self.stats
