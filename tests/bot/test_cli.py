"""The ``daide-mcts`` console command: help for the command and every subcommand."""

from __future__ import annotations

import importlib.metadata
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli import BROKEN_PIPE_EXIT, COMMANDS, LAB_COMMANDS, build_parser
from bot.servers.ports import free_port

SCRIPT = Path(sys.executable).with_name("daide-mcts")
NAMES = [name.rsplit(".", 1)[1] for name in (*COMMANDS, *LAB_COMMANDS)]


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


# --- --help as plain text ---------------------------------------------------------------

REST_MARKUP = re.compile(r"``|::$|:(?:func|mod|class|meth|data):`", re.MULTILINE)
"""reST that a terminal would print literally: inline literals, literal-block colons, roles."""

JOINED = re.compile(r"\S {3,}(?!#)\S")
"""Two lines run together: a wide gap inside an example that is not before its # comment."""


def _is_example(line: str) -> bool:
    """An example command: indented under the text that introduces it."""
    return line[:1].isspace() and line.lstrip().startswith("daide-mcts ")


def _examples(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if _is_example(line)]


@pytest.mark.parametrize("name", NAMES)
def test_help_is_plain_text_with_one_example_per_line(name: str) -> None:
    proc = _run(name, "--help")
    assert proc.returncode == 0, proc.stderr
    assert not REST_MARKUP.findall(proc.stdout), proc.stdout
    lines = proc.stdout.splitlines()
    for number, line in enumerate(lines):
        if not _is_example(line):
            continue
        assert line.count("daide-mcts ") == 1, line
        assert not JOINED.search(line.split("  #")[0].rstrip()), line
        if line.endswith("\\"):  # a continued command goes on, indented, on the next line
            assert lines[number + 1].startswith(" " * (len(line) - len(line.lstrip()) + 1))


def test_the_tournament_examples_keep_their_lines() -> None:
    examples = _examples(_run("tournament", "--help").stdout)
    assert len(examples) == 5
    assert examples[-1].endswith("--fill bandana:dbrane \\")


def test_the_top_level_help_is_plain_text() -> None:
    proc = _run("--help")
    assert proc.returncode == 0 and not REST_MARKUP.findall(proc.stdout), proc.stdout


# --- the version: the package's metadata, everywhere --------------------------------------


def test_the_version_is_the_installed_package_version() -> None:
    import bot

    assert bot.__version__ == importlib.metadata.version("daide-mcts")
    proc = _run("--version")
    assert proc.returncode == 0
    assert proc.stdout.strip() == f"daide-mcts {importlib.metadata.version('daide-mcts')}"


# --- console logging flags ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "env", "complaint"),
    [
        (["--log-level", "bogus"], {}, "argument --log-level: invalid choice: 'bogus'"),
        (["--log-format", "xml"], {}, "argument --log-format: invalid choice: 'xml'"),
        ([], {"DAIDE_MCTS_LOG_LEVEL": "bogus"}, "log_level: must be one of debug, info"),
        ([], {"DAIDE_MCTS_LOG_FORMAT": "xml"}, "log_format: Input should be 'console' or 'json'"),
        # press "on" (agreements binding the search) lost to "unbound" and was removed
        (["--press", "on"], {}, "argument --press: invalid choice: 'on'"),
        ([], {"DAIDE_MCTS_PRESS": "on"}, "press: Input should be 'off' or 'unbound'"),
    ],
)
def test_a_bad_setting_is_a_one_line_usage_error(
    args: list[str], env: dict[str, str], complaint: str
) -> None:
    proc = subprocess.run(
        [str(SCRIPT), "play", "--port", "1", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, **env},
    )
    assert proc.returncode == 2
    assert complaint in proc.stderr, proc.stderr
    assert "Traceback" not in proc.stderr


def _play_nowhere(*args: str) -> subprocess.CompletedProcess[str]:
    """``play`` against a port nobody listens on: it logs the lost connection, retries, ends."""
    port = free_port()
    return subprocess.run(
        [str(SCRIPT), "play", "--port", str(port), "--strategy", "dumbbot", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "DAIDE_MCTS_RECONNECT_ATTEMPTS": "1"},
    )


def test_log_format_json_writes_structlogs_json_lines() -> None:
    proc = _play_nowhere("--log-format", "json", "--log-level", "WARNING")
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.splitlines()
    records = [json.loads(line) for line in lines[:-1]]  # the last line is the error
    assert lines[-1].startswith("daide-mcts play: error: cannot connect to 127.0.0.1:")
    assert [(r["event"], r["level"]) for r in records] == [("connection lost", "warning")]
    assert records[0]["retry_in"] > 0 and records[0]["timestamp"].endswith("Z")


def test_the_console_format_and_the_level_filter() -> None:
    console = _play_nowhere()
    assert "[warning  ] connection lost" in console.stderr, console.stderr
    quiet = _play_nowhere("--log-level", "error", "--log-format", "json")
    assert quiet.returncode == 2
    assert quiet.stderr.splitlines()[0].startswith("daide-mcts play: error: cannot connect")


@pytest.mark.parametrize(
    ("args", "env", "press"),
    [
        ([], {}, "unbound"),
        (["--press", "off"], {}, "off"),
        (["--press", "unbound"], {"DAIDE_MCTS_PRESS": "off"}, "unbound"),  # the flag wins
        ([], {"DAIDE_MCTS_PRESS": "off"}, "off"),  # how a tournament's seats are told
    ],
)
def test_play_press_comes_from_the_flag_or_the_environment(
    args: list[str], env: dict[str, str], press: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bot.commands.play import settings_from_args

    monkeypatch.delenv("DAIDE_MCTS_PRESS", raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    parsed = build_parser().parse_args(["play", *args])
    assert settings_from_args(parsed).press == press


def test_play_press_refuses_an_unknown_mode(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        build_parser().parse_args(["play", "--press", "maybe"])
    assert "--press" in capsys.readouterr().err
