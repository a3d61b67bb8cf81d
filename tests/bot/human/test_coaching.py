"""The seat's coach: the scripted 1901 heard message by message, graded in its worker process
as ``daide-mcts review`` grades the same record; "try again" from a graded phase."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.coach.game_review import review_game
from bot.coach.recorded_game import read_recorded_game
from bot.human.api import BadRequest
from tests.bot.human.graded_coach import SEED, TINY, coach_hearing
from tests.bot.view.scripted_game import write_run_folder


@pytest.fixture(scope="module")
def scripted(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("scripted") / "run"
    write_run_folder(folder)
    return folder


@pytest.mark.timeout(300)
def test_the_live_grades_are_the_reviews(scripted: Path) -> None:
    coach = coach_hearing(scripted, "TUR")
    try:
        view = coach.view()
        assert view.failed == {} and view.over and view.problem is None
        review = review_game(read_recorded_game(scripted), "TUR", SEED, TINY)
        assert [g.turn for g in view.grades] == [p.grade.turn for p in review.phases]
        assert [g.turn for g in view.grades] == [
            "SPR 1901", "FAL 1901", "AUT 1901", "WIN 1901"
        ]  # fmt: skip
        for live, reviewed in zip(view.grades, review.phases, strict=True):
            g = reviewed.grade
            assert (live.label, live.loss, live.low, live.high) == (
                g.label, round(g.loss, 3), round(g.low, 3), round(g.high, 3)
            )  # fmt: skip
            assert (live.played_centres, live.bot_centres) == (
                round(g.submitted, 3), round(g.reference, 3)
            )  # fmt: skip
            assert live.played == list(reviewed.played) and live.better == list(reviewed.better)
            assert len(live.better_draw) == len(live.better)
        assert view.costly == [p.grade.turn for p in review.costly()]
        assert (view.seed, view.rollouts, view.iterations) == (SEED, 8, 40)
    finally:
        coach.close()


@pytest.mark.timeout(300)
def test_a_graded_phase_is_tried_again_against_the_recorded_orders(scripted: Path) -> None:
    coach = coach_hearing(scripted, "FRA")
    try:
        moment = coach.moment("SPR 1901")
        assert moment.kind == "movement" and set(moment.options) == {"BRE", "MAR", "PAR"}
        assert sorted(moment.played) == [
            "A MAR S A PAR - BUR", "A PAR - BUR", "F BRE - MAO"
        ]  # fmt: skip
        # Played again as it was played: the same outcome as the record's.
        same = coach.try_again("SPR 1901", moment.played)
        assert same.happened is not None
        assert sorted(r.text for r in same.tried.results) == sorted(
            r.text for r in same.happened.results
        )
        assert [r.outcome for r in same.tried.results] == [r.outcome for r in same.happened.results]
        assert (same.tried.turn, same.tried.units) == ("FAL 1901", 3)
        # Something else: Paris to Picardy, Brest to the Channel (England went north).
        other = coach.try_again("SPR 1901", ["A PAR - PIC", "F BRE - ECH"])
        mine = {r.text: r for r in other.tried.results if r.power == "FRA"}
        assert mine["A PAR - PIC"].ok and mine["F BRE - ECH"].ok
        assert mine["A MAR H"].ok  # a unit given no order holds
        assert other.happened == same.happened
        with pytest.raises(BadRequest, match="not a graded phase"):
            coach.moment("SPR 1999")
        with pytest.raises(BadRequest, match="not legal"):
            coach.try_again("SPR 1901", ["A PAR - MOS"])
        with pytest.raises(BadRequest, match="'A PAR - XYZ'"):
            coach.try_again("SPR 1901", ["A PAR - XYZ"])
    finally:
        coach.close()
