"""apt for the set-up steps: a package index that fails to download does not stop them.

The index failure is the fake ``apt-get`` of tests/fake_apt.py (exit 100 and
apt's own "Failed to fetch ... binary-i386/Packages" lines), first on PATH;
the rest of the machine's apt is not touched.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.servers.apt import Apt, AptError, failed_urls, sources_without, update_problem
from bot.servers.debian import depends, packages_to_fetch
from tests.fake_apt import DOWN_UPDATE_ERR, PARTIAL_UPDATE_ERR, FakeApt, FakePackage

ROOT = Path(__file__).resolve().parents[3]
I386_INDEX = "http://deb.debian.org/debian/dists/bookworm/main/binary-i386/Packages"


@pytest.fixture
def on_path(monkeypatch: pytest.MonkeyPatch) -> object:
    def put_first(fake: FakeApt) -> FakeApt:
        monkeypatch.setenv("PATH", f"{fake.folder}{os.pathsep}{os.environ['PATH']}")
        return fake

    return put_first


def _fake(tmp_path: Path, **options: object) -> FakeApt:
    packages = {
        "mosquitto": FakePackage(depends=("libc6", "libcjson1", "libwrap0", "adduser")),
        "libcjson1": FakePackage(depends=("libc6",)),
        "libwrap0": FakePackage(depends=("libc6", "libnsl2")),
        "libnsl2": FakePackage(),
        "libc6": FakePackage(),
        "adduser": FakePackage(),
        "hello": FakePackage(programs={"hello": "#!/bin/sh\necho hello\n"}),
    }
    return FakeApt(tmp_path / "fake-apt", packages, **options)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("output", "expected"),
    [
        (PARTIAL_UPDATE_ERR, f"Failed to fetch {I386_INDEX} 404 Not Found"),
        (DOWN_UPDATE_ERR, "Temporary failure resolving 'deb.debian.org' (and 1 more)"),
        (
            "E: Could not open lock file /var/lib/apt/lists/lock - open (13: Permission denied)\n",
            "E: Could not open lock file",
        ),
        ("", "exit status 100"),
    ],
)
def test_a_failed_refresh_is_told_in_one_line(output: str, expected: str) -> None:
    problem = update_problem(100, output)
    assert expected in problem and "\n" not in problem


def test_an_install_goes_on_after_a_partly_failed_refresh(tmp_path: Path, on_path) -> None:
    fake = on_path(_fake(tmp_path, update="partial"))
    notes: list[str] = []
    apt = Apt(note=notes.append)
    apt.install(["hello"])
    assert fake.commands() == ["apt-get update", "apt-get install"]
    assert (fake.folder / "hello").is_file()
    assert apt.refreshed is not None and not apt.refreshed.complete
    (note,) = notes
    assert "refreshed only in part" in note and I386_INDEX in note and "\n" not in note


def test_an_install_that_fails_says_why_in_one_line(tmp_path: Path, on_path) -> None:
    fake = on_path(_fake(tmp_path, update="partial"))
    with pytest.raises(AptError) as failed:
        Apt(note=lambda _: None, etc=tmp_path / "no-sources").install(["hello", "no-such-package"])
    message = str(failed.value)
    assert "\n" not in message
    assert "Unable to locate package no-such-package" in message
    assert "refreshed only in part" in message and "binary-i386" in message
    assert fake.commands() == ["apt-get update", "apt-get install"]
    assert not (fake.folder / "hello").exists()


def test_an_install_with_every_list_refreshed_notes_nothing(tmp_path: Path, on_path) -> None:
    on_path(_fake(tmp_path, update="ok"))
    notes: list[str] = []
    Apt(note=notes.append).install(["hello"])
    assert notes == []


def test_missing_lists_are_refreshed_once_and_the_download_tried_again(
    tmp_path: Path, on_path
) -> None:
    """A fresh image has no package lists: the download fails, the refresh fails in part."""
    fake = on_path(_fake(tmp_path, update="partial"))
    apt = Apt(refresh_allowed=True, note=lambda _: None)
    folder = tmp_path / "debs"
    folder.mkdir()
    apt.run(["apt-get", "download", "hello"], cwd=folder)
    assert fake.commands() == ["apt-get download", "apt-get update", "apt-get download"]
    assert [p.name for p in folder.iterdir()] == ["hello_1.0_amd64.deb"]
    # One refresh per session: a later failure is told, not retried.
    with pytest.raises(AptError, match="Unable to locate package nothing"):
        apt.run(["apt-get", "download", "nothing"], cwd=folder)
    assert fake.commands()[3:] == ["apt-get download"]


def test_without_the_right_to_refresh_a_failure_is_told_at_once(tmp_path: Path, on_path) -> None:
    fake = on_path(_fake(tmp_path))
    with pytest.raises(AptError, match=r"^`apt-get download hello` failed: E: Unable to locate"):
        Apt(refresh_allowed=False).run(["apt-get", "download", "hello"], cwd=tmp_path)
    assert fake.commands() == ["apt-get download"]


def test_the_dependencies_of_an_unpacked_package_survive_a_partial_refresh(
    tmp_path: Path, on_path
) -> None:
    """What mosquitto and Chromium's installs ask apt-cache, on a machine without lists."""
    fake = on_path(_fake(tmp_path, update="partial"))
    apt = Apt(refresh_allowed=True, note=lambda _: None)
    assert depends("mosquitto", RuntimeError, apt) == ["libc6", "libcjson1", "libwrap0", "adduser"]
    admindir = tmp_path / "dpkg"  # an empty dpkg database: nothing is installed
    admindir.mkdir()
    (admindir / "status").write_text("")
    wanted = packages_to_fetch(["mosquitto"], RuntimeError, admindir=admindir, apt=apt)
    assert wanted == ["mosquitto", "libc6", "libcjson1", "libwrap0", "libnsl2"]
    assert fake.commands().count("apt-get update") == 1
    with pytest.raises(RuntimeError, match="apt knows no package 'nothing'") as failed:
        depends("nothing", RuntimeError, apt)
    assert "\n" not in str(failed.value)


def _module(fake: FakeApt, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PATH=f"{fake.folder}{os.pathsep}{os.environ['PATH']}")
    env["PYTHONPATH"] = str(ROOT)
    return subprocess.run(
        [sys.executable, "-m", "bot.servers.apt", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )


def test_the_command_installs_notes_a_partial_refresh_and_fails_in_one_line(
    tmp_path: Path,
) -> None:
    fake = _fake(tmp_path, update="partial")
    done = _module(fake, "install", "hello")
    assert done.returncode == 0 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "refreshed only in part" in done.stderr
    assert (fake.folder / "hello").is_file()
    failed = _module(fake, "install", "no-such-package")
    assert failed.returncode == 1 and failed.stdout.count("\n") == 1
    assert "Unable to locate package no-such-package" in failed.stdout
    assert "Traceback" not in failed.stderr
    usage = _module(fake, "remove", "hello")
    assert usage.returncode == 2 and "usage:" in usage.stderr


DEBIAN_SOURCES = """\
Types: deb
# http://snapshot.debian.org/archive/debian/20250520T000000Z
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: http://deb.debian.org/debian-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
"""
SECURITY_I386 = (
    "http://deb.debian.org/debian-security/dists/bookworm-security/main/binary-i386/Packages.xz"
)
ONE_LINE = """\
deb [arch=amd64 signed-by=/k.gpg] http://deb.debian.org/debian bookworm main
deb http://deb.debian.org/debian-security/ bookworm-security main  # security
"""


def _etc(tmp_path: Path, **files: str) -> Path:
    etc = tmp_path / "etc"
    (etc / "sources.list.d").mkdir(parents=True)
    for name, text in files.items():
        path = etc / name if name == "sources.list" else etc / "sources.list.d" / name
        path.write_text(text)
    return etc


def _suites(text: str) -> list[str]:
    return [
        line.split(":", 1)[1].strip() for line in text.splitlines() if line.startswith("Suites")
    ]


def test_the_failed_fetches_are_read_from_apts_output() -> None:
    output = PARTIAL_UPDATE_ERR + f"W: Failed to fetch {SECURITY_I386}  File has unexpected size\n"
    assert failed_urls(output) == (I386_INDEX, SECURITY_I386)
    assert failed_urls(DOWN_UPDATE_ERR) == (
        "http://deb.debian.org/debian/dists/bookworm/InRelease",
        "http://deb.debian.org/debian/dists/bookworm-updates/InRelease",
    )
    assert failed_urls("Hit:1 http://deb.debian.org/debian bookworm InRelease") == ()


@pytest.mark.parametrize(
    ("failed", "expected"),
    [
        ((SECURITY_I386,), [["bookworm bookworm-updates"]]),
        ((I386_INDEX,), [["bookworm-updates", "bookworm-security"]]),
        (
            (
                "http://deb.debian.org/debian/dists/bookworm/InRelease",
                "http://deb.debian.org/debian/dists/bookworm-updates/InRelease",
            ),
            [["bookworm-security"]],
        ),
        (("http://elsewhere.example/debian/dists/bookworm/InRelease",), None),
    ],
)
def test_the_sources_of_failed_lists_are_left_out(
    tmp_path: Path, failed: tuple[str, ...], expected: list[list[str]] | None
) -> None:
    etc = _etc(tmp_path, **{"debian.sources": DEBIAN_SOURCES, "old.list.disabled": ONE_LINE})
    files = sources_without(failed, etc)
    if expected is None:
        assert files is None
        return
    assert files is not None and set(files) == {"debian.sources"}
    assert [_suites(files["debian.sources"])] == expected
    assert "Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg" in files["debian.sources"]


def test_a_one_line_list_loses_only_its_failed_entries(tmp_path: Path) -> None:
    etc = _etc(tmp_path, **{"sources.list": ONE_LINE})
    files = sources_without((SECURITY_I386,), etc)
    assert files == {"sources.list": ONE_LINE.splitlines()[0] + "\n"}
    assert sources_without((I386_INDEX,), etc) == {"sources.list": ONE_LINE.splitlines()[1] + "\n"}


def test_an_install_held_broken_by_a_partial_refresh_goes_through_without_its_source(
    tmp_path: Path, on_path
) -> None:
    fake = on_path(_fake(tmp_path, update="partial", held=True))
    etc = _etc(tmp_path, **{"debian.sources": DEBIAN_SOURCES})
    notes: list[str] = []
    Apt(note=notes.append, etc=etc).install(["hello"])
    assert fake.commands() == ["apt-get update", "apt-get install", "apt-get install"]
    assert (fake.folder / "hello").is_file()
    seen = json.loads((fake.folder / "sources-seen.json").read_text())
    assert [_suites(seen["debian.sources"])] == [["bookworm-updates", "bookworm-security"]]
    assert len(notes) == 2 and "trying again without" in notes[1] and "held broken" in notes[1]
    assert (etc / "sources.list.d" / "debian.sources").read_text() == DEBIAN_SOURCES


def test_an_install_held_broken_with_no_failed_source_to_leave_out_fails_in_one_line(
    tmp_path: Path, on_path
) -> None:
    fake = on_path(_fake(tmp_path, update="partial", held=True))
    etc = _etc(tmp_path, **{"other.list": "deb http://elsewhere.example/debian bookworm main\n"})
    with pytest.raises(AptError, match="held broken packages") as failed:
        Apt(note=lambda _: None, etc=etc).install(["hello"])
    assert "\n" not in str(failed.value)
    assert fake.commands() == ["apt-get update", "apt-get install"]


def test_when_the_second_install_fails_too_both_reasons_are_told(tmp_path: Path, on_path) -> None:
    on_path(_fake(tmp_path, update="partial", held=True))
    etc = _etc(tmp_path, **{"debian.sources": DEBIAN_SOURCES})
    with pytest.raises(AptError) as failed:
        Apt(note=lambda _: None, etc=etc).install(["no-such-package"])
    message = str(failed.value)
    assert "held broken packages" in message and "without the failed sources" in message
    assert "Unable to locate package no-such-package" in message and "\n" not in message
