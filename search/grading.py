"""Grading an order set: how many supply centres it costs against the search's own choice.

The coach (issue 48) asks, of a power's submitted orders in one phase, what a chess
engine's analysis asks of a move: how much worse is it than the engine's choice?  Here
the engine is the search, and the currency is supply centres.

:func:`grade` estimates, for two order sets of one power in one position (the person's
and a reference, usually the search's choice), the supply centres that power is
expected to own at a horizon, by **paired rollouts with common random numbers**: in
rollout ``i`` both sets meet the same orders of every other power in the first phase
(drawn once from the search's enemy model, for ``dm`` DumbBot's), and both
continuations then draw from the same random generator state, played by the search's
default rollout policy (``dm``'s: DumbBot for every power, with the live bot's retreats
and builds for us) up to the horizon.  The horizon is the winter ``years`` winters
ahead: with the default ``years = 1`` the coming winter, the one after the next
movement phase (this year's, or the next year's from the fall's retreats or a winter,
whose centres are already counted).  Rollouts reuse the search's own machinery
(:class:`search.mcts.domain.DiplomacyDomain`, compiled when it can be); there is no
other simulator.

The budget is a count of rollout pairs, never a clock: the same position, orders,
settings and seed give the same :class:`Grade`, to the last digit.

The **loss** is the reference's mean centres minus the submitted set's (positive: the
submitted set is expected to end with fewer centres), with the 95% interval of the
paired differences (Student's t).  Its label comes from the point estimate:

============  ===========================================================
good          loss below :data:`INACCURACY_LOSS` (0.35 centres), or a gain
inaccuracy    from :data:`INACCURACY_LOSS` to :data:`MISTAKE_LOSS` (0.75)
mistake       from :data:`MISTAKE_LOSS` to :data:`BLUNDER_LOSS` (1.25)
blunder       :data:`BLUNDER_LOSS` centres or more
============  ===========================================================

The thresholds were calibrated (``daide-mcts bench grades``, docs/coach.md) so that a
set labelled blunder does lose, replayed against the opponents' actual orders, at
least a centre more than the search's choice by the next winter, and a set labelled
good less than a tenth of a centre.

Retreats and builds are graded the same way from their own phase (the other powers'
retreats or adjustments drawn from the search's phase players); their reference
(:func:`reference_orders`) is DumbBot's valued retreats and the live bot's builds and
removals.  :func:`matters` says whether a phase gives a power any choice at all.

Errors, all :class:`ValueError`::

    GradingError
    ├── NothingToGradeError     the power has no choice to make in this phase
    ├── IllegalOrderError       an order that is not the power's or not legal here
    └── BudgetError             too few rollouts, no years, a bad iteration cap
"""

from __future__ import annotations

import dataclasses
import math
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from random import Random
from typing import Any, Literal

from adjudicator.adjustments import adjudicate_adjustments
from adjudicator.convert import adjustment_value, movement_value, retreat_value
from adjudicator.legal import adjustment_options, complete_with_disbands, complete_with_holds
from adjudicator.movement import next_position
from adjudicator.orders import (
    BUILD,
    CONVOY,
    CONVOY_MOVE,
    DISBAND,
    HOLD,
    MOVE,
    REMOVE,
    RETREAT,
    SUPPORT_HOLD,
    SUPPORT_MOVE,
    WAIVE,
    EngineOrder,
    Orders,
)
from adjudicator.position import AUTUMN, WINTER, PhaseKind, Position
from adjudicator.retreats import adjudicate_retreats
from adjudicator.validation import MBV, OrderBook
from search.dumbbot import DumbBot
from search.generator import SearchRandom
from search.heuristics import PhaseHeuristics
from search.mcts.config import SearchSettings
from search.mcts.domain import DiplomacyDomain
from search.mcts.player import think
from search.mcts.variants import DM

Label = Literal["good", "inaccuracy", "mistake", "blunder"]
"""How bad an order set is, from its loss against the reference."""

LABELS: tuple[Label, ...] = ("good", "inaccuracy", "mistake", "blunder")
"""Every label, from the best to the worst."""

INACCURACY_LOSS = 0.35
"""Expected centres lost from which a set is an inaccuracy (below: good)."""

MISTAKE_LOSS = 0.75
"""Expected centres lost from which a set is a mistake."""

BLUNDER_LOSS = 1.25
"""Expected centres lost from which a set is a blunder."""

DEFAULT_ROLLOUTS = 512
"""Rollout pairs per grade unless told otherwise (about a tenth of a second, compiled)."""

MIN_ROLLOUTS = 2
"""The fewest rollout pairs a grade takes: one gives no interval."""

DEFAULT_YEARS = 1
"""Winters ahead the rollouts play to: 1 is the coming winter."""

DEFAULT_ITERATIONS = 2000
"""The search's iteration cap when it chooses the reference set (:func:`reference_orders`)."""

CONFIDENCE = 0.95
"""The two-sided coverage of a grade's interval."""

_T975 = (
    12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060, 2.2622, 2.2281,
    2.2010, 2.1788, 2.1604, 2.1448, 2.1314, 2.1199, 2.1098, 2.1009, 2.0930, 2.0860,
    2.0796, 2.0739, 2.0687, 2.0639, 2.0595, 2.0555, 2.0518, 2.0484, 2.0452, 2.0423,
)  # fmt: skip
"""Student's t quantile at 0.975 for 1 to 30 degrees of freedom (beyond, :func:`t95` expands)."""

_Z975 = 1.959963984540054
"""The normal distribution's 0.975 quantile."""

_SEED_BITS = 62
"""Bits of each rollout's seeds, drawn from the grade's own generator."""

_MOVES = frozenset({HOLD, MOVE, SUPPORT_HOLD, SUPPORT_MOVE, CONVOY, CONVOY_MOVE})
_RETREATS = frozenset({RETREAT, DISBAND})
_WINTER = frozenset({BUILD, REMOVE, WAIVE})

PhaseOrders = Orders | Sequence[EngineOrder]
"""One power's orders for one phase in engine form: a dict by unit province (movement,
retreats; a unit left out holds or disbands) or a list (builds, waives, removals)."""


class GradingError(ValueError):
    """An order set that cannot be graded here; the message says why."""


class NothingToGradeError(GradingError):
    """The power has no choice to make in this phase (or the game is over for it)."""


class IllegalOrderError(GradingError):
    """An order for a unit the power does not have here, or one a server would refuse."""


class BudgetError(GradingError):
    """Settings a grade cannot run with: too few rollouts, no years ahead, no iterations."""


@dataclass(frozen=True)
class GradingSettings:
    """How a grade is made: ``rollouts`` pairs to the winter ``years`` ahead.

    ``iterations`` caps the search when it chooses the reference set; ``variant``
    gives the enemy model of the first phase, the phase players and the rollout
    policy (the search's own, ``dm``).
    """

    rollouts: int = DEFAULT_ROLLOUTS
    years: int = DEFAULT_YEARS
    iterations: int = DEFAULT_ITERATIONS
    variant: SearchSettings = field(default=DM, compare=False)

    def __post_init__(self) -> None:
        if self.rollouts < MIN_ROLLOUTS:
            raise BudgetError(
                f"a grade needs at least {MIN_ROLLOUTS} rollouts, not {self.rollouts}"
            )
        if self.years < 1:
            raise BudgetError(f"the rollouts must look at least one winter ahead, not {self.years}")
        if self.iterations < 1:
            raise BudgetError(f"the search needs at least one iteration, not {self.iterations}")


@dataclass(frozen=True)
class Grade:
    """One order set graded against a reference in one phase, for one power.

    ``submitted`` and ``reference`` are the mean centres each set leads to at the
    winter of ``horizon``; ``loss`` is ``reference - submitted``, ``low`` and
    ``high`` its 95% interval (paired); ``label`` comes from ``loss`` (see the
    module docstring).
    """

    turn: str
    power: str
    submitted: float
    reference: float
    loss: float
    low: float
    high: float
    rollouts: int
    horizon: int
    label: Label

    def to_json(self) -> dict[str, Any]:
        """JSON-ready, figures rounded to a thousandth of a centre."""
        out = dataclasses.asdict(self)
        for key in ("submitted", "reference", "loss", "low", "high"):
            out[key] = round(out[key], 3)
        return out


DEFAULT_SETTINGS = GradingSettings()
"""The settings of a grade unless told otherwise."""


def label_for(loss: float) -> Label:
    """The label of an expected loss in centres (see the module docstring)."""
    if loss >= BLUNDER_LOSS:
        return "blunder"
    if loss >= MISTAKE_LOSS:
        return "mistake"
    if loss >= INACCURACY_LOSS:
        return "inaccuracy"
    return "good"


def t95(df: int) -> float:
    """Student's t quantile at 0.975 for ``df`` degrees of freedom (``df >= 1``).

    Exact to four decimals up to 30, then the Cornish-Fisher expansion around the
    normal quantile (within 1e-4 from 30 on).
    """
    if df < 1:
        raise ValueError(f"degrees of freedom must be at least 1, not {df}")
    if df <= len(_T975):
        return _T975[df - 1]
    z = _Z975
    return (
        z
        + (z**3 + z) / (4 * df)
        + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)
        + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * df**3)
    )


def mean_interval(values: Sequence[float]) -> tuple[float, float, float]:
    """``(mean, low, high)``: the mean of ``values`` and its 95% interval (t, ``n - 1`` df).

    One value has an unbounded interval.
    """
    n = len(values)
    if n == 0:
        raise ValueError("no values")
    mean = statistics.fmean(values)
    if n == 1:
        return mean, -math.inf, math.inf
    half = t95(n - 1) * statistics.stdev(values) / math.sqrt(n)
    return mean, mean - half, mean + half


def horizon_year(pos: Position, years: int, final_year: int | None = None) -> int:
    """The year whose winter ends the rollouts from ``pos``: ``years`` winters ahead.

    The coming winter is the one after the next movement phase: this year's from a
    movement phase or the spring's retreats, the next year's from the fall's retreats
    or a winter (whose centres are already counted).  Never past ``final_year`` (the
    game's last) when it is given.
    """
    year = pos.year + years - (0 if pos.season in (AUTUMN, WINTER) else 1)
    return year if final_year is None else min(year, max(final_year, pos.year))


def matters(pos: Position, power: int) -> bool:
    """Whether ``power`` has a choice to make in ``pos``'s phase (else there is nothing to grade).

    Movement: it has a unit.  Retreats: one of its dislodged units may retreat.
    Adjustments: it may build somewhere, or must remove some but not all of its units.
    """
    kind = pos.kind
    if kind is PhaseKind.MOVEMENT:
        return any(u[0] == power for u in pos.units.values())
    if kind is PhaseKind.RETREAT:
        return any(d[0] == power and d[3] for d in pos.dislodged.values())
    due = pos.adjustments()[power]
    options = adjustment_options(pos, power)
    return (due > 0 and len(options) > 1) or (due < 0 and len(options) > -due)


def checked_orders(pos: Position, power: int, orders: PhaseOrders) -> PhaseOrders:
    """``orders`` checked as a server checks them, in the engine form the rollouts play.

    Every unit of ``power`` gets an order (missing units hold, or disband when
    dislodged); winter orders are a list.  :class:`IllegalOrderError` names the first
    order that is not ``power``'s or that a server would refuse, with its reason.
    """
    m = pos.map
    name = m.powers[power]
    book = OrderBook(pos)
    kind = pos.kind
    if kind is PhaseKind.ADJUSTMENT:
        if isinstance(orders, Mapping):
            raise IllegalOrderError("winter orders are a list of builds, waives or removals")
        for order in orders:
            _submit(book, name, order, lambda o: adjustment_value(pos, power, o), _WINTER)
        return list(book.adjustment_orders().get(power, []))
    if not isinstance(orders, Mapping):
        raise IllegalOrderError(f"{kind.value} orders are keyed by the province of each unit")
    units = pos.units if kind is PhaseKind.MOVEMENT else pos.dislodged
    for prov, order in orders.items():
        unit = units.get(prov) if isinstance(prov, int) else None
        if unit is None or unit[0] != power:
            where = (
                m.provinces[prov]
                if isinstance(prov, int) and 0 <= prov < len(m.provinces)
                else prov
            )
            raise IllegalOrderError(f"{name} has no unit to order in {where} this phase")
        if kind is PhaseKind.MOVEMENT:
            _submit(book, name, order, lambda o, p=prov: movement_value(pos, p, o), _MOVES)
        else:
            _submit(book, name, order, lambda o, p=prov: retreat_value(pos, p, o), _RETREATS)
    given = book.unit_orders()
    if kind is PhaseKind.MOVEMENT:
        return complete_with_holds(pos, power, given)
    return complete_with_disbands(pos, power, given)


def _submit(
    book: OrderBook, power: str, order: EngineOrder, value: Any, kinds: frozenset[int]
) -> None:
    if not isinstance(order, tuple) or not order or order[0] not in kinds:
        raise IllegalOrderError(f"{order!r} is no order of {power} in this phase")
    try:
        as_value = value(order)
    except (IndexError, KeyError, TypeError, ValueError):
        raise IllegalOrderError(f"{order!r} is no order of {power} here") from None
    note = book.submit(power, as_value)
    if note != MBV:
        raise IllegalOrderError(f"{as_value} is refused here ({note})")


def reference_orders(
    pos: Position,
    power: int,
    seed: int,
    settings: GradingSettings = DEFAULT_SETTINGS,
    final_year: int | None = None,
) -> PhaseOrders:
    """The bot's choice for ``power`` in ``pos``: what a grade compares a set with.

    Movement: the search's (:func:`search.mcts.player.think`, ``settings.iterations``
    iterations from ``Random(seed)``, looking to ``final_year``); retreats: DumbBot's
    valued retreats; adjustments: the live bot's builds and removals.  Deterministic.
    """
    if not matters(pos, power):
        raise NothingToGradeError(f"{pos.map.powers[power]} has no choice to make in {pos.turn}")
    rng = Random(seed)
    kind = pos.kind
    if kind is PhaseKind.MOVEMENT:
        orders, _ = think(
            pos, power, settings.variant, final_year, rng, iterations=settings.iterations
        )
        return complete_with_holds(pos, power, orders)
    if kind is PhaseKind.RETREAT:
        return complete_with_disbands(pos, power, DumbBot().retreat_orders(pos, power, rng))
    return PhaseHeuristics().adjustment_orders(pos, power, rng)


def grade(
    pos: Position,
    power: int,
    submitted: PhaseOrders,
    reference: PhaseOrders,
    seed: int,
    settings: GradingSettings = DEFAULT_SETTINGS,
    final_year: int | None = None,
) -> Grade:
    """``submitted`` graded against ``reference`` for ``power`` in ``pos`` (module docstring).

    ``final_year`` (the game's last year, if known) caps the horizon.  Raises
    :class:`NothingToGradeError` when the power has no choice here and
    :class:`IllegalOrderError` for an order that is not its or not legal.
    """
    if not matters(pos, power) or (final_year is not None and pos.ended_by(final_year)):
        raise NothingToGradeError(f"{pos.map.powers[power]} has no choice to make in {pos.turn}")
    sets = [checked_orders(pos, power, submitted), checked_orders(pos, power, reference)]
    outcomes = centres_after(pos, power, sets, seed, settings, final_year)
    differences = [float(ref - sub) for sub, ref in outcomes]
    loss, low, high = mean_interval(differences)
    return Grade(
        turn=str(pos.turn),
        power=pos.map.powers[power],
        submitted=statistics.fmean(o[0] for o in outcomes),
        reference=statistics.fmean(o[1] for o in outcomes),
        loss=loss,
        low=low,
        high=high,
        rollouts=settings.rollouts,
        horizon=horizon_year(pos, settings.years, final_year),
        label=label_for(loss),
    )


def centres_after(
    pos: Position,
    power: int,
    order_sets: Sequence[PhaseOrders],
    seed: int,
    settings: GradingSettings = DEFAULT_SETTINGS,
    final_year: int | None = None,
    others: Mapping[int, Any] | None = None,
) -> list[tuple[int, ...]]:
    """``power``'s centres at the horizon after each of ``order_sets``, rollout by rollout.

    One tuple per rollout (``settings.rollouts`` of them), one count per set, the sets
    played with common random numbers (see the module docstring).  The sets must be
    checked already (:func:`checked_orders`).  With ``others`` the other powers' first
    phase orders are those (a dict by province in movement and retreat phases, a list
    per power in winter) instead of draws from the enemy model: a replay of what they
    did play.
    """
    horizon = horizon_year(pos, settings.years, final_year)
    variant = dataclasses.replace(settings.variant, rollout_years=None)
    domain = DiplomacyDomain(variant, power, horizon, pos.map.num_powers)
    # A set equal to an earlier one is played once: its outcome is the same.
    first_equal = [next(i for i, o in enumerate(order_sets) if o == s) for s in order_sets]
    seeds = Random(seed)
    out: list[tuple[int, ...]] = []
    for _ in range(settings.rollouts):
        first = SearchRandom(seeds.getrandbits(_SEED_BITS))
        then = seeds.getrandbits(_SEED_BITS)
        theirs = others if others is not None else _others_orders(domain, pos, power, first)
        counts: list[int] = []
        for index, ours in enumerate(order_sets):
            if first_equal[index] < index:
                counts.append(counts[first_equal[index]])
                continue
            rng = SearchRandom(then)
            state = domain.to_next_movement(_play_first(pos, power, ours, theirs), rng)
            if not domain.terminal(state):
                state = domain.play_out(state, rng)
            counts.append(state.centre_counts()[power])
        out.append(tuple(counts))
    return out


def _others_orders(domain: DiplomacyDomain, pos: Position, power: int, rng: Random) -> Any:
    """The other powers' first-phase orders, drawn from the search's models."""
    kind = pos.kind
    policies = domain.phase_policies
    if kind is PhaseKind.MOVEMENT:
        return domain.variant.enemies.orders(pos, power, rng)
    if kind is PhaseKind.RETREAT:
        retreats: Orders = {}
        for other in sorted({d[0] for d in pos.dislodged.values()} - {power}):
            policy = policies[other]
            if policy is not None:
                retreats.update(policy.retreat_orders(pos, other, rng))
        return retreats
    builds: dict[int, list[EngineOrder]] = {}
    for other, due in enumerate(pos.adjustments()):
        policy = policies[other]
        if due and other != power and policy is not None:
            builds[other] = policy.adjustment_orders(pos, other, rng)
    return builds


def _play_first(pos: Position, power: int, ours: PhaseOrders, theirs: Any) -> Position:
    """The first phase adjudicated: ``ours`` for ``power``, ``theirs`` for the others."""
    kind = pos.kind
    if kind is PhaseKind.ADJUSTMENT:
        builds = {p: list(o) for p, o in theirs.items() if p != power}
        builds[power] = list(ours)
        return adjudicate_adjustments(pos, builds).position
    orders = {p: o for p, o in theirs.items() if _owner(pos, p) != power}
    orders.update(ours)
    if kind is PhaseKind.MOVEMENT:
        return next_position(pos, orders)
    return adjudicate_retreats(pos, orders).position


def _owner(pos: Position, prov: int) -> int:
    unit = pos.units.get(prov) if pos.is_movement else pos.dislodged.get(prov)
    return -1 if unit is None else unit[0]


@dataclass(frozen=True)
class PhaseGrade:
    """A phase graded for one power: the grade, and both sets as the rollouts played them."""

    grade: Grade
    submitted: PhaseOrders
    reference: PhaseOrders


def phase_seed(seed: int, turn: str, power: str) -> int:
    """The seed of ``power``'s grade in ``turn`` (``SPR 1901``) from one seed for the game.

    Whoever grades a phase from the same seed (the live page, ``daide-mcts review``)
    gets the same grade.
    """
    return Random(f"grade:{seed}:{turn}:{power}").getrandbits(_SEED_BITS)


def grade_phase(
    pos: Position,
    power: int,
    submitted: PhaseOrders,
    seed: int,
    settings: GradingSettings = DEFAULT_SETTINGS,
    final_year: int | None = None,
) -> PhaseGrade:
    """``submitted`` graded against the bot's choice (:func:`reference_orders`) in ``pos``.

    ``seed`` is the game's (see :func:`phase_seed`); errors as :func:`grade`'s.
    """
    phase = Random(phase_seed(seed, str(pos.turn), pos.map.powers[power]))
    search_seed, rollout_seed = phase.getrandbits(_SEED_BITS), phase.getrandbits(_SEED_BITS)
    checked = checked_orders(pos, power, submitted)
    reference = reference_orders(pos, power, search_seed, settings, final_year)
    graded = grade(pos, power, checked, reference, rollout_seed, settings, final_year)
    return PhaseGrade(graded, checked, checked_orders(pos, power, reference))
