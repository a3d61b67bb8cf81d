"""The ``daide-mcts`` console command: help for the command and every subcommand."""

from __future__ import annotations

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


def test_a_reader_that_goes_away_ends_the_command_quietly(tmp_path: Path) -> None:
    """``daide-mcts adjudicate < LINES | head -1``: no traceback when the pipe closes early."""
    lines = tmp_path / "lines.jsonl"
    lines.write_text("not json\n" * 20_000)  # one error line out per line in
    assert SCRIPT.exists()
    with lines.open("rb") as given:
        proc = subprocess.Popen(
            [str(SCRIPT), "adjudicate"], stdin=given, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # before the command has written anything
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == BROKEN_PIPE_EXIT, err
    assert "Traceback" not in err and "Exception ignored" not in err, err


def test_the_strategy_help_names_every_variant_and_setting(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from search.mcts.variants import OVERRIDES

    with pytest.raises(SystemExit):
        build_parser().parse_args(["play", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    start = text.index("--strategy STRATEGY, --variant")
    strategy = text[start : text.index("--workers", start)]
    assert "dm" in strategy and "v1 to v8" in strategy
    assert all(key in strategy for key in OVERRIDES), strategy


def test_a_strategy_with_a_bad_setting_is_one_line_of_error() -> None:
    proc = _run("play", "--strategy", "mcts:dm/cq=1", "--port", "1")
    assert proc.returncode == 2, proc.stderr
    assert "unknown MCTS variant setting 'cq=1'" in proc.stderr
    assert "Traceback" not in proc.stderr
