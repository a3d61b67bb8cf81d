"""The enemies' openings as the field played them in earlier games.

``dm`` plays every enemy as DumbBot, in the first move too.  A variant that
``uses_book`` plays each enemy, in the first years (:data:`~search.openings.BOOK_YEARS`),
as the :class:`~search.openings.FieldBook` of earlier games says that power's
player did in the same situation: in the tree, where the enemies' orders are
drawn afresh at every descent, and in the rollouts.  Later, and wherever the
book knows nothing, the variant's own enemy players play.  With no book (the
first game, or a bot that keeps none) the search is the base variant's.
"""

from __future__ import annotations

from random import Random

from search.mcts.config import Variant
from search.mcts.domain import DiplomacyDomain
from search.mcts.players import EnemyModel
from search.openings import BookPlayer
from search.policy import Policy


class FieldBookDomain(DiplomacyDomain):
    """:class:`DiplomacyDomain` whose enemies open as the book says the field did."""

    def __init__(self, variant: Variant, us: int, final_year: int, num_powers: int) -> None:
        super().__init__(variant, us, final_year, num_powers)
        book = variant.book
        self.booked: EnemyModel | None = None
        self.booked_rollouts: tuple[Policy, ...] = variant.rollout_enemies
        if book is not None and len(book):
            base = variant.enemies
            self.booked = EnemyModel("book", BookPlayer(base.player, book), fixed=base.fixed)
            self.booked_rollouts = tuple(BookPlayer(p, book) for p in variant.rollout_enemies)

    def enemy_model(self) -> EnemyModel:
        """The variant's enemy model, opening from the book (when there is one)."""
        return self.booked if self.booked is not None else super().enemy_model()

    def rollout_policies(self, num_powers: int, rng: Random) -> list[Policy | None]:
        """Our rollout player, and the variant's rollout enemies opening from the book."""
        enemies = self.booked_rollouts
        return [
            self.variant.rollout_us if p == self.us else enemies[rng.randrange(len(enemies))]
            for p in range(num_powers)
        ]
