"""The mirror's checks on ORD lines and the multi-player shadow replay (bot.client.core.mirror)."""

from __future__ import annotations

from adjudicator.daide import adjudicate_phase
from adjudicator.maps import standard_map
from adjudicator.position import initial_position
from adjudicator.standard import standard_definition
from bot.client.core.mirror import GameMirror
from protocol.messages import Map, Mdf, Now, Ord, Sco, parse_text
from protocol.values import Hold, Location, OrderResult, Season, Turn, Unit, UnitType
from tests.bot.client.core.replay import replay_shadow


def _mirror() -> GameMirror:
    mirror = GameMirror()
    mirror.on_map(standard_definition(), "standard")
    pos = initial_position(standard_map())
    mirror.on_sco(pos.centres())
    mirror.on_now(pos.turn, pos.unit_positions())
    return mirror


def test_ord_lines_for_another_phase_or_a_missing_unit_are_refused() -> None:
    mirror = _mirror()
    turn = mirror.position.turn
    fleet_lon = Unit("ENG", UnitType.FLEET, Location("LON"))
    fleet_nth = Unit("ENG", UnitType.FLEET, Location("NTH"))
    assert mirror.on_ord(OrderResult(turn, Hold(fleet_lon), ("SUC",))) is None
    assert "not on the board" in mirror.on_ord(OrderResult(turn, Hold(fleet_nth), ("SUC",)))
    other = Turn(turn.season, turn.year - 1)
    assert "while the phase is" in mirror.on_ord(OrderResult(other, Hold(fleet_lon), ("SUC",)))
    assert len(mirror.pending) == 1


def _game_streams(fail_token: str) -> list[list[str]]:
    """Seven players' records of SPR 1901 (each sees only its own ORD lines, as on MILA)."""
    pos = initial_position(standard_map())
    orders = [
        parse_text("SUB ( ( FRA AMY PAR ) MTO BUR )").orders[0],
        parse_text("SUB ( ( GER AMY MUN ) MTO BUR )").orders[0],
    ]
    outcome = adjudicate_phase(pos, orders)
    head = [
        Map("standard").to_text(),
        Mdf(standard_definition()).to_text(),
        Sco(pos.centres()).to_text(),
        Now(pos.turn, pos.unit_positions()).to_text(),
    ]
    tail = [Sco(outcome.centres).to_text(), Now(outcome.turn, outcome.units).to_text()]
    streams = []
    for power in standard_map().powers:
        lines = [
            Ord(OrderResult(r.turn, r.order, (fail_token,) if r.result[0] == "BNC" else r.result))
            for r in outcome.results
            if r.order.unit.power == power
        ]
        streams.append(head + [line.to_text() for line in lines] + tail)
    return streams


def test_one_players_record_cannot_check_a_phase_but_all_of_them_can() -> None:
    streams = _game_streams("BNC")
    alone = replay_shadow(streams[:1])
    assert (alone.checked, alone.skipped) == (0, 1)
    together = replay_shadow(streams)
    assert (together.checked, together.mismatches) == (1, 0), together.reports


def test_coarse_results_accept_milas_nso_for_a_bounce() -> None:
    streams = _game_streams("NSO")  # MILA reports every failed order as NSO
    strict = replay_shadow(streams)
    assert strict.mismatches == 1 and "server NSO, ours BNC" in strict.reports[0].differences[0]
    coarse = replay_shadow(streams, coarse_results=True)
    assert (coarse.checked, coarse.mismatches) == (1, 0)


def _play_spring(mirror: GameMirror, orders: list[str], report_all: bool = True) -> None:
    """Feed ``mirror`` the results of SPR 1901 with ``orders`` (the rest hold), then the NOW."""
    pos = mirror.position
    given = [parse_text(f"SUB ( {o} )").orders[0] for o in orders]
    outcome = adjudicate_phase(pos, given)
    results = outcome.results if report_all else outcome.results[:1]
    for r in results:
        assert mirror.on_ord(r) is None
    mirror.on_sco(outcome.centres)
    mirror.on_now(outcome.turn, outcome.units)


def test_a_movement_phase_with_missing_results_is_not_checked() -> None:
    mirror = _mirror()
    _play_spring(mirror, ["( FRA AMY PAR ) MTO BUR"], report_all=False)
    assert (mirror.checked, mirror.skipped) == (0, 1)


def _fall_1901_stopped_in_winter(mirror: GameMirror, game_ended: bool) -> object:
    """Every unit holds in 1901; the server then names WIN 1901, which has nothing to decide."""
    _play_spring(mirror, [])
    pos = mirror.position
    outcome = adjudicate_phase(pos, [])
    assert outcome.turn == Turn(Season.SPRING, 1902)  # our engine skips the empty winter
    for r in outcome.results:
        assert mirror.on_ord(r) is None
    mirror.on_sco(outcome.centres)
    if game_ended:
        mirror.on_game_end()
    return mirror.on_now(Turn(Season.WINTER, 1901), outcome.units)


def test_a_game_that_ends_may_stop_in_a_winter_it_would_have_skipped() -> None:
    mirror = _mirror()
    report = _fall_1901_stopped_in_winter(mirror, game_ended=True)
    assert report is not None and report.ok, report
    assert (mirror.checked, mirror.mismatches) == (2, 0)


def test_a_game_that_goes_on_may_not_stop_in_an_empty_winter() -> None:
    mirror = _mirror()
    report = _fall_1901_stopped_in_winter(mirror, game_ended=False)
    assert report is not None
    assert report.differences == ("next phase: server WIN 1901, ours SPR 1902",)
    assert mirror.mismatches == 1


def test_a_replay_knows_the_game_ended_from_its_drw() -> None:
    pos = initial_position(standard_map())
    spring = adjudicate_phase(pos, [])
    fall = adjudicate_phase(spring.position, [])
    stream = [
        Map("standard").to_text(),
        Mdf(standard_definition()).to_text(),
        Sco(pos.centres()).to_text(),
        Now(pos.turn, pos.unit_positions()).to_text(),
        *(Ord(r).to_text() for r in spring.results),
        Sco(spring.centres).to_text(),
        Now(spring.turn, spring.units).to_text(),
        *(Ord(r).to_text() for r in fall.results),
        Sco(fall.centres).to_text(),
    ]
    last = Now(Turn(Season.WINTER, 1901), fall.units).to_text()
    going_on = replay_shadow([[*stream, last]])
    assert (going_on.checked, going_on.mismatches) == (2, 1)
    ended = replay_shadow([[*stream, "DRW", last]])
    assert (ended.checked, ended.mismatches) == (2, 0), ended.reports
