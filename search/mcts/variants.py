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
        own retreats and builds in the tree are the live bot's.  The
        exploration constant is the thesis's 1/√2 (a smaller one, 0.1, was
        measured and did no better).
dl      dm whose enemies play as they have been seen to: each a mixture of
        known players (DumbBot, livelier, first-choice and guarding
        DumbBots, the thesis's greedy rules, RandomBot) fitted to the orders
        it gave this game (:mod:`search.behaviour`), in the tree and in the
        rollouts.
dlt     dl with supported attacks (:mod:`search.mcts.tactics`) among our
        candidates: against enemies seen to hold, a lone attack bounces.
dr      dm with our best replies to sampled enemy orders (local search over
        holds, moves and supports, :mod:`search.mcts.responses`) among the
        root's candidates.
db      dm whose enemies open as the field did in earlier games: in the first
        year each enemy plays the order sets its power's players gave in the
        same situation before (a :class:`~search.openings.FieldBook` the bot
        keeps, :mod:`search.mcts.fieldbook`), in the tree and the rollouts.
======  =====================================================================
"""

from __future__ import annotations

import dataclasses
import functools
import inspect

from search.behaviour import LIVELY_DUMBBOT
from search.dumbbot import DumbBot
from search.evaluation import position_values
from search.mcts.actions import MixedActions, SampledFromPlayers, ThesisActions, WeightedActions
from search.mcts.config import Variant
from search.mcts.equilibrium import RootGameDomain
from search.mcts.fieldbook import FieldBookDomain
from search.mcts.halving import HalvingSearch
from search.mcts.learned import LearnedEnemiesDomain
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
from search.mcts.responses import LearnedRepliesDomain, RepliesDomain
from search.mcts.tactics import SupportedAttacks

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
    final="visits",
    resample=True,
    widening=(2.0, 0.5),
    rollout_years=2,
    lookahead_years=2,
)

DUMBBOT_SAMPLES = SampledFromPlayers((_DUMBBOT, LIVELY_DUMBBOT))
"""Distinct DumbBot draws, as it plays and then livelier: dm's first candidates."""

EQ = dataclasses.replace(
    DM,
    name="eq",
    description="dm whose interacting enemies choose their root orders by their own bandits",
    domain=functools.partial(RootGameDomain, candidates=DUMBBOT_SAMPLES),
)

AD = dataclasses.replace(
    EQ,
    name="ad",
    description="eq whose enemies play as DumbBot as often as they have been seen to",
    domain=functools.partial(RootGameDomain, candidates=DUMBBOT_SAMPLES, adaptive=True),
    observes=True,
)

TACTICAL_ACTIONS = MixedActions((DUMBBOT_SAMPLES, SupportedAttacks(_DUMBBOT), WeightedActions()))
"""dm's candidates, with supported attacks (:mod:`search.mcts.tactics`) taken in turn."""

TACTICAL_ENEMIES = MixedActions((DUMBBOT_SAMPLES, SupportedAttacks(_DUMBBOT)))
"""An enemy's root candidates: DumbBot draws and supported attacks, in turn."""

DT = dataclasses.replace(
    DM,
    name="dt",
    description="dm with supported attacks among our candidate order sets",
    actions=TACTICAL_ACTIONS,
)

ET = dataclasses.replace(
    DT,
    name="et",
    description="dt whose interacting enemies pick root orders (supported attacks too) by bandits",
    domain=functools.partial(RootGameDomain, candidates=TACTICAL_ENEMIES),
)

AT = dataclasses.replace(
    ET,
    name="at",
    description="et whose enemies play as DumbBot as often as they have been seen to",
    domain=functools.partial(RootGameDomain, candidates=TACTICAL_ENEMIES, adaptive=True),
    observes=True,
)

DV = dataclasses.replace(
    DM,
    name="dv",
    description="dm valuing each new leaf statically (centres and centres in reach), no rollout",
    leaf=position_values,
    rollout_years=0,
)

SH = dataclasses.replace(
    DM,
    name="sh",
    description="dm's first candidates raced by sequential halving with common random numbers",
    search=HalvingSearch,
)

DL = dataclasses.replace(
    DM,
    name="dl",
    description="dm whose enemies play the mixture of known players fitted to their orders",
    domain=functools.partial(LearnedEnemiesDomain),
    observes=True,
)

DLT = dataclasses.replace(
    DL,
    name="dlt",
    description="dl with supported attacks among our candidate order sets",
    actions=TACTICAL_ACTIONS,
)

DR = dataclasses.replace(
    DM,
    name="dr",
    description="dm with our best replies to sampled enemy orders among the root's candidates",
    domain=functools.partial(RepliesDomain, start=_DUMBBOT),
)

DLR = dataclasses.replace(
    DL,
    name="dlr",
    description="dl with our best replies to the enemies' fitted mixtures among root candidates",
    domain=functools.partial(LearnedRepliesDomain, start=_DUMBBOT),
)

DB = dataclasses.replace(
    DM,
    name="db",
    description="dm whose enemies open as the field did in earlier games (a book of openings)",
    domain=FieldBookDomain,
    uses_book=True,
)

VARIANTS: dict[str, Variant] = {
    v.name: v
    for v in (V1, V2, V3, V4, V5, V6, V7, V8, DM, EQ, AD, DT, ET, AT, DV, SH, DL, DLT, DR, DLR, DB)
}
"""Every variant by name."""

DEFAULT_VARIANT = "dm"
"""The variant ``mcts`` alone plays: the strongest measured (see BENCHMARKS.md)."""


OVERRIDES = {
    "cp": "UCT's exploration constant Cp (a number)",
    "final": "final selection: mean or visits",
    "years": "rollout length in years (a number, 0: none), or full (to the final year)",
    "leaf": "how a rollout's end is valued: centres, or eval (centres and centres in reach)",
    "widen": "progressive widening k:alpha, or off",
    "resample": "on or off: re-simulate tree transitions at every descent",
    "double": "on or off: double expansion",
    "arms": "root-game variants: candidate order sets per interacting enemy (a number)",
    "ecp": "root-game variants: the enemies' exploration constant (a number)",
    "radius": "root-game variants: provinces within which an enemy interacts with us",
    "floor": "adaptive variants: the DumbBot-likeness below which enemies never play DumbBot",
    "erule": "root-game variants: the enemies' rule, ucb or rm (regret matching)",
    "cands": "halving variants: the candidate order sets raced at the root (a number)",
    "lroll": "learned-enemy variants: on or off, the enemies' fitted mixtures play the rollouts",
}
"""The settings a variant name may override: ``dm/cp=0.7/years=full``."""


DOMAIN_OVERRIDES: dict[str, type] = {
    "arms": int,
    "ecp": float,
    "radius": int,
    "floor": float,
    "erule": str,
    "lroll": bool,
}
"""The overrides that set a keyword of the variant's domain factory, and their types."""

DOMAIN_KEYWORDS = {
    "arms": "arms",
    "ecp": "enemy_cp",
    "radius": "radius",
    "floor": "floor",
    "erule": "rule",
    "lroll": "rollouts",
}
"""The domain factory's keyword each of :data:`DOMAIN_OVERRIDES` sets."""


def get_variant(name: str) -> Variant:
    """The variant ``name`` (case-insensitive), with any ``/key=value`` overrides applied.

    ``dm/cp=0.1/final=mean`` is ``dm`` with a smaller exploration constant
    and the thesis's final selection; see :data:`OVERRIDES`.  The result is named
    by the whole string, so another process can rebuild it from its name.
    Raises KeyError with a message naming the choices.
    """
    text = name.strip().lower()
    base, *changes = text.split("/")
    try:
        variant = VARIANTS[base]
    except KeyError:
        raise KeyError(f"no MCTS variant {base!r}; choose one of {', '.join(VARIANTS)}") from None
    fields: dict[str, object] = {}
    for change in changes:
        key, sep, value = change.partition("=")
        try:
            if not sep or key not in OVERRIDES:
                raise ValueError
            if key in DOMAIN_OVERRIDES:
                factory = fields.get("domain", variant.domain)
                fields["domain"] = _domain_override(factory, key, value)
                continue
            if key == "cands":
                count = int(value)
                if count < 1 or variant.search is None:
                    raise ValueError
                fields["search"] = functools.partial(variant.search, candidates=count)
                continue
            fields.update(_override(key, value))
        except (ValueError, KeyError):
            choices = "; ".join(f"{k}: {v}" for k, v in OVERRIDES.items())
            raise KeyError(f"bad MCTS variant setting {change!r} (settings: {choices})") from None
    return dataclasses.replace(variant, name=text, **fields) if changes else variant


def _domain_override(factory: object, key: str, value: str) -> functools.partial[object]:
    """``factory`` with the keyword ``key=value`` sets; ValueError if it does not fit.

    The factory must be a ``functools.partial`` whose domain takes that keyword.
    """
    keyword = DOMAIN_KEYWORDS[key]
    if not isinstance(factory, functools.partial):
        raise ValueError
    if keyword not in inspect.signature(factory.func).parameters:
        raise ValueError
    kind = DOMAIN_OVERRIDES[key]
    setting: object
    if kind is bool:
        setting = {"on": True, "off": False}[value]
    elif kind is str:
        if value not in ("ucb", "rm"):
            raise ValueError
        setting = value
    else:
        setting = kind(value)
        if not setting >= 0:
            raise ValueError
    return functools.partial(factory, **{keyword: setting})


def _override(key: str, value: str) -> dict[str, object]:
    """The Variant fields one ``key=value`` sets; ValueError or KeyError if it does not fit."""
    switch = {"on": True, "off": False}
    if key == "cp":
        cp = float(value)
        if not cp >= 0:
            raise ValueError
        return {"cp": cp}
    if key == "final":
        if value not in ("mean", "visits"):
            raise ValueError
        return {"final": value}
    if key == "years":
        if value == "full":
            return {"rollout_years": None}
        years = int(value)
        if years < 0:
            raise ValueError
        if years == 0:
            return {"rollout_years": 0}
        return {"rollout_years": years, "lookahead_years": years}
    if key == "leaf":
        leaves = {"centres": None, "eval": position_values}
        return {"leaf": leaves[value]}
    if key == "widen":
        if value == "off":
            return {"widening": None}
        k, _, alpha = value.partition(":")
        return {"widening": (float(k), float(alpha))}
    return {"resample" if key == "resample" else "double_expansion": switch[value]}
