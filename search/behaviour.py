"""Each power's play as a mixture of known players, learned from the orders it gave.

An opponent the search does not know is described by how often each of a
small :func:`library` of players would have given the orders it actually
gave: DumbBot as it plays, a livelier DumbBot, a DumbBot that always takes
its first choice, a DumbBot that holds its own centres when an enemy could
walk in (as D-Brane often does), the thesis's "into an adjacent foreign
centre, else hold" and "else random", and BANDANA's RandomBot.  For every unit order a power
gave, :func:`order_likelihoods` estimates each player's probability of that
order from a few draws of the player in the same position (smoothed towards
a uniform choice among the unit's holds, moves and supports, so that no
player gives any order probability 0).  :func:`fit_mixture` finds the mixture
weights over the players that make the power's orders most likely (EM for
the weights of a finite mixture, Dempster, Laird and Rubin 1977), with a
prior of :data:`PRIOR_UNITS` unit orders played as DumbBot: a power seen
for one phase is still mostly DumbBot, one seen for a game is what it did.

:class:`MixturePlayer` plays a power as its mixture: each unit's order comes
from a player drawn by the weights (every player that is drawn plays the
whole power once, so one draw costs at most one call per player).  DumbBot
retreats and adjusts for it.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from random import Random

from adjudicator.orders import HOLD_ORDER, EngineOrder
from adjudicator.position import Position
from search.dumbbot import DumbBot
from search.policy import Policy
from search.randombot import RandomBot
from search.values import DumbBotWeights

LIVELY_DUMBBOT = DumbBot(DumbBotWeights(play_alternative=80, alternative_difference_modifier=150))
"""DumbBot that strays from its first choice more often: a wider spread of candidates."""

FIRST_CHOICE_DUMBBOT = DumbBot(DumbBotWeights(play_alternative=0))
"""DumbBot that never strays from its first choice."""


def threatened_own_centres(pos: Position, power: int) -> list[int]:
    """The provinces of ``power``'s units that stand on its own centres with an enemy in reach."""
    game_map = pos.map
    guarded = [
        prov
        for prov, unit in pos.units.items()
        if unit[0] == power and game_map.is_supply[prov] and pos.owners[prov] == power
    ]
    if not guarded:
        return []
    enemies = [
        game_map.reach(utype, loc) for other, utype, loc in pos.units.values() if other != power
    ]
    return [prov for prov in guarded if any(prov in reach for reach in enemies)]


class GuardingDumbBot:
    """DumbBot whose units on their own centres hold while an enemy unit could move in.

    Players that defend before they attack (D-Brane holds on a threatened own
    centre about four times in ten, DumbBot one in ten) look like this one.
    Retreats and adjustments are DumbBot's.
    """

    name = "guard"

    def __init__(self, base: DumbBot | None = None) -> None:
        self.base = base if base is not None else DumbBot()

    def movement_orders(self, pos: Position, power: int, rng: Random) -> dict[int, EngineOrder]:
        """DumbBot's orders, with a hold for every unit on a threatened own centre."""
        orders = self.base.movement_orders(pos, power, rng)
        for prov in threatened_own_centres(pos, power):
            orders[prov] = HOLD_ORDER
        return orders

    def retreat_orders(self, pos: Position, power: int, rng: Random) -> dict[int, EngineOrder]:
        """DumbBot's retreats."""
        return self.base.retreat_orders(pos, power, rng)

    def adjustment_orders(self, pos: Position, power: int, rng: Random) -> list[EngineOrder]:
        """DumbBot's builds or removals."""
        return self.base.adjustment_orders(pos, power, rng)


@dataclass(frozen=True)
class Behaviour:
    """One player of the library, by name."""

    name: str
    player: Policy


LIBRARY_NAMES = (
    "dumbbot",
    "lively",
    "first-choice",
    "guard",
    "expected",
    "greedy-else-random",
    "random",
)
"""The players a power's mixture is made of, in order; the first (DumbBot) is the prior's."""


@functools.cache
def library() -> tuple[Behaviour, ...]:
    """The players of :data:`LIBRARY_NAMES`.

    Built on first use: the thesis's rule players live in :mod:`search.mcts`,
    whose package imports this module's users.
    """
    from search.mcts.players import EXPECTED_PLAYER, GREEDY_ELSE_RANDOM_PLAYER

    players: tuple[Policy, ...] = (
        DumbBot(),
        LIVELY_DUMBBOT,
        FIRST_CHOICE_DUMBBOT,
        GuardingDumbBot(),
        EXPECTED_PLAYER,
        GREEDY_ELSE_RANDOM_PLAYER,
        RandomBot(),
    )
    return tuple(Behaviour(n, p) for n, p in zip(LIBRARY_NAMES, players, strict=True))


DRAWS = 16
"""Draws of each player per power and phase that estimate its probability of an order."""

SMOOTHING = 1.0
"""Draws' worth of a uniform choice added to each estimate (no order has probability 0)."""

PRIOR_UNITS = 8.0
"""Unit orders' worth of prior belief that a power plays as DumbBot."""

MEMORY = 160
"""The most recent unit orders of a power the fit looks at (players change their play)."""

EM_STEPS = 12
"""EM iterations per fit (started from the last fit's weights, so few are needed)."""

Likelihoods = tuple[float, ...]
"""One unit order's estimated probability under each player of :func:`library`."""

Weights = tuple[float, ...]
"""Mixture weights over :func:`library`, summing to 1."""

PRIOR_WEIGHTS: Weights = (1.0,) + (0.0,) * (len(LIBRARY_NAMES) - 1)
"""The weights of a power never seen: DumbBot alone."""


def uniform_probability(pos: Position, prov: int) -> float:
    """A rough uniform probability for one order of the unit in ``prov``.

    One over the count of its hold, its moves and as many supports as it has
    neighbours: the scale of "any order at all" that smooths the estimates.
    """
    _, utype, loc = pos.units[prov]
    neighbours = len(pos.map.adjacent(utype, loc))
    return 1.0 / (1 + 2 * neighbours)


def order_likelihoods(
    pos: Position,
    power: int,
    orders: Mapping[int, EngineOrder],
    rng: Random,
    *,
    draws: int = DRAWS,
    players: Sequence[Behaviour] | None = None,
) -> list[Likelihoods]:
    """Each player's estimated probability of each of ``power``'s unit orders in ``pos``.

    One row per unit of ``power`` (in province order); a unit without an
    order holds.  Each player (of ``players``, by default :func:`library`) is
    drawn ``draws`` times.
    """
    provs = sorted(p for p, u in pos.units.items() if u[0] == power)
    if not provs:
        return []
    counts: list[list[Counter[EngineOrder]]] = []
    for behaviour in players if players is not None else library():
        per_unit = [Counter[EngineOrder]() for _ in provs]
        for _ in range(draws):
            drawn = behaviour.player.movement_orders(pos, power, rng)
            for k, prov in enumerate(provs):
                per_unit[k][drawn.get(prov, HOLD_ORDER)] += 1
        counts.append(per_unit)
    rows: list[Likelihoods] = []
    for k, prov in enumerate(provs):
        order = orders.get(prov, HOLD_ORDER)
        base = SMOOTHING * uniform_probability(pos, prov)
        rows.append(tuple((c[k][order] + base) / (draws + SMOOTHING) for c in counts))
    return rows


def fit_mixture(
    rows: Sequence[Likelihoods],
    start: Weights | None = None,
    *,
    prior_units: float = PRIOR_UNITS,
    steps: int = EM_STEPS,
) -> Weights:
    """The mixture weights that make ``rows`` most likely, with DumbBot's prior.

    Each EM step gives every row's responsibility to each player (its weight
    times its probability of the order, normalised) and sets the weights to
    the responsibilities' share, counting ``prior_units`` rows wholly
    DumbBot's; it starts halfway between ``start`` (the last fit) and
    uniform weights.  With no rows, the prior: DumbBot alone.
    """
    if not rows:
        return PRIOR_WEIGHTS
    size = len(rows[0])
    weights = [1.0 / size] * size
    if start is not None and len(start) == size:
        # Halfway to uniform: EM never moves a weight away from 0.
        weights = [(w + u) / 2 for w, u in zip(start, weights, strict=True)]
    prior = [prior_units] + [0.0] * (size - 1)
    total = len(rows) + prior_units
    for _ in range(steps):
        shares = prior[:]
        for row in rows:
            parts = [w * p for w, p in zip(weights, row, strict=True)]
            z = sum(parts)
            if z > 0:
                for i, part in enumerate(parts):
                    shares[i] += part / z
        weights = [s / total for s in shares]
    return tuple(weights)


class MixturePlayer:
    """Plays each power by its mixture weights over :func:`library` (a :class:`Policy`).

    ``weights`` maps a power to its weights; a power without weights plays
    DumbBot.  Retreats and adjustments are DumbBot's.
    """

    name = "mixture"

    def __init__(
        self, weights: Mapping[int, Weights], players: Sequence[Behaviour] | None = None
    ) -> None:
        self.library = tuple(players) if players is not None else library()
        self.first = self.library[0].player
        self.weights: dict[int, tuple[list[float], list[Policy]]] = {}
        for power, ws in weights.items():
            kept = [(w, b.player) for w, b in zip(ws, self.library, strict=True) if w > 0]
            if len(kept) == 1 and kept[0][1] is self.first:
                continue
            cumulative: list[float] = []
            running = 0.0
            for w, _ in kept:
                running += w
                cumulative.append(running)
            self.weights[power] = (cumulative, [p for _, p in kept])

    def movement_orders(self, pos: Position, power: int, rng: Random) -> dict[int, EngineOrder]:
        """Every unit's order from a player drawn for it by ``power``'s weights."""
        mixture = self.weights.get(power)
        if mixture is None:
            return self.first.movement_orders(pos, power, rng)
        cumulative, players = mixture
        if len(players) == 1:
            return players[0].movement_orders(pos, power, rng)
        top = cumulative[-1]
        drawn: dict[int, dict[int, EngineOrder]] = {}
        out: dict[int, EngineOrder] = {}
        for prov, unit in pos.units.items():
            if unit[0] != power:
                continue
            x = rng.random() * top
            k = 0
            while k < len(cumulative) - 1 and x >= cumulative[k]:
                k += 1
            orders = drawn.get(k)
            if orders is None:
                orders = drawn[k] = players[k].movement_orders(pos, power, rng)
            out[prov] = orders.get(prov, HOLD_ORDER)
        return out

    def retreat_orders(self, pos: Position, power: int, rng: Random) -> dict[int, EngineOrder]:
        """DumbBot's retreats."""
        return self.first.retreat_orders(pos, power, rng)

    def adjustment_orders(self, pos: Position, power: int, rng: Random) -> list[EngineOrder]:
        """DumbBot's builds or removals."""
        return self.first.adjustment_orders(pos, power, rng)
