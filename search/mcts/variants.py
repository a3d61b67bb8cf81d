"""The MCTS variants by name: the thesis's V1-V8 and ours.

The thesis (§3.1-3.8) is followed where it is precise; where it is vague,
the choice made is written here.

======  =====================================================================
v1      Tree: :func:`~search.mcts.thesis_rules.possible_orders` combinations in
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

Ours (measured in BENCHMARKS.md; the experiments that did no better are
recorded in docs/research.md):

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
======  =====================================================================

A learned order policy (:mod:`search.orderpolicy`, trained by ``daide-mcts train``)
plays inside any variant with ``dm/model=NAME``: as the enemies' orders in the tree
and among our candidates (``model=NAME:enemies`` or ``model=NAME:candidates`` for
one of the two); see :func:`learned_changes`.

A name may override settings, ``dm/cp=0.1/years=full`` (see :data:`OVERRIDES`):
each override is a :func:`dataclasses.replace` of the named
:class:`~search.mcts.config.SearchSettings`' fields, its text converted to the
field's type.  Errors, all :class:`ValueError`::

    VariantError
    ├── UnknownVariantError     the name is no variant
    └── SettingError            an unknown setting, or a value it cannot take
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypedDict

from search.dumbbot import DumbBot
from search.mcts.config import FINAL_SELECTIONS, FinalSelection, SearchSettings
from search.mcts.order_sets import (
    ActionGenerator,
    MixedActions,
    SampledFromPlayers,
    ThesisActions,
    WeightedActions,
)
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
from search.orderpolicy import LearnedPolicy, ModelError, load_model
from search.tables import DumbBotWeights

V1 = SearchSettings(
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

LIVELY_DUMBBOT = DumbBot(DumbBotWeights(play_alternative=80, alternative_difference_modifier=150))
"""DumbBot that strays from its first choice more often: a wider spread of candidates."""

DM = SearchSettings(
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

RM = dataclasses.replace(DM, name="rm", description="experiment: regret matching over every power's sampled order sets")

VARIANTS: dict[str, SearchSettings] = {v.name: v for v in (V1, V2, V3, V4, V5, V6, V7, V8, DM, RM)}
"""Every variant by name."""

DEFAULT_VARIANT = "dm"
"""The variant ``mcts`` alone plays: the strongest measured (see BENCHMARKS.md)."""


class VariantError(ValueError):
    """A variant name that names no variant, or a setting it cannot take."""


class UnknownVariantError(VariantError):
    """The name is none of :data:`VARIANTS`."""


class SettingError(VariantError):
    """An override naming no setting, or a value the setting cannot take."""


SWITCH = {"on": True, "off": False}
"""The values of an on/off setting."""


def _non_negative(text: str) -> float:
    value = float(text)
    if not value >= 0:  # also refuses NaN
        raise ValueError(text)
    return value


def _switch(text: str) -> bool:
    if text not in SWITCH:
        raise ValueError(text)
    return SWITCH[text]


class SettingChanges(TypedDict, total=False):
    """The :class:`SearchSettings` fields an override may set, with their types."""

    cp: float
    final: FinalSelection
    rollout_years: int | None
    lookahead_years: int
    widening: tuple[float, float] | None
    resample: bool
    double_expansion: bool
    actions: ActionGenerator
    enemies: EnemyModel


def _cp(text: str) -> SettingChanges:
    return {"cp": _non_negative(text)}


def _final(text: str) -> SettingChanges:
    for choice in FINAL_SELECTIONS:
        if text == choice:
            return {"final": choice}
    raise ValueError(text)


def _years(text: str) -> SettingChanges:
    if text == "full":
        return {"rollout_years": None}
    years = int(text)
    if years < 0:
        raise ValueError(text)
    if years == 0:
        return {"rollout_years": 0}
    return {"rollout_years": years, "lookahead_years": years}


def _widen(text: str) -> SettingChanges:
    if text == "off":
        return {"widening": None}
    k, sep, alpha = text.partition(":")
    if not sep:
        raise ValueError(text)
    return {"widening": (_non_negative(k), _non_negative(alpha))}


def _resample(text: str) -> SettingChanges:
    return {"resample": _switch(text)}


def _double(text: str) -> SettingChanges:
    return {"double_expansion": _switch(text)}


_MODEL_PLACES: dict[str, tuple[str, ...]] = {
    "both": ("enemies", "candidates"),
    "enemies": ("enemies",),
    "candidates": ("candidates",),
}
"""What each of :data:`MODEL_USES` changes."""

MODEL_USES = tuple(_MODEL_PLACES)
"""Where ``model=NAME:USE`` plays the learned policy (``both`` when no use is given)."""


def learned_changes(name: str, use: str = "both") -> SettingChanges:
    """The settings that play the learned order model ``name`` (see :data:`MODEL_USES`).

    ``enemies``: every enemy's orders in the tree are drawn from the model
    (afresh at every descent); ``candidates``: our candidate order sets are
    drawn in turn from DumbBot, the model and the livelier DumbBot, then v5's
    weighted combinations (``dm``'s candidates with the model among them);
    ``both``: the two.
    Raises :class:`ValueError` for an unknown use and
    :class:`~search.orderpolicy.ModelError` for a model that cannot be loaded.
    """
    if use not in MODEL_USES:
        raise ValueError(use)
    policy = LearnedPolicy(load_model(name))
    places = _MODEL_PLACES[use]
    changes: SettingChanges = {}
    if "enemies" in places:
        changes["enemies"] = EnemyModel(policy.name, policy, fixed=False)
    if "candidates" in places:
        players = (_DUMBBOT, policy, LIVELY_DUMBBOT)
        changes["actions"] = MixedActions((SampledFromPlayers(players), WeightedActions()))
    return changes


def _model(text: str) -> SettingChanges:
    name, sep, use = text.rpartition(":")
    if not sep:
        name, use = text, "both"
    if not name:
        raise ValueError(text)
    return learned_changes(name, use)


@dataclass(frozen=True)
class Override:
    """A setting a variant name may override: what it means, and the fields its text sets."""

    help: str
    fields: Callable[[str], SettingChanges]
    """The :class:`SearchSettings` fields the text sets (ValueError if it does not fit)."""


OVERRIDES: dict[str, Override] = {
    "cp": Override("UCT's exploration constant Cp (a number >= 0)", _cp),
    "final": Override("final selection: mean or visits", _final),
    "years": Override("rollout length in years (0: none), or full (to the final year)", _years),
    "widen": Override("progressive widening k:alpha, or off", _widen),
    "resample": Override("on or off: re-simulate tree transitions at every descent", _resample),
    "double": Override("on or off: double expansion", _double),
    "model": Override(
        "a learned order model's name (search/models, or a folder in $DAIDE_MCTS_MODELS), "
        "optionally :enemies or :candidates",
        _model,
    ),
}
"""The settings a variant name may override: ``dm/cp=0.7/years=full``."""


def settings_help() -> str:
    """The overridable settings in one line, for messages and help texts."""
    return "; ".join(f"{key}: {o.help}" for key, o in OVERRIDES.items())


def get_variant(name: str) -> SearchSettings:
    """The variant ``name`` (case-insensitive), with any ``/key=value`` overrides applied.

    ``dm/cp=0.1/final=mean`` is ``dm`` with a smaller exploration constant
    and the thesis's final selection; see :data:`OVERRIDES`.  The result is named
    by the whole string, so another process can rebuild it from its name.
    Raises :class:`UnknownVariantError` or :class:`SettingError`, naming the choices.
    """
    text = name.strip().lower()
    base, *changes = text.split("/")
    try:
        variant = VARIANTS[base]
    except KeyError:
        raise UnknownVariantError(
            f"no MCTS variant {base!r}; choose one of {', '.join(VARIANTS)}"
        ) from None
    fields: SettingChanges = {}
    for change in changes:
        key, sep, value = change.partition("=")
        override = OVERRIDES.get(key)
        if override is None or not sep:
            raise SettingError(
                f"unknown MCTS variant setting {change!r} in {name!r} "
                f"(write key=value; settings: {settings_help()})"
            )
        try:
            fields.update(override.fields(value))
        except ModelError as exc:
            raise SettingError(f"{key}={value} in {name!r}: {exc}") from None
        except ValueError:
            raise SettingError(
                f"bad value {value!r} for the MCTS variant setting {key!r} in {name!r} "
                f"({key}: {override.help})"
            ) from None
    return dataclasses.replace(variant, name=text, **fields) if changes else variant
