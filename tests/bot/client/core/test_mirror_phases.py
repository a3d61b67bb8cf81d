"""The mirror's shadow check across the servers' ways: phases skipped or kept, units dropped,
the civil-disorder rule, the end of the game, and our engine's own failure."""

from __future__ import annotations

from dataclasses import replace

import pytest

from adjudicator.daide import adjudicate_phase, load_position
from adjudicator.maps import standard_map
from adjudicator.position import Position
from adjudicator.rule_errors import AdjudicatorError
from adjudicator.rules import CivilDisorderRule
from protocol.values import OrderResult, Season, Turn
from tests.bot.client.core.test_mirror_shadow import (
    SPRING,
    TWO_BUILDS,
    counts,
    mirror_at,
    o,
    step,
)

SCO = "SCO ( FRA BRE MAR PAR ) ( GER BER KIE MUN ) ( AUS BUD TRI VIE )"
SWAP = load_position("NOW ( SPR 1901 ) ( FRA AMY PAR ) ( GER AMY BUR ) ( GER AMY PIC )", SCO)
"""Germany takes Paris with support: France's army is dislodged, free to retreat."""
SWAP_ORDERS = [
    o("( FRA AMY PAR ) MTO BUR"),
    o("( GER AMY BUR ) MTO PAR"),
    o("( GER AMY PIC ) SUP ( GER AMY BUR ) MTO PAR"),
]
BOXED = (
    "( RUS AMY GAL ) ( RUS AMY BUD ) ( RUS AMY TRI ) ( RUS AMY BOH ) ( RUS AMY TYR ) "
    "( AUS AMY VIE )"
)
BOXED_ORDERS = [o("( RUS AMY GAL ) MTO VIE"), o("( RUS AMY BUD ) SUP ( RUS AMY GAL ) MTO VIE")]
"""Russia takes Vienna: Austria's army there is dislodged with nowhere to go."""
HOPELESS_SPRING = load_position(f"NOW ( SPR 1901 ) {BOXED}", SCO)
BOTH = load_position(
    f"NOW ( SPR 1901 ) ( FRA AMY PAR ) ( GER AMY BUR ) ( GER AMY PIC ) {BOXED}", SCO
)


@pytest.mark.parametrize("ended", [False, True], ids=["playing", "ended"])
def test_a_kept_retreat_phase_where_no_unit_can_retreat_agrees(ended: bool) -> None:
    """Parlance plays the retreat phase of a unit with nowhere to go: its NOW names it
    (also when it ends the game there)."""
    mirror = mirror_at(HOPELESS_SPRING)
    if ended:
        mirror.on_game_end()
    out = adjudicate_phase(HOPELESS_SPRING, BOXED_ORDERS)
    assert out.turn == Turn(Season.SUMMER, 1901)
    report = step(mirror, out.results, out)
    assert report is not None and report.ok, report
    assert counts(mirror) == (1, 0, 0)


def test_a_skipped_retreat_phase_where_no_unit_can_retreat_agrees() -> None:
    """MILA skips it: its NOW names the next movement, the unit gone."""
    mirror = mirror_at(HOPELESS_SPRING)
    out = adjudicate_phase(HOPELESS_SPRING, BOXED_ORDERS)
    skipped = adjudicate_phase(out.position, [])
    assert skipped.turn == Turn(Season.FALL, 1901)
    report = step(mirror, out.results, skipped)
    assert report is not None and report.ok, report


def test_a_unit_with_nowhere_to_go_dropped_beside_one_that_retreats_agrees() -> None:
    """MILA drops the hopeless unit at once; the retreat phase goes on for the other."""
    mirror = mirror_at(BOTH)
    out = adjudicate_phase(BOTH, SWAP_ORDERS + BOXED_ORDERS)
    assert len(out.position.dislodged) == 2
    dropped = tuple(u for u in out.units if u.retreats != ())
    report = step(mirror, out.results, replace(out, units=dropped))
    assert report is not None and report.ok, report


def test_other_retreats_are_named() -> None:
    mirror = mirror_at(SWAP)
    out = adjudicate_phase(SWAP, SWAP_ORDERS)
    narrower = tuple(
        u if u.retreats is None else replace(u, retreats=u.retreats[:1]) for u in out.units
    )
    report = step(mirror, out.results, replace(out, units=narrower))
    assert report is not None
    assert report.differences == ("dislodged units or their retreats differ",)
    assert "(FRA AMY PAR MRT ['BRE', 'GAS'])" in report.predicted
    assert "(FRA AMY PAR MRT ['BRE'])" in report.actual


def test_results_of_several_tokens_are_named_in_full() -> None:
    mirror = mirror_at(SWAP)
    out = adjudicate_phase(SWAP, SWAP_ORDERS)
    told = {SWAP_ORDERS[0]: ("SUC",), SWAP_ORDERS[1]: ("BNC", "RET")}
    results = [replace(r, result=told.get(r.order, r.result)) for r in out.results]
    report = step(mirror, results, out)
    assert report is not None
    assert report.differences == (
        f"{SWAP_ORDERS[0]}: server SUC, ours BNC RET",
        f"{SWAP_ORDERS[1]}: server BNC RET, ours SUC",
    )


def test_a_game_the_server_ends_in_a_winter_without_adjustments_agrees() -> None:
    """Parlance stops the game in a winter it would have skipped; its last NOW names it."""
    autumn = Position.from_values(
        standard_map(), Turn(Season.FALL, 1901), SPRING.unit_positions(), SPRING.centres()
    )
    mirror = mirror_at(autumn)
    out = adjudicate_phase(autumn, [])
    winter = Turn(Season.WINTER, 1901)
    mirror.on_game_end()
    report = step(mirror, out.results, replace(out, turn=winter))
    assert report is not None and report.ok, report


def test_civil_disorder_is_predicted_by_the_servers_rule() -> None:
    """Italy owes two removals and orders the same one twice: the rule picks the other."""
    italy = load_position(
        "NOW ( WIN 1901 ) ( ITA FLT MAR ) ( ITA AMY BUR ) ( ITA AMY VEN ) ( ITA AMY ROM ) "
        "( ITA AMY NAP )",
        "SCO ( ITA NAP ROM VEN )",
    )
    twice = [o("( ITA AMY VEN ) REM")] * 2
    datc = adjudicate_phase(italy, twice, CivilDisorderRule.DATC)
    lines = [
        OrderResult(italy.turn, twice[0], ("SUC",)),
        OrderResult(italy.turn, twice[1], ("FLD",)),
    ]
    mirror = mirror_at(italy)
    mirror.rule = CivilDisorderRule.DATC
    report = step(mirror, lines, datc)  # MILA's removal: the fleet, 3 steps home by sea
    assert report is not None
    assert report.predicted == report.actual
    assert "units differ" not in report.differences


def test_a_waive_our_engine_has_no_result_for_is_named() -> None:
    """France waives a third build it does not have; Germany's own waive is no answer to it."""
    lines = [
        o("( FRA AMY PAR ) BLD"),
        o("( FRA FLT BRE ) BLD"),
        o("FRA WVE"),
        o("( GER AMY BER ) BLD"),
        o("GER WVE"),
    ]
    out = adjudicate_phase(TWO_BUILDS, lines)
    mirror = mirror_at(TWO_BUILDS)
    report = step(mirror, [OrderResult(TWO_BUILDS.turn, x, ("SUC",)) for x in lines], out)
    assert report is not None
    assert report.differences == (
        f"we would refuse {lines[2]} (NMB)",
        f"no result of ours for {lines[2]}",
    )


def test_each_mismatch_is_counted() -> None:
    mirror = mirror_at(SPRING)
    out = adjudicate_phase(SPRING, [])
    told = [replace(r, result=("BNC",)) for r in out.results]
    assert step(mirror, told, out) is not None
    following = adjudicate_phase(out.position, [])
    told = [replace(r, result=("BNC",)) for r in following.results]
    assert step(mirror, told, following) is not None
    assert counts(mirror) == (2, 2, 0)


def test_a_phase_our_engine_refuses_is_reported_and_counted(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    mirror = mirror_at(SPRING)
    out = adjudicate_phase(SPRING, [])
    told = [replace(r, result=("BNC",)) for r in out.results]
    assert step(mirror, told, out) is not None  # one mismatch before
    following = adjudicate_phase(out.position, [])

    def refuse(*args: object) -> None:
        raise AdjudicatorError("no such phase")

    monkeypatch.setattr("bot.client.core.mirror.adjudicate_phase", refuse)
    report = step(mirror, following.results, following)
    assert report is not None
    assert report.turn == out.turn
    assert report.differences == ("our engine refused the phase: no such phase",)
    assert (report.predicted, report.actual) == ("", "")
    assert counts(mirror) == (2, 2, 0)
    assert mirror.position is not None and mirror.position.turn == following.turn


def test_a_resync_step_replaced_with_its_lines_stays_unchecked() -> None:
    """After a reconnection its lines are not trusted, even when a NOW replaces the step."""
    mirror = mirror_at(SPRING)
    mirror.mark_resync()
    out = adjudicate_phase(SPRING, [])
    for r in out.results:
        assert mirror.on_ord(r) is None
    mirror.on_sco(out.centres)
    assert mirror.on_now(out.turn, out.units[1:]) is None
    assert mirror.on_now(out.turn, out.units) is None
    assert counts(mirror) == (0, 0, 0)


def test_a_retreat_phase_reported_shows_each_units_retreats() -> None:
    mirror = mirror_at(SWAP)
    out = adjudicate_phase(SWAP, SWAP_ORDERS)
    report = step(mirror, out.results, out)
    assert report is not None and report.ok, report
    assert report.actual.startswith("SUM 1901: ")
    assert "(FRA AMY PAR MRT ['BRE', 'GAS'])" in report.actual
