"""The compiled DumbBot (``search/_fastbot.pyx``) and when it runs.

DumbBot's valuation and movement orders (:mod:`search.dumbbot_values`,
:class:`search.dumbbot.DumbBot`) are most of what a search does, and the
thesis's region weights (:mod:`search.mcts.weights`) much of the rest; when one
DumbBot plays them, a whole rollout (:func:`play_out`) and a step of the tree
(:func:`step`) run in C too.  Their compiled twins give the same values and, for
the same random generator state, the same orders (they draw the same numbers in
the same order); the
pure-Python code is their test oracle and their fallback.  The switch is
:mod:`adjudicator.compiled_rules`'s (one for every compiled path); a map or weights
the compiled code cannot hold exactly (more than 64 powers or options, values
that could pass 2**62) also run in pure Python.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import partial, reduce
from operator import add
from random import Random
from types import ModuleType
from typing import Any, Protocol

from adjudicator import compiled_rules as switch
from adjudicator.maps import GameMap
from adjudicator.orders import EngineOrder, Orders
from adjudicator.per_map import PerMap
from adjudicator.position import Position
from search.tables import DumbBotWeights, MapTables, tables_for

COMPILED: ModuleType | None = switch.load("search._fastbot")
"""The compiled extension (``search._fastbot``), or None when it was not built."""


def plain_sum(values: Iterable[float]) -> float:
    """``values`` added left to right from ``0.0``, as the compiled code adds them.

    ``sum`` of floats did the same up to Python 3.11; from 3.12 it compensates
    rounding errors (Neumaier's sum), which gives other floats.  The pure-Python
    oracles of compiled sums (the region weights, their mean, a combination's
    summed weight, the learned policy's softmax) add with this, so both paths
    give the same floats, and the same orders for the same seed, on every version.
    """
    return reduce(add, values, 0.0)


Pairs = Iterable[tuple[int, EngineOrder]]
"""Orders as ``(province, order)`` pairs (a tree's action)."""


class LearnedMoves(Protocol):
    """A learned order policy as the compiled step plays it.

    :class:`search.orderpolicy.LearnedPolicy` is one; this module does not import it
    (it imports this one).
    """

    def compiled(self, game_map: GameMap) -> Any:
        """The compiled policy on ``game_map``, or None (then the caller plays in Python)."""
        ...


class _Kept:
    """What is kept for one map's tables.

    Its compiled tables (None: pure Python) and, each in a
    :class:`~adjudicator.per_map.PerMap` (by identity), its kernels by DumbBot's weights
    and its learned policies by DumbBot's weights, then by the model's weights; each value
    a 1-tuple, as None is kept too.
    """

    __slots__ = ("cmap", "kernels", "policies")

    def __init__(self, cmap: Any) -> None:
        self.cmap = cmap
        self.kernels = PerMap()
        self.policies = PerMap()


_MAPS = PerMap()
"""What is kept per map's tables (a :class:`_Kept` each)."""


class Kernel:
    """The compiled DumbBot for one map and one set of weights.

    ``values(pos, power, removing)`` gives DumbBot's values (a ``CValues``, the
    interface of ``ProvinceValues``); ``movement_orders(pos, power, rng)`` its
    movement orders for ``power``; ``play_out(pos, rng, us, horizon, final_year,
    win_centres)`` a whole rollout with this DumbBot playing every power (see
    :func:`play_out`); ``play_out_reward(...)`` its reward alone (see
    :func:`rollout_kernel`); ``step(our_cweights, pos, action, rng, us, final_year,
    win_centres, known, policy=None)`` a step of the tree with this DumbBot playing the
    enemies, or their retreats and adjustments only (see :func:`step`).  ``cweights``
    are the weights in C.
    """

    __slots__ = ("cweights", "movement_orders", "play_out", "play_out_reward", "step", "values")

    def __init__(self, cmap: Any, cweights: Any) -> None:
        assert COMPILED is not None
        self.cweights = cweights
        self.values: Callable[[Position, int, bool], Any] = partial(COMPILED.values, cmap, cweights)
        self.movement_orders: Callable[[Position, int, Random], Orders] = partial(
            COMPILED.movement_orders, cmap, cweights
        )
        self.play_out: Callable[[Position, Random, int, int, int, int], Position] = partial(
            COMPILED.play_out, cmap, cweights
        )
        self.play_out_reward: Callable[..., float] = partial(
            COMPILED.play_out_reward, cmap, cweights
        )
        self.step: Callable[..., Position | None] = partial(COMPILED.step, cmap, cweights)


def kernel(tables: MapTables, weights: DumbBotWeights) -> Kernel | None:
    """The compiled DumbBot for ``tables``' map and ``weights``, or None to run pure Python."""
    kept = _kept(tables)
    if kept is None or kept.cmap is None:
        return None
    found = kept.kernels.get(weights)
    if found is None:
        found = kept.kernels.put(weights, (_make(kept.cmap, weights),))
    return found[0]  # type: ignore[no-any-return]


def rollout_kernel(weights: DumbBotWeights, pos: Position) -> Kernel | None:
    """The kernel a compiled rollout from ``pos`` runs on, or None (pure Python).

    Its ``play_out_reward(pos, rng, us, horizon, final_year, win_centres, player_draws,
    players)`` is :meth:`search.mcts.domain.DiplomacyDomain.rollout`'s reward without the
    position the rollout ends in: first ``player_draws`` times ``rng.randrange(players)``
    (the enemies' rollout players drawn, each this DumbBot), then the rollout.
    """
    if switch.fast_movement() is None:
        return None
    return kernel(tables_for(pos.map), weights)


def play_out(
    weights: DumbBotWeights,
    pos: Position,
    rng: Random,
    us: int,
    horizon: int,
    final_year: int,
) -> Position | None:
    """Where a rollout from ``pos`` ends with the DumbBot of ``weights`` playing every power.

    What :meth:`search.mcts.domain.DiplomacyDomain.play_out` plays phase by phase
    in Python (to winter of ``horizon``, or the end of the game for ``us`` in
    ``final_year``), compiled whole and drawing the same numbers from ``rng``;
    None when the compiled code does not run (then the caller plays it in
    Python).
    """
    fast = rollout_kernel(weights, pos)
    if fast is None:
        return None
    return fast.play_out(pos, rng, us, horizon, final_year, pos.map.win_centres)


def step(
    weights: DumbBotWeights,
    our_weights: DumbBotWeights,
    pos: Position,
    action: Pairs,
    rng: Random,
    us: int,
    final_year: int,
    known: Any = None,
    policy: LearnedMoves | None = None,
) -> Position | None:
    """A step of the tree from the movement phase ``pos``, compiled, or None.

    ``us`` plays ``action`` (``(province, order)`` pairs) and the DumbBot of
    ``weights`` every other power: what
    :meth:`search.mcts.domain.DiplomacyDomain.step` does when that DumbBot is
    the enemies' model and their retreat and adjustment player, and our
    retreats and adjustments are a plain :class:`~search.heuristics.PhaseHeuristics`
    of ``our_weights``.  The movement, then the retreat and adjustment phases
    until a movement phase or the end of the game in ``final_year``.  None,
    before any draw from ``rng``, when the compiled code does not run or
    ``action`` holds an order it does not play (a convoy, a support naming a
    coast).  ``known`` (from :func:`node_values`, or None) keeps the enemies'
    values on ``pos`` for the next step from it.  With a learned ``policy`` the enemies'
    movement orders are its draws (:meth:`~search.orderpolicy.LearnedPolicy.movement_orders`)
    and the DumbBot of ``weights`` plays only their retreats and adjustments; ``known``
    then keeps the values of the policy's DumbBot.
    """
    if switch.fast_movement() is None:
        return None
    tables = tables_for(pos.map)
    fast = kernel(tables, weights)
    ours = kernel(tables, our_weights)
    if fast is None or ours is None:
        return None
    compiled_policy = None
    if policy is not None:
        compiled_policy = policy.compiled(pos.map)
        if compiled_policy is None:
            return None
    return fast.step(
        ours.cweights,
        pos,
        action,
        rng,
        us,
        final_year,
        pos.map.win_centres,
        known,
        compiled_policy,
    )


def learned_policy(tables: MapTables, weights: tuple[float, ...], dumbbot: DumbBotWeights) -> Any:
    """The compiled movement orders of a learned order model, or None to run pure Python.

    A ``search._fastbot.CPolicy`` for ``tables``' map: the model's ``weights`` (one per
    feature of :data:`search.orderpolicy.FEATURES`) and the DumbBot of ``dumbbot``
    whose draw gives the feature of DumbBot's choice (see
    :class:`search.orderpolicy.LearnedPolicy`).  ``learned_orders(cmap, policy, pos,
    power, rng)`` of the compiled module draws its orders; :func:`step` takes it as the
    enemies' player.
    """
    fast = kernel(tables, dumbbot)
    kept = _kept(tables)
    if fast is None or kept is None:
        return None
    assert COMPILED is not None
    by_model = kept.policies.get(dumbbot)
    if by_model is None:
        by_model = kept.policies.put(dumbbot, PerMap())
    found = by_model.get(weights)
    if found is None:
        try:
            made = COMPILED.CPolicy(kept.cmap, tables.map, weights, fast.cweights)
        except ValueError:
            made = None
        found = by_model.put(weights, (made,))
    return found[0]


def node_values(pos: Position) -> Any:
    """A store for the enemies' values on ``pos`` between steps (see :func:`step`), or None."""
    cmap = compiled_map(tables_for(pos.map))
    if cmap is None:
        return None
    assert COMPILED is not None
    return COMPILED.NodeValues(cmap)


def compiled_map(tables: MapTables) -> Any:
    """The compiled tables of ``tables``' map (one per map), or None to run pure Python."""
    kept = _kept(tables)
    return None if kept is None else kept.cmap


def _kept(tables: MapTables) -> _Kept | None:
    """What is kept for ``tables`` (made on first use), or None when the compiled code is off."""
    if COMPILED is None or not switch.enabled():
        return None
    kept: _Kept | None = _MAPS.get(tables)
    if kept is None:
        try:
            cmap = COMPILED.CMap(tables.map, tables)
        except ValueError:
            cmap = None
        kept = _MAPS.put(tables, _Kept(cmap))
    return kept


def _make(cmap: Any, weights: DumbBotWeights) -> Kernel | None:
    assert COMPILED is not None
    try:
        cweights = COMPILED.CWeights(weights)
    except ValueError:
        return None
    return Kernel(cmap, cweights) if cweights.fits(cmap) else None


def region_weights(
    tables: MapTables,
    pos: Position,
    power: int,
    level_weights: tuple[float, ...],
    foreign_constant: int,
) -> list[float] | None:
    """The thesis's region weights compiled (see :mod:`search.mcts.weights`), or None."""
    cmap = compiled_map(tables)
    if cmap is None:
        return None
    assert COMPILED is not None
    return COMPILED.region_weights(  # type: ignore[no-any-return]
        cmap, pos, power, level_weights, foreign_constant
    )


def movement_phases(phases: list[tuple[Position, Orders]]) -> Any:
    """The movement phases read into C arrays once, or None when the compiled code does not run.

    Each phase is a position and its orders, as :func:`step` takes an action (no
    convoys, no coasts named); ``run()`` resolves and applies every phase in C
    as the compiled rollouts and steps do (``search._fastbot.MovementPhases``),
    ``next_position(i)`` gives phase ``i``'s next position.  All phases are on
    the first one's map.
    """
    if not phases or switch.fast_movement() is None:
        return None
    game_map = phases[0][0].map
    cmap = compiled_map(tables_for(game_map))
    if cmap is None:
        return None
    assert COMPILED is not None
    return COMPILED.MovementPhases(cmap, game_map, phases)
