"""The state of the phase being played: its stage, position, clock, order book and search.

A phase goes through stages, one enum owned by the phase player
(:class:`~bot.client.core.playing.PhasePlayer`); every change is a step of
:data:`TRANSITIONS` (a table, as h11 keeps its states), and a step the table
does not hold is a bug of ours (:class:`PhaseStageError`):

===========  =====================================================  ==========================
stage        what it means                                          after a rejoin
===========  =====================================================  ==========================
IDLE         not played yet, or stopped (connection lost, a bug     played from its start
             of ours) before its orders were final
CHOOSING     the chooser is choosing (a search runs, a person is    (stopped first: IDLE)
             at the page)
STANDING     a person's set is in; they may still replace it        (stopped first: FINAL)
FINAL        our orders are final                                   resent, not chosen again
ENDED        the phase is over                                      --
===========  =====================================================  ==========================

The steps: ``PLAY`` (the player plays the phase from its start), ``FINISH``
(the chooser is through: :class:`~bot.client.core.decisions.Final`), ``SET_IN``
(a person's set is in: :class:`~bot.client.core.decisions.OrdersIn`), ``STOP``
(the connection is lost, or our play failed) and ``END`` (the server moved on).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from adjudicator.position import Position
from bot.client.core.orderbook import OrderBook
from bot.client.core.timebudget import PhaseClock
from protocol.values import Turn
from search.mcts.worker_protocol import Answer, Progress
from search.policy import SearchLimit


class PhaseStage(Enum):
    """Where the phase in play is in its life (see the module's table)."""

    IDLE = "idle"
    CHOOSING = "choosing"
    STANDING = "standing"
    FINAL = "final"
    ENDED = "ended"


class PhaseStep(Enum):
    """What moves a phase from one stage to the next."""

    PLAY = "play"
    FINISH = "finish"
    SET_IN = "set in"
    STOP = "stop"
    END = "end"


_S = PhaseStage
_E = PhaseStep

TRANSITIONS: dict[PhaseStage, dict[PhaseStep, PhaseStage]] = {
    _S.IDLE: {_E.PLAY: _S.CHOOSING, _E.SET_IN: _S.STANDING, _E.STOP: _S.IDLE, _E.END: _S.ENDED},
    _S.CHOOSING: {
        _E.FINISH: _S.FINAL,
        _E.SET_IN: _S.STANDING,
        _E.STOP: _S.IDLE,
        _E.END: _S.ENDED,
    },
    _S.STANDING: {_E.SET_IN: _S.STANDING, _E.STOP: _S.FINAL, _E.END: _S.ENDED},
    _S.FINAL: {_E.SET_IN: _S.STANDING, _E.STOP: _S.FINAL, _E.END: _S.ENDED},
    _S.ENDED: {},
}
"""Each stage's steps and where they lead; any other step is a :class:`PhaseStageError`."""

PLAYING = frozenset({PhaseStage.CHOOSING, PhaseStage.STANDING})
"""The stages in which the phase is being played (time and the server's answers move it on)."""


class PhaseStageError(Exception):
    """A step the phase's stage does not allow: a bug in the player or a chooser."""


def next_stage(stage: PhaseStage, step: PhaseStep) -> PhaseStage:
    """Where ``step`` leads from ``stage`` (:data:`TRANSITIONS`); else :class:`PhaseStageError`."""
    try:
        return TRANSITIONS[stage][step]
    except KeyError:
        raise PhaseStageError(f"{step.value} in a phase that is {stage.value}") from None


@dataclass
class SearchState:
    """The movement phase's search job as the player follows it.

    ``limit`` is the last limit the worker was given; ``best`` its latest
    order set and ``answer`` its final one; ``failed`` once it reported a failure.
    """

    job_id: int
    limit: SearchLimit
    best: Progress | Answer | None = None
    answer: Answer | None = None
    failed: bool = False

    @property
    def done(self) -> bool:
        """True once the final answer (or the failure) is in."""
        return self.answer is not None or self.failed


@dataclass
class PhaseState:
    """One phase as the client plays it.

    ``stage`` is where it is in its life (only the player moves it, by
    :meth:`step`); ``clock`` gives its times (moved by TME); ``book`` its
    orders (and the position, held there once, and whether we said GOF);
    ``search`` is the movement phase's running search; ``last_margin`` is the
    margin of its latest submission; ``hint`` is a running search job whose
    answer is a hint for a person.
    """

    turn: Turn
    clock: PhaseClock
    book: OrderBook
    stage: PhaseStage = PhaseStage.IDLE
    search: SearchState | None = None
    last_margin: float | None = None
    hint: SearchState | None = None

    @property
    def position(self) -> Position:
        """The phase's position (the order book's)."""
        return self.book.position

    @property
    def playing(self) -> bool:
        """True while the phase is being played (a chooser at work, a person's set standing)."""
        return self.stage in PLAYING

    def step(self, step: PhaseStep) -> PhaseStage:
        """Take ``step`` (:data:`TRANSITIONS`); the new stage, or :class:`PhaseStageError`."""
        self.stage = next_stage(self.stage, step)
        return self.stage
