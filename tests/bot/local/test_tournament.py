"""``daide-mcts tournament``: two short games, interrupted during the second and resumed."""

from __future__ import annotations

import csv
import io
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.cli import main
from bot.local.launch import Deadlines
from bot.local.lineup import parse_lineup
from bot.measure.metrics import GameRecord
from bot.tournament.saved import (
    GAME_FILE,
    GameEntry,
    TournamentError,
    TournamentSettings,
    game_folder,
    prepare,
    rotated_slots,
)
from bot.tournament.schedule import run_tournament
from tests.bot.local.pngread import png_size_and_colours

ROOT = Path(__file__).resolve().parents[3]
POWERS = {"AUS", "ENG", "FRA", "GER", "ITA", "RUS", "TUR"}


def _game_running(folder: Path) -> bool:
    messages = folder / "messages.daide"
    return messages.exists() and " observer in HLO " in messages.read_text()


def _port_of(folder: Path) -> int:
    argv = json.loads(next((folder / "bots").glob("*.argv")).read_text())
    return int(argv[argv.index("--port") + 1])


@pytest.mark.slow
def test_an_interrupted_tournament_keeps_its_finished_game_and_resumes(tmp_path: Path) -> None:
    out = tmp_path / "t"
    argv = [sys.executable, "-m", "bot.cli", "tournament"]
    first = subprocess.Popen(
        [
            *argv, "--games", "2", "--lineup", "dumbbot,random", "--final-year", "1902",
            "--mtl", "4", "--rtl", "2", "--btl", "2", "--seed", "3", "--out", str(out),
        ],
        cwd=ROOT,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )  # fmt: skip
    game1, game2 = game_folder(out, 0), game_folder(out, 1)
    try:
        deadline = time.monotonic() + 180
        while not ((game1 / GAME_FILE).exists() and _game_running(game2)):
            assert first.poll() is None, f"the tournament ended early: {first.communicate()[0]}"
            assert time.monotonic() < deadline, "the second game never started"
            time.sleep(0.05)
        first.send_signal(signal.SIGTERM)  # halfway through the second game
        output, _ = first.communicate(timeout=60)
    finally:
        if first.poll() is None:
            first.kill()
            first.communicate()
    assert first.returncode == 130, output
    assert "game 1/2: DRW at WIN 1902" in output
    assert (game1 / GAME_FILE).exists() and not (game2 / GAME_FILE).exists()
    kept = (game1 / GAME_FILE).read_text()
    with socket.socket() as sock:  # the second game's server was stopped with its bots
        assert sock.connect_ex(("127.0.0.1", _port_of(game2))) != 0

    second = subprocess.run(
        [*argv, "--out", str(out)],
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert second.returncode == 0, second.stdout + second.stderr
    assert "resuming: 1 finished game(s) kept" in second.stdout
    assert "game 2/2: DRW at WIN 1902" in second.stdout
    assert "2 of 2 games finished (1 kept from before)" in second.stdout
    assert "with 95% intervals:" in second.stdout and "random - dumbbot: " in second.stdout
    assert (game1 / GAME_FILE).read_text() == kept

    results = json.loads((out / "results.json").read_text())
    assert results["games_finished"] == 2
    for game in results["games"]:
        assert set(game["seat_powers"].values()) == POWERS
        assert set(game["record"]["powers"]) == POWERS
    labels = {s["name"]: s for s in results["by_label"]}
    assert labels["random"]["games"] == 2 and labels["dumbbot"]["games"] == 12
    with open(out / "results.csv") as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) == 14
    for number in ("1", "2"):
        assert {r["power"] for r in rows if r["game"] == number} == POWERS
    with open(out / "summary.csv") as fh:
        summary = {(r["group"], r["name"]): r for r in csv.DictReader(fh)}
    assert summary[("label", "random")]["games"] == "2"
    assert float(summary[("label", "dumbbot")]["mean_centres"]) > 0
    assert ("seat", "dumbbot-6") in summary and ("power", "TUR") in summary
    markdown = (out / "results.md").read_text()
    assert "| random | 2 |" in markdown and "±" in markdown
    assert "powers assigned by the server" in markdown
    assert "random: " in markdown and "random - dumbbot: " in markdown  # 95% intervals
    size, _colours = png_size_and_colours(out / "centres.png")
    assert size == (960, 540)


def _settings(final_year: int = 1902) -> TournamentSettings:
    return TournamentSettings(parse_lineup("dumbbot"), final_year, Deadlines(3, 1, 1), seed=1)


def _entry(index: int) -> GameEntry:
    record = GameRecord.scored(
        index=index,
        powers=sorted(POWERS),
        years=(1900, 1901),
        curve=((3, 3, 3, 3, 3, 4, 3), (4, 3, 3, 4, 4, 5, 4)),
        centres=(4, 3, 3, 4, 4, 5, 4),
        eliminated=(None,) * 7,
        solo=None,
        end="WIN 1901",
        seconds=2.0,
    )
    return GameEntry(index, record, {}, "DRW", "WIN 1901", "Parlance 1.4.1", 2.0)


def test_reopening_keeps_finished_games_and_drops_unfinished_ones(tmp_path: Path) -> None:
    assert prepare(tmp_path, _settings(), 3) == {}
    done = game_folder(tmp_path, 0)
    done.mkdir(parents=True)
    (done / GAME_FILE).write_text(json.dumps(_entry(0).to_dict()))
    half = game_folder(tmp_path, 1)
    half.mkdir()
    (half / "messages.daide").write_text("1 observer in HLO\n")
    broken = game_folder(tmp_path, 2)
    broken.mkdir()
    (broken / GAME_FILE).write_text("{not json")
    kept = prepare(tmp_path, _settings(), 3)
    assert list(kept) == [0] and kept[0] == _entry(0)
    assert done.exists() and not half.exists() and not broken.exists()
    with pytest.raises(TournamentError, match="other settings"):
        prepare(tmp_path, _settings(final_year=1903), 3)


def test_resuming_with_other_flags_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    prepare(tmp_path, _settings(), 2)
    assert main(["tournament", "--out", str(tmp_path), "--final-year", "1905"]) == 2
    assert "holds a tournament with --final-year 1902" in capsys.readouterr().err
    assert main(["tournament", "--out", str(tmp_path), "--lineup", "random"]) == 2
    assert "another lineup" in capsys.readouterr().err
    assert main(["tournament", "--lineup", "dumbbot", "--out", str(tmp_path / "new")]) == 2
    assert "--games is needed" in capsys.readouterr().err


@pytest.mark.slow
def test_a_game_whose_seat_leaves_before_the_start_fails_fast_and_is_tried_again(
    tmp_path: Path,
) -> None:
    """A seat that exits at once (as BANDANA's DumbBot does when its NME goes unanswered)."""
    quitter = f"{sys.executable} -c pass"
    settings = TournamentSettings(
        seats=parse_lineup(f"quitter=cmd:{quitter}", fill="random"),
        final_year=1901,
        deadlines=Deadlines(2, 1, 1),
    )
    began = time.monotonic()
    notes = io.StringIO()
    result = run_tournament(settings, tmp_path / "t", 1, stream=notes)
    assert "did not start" in notes.getvalue() and "playing it again" in notes.getvalue()
    assert time.monotonic() - began < settings.game_config(0, None).time_limit() / 2
    assert result.failures == {0: result.failures[0]}
    assert "quitter left before the game started" in result.failures[0]
    assert not (game_folder(tmp_path / "t", 0) / GAME_FILE).exists()


@pytest.mark.slow
def test_rotated_powers_give_every_seat_the_next_power_each_game(tmp_path: Path) -> None:
    """``--powers rotate``: each seat gets the power its slot names, in the server's order."""
    out = tmp_path / "rot"
    code = main(
        [
            "tournament", "--games", "2", "--lineup", "a=dumbbot,b=random", "--fill", "dumbbot",
            "--final-year", "1901", "--mtl", "2", "--rtl", "1", "--btl", "1", "--seed", "4",
            "--powers", "rotate", "--out", str(out),
        ]
    )  # fmt: skip
    assert code == 0
    settings = json.loads((out / "tournament.json").read_text())["settings"]
    assert settings["powers"] == "rotate"
    order = sorted(POWERS)  # the server's token order for the standard map
    seats = [s["name"] for s in settings["lineup"]]
    for k in range(2):
        entry = json.loads((game_folder(out, k) / GAME_FILE).read_text())
        slots = rotated_slots(k, 7, 4)
        expected = {seat: order[slots[i]] for i, seat in enumerate(seats)}
        assert entry["seat_powers"] == expected, (k, entry["seat_powers"])
    markdown = (out / "results.md").read_text()
    assert "powers rotated" in markdown and "a - dumbbot: " in markdown


def test_rotated_powers_are_kept_with_the_settings_and_need_parlance(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    rotated = TournamentSettings(
        parse_lineup("dumbbot"), 1902, Deadlines(3, 1, 1), seed=1, powers="rotate"
    )
    assert TournamentSettings.from_dict(rotated.as_dict()) == rotated
    assert rotated.game_config(3, None).power_slots == rotated_slots(3, 7, 1)
    assert _settings().game_config(3, None).power_slots is None
    with pytest.raises(TournamentError, match="powers must be one of"):
        TournamentSettings(parse_lineup("dumbbot"), 1902, Deadlines(3, 1, 1), powers="fair")
    args = ["tournament", "--games", "1", "--lineup", "dumbbot", "--powers", "rotate"]
    assert main([*args, "--server", "mila", "--out", str(tmp_path / "m")]) == 2
    assert "needs Parlance" in capsys.readouterr().err
    prepare(tmp_path / "r", rotated, 1)
    assert main(["tournament", "--out", str(tmp_path / "r"), "--powers", "random"]) == 2
    assert "holds a tournament with --powers rotate" in capsys.readouterr().err


@pytest.mark.parametrize("seed", [None, 1, 2026])
def test_each_block_of_rotated_games_is_a_latin_square(seed: int | None) -> None:
    """Every seat plays every power once per block of seven; every game deals every power."""
    blocks = [[rotated_slots(7 * b + r, 7, seed) for r in range(7)] for b in range(3)]
    for square in blocks:
        for game in square:
            assert sorted(game) == list(range(7))
        for seat in range(7):
            assert sorted(game[seat] for game in square) == list(range(7))
    # The same seed deals the same; the blocks differ, and so do the seats' neighbours.
    assert blocks[0][0] == rotated_slots(0, 7, seed)
    assert blocks[0] != blocks[1]
    pairs = {(game[0], game[1]) for square in blocks for game in square}
    assert len(pairs) > 7


def test_a_tournament_starts_in_an_empty_folder_only(tmp_path: Path) -> None:
    from bot.cli import UserError
    from bot.commands.game import fresh_folder

    start = tmp_path / "next"
    start.mkdir()
    assert fresh_folder(start, "tournament") == start
    (start / "notes.txt").write_text("mine")
    with pytest.raises(UserError, match="not an empty folder"):
        fresh_folder(start, "tournament")
