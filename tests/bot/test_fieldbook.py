"""The field book's file (bot.fieldbook): shared, locked, never lost, never fatal."""

from __future__ import annotations

import fcntl
import json
import multiprocessing
import time
from pathlib import Path

import pytest

from adjudicator.position import WINTER
from bot import fieldbook
from bot.fieldbook import FieldBookFile, GameOpenings
from bot.mirror import GameMirror
from search.openings import FieldBook
from tests.search.boards import M, dumbbot_game

GAME = dumbbot_game(11, 2)


def _one_game(ours: set[int] | None = None) -> FieldBook:
    return FieldBook.empty(M.name).with_game(GAME, ours or set())


def test_a_missing_file_is_an_empty_book_and_additions_accumulate(tmp_path: Path) -> None:
    file = FieldBookFile(tmp_path / "sub" / "openings.json")
    assert file.read(M) == FieldBook.empty(M.name)
    file.add(M, _one_game())
    after = file.add(M, _one_game())
    assert after.games == 2
    assert FieldBookFile(file.path).read(M) == after
    assert json.loads(file.path.read_text())["games"] == 2


CORRUPT = {
    "truncated": b'{"format": 1, "map": "standard", "ga',
    "binary": bytes(range(256)),
    "a list": b"[1, 2, 3]",
    "deeply nested": b"[" * 100_000 + b"]" * 100_000,
    "a spoiled entry": json.dumps(
        {"format": 1, "map": "standard", "games": 1, "entries": [{"season": 9}]}
    ).encode(),
    "empty": b"",
}


@pytest.mark.parametrize("content", CORRUPT.values(), ids=CORRUPT.keys())
def test_a_corrupt_file_is_set_aside_whole_and_a_new_book_starts(
    tmp_path: Path, content: bytes
) -> None:
    path = tmp_path / "openings.json"
    path.write_bytes(content)
    file = FieldBookFile(path)
    assert file.read(M) == FieldBook.empty(M.name)
    aside = list(tmp_path.glob("openings.json.corrupt-*"))
    assert len(aside) == 1 and aside[0].read_bytes() == content
    assert file.add(M, _one_game()).games == 1


def test_books_set_aside_in_the_same_second_keep_their_own_names(tmp_path: Path) -> None:
    path = tmp_path / "openings.json"
    for k in range(3):
        path.write_text(f"broken {k}")
        assert FieldBookFile(path).read(M) == FieldBook.empty(M.name)
    aside = sorted(p.read_text() for p in tmp_path.glob("openings.json.corrupt-*"))
    assert aside == ["broken 0", "broken 1", "broken 2"]


def test_another_maps_book_is_set_aside_not_mixed_in(tmp_path: Path) -> None:
    path = tmp_path / "openings.json"
    other = {**_one_game().to_data(M), "map": "modern"}
    path.write_text(json.dumps(other))
    assert FieldBookFile(path).add(M, _one_game()).games == 1
    aside = list(tmp_path.glob("openings.json.other-*"))
    assert len(aside) == 1 and json.loads(aside[0].read_text()) == other


def _add_one(path: str) -> int:
    return FieldBookFile(Path(path)).add(M, _one_game()).games


def test_bots_adding_at_once_lose_no_game(tmp_path: Path) -> None:
    path = tmp_path / "openings.json"
    with multiprocessing.get_context("spawn").Pool(4) as pool:
        totals = pool.map(_add_one, [str(path)] * 12)
    assert sorted(totals) == list(range(1, 13))
    assert FieldBookFile(path).read(M).games == 12


def _mirror(upto: int) -> GameMirror:
    """A mirror that has seen the game's movement phases before ``GAME[upto]``, and is now
    in the winter after the last of them (as after a fall's NOW, before the next spring's)."""
    mirror = GameMirror()
    mirror.game_map = M
    mirror.movements = [(pos.to_data(), orders) for pos, orders in GAME[:upto]]
    now = GAME[upto - 1][0].copy()
    now.season = WINTER
    mirror.position = now
    return mirror


def test_a_game_is_added_once_after_its_first_year_without_our_orders(tmp_path: Path) -> None:
    openings = GameOpenings(tmp_path / "openings.json")
    assert openings.book_for(M) == FieldBook.empty(M.name)
    assert not openings.record(_mirror(1), "FRA")  # spring 1901 played, fall to come
    assert not openings.record(_mirror(2), "FRA")  # fall 1901 played, still 1901
    assert openings.record(_mirror(3), "FRA")  # into 1902
    assert not openings.record(_mirror(4), "FRA", final=True)  # once per game
    book = FieldBookFile(openings.file.path).read(M)
    assert book == _one_game({M.power_index["FRA"]})
    assert openings.book == book


def test_a_game_ending_in_its_first_year_is_added_at_the_end(tmp_path: Path) -> None:
    openings = GameOpenings(tmp_path / "openings.json")
    assert not openings.record(_mirror(2), None)
    assert openings.record(_mirror(2), None, final=True)  # an observer records every power
    assert FieldBookFile(openings.file.path).read(M) == _one_game()


def test_a_game_joined_late_adds_nothing(tmp_path: Path) -> None:
    mirror = _mirror(3)
    mirror.movements = mirror.movements[1:]
    openings = GameOpenings(tmp_path / "openings.json")
    assert not openings.record(mirror, "ENG", final=True)
    assert not openings.file.path.exists()


def test_a_book_that_cannot_be_kept_costs_the_book_not_the_game(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    openings = GameOpenings(blocker / "openings.json")
    assert openings.book_for(M) is None
    assert not openings.record(_mirror(3), "FRA")


def test_a_lock_held_too_long_costs_the_book_not_the_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(fieldbook, "LOCK_WAIT", 0.2)
    path = tmp_path / "openings.json"
    with open(tmp_path / "openings.json.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # another bot, stuck while it writes
        openings = GameOpenings(path)
        began = time.monotonic()
        assert openings.book_for(M) is None
        assert not openings.record(_mirror(3), "FRA")
        assert time.monotonic() - began < 2.0
    assert FieldBookFile(path).add(M, _one_game()).games == 1
