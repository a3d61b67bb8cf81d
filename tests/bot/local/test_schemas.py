"""Tournament, game and arena files read back: one typed error naming the file, no traceback."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from dataclasses import asdict
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.local.schemas import read_arena_run
from bot.measure.comparison import ComparisonError, Run, checked
from bot.measure.metrics import GameRecord
from bot.tournament.saved import (
    GAME_FILE,
    SETTINGS_FILE,
    TournamentError,
    finished_games,
    game_folder,
    load_settings,
    prepare,
    read_game,
    saved_games,
)
from tests.bot.local.synthetic import POWERS, write_tournament

ROOT = Path(__file__).resolve().parents[3]
LINEUP, FILL = "new=random", "dumbbot"
CLI_TIMEOUT = 120.0


def _game(index: int, powers: tuple[str, ...], centres: tuple[int, ...]) -> GameRecord:
    return GameRecord.scored(
        index=index,
        powers=powers,
        years=(1900, 1901),
        curve=((3,) * len(centres), centres),
        centres=centres,
        eliminated=[None] * len(centres),
        solo=None,
        end="WIN 1901",
        seconds=1.0,
    )


def _tournament(folder: Path) -> None:
    games = [(POWERS, [4, 5, 5, 5, 5, 5, 5]), (POWERS, [6, 4, 4, 5, 5, 5, 5])]
    write_tournament(folder, LINEUP, FILL, 3, games)


def _edit(path: Path, change: str, value: str) -> None:
    """Put the JSON text ``value`` at the dotted ``change`` of the JSON in ``path``."""
    data = json.loads(path.read_text())
    *parents, last = change.split(".")
    target = data
    for key in parents:
        target = target[int(key)] if isinstance(target, list) else target[key]
    marker = "@@VALUE@@"
    if isinstance(target, list):
        target[int(last)] = marker
    else:
        target[last] = marker
    path.write_text(json.dumps(data).replace(json.dumps(marker), value))


# (field of game.json, JSON text put there, what the error says)
BAD_GAMES = [
    ("seconds", "Infinity", "Infinity is not a number JSON allows"),
    ("seconds", "NaN", "NaN is not a number JSON allows"),
    ("record.seconds", "1e400", "1e400 is too large"),
    ("record.centres.0", "1" + "0" * 400, "too large"),
    ("record.centres.0", '"9999999999999999999999999"', "record.centres.0: Input should be"),
    ("record.centres.0", "-1", "record.centres.0: Input should be greater than or equal to 0"),
    ("record.years.1", "99999", "record.years.1: Input should be less than or equal to 8191"),
    ("record.points", "[1, 2]", "points has 2 entries for 7 seats"),
    ("record.curve", "[]", "curve has 0 rows for 2 years"),
    ("record.curve.1", "[1]", "a row of curve does not have one count for each of 7 seats"),
    ("record.solo", "7", "solo is seat 7 of 7"),
    ("seat_powers", "[1, 2]", "seat_powers: Input should be a valid dictionary"),
    ("record", "[]", "record: Input should be a valid dictionary"),
]


@pytest.mark.parametrize(("field", "value", "error"), BAD_GAMES)
def test_a_corrupt_game_file_is_one_tournament_error(
    tmp_path: Path, field: str, value: str, error: str
) -> None:
    _tournament(tmp_path)
    marker = game_folder(tmp_path, 1) / GAME_FILE
    assert read_game(marker).index == 1
    _edit(marker, field, value)
    with pytest.raises(TournamentError, match="not a finished game") as info:
        read_game(marker)
    assert error in str(info.value) and str(marker) in str(info.value)
    with pytest.raises(TournamentError, match="not a finished game"):
        finished_games(tmp_path)


@pytest.mark.timeout(30)
def test_a_fifo_game_file_is_set_aside_on_resume_and_refused_when_read(tmp_path: Path) -> None:
    _tournament(tmp_path)
    marker = game_folder(tmp_path, 1) / GAME_FILE
    marker.unlink()
    os.mkfifo(marker)
    with pytest.raises(TournamentError, match=r"game\.json is a FIFO, not a regular file"):
        read_game(marker)
    settings = load_settings(tmp_path)
    assert settings is not None
    done = prepare(tmp_path, settings, 2)  # resuming: the game is played again
    assert sorted(done) == [0] and not game_folder(tmp_path, 1).exists()


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ('{"settings": @S, "games": Infinity}', "Infinity is not a number JSON allows"),
        ('{"settings": @S, "games": 1e400}', "1e400 is too large"),
        ('{"settings": @S, "games": -3}', "games: Input should be greater than or equal to 0"),
        ('{"settings": {"lineup": 5}}', "settings.lineup: Input should be a valid list"),
        ('{"settings": [], "games": 2}', "settings: Input should be a valid dictionary"),
        ("[]", "a JSON list, not an object"),
    ],
)
def test_a_corrupt_settings_file_is_one_tournament_error(
    tmp_path: Path, text: str, error: str
) -> None:
    _tournament(tmp_path)
    path = tmp_path / SETTINGS_FILE
    saved = json.loads(path.read_text())
    assert saved_games(tmp_path) == 2
    path.write_text(text.replace("@S", json.dumps(saved["settings"])))
    with pytest.raises(TournamentError, match="cannot read the tournament's settings") as info:
        load_settings(tmp_path)
    assert error in str(info.value) and str(path) in str(info.value)
    assert saved_games(tmp_path) is None


def test_settings_saved_alone_still_load(tmp_path: Path) -> None:
    _tournament(tmp_path)
    path = tmp_path / SETTINGS_FILE
    settings = load_settings(tmp_path)
    path.write_text(json.dumps(json.loads(path.read_text())["settings"]))
    assert load_settings(tmp_path) == settings and saved_games(tmp_path) is None


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot.cli", *args],
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=CLI_TIMEOUT,
    )


def _one_line_error(proc: subprocess.CompletedProcess[str], command: str, message: str) -> None:
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr
    assert proc.stderr.count("\n") == 1, proc.stderr
    assert proc.stderr.startswith(f"daide-mcts {command}: error: "), proc.stderr
    assert message in proc.stderr, proc.stderr


@pytest.mark.timeout(CLI_TIMEOUT * 4)
def test_the_commands_that_read_a_tournament_say_what_is_wrong_in_one_line(
    tmp_path: Path,
) -> None:
    """Resuming, comparing and rating a tournament whose files hold numbers JSON does not."""
    _tournament(tmp_path)
    settings = tmp_path / SETTINGS_FILE
    saved = json.loads(settings.read_text())
    _edit(settings, "games", "1e400")
    _one_line_error(_cli("tournament", "--out", str(tmp_path)), "tournament", "1e400 is too large")
    settings.write_text(json.dumps(saved))
    _edit(game_folder(tmp_path, 0) / GAME_FILE, "record.ranks.0", "Infinity")
    _one_line_error(_cli("compare", str(tmp_path)), "compare", "Infinity is not a number")
    _one_line_error(_cli("ratings", str(tmp_path)), "ratings", "Infinity is not a number")


@pytest.mark.timeout(CLI_TIMEOUT * 2)
def test_compare_refuses_a_fifo_arena_file_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "arena.json"
    os.mkfifo(fifo)
    _one_line_error(_cli("compare", str(fifo)), "compare", "arena.json is a FIFO, not a regular")


def test_arena_files_load_and_corrupt_ones_are_refused(tmp_path: Path) -> None:
    game = _game(0, POWERS[:2], (5, 3))
    path = tmp_path / "run.json"
    path.write_text(
        json.dumps({"lineup": ["mcts:dm", "dumbbot"], "seed": 3, "games": [asdict(game)]})
    )
    run = read_arena_run(path)
    assert run.lineup == ("mcts:dm", "dumbbot") and run.seed == 3 and run.games == (game,)
    bad = tmp_path / "bad.json"
    no_game = '{"lineup": ["a"], "seed": 1, "games": [{}]}'
    infinite = json.dumps({"lineup": ["a", "b"], "seed": 1, "games": [asdict(game)]})
    infinite = infinite.replace('"seconds": 1.0', '"seconds": Infinity')
    for text in ("", "[]", "{}", "[" * 100_000, no_game, "\xff\x00", infinite):
        bad.write_text(text)
        with pytest.raises(ComparisonError, match=r"bad\.json: .*\(not an arena run\)"):
            read_arena_run(bad)
    bad.write_text(json.dumps({"lineup": ["a"], "seed": 1, "games": [asdict(game)]}))
    with pytest.raises(ComparisonError, match="has 2 seats, the lineup 1"):
        read_arena_run(bad)
    bad.write_text(json.dumps({"lineup": ["a"], "seed": 1, "games": []}))
    with pytest.raises(ComparisonError, match="no finished game"):
        read_arena_run(bad)
    with pytest.raises(ComparisonError, match="not an arena run"):
        read_arena_run(tmp_path / "missing.json")
    with pytest.raises(ComparisonError):
        checked(Run("x", (), 1, ()))


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=2000))
def test_any_bytes_are_an_arena_run_or_a_comparison_error(data: bytes) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "run.json"
        path.write_bytes(data)
        try:
            run = read_arena_run(path)
        except ComparisonError:
            return
        assert run.games


@settings(max_examples=200, deadline=None)
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
        lambda inner: (
            st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
        ),
        max_leaves=30,
    )
)
def test_any_json_is_an_arena_run_or_a_comparison_error(value: object) -> None:
    """Any value, NaN, infinities and huge integers included, in place of a game."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "run.json"
        path.write_text(json.dumps({"lineup": ["a", "b"], "seed": 1, "games": [value]}))
        with pytest.raises(ComparisonError):
            read_arena_run(path)
