"""One search tree for one power in one position: what the player and the helpers both build."""

from __future__ import annotations

from random import Random

from adjudicator.position import Position
from search.mcts.compiled_tree import compiled_search
from search.mcts.config import SearchSettings
from search.mcts.domain import DiplomacyDomain
from search.mcts.order_sets import Action
from search.mcts.uct import Mcts


def horizon(pos: Position, variant: SearchSettings, final_year: int | None) -> int:
    """The last year the search looks at: the final year, or the variant's lookahead past it."""
    ahead = pos.year + variant.lookahead_years - 1
    if final_year is None or final_year < pos.year:
        return ahead
    return final_year


def new_search(
    pos: Position, power: int, variant: SearchSettings, final_year: int | None, rng: Random
) -> Mcts[Position, Action]:
    """A fresh tree for ``power`` at ``pos`` (a movement phase) under ``variant``.

    Its iterations run compiled when the ``dm`` path does (see
    :mod:`search.mcts.compiled_tree`), else in Python.
    """
    domain = DiplomacyDomain(variant, power, horizon(pos, variant, final_year), pos.map.num_powers)
    compiled = compiled_search(domain, pos, variant, rng)
    if compiled is not None:
        return compiled
    return Mcts(domain, pos, rng, **variant.tree_options())
