"""A review of one power's game: every phase graded, the evaluation graph, the costliest moments.

:func:`review_game` takes a :class:`~bot.coach.recorded_game.RecordedGame` and a power
and grades, in every phase where that power had a choice (movement phases, and
retreats and builds unless told not to), the orders it played against the bot's
choice from the same position (:func:`search.grading.grade_phase`: the search's
choice in movement phases, capped at ``settings.iterations``).  Each phase's seed
comes from one seed for the game (:func:`search.grading.phase_seed`), so the same
seed and settings give the same review, and the grades a live page gives.

The **evaluation graph** is the expected centres of the played set and of the bot's
choice at each graded phase, beside the centres the power owned then; the
**moments that cost most** are the (at most three) phases with the largest positive
loss.  :meth:`Review.to_json` holds it all.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from adjudicator.convert import adjustment_value, movement_value, retreat_value
from adjudicator.position import PhaseKind, Position
from adjudicator.validation import OrderBook
from bot.coach.recorded_game import RecordedGame, RecordedPhase
from bot.toolkit.order_words import format_order_text
from protocol.values import Order
from search.grading import (
    DEFAULT_SETTINGS,
    Grade,
    GradingSettings,
    PhaseOrders,
    grade_phase,
    matters,
)

COSTLY_MOMENTS = 3
"""How many of the costliest phases a review names."""


class ReviewError(ValueError):
    """A review that cannot be made: the power is not in the game; the message says why."""


@dataclass(frozen=True)
class PhaseReview:
    """One graded phase: the orders played, the bot's, as text, and the grade."""

    kind: str
    played: tuple[str, ...]
    better: tuple[str, ...]
    centres: int
    grade: Grade
    better_orders: tuple[Order, ...] = field(default=(), compare=False)
    """The bot's orders as values (for a drawing of them)."""

    @property
    def same(self) -> bool:
        """Whether the power played the bot's choice."""
        return self.played == self.better

    def to_json(self) -> dict[str, Any]:
        """JSON-ready."""
        return {
            "turn": self.grade.turn,
            "kind": self.kind,
            "played": list(self.played),
            "better": list(self.better),
            "same": self.same,
            "centres": self.centres,
            "grade": self.grade.to_json(),
        }


@dataclass(frozen=True)
class Review:
    """Every graded phase of one power's game, with the settings they were graded with."""

    source: str
    power: str
    seed: int
    settings: GradingSettings
    final_year: int | None
    phases: tuple[PhaseReview, ...]

    def costly(self, count: int = COSTLY_MOMENTS) -> tuple[PhaseReview, ...]:
        """The ``count`` phases that cost most (positive loss only), the costliest first."""
        losing = [p for p in self.phases if p.grade.loss > 0]
        losing.sort(key=lambda p: -p.grade.loss)
        return tuple(losing[:count])

    def graph(self) -> list[dict[str, Any]]:
        """The evaluation graph: per graded phase, the centres owned and expected."""
        return [
            {
                "turn": p.grade.turn,
                "centres": p.centres,
                "played": round(p.grade.submitted, 3),
                "bot": round(p.grade.reference, 3),
                "horizon": p.grade.horizon,
            }
            for p in self.phases
        ]

    def to_json(self) -> dict[str, Any]:
        """The whole review, JSON-ready."""
        return {
            "source": self.source,
            "power": self.power,
            "seed": self.seed,
            "rollouts": self.settings.rollouts,
            "years": self.settings.years,
            "iterations": self.settings.iterations,
            "final_year": self.final_year,
            "phases": [p.to_json() for p in self.phases],
            "graph": self.graph(),
            "costly": [p.grade.turn for p in self.costly()],
        }


def review_game(
    game: RecordedGame,
    power: str,
    seed: int,
    settings: GradingSettings = DEFAULT_SETTINGS,
    *,
    movement_only: bool = False,
    progress: Callable[[str], None] | None = None,
) -> Review:
    """Grade every phase played out where ``power`` had a choice; ReviewError if not in the game.

    ``progress`` hears each phase's name before it is graded.
    """
    index = game.map.power_index.get(power)
    if index is None:
        raise ReviewError(f"{power} is not a power of this game ({', '.join(game.map.powers)})")
    final_year = game.final_year
    reviewed: list[PhaseReview] = []
    for number, phase in enumerate(game.phases):
        pos = phase.position
        if movement_only and not pos.is_movement:
            continue
        if not gradable(pos, index, final_year) or not adjudicated(game.phases, number):
            continue
        if progress is not None:
            progress(str(pos.turn))
        reviewed.append(review_phase(phase, power, seed, settings, final_year))
    return Review(str(game.folder), power, seed, settings, final_year, tuple(reviewed))


def gradable(pos: Position, power: int, final_year: int | None) -> bool:
    """Whether a review grades ``power``'s orders in ``pos``: it had a choice, the game was on."""
    ended = final_year is not None and pos.ended_by(final_year)
    return not ended and matters(pos, power)


def adjudicated(phases: Sequence[RecordedPhase], index: int) -> bool:
    """Whether phase ``index`` was played out: all but the last were; the last if ORD says so.

    A game that ends (a draw, a solo, the server's end) before its last phase is
    adjudicated leaves that phase unplayed: there is nothing to grade in it.
    """
    return index < len(phases) - 1 or bool(phases[index].results)


def review_phase(
    phase: RecordedPhase,
    power: str,
    seed: int,
    settings: GradingSettings = DEFAULT_SETTINGS,
    final_year: int | None = None,
) -> PhaseReview:
    """``power``'s recorded orders in ``phase`` graded (:func:`search.grading.grade_phase`).

    The live page grades each phase with this, as :func:`review_game` does.
    """
    pos = phase.position
    index = pos.map.power_index[power]
    played = engine_orders(pos, power, phase.orders_of(power))
    graded = grade_phase(pos, index, played, seed, settings, final_year)
    better = order_values(pos, index, graded.reference)
    return PhaseReview(
        kind=pos.kind.value,
        played=order_texts(pos, index, graded.submitted),
        better=tuple(sorted(format_order_text(v) for v in better)),
        centres=pos.centre_counts()[index],
        grade=graded.grade,
        better_orders=tuple(better),
    )


def engine_orders(pos: Position, power: str, orders: tuple[Order, ...]) -> PhaseOrders:
    """``power``'s recorded orders in engine form; any the rules refuse here are left out."""
    book = OrderBook(pos)
    for order in orders:
        book.submit(power, order)  # one refused is left out: its unit holds or disbands
    if pos.kind is PhaseKind.ADJUSTMENT:
        return book.adjustment_orders().get(pos.map.power_index[power], [])
    return book.unit_orders()


def order_texts(pos: Position, power: int, orders: PhaseOrders) -> tuple[str, ...]:
    """The orders in the usual notation (``A PAR - BUR``), sorted."""
    return tuple(sorted(format_order_text(v) for v in order_values(pos, power, orders)))


def order_values(pos: Position, power: int, orders: PhaseOrders) -> list[Order]:
    """The orders (engine form) as values, as a server hears them."""
    if isinstance(orders, Mapping):
        convert = movement_value if pos.is_movement else retreat_value
        return [convert(pos, prov, order) for prov, order in orders.items()]
    return [adjustment_value(pos, power, order) for order in orders]
