"""The arena: BANDANA points and ranks on hand-made results, short real games, the command."""

from __future__ import annotations

import json
from pathlib import Path
from random import Random

import pytest

from bot.cli import main
from bot.lab.arena import arena_games as arena_module
from bot.lab.arena.arena_games import (
    ArenaResult,
    GameRecord,
    game_points,
    game_ranks,
    play_game,
    run_arena,
    seat_names,
    summarise,
)
from search.dumbbot import DumbBot
from search.randombot import RandomBot

# --- points -------------------------------------------------------------------------------


def test_a_solo_takes_twelve_points_and_nobody_else_scores() -> None:
    assert game_points([18, 5, 4, 3, 2, 1, 1], solo=0) == [12, 0, 0, 0, 0, 0, 0]


@pytest.mark.parametrize(
    ("centres", "share"),
    [
        ([17, 17, 0, 0, 0, 0, 0], 6),
        ([12, 11, 11, 0, 0, 0, 0], 4),
        ([9, 9, 8, 8, 0, 0, 0], 3),
        ([7, 7, 7, 7, 6, 0, 0], 2),
        ([6, 6, 6, 6, 5, 5, 0], 2),
        ([5, 5, 5, 5, 5, 5, 4], 1),
    ],
)
def test_a_draw_shares_points_among_survivors(centres: list[int], share: int) -> None:
    points = game_points(centres, solo=None)
    assert points == [share if c else 0 for c in centres]


# --- ranks --------------------------------------------------------------------------------


def test_ranks_follow_centres() -> None:
    none = [None] * 7
    assert game_ranks([10, 8, 6, 4, 3, 2, 1], none) == [1, 2, 3, 4, 5, 6, 7]
    assert game_ranks([1, 2, 3, 4, 6, 8, 10], none) == [7, 6, 5, 4, 3, 2, 1]


def test_equal_centres_share_the_average_rank() -> None:
    none = [None] * 7
    assert game_ranks([5, 5, 5, 5, 5, 5, 4], none) == [3.5] * 6 + [7]
    assert game_ranks([9, 6, 6, 5, 4, 2, 2], none) == [1, 2.5, 2.5, 4, 5, 6.5, 6.5]


def test_eliminated_powers_rank_by_elimination_year_later_is_better() -> None:
    centres = [12, 10, 8, 4, 0, 0, 0]
    assert game_ranks(centres, [None, None, None, None, 1903, 1904, 1902]) == [1, 2, 3, 4, 6, 5, 7]
    # eliminated in the same year: they share
    assert game_ranks(centres, [None, None, None, None, 1903, 1903, 1902]) == [
        1,
        2,
        3,
        4,
        5.5,
        5.5,
        7,
    ]
    # no centres and no year: out at the very end, still below every survivor
    assert game_ranks([10, 0, 0], [None, None, 1902]) == [1, 2, 3]


def test_seat_names_number_repeated_labels() -> None:
    assert seat_names(["mcts:v8", "dumbbot", "dumbbot"]) == ("mcts:v8", "dumbbot#1", "dumbbot#2")


# --- summaries on hand-made records ----------------------------------------------------------


def record(
    index: int,
    centres: tuple[int, ...],
    curve: tuple[tuple[int, ...], ...],
    solo: int | None,
    eliminated: tuple[int | None, ...],
) -> GameRecord:
    return GameRecord(
        index=index,
        powers=("AUS", "ENG"),
        years=tuple(range(1900, 1900 + len(curve))),
        curve=curve,
        centres=centres,
        eliminated=eliminated,
        solo=solo,
        points=tuple(game_points(centres, solo)),
        ranks=tuple(game_ranks(centres, eliminated)),
        end="WIN 1902",
        seconds=0.0,
    )


def test_summaries_average_the_metrics_and_carry_a_solo_forward() -> None:
    a = record(0, (4, 2), ((3, 3), (4, 2), (4, 2)), None, (None, None))
    b = record(1, (18, 0), ((3, 3), (18, 0)), 0, (None, 1901))  # a solo ended it in 1901
    s = summarise("x", [(a, 0), (b, 0)], (1900, 1901, 1902))
    assert s.games == 2
    assert s.mean_centres == 11 and s.min_centres == 4 and s.max_centres == 18
    assert s.sd_centres == pytest.approx(9.899, abs=1e-3)
    assert s.solos == 1
    assert s.points == 6 + 12 and s.mean_points == 9
    assert s.mean_rank == 1
    assert s.curve == ((1900, 3.0), (1901, 11.0), (1902, 11.0))
    loser = summarise("y", [(a, 1), (b, 1)], (1900, 1901, 1902))
    assert loser.points == 6 and loser.mean_rank == 2 and loser.solos == 0


def test_result_groups_by_label_seat_and_power() -> None:
    a = record(0, (4, 2), ((3, 3), (4, 2)), None, (None, None))
    b = GameRecord(**{**a.__dict__, "index": 1, "powers": ("ENG", "AUS")})
    result = ArenaResult(("dumbbot", "dumbbot"), 1901, 5.0, 0, (a, b), 0.0)
    (label,) = result.by_label()
    assert label.games == 4 and label.mean_centres == 3
    assert [s.name for s in result.by_seat()] == ["dumbbot#1", "dumbbot#2"]
    by_power = {s.name: s.mean_centres for s in result.by_power()}
    assert by_power == {"AUS": 3, "ENG": 3}
    json.dumps(result.to_dict())


# --- real games --------------------------------------------------------------------------------


def test_short_arena_has_the_expected_structure() -> None:
    lineup = ["random", "dumbbot", "dumbbot", "dumbbot", "dumbbot", "dumbbot", "dumbbot"]
    result = run_arena(lineup, games=3, final_year=1902, seed=5)
    assert len(result.games) == 3
    for g in result.games:
        assert sorted(g.powers) == ["AUS", "ENG", "FRA", "GER", "ITA", "RUS", "TUR"]
        assert g.years == (1900, 1901, 1902)
        assert g.curve[0] == tuple(4 if p == "RUS" else 3 for p in g.powers)
        assert g.curve[-1] == g.centres
        assert sum(g.centres) <= 34
        assert g.end in ("WIN 1902", "SPR 1903")
        assert g.solo is None
        assert g.points == tuple(game_points(g.centres, None))
        assert sorted(g.ranks) == pytest.approx(sorted(game_ranks(g.centres, g.eliminated)))
        assert all(
            (c == 0) == (e is not None) for c, e in zip(g.centres, g.eliminated, strict=True)
        )
    assert [s.name for s in result.by_label()] == ["random", "dumbbot"]
    assert [s.games for s in result.by_label()] == [3, 18]
    assert len(result.by_seat()) == 7
    report = result.report()
    assert "random" in report and "dumbbot#6" in report and "1902" in report
    json.dumps(result.to_dict())
    # seeded: the same games again
    again = run_arena(lineup, games=3, final_year=1902, seed=5)
    assert [g.centres for g in again.games] == [g.centres for g in result.games]
    assert [g.powers for g in again.games] == [g.powers for g in result.games]


def test_a_final_year_of_1901_plays_one_year() -> None:
    result = run_arena(["dumbbot"] * 7, games=1, final_year=1901, seed=0)
    (g,) = result.games
    assert g.years == (1900, 1901)
    assert result.by_label()[0].mean_centres == pytest.approx(sum(g.centres) / 7)


def test_a_solo_ends_the_game(monkeypatch: pytest.MonkeyPatch) -> None:
    def fake_solo(pos: object, previous: object = None) -> int:
        return 2 if pos.year >= 1902 or (pos.is_adjustment and pos.year == 1901) else -1  # type: ignore[attr-defined]

    monkeypatch.setattr(arena_module, "solo_winner", fake_solo)
    policies = [DumbBot()] * 7
    seats = [6, 5, 4, 3, 2, 1, 0]
    g = play_game(policies, seats, 1905, Random(0))
    assert g.years == (1900, 1901)
    assert g.solo == seats.index(2)
    assert g.points[g.solo] == 12 and sum(g.points) == 12


def test_a_bad_lineup_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="7 players"):
        run_arena(["dumbbot"] * 6, games=1)
    with pytest.raises(ValueError):
        run_arena(["dumbbot"] * 7, games=0)
    with pytest.raises(ValueError):
        run_arena(["dumbbot"] * 6 + ["bogus"], games=1)


def test_arena_accepts_ready_made_policies() -> None:
    result = run_arena(
        ["a", "b", "b", "b", "b", "b", "b"],
        games=1,
        final_year=1901,
        policies=[RandomBot()] + [DumbBot()] * 6,
    )
    assert [s.name for s in result.by_label()] == ["a", "b"]


# --- the command -------------------------------------------------------------------------------


def test_command_prints_metrics_and_writes_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "arena.json"
    code = main(
        [
            "arena",
            "random",
            "--fill",
            "dumbbot",
            "--games",
            "2",
            "--final-year",
            "1901",
            "--seed",
            "3",
            "--json",
            str(out),
        ]
    )
    assert code == 0
    captured = capsys.readouterr()
    assert "random" in captured.out and "dumbbot#6" in captured.out
    assert "2/2 games" in captured.err
    data = json.loads(out.read_text())
    assert data["lineup"] == ["random"] + ["dumbbot"] * 6
    assert len(data["games"]) == 2
    assert {row["name"] for row in data["by_label"]} == {"random", "dumbbot"}


@pytest.mark.parametrize(
    "argv",
    [
        ["arena", "dumbbot"],  # one seat only
        ["arena", "dumbbot", "--fill", "nonsense"],
        ["arena", "--fill", "dumbbot", "--games", "0"],
        ["arena", "--fill", "dumbbot", "--final-year", "1850"],
        ["arena", "--fill", "dumbbot", "--budget", "0"],
        ["arena", "--fill", "dumbbot", "--workers", "0"],
        ["arena", "--fill", "dumbbot", "--json", "/no/such/folder/x.json"],
        ["arena", *["dumbbot"] * 8, "--fill", "dumbbot"],
        ["arena", "mcts:zz", "--fill", "dumbbot", "--games", "1", "--quiet"],
    ],
)
def test_command_rejects_bad_flags_with_exit_2(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    assert "error" in capsys.readouterr().err


def test_command_rejects_malformed_numbers_with_exit_2() -> None:
    with pytest.raises(SystemExit) as info:
        main(["arena", "--fill", "dumbbot", "--games", "many"])
    assert info.value.code == 2
