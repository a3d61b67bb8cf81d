"""The enemies as they have been seen to play: each a mixture of known players.

``dm`` plays every enemy as DumbBot.  A *learned* search plays each enemy as
the mixture of the behaviour library fitted to the orders that power actually
gave this game (:mod:`search.behaviour`, :meth:`~search.opponents.OpponentStats.mixture`):
in the tree, where its orders are drawn afresh at every descent, and in the
rollouts.  An enemy that plays as DumbBot is fitted to DumbBot alone, so
against DumbBots the search is ``dm``'s; with no statistics (the first move,
or a player that does not observe) every enemy is DumbBot.
"""

from __future__ import annotations

from random import Random

from search.behaviour import MixturePlayer
from search.mcts.config import Variant
from search.mcts.domain import DiplomacyDomain
from search.mcts.players import EnemyModel
from search.policy import Policy


class LearnedEnemiesDomain(DiplomacyDomain):
    """:class:`DiplomacyDomain` whose enemies play their fitted mixtures.

    ``rollouts``: the mixtures play the enemies' rollouts too (else the
    variant's rollout enemies do).
    """

    def __init__(
        self,
        variant: Variant,
        us: int,
        final_year: int,
        num_powers: int,
        *,
        rollouts: bool = True,
    ) -> None:
        super().__init__(variant, us, final_year, num_powers)
        stats = variant.opponents
        self.learned: MixturePlayer | None = None
        if stats is not None:
            weights = {p: stats.mixture(p) for p in range(num_powers) if p != us}
            player = MixturePlayer(weights)
            if player.weights:  # someone plays otherwise than DumbBot alone
                self.learned = player
                self.learned_enemies = EnemyModel("learned", player, fixed=False)
        self.in_rollouts = rollouts

    def enemy_model(self) -> EnemyModel:
        """Each enemy's fitted mixture, drawn afresh at every descent (else the variant's)."""
        if self.learned is None:
            return super().enemy_model()
        return self.learned_enemies

    def rollout_policies(self, num_powers: int, rng: Random) -> list[Policy | None]:
        """Our rollout player, and the mixtures for the enemies (with ``rollouts``)."""
        if self.learned is None or not self.in_rollouts:
            return super().rollout_policies(num_powers, rng)
        return [
            self.variant.rollout_us if p == self.us else self.learned for p in range(num_powers)
        ]
