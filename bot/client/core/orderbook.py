"""The orders of one phase: what we submitted, what the server made of it, what to send next.

The order book holds no connection: it is told what was submitted and what the
server answered (THX, MIS) and says which complete order set to submit next,
if any.  Every submission is the phase's complete set, since MILA's server
replaces a power's orders on each SUB where Parlance merges them.

* a refused order (THX note other than MBV) is replaced by a safe one (hold,
  disband, or waive a build) in a new complete set — unless a later
  submission already dropped it, or the server accepted that very order
  earlier this phase (MILA refuses a repeated build it already holds);
* a MIS is answered with orders for the units it lists that we have not
  ordered (MILA lists retreating units even when their order was accepted);
  a unit it lists that we do not have in this phase gets no order,
  and in winter with waives or extra removals, once, unless our set already
  covers what the rules ask (MILA does not count waives);
* a THX for an order we never sent in this phase is ignored;
* a new set from the search never brings back an order refused earlier in the
  phase: :meth:`OrderBook.without_refused` puts the safe order in its place.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from adjudicator.adjustments import civil_disorder_removals
from adjudicator.convert import adjustment_value, movement_value, retreat_value
from adjudicator.orders import WAIVE_ORDER, EngineOrder
from adjudicator.position import Position
from adjudicator.rules import DEFAULT_CIVIL_DISORDER, CivilDisorderRule
from protocol.values import Build, Disband, Hold, Order, Remove, Unit, Waive, order_power

OrderNote = str
"""A THX note: ``MBV`` for accepted, else why the order was refused (``FAR``, ``NSU``...)."""


@dataclass
class ThxVerdict:
    """What a THX means for the book: ``resubmit`` is the new complete set to send, if any.

    ``ignored`` says why the THX did not fit (logged and counted by the client);
    ``refused`` is True when it refused one of our current orders.
    """

    resubmit: list[Order] | None = None
    refused: bool = False
    ignored: str | None = None


@dataclass
class OrderBook:
    """One phase's orders for ``power`` (a power token) at ``position``.

    ``engine`` is the engine form of the last movement or retreat set we
    chose; ``current`` the complete set last submitted; ``sent`` every order
    sent this phase; ``accepted`` and ``refused`` the server's verdicts;
    ``ready`` whether our last word to the server on them was ``GOF`` (else
    none yet, or ``NOT (GOF)``).
    """

    power: str
    position: Position
    rule: CivilDisorderRule = DEFAULT_CIVIL_DISORDER
    engine: dict[int, EngineOrder] = field(default_factory=dict)
    current: list[Order] = field(default_factory=list)
    sent: set[Order] = field(default_factory=set)
    accepted: set[Order] = field(default_factory=set)
    refused: set[Order] = field(default_factory=set)
    mis_answered: bool = False
    recovered: bool = False
    ready: bool = False

    @property
    def power_id(self) -> int:
        """Our power's id on the position's map."""
        return self.position.map.power_index[self.power]

    def choose(self, orders: dict[int, EngineOrder]) -> list[Order]:
        """A movement or retreat set in engine form is chosen: the complete set to submit.

        The book remembers it (:attr:`engine`); an order refused earlier this
        phase is replaced by its safe order (:meth:`without_refused`).
        """
        pos = self.position
        value = movement_value if pos.is_movement else retreat_value
        self.engine = dict(orders)
        return self.without_refused([value(pos, p, o) for p, o in sorted(orders.items())])

    def carry_over(self, earlier: OrderBook) -> None:
        """The server restated the phase: what we sent for this turn before is still ours.

        The server's THX for orders submitted under the earlier statement of the
        same turn answer us (they are not ignored), and what it refused stays refused.
        """
        self.sent |= earlier.sent
        self.accepted |= earlier.accepted
        self.refused |= earlier.refused

    def record(self, orders: list[Order]) -> list[Order]:
        """``orders`` are being submitted as the phase's complete set; returns them."""
        self.current = list(orders)
        self.sent.update(orders)
        return self.current

    def on_thx(self, order: Order, note: OrderNote) -> ThxVerdict:
        """The server's verdict on one of our orders."""
        if order not in self.sent:
            return ThxVerdict(ignored="THX for an order we did not send in this phase")
        if note == "MBV":
            self.accepted.add(order)
            return ThxVerdict()
        if order in self.refused:
            return ThxVerdict()
        if order in self.accepted:
            return ThxVerdict(ignored="refusal of an order the server accepted earlier this phase")
        self.refused.add(order)
        if order not in self.current:
            return ThxVerdict(refused=True)  # already superseded by a later submission
        return ThxVerdict(resubmit=self.without_refused(self.current), refused=True)

    def without_refused(self, orders: list[Order]) -> list[Order]:
        """``orders`` with each order refused this phase replaced by its safe order.

        The safe order goes last; it is dropped too if the server refused it as well.
        """
        kept = [o for o in orders if o not in self.refused]
        for order in orders:
            if order in self.refused:
                replacement = self.safe_order_for(order)
                if replacement is not None and replacement not in self.refused:
                    kept.append(replacement)
        return kept

    def safe_order_for(self, order: Order) -> Order | None:
        """What replaces a refused order: hold, disband, or waive a build."""
        if order_power(order) != self.power:
            return None
        if isinstance(order, Build):
            return Waive(order.unit.power)
        unit: Unit | None = getattr(order, "unit", None)
        if unit is None:
            return None
        if self.position.is_movement:
            return Hold(unit)
        if self.position.is_retreat:
            return Disband(unit)
        return None

    def on_mis_units(self, units: list[tuple[Unit, bool]]) -> tuple[list[Order] | None, str | None]:
        """MIS listed ``(unit, dislodged)``: the complete set with the missing ones, or None.

        Also returns why part of the MIS was ignored (it named units of ours that
        the phase does not have, or dislodged ones outside a retreat phase), or None.
        """
        ours = [(unit, dislodged) for unit, dislodged in units if unit.power == self.power]
        present = {
            (up.unit, up.retreats is not None)
            for up in self.position.unit_positions()
            if up.unit.power == self.power
        }
        absent = [unit for unit, dislodged in ours if (unit, dislodged) not in present]
        ordered = {o.unit for o in self.current if not isinstance(o, Waive)}
        missing: list[Order] = [
            Disband(unit) if dislodged else Hold(unit)
            for unit, dislodged in ours
            if (unit, dislodged) in present and unit not in ordered
        ]
        # The server asks for these units' orders: a hold it refused before goes again, and
        # stays in the sets that follow.
        self.refused.difference_update(missing)
        ignored = None
        if absent:
            names = ", ".join(str(u) for u in absent)
            ignored = f"MIS for units we do not have in {self.position.turn}: {names}"
        return ([*self.current, *missing] if missing else None), ignored

    def on_mis_count(self, count: int) -> tuple[list[Order] | None, str | None]:
        """Winter MIS with ``count`` (removals due > 0, builds open < 0).

        Returns the complete set to submit (or None) and why the MIS was
        ignored (or None).  Answered once per phase.
        """
        pos = self.position
        power = self.power_id
        if count == 0 or self.mis_answered:
            return None, None
        due = pos.adjustments()[power]  # builds (> 0) or removals (< 0) by our count
        if due > 0:  # pragma: no mutate (due 0: both branches find the set covered)
            covered = sum(isinstance(o, Build | Waive) for o in self.current) >= due
        else:
            covered = sum(isinstance(o, Remove) for o in self.current) >= -due
        if covered:
            return None, "MIS for adjustments our submitted set already covers"
        self.mis_answered = True
        if count < 0:  # builds still open: waive them  # pragma: no mutate (count 0 returned)
            waive = adjustment_value(pos, power, WAIVE_ORDER)
            return [*self.current, *([waive] * -count)], None
        chosen = {o.unit for o in self.current if isinstance(o, Remove)}
        ranked = civil_disorder_removals(
            pos,
            power,
            len(pos.units_of(power)),  # pragma: no mutate (all of them; None ranks all too)
            self.rule,
        )
        extra = [Remove(pos.unit_value(pos.units[p])) for p in ranked]
        extra = [r for r in extra if r.unit not in chosen][:count]
        return [*self.current, *extra], None

    def recovery(self, fallback: Callable[[], list[Order]]) -> list[Order] | None:
        """A complete, safe set to resubmit after trouble (once per phase), or None."""
        if self.recovered:
            return None
        self.recovered = True
        return list(self.current) if self.current else (fallback() or None)
