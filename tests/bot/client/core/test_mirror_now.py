"""The mirror's MAP, SCO and NOW: which NOW can be the current phase, and what taking one does
(bot.client.core.mirror)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from adjudicator.daide import adjudicate_phase
from adjudicator.rule_errors import PositionError
from adjudicator.standard import standard_definition
from bot.client.core.mirror import GameMirror
from protocol.values import Hold, OrderResult, Season, Turn
from tests.bot.client.core.test_mirror_shadow import SPRING, counts, mirror_at, step

FALL_OUT = adjudicate_phase(SPRING, [])
FALL = FALL_OUT.position
"""Everyone held in spring 1901."""
NOT_FRANCE = tuple(u for u in SPRING.unit_positions() if u.unit.power != "FRA")


def _report_spring(mirror: GameMirror) -> None:
    for up in SPRING.unit_positions():
        assert mirror.on_ord(OrderResult(SPRING.turn, Hold(up.unit), ("SUC",))) is None


def test_the_map_has_the_name_the_server_gave_it() -> None:
    mirror = GameMirror()
    game_map = mirror.on_map(standard_definition(), "classic")
    assert game_map.name == "classic"
    assert mirror.game_map is game_map


def test_a_sco_is_checked_against_the_map_once_there_is_one() -> None:
    mirror = GameMirror()
    wrong = (("FRA", ("BUR",)),)
    mirror.on_sco(wrong)  # nothing to check it against yet
    assert mirror.centres == wrong
    mirror.on_map(standard_definition(), "standard")
    mirror.on_sco(SPRING.centres())
    with pytest.raises(PositionError, match="BUR is not a supply centre"):
        mirror.on_sco(wrong)
    assert mirror.centres == SPRING.centres()


def test_a_now_before_the_centres_is_not_taken_and_drops_the_lines_before_it() -> None:
    mirror = GameMirror()
    mirror.on_map(standard_definition(), "standard")
    assert mirror.on_ord(FALL_OUT.results[0]) is None
    assert mirror.on_now(SPRING.turn, SPRING.unit_positions()) is None
    assert mirror.position is None and mirror.pending == []


def test_a_now_for_the_phase_the_server_reported_is_stale() -> None:
    mirror = mirror_at(SPRING)
    _report_spring(mirror)
    assert mirror.now_problem(SPRING.turn, SPRING.unit_positions()) == (
        "NOW for SPR 1901: the server has reported the results of SPR 1901"
    )
    assert mirror.now_problem(FALL.turn, FALL.unit_positions()) is None


def test_a_now_left_behind_is_stale_in_any_order_but_another_one_is_a_new_phase() -> None:
    mirror = mirror_at(SPRING)
    assert mirror.on_now(FALL.turn, FALL.unit_positions()) is None  # no ORD lines (an observer)
    replayed = tuple(reversed(SPRING.unit_positions()))
    assert mirror.now_problem(SPRING.turn, replayed) == (
        "NOW for SPR 1901 repeats one left behind (the phase is FAL 1901)"
    )
    assert mirror.now_problem(SPRING.turn, NOT_FRANCE) is None


def test_a_now_for_the_current_turn_is_taken_even_when_it_repeats_an_older_one() -> None:
    """The server's latest NOW for the phase we are in wins, whatever it was before."""
    mirror = mirror_at(SPRING)
    mirror.on_now(FALL.turn, FALL.unit_positions())  # a wrong NOW ahead...
    assert mirror.now_problem(SPRING.turn, NOT_FRANCE) is None
    mirror.on_now(SPRING.turn, NOT_FRANCE)  # ...put right, and again
    assert mirror.now_problem(SPRING.turn, SPRING.unit_positions()) is None
    mirror.on_now(SPRING.turn, SPRING.unit_positions())
    assert mirror.position is not None and mirror.position.key() == SPRING.key()


def test_a_now_a_year_ahead_is_taken_and_one_further_is_not() -> None:
    mirror = mirror_at(SPRING)
    assert mirror.now_problem(Turn(Season.FALL, 1902), FALL.unit_positions()) is None
    assert mirror.now_problem(Turn(Season.SPRING, 1903), FALL.unit_positions()) == (
        "NOW for SPR 1903, more than 1 year after SPR 1901"
    )


def test_the_same_now_again_after_a_reconnection_makes_the_next_phase_checked() -> None:
    mirror = mirror_at(SPRING)
    mirror.mark_resync()
    assert mirror.on_now(SPRING.turn, SPRING.unit_positions()) is None  # where the game stands
    report = step(mirror, FALL_OUT.results, FALL_OUT)
    assert report is not None and report.ok, report
    assert counts(mirror) == (1, 0, 0)


def test_a_phase_without_ord_lines_is_neither_checked_nor_skipped() -> None:
    mirror = mirror_at(SPRING)
    assert step(mirror, [], FALL_OUT) is None
    assert counts(mirror) == (0, 0, 0)


def test_each_phase_with_lines_missing_is_counted_as_skipped() -> None:
    mirror = mirror_at(SPRING)
    assert step(mirror, FALL_OUT.results[:1], FALL_OUT) is None
    winter = adjudicate_phase(FALL, [])
    assert step(mirror, winter.results[:1], winter) is None
    assert counts(mirror) == (0, 0, 2)


def test_our_engine_crashing_on_a_phase_is_reported_and_counted(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Any failure of ours, not only a refusal: the game goes on from the server's NOW."""
    reference = mirror_at(FALL)
    following = adjudicate_phase(FALL, [])
    expected = step(reference, following.results, following)
    assert expected is not None and expected.ok
    mirror = mirror_at(SPRING)
    told = [replace(r, result=("BNC",)) for r in FALL_OUT.results]
    assert step(mirror, told, FALL_OUT) is not None  # one mismatch before

    def crash(*args: object) -> None:
        raise RuntimeError("out of memory")

    monkeypatch.setattr("bot.client.core.mirror.adjudicate_phase", crash)
    report = step(mirror, following.results, following)
    assert report is not None
    assert report.turn == FALL.turn
    assert report.differences == ("shadow adjudication failed: RuntimeError: out of memory",)
    assert report.predicted == ""
    assert report.actual == expected.actual
    assert counts(mirror) == (2, 2, 0)
    assert mirror.position is not None and mirror.position.turn == following.turn
