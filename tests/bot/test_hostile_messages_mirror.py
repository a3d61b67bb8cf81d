"""The mirror's rules for what the server says: checked before stored, the latest NOW wins.

A SCO that does not fit the map is refused and the last good one kept; a NOW
is refused if the server has already reported its phase, if it replays one
left behind, or if it is more than a year ahead; a NOW for the current turn
with another position replaces it and the shadow check is done again.
"""

from __future__ import annotations

import pytest

from adjudicator.maps import standard_map
from adjudicator.movement import next_position
from adjudicator.position import initial_position
from adjudicator.rule_errors import PositionError
from adjudicator.standard import standard_definition
from bot.client.core.mirror import GameMirror
from protocol.values import Hold, OrderResult, Season, Turn

SPRING = initial_position(standard_map())
FALL = next_position(SPRING, {})  # everyone held


def _mirror() -> GameMirror:
    mirror = GameMirror()
    mirror.on_map(standard_definition(), "standard")
    mirror.on_sco(SPRING.centres())
    mirror.on_now(SPRING.turn, SPRING.unit_positions())
    return mirror


def _report_spring(mirror: GameMirror) -> None:
    for up in SPRING.unit_positions():
        assert mirror.on_ord(OrderResult(SPRING.turn, Hold(up.unit), ("SUC",))) is None


@pytest.mark.parametrize(
    ("centres", "error"),
    [
        ((("FRA", ("PAR", "PAR", "BRE", "MAR")), ("UNO", ("ANK",))), "PAR is listed twice"),
        ((("FRA", ("PAR",)), ("ENG", ("PAR",))), "PAR is listed twice"),
        ((("XYZ", ("PAR",)),), "unknown power XYZ"),
        ((("FRA", ("ZZZ",)),), "unknown province ZZZ"),
        ((("FRA", ("BUR",)),), "BUR is not a supply centre"),
    ],
)
def test_a_sco_that_does_not_fit_the_map_is_refused_and_the_last_good_one_kept(
    centres: tuple, error: str
) -> None:
    mirror = _mirror()
    with pytest.raises(PositionError, match=error):
        mirror.on_sco(centres)
    assert mirror.centres == SPRING.centres()
    mirror.on_now(FALL.turn, FALL.unit_positions())  # the next NOW is taken as ever
    assert mirror.position.key() == FALL.key()


def test_a_now_for_a_reported_phase_is_stale() -> None:
    mirror = _mirror()
    _report_spring(mirror)
    assert mirror.reported == SPRING.turn
    assert "reported the results of SPR 1901" in mirror.now_problem(
        SPRING.turn, SPRING.unit_positions()
    )
    assert mirror.now_problem(FALL.turn, FALL.unit_positions()) is None


def test_a_now_far_ahead_is_refused_and_changes_nothing() -> None:
    mirror = _mirror()
    assert "more than 1 year after SPR 1901" in mirror.now_problem(Turn(Season.SPRING, 8000), ())
    assert mirror.now_problem(Turn(Season.FALL, 1902), FALL.unit_positions()) is None
    mirror.mark_resync()  # after a rejoin the server may be anywhere
    assert mirror.now_problem(Turn(Season.SPRING, 8000), ()) is None


def test_a_forged_now_ahead_does_not_make_the_real_ones_stale() -> None:
    mirror = _mirror()
    forged = Turn(Season.FALL, 1902)
    assert mirror.now_problem(forged, FALL.unit_positions()) is None
    mirror.on_now(forged, FALL.unit_positions())
    # The server's real next phase is earlier than the forged one, and still taken.
    assert mirror.now_problem(FALL.turn, FALL.unit_positions()) is None
    mirror.on_now(FALL.turn, FALL.unit_positions())
    assert mirror.position.key() == FALL.key()


def test_a_replayed_now_left_behind_is_stale_even_without_results() -> None:
    mirror = _mirror()
    mirror.on_now(FALL.turn, FALL.unit_positions())  # no ORD lines (as MILA to an observer)
    assert "repeats one left behind" in mirror.now_problem(SPRING.turn, SPRING.unit_positions())
    other = tuple(u for u in SPRING.unit_positions() if u.unit.power != "FRA")
    assert mirror.now_problem(SPRING.turn, other) is None  # not a replay: a new phase


def test_a_restated_now_replaces_the_phase_and_the_shadow_check_is_done_again() -> None:
    mirror = _mirror()
    _report_spring(mirror)
    wrong = tuple(u for u in FALL.unit_positions() if u.unit.power != "FRA")
    report = mirror.on_now(FALL.turn, wrong)
    assert report is not None and not report.ok
    assert (mirror.checked, mirror.mismatches) == (1, 1)
    assert mirror.on_now(FALL.turn, wrong) is None  # the same again: nothing changes
    report = mirror.on_now(FALL.turn, FALL.unit_positions())  # the server puts it right
    assert report is not None and report.ok, report
    assert (mirror.checked, mirror.mismatches) == (1, 0)
    assert mirror.position.key() == FALL.key()
