"""The negotiator as tables of event sequences: proposals by value, broken promises, CCL, trust.

The negotiator is pure: each test plays a sequence of phases, press and order
results into it and reads what it said, the agreements it keeps and the
counts of its reactions.  The core-level tests (press through ``FRM``/``SND``,
hostile press, a flood in the last second) are at the end.
"""

from __future__ import annotations

import pytest

from adjudicator.daide import load_position
from adjudicator.maps import standard_map
from adjudicator.position import Position, initial_position
from bot.client.core import notes
from bot.client.core.core import BotCore, CoreSettings
from bot.client.core.effects import Effect
from bot.client.core.negotiator import (
    ACCEPT_TOLERANCE,
    INITIAL_TRUST,
    LATE_SECONDS,
    MAX_EVALUATIONS_PER_PHASE,
    MAX_REPLIES_PER_PHASE,
    MIN_TRUST,
    TRUST_AFTER_BREAK,
    TRUST_PER_KEPT_YEAR,
    Agreement,
    Negotiator,
    Outcome,
)
from bot.client.settings import load_settings
from protocol.expression import flatten, fold
from protocol.messages import Frm, Gof, Huh, Snd, Sub
from protocol.press import (
    Accept,
    Alliance,
    AllOf,
    Cancel,
    Demilitarise,
    DoOrder,
    Draw,
    Fact,
    Negation,
    Peace,
    Press,
    Proposal,
    Reject,
    Try,
)
from protocol.press_reader import parse_press
from protocol.tokens import AND, BRA, ERR, HUH, KET, PCE, PRP, STANDARD, TRY
from protocol.values import (
    Hold,
    Location,
    Move,
    Retreat,
    Season,
    SupportMove,
    Turn,
    Unit,
    UnitType,
    Waive,
)
from protocol.variant import Variant
from search.negotiation import Budget
from tests.bot.client.core.driver import Driver, job_of, noted, opening, sent

BUDGET = Budget(rollouts=4, years=2)


def _germany_undefended() -> Position:
    """Spring 1901 with Germany's units gone and French armies on its border (peace costs us)."""
    m = standard_map()
    pos = initial_position(m).copy()
    ger, fra = m.power_index["GER"], m.power_index["FRA"]
    for province in [p for p, u in pos.units.items() if u[0] == ger]:
        del pos.units[province]
    for name in ("BUR", "RUH", "PIC", "SIL", "PRU"):
        pos.units[m.province_index[name]] = (fra, 0, m.location(name))
    return pos


def _negotiator(pos: Position | None = None, us: str = "FRA") -> tuple[Negotiator, Outcome]:
    neg = Negotiator(seed=5, budget=BUDGET)
    pos = pos or initial_position(standard_map())
    return neg, neg.on_phase(us, pos.map, pos.turn, pos, None)


def _peace(*powers: str) -> Proposal:
    return Proposal(Peace(tuple(sorted(powers))))


# --- proposals judged by value --------------------------------------------------------------


@pytest.mark.parametrize(
    ("position", "sender", "accepted"),
    [
        (None, "TUR", True),  # far away: peace costs nothing
        (None, "ENG", True),  # a neighbour at the opening: within the tolerance
        (_germany_undefended, "GER", False),  # peace would give up three open centres
    ],
)
def test_a_peace_proposal_is_accepted_or_refused_by_its_value(
    position: object, sender: str, accepted: bool
) -> None:
    pos = position() if callable(position) else None
    neg, _ = _negotiator(pos)
    out = neg.on_press(sender, _peace("FRA", sender), None)
    assert len(out.said) == 1
    reply = out.said[0]
    assert reply.recipients == (sender,)
    assert isinstance(reply.press, Accept if accepted else Reject)
    record = neg.record[-1]
    assert record.sender == sender and record.answer == ("YES" if accepted else "REJ")
    assert record.gain is not None and (record.gain >= -ACCEPT_TOLERANCE) == accepted
    assert (sender in neg.partners()) == accepted
    assert [c.change for c in out.changes] == (["made"] if accepted else [])


def test_a_proposal_that_costs_exactly_the_tolerance_is_accepted() -> None:
    neg = Negotiator(seed=7, budget=BUDGET)  # seed 7: this zone's rollouts cost one centre
    pos = opening()
    neg.on_phase("FRA", pos.map, pos.turn, pos, None)
    out = neg.on_press("GER", Proposal(Demilitarise(("FRA", "GER"), ("MUN", "POR"))), None)
    assert neg.record[-1].gain == -ACCEPT_TOLERANCE
    assert [type(s.press) for s in out.said] == [Accept]


def test_an_accepted_peace_restrains_the_rollouts_that_value_the_next_proposal() -> None:
    neg, _ = _negotiator()
    assert not neg.constraints_of(neg.agreements)
    neg.on_press("TUR", _peace("FRA", "TUR"), None)
    m = standard_map()
    bound = neg.constraints_of(neg.agreements)
    assert bound.us == m.power_index["FRA"]
    assert bound.peace == frozenset({m.power_index["TUR"]})


@pytest.mark.parametrize(
    "arrangement",
    [
        Alliance(("FRA", "TUR"), ("GER",)),
        Draw(),
        Peace(("ENG", "GER")),  # peace between others: not ours to agree
        Negation(Peace(("FRA", "TUR"))),
        AllOf((Peace(("FRA", "TUR")), Peace(("FRA", "RUS")))),
    ],
)
def test_arrangements_we_do_not_make_are_refused_and_counted(arrangement: object) -> None:
    neg, _ = _negotiator()
    out = neg.on_press("TUR", Proposal(arrangement), None)  # type: ignore[arg-type]
    assert [type(s.press) for s in out.said] == [Reject]
    assert neg.counts["refused_not_offered"] == 1
    assert not neg.agreements


@pytest.mark.parametrize(
    ("sender", "arrangement"),
    [
        ("TUR", Peace(("FRA", "RUS"))),  # ours, but not with the sender
        ("ENG", Peace(("ENG", "GER"))),  # the sender's, but not ours
        ("TUR", Demilitarise(("FRA", "RUS"), ("PIE",))),
        ("ENG", Demilitarise(("ENG", "GER"), ("PIE",))),
        ("TUR", Demilitarise(("FRA", "TUR"), ("XYZ",))),  # not a province of the map
        ("ITA", DoOrder(Waive("ITA"))),  # no unit to promise an order of
    ],
)
def test_arrangements_not_between_us_and_the_sender_are_refused(
    sender: str, arrangement: object
) -> None:
    neg, _ = _negotiator()
    out = neg.on_press(sender, Proposal(arrangement), None)  # type: ignore[arg-type]
    assert [type(s.press) for s in out.said] == [Reject]
    assert neg.counts["refused_not_offered"] == 1
    assert neg.record[-1].gain is None and not neg.agreements


EVERY_POWER = tuple(standard_map().powers)


@pytest.mark.parametrize(
    "arrangement",
    [
        Peace(EVERY_POWER),
        Demilitarise(EVERY_POWER, ("ARM",)),
        Demilitarise(("FRA", "TUR"), tuple(sorted(standard_map().province_index))),
    ],
)
def test_a_peace_or_zone_of_every_power_or_province_is_weighed(arrangement: object) -> None:
    neg, _ = _negotiator()
    neg.on_press("TUR", Proposal(arrangement), None)  # type: ignore[arg-type]
    assert neg.counts["refused_not_offered"] == 0
    assert neg.record[-1].gain is not None


def test_a_power_at_the_least_trust_and_a_proposal_a_second_before_the_deadline_are_weighed() -> (
    None
):
    neg, _ = _negotiator()
    neg.trust["TUR"] = MIN_TRUST
    neg.on_press("TUR", _peace("FRA", "TUR"), None)
    assert neg.record[-1].gain is not None and neg.counts["refused_distrusted"] == 0
    neg.on_press("RUS", _peace("FRA", "RUS"), LATE_SECONDS)
    assert neg.record[-1].gain is not None and neg.counts["refused_late"] == 0


def test_past_the_evaluations_of_a_phase_a_proposal_is_refused_unweighed() -> None:
    neg = Negotiator(seed=5, budget=Budget(rollouts=1, years=1))
    pos = opening()
    neg.on_phase("FRA", pos.map, pos.turn, pos, None)  # its proposals spend some
    replies = [
        neg.on_press("TUR", _peace("FRA", "TUR"), None).said[0].press
        for _ in range(MAX_EVALUATIONS_PER_PHASE)
    ]
    weighed = neg.counts["accepted_by_value"] + neg.counts["refused_by_value"]
    refused = neg.counts["refused_flood"]
    assert weighed + refused == MAX_EVALUATIONS_PER_PHASE and refused > 0
    assert neg.counts["accepted_flood"] == 0
    assert replies[weighed:] == [Reject(_peace("FRA", "TUR"))] * refused
    assert all(r.gain is None for r in neg.record[-refused:])


def test_a_proposal_before_the_first_position_waits_for_it() -> None:
    neg = Negotiator(seed=1, budget=BUDGET)
    assert neg.on_press("TUR", _peace("FRA", "TUR"), None).said == []
    pos = initial_position(standard_map())
    out = neg.on_phase("FRA", pos.map, pos.turn, pos, None)
    assert Accept(_peace("FRA", "TUR")) in [s.press for s in out.said]


def test_we_propose_peace_where_it_gains_and_a_yes_makes_it() -> None:
    neg, out = _negotiator()
    proposals = [s for s in out.said if isinstance(s.press, Proposal)]
    assert 1 <= len(proposals) <= 2
    to = proposals[0].recipients[0]
    change = neg.on_press(to, Accept(proposals[0].press), None)  # type: ignore[arg-type]
    assert to in neg.partners()
    assert [c.change for c in change.changes] == ["made"]
    assert neg.record[0].answer == "YES"


@pytest.mark.parametrize(
    ("tokens", "asked"),
    [
        ((), False),  # Parang's DumbBot: HUH, then TRY () -- it speaks no press
        (("YES", "REJ", "ALY"), False),  # press, but not the words of a peace proposal
        (("PCE", "PRP", "YES"), True),  # Parang's PeaceBot
    ],
)
def test_no_peace_is_proposed_to_a_power_whose_try_leaves_it_out(
    tokens: tuple[str, ...], asked: bool
) -> None:
    neg, _ = _negotiator()
    others = [p for p in standard_map().powers if p != "FRA"]
    for power in others:
        neg.on_press(power, Try(tokens), None)
    pos = initial_position(standard_map())
    out = neg.on_phase("FRA", pos.map, Turn(Season.SPRING, 1902), pos, None)
    proposed = [s for s in out.said if isinstance(s.press, Proposal)]
    assert neg.counts["try_heard"] == len(others)
    assert bool(proposed) == asked
    assert all(neg.speaks_peace(p) == asked for p in others)
    assert neg.counts["not_asked_no_press"] == (0 if asked else len(others))


def test_a_yes_to_nothing_we_said_is_counted() -> None:
    neg, _ = _negotiator()
    neg.on_press("RUS", Accept(_peace("FRA", "RUS")), None)
    assert neg.counts["answer_to_nothing"] == 1
    assert "RUS" not in neg.partners()


def test_a_dmz_is_agreed_by_value_and_keeps_units_out() -> None:
    neg, _ = _negotiator()
    out = neg.on_press("ITA", Proposal(Demilitarise(("FRA", "ITA"), ("PIE",))), None)
    assert isinstance(out.said[0].press, Accept)
    m = standard_map()
    zone = neg.constraints_of(neg.agreements).zones[0]
    assert zone.provinces == frozenset({m.province_index["PIE"]})
    assert zone.powers == frozenset({m.power_index["FRA"], m.power_index["ITA"]})
    arrangement = Demilitarise(("FRA", "ITA"), ("PIE",))
    assert neg.agreements == [Agreement("ITA", "dmz", arrangement, opening().turn)]


def _army(power: str, province: str) -> Unit:
    return Unit(power, UnitType.ARMY, Location(province))


def _xdo(order: object) -> Proposal:
    return Proposal(DoOrder(order))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("sender", "order", "agreed"),
    [
        ("ITA", Hold(Unit("ITA", UnitType.ARMY, Location("VEN"))), True),  # its own unit
        ("ITA", Move(Unit("FRA", UnitType.ARMY, Location("MAR")), Location("GAS")), True),  # ours
        ("ITA", Move(Unit("GER", UnitType.ARMY, Location("MUN")), Location("RUH")), False),  # other
        # (the line above: another's unit; below: an illegal order, then no such unit)
        ("ITA", Move(Unit("FRA", UnitType.ARMY, Location("PAR")), Location("MUN")), False),
        ("ITA", Hold(Unit("ITA", UnitType.ARMY, Location("APU"))), False),  # no such unit
    ],
)  # fmt: skip
def test_an_order_promised_is_agreed_when_it_is_ours_or_the_sender_s_and_legal(
    sender: str, order: object, agreed: bool
) -> None:
    neg, _ = _negotiator()
    out = neg.on_press(sender, _xdo(order), None)
    assert [type(s.press) for s in out.said] == [Accept if agreed else Reject]
    assert neg.counts["refused_not_offered"] == (0 if agreed else 1)
    promised = neg.constraints_of(neg.agreements).promised
    assert len(promised) == (1 if agreed else 0)
    if agreed:
        m = standard_map()
        unit = order.unit  # type: ignore[attr-defined]
        assert promised[0].power == m.power_index[unit.power]
        assert promised[0].province == m.province_index[unit.location.province]
        pos = opening()
        assert (promised[0].season, promised[0].year) == (pos.season, pos.year)


def test_an_order_promised_outside_a_movement_phase_is_refused() -> None:
    retreat = load_position(
        "NOW ( SUM 1901 ) ( FRA AMY BUR ) ( FRA FLT BRE ) ( GER AMY MUN ) "
        "( FRA AMY PAR MRT ( GAS PIC ) )",
        "SCO ( FRA BRE MAR PAR ) ( GER BER KIE MUN )",
    )
    neg = Negotiator(seed=5, budget=BUDGET)
    neg.on_phase("FRA", retreat.map, retreat.turn, retreat, None)
    out = neg.on_press("GER", _xdo(Retreat(_army("FRA", "PAR"), Location("GAS"))), None)
    assert [type(s.press) for s in out.said] == [Reject]
    assert neg.counts["refused_not_offered"] == 1 and not neg.agreements


def test_an_order_promised_binds_its_phase_only() -> None:
    neg, _ = _negotiator()
    neg.on_press("ITA", _xdo(Hold(Unit("ITA", UnitType.ARMY, Location("VEN")))), None)
    promised = list(neg.agreements)
    assert neg.constraints_of(promised).promised
    pos = opening()
    autumn = initial_position(standard_map()).copy()
    autumn.season += 2  # the fall movement phase, after the spring's retreats
    out = neg.on_phase("FRA", pos.map, autumn.turn, autumn, None)
    assert [(c.change, c.agreement.kind) for c in out.changes] == [("expired", "xdo")]
    assert not neg.agreements
    assert not neg.constraints_of(promised).promised  # and past its phase it binds nothing


@pytest.mark.parametrize(
    ("given", "change"),
    [
        (Hold(_army("ITA", "VEN")), []),  # kept
        (Move(_army("ITA", "VEN"), Location("PIE")), ["broken"]),
        (Move(_army("ITA", "ROM"), Location("APU")), []),  # another unit
    ],
)
def test_an_order_promised_and_not_given_is_a_broken_promise(given: object, change: list) -> None:
    neg, _ = _negotiator()
    neg.on_press("ITA", _xdo(Hold(_army("ITA", "VEN"))), None)
    out = neg.on_result(opening().turn, given)  # type: ignore[arg-type]
    assert [c.change for c in out.changes] == change
    assert neg.trust_in("ITA") == (TRUST_AFTER_BREAK if change else 1.0)


def test_our_order_promised_and_not_given_is_broken_by_us() -> None:
    neg, _ = _negotiator()
    neg.on_press("ITA", _xdo(Move(_army("FRA", "MAR"), Location("GAS"))), None)
    out = neg.on_result(opening().turn, Move(_army("FRA", "MAR"), Location("PIE")))
    assert [c.change for c in out.changes] == ["broken_by_us"]
    assert neg.trust_in("ITA") == 1.0


# --- agreements ended: CCL, broken promises, by us -----------------------------------------------


def test_a_partner_attacking_our_unit_off_our_centres_breaks_the_peace() -> None:
    pos = opening().copy()
    m = pos.map
    paris, picardy = m.province_index["PAR"], m.province_index["PIC"]
    power, kind, _ = pos.units.pop(paris)
    pos.units[picardy] = (power, kind, m.location("PIC"))
    neg, _ = _negotiator(pos)
    neg.on_press("ENG", _peace("ENG", "FRA"), None)
    out = neg.on_result(pos.turn, Move(_army("ENG", "WAL"), Location("PIC")))
    assert [c.change for c in out.changes] == ["broken"]


@pytest.mark.parametrize(
    ("order", "broken"),
    [
        (Move(_army("ENG", "WAL"), Location("BRE")), True),  # into our unit's province
        (Move(_army("ENG", "WAL"), Location("LON")), False),  # its own
        (SupportMove(_army("ENG", "PIC"), _army("ENG", "BEL"), "PAR"), True),  # supports an attack
        (Move(_army("GER", "RUH"), Location("BUR")), False),  # not a partner
    ],
)
def test_a_broken_peace_is_noticed_from_the_order_results(order: object, broken: bool) -> None:
    neg, _ = _negotiator()
    neg.on_press("ENG", _peace("FRA", "ENG"), None)
    assert "ENG" in neg.partners()
    out = neg.on_result(opening().turn, order)  # type: ignore[arg-type]
    assert ("ENG" not in neg.partners()) == broken
    assert [c.change for c in out.changes] == (["broken"] if broken else [])
    assert neg.trust_in("ENG") == (TRUST_AFTER_BREAK if broken else 1.0)


def test_a_dmz_is_broken_by_a_move_into_the_zone() -> None:
    neg, _ = _negotiator()
    neg.on_press("ITA", Proposal(Demilitarise(("FRA", "ITA"), ("PIE",))), None)
    out = neg.on_result(opening().turn, Move(_army("ITA", "VEN"), Location("PIE")))
    assert [c.change for c in out.changes] == ["broken"]
    assert not neg.agreements


def test_a_cancel_ends_the_agreement() -> None:
    neg, _ = _negotiator()
    neg.on_press("TUR", _peace("FRA", "TUR"), None)
    out = neg.on_press("TUR", Cancel(_peace("FRA", "TUR")), None)
    assert [c.change for c in out.changes] == ["cancelled"]
    assert neg.partners() == ()
    assert neg.on_press("TUR", Cancel(_peace("FRA", "TUR")), None).changes == []
    assert neg.counts["cancel_nothing"] == 1


def test_after_a_broken_promise_the_power_is_not_trusted() -> None:
    neg, _ = _negotiator()
    neg.on_press("ENG", _peace("FRA", "ENG"), None)
    neg.on_result(opening().turn, Move(_army("ENG", "WAL"), Location("BRE")))
    assert neg.trust_in("ENG") < MIN_TRUST
    out = neg.on_press("ENG", _peace("FRA", "ENG"), None)
    assert isinstance(out.said[0].press, Reject)
    assert neg.counts["refused_distrusted"] == 1


def test_trust_is_regained_each_spring_up_to_its_start() -> None:
    neg = Negotiator(seed=5, budget=Budget(rollouts=1, years=1))
    pos = opening().copy()
    neg.on_phase("FRA", pos.map, pos.turn, pos, None)
    neg.on_press("ENG", _peace("FRA", "ENG"), None)
    neg.on_result(pos.turn, Move(_army("ENG", "WAL"), Location("BRE")))
    trust = [neg.trust_in("ENG")]
    for _ in range(8):
        pos.year += 1
        neg.on_phase("FRA", pos.map, pos.turn, pos, None)
        trust.append(neg.trust_in("ENG"))
    assert trust[:2] == pytest.approx([TRUST_AFTER_BREAK, TRUST_AFTER_BREAK + TRUST_PER_KEPT_YEAR])
    assert trust[-2:] == [pytest.approx(0.95), INITIAL_TRUST]


def test_an_agreement_worth_less_than_breaking_it_is_ended_by_us() -> None:
    neg = Negotiator(seed=5, budget=BUDGET)
    pos = initial_position(standard_map())
    neg.on_phase("FRA", pos.map, pos.turn, pos, None)
    neg.on_press("GER", _peace("FRA", "GER"), None)
    assert "GER" in neg.partners()
    later = _germany_undefended()
    later.year += 1
    out = neg.on_phase("FRA", later.map, later.turn, later, None)
    assert "GER" not in neg.partners()
    assert [c.change for c in out.changes] == ["ended_by_us"]
    assert not [s for s in out.said if s.recipients == ("GER",)]  # ended in silence


# --- hostile press: counted reactions ------------------------------------------------------------


def test_a_flood_of_proposals_costs_at_most_the_budget() -> None:
    neg, _ = _negotiator()
    start = neg._evaluations
    for _ in range(200):
        neg.on_press("TUR", _peace("FRA", "TUR"), 30.0)
    assert neg._evaluations <= MAX_EVALUATIONS_PER_PHASE
    assert neg._evaluations - start >= 1
    assert neg.counts["refused_flood"] + neg.counts["accepted_by_value"] >= 1
    assert neg.counts["unanswered_flood"] > 0
    assert len(neg.record) <= MAX_REPLIES_PER_PHASE  # the record stays bounded


def test_a_proposal_in_the_last_second_is_refused_at_once() -> None:
    neg, _ = _negotiator()
    start = neg._evaluations
    out = neg.on_press("TUR", _peace("FRA", "TUR"), 0.4)
    assert isinstance(out.said[0].press, Reject)
    assert neg.counts["refused_late"] == 1
    assert neg._evaluations == start


def test_press_from_a_power_not_on_the_map_is_counted() -> None:
    neg, _ = _negotiator()
    assert neg.on_press("XYZ", _peace("FRA", "XYZ"), None).said == []
    assert neg.counts["unknown_sender"] == 1


# --- in the core: FRM in, SND out, notes ---------------------------------------------------------


def _frm(sender: str, press: Proposal) -> Frm:
    return Frm(sender, ("FRA",), fold(press.to_tokens(STANDARD), STANDARD))


def _press_game(level: int = 10, press: str = "unbound") -> Driver:
    d = Driver(core=BotCore(CoreSettings(name="test", version="1", seed=7, press=press)))
    d.join(Variant.of(level, move_time_limit=10))
    d.show(opening())
    return d


def _replies(out: list[Effect]) -> list[Press]:
    return [parse_press(flatten(m.press), 30, STANDARD) for m in sent(out, Snd)]


def test_the_core_accepts_peace_and_notes_it() -> None:
    d = _press_game()
    out = d.say(_frm("TUR", _peace("FRA", "TUR")))
    assert Accept(_peace("FRA", "TUR")) in _replies(out)
    assert [n.sender for n in noted(out, notes.PressIn)] == ["TUR"]
    assert noted(out, notes.PressOut)
    made = noted(out, notes.AgreementChanged)
    assert [(n.change, n.partner, n.kind) for n in made] == [("made", "TUR", "peace")]
    assert d.core.negotiator.partners() == ("TUR",)


@pytest.mark.parametrize("press_turn", [False, True])
def test_every_snd_names_the_turn_when_the_server_needs_it(press_turn: bool) -> None:
    core = BotCore(CoreSettings(name="test", version="1", seed=7, press_turn=press_turn))
    d = Driver(core=core)
    d.join(Variant.of(30, move_time_limit=10))
    out = d.show(opening())
    tokens = (PRP, BRA, STANDARD.number("CHO"), KET)  # level 50: HUH and TRY
    out += _say_tokens(d, "TUR", tokens) + d.say(_frm("TUR", _peace("FRA", "TUR")))
    turns = {m.turn for m in sent(out, Snd)}
    assert turns == ({opening().turn} if press_turn else {None})
    texts = {m.to_text(STANDARD) for m in sent(out, Snd)}
    recorded = [n.text for n in noted(out, notes.PressOut)]
    assert recorded and set(recorded) <= texts  # each record is of a message as sent


def test_with_press_off_every_proposal_is_refused() -> None:
    d = Driver(core=BotCore(CoreSettings(name="test", version="1", seed=7, press="off")))
    d.join(Variant.of(10, move_time_limit=10))
    out = d.show(opening())
    assert not sent(out, Snd)  # we propose nothing
    out = d.say(_frm("TUR", _peace("FRA", "TUR")))
    assert _replies(out) == [Reject(_peace("FRA", "TUR"))]
    assert not d.core.negotiator.agreements


def _say_tokens(d: Driver, sender: str, press: tuple[int, ...]) -> list[Effect]:
    return d.say(Frm(sender, ("FRA",), fold(press, STANDARD)))


def _kinds(out: list[Effect]) -> list[int]:
    return [flatten(m.press)[0] for m in sent(out, Snd)]


def test_a_proposal_naming_a_power_not_on_the_map_gets_huh_and_try() -> None:
    d = _press_game()
    paris = STANDARD.number("PAR")
    tokens = (PRP, BRA, PCE, BRA, STANDARD.number("FRA"), paris, KET, KET)
    out = _say_tokens(d, "TUR", tokens)
    assert _kinds(out) == [HUH, TRY]
    assert d.core.negotiator.counts["not_understood"] == 1
    assert [n.reaction for n in noted(out, notes.PressIn)] == ["not understood: HUH/TRY"]


def test_an_and_of_400_parts_gets_huh_and_try() -> None:
    d = _press_game(30)
    body: list[int] = [PRP, BRA, AND]
    for _ in range(400):
        body += [BRA, *Peace(("FRA", "TUR")).to_tokens(STANDARD), KET]
    body.append(KET)
    out = _say_tokens(d, "TUR", tuple(body))
    assert _kinds(out) == [HUH, TRY]
    assert not d.core.negotiator.agreements


def test_a_flood_of_proposals_in_the_last_second_and_the_orders_still_go() -> None:
    d = _press_game()
    job = job_of(d.log)
    d.later(9.5)  # half a second before the 10 s deadline
    flood: list[Effect] = []
    for _ in range(100):
        flood += d.say(_frm("TUR", _peace("FRA", "TUR")))
    counts = d.core.negotiator.counts
    assert counts["refused_late"] > 0  # no evaluation in the last second
    assert counts["refused_late"] + counts["unanswered_flood"] == 100
    assert counts["accepted_by_value"] == 0
    assert counts["unanswered_flood"] > 0  # and no more than the phase's replies
    assert 0 < len(sent(flood, Snd)) <= MAX_REPLIES_PER_PHASE
    out = d.answer(job.job_id, {})
    assert sent(out, Gof)  # the final answer is in, and said
    assert sent(d.log, Sub)


def test_unbound_press_is_the_default() -> None:
    assert CoreSettings(name="test", version="1").press == "unbound"
    assert load_settings().press == "unbound"


def test_press_that_binds_the_search_was_removed_and_is_refused() -> None:
    """``on`` (agreements binding the search) lost to ``unbound`` and was removed."""
    with pytest.raises(ValueError, match="unknown press mode 'on'; one of off, unbound"):
        BotCore(CoreSettings(name="test", version="1", press="on"))


def test_a_huh_to_our_press_is_counted_and_our_orders_stay() -> None:
    d = _press_game()
    snd = Snd(("GER",), fold(Fact(Negation(Peace(("FRA", "GER")))).to_tokens(STANDARD), STANDARD))
    tokens = snd.to_tokens(STANDARD)
    body = (*tokens[:5], ERR, *tokens[5:])
    out = d.say(Huh(fold(body, STANDARD)))
    assert not sent(out, Sub)  # not taken for a problem with our orders
    assert d.core.negotiator.counts["press_refused_by_server"] == 1


@pytest.mark.parametrize(
    ("order", "broken"),
    [
        (Move(_army("FRA", "PAR"), Location("BUR")), False),
        (Move(_army("FRA", "BUR"), Location("MUN")), True),  # on the partner's unit and centre
    ],
)
def test_our_own_broken_promise_is_in_the_record(order: Move, broken: bool) -> None:
    neg, _ = _negotiator()
    neg.on_press("GER", _peace("FRA", "GER"), None)
    out = neg.on_result(opening().turn, order)
    assert [c.change for c in out.changes] == (["broken_by_us"] if broken else [])
    assert ("GER" in neg.partners()) != broken
    assert neg.trust_in("GER") == 1.0  # our break is not the partner's
