"""BANDANA's bots as seats: specs, locating the jars, unpacking jar-in-jar, the command lines.

BANDANA's own jars are not part of the project (nor of a clean clone), so these
tests run a jar-in-jar of their own, built here with the JDK's ``javac``: an
inner jar holds a class that prints its arguments, and the outer jar's manifest
names it the way Eclipse's jar-in-jar export does (``Rsrc-Main-Class``,
``Rsrc-Class-Path``), as BANDANA's jars do.  A game with the real D-Brane is a
documented command (docs/bandana.md), not a test.
"""

from __future__ import annotations

import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

from bot.cli import main
from bot.local.bandana import (
    BANDANA_BOTS,
    BANDANA_DIR_ENV,
    BandanaInstall,
    BandanaUnavailableError,
    bandana_dir_from,
    read_manifest,
)
from bot.local.launch import seat_argv
from bot.local.lineup import LineupError, parse_lineup, parse_seat

ECHO_SOURCE = """
public class Echo {
    public static void main(String[] args) {
        System.out.println("echo " + String.join(" ", args));
    }
}
"""


def _jar_in_jar(folder: Path, name: str, work: Path) -> Path:
    """``folder/name``: an Eclipse-style jar-in-jar whose inner ``lib.jar`` holds ``Echo``."""
    javac = shutil.which("javac")
    if javac is None:
        pytest.fail("these tests need the JDK's javac (Java 17 is part of the set-up)")
    src = work / "Echo.java"
    src.write_text(ECHO_SOURCE)
    subprocess.run([javac, "-d", str(work), str(src)], check=True, capture_output=True)
    inner = work / "lib.jar"
    with zipfile.ZipFile(inner, "w") as zf:
        zf.write(work / "Echo.class", "Echo.class")
    manifest = (
        "Manifest-Version: 1.0\r\n"
        "Rsrc-Class-Path: ./ lib.ja\r\n r\r\n"  # a continuation line, as Eclipse wraps them
        "Class-Path: .\r\n"
        "Rsrc-Main-Class: Echo\r\n"
        "Main-Class: org.eclipse.jdt.internal.jarinjarloader.JarRsrcLoader\r\n"
    )
    jar = folder / name
    with zipfile.ZipFile(jar, "w") as zf:
        zf.writestr("META-INF/MANIFEST.MF", manifest)
        zf.write(inner, "lib.jar")
    return jar


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("bandana:dbrane", (None, "bandana", "dbrane")),
        ("BANDANA:DumbBot", (None, "bandana", "dumbbot")),
        ("db=bandana:dbrane", ("db", "bandana", "dbrane")),
    ],
)
def test_bandana_seat_specs(text: str, expected: tuple[object, ...]) -> None:
    assert parse_seat(text) == expected


@pytest.mark.parametrize("text", ["bandana", "bandana:", "bandana:albert"])
def test_unknown_bandana_bots_are_refused(text: str) -> None:
    with pytest.raises(LineupError, match="bandana:dbrane or bandana:dumbbot"):
        parse_seat(text)


def test_bandana_seats_get_labels_and_names() -> None:
    seats = parse_lineup("mcts,bandana:dbrane,bandana:dbrane,bandana:dumbbot", fill="dumbbot")
    assert [s.label for s in seats[:4]] == [
        "mcts",
        "bandana:dbrane",
        "bandana:dbrane",
        "bandana:dumbbot",
    ]
    assert [s.name for s in seats[1:4]] == [
        "bandana-dbrane-1",
        "bandana-dbrane-2",
        "bandana-dumbbot",
    ]


def test_the_folder_comes_from_the_flag_then_the_environment() -> None:
    assert bandana_dir_from("/a", {BANDANA_DIR_ENV: "/b"}) == Path("/a")
    assert bandana_dir_from(None, {BANDANA_DIR_ENV: "/b"}) == Path("/b")
    assert bandana_dir_from(None, {}) is None


def test_locating_says_what_is_missing(tmp_path: Path) -> None:
    with pytest.raises(
        BandanaUnavailableError, match="--bandana-dir DIR or set " + BANDANA_DIR_ENV
    ):
        BandanaInstall.locate(None, ("dbrane",))
    with pytest.raises(BandanaUnavailableError, match="is not a folder"):
        BandanaInstall.locate(tmp_path / "nowhere", ("dbrane",))
    with pytest.raises(BandanaUnavailableError, match=r"D-Brane-1\.1\.jar is not in"):
        BandanaInstall.locate(tmp_path, ("dbrane",))
    (tmp_path / "D-Brane-1.1.jar").write_bytes(b"not a zip")
    with pytest.raises(BandanaUnavailableError, match="cannot unpack"):
        BandanaInstall.locate(tmp_path, ("dbrane",), java="java", cache=tmp_path / "cache")


def test_jar_in_jar_is_unpacked_and_runs_with_bandanas_flags(tmp_path: Path) -> None:
    release = tmp_path / "bandana"
    agents = release / "agents"
    agents.mkdir(parents=True)
    work = tmp_path / "work"
    work.mkdir()
    for bot in BANDANA_BOTS.values():
        _jar_in_jar(agents, bot.jar, work)
    assert read_manifest(agents / "DumbBot-1.4.jar")["Rsrc-Class-Path"] == "./ lib.jar"
    # The release folder above agents/ is found too.
    install = BandanaInstall.locate(release, ("dbrane", "dumbbot"), cache=tmp_path / "cache")
    assert install.folder == agents.resolve()
    dbrane = install.command(
        "dbrane", "127.0.0.1", 4000, name="db-1", log_dir=tmp_path / "logs", final_year=1905
    )
    assert dbrane[1:3] == [
        "-cp",
        f"{agents.resolve() / 'D-Brane-1.1.jar'}:{install.launchers['dbrane'].classpath[1]}",
    ]
    out = subprocess.run(dbrane, capture_output=True, text=True, check=True).stdout
    assert (
        out.strip() == f"echo -log {tmp_path / 'logs'} -name db-1 -fy 1905 -ip 127.0.0.1 -port 4000"
    )
    dumbbot = install.command(
        "dumbbot", "localhost", 4001, name="jdb", log_dir=tmp_path / "logs", final_year=1903
    )
    out = subprocess.run(dumbbot, capture_output=True, text=True, check=True).stdout
    assert out.strip() == f"echo -log {tmp_path / 'logs'} -name jdb -fy 1903 -gamePort 4001"
    with pytest.raises(ValueError, match="only connects to localhost"):
        install.command("dumbbot", "10.0.0.2", 1, name="x", log_dir=tmp_path, final_year=1905)
    # seat_argv builds the same command for a seat.
    (seat,) = [s for s in parse_lineup("bandana:dbrane", fill="dumbbot") if s.kind == "bandana"]
    argv = seat_argv(
        seat, "127.0.0.1", 4000, final_year=1905, parlance=None, log_dir=tmp_path / "logs",
        bandana=install,
    )  # fmt: skip
    assert argv == [*dbrane[:7], "bandana-dbrane", *dbrane[8:]]
    with pytest.raises(ValueError, match="--bandana-dir"):
        seat_argv(seat, "127.0.0.1", 4000, final_year=1905, parlance=None)


def test_a_game_with_bandana_seats_and_no_jars_is_a_one_line_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv(BANDANA_DIR_ENV, raising=False)
    assert main(["game", "--lineup", "bandana:dbrane", "--out", str(tmp_path / "r")]) == 2
    err = capsys.readouterr().err
    assert "--bandana-dir" in err and err.count("\n") == 1
    assert main(["tournament", "--games", "1", "--lineup", "bandana:dumbbot",
                 "--bandana-dir", str(tmp_path), "--out", str(tmp_path / "t")]) == 2  # fmt: skip
    err = capsys.readouterr().err
    assert "DumbBot-1.4.jar is not in" in err and err.count("\n") == 1
