"""The negotiator: press in, press out, a record of what was proposed, answered and agreed.

Pure, like the rest of the core: no I/O and no clock.  The core hands it each
understood press message (:meth:`Negotiator.on_press`), each movement phase it
plays (:meth:`Negotiator.on_phase`) and each order result (:meth:`Negotiator.on_result`);
it answers with what to say (:class:`Say`: recipients and typed press) and what
to note (:mod:`~bot.client.core.notes`), and keeps:

* the **record**: every proposal and its answer (:class:`ProposalRecord`);
* the **agreements** in force: peace with a power, demilitarised zones and
  orders promised (``XDO``, ours or the proposer's, for the movement phase in
  play), each with whom and since which turn (:class:`Agreement`); they end by
  the partner's ``CCL``, by a broken promise (noticed from the ``ORD`` results:
  peace broken when a unit of the partner moved into, supported or convoyed an
  attack on our units or centres; a zone broken when a unit of its powers moved
  into it; an order promised broken when its unit gave another), by us when
  keeping one is worth less than breaking it, or, for an order promised, when its
  phase is over (``expired``);
* a **trust** score per power, from what it did with its promises.

Words are chosen by value (:func:`search.negotiation.agreement_gain`: paired
DumbBot rollouts with and without the agreement, at the fixed :class:`Budget`,
seeded): a proposal is accepted when the agreement's value is at least that
without it, less :data:`ACCEPT_TOLERANCE` (a refusal costs what the rollouts do
not model: the proposer's hostility); peace is proposed, at the start of each
movement phase, to the powers where it gains most; an agreement is broken when
its value falls below :data:`BREAK_BELOW` (in silence: ``FCT`` is not in
Parlance's level 10, which answers it with ``HUH``).  The agreements restrain the
rollouts that value them (:meth:`Negotiator.constraints_of`), never our movement
search: binding it lost to leaving it free at a table of PeaceBots (docs/research.md).

Hostile press gets counted reactions (:attr:`Negotiator.counts`), never more
work than the budget: at most :data:`MAX_EVALUATIONS_PER_PHASE` evaluations and
:data:`MAX_REPLIES_PER_PHASE` replies per phase (a proposal past them is neither
answered nor recorded, so the record stays bounded); a proposal in the phase's last
:data:`LATE_SECONDS` is refused without an evaluation.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from adjudicator.maps import GameMap
from adjudicator.orders import EngineOrder
from adjudicator.position import SPRING, Position
from adjudicator.validation import MBV, OrderBook
from protocol.press import (
    Accept,
    Arrangement,
    Cancel,
    Demilitarise,
    DoOrder,
    Peace,
    Press,
    Proposal,
    Reject,
    Try,
)
from protocol.values import (
    Convoy,
    Move,
    MoveByConvoy,
    Order,
    SupportMove,
    Turn,
    Waive,
    order_power,
)
from search.constraints import NO_CONSTRAINTS, Constraints, Promise, Zone
from search.negotiation import DEFAULT_BUDGET, Budget, agreement_gain

ACCEPT_TOLERANCE = 1.0
"""Centres of value an accepted agreement may cost in the rollouts (a refusal's unmodelled cost)."""
BREAK_BELOW = -2.0
"""An agreement worth less than this (centres) is broken by us."""
PROPOSE_MIN_GAIN = 0.0
"""Least value (centres) of peace for us to propose it."""
PROPOSALS_PER_PHASE = 2
"""Most peace proposals we make in one phase."""
MAX_EVALUATIONS_PER_PHASE = 12
"""Most evaluations (each a fixed number of rollouts) in one phase."""
MAX_REPLIES_PER_PHASE = 60
"""Most replies we send in one phase (a flood beyond it is counted, not answered)."""
MAX_PENDING = 20
"""Proposals kept to answer once the first position is known (before it, none is evaluated)."""
LATE_SECONDS = 1.0
"""A proposal with less time than this to the deadline is refused without an evaluation."""
INITIAL_TRUST = 1.0
"""A power's trust before it has done anything with its promises."""
TRUST_AFTER_BREAK = 0.25
"""A power's trust is multiplied by this when it breaks a promise."""
TRUST_PER_KEPT_YEAR = 0.1
"""Trust regained for each year an agreement is kept (up to :data:`INITIAL_TRUST`)."""
MIN_TRUST = 0.5
"""Least trust for us to agree to anything with a power."""
PEACE_WORDS = frozenset({"PRP", "PCE"})
"""The press tokens a power's ``TRY`` must list for us to propose peace to it."""


@dataclass(frozen=True, slots=True)
class Say:
    """Send ``press`` to ``recipients``."""

    recipients: tuple[str, ...]
    press: Press


@dataclass(frozen=True, slots=True)
class ProposalRecord:
    """A proposal (ours when ``sender`` is us), when, to whom, and its answer (None: none yet)."""

    turn: Turn | None
    sender: str
    recipients: tuple[str, ...]
    proposal: Proposal
    answer: str | None = None
    gain: float | None = None


@dataclass(frozen=True, slots=True)
class Agreement:
    """An arrangement agreed with ``partner`` since ``since``.

    ``kind`` is ``peace``, ``dmz`` or ``xdo`` (an order promised for the turn ``since``).
    """

    partner: str
    kind: str
    arrangement: Arrangement
    since: Turn | None


@dataclass(frozen=True, slots=True)
class AgreementNote:
    """An agreement made or ended, and why.

    ``change`` is ``made``, ``cancelled``, ``broken`` (by the partner), ``broken_by_us``,
    ``ended_by_us`` (by its value) or ``expired`` (an order promised, its phase over).
    """

    change: str
    agreement: Agreement
    why: str = ""


@dataclass
class Outcome:
    """What one call of the negotiator asks for: press to send, agreement changes to note."""

    said: list[Say] = field(default_factory=list)
    changes: list[AgreementNote] = field(default_factory=list)


class Negotiator:
    """One game's press for power ``us``: decisions by value, a record, agreements, trust.

    ``seed`` makes every evaluation deterministic; ``budget`` is each evaluation's cost.
    """

    def __init__(self, seed: int = 0, budget: Budget = DEFAULT_BUDGET) -> None:  # pragma: no mutate
        # (the default seed: any plays as well)
        self.seed = seed
        self.budget = budget
        # Until the first on_phase nothing reads these; it sets them (and the budgets).
        self.us: str | None = None  # pragma: no mutate
        self.game_map: GameMap | None = None
        self.position: Position | None = None
        self.turn: Turn | None = None  # pragma: no mutate
        self.record: list[ProposalRecord] = []
        self.agreements: list[Agreement] = []
        self.trust: dict[str, float] = {}
        self.speaks: dict[str, frozenset[str]] = {}  # each power's last TRY: what it understands
        self.counts: Counter[str] = Counter()
        self._pending: list[tuple[str, Proposal]] = []
        self._evaluations = 0  # pragma: no mutate (reset by the first on_phase)
        self._replies = 0  # pragma: no mutate (idem)
        self._evaluated = 0  # pragma: no mutate (evaluations ever, to seed the next: any start)

    # --- agreements as the valuation's rollouts play them ------------------------------------

    def constraints_of(self, agreements: list[Agreement]) -> Constraints:
        """``agreements`` as constraints (power indices) on the rollouts that value them.

        An order promised counts in its phase only, and only if it is legal there.
        """
        m, us = self.game_map, self.us
        if m is None or us is None:
            return NO_CONSTRAINTS
        peace = frozenset(m.power_index[a.partner] for a in agreements if a.kind == "peace")
        zones = tuple(
            _zone(m, a.arrangement) for a in agreements if isinstance(a.arrangement, Demilitarise)
        )
        promised = tuple(
            promise
            for a in agreements
            if a.kind == "xdo" and (promise := self._promise(a)) is not None
        )
        return Constraints(m.power_index[us], peace, zones, promised)

    def _promise(self, agreement: Agreement) -> Promise | None:
        """An agreed ``XDO`` as a constraint: None once its phase is over or if it is not legal."""
        pos = self.position
        arrangement = agreement.arrangement
        if pos is None or agreement.since != self.turn or not isinstance(arrangement, DoOrder):
            return None
        engine = _engine_order(pos, arrangement.order)
        if engine is None:
            return None
        province, order = engine
        power = pos.units[province][0]
        return Promise(int(power), province, order, pos.season, pos.year)

    def trust_in(self, power: str) -> float:
        """How far ``power`` has kept its promises (1: fully, lower after each break)."""
        return self.trust.get(power, INITIAL_TRUST)

    def partners(self) -> tuple[str, ...]:
        """The powers we are at peace with."""
        return tuple(sorted({a.partner for a in self.agreements if a.kind == "peace"}))

    # --- events ------------------------------------------------------------------------------

    def on_phase(
        self, us: str, game_map: GameMap, turn: Turn, pos: Position, seconds_left: float | None
    ) -> Outcome:
        """A new phase: answer what waited; in a movement phase, propose and judge."""
        out = Outcome()
        new_turn = turn != self.turn
        self.us, self.game_map, self.turn, self.position = us, game_map, turn, pos
        if new_turn:
            self._evaluations = self._replies = 0
            for agreement in [a for a in self.agreements if a.kind == "xdo"]:
                self._end(agreement, "expired", "its phase is over", out)
        pending, self._pending = self._pending, []
        for sender, proposal in pending:
            self._answer(sender, proposal, seconds_left, out)
        if new_turn and pos.is_movement:
            if (
                pos.season == SPRING
            ):  # each spring: trust regained for a year kept; judge agreements
                self._regain_trust()
                self._judge_agreements(out)
            self._propose(out)
        return out

    def on_press(self, sender: str, press: Press, seconds_left: float | None) -> Outcome:
        """Press ``sender`` sent us (understood at the game's level)."""
        out = Outcome()
        if self.game_map is not None and sender not in self.game_map.power_index:
            self.counts["unknown_sender"] += 1
            return out
        if isinstance(press, Proposal):
            if self.position is None:
                if len(self._pending) < MAX_PENDING:
                    self._pending.append((sender, press))
                    self.counts["pending"] += 1
                else:
                    self.counts["pending_full"] += 1
                return out
            self._answer(sender, press, seconds_left, out)
        elif isinstance(press, Accept | Reject):
            self._on_answer(sender, press, out)
        elif isinstance(press, Cancel):
            self._on_cancel(sender, press, out)
        elif isinstance(press, Try):
            self.speaks[sender] = frozenset(press.tokens)
            self.counts["try_heard"] += 1
        else:
            self.counts["noted"] += 1
        return out

    def on_result(self, turn: Turn, order: Order) -> Outcome:
        """An order result of a movement phase: a promise kept or broken."""
        out = Outcome()
        pos, m, us = self.position, self.game_map, self.us
        if pos is None or m is None or us is None:  # pragma: no mutate (on_phase sets all three)
            return out
        if pos.turn != turn or not self.agreements:
            return out
        if isinstance(order, Waive):
            return out
        self._judge_promises(pos, order, out)
        target = _target(order)
        if target is None or target not in m.province_index:
            return out
        province = m.province_index[target]
        moved = isinstance(order, Move | MoveByConvoy)
        power = order.unit.power
        if power == us:
            self._ours_broken(pos, province, moved, f"{_text(order)} at {target}", out)
            return out
        for agreement in list(self.agreements):
            if agreement.partner != power:
                continue
            if agreement.kind == "peace" and _ours(pos, m.power_index[us], province):
                why = f"{_text(order)} attacks us at {target}"
                self._broken(agreement, why, out)
            elif (
                agreement.kind == "dmz"
                and moved
                and province in _zone(m, agreement.arrangement).provinces
            ):
                self._broken(agreement, f"{_text(order)} enters the zone at {target}", out)
        return out

    def _judge_promises(self, pos: Position, order: Order, out: Outcome) -> None:
        """An order of a unit that was promised another: the promise is broken."""
        unit = getattr(order, "unit", None)  # pragma: no mutate (a Waive never gets here)
        for agreement in list(self.agreements):
            promised = agreement.arrangement
            if not isinstance(promised, DoOrder):
                continue
            if getattr(promised.order, "unit", None) != unit:  # pragma: no mutate (see below)
                continue  # (a promise agreed and an order judged both have a unit)
            given = _engine_order(pos, order)
            if promised.order == order or (
                given is not None and given == _engine_order(pos, promised.order)
            ):
                continue  # kept
            what = f"{_text(order)} gave another order than promised"
            if order_power(order) == self.us:
                self.counts["broken_by_us"] += 1
                self._end(agreement, "broken_by_us", what, out)
            else:
                self._broken(agreement, what, out)

    def _ours_broken(
        self, pos: Position, province: int, moved: bool, what: str, out: Outcome
    ) -> None:
        """Our own order broke an agreement (unbound press, a fallback set): the record says so."""
        m = self.game_map
        assert m is not None
        for agreement in list(self.agreements):
            partner = m.power_index[agreement.partner]
            if agreement.kind == "peace" and _ours(pos, partner, province):
                hit = True
            else:
                zone = _zone(m, agreement.arrangement) if agreement.kind == "dmz" else None
                hit = zone is not None and moved and province in zone.provinces
            if hit:
                self.counts["broken_by_us"] += 1
                self._end(agreement, "broken_by_us", what, out)

    # --- answering ---------------------------------------------------------------------------

    def _reply(self, to: str, press: Press, out: Outcome) -> bool:
        if self._replies >= MAX_REPLIES_PER_PHASE:
            self.counts["unanswered_flood"] += 1
            return False
        self._replies += 1
        out.said.append(Say((to,), press))
        return True

    def _answer(
        self, sender: str, proposal: Proposal, seconds_left: float | None, out: Outcome
    ) -> None:
        if self._replies >= MAX_REPLIES_PER_PHASE:  # a flood: no answer, no record, no work
            self.counts["unanswered_flood"] += 1
            return
        wanted = self._wanted(sender, proposal.arrangement)
        gain: float | None = None
        if wanted is None:
            verdict, why = False, "not_offered"  # not an arrangement we agree to
        elif self.trust_in(sender) < MIN_TRUST:
            verdict, why = False, "distrusted"
        elif seconds_left is not None and seconds_left < LATE_SECONDS:
            verdict, why = False, "late"
        elif self._evaluations >= MAX_EVALUATIONS_PER_PHASE:
            verdict, why = False, "flood"
        else:
            gain = self._gain(wanted)
            verdict, why = gain >= -ACCEPT_TOLERANCE, "by_value"
        self.counts[f"{'accepted' if verdict else 'refused'}_{why}"] += 1
        answer = Accept(proposal) if verdict else Reject(proposal)
        us = self.us or ""  # pragma: no mutate (on_phase set it before any proposal is answered)
        self.record.append(
            ProposalRecord(self.turn, sender, (us,), proposal, "YES" if verdict else "REJ", gain)
        )
        if self._reply(sender, answer, out) and verdict and wanted is not None:
            for agreement in wanted:
                self._make(agreement, out)

    def _wanted(self, sender: str, arrangement: Arrangement) -> list[Agreement] | None:
        """The agreements ``arrangement`` from ``sender`` would make with us, if we consider it."""
        us, m = self.us, self.game_map
        if us is None or m is None:  # pragma: no mutate (on_phase sets both)
            return None
        if isinstance(arrangement, Peace):
            powers = set(arrangement.powers)
            if us not in powers or sender not in powers or not powers <= set(m.power_index):
                return None
            return [
                Agreement(p, "peace", Peace(tuple(sorted({us, p}))), self.turn)
                for p in sorted(powers - {us})
            ]
        if isinstance(arrangement, Demilitarise):
            names = set(arrangement.powers)
            if us not in names or sender not in names or not names <= set(m.power_index):
                return None
            if not set(arrangement.provinces) <= set(m.province_index):
                return None
            return [Agreement(sender, "dmz", arrangement, self.turn)]
        if isinstance(arrangement, DoOrder):
            unit = getattr(arrangement.order, "unit", None)
            pos = self.position
            if unit is None or unit.power not in (us, sender) or pos is None:
                return None
            agreement = Agreement(sender, "xdo", arrangement, self.turn)
            return [agreement] if self._promise(agreement) is not None else None
        return None

    def _gain(self, wanted: list[Agreement]) -> float:
        """The value of making ``wanted`` on top of what is agreed (paired rollouts)."""
        pos, m, us = self.position, self.game_map, self.us
        assert pos is not None and m is not None and us is not None
        self._evaluations += 1
        self._evaluated += 1
        before = self.constraints_of(self.agreements)
        after = self.constraints_of([*self.agreements, *wanted])
        seed = self.seed * 7919 + self._evaluated
        return agreement_gain(pos, m.power_index[us], after, before, seed=seed, budget=self.budget)

    def _make(self, agreement: Agreement, out: Outcome) -> None:
        if any(
            a.partner == agreement.partner and a.arrangement == agreement.arrangement
            for a in self.agreements
        ):
            return
        self.agreements.append(agreement)
        out.changes.append(AgreementNote("made", agreement))

    def _end(self, agreement: Agreement, change: str, why: str, out: Outcome) -> None:
        if agreement in self.agreements:
            self.agreements.remove(agreement)
            out.changes.append(AgreementNote(change, agreement, why))

    def _broken(self, agreement: Agreement, why: str, out: Outcome) -> None:
        self.trust[agreement.partner] = self.trust_in(agreement.partner) * TRUST_AFTER_BREAK
        self.counts["broken_by_partner"] += 1
        self._end(agreement, "broken", why, out)

    def _on_answer(self, sender: str, answer: Accept | Reject, out: Outcome) -> None:
        """A YES or REJ to a proposal of ours: agreed, or refused."""
        inner = answer.press
        for i, rec in enumerate(self.record):
            if rec.sender == self.us and rec.proposal == inner and sender in rec.recipients:
                if rec.answer is not None:
                    continue
                said = "YES" if isinstance(answer, Accept) else "REJ"
                self.record[i] = ProposalRecord(
                    rec.turn, rec.sender, rec.recipients, rec.proposal, said, rec.gain
                )
                if said == "YES" and isinstance(inner, Proposal):
                    for agreement in self._wanted(sender, inner.arrangement) or []:
                        if agreement.partner == sender:
                            self._make(agreement, out)
                self.counts[f"answer_{said.lower()}"] += 1
                return
        self.counts["answer_to_nothing"] += 1

    def _on_cancel(self, sender: str, cancel: Cancel, out: Outcome) -> None:
        """CCL: the sender withdraws a proposal (ending what it agreed)."""
        inner = cancel.press
        if not isinstance(inner, Proposal):
            self.counts["cancel_other"] += 1
            return
        ended = False  # pragma: no mutate (None would count the same)
        for agreement in list(self.agreements):
            if agreement.partner != sender:
                continue
            if _same_deal(agreement.arrangement, inner.arrangement):
                self._end(agreement, "cancelled", f"{sender} cancelled it", out)
                ended = True
        self._pending = [(s, p) for s, p in self._pending if (s, p) != (sender, inner)]
        self.counts["cancel_ended" if ended else "cancel_nothing"] += 1

    # --- our own words -----------------------------------------------------------------------

    def speaks_peace(self, power: str) -> bool:
        """False once ``power``'s ``TRY`` left out a word of a peace proposal (it cannot agree)."""
        said = self.speaks.get(power)
        return said is None or PEACE_WORDS.issubset(said)

    def _propose(self, out: Outcome) -> None:
        """Propose peace to the powers where it gains most.

        Not to partners, nor to the distrusted, nor to powers that said (``TRY``) they do
        not speak peace proposals: Parang's DumbBot answers ``HUH`` and ``TRY ()``.
        """
        m, us, pos = self.game_map, self.us, self.position
        if m is None or us is None or pos is None:
            return
        at_peace = set(self.partners())
        asked = {
            rec.recipients[0]
            for rec in self.record
            if rec.sender == us
            and rec.turn is not None
            and self.turn is not None
            and rec.turn.year == self.turn.year
        }
        alive = {int(u[0]) for u in pos.units.values()}
        gains: list[tuple[float, str]] = []
        for power in m.powers:
            if power == us or power in at_peace or power in asked:
                continue
            if m.power_index[power] not in alive or self.trust_in(power) < MIN_TRUST:
                continue
            if not self.speaks_peace(power):
                self.counts["not_asked_no_press"] += 1
                continue
            if self._evaluations >= MAX_EVALUATIONS_PER_PHASE:
                break
            gain = self._gain([Agreement(power, "peace", Peace((us, power)), self.turn)])
            if gain >= PROPOSE_MIN_GAIN:
                gains.append((gain, power))
        gains.sort(key=lambda item: (-item[0], item[1]))
        for gain, power in gains[:PROPOSALS_PER_PHASE]:
            proposal = Proposal(Peace(tuple(sorted((us, power)))))
            self.record.append(ProposalRecord(self.turn, us, (power,), proposal, None, gain))
            self.counts["proposed"] += 1
            self._reply(power, proposal, out)

    def _judge_agreements(self, out: Outcome) -> None:
        """Keep each agreement or break it by its value (breaking one announces it)."""
        for agreement in list(self.agreements):
            if self._evaluations >= MAX_EVALUATIONS_PER_PHASE:
                return
            others = [a for a in self.agreements if a is not agreement]
            pos, m, us = self.position, self.game_map, self.us
            assert pos is not None and m is not None and us is not None
            self._evaluations += 1
            self._evaluated += 1
            gain = agreement_gain(
                pos,
                m.power_index[us],
                self.constraints_of(self.agreements),
                self.constraints_of(others),
                seed=self.seed * 7919 + self._evaluated,
                budget=self.budget,
            )
            if gain < BREAK_BELOW:  # ended in silence: Parlance's level 10 has no FCT to say it
                self.counts["ended_by_us"] += 1
                self._end(agreement, "ended_by_us", f"worth {gain:+.2f} centres", out)

    def _regain_trust(self) -> None:
        for power, trust in self.trust.items():
            self.trust[power] = min(INITIAL_TRUST, trust + TRUST_PER_KEPT_YEAR)


# --- helpers ---------------------------------------------------------------------------------


def _zone(m: GameMap, arrangement: Arrangement) -> Zone:
    assert isinstance(arrangement, Demilitarise)
    return Zone(
        frozenset(m.power_index[p] for p in arrangement.powers if p in m.power_index),
        frozenset(m.province_index[p] for p in arrangement.provinces if p in m.province_index),
    )


def _engine_order(pos: Position, order: Order) -> tuple[int, EngineOrder] | None:
    """A movement order as the engine's (unit province, order); None if the rules refuse it."""
    unit = getattr(order, "unit", None)  # pragma: no mutate (callers pass orders with a unit)
    if not pos.is_movement or unit is None:
        return None
    book = OrderBook(pos)
    if book.submit(unit.power, order) != MBV:
        return None
    return next(iter(book.unit_orders().items()))  # the one order accepted


def _target(order: Order) -> str | None:
    """The province an order attacks or helps attack (None for a hold, a support to hold...)."""
    if isinstance(order, Move):
        return order.destination.province
    if isinstance(order, SupportMove | Convoy | MoveByConvoy):
        return order.destination
    return None


def _ours(pos: Position, us: int, province: int) -> bool:
    """Whether ``province`` holds a unit of ours or is a centre we own."""
    unit = pos.units.get(province)
    if unit is not None and unit[0] == us:
        return True
    return pos.map.is_supply[province] and pos.owners[province] == us


def _same_deal(agreed: Arrangement, cancelled: Arrangement) -> bool:
    """Whether a cancelled arrangement is (or contains) an agreed one."""
    if agreed == cancelled:
        return True
    if isinstance(agreed, Peace) and isinstance(cancelled, Peace):
        return set(agreed.powers) <= set(cancelled.powers)
    return False


def _text(order: Order) -> str:
    """Who did it: the kind of order, the unit's power and province."""
    unit = getattr(order, "unit", None)  # pragma: no mutate (only a Waive has none: not judged)
    where = "" if unit is None else f" {unit.power} {unit.location.province}"  # pragma: no mutate
    return f"{type(order).__name__}{where}"
