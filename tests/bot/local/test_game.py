"""``daide-mcts game`` end to end: a real server, seven real bot processes, the saved record.

The lineups are explicit (no MCTS), short (to 1902) and the deadlines short;
what is checked is the behaviour: the record, the table and the chart.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from argparse import Namespace
from pathlib import Path

import pytest

from bot.cli import UserError, main
from bot.commands.game import PLAIN_STANDARD, seats_from_args
from bot.measure.metrics import POINTS_BY_SURVIVORS
from bot.servers.parlance_maps import ServedMap
from bot.view.colours import POWER_COLOURS
from tests.bot.local.games import ROOT, run_cli
from tests.bot.local.pngread import png_size_and_colours

POWERS = {"AUS", "ENG", "FRA", "GER", "ITA", "RUS", "TUR"}


@pytest.mark.slow
def test_a_local_game_end_to_end(tmp_path: Path) -> None:
    """Our bots, a Parang bot and an external command play to 1902; everything is saved."""
    out = tmp_path / "run"
    external = (
        f"{sys.executable} -m bot.cli play --host {{host}} --port {{port}} --name {{name}}"
        f" --strategy dumbbot --log-level error"
    )
    lineup = f"dumbbot,random,parang,ext=cmd:{external}"
    proc = run_cli(
        "game", "--lineup", lineup, "--final-year", "1902",
        "--mtl", "4", "--rtl", "2", "--btl", "2", "--seed", "11", "--out", str(out),
    )  # fmt: skip
    assert proc.returncode == 0, proc.stdout + proc.stderr
    stdout = proc.stdout

    # the live view (plain lines, as stdout is not a terminal) and the result table
    assert re.search(r"Parlance 1\.4\.1 on 127\.0\.0\.1:\d+", stdout)
    assert re.search(r"WIN 1902\s+game over: DRW\s+\[#{30}\] 100%", stdout)
    assert "Result: DRW at WIN 1902" in stdout
    table = (out / "result.txt").read_text()
    assert table.strip() in stdout
    names = ["dumbbot-1", "random", "parang", "ext", "dumbbot-2", "dumbbot-3", "dumbbot-4"]
    rows = [line for line in table.splitlines() if line.split()[:1] and line.split()[0] in names]
    assert len(rows) == 7

    # the JSON summary: seven players on seven powers, scored
    summary = json.loads((out / "summary.json").read_text())
    assert summary["ended_cleanly"] is True and summary["result"] == "DRW"
    assert summary["end"] == "WIN 1902" and summary["server"] == "Parlance 1.4.1"
    players = {p["seat"]: p for p in summary["players"]}
    assert set(players) == set(names)
    assert {p["power"] for p in players.values()} == POWERS
    survivors = sum(1 for p in players.values() if p["centres"] > 0)
    for p in players.values():
        assert p["points"] == (POINTS_BY_SURVIVORS[survivors] if p["centres"] else 0)
        assert p["solo"] is False
    # our bots' own summaries agree on who played which power and with how many centres
    for name in ("dumbbot-1", "random", "dumbbot-4"):
        bot = summary["bots"][name]
        assert bot["power"] == players[name]["power"], name
        assert bot["centres"] == players[name]["centres"], name
        assert bot["ended_cleanly"] is True
    assert summary["record"]["years"] == [1900, 1901, 1902]

    # the SCO of each year; the last one gives the final centres
    sco_lines = (out / "sco.txt").read_text().splitlines()
    assert [line.split()[0] for line in sco_lines] == ["1900", "1901", "1902"]
    final = sco_lines[-1].split(" ", 1)[1]
    for p in players.values():
        owned = re.search(rf"\( {p['power']} ([A-Z ]*?) \)", final)
        assert (len(owned.group(1).split()) if owned else 0) == p["centres"], p

    # every message the observer sent and received
    messages = (out / "messages.daide").read_text().splitlines()
    assert all(re.match(r"^\d+\.\d{3} observer (in|out) [A-Z]{3}", m) for m in messages)
    texts = [m.split(" ", 3)[2:] for m in messages]
    for direction, start in [
        ("out", "OBS"), ("in", "HLO"), ("in", "NOW ( SPR 1901 )"), ("in", "ORD ( FAL 1902 )"),
        ("in", "SCO"), ("in", "DRW"), ("in", "SMR ( "),
    ]:  # fmt: skip
        assert any(d == direction and t.startswith(start) for d, t in texts), start
    # and our bots' own records hold every message they sent
    record = next((out / "bots" / "random").glob("*.jsonl")).read_text()
    assert '"dir": "out", "text": "SUB' in record

    # the chart: a real PNG with a line in each power's colour
    size, colours = png_size_and_colours(out / "centres.png")
    assert size == (960, 540)
    assert set(POWER_COLOURS.values()) <= colours


def _without_python2(tmp_path: Path) -> dict[str, str]:
    """The environment of a machine where no Python 2.7 can be found."""
    path = [
        d
        for d in os.environ.get("PATH", "").split(os.pathsep)
        if d and not any(Path(d, n).exists() for n in ("python2", "python2.7"))
    ]
    env = {k: v for k, v in os.environ.items() if k != "DAIDE_PYTHON2"}
    env.update(PATH=os.pathsep.join(path), PYENV_ROOT=str(tmp_path / "no-pyenv"))
    env["PYTHONUNBUFFERED"] = "1"
    return env


@pytest.mark.slow
@pytest.mark.mila
def test_without_python2_the_game_falls_back_to_mila_and_says_so(tmp_path: Path) -> None:
    out = tmp_path / "run"
    env = _without_python2(tmp_path)
    assert shutil.which("python2.7", path=env["PATH"]) is None
    proc = run_cli(
        "game", "--lineup", "dumbbot", "--final-year", "1901", "--mtl", "4", "--out", str(out),
        env=env,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "falling back to MILA's DAIDE server" in proc.stdout
    summary = json.loads((out / "summary.json").read_text())
    assert summary["server"].startswith("MILA") and summary["ended_cleanly"] is True
    assert {p["power"] for p in summary["players"]} == POWERS
    messages = (out / "messages.daide").read_text()
    assert " dumbbot-1 in HLO " in messages and " dumbbot-1 in SMR " in messages


WITHOUT_MILA = (
    "import runpy, sys; "
    "sys.modules['diplomacy'] = None; "  # what Python does for a package that is not installed
    "runpy.run_module('bot.cli', run_name='__main__')"
)


def test_without_python2_or_the_mila_extra_the_game_names_the_extra(tmp_path: Path) -> None:
    """The fallback's package is an extra: the one line of the error says which."""
    out = tmp_path / "run"
    proc = subprocess.run(
        [sys.executable, "-c", WITHOUT_MILA, "game", "--lineup", "dumbbot", "--out", str(out)],
        cwd=ROOT,
        env=_without_python2(tmp_path),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "falling back to MILA's DAIDE server" in proc.stdout
    assert proc.stderr.strip().splitlines() == [
        "daide-mcts game: error: MILA's DAIDE server needs the mila extra, which is not "
        "installed: pip install 'daide-mcts[mila]'"
    ]


@pytest.mark.slow
def test_parang_needs_python2_and_the_game_says_so(tmp_path: Path) -> None:
    proc = run_cli(
        "game", "--lineup", "parang", "--final-year", "1901", "--out", str(tmp_path / "r"),
        env=_without_python2(tmp_path),
    )  # fmt: skip
    assert proc.returncode == 2
    assert "Parang's bots (parang) need Parlance's Python 2.7" in proc.stderr
    assert "Traceback" not in proc.stderr


@pytest.mark.parametrize(
    ("args", "complaint"),
    [
        (["--lineup", "dumbot"], "unknown player"),
        (["--lineup", ",".join(["dumbbot"] * 8)], "8 seats"),
        (["--mtl", "0"], "--mtl must be between 1 and 3600"),
        (["--final-year", "1800"], "--final-year must be between 1901"),
        (["--telemetry", "http://x"], "mqtt://"),
    ],
)
def test_bad_flags_are_one_line_errors(
    args: list[str], complaint: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["game", *args, "--out", str(tmp_path / "r")]) == 2
    err = capsys.readouterr().err
    assert complaint in err and err.count("\n") == 1


def test_a_used_run_folder_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "old").mkdir()
    (tmp_path / "old" / "summary.json").write_text("{}")
    assert main(["game", "--lineup", "dumbbot", "--out", str(tmp_path / "old")]) == 2
    assert "is not an empty folder" in capsys.readouterr().err


def test_the_default_lineup_is_one_mcts_bot_and_six_dumbbots() -> None:
    seats = seats_from_args(Namespace(lineup=None, fill="dumbbot"), PLAIN_STANDARD)
    assert [s.label for s in seats] == ["mcts"] + ["dumbbot"] * 6
    assert all(s.kind == "ours" for s in seats)
    with pytest.raises(UserError, match="no MCTS variant"):
        seats_from_args(Namespace(lineup="mcts:v99", fill="dumbbot"), PLAIN_STANDARD)


def test_a_variant_has_one_seat_per_power() -> None:
    world = ServedMap("world3", 1901, tuple(f"P{i:02d}" for i in range(17)))
    seats = seats_from_args(Namespace(lineup="mcts,random", fill="dumbbot"), world)
    assert [s.spec for s in seats] == ["mcts", "random"] + ["dumbbot"] * 15
    three = ServedMap("hundred3", 1425, ("BUR", "ENG", "FRA"))
    with pytest.raises(UserError, match="4 seats given; the map has 3 powers"):
        seats_from_args(Namespace(lineup="mcts,mcts,mcts,mcts", fill="dumbbot"), three)


def test_an_unknown_map_is_refused_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["game", "--map", "atlantis", "--lineup", "dumbbot"]) == 2
    err = capsys.readouterr().err
    assert "no map called 'atlantis'" in err and "world3" in err
    assert len(err.strip().splitlines()) == 1


@pytest.mark.slow
def test_a_local_game_on_a_variant(tmp_path: Path) -> None:
    """``--map hundred3``: three seats (ours, random and a Parang bot), the map's own years."""
    out = tmp_path / "run"
    proc = run_cli(
        "game", "--map", "hundred3", "--lineup", "mcts,random,parang",
        "--mtl", "2", "--rtl", "1", "--btl", "1", "--final-year", "1426", "--seed", "3",
        "--out", str(out),
    )  # fmt: skip
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Result: DRW at WIN 1426" in proc.stdout or "Result: SLO" in proc.stdout, proc.stdout
    summary = json.loads((out / "summary.json").read_text())
    assert summary["ended_cleanly"] is True
    players = {p["seat"]: p for p in summary["players"]}
    assert set(players) == {"mcts", "random", "parang"}
    assert {p["power"] for p in players.values()} == {"BUR", "ENG", "FRA"}
    assert summary["record"]["years"][0] == 1424
    assert summary["bots"]["mcts"]["ended_cleanly"] is True


def test_a_press_level_is_one_daide_knows(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["game", "--level", "15"])
    assert exited.value.code == 2
    assert "--level" in capsys.readouterr().err
