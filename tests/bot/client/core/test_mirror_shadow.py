"""The mirror's shadow check, difference by difference, and a NOW that replaces the last one."""

from __future__ import annotations

from dataclasses import replace

from adjudicator.daide import PhaseOutcome, adjudicate_phase, load_position
from adjudicator.maps import standard_map
from adjudicator.position import Position, initial_position
from adjudicator.standard import standard_definition
from bot.client.core.mirror import GameMirror, ShadowReport
from protocol.notation import parse_order
from protocol.values import Location, Order, OrderResult, Season, Turn, order_power

BUR = Location("BUR")
SPRING = initial_position(standard_map())
RETREAT = load_position(
    "NOW ( SUM 1901 ) ( FRA AMY BUR ) ( FRA FLT BRE ) ( GER AMY MUN ) "
    "( FRA AMY PAR MRT ( GAS PIC ) )",
    "SCO ( FRA BRE MAR PAR ) ( GER BER KIE MUN )",
)
HOPELESS = load_position(
    "NOW ( SUM 1901 ) ( FRA AMY BUR ) ( GER AMY MUN ) ( FRA AMY PAR MRT ( ) )",
    "SCO ( FRA BRE MAR PAR ) ( GER BER KIE MUN )",
)
TWO_BUILDS = load_position(
    "NOW ( WIN 1901 ) ( FRA AMY BUR ) ( GER AMY MUN )",
    "SCO ( FRA BRE MAR PAR ) ( GER BER KIE MUN )",
)


def o(text: str) -> Order:
    return parse_order(text)


def mirror_at(pos: Position) -> GameMirror:
    mirror = GameMirror()
    mirror.on_map(standard_definition(), "standard")
    mirror.on_sco(pos.centres())
    assert mirror.on_now(pos.turn, pos.unit_positions()) is None
    return mirror


def step(
    mirror: GameMirror, results: tuple[OrderResult, ...] | list[OrderResult], out: PhaseOutcome
) -> ShadowReport | None:
    """The server's ORD lines, SCO and NOW for the phase just played."""
    for r in results:
        assert mirror.on_ord(r) is None, r
    mirror.on_sco(out.centres)
    return mirror.on_now(out.turn, out.units)


def counts(mirror: GameMirror) -> tuple[int, int, int]:
    return mirror.checked, mirror.mismatches, mirror.skipped


def test_a_phase_the_server_played_as_we_would_is_checked_and_agrees() -> None:
    mirror = mirror_at(SPRING)
    out = adjudicate_phase(SPRING, [o("( FRA AMY PAR ) MTO BUR"), o("( GER AMY MUN ) MTO BUR")])
    report = step(mirror, out.results, out)
    assert report is not None and report.ok
    assert report.turn == SPRING.turn
    assert report.predicted == report.actual
    assert report.actual.startswith("FAL 1901: (AUS AMY BUD) ")
    assert "(FRA AMY PAR)" in report.actual and " | (AUS BUD TRI VIE) " in report.actual
    assert counts(mirror) == (1, 0, 0)
    assert mirror.reported == SPRING.turn
    assert mirror.position is not None and mirror.position.units == out.position.units


def test_each_difference_is_named() -> None:
    mirror = mirror_at(SPRING)
    out = adjudicate_phase(SPRING, [o("( FRA AMY PAR ) MTO BUR"), o("( GER AMY MUN ) MTO BUR")])
    told = [
        r if r.order != o("( FRA AMY PAR ) MTO BUR") else replace(r, result=("SUC",))
        for r in out.results
    ]
    moved = [
        u if str(u.unit) != "(FRA AMY PAR)" else replace(u, unit=replace(u.unit, location=BUR))
        for u in out.units
    ]
    report = step(mirror, told, replace(out, units=tuple(moved)))
    assert report is not None
    assert report.differences == (
        f"{o('( FRA AMY PAR ) MTO BUR')}: server SUC, ours BNC",
        "units differ",
    )
    assert report.predicted != report.actual
    assert counts(mirror) == (1, 1, 0)


def test_an_order_our_engine_refuses_is_named() -> None:
    mirror = mirror_at(SPRING)
    out = adjudicate_phase(SPRING, [])
    bad = OrderResult(SPRING.turn, o("( FRA AMY PAR ) MTO MUN"), ("SUC",))
    results = [bad if str(r.order).find("'PAR'") > 0 else r for r in out.results]
    report = step(mirror, results, out)
    assert report is not None
    # Its line is still compared with the unit's result (it held, as ours did): no other difference.
    assert report.differences == (f"we would refuse {bad.order} (FAR)",)
    assert counts(mirror) == (1, 1, 0)


def test_a_retreat_phase_is_checked_when_every_dislodged_unit_has_its_line() -> None:
    mirror = mirror_at(RETREAT)
    out = adjudicate_phase(RETREAT, [o("( FRA AMY PAR ) RTO PIC")])
    assert mirror.on_ord(OrderResult(RETREAT.turn, o("( FRA AMY BUR ) HLD"), ("SUC",))) == (
        "ORD for (FRA AMY BUR), which is not on the board"
    )
    report = step(mirror, out.results, out)
    assert report is not None and report.ok, report
    assert counts(mirror) == (1, 0, 0)
    assert "(FRA AMY PIC)" in report.actual


def test_a_retreat_phase_without_the_dislodged_units_line_is_skipped() -> None:
    mirror = mirror_at(RETREAT)
    out = adjudicate_phase(RETREAT, [o("( FRA AMY PAR ) RTO PIC")])
    other = OrderResult(RETREAT.turn, o("FRA WVE"), ("SUC",))
    assert step(mirror, [other], out) is None
    assert counts(mirror) == (0, 0, 1)


def test_a_dislodged_unit_with_nowhere_to_go_may_be_dropped_at_once() -> None:
    mirror = mirror_at(HOPELESS)
    out = adjudicate_phase(HOPELESS, [o("( FRA AMY PAR ) DSB")])
    report = step(mirror, out.results, out)
    assert report is not None and report.ok, report


def test_a_winter_is_checked_when_each_power_has_a_line_per_adjustment() -> None:
    orders = [o("( FRA AMY PAR ) BLD"), o("( FRA FLT BRE ) BLD"), o("( GER AMY BER ) BLD")]
    full = adjudicate_phase(TWO_BUILDS, orders)
    assert len(full.results) == 4  # and GER's second build waived
    assert order_power(full.results[0].order) == "FRA"
    mirror = mirror_at(TWO_BUILDS)
    report = step(mirror, full.results, full)
    assert report is not None and report.ok, report
    assert counts(mirror) == (1, 0, 0)
    mirror = mirror_at(TWO_BUILDS)
    assert step(mirror, full.results[1:], full) is None  # one line of FRA's two
    assert counts(mirror) == (0, 0, 1)


def test_a_waive_line_is_taken() -> None:
    mirror = mirror_at(TWO_BUILDS)
    assert mirror.on_ord(OrderResult(TWO_BUILDS.turn, o("FRA WVE"), ("SUC",))) is None
    assert mirror.on_ord(OrderResult(TWO_BUILDS.turn, o("( FRA AMY PAR ) BLD"), ("SUC",))) is None
    assert len(mirror.pending) == 2


def test_after_a_resync_any_line_is_taken_and_the_phase_is_not_checked() -> None:
    mirror = mirror_at(SPRING)
    mirror.mark_resync()
    elsewhere = OrderResult(Turn(Season.FALL, 1905), o("( FRA AMY RUH ) HLD"), ("SUC",))
    assert mirror.on_ord(elsewhere) is None
    assert mirror.reported is None
    out = adjudicate_phase(SPRING, [])
    assert step(mirror, out.results, out) is None
    assert counts(mirror) == (0, 0, 0)
    assert not mirror.resync


def test_a_now_that_replaces_the_last_takes_back_its_check_and_checks_again() -> None:
    mirror = mirror_at(SPRING)
    out = adjudicate_phase(SPRING, [o("( FRA AMY PAR ) MTO BUR")])
    assert step(mirror, out.results, out) is not None
    assert counts(mirror) == (1, 0, 0)
    wrong = tuple(u for u in out.units if str(u.unit) != "(FRA AMY BUR)")
    report = mirror.on_now(out.turn, wrong)  # the same turn, another position
    assert report is not None and report.differences == ("units differ",)
    assert counts(mirror) == (1, 1, 0)
    assert mirror.position is not None and mirror.position.turn == out.turn
    report = mirror.on_now(out.turn, out.units)  # put right
    assert report is not None and report.ok
    assert counts(mirror) == (1, 0, 0)
    assert mirror.pending == []
    assert mirror.on_now(out.turn, out.units) is None  # the same again: nothing to do
    assert counts(mirror) == (1, 0, 0)


def test_a_skipped_phase_replaced_by_a_now_for_the_same_turn_is_counted_once() -> None:
    mirror = mirror_at(SPRING)
    out = adjudicate_phase(SPRING, [])
    assert step(mirror, out.results[:1], out) is None
    assert counts(mirror) == (0, 0, 1)
    wrong = out.units[1:]
    assert mirror.on_now(out.turn, wrong) is None
    assert counts(mirror) == (0, 0, 1)
    assert len(mirror.pending) == 0
    assert mirror.position is not None
    assert len(mirror.position.units) == len(out.units) - 1


def test_a_resync_step_replaced_stays_unchecked() -> None:
    mirror = mirror_at(SPRING)
    out = adjudicate_phase(SPRING, [])
    for r in out.results:
        mirror.on_ord(r)
    mirror.mark_resync()
    mirror.on_sco(out.centres)
    assert mirror.on_now(out.turn, out.units[1:]) is None
    assert mirror.on_now(out.turn, out.units) is None
    assert counts(mirror) == (0, 0, 0)
    assert not mirror.resync


def test_a_phase_our_engine_cannot_play_counts_as_a_mismatch() -> None:
    mirror = mirror_at(SPRING)
    out = adjudicate_phase(SPRING, [])
    twice = [*out.results, OrderResult(SPRING.turn, o("( FRA AMY PAR ) MTO BUR"), ("SUC",))]
    report = step(mirror, twice, out)
    assert report is not None and not report.ok
    assert counts(mirror) == (1, 1, 0)
    assert report.turn == SPRING.turn


def test_other_supply_centre_owners_are_named() -> None:
    mirror = mirror_at(SPRING)
    out = adjudicate_phase(SPRING, [])
    for r in out.results:
        mirror.on_ord(r)
    other = tuple(
        (p, c) if p != "FRA" else (p, tuple(x for x in c if x != "PAR")) for p, c in out.centres
    )
    mirror.on_sco(other)
    report = mirror.on_now(out.turn, out.units)
    assert report is not None
    assert report.differences == ("supply-centre owners differ",)
    assert counts(mirror) == (1, 1, 0)


def test_coarse_results_still_tell_a_success_from_a_failure() -> None:
    mirror = mirror_at(SPRING)
    mirror.coarse_results = True
    out = adjudicate_phase(SPRING, [o("( FRA AMY PAR ) MTO BUR"), o("( GER AMY MUN ) MTO BUR")])
    told = [
        replace(r, result=("SUC",)) if r.order == o("( FRA AMY PAR ) MTO BUR") else r
        for r in out.results
    ]
    report = step(mirror, told, out)
    assert report is not None
    assert report.differences == (f"{o('( FRA AMY PAR ) MTO BUR')}: server SUC, ours BNC",)


def test_coarse_results_let_supports_differ_but_not_a_moves_failure() -> None:
    """MILA reports a support as failed when the move it supports fails, and any failure as NSO."""
    mirror = mirror_at(SPRING)
    mirror.coarse_results = True
    move, support = o("( FRA AMY PAR ) MTO BUR"), o("( FRA AMY MAR ) SUP ( FRA AMY PAR ) MTO BUR")
    out = adjudicate_phase(SPRING, [move, support])
    told = [replace(r, result=("NSO",)) if r.order in (move, support) else r for r in out.results]
    report = step(mirror, told, out)
    assert report is not None
    assert report.differences == (f"{move}: server NSO, ours SUC",)
