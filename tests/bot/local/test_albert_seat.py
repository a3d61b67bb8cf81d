"""Albert 5.5 as a seat: the spec, the up-front checks, the command lines, the seat's prefix.

Albert's files are not part of the project, and Wine is a large system
install, so these tests need neither: they check the seat's command lines
and the checks that run before a game (each failure one line, naming what is
missing and how to get it).  A game with the real Albert is a documented
command (docs/albert.md), not a test.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from bot.cli import main
from bot.local.albert_seat import (
    ALBERT_DIR_ENV,
    ALBERT_FILES,
    AlbertInstall,
    AlbertUnavailableError,
    albert_command,
    albert_dir_from,
    copy_prefix,
    wine_env,
)
from bot.local.albert_seat import main as seat_main
from bot.local.launch import seat_argv
from bot.local.lineup import LineupError, build_lineup, parse_lineup, parse_seat
from bot.servers.wine import APT_LINE, WINE_PROGRAMS, missing_wine_programs


def _albert_folder(tmp_path: Path, files: tuple[str, ...] = ALBERT_FILES) -> Path:
    folder = tmp_path / "albert55"
    folder.mkdir()
    for name in files:
        (folder / name).write_bytes(b"MZ")
    return folder


def _installed(name: str) -> str | None:
    return f"/usr/bin/{name}"


def _nothing(_: str) -> str | None:
    return None


def test_albert_is_a_seat_kind() -> None:
    assert parse_seat("albert") == (None, "albert", "albert")
    assert parse_seat(" Albert ") == (None, "albert", "albert")
    assert parse_seat("strong=albert") == ("strong", "albert", "albert")
    seats = parse_lineup("mcts,albert,albert")
    assert [(s.kind, s.name, s.label) for s in seats[1:3]] == [
        ("albert", "albert-1", "albert"),
        ("albert", "albert-2", "albert"),
    ]
    assert [s.kind for s in seats[3:]] == ["ours"] * 4


def test_albert_and_bandana_cannot_share_a_table() -> None:
    with pytest.raises(LineupError, match="cannot share a table"):
        parse_lineup("mcts,albert,bandana:dbrane")


def test_albert_start_line() -> None:
    assert albert_command(Path("/opt/albert55"), "127.0.0.1", 16713) == [
        "xvfb-run", "-a", "-s", "-screen 0 800x600x16",
        "wine", "/opt/albert55/Albert.exe", "-t", "-n", "-i127.0.0.1", "-p16713",
    ]  # fmt: skip


def test_albert_with_press_drops_never_ally() -> None:
    assert albert_command(Path("/opt/albert55"), "127.0.0.1", 16713, press=True) == [
        "xvfb-run", "-a", "-s", "-screen 0 800x600x16",
        "wine", "/opt/albert55/Albert.exe", "-t", "-i127.0.0.1", "-p16713",
    ]  # fmt: skip


def test_albert_press_is_its_own_seat_and_label() -> None:
    assert parse_seat("albert:press") == (None, "albert", "albert:press")
    assert parse_seat("Albert:Press") == (None, "albert", "albert:press")
    seats = parse_lineup("mcts,albert:press,albert")
    assert [(s.label, s.name, s.spec) for s in seats[1:3]] == [
        ("albert:press", "albert-press", "albert:press"),
        ("albert", "albert", "albert"),
    ]
    with pytest.raises(LineupError, match="albert"):
        parse_seat("albert:loud")


def test_the_press_seat_passes_press_to_the_seat_process(tmp_path: Path) -> None:
    folder = _albert_folder(tmp_path)
    albert = AlbertInstall.locate(folder, missing_programs=lambda: "", template=tmp_path / "t")
    plain, loud = build_lineup(["albert", "albert:press"] * 3 + ["mcts"])[:2]
    argvs = [
        seat_argv(s, "h", 1, final_year=1905, parlance=None, log_dir=tmp_path, albert=albert)
        for s in (plain, loud)
    ]
    assert "--press" not in argvs[0]
    assert argvs[1][-1] == "--press"


def test_wine_env_gives_the_seat_its_prefix_and_silences_wine() -> None:
    env = wine_env(Path("/runs/g/bots/albert/prefix"), {"PATH": "/usr/bin", "WINEDEBUG": "+all"})
    assert env["WINEPREFIX"] == "/runs/g/bots/albert/prefix"
    assert env["WINEDEBUG"] == "-all"
    assert env["PATH"] == "/usr/bin"
    assert "mscoree" in env["WINEDLLOVERRIDES"]


def test_the_seat_argv_runs_the_seat_process_with_a_prefix_in_the_seat_folder(
    tmp_path: Path,
) -> None:
    folder = _albert_folder(tmp_path)
    template = tmp_path / "template"
    albert = AlbertInstall.locate(folder, missing_programs=lambda: "", template=template)
    (seat,) = build_lineup(["albert"] * 7)[:1]
    seat_dir = tmp_path / "run" / "bots" / seat.name
    argv = seat_argv(
        seat, "127.0.0.1", 4000, final_year=1905, parlance=None, log_dir=seat_dir, albert=albert
    )
    assert argv == [
        sys.executable, "-m", "bot.local.albert_seat",
        "--folder", str(folder.resolve()),
        "--template", str(template.resolve()),
        "--prefix", str(seat_dir.resolve() / "prefix"),
        "--host", "127.0.0.1",
        "--port", "4000",
    ]  # fmt: skip


def test_an_albert_seat_without_its_install_is_refused() -> None:
    (seat,) = build_lineup(["albert"] * 7)[:1]
    with pytest.raises(ValueError, match="--albert-dir"):
        seat_argv(seat, "127.0.0.1", 4000, final_year=1905, parlance=None, log_dir=Path("x"))


def test_the_folder_comes_from_the_flag_then_the_environment(tmp_path: Path) -> None:
    assert albert_dir_from(tmp_path, {ALBERT_DIR_ENV: "/elsewhere"}) == tmp_path
    assert albert_dir_from(None, {ALBERT_DIR_ENV: "/elsewhere"}) == Path("/elsewhere")
    assert albert_dir_from(None, {}) is None


@pytest.mark.parametrize(
    ("files", "names"),
    [
        (("Albert.exe",), ["cspdll.dll is not in"]),
        (("cspdll.dll",), ["Albert.exe is not in"]),
        ((), ["Albert.exe and cspdll.dll are not in"]),
    ],
)
def test_a_missing_file_is_one_line_naming_it(
    tmp_path: Path, files: tuple[str, ...], names: list[str]
) -> None:
    folder = _albert_folder(tmp_path, files)
    with pytest.raises(AlbertUnavailableError) as info:
        AlbertInstall.locate(folder, missing_programs=lambda: "")
    message = str(info.value)
    assert "\n" not in message
    for name in names:
        assert name in message


def test_no_folder_says_where_albert_comes_from_and_how_to_name_it() -> None:
    with pytest.raises(AlbertUnavailableError) as info:
        AlbertInstall.locate(None, missing_programs=lambda: "")
    message = str(info.value)
    assert "\n" not in message
    assert "bpodgursky/victorybot" in message
    assert "--albert-dir" in message and ALBERT_DIR_ENV in message


def test_a_folder_that_is_not_one_is_refused(tmp_path: Path) -> None:
    with pytest.raises(AlbertUnavailableError, match="is not a folder"):
        AlbertInstall.locate(tmp_path / "nowhere", missing_programs=lambda: "")


def test_missing_wine_gives_the_apt_line(tmp_path: Path) -> None:
    folder = _albert_folder(tmp_path)
    with pytest.raises(AlbertUnavailableError) as info:
        AlbertInstall.locate(folder, missing_programs=lambda: missing_wine_programs(_nothing))
    message = str(info.value)
    assert "\n" not in message
    assert APT_LINE in message
    assert "apt-get install -y wine wine32:i386 xvfb xauth" in message
    for program in WINE_PROGRAMS:
        assert program in message


def test_missing_wine_programs_names_only_the_missing_ones(tmp_path: Path) -> None:
    loader = tmp_path / "wine32"
    loader.write_bytes(b"")
    assert missing_wine_programs(_installed, loader) == ""
    only_xvfb = missing_wine_programs(
        lambda n: None if n == "xvfb-run" else f"/usr/bin/{n}", loader
    )
    assert only_xvfb.startswith("xvfb-run not found:")
    no_wine32 = missing_wine_programs(_installed, tmp_path / "absent")
    assert "32-bit Wine" in no_wine32 and APT_LINE in no_wine32


def test_the_seat_prefix_links_the_template_and_copies_the_registry(tmp_path: Path) -> None:
    template = tmp_path / "template"
    (template / "drive_c" / "windows").mkdir(parents=True)
    (template / "drive_c" / "windows" / "kernel32.dll").write_bytes(b"dll")
    (template / "system.reg").write_text("WINE REGISTRY")
    (template / "dosdevices").mkdir()
    (template / "dosdevices" / "c:").symlink_to("../drive_c")
    copy_prefix(template, tmp_path / "seat")
    dll = tmp_path / "seat" / "drive_c" / "windows" / "kernel32.dll"
    reg = tmp_path / "seat" / "system.reg"
    assert os.path.samefile(dll, template / "drive_c" / "windows" / "kernel32.dll")
    assert reg.read_text() == "WINE REGISTRY"
    assert not os.path.samefile(reg, template / "system.reg")
    assert os.readlink(tmp_path / "seat" / "dosdevices" / "c:") == "../drive_c"


def test_the_seat_process_refuses_an_uninitialised_prefix(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    template = tmp_path / "template"
    template.mkdir()
    args = ["--folder", str(tmp_path), "--template", str(template), "--prefix", str(tmp_path / "p")]
    assert seat_main([*args, "--host", "127.0.0.1", "--port", "1"]) == 2
    assert "not an initialised Wine prefix" in capsys.readouterr().err
    assert not (tmp_path / "p").exists()


@pytest.mark.parametrize("command", ["game", "tournament"])
def test_the_commands_report_a_missing_albert_in_one_line(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = _albert_folder(tmp_path, ("Albert.exe",))
    extra = ["--games", "1"] if command == "tournament" else []
    out = tmp_path / "run"
    code = main(
        [command, "--lineup", "mcts,albert", "--albert-dir", str(folder), "--out", str(out), *extra]
    )
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1
    assert f"--albert-dir: cspdll.dll is not in {folder}" in err
    assert not out.exists() or not any(out.iterdir())


def test_the_albert_command_without_a_folder_fails_in_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv(ALBERT_DIR_ENV, raising=False)
    assert main(["albert"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    # Wine missing is reported first (with the apt line); else the missing folder.
    assert APT_LINE in err or "--albert-dir" in err
