"""What distinguishes one MCTS variant from another: a small, frozen bundle of policies.

The thesis's V1-V8 (and ours) are instances of :class:`Variant`, listed in
:mod:`search.mcts.variants`; the search itself (:mod:`search.mcts.uct`,
:mod:`search.mcts.domain`) is one algorithm for all of them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from adjudicator.position import Position
from search.mcts.actions import ActionGenerator
from search.mcts.players import EnemyModel, PhasePlayers
from search.mcts.uct import CP_THESIS
from search.openings import FieldBook
from search.opponents import OpponentStats
from search.policy import Policy

if TYPE_CHECKING:
    from search.mcts.domain import DiplomacyDomain
    from search.mcts.uct import Mcts

DomainFactory = Callable[["Variant", int, int, int], "DiplomacyDomain"]
"""Builds the domain of a search: ``(variant, our power, final year, number of powers)``."""

SearchFactory = Callable[..., "Mcts[Position, Any]"]
"""Builds the search, with :class:`~search.mcts.uct.Mcts`'s arguments."""

LeafValues = Callable[[Position], list[float]]
"""Values a position for every power, in [0, 1] (see :mod:`search.evaluation`)."""


@dataclass(frozen=True)
class Variant:
    """One MCTS configuration.

    * ``actions`` — our candidate order sets at a node and their expansion order;
    * ``enemies`` — the enemies' orders joined to our actions in the tree;
    * ``phases`` — who retreats and adjusts inside the tree's transitions;
    * ``rollout_us`` / ``rollout_enemies`` — the simulation policies; each enemy
      draws one of ``rollout_enemies`` at random for each rollout (V8);
    * ``cp`` — UCT's exploration constant; ``final`` — ``"mean"`` (max mean)
      or ``"visits"`` (most visits) for the final choice;
    * ``resample`` — re-simulate a tree transition at every descent (chance
      nodes) instead of keeping the first outcome;
    * ``double_expansion`` — V6's second expansion before simulating;
    * ``widening`` — progressive widening ``(k, alpha)``, or None;
    * ``rollout_years`` — limited simulation length (years, counting the
      current one; 0: none), or None to play to the final year;
    * ``leaf`` — values where a rollout stops short of the game's end (None:
      the centres, as at the end);
    * ``search`` — builds the search, when it is not UCT's
      :class:`~search.mcts.uct.Mcts` (None);
    * ``lookahead_years`` — the horizon when the game has no known final year;
    * ``domain`` — builds the search's domain, when the variant needs more than
      :class:`~search.mcts.domain.DiplomacyDomain` (None: that one);
    * ``observes`` — the variant learns from the orders the powers have given
      this game; ``opponents`` — those statistics for one search (game data
      rather than configuration: the player sets them before each move, see
      :mod:`search.opponents`).
    * ``uses_book`` — the enemies play the field's openings from earlier games;
      ``book`` — that :class:`~search.openings.FieldBook` for one search (game
      data as ``opponents`` is, see :mod:`search.mcts.fieldbook`).
    """

    name: str
    description: str
    actions: ActionGenerator
    enemies: EnemyModel
    phases: PhasePlayers
    rollout_us: Policy
    rollout_enemies: tuple[Policy, ...]
    cp: float = CP_THESIS
    final: str = "mean"
    resample: bool = False
    double_expansion: bool = False
    widening: tuple[float, float] | None = None
    rollout_years: int | None = None
    lookahead_years: int = 5
    domain: DomainFactory | None = None
    leaf: LeafValues | None = None
    search: SearchFactory | None = None
    observes: bool = False
    opponents: OpponentStats | None = None
    uses_book: bool = False
    book: FieldBook | None = None
