"""``daide-mcts view`` of a run folder whose files are not what they should be: one line, exit 2.

The command runs as the user runs it (a subprocess); a FIFO in place of a file
must not hang it, and a huge line must not cost memory out of proportion.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.bot.view.scripted_game import write_run_folder

ROOT = Path(__file__).resolve().parents[3]
CLI_TIMEOUT = 60.0
MAX_RSS_KB = 250_000
"""A refused run folder costs the command no more than this much memory (it reads no line whole)."""


def run_view(folder: Path) -> subprocess.CompletedProcess[str]:
    """``daide-mcts view FOLDER`` (it stops on its own when the folder is refused)."""
    return subprocess.run(
        [sys.executable, "-m", "bot.cli", "view", str(folder)],
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=CLI_TIMEOUT,
    )


def _summary(text: str) -> Callable[[Path], None]:
    def write(folder: Path) -> None:
        (folder / "summary.json").write_text(text)

    return write


def _fifo(name: str) -> Callable[[Path], None]:
    def make(folder: Path) -> None:
        (folder / name).unlink()
        os.mkfifo(folder / name)

    return make


def _folder(name: str) -> Callable[[Path], None]:
    def make(folder: Path) -> None:
        (folder / name).unlink()
        (folder / name).mkdir()

    return make


def _long_line(folder: Path) -> None:
    with open(folder / "messages.daide", "a") as fh:
        fh.write("1800000001.000 observer in NOW ( SPR 1902 ) " + "( " * 10_000_000 + "\n")


BROKEN: list[tuple[str, Callable[[Path], None], str]] = [
    ("players-not-objects", _summary('{"players": [1, 2]}'), "summary.json: players.0: Input"),
    ("players-a-string", _summary('{"players": "FRA"}'), "summary.json: players: Input should be"),
    ("label-infinity", _summary('{"players": [{"seat": "a", "label": Infinity}]}'), "Infinity"),
    ("huge-number", _summary('{"players": [], "seconds": 1e400}'), "1e400 is too large"),
    ("summary-a-list", _summary("[]"), "summary.json: a JSON list, not an object"),
    ("summary-fifo", _fifo("summary.json"), "summary.json is a FIFO, not a regular file"),
    ("summary-folder", _folder("summary.json"), "summary.json is a folder, not a regular file"),
    ("messages-fifo", _fifo("messages.daide"), "messages.daide is a FIFO, not a regular file"),
    ("messages-folder", _folder("messages.daide"), "messages.daide is a folder, not a regular"),
    ("long-line", _long_line, "messages.daide: line 67 is longer than 262144 bytes"),
]  # fmt: skip


@pytest.mark.timeout(CLI_TIMEOUT * 2)
@pytest.mark.parametrize(("name", "breaks", "message"), BROKEN, ids=[b[0] for b in BROKEN])
def test_a_broken_run_folder_is_one_line_and_exit_2(
    tmp_path: Path, name: str, breaks: Callable[[Path], None], message: str
) -> None:
    folder = tmp_path / "run"
    write_run_folder(folder)
    breaks(folder)
    proc = run_view(folder)
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr
    assert proc.stderr.count("\n") == 1 and proc.stderr.startswith("daide-mcts view: error: ")
    assert message in proc.stderr, proc.stderr
    assert str(folder) in proc.stderr


@pytest.mark.timeout(CLI_TIMEOUT * 2)
def test_a_huge_line_costs_no_memory(tmp_path: Path) -> None:
    """The command's peak memory, measured by a parent that has no other child."""
    folder = tmp_path / "run"
    write_run_folder(folder)
    _long_line(folder)
    measure = (
        "import resource, subprocess, sys\n"
        "proc = subprocess.run(sys.argv[1:], capture_output=True, timeout=60)\n"
        "print(proc.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
    )
    argv = [sys.executable, "-c", measure, sys.executable, "-m", "bot.cli", "view", str(folder)]
    done = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=CLI_TIMEOUT)
    code, peak_kb = (int(x) for x in done.stdout.split())
    assert code == 2
    assert peak_kb < MAX_RSS_KB, f"{peak_kb} kB"


def test_a_run_folder_without_a_summary_is_shown_with_the_servers_names(tmp_path: Path) -> None:
    from bot.view.sources import load_run

    folder = tmp_path / "run"
    write_run_folder(folder)
    assert load_run(folder).players["FRA"] == "france-bot (scripted)"
    (folder / "summary.json").unlink()
    assert load_run(folder).players["FRA"] == "france-bot"  # the server's SMR names it
