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
offers on a click.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

from adjudicator.convert import adjustment_value, movement_value, retreat_value
from adjudicator.legal import adjustment_options, movement_orders, retreat_orders
from adjudicator.orders import BUILD, REMOVE, WAIVE
from adjudicator.position import Position
from adjudicator.validation import geometric_routes
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
from protocol.values import Build, MoveByConvoy, Order, Remove, Waive, order_power

WAIVE_KEY = "WVE"
"""The key of the waive among :func:`legal_choices`' groups of a winter with builds."""


class PersonOrderError(ValueError):
    """A person's order set that must not reach the server; the message says why, in one line."""


def _subject(order: Order) -> str:
    """What an order is about: its unit's (or build's) province, or the waive."""
    if isinstance(order, Waive):
        return WAIVE_KEY
    return order.unit.location.province


def legal_choices(pos: Position, power: str) -> dict[str, list[Order]]:
    """``power``'s legal orders in ``pos``, grouped by what they order.

    Movement: each unit's hold, moves, supports, convoys and moves by convoy,
    keyed by its province.  Retreat: each dislodged unit's retreats and its
    disband.  Adjustments: each home centre's builds (army, fleet on each
    coast) and the waive under :data:`WAIVE_KEY`, or each unit's removal.
    """
    m = pos.map
    pid = m.power_index[power]
    out: dict[str, list[Order]] = {}
    if pos.is_movement:
        for prov, unit in sorted(pos.units.items(), key=lambda item: m.provinces[item[0]]):
            if unit[0] == pid:
                orders = [movement_value(pos, prov, o) for o in movement_orders(pos, prov)]
                out[m.provinces[prov]] = orders
    elif pos.is_retreat:
        for prov, dislodged in sorted(pos.dislodged.items(), key=lambda i: m.provinces[i[0]]):
            if dislodged[0] == pid:
                out[m.provinces[prov]] = [
                    retreat_value(pos, prov, o) for o in retreat_orders(pos, prov)
                ]
    else:
        for option in adjustment_options(pos, pid):
            order = adjustment_value(pos, pid, option)
            key = WAIVE_KEY if option[0] == WAIVE else _subject(order)
            if option[0] in (BUILD, REMOVE, WAIVE):
                out.setdefault(key, []).append(order)
    return out


def _routed_convoy(pos: Position, order: Order, legal: list[Order]) -> bool:
    """True for a move by convoy that is legal and names a route of fleets that can carry it."""
    if not isinstance(order, MoveByConvoy) or not order.path:
        return False
    if replace(order, path=()) not in legal:
        return False
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
    centre; a move by convoy may name a route of fleets that can carry it),
    at most one per unit or province, and in winter no more builds and
    waives, or removals, than the rules allow.  An empty set is allowed (it
    withdraws nothing, and sends nothing).
    """
    if power not in pos.map.power_index:
        raise PersonOrderError(f"{power} is not a power of this game")
    choices = legal_choices(pos, power)
    seen: Counter[str] = Counter()
    for order in orders:
        owner = order_power(order)
        if owner != power:
            raise PersonOrderError(f"{order} is not an order for {power}")
        subject = _subject(order)
        legal = choices.get(subject)
        if legal is None:
            raise PersonOrderError(f"{order}: {power} has nothing to order at {subject} now")
        if order not in legal and not _routed_convoy(pos, order, legal):
            raise PersonOrderError(f"{order} is not a legal order in {pos.turn}")
        seen[subject] += 1
        if subject != WAIVE_KEY and seen[subject] > 1:
            raise PersonOrderError(f"two orders for {subject}")
    if pos.is_adjustment:
        due = pos.adjustments()[pos.map.power_index[power]]
        builds = sum(isinstance(o, Build | Waive) for o in orders)
        removals = sum(isinstance(o, Remove) for o in orders)
        if due > 0 and builds > due:
            raise PersonOrderError(f"{builds} builds and waives where {due} are due")
        if due < 0 and removals > -due:
            raise PersonOrderError(f"{removals} removals where {-due} are due")


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
        submit: list[Decision] = [SubmitOrders(tuple(orders))] if orders else []
        return [*submit, OrdersIn()]

    def person_ready(self, view: PhaseView, ready: bool) -> list[Decision]:
        """The person is done (``GOF``), or not yet (``NOT (GOF)``); noted either way.

        Outside movement nothing is sent: a GOF there leaks into the next phase
        on MILA's server.
        """
        if not view.position.is_movement:
            return [Note(notes.PersonReadySet(view.turn, view.ready))]
        word: Decision = Ready() if ready else HoldBack()
        return [word, Note(notes.PersonReadySet(view.turn, ready))]
