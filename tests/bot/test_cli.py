"""The ``daide-mcts`` console command: help for the command and every subcommand."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli import BROKEN_PIPE_EXIT, COMMANDS, build_parser

SCRIPT = Path(sys.executable).with_name("daide-mcts")
NAMES = [name.rsplit(".", 1)[1] for name in COMMANDS]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    assert SCRIPT.exists(), f"the console script is not installed next to {sys.executable}"
    return subprocess.run([str(SCRIPT), *args], capture_output=True, text=True, timeout=120)


def test_help_lists_every_subcommand() -> None:
    proc = _run("--help")
    assert proc.returncode == 0, proc.stderr
    for name in NAMES:
        assert name in proc.stdout
    assert "Traceback" not in proc.stderr


def test_no_subcommand_prints_help_and_fails() -> None:
    proc = _run()
    assert proc.returncode == 2
    assert "usage: daide-mcts" in proc.stdout


@pytest.mark.parametrize("name", NAMES)
def test_every_subcommand_has_help(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        build_parser().parse_args([name, "--help"])
    assert info.value.code == 0
    assert f"daide-mcts {name}" in capsys.readouterr().out


def test_an_unknown_subcommand_is_a_usage_error() -> None:
    proc = _run("no-such-command")
    assert proc.returncode == 2
    assert "invalid choice" in proc.stderr and "Traceback" not in proc.stderr


def test_play_takes_the_field_book_it_keeps(tmp_path: Path) -> None:
    from bot.commands.play import settings_from_args

    book = tmp_path / "openings.json"
    args = build_parser().parse_args(["play", "--strategy", "mcts:db", "--openings", str(book)])
    assert settings_from_args(args).openings == book
    assert settings_from_args(build_parser().parse_args(["play"])).openings is None


def test_a_reader_that_goes_away_ends_the_command_quietly(tmp_path: Path) -> None:
    """``daide-mcts openings BOOK | head -1``: no traceback when the pipe closes early."""
    from search.openings import FieldBook
    from tests.search.boards import M, dumbbot_game

    book = FieldBook.empty(M.name)
    for seed in range(4):
        book = book.with_game(dumbbot_game(seed, 1))
    path = tmp_path / "openings.json"
    path.write_text(json.dumps(book.to_data(M)))
    assert SCRIPT.exists()
    proc = subprocess.Popen(
        [str(SCRIPT), "openings", str(path)], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # before the command has written anything
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == BROKEN_PIPE_EXIT, err
    assert "Traceback" not in err and "Exception ignored" not in err, err
