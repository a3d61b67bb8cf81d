"""Monte Carlo Tree Search for no-press Diplomacy: the thesis's V1-V8 and ``dm``.

* :mod:`search.mcts.uct` — the generic UCT search (any :class:`~search.mcts.uct.Domain`);
* :mod:`search.mcts.domain` — Diplomacy as a domain (nodes at movement phases);
* :mod:`search.mcts.config` / :mod:`search.mcts.variants` — a variant is a frozen
  :class:`~search.mcts.config.SearchSettings`; V1-V8 and ``dm`` by name, with
  overridden settings (``dm/cp=0.5``);
* :mod:`search.mcts.order_sets`, :mod:`search.mcts.thesis_rules`, :mod:`search.mcts.weights`,
  :mod:`search.mcts.players` — candidate actions, the thesis's order rules and region
  weights, rollout players and enemy models;
* :mod:`search.mcts.player` — the player (anytime, root-parallel with
  :mod:`search.mcts.parallel`), and the factories the registry and the bot call.
"""

from __future__ import annotations

from search.mcts.player import AnytimeChooser, MctsPlayer, make_policy, think
from search.mcts.variants import DEFAULT_VARIANT, VARIANTS, get_variant

__all__ = [
    "DEFAULT_VARIANT",
    "AnytimeChooser",
    "VARIANTS",
    "MctsPlayer",
    "get_variant",
    "make_policy",
    "think",
]
