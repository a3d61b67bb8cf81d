"""The negotiator's record and counts: each answer, cancel and break counted once, with its why."""

from __future__ import annotations

from adjudicator.daide import load_position
from adjudicator.maps import standard_map
from adjudicator.position import initial_position
from bot.client.core.negotiator import (
    MAX_PENDING,
    TRUST_AFTER_BREAK,
    Agreement,
    AgreementNote,
    Negotiator,
    Outcome,
    ProposalRecord,
)
from protocol.press import (
    Accept,
    Cancel,
    Demilitarise,
    DoOrder,
    Draw,
    Fact,
    Peace,
    Proposal,
    Reject,
)
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
WINTER = load_position(
    "NOW ( WIN 1901 ) ( FRA AMY BUR ) ( FRA FLT MAO )",
    "SCO ( FRA BRE MAR PAR ) ( GER BER KIE MUN )",
)


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


# --- every reaction counted each time, every record in full ------------------------------------


def test_each_reaction_is_counted_every_time_it_happens() -> None:
    neg, _ = negotiator()
    for _ in range(2):
        neg.on_press("XYZ", peace("FRA", "XYZ"), None)
        neg.on_press("RUS", Fact(Peace(("FRA", "RUS"))), None)
        neg.on_press("TUR", Cancel(Accept(peace("FRA", "TUR"))), None)  # type: ignore[arg-type]
        neg.on_press("AUS", Reject(Proposal(Draw())), None)  # we proposed no draw
    assert neg.counts["unknown_sender"] == 2
    assert neg.counts["noted"] == 2
    assert neg.counts["cancel_other"] == 2
    assert neg.counts["answer_to_nothing"] == 2


def test_proposals_wait_for_the_first_position_up_to_a_bound() -> None:
    neg = Negotiator(seed=5, budget=BUDGET)
    for _ in range(MAX_PENDING + 2):
        assert neg.on_press("TUR", Proposal(Draw()), None).said == []
    assert neg.counts["pending"] == MAX_PENDING
    assert neg.counts["pending_full"] == 2
    out = neg.on_phase("FRA", WINTER.map, WINTER.turn, WINTER, None)
    assert [s.press for s in out.said] == [Reject(Proposal(Draw()))] * MAX_PENDING


def test_a_refusal_without_an_evaluation_is_recorded_in_full_without_a_gain() -> None:
    neg, _ = negotiator()
    draw = Proposal(Draw())
    neg.on_press("TUR", draw, None)
    assert neg.record[-1] == ProposalRecord(TURN, "TUR", ("FRA",), draw, "REJ", None)


def test_an_acceptance_by_value_is_recorded_in_full_and_counted_by_its_reason() -> None:
    neg, _ = negotiator()
    neg.on_press("TUR", peace("FRA", "TUR"), None)
    record = neg.record[-1]
    assert record == ProposalRecord(TURN, "TUR", ("FRA",), peace("FRA", "TUR"), "YES", record.gain)
    assert record.gain is not None
    assert neg.counts["accepted_by_value"] == 1
    assert neg.agreements == [Agreement("TUR", "peace", Peace(("FRA", "TUR")), TURN)]


def test_answers_to_two_of_our_proposals_are_each_counted() -> None:
    neg, out = negotiator()
    asked = [s for s in out.said if isinstance(s.press, Proposal)]
    assert len(asked) == 2
    for say in asked:
        neg.on_press(say.recipients[0], Accept(say.press), None)  # type: ignore[arg-type]
    assert neg.counts["answer_yes"] == 2
    assert sorted(neg.partners()) == sorted(s.recipients[0] for s in asked)


def test_a_yes_to_our_proposal_of_this_year_follows_a_rej_to_last_year_s() -> None:
    neg, first = negotiator()
    to, proposal = our_first_proposal(neg, first)
    neg.on_press(to, Reject(proposal), None)
    pos = OPENING.copy()
    pos.year += 1
    again = neg.on_phase("FRA", pos.map, pos.turn, pos, None)
    assert Proposal(proposal.arrangement) in [s.press for s in again.said if s.recipients == (to,)]
    out = neg.on_press(to, Accept(proposal), None)
    assert [c.change for c in out.changes] == ["made"]
    assert neg.counts["answer_yes"] == 1 and neg.counts["answer_to_nothing"] == 0
    assert [r.answer for r in neg.record if r.recipients == (to,)] == ["REJ", "YES"]


# --- cancels: which deal they end --------------------------------------------------------------


def test_a_cancel_ends_the_sender_s_deal_among_others() -> None:
    neg, _ = negotiator()
    neg.on_press("RUS", peace("FRA", "RUS"), None)
    neg.on_press("TUR", peace("FRA", "TUR"), None)
    out = neg.on_press("TUR", Cancel(peace("FRA", "TUR")), None)
    assert [(c.change, c.agreement.partner) for c in out.changes] == [("cancelled", "TUR")]
    assert neg.partners() == ("RUS",)


def test_a_cancel_naming_the_powers_in_another_order_ends_the_peace() -> None:
    neg, _ = negotiator()
    neg.on_press("TUR", peace("FRA", "TUR"), None)
    out = neg.on_press("TUR", Cancel(Proposal(Peace(("TUR", "FRA")))), None)
    assert [c.change for c in out.changes] == ["cancelled"]
    assert neg.partners() == ()


ARMENIA = Demilitarise(("FRA", "TUR"), ("ARM",))


def test_a_cancel_ends_the_one_deal_it_names_of_a_peace_and_a_zone() -> None:
    neg, _ = negotiator()
    neg.on_press("TUR", peace("FRA", "TUR"), None)
    neg.on_press("TUR", Proposal(ARMENIA), None)
    assert [a.kind for a in neg.agreements] == ["peace", "dmz"]
    out = neg.on_press("TUR", Cancel(Proposal(ARMENIA)), None)
    assert [c.agreement.kind for c in out.changes] == ["dmz"]
    syria = Proposal(Demilitarise(("FRA", "TUR"), ("SYR",)))
    assert neg.on_press("TUR", Cancel(syria), None).changes == []  # another zone
    neg.on_press("TUR", Proposal(ARMENIA), None)
    out = neg.on_press("TUR", Cancel(peace("FRA", "TUR")), None)
    assert [c.agreement.kind for c in out.changes] == ["peace"]
    assert [a.arrangement for a in neg.agreements] == [ARMENIA]


# --- agreements made once per partner ------------------------------------------------------------


def test_one_zone_agreed_with_two_powers_is_an_agreement_with_each_made_once() -> None:
    neg, _ = negotiator()
    zone = Demilitarise(("FRA", "GER", "ITA"), ("PIE",))
    for sender in ("ITA", "GER", "ITA"):
        neg.on_press(sender, Proposal(zone), None)
    assert neg.agreements == [
        Agreement("ITA", "dmz", zone, TURN),
        Agreement("GER", "dmz", zone, TURN),
    ]


# --- promises and breaks judged from the order results --------------------------------------


def test_a_result_at_a_province_not_on_the_map_breaks_nothing() -> None:
    neg, _ = negotiator()
    neg.on_press("ENG", peace("ENG", "FRA"), None)
    out = neg.on_result(TURN, Move(army("ENG", "WAL"), Location("XYZ")))
    assert out.changes == [] and neg.partners() == ("ENG",)


def test_a_partner_breaking_twice_loses_trust_twice() -> None:
    neg, _ = negotiator()
    neg.on_press("ENG", peace("ENG", "FRA"), None)
    neg.on_press("ENG", Proposal(Demilitarise(("ENG", "FRA"), ("ECH",))), None)
    fleet = Unit("ENG", UnitType.FLEET, Location("LON"))
    neg.on_result(TURN, Move(fleet, Location("BRE")))
    assert neg.trust_in("ENG") == TRUST_AFTER_BREAK
    neg.on_result(TURN, Move(fleet, Location("ECH")))
    assert neg.trust_in("ENG") == TRUST_AFTER_BREAK**2
    assert neg.counts["broken_by_partner"] == 2 and neg.agreements == []


def test_a_promise_broken_after_a_peace_is_seen() -> None:
    neg, _ = negotiator()
    neg.on_press("ITA", peace("FRA", "ITA"), None)  # the first agreement: not a promise
    neg.on_press("ITA", promise(Hold(army("ITA", "VEN"))), None)
    out = neg.on_result(TURN, Move(army("ITA", "VEN"), Location("TYR")))
    assert [(c.change, c.agreement.kind) for c in out.changes] == [("broken", "xdo")]


def test_of_two_promises_for_one_unit_the_one_not_kept_is_broken() -> None:
    neg, _ = negotiator()
    neg.on_press("ITA", promise(Move(army("ITA", "VEN"), Location("TYR"))), None)
    neg.on_press("ITA", promise(Hold(army("ITA", "VEN"))), None)
    kept, broken = neg.agreements
    out = neg.on_result(TURN, Move(army("ITA", "VEN"), Location("TYR")))
    assert [(c.change, c.agreement) for c in out.changes] == [("broken", broken)]
    assert neg.agreements == [kept]


def test_a_promise_is_kept_by_the_same_order_written_another_way() -> None:
    neg, _ = negotiator()
    fleet = Unit("FRA", UnitType.FLEET, Location("BRE"))
    neg.on_press("ITA", promise(Move(fleet, Location("MAO"))), None)
    assert len(neg.agreements) == 1
    out = neg.on_result(TURN, Move(fleet, Location("MAO", "NCS")))  # a coast the sea has not
    assert out.changes == [] and len(neg.agreements) == 1


def test_each_of_our_broken_promises_is_counted() -> None:
    neg, _ = negotiator()
    neg.on_press("ITA", promise(Move(army("FRA", "MAR"), Location("GAS"))), None)
    neg.on_press("ITA", promise(Hold(army("FRA", "PAR"))), None)
    neg.on_result(TURN, Move(army("FRA", "MAR"), Location("BUR")))
    neg.on_result(TURN, Move(army("FRA", "PAR"), Location("PIC")))
    assert neg.counts["broken_by_us"] == 2 and neg.agreements == []


def test_each_agreement_our_orders_break_is_counted() -> None:
    neg, _ = negotiator()
    neg.on_press("ITA", Proposal(PIEDMONT), None)
    neg.on_press("ENG", Proposal(Demilitarise(("ENG", "FRA"), ("ECH",))), None)
    neg.on_result(TURN, Move(army("FRA", "MAR"), Location("PIE")))
    neg.on_result(TURN, Move(Unit("FRA", UnitType.FLEET, Location("BRE")), Location("ECH")))
    assert neg.counts["broken_by_us"] == 2 and neg.agreements == []
