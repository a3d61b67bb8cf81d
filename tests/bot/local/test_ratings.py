"""``daide-mcts ratings``: synthetic tournaments whose players' order is known."""

from __future__ import annotations

import csv
import json
import random
from pathlib import Path

import pytest

from bot.cli import main
from bot.local.launch import Deadlines
from bot.local.lineup import parse_lineup
from bot.tournament.rating import RatedGame, rate
from bot.tournament.saved import TournamentSettings, prepare
from tests.bot.local.synthetic import POWERS, write_tournament

STRENGTH = {"strong": 9.0, "good": 6.5, "fair": 4.0, "weak": 1.5}
"""Mean supply centres of each synthetic player: the order the ratings must find."""


def _tournament(folder: Path, lineup: str, fill: str, games: int, seed: int) -> None:
    """A tournament folder of ``games`` finished games, centres drawn around each label's mean."""
    seats = parse_lineup(lineup, fill)
    rng = random.Random(seed)
    played = [
        (POWERS, [max(0, round(rng.gauss(STRENGTH[s.label], 1.5))) for s in seats])
        for _ in range(games)
    ]
    write_tournament(folder, lineup, fill, seed, played)


def test_ratings_find_the_known_order_across_tournaments_with_different_lineups(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # strong and good never meet: only their games against fair and weak relate them.
    first, second = tmp_path / "a", tmp_path / "b"
    _tournament(first, "strong=mcts,fair=dumbbot", "weak=random", games=30, seed=1)
    _tournament(second, "good=mcts:v8,fair=dumbbot,fair=dumbbot", "weak=random", 30, seed=2)
    assert main(["ratings", str(first), str(second), "--out", str(tmp_path / "r")]) == 0
    printed = capsys.readouterr().out
    assert "60 games from 2 tournament(s)" in printed

    with open(tmp_path / "r" / "ratings.csv") as fh:
        rows = list(csv.DictReader(fh))
    assert [r["player"] for r in rows] == ["strong", "good", "fair", "weak"]
    mu = {r["player"]: float(r["mu"]) for r in rows}
    sigma = {r["player"]: float(r["sigma"]) for r in rows}
    assert mu["strong"] > mu["good"] > mu["fair"] > mu["weak"]
    # More seat-games, less uncertainty: weak fills 5 seats a game, strong one.
    assert sigma["weak"] < sigma["fair"] < sigma["strong"] < 8.33
    games = {r["player"]: (int(r["games"]), int(r["seats"])) for r in rows}
    assert games == {"strong": (30, 30), "good": (30, 30), "fair": (60, 90), "weak": (60, 270)}
    saved = json.loads((tmp_path / "r" / "ratings.json").read_text())
    assert saved["games"] == 60 and saved["ratings"][0]["label"] == "strong"
    assert "| strong |" in (tmp_path / "r" / "ratings.md").read_text()


def test_one_folder_saves_its_ratings_in_it(tmp_path: Path) -> None:
    _tournament(tmp_path, "good=mcts", "weak=random", games=5, seed=3)
    assert main(["ratings", str(tmp_path)]) == 0
    assert (tmp_path / "ratings.md").exists() and (tmp_path / "ratings.json").exists()


def test_equal_players_stay_level_and_ties_are_shared() -> None:
    games = [RatedGame("x", k, ("a", "b"), (1.5, 1.5)) for k in range(10)]
    a, b = rate(games)
    assert a.mu == pytest.approx(b.mu) and a.sigma == pytest.approx(b.sigma)
    assert a.sigma < 8.33


def test_folders_without_finished_games_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["ratings", str(tmp_path)]) == 2
    assert "holds no tournament" in capsys.readouterr().err
    prepare(tmp_path, TournamentSettings(parse_lineup("dumbbot"), 1902, Deadlines()), 2)
    assert main(["ratings", str(tmp_path)]) == 2
    assert "holds no finished game yet" in capsys.readouterr().err
    assert main(["ratings", str(tmp_path / "missing")]) == 2
    assert "is not a folder" in capsys.readouterr().err
