"""The MCTS variants by name: the thesis's V1-V8 and ours.

The thesis (§3.1-3.8) is followed where it is precise; where it is vague,
the choice made is written here.

======  =====================================================================
v1      Tree: :func:`~search.mcts.rules.possible_orders` combinations in
        random order; enemies' expected orders (§3.1) fixed per node; random
        retreats and builds.  Simulation: everyone plays random orders (the
        default policy), to the final year.
v2      v1 with our simulation orders by the §3.2 heuristic (enemies random).
v3      v2 with the two-step heuristic (§3.3) for our simulation orders.
v4      v2 with the enemies' simulation orders "into an adjacent foreign
        centre, else random" (§3.4).
v5      v4 with the region weights (§3.5): orders ending below the mean
        weight pruned, actions expanded best first by summed weight.
v6      v5 with double expansion (§3.6).
v7      v5 with weight-greedy simulation orders for us (§3.7).
v8      v5 with each enemy's simulation player drawn per rollout from
        random, weight-greedy and expected-orders (§3.8).
======  =====================================================================

Ours ("beyond the thesis", each change measured in BENCHMARKS.md):

======  =====================================================================
dm      DumbBot as the model of everyone: our candidate order sets are
        distinct samples of DumbBot's own choices (as it plays, then
        livelier), joined in turn with v5's weighted combinations; enemies'
        orders in the tree are DumbBot's, drawn afresh at every descent (chance
        nodes); rollouts are DumbBot for all, limited to the end of the next
        year; progressive widening; the most visited action is played; our
        own retreats and builds in the tree are the live bot's.
======  =====================================================================
"""

from __future__ import annotations

import dataclasses

from search.dumbbot import DumbBot
from search.mcts.actions import MixedActions, SampledFromPlayers, ThesisActions, WeightedActions
from search.mcts.config import Variant
from search.mcts.players import (
    EXPECTED_ENEMIES,
    EXPECTED_PLAYER,
    GREEDY_ELSE_RANDOM_PLAYER,
    HEURISTIC_PLAYER,
    RANDOM_PHASES,
    RANDOM_PLAYER,
    TWO_STEP_PLAYER,
    WEIGHT_GREEDY_PLAYER,
    BotPhases,
    EnemyModel,
    PhasePlayers,
)
from search.values import DumbBotWeights

V1 = Variant(
    name="v1",
    description="thesis V1: pruned combinations, expected enemies, random simulation",
    actions=ThesisActions(),
    enemies=EXPECTED_ENEMIES,
    phases=RANDOM_PHASES,
    rollout_us=RANDOM_PLAYER,
    rollout_enemies=(RANDOM_PLAYER,),
)
V2 = dataclasses.replace(
    V1,
    name="v2",
    description="thesis V2: V1 with heuristic simulation orders for us",
    rollout_us=HEURISTIC_PLAYER,
)
V3 = dataclasses.replace(
    V2,
    name="v3",
    description="thesis V3: V2 with the two-step heuristic in simulation",
    rollout_us=TWO_STEP_PLAYER,
)
V4 = dataclasses.replace(
    V2,
    name="v4",
    description="thesis V4: V2 with greedy-else-random enemies in simulation",
    rollout_enemies=(GREEDY_ELSE_RANDOM_PLAYER,),
)
V5 = dataclasses.replace(
    V4,
    name="v5",
    description="thesis V5: V4 with region weights ordering and pruning actions",
    actions=WeightedActions(),
)
V6 = dataclasses.replace(
    V5, name="v6", description="thesis V6: V5 with double expansion", double_expansion=True
)
V7 = dataclasses.replace(
    V5,
    name="v7",
    description="thesis V7: V5 with weight-greedy simulation orders for us",
    rollout_us=WEIGHT_GREEDY_PLAYER,
)
V8 = dataclasses.replace(
    V5,
    name="v8",
    description="thesis V8: V5 with rollout enemies drawn from random, weighted, greedy",
    rollout_enemies=(RANDOM_PLAYER, WEIGHT_GREEDY_PLAYER, EXPECTED_PLAYER),
)

LIVELY_DUMBBOT = DumbBot(DumbBotWeights(play_alternative=80, alternative_difference_modifier=150))
"""DumbBot that strays from its first choice more often: a wider spread of candidates."""

_DUMBBOT = DumbBot()

DM = Variant(
    name="dm",
    description="ours: DumbBot samples as candidates, DumbBot enemies and rollouts, chance nodes",
    actions=MixedActions(
        (SampledFromPlayers((_DUMBBOT, LIVELY_DUMBBOT)), WeightedActions()),
    ),
    enemies=EnemyModel("dumbbot", _DUMBBOT, fixed=False),
    phases=PhasePlayers(BotPhases(), _DUMBBOT),
    rollout_us=_DUMBBOT,
    rollout_enemies=(_DUMBBOT,),
    cp=0.1,
    final="visits",
    resample=True,
    widening=(2.0, 0.5),
    rollout_years=2,
    lookahead_years=2,
)

VARIANTS: dict[str, Variant] = {v.name: v for v in (V1, V2, V3, V4, V5, V6, V7, V8, DM)}
"""Every variant by name."""

DEFAULT_VARIANT = "dm"
"""The variant ``mcts`` alone plays: the strongest measured (see BENCHMARKS.md)."""


def get_variant(name: str) -> Variant:
    """The variant called ``name`` (case-insensitive); KeyError naming the choices if none is."""
    try:
        return VARIANTS[name.strip().lower()]
    except KeyError:
        raise KeyError(f"no MCTS variant {name!r}; choose one of {', '.join(VARIANTS)}") from None
