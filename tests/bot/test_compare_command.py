"""``daide-mcts compare``: tournament folders and arena files, pooled and paired, and bad input."""

from __future__ import annotations

import json
import random
from dataclasses import asdict
from pathlib import Path

import pytest

from bot.cli import main
from bot.measure.metrics import GameRecord
from bot.tournament.saved import GAME_FILE, game_folder, rotated_slots
from tests.bot.local.synthetic import POWERS, write_tournament

LINEUP, FILL = "new=mcts,bandana:dumbbot", "bandana:dbrane"
"""The thesis's hardest lineup: the bot under test, a DumbBot and five D-Branes."""


def _rotated(seed: int, games: int, bonus: int) -> list[tuple[tuple[str, ...], list[int]]]:
    """Rotated games whose first seat gets its power's strength plus ``bonus`` centres."""
    rng = random.Random(seed)
    played = []
    for k in range(games):
        dealt = tuple(POWERS[s] for s in rotated_slots(k, 7, seed))
        centres = [max(0, 2 + POWERS.index(p) + rng.choice((-1, 0, 1))) for p in dealt]
        centres[0] += bonus
        played.append((dealt, centres))
    return played


def test_folders_pool_and_pair_game_by_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    new, old = tmp_path / "new", tmp_path / "old"
    write_tournament(new, LINEUP, FILL, 5, _rotated(5, 14, bonus=2), powers="rotate")
    write_tournament(old, "old=mcts,bandana:dumbbot", FILL, 5, _rotated(5, 14, 0), "rotate")
    out = tmp_path / "figures.json"
    assert main(["compare", str(new), "--against", str(old), "--json", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "new: " in printed and "new - bandana:dbrane: " in printed
    assert "paired, new - old: +2.00 ± 0.00 (n=14) centres" in printed
    figures = json.loads(out.read_text())
    assert figures["label"] == "new" and figures["centres"]["n"] == 14
    assert figures["against"]["label"] == "old"
    assert figures["paired"]["matched"] == 14 and figures["paired"]["centres"]["mean"] == 2.0
    assert set(figures["paired"]["margins"]) == {"bandana:dumbbot", "bandana:dbrane"}
    # At the end of 1900 (the start) nobody is ahead yet.
    assert main(["compare", str(new), "--against", str(old), "--year", "1900"]) == 0
    assert "paired, new - old: +0.00 ± 0.00 (n=14) centres" in capsys.readouterr().out
    assert main(["compare", str(new), "--year", "1850"]) == 2
    assert "no count for 1850" in capsys.readouterr().err

    # Two folders of one lineup pool; a label may be named.
    again = tmp_path / "again"
    write_tournament(again, LINEUP, FILL, 6, _rotated(6, 7, bonus=2), powers="rotate")
    assert main(["compare", str(new), str(again), "--label", "bandana:dbrane"]) == 0
    assert "bandana:dbrane: " in capsys.readouterr().out.splitlines()[0]
    assert main(["compare", str(new), str(again)]) == 0
    assert "centres (n=21)" in capsys.readouterr().out


def test_arena_files_compare_like_folders(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    games = [
        asdict(GameRecord.scored(index=k, powers=POWERS, years=(1900, 1901), curve=((3,) * 7, c),
               centres=c, eliminated=[None] * 7, solo=None, end="WIN 1901", seconds=1.0))
        for k, c in enumerate([(9, 4, 4, 4, 4, 4, 4), (7, 5, 4, 4, 4, 4, 4)])
    ]  # fmt: skip
    path = tmp_path / "arena.json"
    lineup = ["mcts:dm"] + ["dumbbot"] * 6
    path.write_text(json.dumps({"lineup": lineup, "seed": 1, "games": games}))
    assert main(["compare", str(path)]) == 0
    assert "mcts:dm: 8.00 ± " in capsys.readouterr().out


def test_bad_runs_get_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000)
    for path, error in (
        (tmp_path / "missing", "no such tournament folder or arena file"),
        (tmp_path, "holds no tournament"),
        (deep, "not an arena run"),
    ):
        assert main(["compare", str(path)]) == 2
        assert error in capsys.readouterr().err


def test_corrupt_games_and_unknown_labels_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "t"
    write_tournament(folder, LINEUP, FILL, 5, _rotated(5, 3, 0), powers="rotate")
    assert main(["compare", str(folder), "--label", "nobody"]) == 2
    assert "no seat labelled 'nobody'" in capsys.readouterr().err
    (game_folder(folder, 1) / GAME_FILE).write_bytes(b"\xff" * 10)
    assert main(["compare", str(folder)]) == 2
    assert "not a finished game" in capsys.readouterr().err
    (game_folder(folder, 1) / GAME_FILE).write_text("{" * 50_000)
    assert main(["compare", str(folder)]) == 2
    assert "not a finished game" in capsys.readouterr().err
    (folder / "tournament.json").write_text("[1, 2]")
    assert main(["compare", str(folder)]) == 2
    assert "cannot read the tournament's settings" in capsys.readouterr().err
