"""The search tree's iterations compiled (``search/_fasttree.pyx``) when the ``dm`` path runs in C.

When one DumbBot plays every enemy in the tree (or a learned order policy's
draws are their movement orders, :class:`~search.orderpolicy.LearnedPolicy`, and
one DumbBot their retreats and adjustments) and the live bot's phase player ours
(the compiled step of :func:`search.compiled_search.step`), one DumbBot plays
every power in the rollouts (:func:`search.compiled_search.play_out`) and the
compiled code runs, :func:`compiled_search` gives a :class:`CompiledMcts`: the
same search as :class:`~search.mcts.uct.Mcts` over
:class:`~search.mcts.domain.DiplomacyDomain`, whose selection, expansion, child
lookup, end-of-game test, rollout reward and backpropagation run in C.  It
draws the same numbers in the same order and builds the same tree, so the
choices, statistics and the generator's state afterwards are the pure loop's
(its oracle and its fallback: :func:`compiled_search` gives None otherwise).
"""

from __future__ import annotations

from collections.abc import Callable
from random import Random
from types import ModuleType
from typing import Any

from adjudicator import compiled_rules as switch
from adjudicator.position import Position
from search.compiled_search import COMPILED as FASTBOT
from search.compiled_search import compiled_map, kernel
from search.dumbbot import DumbBot
from search.mcts.config import SearchSettings
from search.mcts.domain import DiplomacyDomain
from search.mcts.order_sets import Action, MixedActions, SampledFromPlayers, WeightedActions
from search.mcts.uct import Mcts
from search.orderpolicy import LearnedPolicy
from search.tables import MapTables, tables_for

FASTTREE: ModuleType | None = switch.load("search._fasttree")
"""The compiled tree (``search._fasttree``), or None when it was not built."""

_SAMPLED_THEN_WEIGHTED = (SampledFromPlayers, WeightedActions)
"""The generators of ``dm``'s actions, in turn (the tree draws the first's samples in C)."""

NO_ROLLOUT_LIMIT = -1
"""The compiled tree's rollout length when the rollouts play to the final year."""


class CompiledMcts(Mcts[Position, Action]):
    """:class:`~search.mcts.uct.Mcts` whose :meth:`iterate` runs compiled (``core``'s).

    Its nodes and edges are the compiled module's, with the attributes of
    :class:`~search.mcts.uct.Node` and :class:`~search.mcts.uct.Edge`.
    """

    def __init__(
        self,
        domain: DiplomacyDomain,
        root: Position,
        rng: Random,
        core: Any,
        variant: SearchSettings,
    ) -> None:
        super().__init__(domain, root, rng, **variant.tree_options())
        self.core = core
        self.root = core.node(root)

    def iterate(self) -> None:
        """Selection, expansion, simulation and backpropagation, once, compiled."""
        self.core.iterate(self, self.root)

    def _loop(
        self,
        target: int | None,
        deadline: float | None,
        next_check: float,
        progress_every: float,
        clock: Callable[[], float],
        should_stop: Callable[[], bool] | None,
        on_progress: Callable[[Mcts[Position, Action]], None] | None,
    ) -> None:
        """Mcts._loop, compiled (the counts on the tree brought up to date at each check)."""
        self.core.run(
            self,
            self.root,
            target,
            deadline,
            next_check,
            progress_every,
            clock,
            should_stop,
            on_progress,
        )


def compiled_search(
    domain: DiplomacyDomain, pos: Position, variant: SearchSettings, rng: Random
) -> CompiledMcts | None:
    """The compiled tree for ``domain`` from ``pos``, or None when the pure loop must run.

    It runs when the domain's step and rollouts would both run compiled from the
    start (see the module docstring) and its settings are the variant's.
    """
    if FASTTREE is None or FASTBOT is None or switch.fast_movement() is None:
        return None
    enemy_bot = domain.enemy_bot
    our_phases = domain.our_phases
    rollout_bot = variant.rollout_us
    if (
        type(domain) is not DiplomacyDomain
        or domain.variant is not variant
        or enemy_bot is None
        or our_phases is None
        or type(rollout_bot) is not DumbBot
        or any(bot is not rollout_bot for bot in variant.rollout_enemies)
        or not variant.rollout_enemies
    ):
        return None
    tables = tables_for(pos.map)
    enemies = kernel(tables, enemy_bot.weights)
    ours = kernel(tables, our_phases)
    rollouts = kernel(tables, rollout_bot.weights)
    if enemies is None or ours is None or rollouts is None:
        return None
    enemy_policy = None
    if domain.enemy_policy is not None:
        enemy_policy = domain.enemy_policy.compiled(pos.map)
        if enemy_policy is None:
            return None
    sampled = _sampled_actions(variant, tables)
    core = FASTTREE.Core(
        domain,
        compiled_map(tables),
        enemies.cweights,
        ours.cweights,
        rollouts.cweights,
        pos.map,
        domain.us,
        domain.final_year,
        NO_ROLLOUT_LIMIT if variant.rollout_years is None else variant.rollout_years,
        len(variant.rollout_enemies),
        variant.cp,
        variant.resample,
        variant.double_expansion,
        variant.widening,
        *(sampled or (None, 0, 0, 0)),
        enemy_policy=enemy_policy,
    )
    return CompiledMcts(domain, pos, rng, core, variant)


def _sampled_actions(variant: SearchSettings, tables: MapTables) -> tuple[Any, ...]:
    """The compiled tree's arguments for ``dm``'s own action sources, or none.

    When the variant's actions are :class:`~search.order_sets.SampledFromPlayers` of
    compiled DumbBots and learned policies taken in turn with
    :class:`~search.mcts.order_sets.WeightedActions`
    (:class:`~search.mcts.order_sets.MixedActions`, as ``dm``'s and ``model=NAME``'s),
    the tree draws the samples in C (the DumbBots' compiled weights and the policies'
    ``CPolicy``, the cap, the patience) and the weighted combinations too (their cap).
    Else nothing: the tree asks the domain for its sources.
    """
    actions = variant.actions
    if type(actions) is not MixedActions:
        return ()
    if tuple(type(g) for g in actions.generators) != _SAMPLED_THEN_WEIGHTED:
        return ()
    sampled, weighted = actions.generators
    assert isinstance(sampled, SampledFromPlayers) and isinstance(weighted, WeightedActions)
    players = []
    for player in sampled.players:
        if type(player) is LearnedPolicy:
            assert isinstance(player, LearnedPolicy)
            policy = player.compiled(tables.map)
            if policy is None:
                return ()
            players.append(policy)
            continue
        if type(player) is not DumbBot:
            return ()
        fast = kernel(tables, player.weights)
        if fast is None:
            return ()
        players.append(fast.cweights)
    return (players, sampled.cap, sampled.patience, weighted.cap)
