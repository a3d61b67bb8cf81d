"""The negotiator's record and counts: each answer, cancel and break counted once, with its why."""

from __future__ import annotations

from adjudicator.maps import standard_map
from adjudicator.position import initial_position
from bot.client.core.negotiator import (
    TRUST_AFTER_BREAK,
    Agreement,
    AgreementNote,
    Negotiator,
    Outcome,
    ProposalRecord,
)
from protocol.press import Accept, Cancel, Demilitarise, DoOrder, Peace, Proposal, Reject
from protocol.values import (
    Hold,
    Location,
    Move,
    Order,
    Season,
    SupportMove,
    Turn,
    Unit,
    UnitType,
    Waive,
)
from search.negotiation import Budget

BUDGET = Budget(rollouts=4, years=2)
OPENING = initial_position(standard_map())
TURN = OPENING.turn
PIEDMONT = Demilitarise(("FRA", "ITA"), ("PIE",))


def negotiator() -> tuple[Negotiator, Outcome]:
    neg = Negotiator(seed=5, budget=BUDGET)
    return neg, neg.on_phase("FRA", OPENING.map, TURN, OPENING, None)


def army(power: str, province: str) -> Unit:
    return Unit(power, UnitType.ARMY, Location(province))


def peace(*powers: str) -> Proposal:
    return Proposal(Peace(tuple(sorted(powers))))


def our_first_proposal(neg: Negotiator, out: Outcome) -> tuple[str, Proposal]:
    (first, *_) = [s for s in out.said if isinstance(s.press, Proposal)]
    assert isinstance(first.press, Proposal)
    return first.recipients[0], first.press


def test_a_yes_to_our_proposal_is_recorded_and_counted_once() -> None:
    neg, out = negotiator()
    to, proposal = our_first_proposal(neg, out)
    before = neg.record[0]
    assert before.answer is None
    neg.on_press(to, Accept(proposal), None)
    assert neg.record[0] == ProposalRecord(TURN, "FRA", (to,), proposal, "YES", before.gain)
    assert neg.counts["answer_yes"] == 1
    assert neg.agreements == [Agreement(to, "peace", proposal.arrangement, TURN)]
    neg.on_press(to, Accept(proposal), None)  # answered already
    assert neg.counts["answer_yes"] == 1
    assert neg.counts["answer_to_nothing"] == 1


def test_a_rej_to_our_proposal_is_recorded_and_makes_nothing() -> None:
    neg, out = negotiator()
    to, proposal = our_first_proposal(neg, out)
    change = neg.on_press(to, Reject(proposal), None)
    assert change.changes == []
    assert neg.record[0].answer == "REJ"
    assert neg.counts["answer_rej"] == 1 and neg.counts["answer_yes"] == 0
    assert neg.agreements == []


def test_a_yes_from_a_power_we_did_not_ask_is_an_answer_to_nothing() -> None:
    neg, out = negotiator()
    to, proposal = our_first_proposal(neg, out)
    other = next(p for p in ("AUS", "RUS", "TUR", "ITA") if p != to)
    assert neg.on_press(other, Accept(proposal), None).changes == []
    assert neg.counts["answer_to_nothing"] == 1
    assert neg.record[0].answer is None and neg.agreements == []


def test_a_cancel_names_who_cancelled_and_counts_the_end() -> None:
    neg, _ = negotiator()
    neg.on_press("TUR", peace("FRA", "TUR"), None)
    (agreement,) = neg.agreements
    out = neg.on_press("TUR", Cancel(peace("FRA", "TUR")), None)
    assert out.changes == [AgreementNote("cancelled", agreement, "TUR cancelled it")]
    assert neg.counts["cancel_ended"] == 1 and neg.counts["cancel_nothing"] == 0


def test_a_cancel_from_another_power_or_of_another_deal_ends_nothing() -> None:
    neg, _ = negotiator()
    neg.on_press("TUR", peace("FRA", "TUR"), None)
    assert neg.on_press("RUS", Cancel(peace("FRA", "TUR")), None).changes == []
    assert neg.on_press("TUR", Cancel(peace("FRA", "RUS")), None).changes == []
    assert len(neg.agreements) == 1
    assert neg.counts["cancel_nothing"] == 2


def test_a_cancel_of_a_wider_peace_ends_ours_inside_it() -> None:
    neg, _ = negotiator()
    neg.on_press("TUR", peace("FRA", "TUR"), None)
    out = neg.on_press("TUR", Cancel(peace("FRA", "RUS", "TUR")), None)
    assert [c.change for c in out.changes] == ["cancelled"]


def test_a_cancel_of_something_not_a_proposal_is_counted_apart() -> None:
    neg, _ = negotiator()
    neg.on_press("TUR", peace("FRA", "TUR"), None)
    assert neg.on_press("TUR", Cancel(Accept(peace("FRA", "TUR"))), None).changes == []  # type: ignore[arg-type]
    assert neg.counts["cancel_other"] == 1
    assert neg.counts["cancel_nothing"] == 0 and len(neg.agreements) == 1


def test_a_cancelled_proposal_that_waited_is_never_answered() -> None:
    neg = Negotiator(seed=5, budget=BUDGET)
    neg.on_press("TUR", peace("FRA", "TUR"), None)
    neg.on_press("RUS", peace("FRA", "RUS"), None)
    neg.on_press("TUR", Cancel(peace("FRA", "TUR")), None)
    out = neg.on_phase("FRA", OPENING.map, TURN, OPENING, None)
    answered = [s.recipients for s in out.said if isinstance(s.press, Accept | Reject)]
    assert answered == [("RUS",)]


def test_our_move_into_an_agreed_zone_is_broken_by_us_with_its_why() -> None:
    neg, _ = negotiator()
    neg.on_press("ITA", Proposal(PIEDMONT), None)
    (agreement,) = neg.agreements
    out = neg.on_result(TURN, Move(army("FRA", "MAR"), Location("PIE")))
    assert out.changes == [AgreementNote("broken_by_us", agreement, "Move FRA MAR at PIE")]
    assert neg.counts["broken_by_us"] == 1
    assert neg.trust_in("ITA") == 1.0


def test_our_support_into_the_zone_or_a_move_elsewhere_breaks_nothing() -> None:
    neg, _ = negotiator()
    neg.on_press("ITA", Proposal(PIEDMONT), None)
    support = SupportMove(army("FRA", "MAR"), army("FRA", "PAR"), "PIE")
    assert neg.on_result(TURN, support).changes == []
    assert neg.on_result(TURN, Move(army("FRA", "MAR"), Location("GAS"))).changes == []
    assert neg.counts["broken_by_us"] == 0 and len(neg.agreements) == 1


def test_a_partner_entering_the_zone_breaks_it_with_its_why_and_loses_trust() -> None:
    neg, _ = negotiator()
    neg.on_press("ITA", Proposal(PIEDMONT), None)
    (agreement,) = neg.agreements
    out = neg.on_result(TURN, Move(army("ITA", "VEN"), Location("PIE")))
    assert out.changes == [
        AgreementNote("broken", agreement, "Move ITA VEN enters the zone at PIE")
    ]
    assert neg.counts["broken_by_partner"] == 1
    assert neg.trust_in("ITA") == TRUST_AFTER_BREAK


def test_a_partner_attacking_us_breaks_the_peace_with_its_why() -> None:
    neg, _ = negotiator()
    neg.on_press("ENG", peace("ENG", "FRA"), None)
    (agreement,) = neg.agreements
    out = neg.on_result(TURN, Move(Unit("ENG", UnitType.FLEET, Location("LON")), Location("BRE")))
    assert out.changes == [AgreementNote("broken", agreement, "Move ENG LON attacks us at BRE")]
    assert neg.counts["broken_by_partner"] == 1


def promise(order: Order) -> Proposal:
    return Proposal(DoOrder(order))


def test_a_partner_giving_another_order_than_promised_breaks_it_with_its_why() -> None:
    neg, _ = negotiator()
    neg.on_press("ITA", promise(Hold(army("ITA", "ROM"))), None)  # checked first, not this unit
    neg.on_press("ITA", promise(Hold(army("ITA", "VEN"))), None)
    kept, promised = neg.agreements
    out = neg.on_result(TURN, Move(army("ITA", "VEN"), Location("PIE")))
    assert out.changes == [
        AgreementNote("broken", promised, "Move ITA VEN gave another order than promised")
    ]
    assert neg.agreements == [kept]
    assert neg.counts["broken_by_partner"] == 1 and neg.counts["broken_by_us"] == 0


def test_a_promise_kept_ends_nothing() -> None:
    neg, _ = negotiator()
    neg.on_press("ITA", promise(Hold(army("ITA", "ROM"))), None)
    neg.on_press("ITA", promise(Move(army("ITA", "VEN"), Location("TYR"))), None)
    out = neg.on_result(TURN, Move(army("ITA", "VEN"), Location("TYR")))
    assert out.changes == []
    assert len(neg.agreements) == 2


def test_our_own_promise_not_kept_is_counted_as_ours_with_its_why() -> None:
    neg, _ = negotiator()
    neg.on_press("ITA", promise(Move(army("FRA", "MAR"), Location("GAS"))), None)
    (agreement,) = neg.agreements
    out = neg.on_result(TURN, Move(army("FRA", "MAR"), Location("BUR")))
    assert out.changes[0] == AgreementNote(
        "broken_by_us", agreement, "Move FRA MAR gave another order than promised"
    )
    assert neg.counts["broken_by_us"] == 1
    assert neg.counts["broken_by_partner"] == 0


def test_results_of_another_turn_or_a_waive_judge_nothing() -> None:
    neg, _ = negotiator()
    neg.on_press("ITA", promise(Hold(army("ITA", "VEN"))), None)
    fall = Turn(Season.FALL, 1901)
    assert neg.on_result(fall, Move(army("ITA", "VEN"), Location("PIE"))).changes == []
    assert neg.on_result(TURN, Waive("ITA")).changes == []
    assert len(neg.agreements) == 1 and neg.trust_in("ITA") == 1.0


def test_a_break_by_the_second_of_two_partners_is_seen() -> None:
    neg, _ = negotiator()
    neg.on_press("TUR", peace("FRA", "TUR"), None)
    neg.on_press("ENG", peace("ENG", "FRA"), None)
    out = neg.on_result(TURN, Move(Unit("ENG", UnitType.FLEET, Location("LON")), Location("BRE")))
    assert [(c.change, c.agreement.partner) for c in out.changes] == [("broken", "ENG")]
