"""The seat's record of the end: the same result table as ``daide-mcts game``'s."""

from __future__ import annotations

from bot.human.desk import SeatDesk, result_rows
from protocol.messages import Slo, Smr, parse_text

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
