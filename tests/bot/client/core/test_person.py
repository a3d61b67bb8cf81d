"""A person's seat and the other choosers, driven as the core sees them: events in, effects out."""

from __future__ import annotations

import pytest

from adjudicator.daide import load_position
from adjudicator.movement import next_position
from adjudicator.orders import HOLD_ORDER, MOVE
from bot.client.core import events as ev
from bot.client.core import notes
from bot.client.core.core import BotCore, CoreSettings
from bot.client.core.effects import CancelSearch, StartSearch
from bot.client.core.person import PersonOrderError, check_person_orders, legal_choices
from protocol.messages import Drw, Gof, Mis, Not, Sub, Thx
from protocol.notation import format_order, parse_order
from protocol.values import Hold, Location, MoveByConvoy, Unit, UnitPosition, UnitType
from protocol.variant import Variant
from tests.bot.client.core.driver import Driver, job_of, noted, of, opening, sent

SPRING = opening()


def _person(strategy: str = "mcts") -> Driver:
    core = BotCore(
        CoreSettings(name="person", version="1", seed=3, chooser="person", strategy=strategy)
    )
    d = Driver(core=core)
    d.join(Variant.of(move_time_limit=60))
    return d


def _orders(*texts: str) -> tuple:
    return tuple(parse_order(t) for t in texts)


PAR_BUR = "(FRA AMY PAR) MTO BUR"
MAR_S = "(FRA AMY MAR) SUP (FRA AMY PAR) MTO BUR"


def test_a_persons_movement_phase_waits_for_the_person() -> None:
    d = _person()
    out = d.show(SPRING)
    assert sent(out) == [Not(Gof())]
    assert not of(out, StartSearch)
    out = d.later(61).tick()
    assert not sent(out)  # the deadline passes: nothing is sent for the person


def test_the_persons_orders_are_checked_and_submitted_as_one_sub() -> None:
    d = _person()
    d.show(SPRING)
    out = d.feed(ev.PersonOrders(d.now, SPRING.turn, _orders(PAR_BUR, MAR_S)))
    (sub,) = sent(out, Sub)
    assert sub.orders == _orders(PAR_BUR, MAR_S)
    assert d.core.phase is not None and d.core.phase.book.current == list(sub.orders)
    # A new set replaces it.
    out = d.feed(ev.PersonOrders(d.now, SPRING.turn, _orders("(FRA AMY PAR) HLD")))
    assert sent(out, Sub)[0].orders == _orders("(FRA AMY PAR) HLD")


@pytest.mark.parametrize(
    ("orders", "reason"),
    [
        (("(FRA AMY PAR) MTO MUN",), "not a legal order"),
        (("(GER AMY MUN) MTO BUR",), "not an order for FRA"),
        (("(FRA AMY PAR) HLD", "(FRA AMY PAR) MTO BUR"), "two orders for PAR"),
        (("(FRA AMY GAS) HLD",), "nothing to order at GAS"),
        (("(FRA AMY PAR) RTO BUR",), "not a legal order"),
        (("FRA WVE",), "nothing to order"),
    ],
)
def test_bad_sets_are_refused_and_nothing_is_sent(orders: tuple[str, ...], reason: str) -> None:
    d = _person()
    d.show(SPRING)
    out = d.feed(ev.PersonOrders(d.now, SPRING.turn, _orders(*orders)))
    assert not sent(out)
    (refused,) = noted(out, notes.PersonOrdersRefused)
    assert reason in refused.reason
    assert refused.turn == SPRING.turn


def test_orders_for_a_phase_that_has_ended_are_refused() -> None:
    d = _person()
    d.show(SPRING)
    fall = next_position(SPRING, {})
    d.show(fall)
    out = d.feed(ev.PersonOrders(d.now, SPRING.turn, _orders(PAR_BUR)))
    assert not sent(out)
    (refused,) = noted(out, notes.PersonOrdersRefused)
    assert "FAL 1901" in refused.reason


def test_ready_is_gof_and_not_ready_is_not_gof() -> None:
    d = _person()
    d.show(SPRING)
    assert sent(d.feed(ev.PersonReady(d.now, SPRING.turn, True))) == [Gof()]
    assert sent(d.feed(ev.PersonReady(d.now, SPRING.turn, False))) == [Not(Gof())]


def test_mis_and_refusals_are_shown_not_answered_for_a_person() -> None:
    d = _person()
    d.show(SPRING)
    d.feed(ev.PersonOrders(d.now, SPRING.turn, _orders(PAR_BUR)))
    units = tuple(UnitPosition(o.unit) for o in _orders("(FRA FLT BRE) HLD", "(FRA AMY MAR) HLD"))
    out = d.say(Mis(units))
    assert not sent(out)
    (listed,) = noted(out, notes.MissingListed)
    assert listed.units == ("FRA FLT BRE", "FRA AMY MAR")  # DAIDE text, brackets left out
    par_bur = _orders(PAR_BUR)[0]
    out = d.say(Thx(par_bur, "FAR"))
    assert not sent(out)  # no hold put in its place: the person decides
    assert noted(out, notes.OrderRefused) == [notes.OrderRefused(par_bur, "FAR")]
    out = d.say(Thx(par_bur, "FAR"))
    assert not sent(out)
    assert not noted(out, notes.OrderRefused)  # the same refusal again: shown once
    out = d.say(Thx(_orders(MAR_S)[0], "MBV"))
    (ignored,) = noted(out, notes.MessageIgnored)  # never sent: ignored, not shown accepted
    assert "did not send" in ignored.reason
    assert not noted(out, notes.OrderAccepted)


def test_an_order_the_server_accepts_is_shown_accepted() -> None:
    d = _person()
    d.show(SPRING)
    d.feed(ev.PersonOrders(d.now, SPRING.turn, _orders(PAR_BUR, MAR_S)))
    mar_s = _orders(MAR_S)[0]
    out = d.say(Thx(mar_s, "MBV"))
    assert not sent(out)
    assert noted(out, notes.OrderAccepted) == [notes.OrderAccepted(mar_s)]
    assert not noted(out, notes.OrderRefused) and not noted(out, notes.MessageIgnored)


def test_a_hint_searches_for_the_persons_power_and_submits_nothing() -> None:
    d = _person()
    d.show(SPRING)
    out = d.feed(ev.HintRequested(d.now, SPRING.turn, 3.0))
    job = job_of(out)
    assert job.limit.stop_at == pytest.approx(d.now + 3.0)
    assert job.power == d.core.power_id
    holds = {p: HOLD_ORDER for p, u in SPRING.units.items() if u[0] == d.core.power_id}
    holds[next(p for p, u in SPRING.units.items() if u[0] == d.core.power_id)] = (MOVE, 0)
    out = d.later(3).answer(job.job_id, {p: HOLD_ORDER for p in list(holds)})
    assert not sent(out)
    (hint,) = noted(out, notes.HintReady)
    assert len(hint.orders) == 3 and all(o.endswith(") HLD") for o in hint.orders)


def test_a_new_phase_cancels_a_running_hint() -> None:
    d = _person()
    d.show(SPRING)
    job = job_of(d.feed(ev.HintRequested(d.now, SPRING.turn, 5.0)))
    out = d.show(next_position(SPRING, {}))
    assert [c.job_id for c in of(out, CancelSearch)] == [job.job_id]


def test_a_draw_proposal_sends_drw() -> None:
    d = _person()
    d.show(SPRING)
    assert sent(d.feed(ev.PersonDraw(d.now))) == [Drw()]


def test_a_rejoin_resends_the_persons_orders_without_gof() -> None:
    d = _person()
    d.show(SPRING)
    d.feed(ev.PersonOrders(d.now, SPRING.turn, _orders(PAR_BUR)))
    d.lose()
    d.open()
    from protocol.messages import Iam, Yes

    d.say(Yes(Iam("FRA", 4242)))
    out = d.show(SPRING)
    assert sent(out) == [Sub(_orders(PAR_BUR)), Not(Gof())]


def test_a_dumbbot_seat_answers_at_once_without_a_search() -> None:
    core = BotCore(CoreSettings(name="db", version="1", seed=5, strategy="dumbbot"))
    d = Driver(core=core)
    d.join()
    out = d.show(SPRING)
    subs = sent(out, Sub)
    assert len(subs) == 1 and len(subs[0].orders) == 3
    assert isinstance(sent(out)[-1], Gof)
    assert not of(out, StartSearch)
    assert not core.player.chooser.needs_worker


def test_legal_choices_of_the_opening() -> None:
    choices = legal_choices(SPRING, "FRA")
    assert sorted(choices) == ["BRE", "MAR", "PAR"]
    par = set(choices["PAR"])
    assert set(_orders("(FRA AMY PAR) HLD", PAR_BUR, "(FRA AMY PAR) MTO GAS")) <= par
    assert _orders("(FRA AMY PAR) SUP (FRA AMY MAR) MTO BUR")[0] in par
    assert all(o.unit == _orders("(FRA FLT BRE) HLD")[0].unit for o in choices["BRE"])


def _winter_with_builds():
    """France takes Spain and Portugal by autumn 1901: two builds due."""
    from adjudicator.movement import next_position as after
    from adjudicator.position import PhaseKind

    m = SPRING.map
    par, mar = m.province_index["PAR"], m.province_index["MAR"]
    spring = after(
        SPRING, {par: (MOVE, m.province_index["GAS"]), mar: (MOVE, m.province_index["SPA"])}
    )
    gas, spa = m.province_index["GAS"], m.province_index["SPA"]
    fall = after(spring, {gas: (MOVE, m.province_index["BRE"])})
    fall_moves = {spa: (MOVE, m.province_index["POR"])}
    winter = after(fall, fall_moves)
    while winter.kind != PhaseKind.ADJUSTMENT:
        winter = after(winter, {})
    return winter


def test_winter_builds_and_their_limits() -> None:
    winter = _winter_with_builds()
    due = winter.adjustments()[winter.map.power_index["FRA"]]
    assert due == 2
    choices = legal_choices(winter, "FRA")
    assert "WVE" in choices
    builds = [o for key, group in choices.items() if key != "WVE" for o in group]
    assert builds and all(type(o).__name__ == "Build" for o in builds)
    waive = choices["WVE"][0]
    check_person_orders(winter, "FRA", (builds[0], waive))
    with pytest.raises(PersonOrderError, match="builds and waives"):
        check_person_orders(winter, "FRA", (builds[0], waive, waive))


def test_unknown_powers_and_duplicates_are_refused() -> None:
    with pytest.raises(PersonOrderError):
        check_person_orders(SPRING, "XXX", ())
    hold = Hold(_orders(PAR_BUR)[0].unit)
    with pytest.raises(PersonOrderError, match="two orders"):
        check_person_orders(SPRING, "FRA", (hold, hold))


def _bot(strategy: str = "mcts") -> Driver:
    core = BotCore(CoreSettings(name="bot", version="1", seed=3, strategy=strategy))
    d = Driver(core=core)
    d.join(Variant.of(move_time_limit=60))
    return d


@pytest.mark.parametrize("strategy", ["mcts", "dumbbot"])
def test_a_bots_seat_refuses_a_persons_orders_and_readiness(strategy: str) -> None:
    d = _bot(strategy)
    d.show(SPRING)
    for event in (
        ev.PersonOrders(d.now, SPRING.turn, _orders(PAR_BUR)),
        ev.PersonReady(d.now, SPRING.turn, True),
    ):
        out = d.feed(event)
        assert not sent(out)
        (refused,) = noted(out, notes.PersonOrdersRefused)
        assert refused.reason == "this seat is not a person's"


def test_a_hint_outside_movement_is_the_bots_own_set_at_once() -> None:
    """A winter hint is what a bot's seat submits there: one piece of code chooses both."""
    winter = _winter_with_builds()
    bot = _bot()
    (sub,) = sent(bot.show(winter), Sub)
    d = _person()
    d.show(winter)
    out = d.feed(ev.HintRequested(d.now, winter.turn, 3.0))
    assert not sent(out) and not of(out, StartSearch)
    (hint,) = noted(out, notes.HintReady)
    assert hint.orders == tuple(map(format_order, sub.orders))
    assert len(hint.orders) == 2


@pytest.mark.parametrize("how", ["failed", "unavailable"])
def test_a_hint_that_fails_is_noted_and_nothing_is_sent(how: str) -> None:
    from search.mcts.worker_protocol import Failed

    d = _person()
    d.show(SPRING)
    job = job_of(d.feed(ev.HintRequested(d.now, SPRING.turn, 3.0))).job_id
    if how == "failed":
        out = d.feed(ev.SearchMessage(d.now, Failed(job, "boom")))
    else:
        out = d.feed(ev.SearchUnavailable(d.now, job, "no worker"))
    assert not sent(out)
    (failed,) = noted(out, notes.HintFailed)
    assert failed.error in ("boom", "no worker")
    # The job is over: its late answer is stale, not a second hint.
    assert not noted(d.answer(job, {}), notes.HintReady)


# --- the person's choices: one list, built once, the page's and the core's -------------------


def _convoy_spring():
    """England has a fleet in the North Sea and one in the English Channel: two routes to NWY."""
    from adjudicator.position import Position
    from protocol.notation import parse_centres, parse_turn, parse_unit_positions

    return Position.from_values(
        SPRING.map,
        parse_turn("SPR 1901"),
        parse_unit_positions("(ENG FLT NTH) (ENG FLT NWG) (ENG AMY YOR) (FRA AMY PAR)"),
        parse_centres("(ENG EDI LON LVP) (FRA BRE MAR PAR)"),
    )


CONVOYS = [
    # (the move by convoy, the core's check lets it through, the page's menu resolves it to)
    ("(ENG AMY YOR) CTO NWY", True, "(ENG AMY YOR) CTO NWY VIA (NTH)"),
    ("(ENG AMY YOR) CTO NWY VIA (NTH)", True, "(ENG AMY YOR) CTO NWY VIA (NTH)"),
    ("(ENG AMY YOR) CTO NWY VIA (NTH NWG)", True, None),  # a real route, not the page's
    ("(ENG AMY YOR) CTO NWY VIA (NWG)", False, None),
    ("(ENG AMY YOR) CTO SWE", False, None),
]


@pytest.mark.parametrize(("text", "checked", "resolved"), CONVOYS)
def test_a_move_by_convoy_is_listed_with_its_shortest_route(
    text: str, checked: bool, resolved: str | None
) -> None:
    pos = _convoy_spring()
    choices = legal_choices(pos, "ENG")
    order = parse_order(text)
    if checked:
        check_person_orders(pos, "ENG", [order])
    else:
        with pytest.raises(PersonOrderError, match="not a legal order"):
            check_person_orders(pos, "ENG", [order])
    if resolved is None:
        with pytest.raises(PersonOrderError, match="not legal here"):
            choices.resolve(order)
    else:
        assert choices.resolve(order) == parse_order(resolved)
        assert choices.accept([order]) == [parse_order(resolved)]


def test_the_choices_are_built_once_for_the_page_and_the_core() -> None:
    legal_choices.cache_clear()
    pos = next_position(SPRING, {})
    choices = legal_choices(pos, "FRA")
    assert (choices.kind, choices.due, choices.power) == ("movement", 0, "FRA")
    sent = choices.accept(_orders(PAR_BUR, MAR_S))
    check_person_orders(pos, "FRA", sent)  # what the core checks again on the event
    assert legal_choices(pos, "FRA") is choices
    assert legal_choices.cache_info().misses == 1


def test_the_phase_in_play_as_the_seat_sees_it() -> None:
    d = _person()
    assert d.core.phase_in_play() is None
    d.show(SPRING)
    phase = d.core.phase_in_play()
    assert phase is not None
    assert (phase.turn, phase.position.key(), phase.power) == (SPRING.turn, SPRING.key(), "FRA")
    assert phase.seconds_left(d.now + 15) == pytest.approx(45.0)
    assert sorted(phase.choices()) == ["BRE", "MAR", "PAR"]


WINTER_SCO = "SCO ( FRA BRE MAR PAR ) ( GER BER KIE MUN )"
ONE_BUILD = load_position("NOW ( WIN 1901 ) ( FRA AMY BUR ) ( FRA FLT MAO )", WINTER_SCO)
BUILDS_DUE = "builds and waives where 1 are due"
ONE_REMOVAL = load_position(
    "NOW ( WIN 1901 ) ( FRA AMY BUR ) ( FRA FLT MAO ) ( FRA AMY PIC ) ( FRA AMY GAS )", WINTER_SCO
)


@pytest.mark.parametrize(
    ("position", "orders", "reason"),
    [
        (ONE_BUILD, ("(FRA AMY PAR) BLD", "(FRA FLT BRE) BLD"), f"2 {BUILDS_DUE}"),
        (ONE_BUILD, ("(FRA AMY PAR) BLD", "FRA WVE"), f"2 {BUILDS_DUE}"),
        (ONE_REMOVAL, ("(FRA AMY BUR) REM", "(FRA AMY PIC) REM"), "2 removals where 1 are due"),
    ],
)  # fmt: skip
def test_a_winter_set_beyond_what_is_due_is_refused(
    position: object, orders: tuple[str, ...], reason: str
) -> None:
    with pytest.raises(PersonOrderError) as refused:
        check_person_orders(position, "FRA", _orders(*orders))  # type: ignore[arg-type]
    assert str(refused.value) == reason


def test_a_winter_set_of_exactly_what_is_due_is_accepted() -> None:
    check_person_orders(ONE_BUILD, "FRA", _orders("(FRA FLT BRE) BLD"))
    check_person_orders(ONE_REMOVAL, "FRA", _orders("(FRA AMY PIC) REM"))


def test_orders_for_a_power_not_in_the_game_are_refused_with_its_name() -> None:
    with pytest.raises(PersonOrderError, match=r"^XYZ is not a power of this game$"):
        check_person_orders(SPRING, "XYZ", ())


def test_a_convoy_route_through_a_province_not_on_the_map_is_refused() -> None:
    pos = load_position("NOW ( SPR 1901 ) ( ENG AMY LON ) ( ENG FLT NTH )", WINTER_SCO)
    army = Unit("ENG", UnitType.ARMY, Location("LON"))
    check_person_orders(pos, "ENG", (MoveByConvoy(army, "NWY", ("NTH",)),))
    with pytest.raises(PersonOrderError, match="is not a legal order"):
        check_person_orders(pos, "ENG", (MoveByConvoy(army, "NWY", ("XYZ",)),))


def test_an_empty_set_sends_nothing() -> None:
    d = _person()
    d.show(SPRING)
    out = d.feed(ev.PersonOrders(d.now, SPRING.turn, ()))
    assert not sent(out)
    assert not noted(out, notes.PersonOrdersRefused)


def test_a_persons_retreat_phase_sends_nothing_at_its_start() -> None:
    """No NOT (GOF) outside movement: on MILA it would leak into the next phase."""
    d = _person()
    retreat = load_position(
        "NOW ( SUM 1901 ) ( FRA AMY BUR ) ( GER AMY MUN ) ( FRA AMY PAR MRT ( GAS PIC ) )",
        WINTER_SCO,
    )
    assert sent(d.show(retreat)) == []


def test_a_listed_move_by_convoy_carries_the_shortest_route() -> None:
    pos = load_position(
        "NOW ( SPR 1901 ) ( ENG AMY LON ) ( ENG FLT NTH ) ( ENG FLT NWG ) ( ENG FLT ECH ) "
        "( ENG FLT MAO ) ( ENG FLT NAO )",
        WINTER_SCO,
    )
    to_clyde = [
        o
        for o in legal_choices(pos, "ENG")["LON"]
        if isinstance(o, MoveByConvoy) and o.destination == "CLY"
    ]
    assert [o.path for o in to_clyde] == [("NTH", "NWG")]  # not round by the Channel (3 fleets)
