"""A person's seat: the orders come from a page, checked against the legal orders first.

:class:`PersonChooser` is the :class:`~bot.client.core.chooser.PhaseChooser` of a
seat where a person plays.  The core submits nothing for them: no quick set,
no holds at the deadline, no completion on ``MIS`` (units without orders hold,
by the server's rules).  In a movement phase it asks the server to wait for the
deadline (``NOT (GOF)``) until the person says they are ready.  What the person
does arrives as events (:class:`~bot.client.core.events.PersonOrders`,
:class:`~bot.client.core.events.PersonReady`, :class:`~bot.client.core.events.PersonDraw`,
:class:`~bot.client.core.events.HintRequested`), and every set is checked by
:func:`check_person_orders` before anything is sent: nothing invalid reaches
the server.

:func:`legal_choices` lists what each of the seat's units may be ordered to do
in a position, from the adjudicator's legal-order generators — what the page
offers on a click — as one :class:`PersonChoices`, which also reads a typed
order into the one sent (:meth:`PersonChoices.resolve`) and checks a set
(:meth:`PersonChoices.accept`); :class:`PhaseInPlay` is the phase in play as
the seat shows it.  This is the core's whole API for a person's seat: the
web app asks nothing else of the core.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from types import MappingProxyType

from adjudicator.convert import adjustment_value, movement_value, retreat_value
from adjudicator.legal import adjustment_options, movement_orders, retreat_orders
from adjudicator.orders import BUILD, REMOVE, WAIVE
from adjudicator.position import Position
from adjudicator.validation import geometric_routes, minimal_routes
from bot.client.core import notes
from bot.client.core.chooser import Advisor, WithoutSearch
from bot.client.core.decisions import (
    Decision,
    HoldBack,
    Note,
    OrdersIn,
    PhaseView,
    Ready,
    SubmitOrders,
)
from protocol.values import Build, MoveByConvoy, Order, Remove, Turn, Waive, order_power

WAIVE_KEY = "WVE"
"""The key of the waive among :func:`legal_choices`' groups of a winter with builds."""

CHOICES_CACHED = 8
"""How many (position, power) choice lists are kept: a submission builds them once."""


class PersonOrderError(ValueError):
    """A person's order set that must not reach the server; the message says why, in one line."""


def order_subject(order: Order) -> str:
    """What an order is about: its unit's (or build's) province, or :data:`WAIVE_KEY`."""
    if isinstance(order, Waive):
        return WAIVE_KEY
    return order.unit.location.province


@dataclass(frozen=True, eq=False)
class PersonChoices(Mapping[str, tuple[Order, ...]]):
    """A power's legal orders in a position, grouped by what they order (a read-only mapping).

    ``options`` maps a province (the unit's, the dislodged unit's, the build
    site's; or :data:`WAIVE_KEY`) to its legal orders, each one a server
    accepts: a move by convoy carries its shortest route of fleets (servers
    want one).  ``due`` is the number of builds (positive) or removals
    (negative) of a winter, else 0.  These are exactly what a person's page
    offers, and what the core lets through (:func:`check_person_orders`).
    """

    position: Position
    power: str
    options: Mapping[str, tuple[Order, ...]]
    due: int = 0

    @property
    def kind(self) -> str:
        """``movement``, ``retreat`` or ``adjustment``."""
        pos = self.position
        return "movement" if pos.is_movement else "retreat" if pos.is_retreat else "adjustment"

    def __getitem__(self, key: str) -> tuple[Order, ...]:
        return self.options[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.options)

    def __len__(self) -> int:
        return len(self.options)

    def resolve(self, order: Order) -> Order:
        """``order`` as it is sent, if listed: a move by convoy without a route gets the listed one.

        A move by convoy naming its own route must name the listed one;
        :class:`PersonOrderError` otherwise, or for an order not listed.
        """
        listed = self.options.get(order_subject(order))
        if listed is None:
            raise PersonOrderError(f"nothing to order for {order_subject(order)} in this phase")
        if order in listed:
            return order
        if isinstance(order, MoveByConvoy) and not order.path:  # one naming the route is listed
            for legal in listed:
                if isinstance(legal, MoveByConvoy) and replace(legal, path=()) == order:
                    return legal
        raise PersonOrderError("this order is not legal here")

    def accept(self, orders: Sequence[Order]) -> list[Order]:
        """The set as it is sent, each order resolved (:meth:`resolve`) and the whole checked.

        :class:`PersonOrderError` for an order not listed or a set the core
        would refuse (:func:`check_person_orders`): what this accepts, the core sends.
        """
        out = [self.resolve(o) for o in orders]
        check_person_orders(self.position, self.power, out)
        return out


def _with_route(pos: Position, order: Order) -> Order:
    """A move by convoy with the shortest route of fleets that can carry it (servers want one)."""
    if not isinstance(order, MoveByConvoy) or order.path:
        return order
    m = pos.map
    army = m.province_index[order.unit.location.province]
    routes = minimal_routes(geometric_routes(pos, army, m.province_index[order.destination]))
    if not routes:
        return order
    return replace(order, path=tuple(m.provinces[p] for p in min(routes, key=len)))


@lru_cache(maxsize=CHOICES_CACHED)
def legal_choices(pos: Position, power: str) -> PersonChoices:
    """``power``'s legal orders in ``pos``, grouped by what they order (:class:`PersonChoices`).

    Movement: each unit's hold, moves, supports, convoys and moves by convoy,
    keyed by its province.  Retreat: each dislodged unit's retreats and its
    disband.  Adjustments: each home centre's builds (army, fleet on each
    coast) and the waive under :data:`WAIVE_KEY`, or each unit's removal.
    From the adjudicator's legal-order generators; :class:`PersonOrderError`
    if ``power`` is not one of the map's powers.
    """
    m = pos.map
    if power not in m.power_index:
        raise PersonOrderError(f"{power} is not a power of this game")
    pid = m.power_index[power]
    out: dict[str, list[Order]] = {}
    if pos.is_movement:
        for prov, unit in sorted(pos.units.items(), key=lambda item: m.provinces[item[0]]):
            if unit[0] == pid:
                orders = [movement_value(pos, prov, o) for o in movement_orders(pos, prov)]
                out[m.provinces[prov]] = [_with_route(pos, o) for o in orders]
    elif pos.is_retreat:
        for prov, dislodged in sorted(pos.dislodged.items(), key=lambda i: m.provinces[i[0]]):
            if dislodged[0] == pid:
                out[m.provinces[prov]] = [
                    retreat_value(pos, prov, o) for o in retreat_orders(pos, prov)
                ]
    else:
        for option in adjustment_options(pos, pid):
            order = adjustment_value(pos, pid, option)
            key = WAIVE_KEY if option[0] == WAIVE else order_subject(order)
            if option[0] in (BUILD, REMOVE, WAIVE):
                out.setdefault(key, []).append(order)
    options = MappingProxyType({key: tuple(orders) for key, orders in out.items()})
    due = pos.adjustments()[pid] if pos.is_adjustment else 0
    return PersonChoices(pos, power, options, due)


def _convoy_listed(pos: Position, order: Order, legal: Sequence[Order]) -> bool:
    """True for a listed move by convoy (same unit and destination) naming no or a real route.

    A named route must be one of fleets that can carry the army.
    """
    if not isinstance(order, MoveByConvoy):
        return False
    bare = replace(order, path=())
    if not any(isinstance(o, MoveByConvoy) and replace(o, path=()) == bare for o in legal):
        return False
    if not order.path:
        return True
    m = pos.map
    try:
        army = m.province_index[order.unit.location.province]
        dest = m.province_index[order.destination]
        path = tuple(m.province_index[p] for p in order.path)
    except KeyError:
        return False
    return path in geometric_routes(pos, army, dest)


def check_person_orders(pos: Position, power: str, orders: Sequence[Order]) -> None:
    """Raise :class:`PersonOrderError` unless ``orders`` may be submitted for ``power`` now.

    Each order must be one of :func:`legal_choices` for its unit (or home
    centre; a move by convoy may name no route, or any route of fleets that
    can carry it), at most one per unit or province, and in winter no more
    builds and waives, or removals, than the rules allow.  An empty set is
    allowed (it withdraws nothing, and sends nothing).
    """
    if power not in pos.map.power_index:
        raise PersonOrderError(f"{power} is not a power of this game")
    choices = legal_choices(pos, power)
    seen: Counter[str] = Counter()
    for order in orders:
        owner = order_power(order)
        if owner != power:
            raise PersonOrderError(f"{order} is not an order for {power}")
        subject = order_subject(order)
        legal = choices.options.get(subject)
        if legal is None:
            raise PersonOrderError(f"{order}: {power} has nothing to order at {subject} now")
        if order not in legal and not _convoy_listed(pos, order, legal):
            raise PersonOrderError(f"{order} is not a legal order in {pos.turn}")
        seen[subject] += 1
        if subject != WAIVE_KEY and seen[subject] > 1:
            raise PersonOrderError(f"two orders for {subject}")
    if pos.is_adjustment:
        # With nothing due no build, waive or removal is listed: such a set was refused above.
        due = choices.due
        if due > 0:  # pragma: no mutate (due 0: see above)
            builds = sum(isinstance(o, Build | Waive) for o in orders)
            if builds > due:
                raise PersonOrderError(f"{builds} builds and waives where {due} are due")
        elif due < 0:  # pragma: no mutate (due 0: see above)
            removals = sum(isinstance(o, Remove) for o in orders)
            if removals > -due:
                raise PersonOrderError(f"{removals} removals where {-due} are due")


@dataclass(frozen=True, slots=True)
class PhaseInPlay:
    """The phase the core plays, read only, as a person's seat shows it.

    ``deadline`` is the server's deadline as the core estimates it (a
    monotonic reading), None when the server sets none; ``power`` is None
    until the server has taken us in.
    """

    turn: Turn
    position: Position
    power: str | None
    deadline: float | None

    def seconds_left(self, now: float) -> float | None:
        """Seconds from ``now`` (monotonic) to the deadline; None without one."""
        return None if self.deadline is None else self.deadline - now

    def choices(self) -> PersonChoices:
        """Our power's legal orders in the phase (:func:`legal_choices`)."""
        if self.power is None:
            raise PersonOrderError("no power is ours yet")
        return legal_choices(self.position, self.power)


class PersonChooser(WithoutSearch, Advisor):
    """A person's seat: their orders from events, checked; nothing chosen for them (hints apart)."""

    fills_gaps = False
    needs_worker = True  # the hints

    def play(self, view: PhaseView) -> list[Decision]:
        """The phase waits for the person (the server waits for the deadline or their GOF)."""
        if view.position.is_movement and not view.ready:
            return [HoldBack()]
        return []

    def person_orders(self, view: PhaseView, orders: Sequence[Order]) -> list[Decision]:
        """The person's complete set for the phase: checked, then submitted as one SUB.

        A set that may not be submitted is refused with a note saying why
        (:class:`PersonOrderError`), and nothing is sent.
        """
        try:
            check_person_orders(view.position, view.power, orders)
        except PersonOrderError as exc:
            return [Note(notes.PersonOrdersRefused(view.turn, str(exc)))]
        return [SubmitOrders(tuple(orders)), OrdersIn()]  # an empty set sends nothing

    def person_ready(self, view: PhaseView, ready: bool) -> list[Decision]:
        """The person is done (``GOF``), or not yet (``NOT (GOF)``); noted either way.

        Outside movement nothing is sent: a GOF there leaks into the next phase
        on MILA's server.
        """
        if not view.position.is_movement:
            return [Note(notes.PersonReadySet(view.turn, view.ready))]
        word: Decision = Ready() if ready else HoldBack()
        return [word, Note(notes.PersonReadySet(view.turn, ready))]
