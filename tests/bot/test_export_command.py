"""``daide-mcts export`` given what it cannot export or read: one line, exit 2, no traceback."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.cli import main
from tests.bot.view.scripted_game import write_run_folder

ROOT = Path(__file__).resolve().parents[2]
CLI_TIMEOUT = 60.0

VARIANT_MDF = "MDF ( ENG ) ( ( ( ENG LON ) ) ( ) ) ( ( LON ( AMY ) ) )"
"""A one-province variant: a record of a game on it names only its own powers and provinces."""


def _variant_game(folder: Path) -> None:
    lines = [
        'MAP ( "tiny" )',
        VARIANT_MDF,
        "HLO ( UNO ) ( 0 ) ( ( LVL 0 ) ( MTL 5 ) )",
        "SCO ( ENG LON )",
        "NOW ( SPR 1901 ) ( ENG AMY LON )",
    ]
    text = "".join(f"{1.0 + i:.3f} observer in {line}\n" for i, line in enumerate(lines))
    (folder / "messages.daide").write_text(text)


def _edit_messages(old: str, new: str) -> Callable[[Path], None]:
    def edit(folder: Path) -> None:
        path = folder / "messages.daide"
        text = path.read_text()
        assert old in text
        path.write_text(text.replace(old, new, 1))

    return edit


def _remove(name: str) -> Callable[[Path], None]:
    def remove(folder: Path) -> None:
        (folder / name).unlink()

    return remove


def _fifo(folder: Path) -> None:
    (folder / "messages.daide").unlink()
    os.mkfifo(folder / "messages.daide")


def _without_englands_orders(folder: Path) -> None:
    """As on MILA's DAIDE server, which tells each player only its own ORD lines."""
    lines = (folder / "messages.daide").read_text().splitlines()
    kept = [x for x in lines if " ORD ( SPR 1901 ) ( ( ENG " not in x]
    assert len(kept) == len(lines) - 3
    (folder / "messages.daide").write_text("\n".join(kept) + "\n")


def _corrupt_summary(folder: Path) -> None:
    (folder / "summary.json").write_text("[1")


def _tournament(folder: Path) -> None:
    (folder / "messages.daide").unlink()
    (folder / "tournament.json").write_text("{}")


def _no_now(folder: Path) -> None:
    lines = (folder / "messages.daide").read_text().splitlines()
    (folder / "messages.daide").write_text("\n".join(x for x in lines if " NOW " not in x) + "\n")


BROKEN_FOLDERS: list[tuple[str, Callable[[Path], None], str]] = [
    ("no-messages", _remove("messages.daide"), "holds no messages.daide: not a run folder"),
    ("a-tournament", _tournament, "is a tournament: give one of its games"),
    ("messages-fifo", _fifo, "messages.daide is a FIFO, not a regular file"),
    ("no-phase", _no_now, "records no phase of a game"),
    ("corrupt-summary", _corrupt_summary, "summary.json: not JSON"),
    (
        "variant-map",
        _variant_game,
        "the game is not on the standard map: MILA's engine plays only its own maps",
    ),
    (
        "an-order-mila-refuses",
        _edit_messages("( FRA AMY PAR ) MTO BUR", "( FRA AMY PAR ) MTO MUN"),
        "at SPR 1901: MILA's engine refuses FRANCE's order 'A MAR S A PAR - MUN'",
    ),
    (
        "a-position-mila-does-not-reach",
        _edit_messages("( ENG AMY YOR ) ( ENG FLT NTH )", "( ENG AMY WAL ) ( ENG FLT NTH )"),
        "at FAL 1901: MILA's engine has ENGLAND with A YOR where the record has A WAL",
    ),
    (
        "orders-missing",
        _without_englands_orders,
        "at FAL 1901: MILA's engine has ENGLAND with A LVP, F EDI, F LON where the record has "
        "A YOR, F NTH, F NWG; the record lacks the orders of ENG (a game on MILA's DAIDE server",
    ),
    (
        "centres-mila-does-not-give",
        _edit_messages("( ENG EDI LON LVP NWY )", "( ENG EDI LON LVP )"),
        "at WIN 1901: MILA's engine gives ENGLAND the centres EDI LON LVP NWY "
        "where the record has EDI LON LVP",
    ),
]  # fmt: skip


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["export", *args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    ("name", "breaks", "message"), BROKEN_FOLDERS, ids=[b[0] for b in BROKEN_FOLDERS]
)
def test_a_run_folder_that_cannot_be_exported_is_one_line(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    name: str,
    breaks: Callable[[Path], None],
    message: str,
) -> None:
    folder = tmp_path / name
    write_run_folder(folder)
    breaks(folder)
    code, out, err = run(capsys, str(folder))
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("daide-mcts export: error: "), err
    assert message in err
    assert not (folder / "mila-game.json").exists()


def test_a_missing_folder_and_an_unwritable_target_are_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, str(tmp_path / "nowhere"))
    assert (
        code == 2 and err == f"daide-mcts export: error: {tmp_path / 'nowhere'} is not a folder\n"
    )
    folder = tmp_path / "game"
    write_run_folder(folder)
    target = tmp_path / "no-such-folder" / "game.json"
    code, _, err = run(capsys, str(folder), "--out", str(target))
    assert code == 2
    assert err == f"daide-mcts export: error: cannot write {target}: No such file or directory\n"


def _saved(folder: Path) -> dict:
    write_run_folder(folder)
    assert main(["export", str(folder)]) == 0
    return json.loads((folder / "mila-game.json").read_text())


def _first_order(saved: dict, text: str) -> dict:
    saved["phases"][0]["orders"]["FRANCE"][0] = text
    return saved


def _phase_name(saved: dict, name: str) -> dict:
    saved["phases"][1]["name"] = name
    return saved


BROKEN_FILES: list[tuple[str, Callable[[dict], object] | str, str]] = [
    ("empty", "", "empty, not a MILA saved game"),
    ("not-json", "{\"id\": ", "not JSON"),
    ("a-list", "[1, 2]", "not a MILA saved game: the top level: Input should be a valid dict"),
    ("no-phases", '{"id": "g", "map": "standard"}', "not a MILA saved game: phases: Field required"),  # noqa: E501
    ("no-played-phase", '{"id": "g", "phases": [{"name": "COMPLETED", "state": {"units": {}, "centers": {}}}]}', "it has no phase"),  # noqa: E501
    ("other-map", lambda s: s | {"map": "pure"}, "a game on MILA's map 'pure': only the standard map is read"),  # noqa: E501
    ("bad-order", lambda s: _first_order(s, "A PAR ~ BUR"), "'A PAR ~ BUR' is not an order in MILA's notation"),  # noqa: E501
    ("bad-province", lambda s: _first_order(s, "A PAR - XYZ"), "'XYZ' is not a province of the standard map"),  # noqa: E501
    ("bad-phase", lambda s: _phase_name(s, "F1901X"), "'F1901X' is not a phase of MILA's"),
    ("bad-power", lambda s: s | {"phases": [s["phases"][0] | {"orders": {"PRUSSIA": []}}]}, "'PRUSSIA' is not a power of the standard map"),  # noqa: E501
]  # fmt: skip


@pytest.mark.parametrize(
    ("name", "content", "message"), BROKEN_FILES, ids=[b[0] for b in BROKEN_FILES]
)
def test_a_file_that_is_not_a_mila_game_is_one_line(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    name: str,
    content: Callable[[dict], object] | str,
    message: str,
) -> None:
    path = tmp_path / f"{name}.json"
    if isinstance(content, str):
        path.write_text(content)
    else:
        path.write_text(json.dumps(content(_saved(tmp_path / "game"))) + "\n")
    capsys.readouterr()
    code, out, err = run(capsys, "--read", str(path))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith(f"daide-mcts export: error: {path}"), err
    assert message in err


def test_several_games_a_line_each_are_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    saved = _saved(tmp_path / "game")
    path = tmp_path / "games.jsonl"
    path.write_text(json.dumps(saved) + "\n" + json.dumps(saved | {"id": "another"}) + "\n")
    capsys.readouterr()
    code, out, _ = run(capsys, "--read", str(path))
    assert code == 0
    assert out.splitlines()[0] == "game 1 of 2: game, 5 phases"
    assert "game 2 of 2: another, 5 phases" in out
    assert "  W1901A  WIN 1901    8 orders  AUS 4 ENG 4 FRA 4 GER 4 ITA 4 RUS 3 TUR 5" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([], "give a run folder to export, or --read FILE"),
        (["somewhere", "--read", "x.json"], "--read takes a MILA file alone"),
    ],
)
def test_usage_errors_are_one_line(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    code, _, err = run(capsys, *args)
    assert code == 2 and err.startswith(f"daide-mcts export: error: {message}")
    assert err.count("\n") == 1


def test_the_command_as_a_user_runs_it_says_one_line(tmp_path: Path) -> None:
    path = tmp_path / "notes.json"
    path.write_text('{"phases": "none"}')
    proc = subprocess.run(
        [sys.executable, "-m", "bot.cli", "export", "--read", str(path)],
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=CLI_TIMEOUT,
    )
    assert proc.returncode == 2
    assert proc.stderr == (
        f"daide-mcts export: error: {path}: not a MILA saved game: "
        "phases: Input should be a valid list\n"
    )


WITHOUT_MILA = (
    "import runpy, sys; "
    "sys.modules['diplomacy'] = None; "  # what Python does for a package that is not installed
    "runpy.run_module('bot.cli', run_name='__main__')"
)


def test_without_the_mila_extra_export_names_it_and_read_needs_none(tmp_path: Path) -> None:
    folder = tmp_path / "game"
    write_run_folder(folder)
    assert main(["export", str(folder), "--out", str(tmp_path / "saved.json")]) == 0

    def without_mila(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-c", WITHOUT_MILA, "export", *args],
            cwd=ROOT,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=CLI_TIMEOUT,
        )

    proc = without_mila(str(folder))
    assert proc.returncode == 2
    assert proc.stderr == (
        "daide-mcts export: error: exporting needs MILA's package, the 'mila' extra "
        "(diplomacy is missing): pip install 'daide-mcts[mila]'\n"
    )
    proc = without_mila("--read", str(tmp_path / "saved.json"))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("game, 5 phases\n")


def test_a_missing_file_or_a_folder_to_read_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, "--read", str(tmp_path / "absent.json"))
    assert code == 2
    assert (
        err == f"daide-mcts export: error: {tmp_path / 'absent.json'}: No such file or directory\n"
    )
    code, _, err = run(capsys, "--read", str(tmp_path))
    assert code == 2
    assert err == f"daide-mcts export: error: {tmp_path} is a folder, not a regular file\n"
