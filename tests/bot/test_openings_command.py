"""``daide-mcts openings``: a field book shown to its user."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.cli import main
from search.openings import FieldBook
from tests.search.boards import M, dumbbot_game


@pytest.fixture
def book(tmp_path: Path) -> Path:
    path = tmp_path / "openings.json"
    made = FieldBook.empty(M.name)
    for seed in range(3):
        made = made.with_game(dumbbot_game(seed, 1), {M.power_index["FRA"]})
    path.write_text(json.dumps(made.to_data(M)))
    return path


def test_the_book_shows_each_powers_situations_and_their_order_sets(
    book: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["openings", str(book)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{book}: 3 game(s), ")
    assert "ENG SPR 1901 (EDI LON LVP), seen 3:" in out
    assert "FRA " not in out  # the bot's own power was never recorded
    assert main(["openings", str(book), "--power", "eng", "--top", "1"]) == 0
    only = capsys.readouterr().out
    assert "ENG SPR 1901" in only and "GER " not in only
    shown = [line for line in only.splitlines() if line.startswith("  ")]
    situations = [line for line in only.splitlines() if line.startswith("ENG ")]
    assert len(shown) == len(situations)  # one order set each with --top 1
    assert all("%" in line and "EDI" in line for line in shown[:1])


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--power", "XYZ"], "not one of"),
        (["--top", "0"], "at least 1"),
    ],
)
def test_bad_flags_are_refused_in_one_line(
    book: Path, args: list[str], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["openings", str(book), *args]) == 2
    err = capsys.readouterr().err
    assert says in err and "Traceback" not in err


@pytest.mark.parametrize("content", ["", "{", "[1]", '{"format": 1, "map": "modern"}'])
def test_a_file_that_is_not_a_book_is_refused_in_one_line(
    tmp_path: Path, content: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "openings.json"
    path.write_text(content)
    assert main(["openings", str(path)]) == 2
    assert main(["openings", str(tmp_path / "missing.json")]) == 2
    err = capsys.readouterr().err
    assert err.count("daide-mcts openings: error:") == 2 and "Traceback" not in err
