"""What distinguishes one MCTS variant from another: a frozen bundle of named search settings.

The thesis's V1-V8 and ``dm`` are instances of :class:`SearchSettings`,
listed in :mod:`search.mcts.variants`; the search itself
(:mod:`search.mcts.uct`, :mod:`search.mcts.domain`) is one algorithm for all
of them.  Settings hold configuration only, never data of a game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, TypedDict

from search.mcts.order_sets import ActionGenerator
from search.mcts.players import EnemyModel, PhasePlayers
from search.mcts.uct import CP_THESIS
from search.policy import Policy
from search.valuemodel import ValueModel

FinalSelection = Literal["mean", "visits"]
"""How the final choice is made among the root's edges: best mean or most visits."""

FINAL_SELECTIONS: tuple[FinalSelection, ...] = ("mean", "visits")
"""Every :data:`FinalSelection`."""


class TreeOptions(TypedDict):
    """The keyword settings :class:`~search.mcts.uct.Mcts` takes from a variant."""

    cp: float
    resample: bool
    double_expansion: bool
    widening: tuple[float, float] | None
    final: FinalSelection


@dataclass(frozen=True)
class SearchSettings:
    """One MCTS configuration (a variant), named by ``name``.

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
    * ``lookahead_years`` — the horizon when the game has no known final year;
    * ``value`` — a learned value (:class:`~search.valuemodel.ValueModel`) of a
      rollout's end that is not the game's end, or None for our centres there.
    """

    name: str
    description: str
    actions: ActionGenerator
    enemies: EnemyModel
    phases: PhasePlayers
    rollout_us: Policy
    rollout_enemies: tuple[Policy, ...]
    cp: float = CP_THESIS
    final: FinalSelection = "mean"
    resample: bool = False
    double_expansion: bool = False
    widening: tuple[float, float] | None = None
    rollout_years: int | None = None
    lookahead_years: int = 5
    value: ValueModel | None = None

    def tree_options(self) -> TreeOptions:
        """The tree's own settings, as :class:`~search.mcts.uct.Mcts`'s keyword arguments."""
        return TreeOptions(
            cp=self.cp,
            resample=self.resample,
            double_expansion=self.double_expansion,
            widening=self.widening,
            final=self.final,
        )
