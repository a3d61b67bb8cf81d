"""The seat's record of the end: the same result table as ``daide-mcts game``'s."""

from __future__ import annotations

from bot.human.desk import SeatDesk, result_rows
from protocol.messages import Slo, Smr, parse_text
from protocol.values import Season, Turn

SMR = (
    'SMR ( SPR 1906 ) ( AUS ( "a" ) ( "1" ) 0 1904 ) ( ENG ( "e" ) ( "1" ) 5 )'
    ' ( FRA ( "Alice" ) ( "1" ) 9 ) ( GER ( "g" ) ( "1" ) 6 ) ( ITA ( "i" ) ( "1" ) 0 1905 )'
    ' ( RUS ( "r" ) ( "1" ) 8 ) ( TUR ( "t" ) ( "1" ) 6 )'
)


def test_a_draw_scores_like_a_local_game() -> None:
    smr = parse_text(SMR)
    assert isinstance(smr, Smr)
    rows = result_rows(smr, None)
    assert [r.power for r in rows[:2]] == ["FRA", "RUS"]
    assert {r.points for r in rows if r.centres > 0} == {2.0}  # five survivors: 2 each
    assert [r.power for r in rows[-2:]] == ["ITA", "AUS"]  # eliminated later ranks higher
    assert rows[0].rank == 1.0 and not any(r.solo for r in rows)


def test_a_solo_takes_every_point() -> None:
    desk = SeatDesk()
    desk.heard(Slo("FRA"), "SLO ( FRA )")
    desk.heard(parse_text(SMR), SMR)
    by_power = {r.power: r for r in desk.summary}
    assert by_power["FRA"].solo and by_power["FRA"].points == 12.0
    assert sum(r.points for r in desk.summary) == 12.0


SPRING = Turn(Season.SPRING, 1901)
FALL = Turn(Season.FALL, 1901)


def test_a_phase_shows_only_what_was_recorded_for_it() -> None:
    desk = SeatDesk()
    desk.draft(SPRING, ["A PAR - BUR"])
    desk.lacking(SPRING, "MIS ( ( FRA AMY PAR ) )")
    desk.refused(SPRING, "no unit in MAR")
    desk.answered(SPRING, "A PAR - BUR", "MBV")
    desk.set_ready(SPRING, True)
    desk.offered_draw(SPRING)
    desk.hinted(SPRING, ["A PAR H"])
    view = desk.phase_view(SPRING)
    assert view.draft == ["A PAR - BUR"] and view.submitted is None
    assert view.answers == {"A PAR - BUR": "MBV"}
    assert (view.missing, view.refused) == ("MIS ( ( FRA AMY PAR ) )", "no unit in MAR")
    assert view.ready and view.draw
    assert view.hint is not None and view.hint.orders == ["A PAR H"]
    other = desk.phase_view(FALL)
    assert (other.draft, other.answers, other.submitted) == ([], {}, None)
    assert (other.missing, other.refused, other.hint) == (None, None, None)
    assert not other.ready and not other.draw


def test_a_submission_forgets_the_phases_earlier_answers() -> None:
    desk = SeatDesk()
    desk.lacking(SPRING, "MIS")
    desk.refused(SPRING, "bad")
    desk.lacking(FALL, "MIS later")
    desk.submit(SPRING, ["A PAR H"])
    view = desk.phase_view(SPRING)
    assert (view.submitted, view.missing, view.refused) == (["A PAR H"], None, None)
    assert desk.phase_view(FALL).missing == "MIS later"


def test_a_hint_arrives_done_with_its_error() -> None:
    desk = SeatDesk()
    desk.asked_hint(SPRING)
    asked = desk.phase_view(SPRING).hint
    assert asked is not None and asked.pending
    desk.hinted(SPRING, None, error="no time")
    hint = desk.phase_view(SPRING).hint
    assert hint is not None and not hint.pending
    assert (hint.orders, hint.error) == ([], "no time")


def test_every_change_counts_one_version_and_wakes_the_listeners() -> None:
    desk = SeatDesk()
    woken: list[int] = []
    desk.listeners.append(lambda: woken.append(desk.version))
    desk.draft(SPRING, [])
    desk.set_ready(SPRING, False)
    desk.heard(parse_text(SMR), SMR)
    assert woken == [1, 2, 3] and desk.version == 3


def test_the_result_rows_say_who_was_eliminated() -> None:
    smr = parse_text(SMR)
    assert isinstance(smr, Smr)
    out = {r.power for r in result_rows(smr, None) if r.eliminated is not None}
    assert out == {"AUS", "ITA"}
