"""A recorded game read back and reviewed (bot.coach): the scripted 1901, every kind of order."""

from __future__ import annotations

from pathlib import Path

import pytest

from adjudicator.orders import CONVOY_MOVE
from bot.coach.game_review import ReviewError, engine_orders, review_game
from bot.coach.recorded_game import RecordedGameError, read_recorded_game
from bot.toolkit.messagelog import MESSAGES_FILE
from search.grading import GradingSettings
from tests.bot.view.scripted_game import write_run_folder

TINY = GradingSettings(rollouts=8, iterations=40)


@pytest.fixture(scope="module")
def scripted(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("scripted") / "run"
    write_run_folder(folder)
    return folder


def test_every_phase_is_read_with_its_orders(scripted: Path) -> None:
    game = read_recorded_game(scripted)
    turns = [str(p.position.turn) for p in game.phases]
    assert turns == ["SPR 1901", "FAL 1901", "AUT 1901", "WIN 1901", "SPR 1902"]
    assert game.final_year is None  # the scripted summary has no settings
    fall = game.phases[1]
    assert len(fall.orders_of("ENG")) == 3 and fall.orders_of("XYZ") == ()
    orders = engine_orders(fall.position, "ENG", fall.orders_of("ENG"))
    assert isinstance(orders, dict)
    assert sorted(o[0] for o in orders.values())[-1] == CONVOY_MOVE
    assert game.phases[-1].results == ()


@pytest.mark.parametrize(
    ("power", "graded"),
    [
        ("ENG", ["SPR 1901", "FAL 1901", "WIN 1901"]),  # a convoy, a build
        ("TUR", ["SPR 1901", "FAL 1901", "AUT 1901", "WIN 1901"]),  # a retreat
        ("RUS", ["SPR 1901", "FAL 1901", "WIN 1901"]),  # a removal
    ],
)
def test_every_phase_with_a_choice_is_graded(scripted: Path, power: str, graded: list[str]) -> None:
    review = review_game(read_recorded_game(scripted), power, 1, TINY)
    assert [p.grade.turn for p in review.phases] == graded
    kinds = {p.grade.turn: p.kind for p in review.phases}
    assert kinds["WIN 1901"] == "adjustment" and kinds["FAL 1901"] == "movement"
    data = review.to_json()
    assert [g["turn"] for g in data["graph"]] == graded
    assert data["power"] == power and data["rollouts"] == 8
    moves = review_game(read_recorded_game(scripted), power, 1, TINY, movement_only=True)
    # The spring of 1902 was never adjudicated (the game ended in a draw): not graded.
    assert [p.grade.turn for p in moves.phases] == ["SPR 1901", "FAL 1901"]


def test_the_played_orders_are_written_as_people_write_them(scripted: Path) -> None:
    review = review_game(read_recorded_game(scripted), "ENG", 1, TINY, movement_only=True)
    fall = review.phases[1]
    assert fall.played == ("A YOR - NWY VIA NTH", "F NTH C A YOR - NWY", "F NWG S A YOR - NWY")
    assert not fall.same and len(fall.better) == 3


def test_a_power_not_in_the_game_and_a_folder_without_a_game_are_typed_errors(
    scripted: Path, tmp_path: Path
) -> None:
    with pytest.raises(ReviewError, match="PRU is not a power of this game"):
        review_game(read_recorded_game(scripted), "PRU", 1, TINY)
    with pytest.raises(RecordedGameError, match="is not a folder"):
        read_recorded_game(tmp_path / "nowhere")
    with pytest.raises(RecordedGameError, match=r"holds no messages\.daide"):
        read_recorded_game(tmp_path)
    (tmp_path / MESSAGES_FILE).write_text("1.0 observer in NOW ( SPR 1901 ) ( ENG FLT LON )\n")
    with pytest.raises(RecordedGameError, match="records no map and position"):
        read_recorded_game(tmp_path)
