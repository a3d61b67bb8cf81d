"""The environment a program from an unpacked package tree runs in."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from bot.servers.debian import (
    UnpackedTree,
    depends,
    is_installed,
    library_env,
    machine_architecture,
    packages_to_fetch,
)

LIBS = (Path("/opt/t/usr/lib/x86_64-linux-gnu"), Path("/opt/t/usr/lib/x86_64-linux-gnu/private"))
JOINED = os.pathsep.join(str(d) for d in LIBS)


@pytest.mark.parametrize(
    ("dirs", "base", "expected"),
    [
        (LIBS, {"PATH": "/bin"}, JOINED),
        (LIBS, {"LD_LIBRARY_PATH": "/usr/local/lib"}, JOINED + os.pathsep + "/usr/local/lib"),
        (LIBS, {"LD_LIBRARY_PATH": ""}, JOINED),
        ((), {"LD_LIBRARY_PATH": "/usr/local/lib"}, "/usr/local/lib"),
        ((), {"PATH": "/bin"}, None),
    ],
)
def test_library_folders_come_first_on_the_library_path(
    dirs: tuple[Path, ...], base: dict[str, str], expected: str | None
) -> None:
    env = library_env(dirs, base)
    assert env.get("LD_LIBRARY_PATH") == expected
    assert {k: v for k, v in env.items() if k != "LD_LIBRARY_PATH"} == {
        k: v for k, v in base.items() if k != "LD_LIBRARY_PATH"
    }
    assert UnpackedTree(Path("/opt/t/tree"), dirs).env(base) == env


def test_the_default_base_is_this_process_and_is_not_changed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("LD_LIBRARY_PATH", "/x")
    env = library_env(LIBS)
    assert env["LD_LIBRARY_PATH"] == JOINED + os.pathsep + "/x"
    assert os.environ["LD_LIBRARY_PATH"] == "/x"


# --- which packages count as installed: this machine's architecture only ------------------

FOREIGN = {"amd64": "i386", "i386": "amd64", "arm64": "armhf", "armhf": "arm64"}


def _stanza(package: str, arch: str, status: str = "install ok installed") -> str:
    multi_arch = "" if arch == "all" else "Multi-Arch: same\n"  # "all" cannot be "same"
    return (
        f"Package: {package}\nStatus: {status}\nArchitecture: {arch}\n{multi_arch}"
        f"Version: 1.0-1\nMaintainer: Nobody <nobody@example.org>\nDescription: {package}\n"
    )


def _admindir(tmp_path: Path, stanzas: list[str]) -> Path:
    """A dpkg database folder whose status file holds ``stanzas``."""
    folder = tmp_path / "dpkg"
    folder.mkdir(parents=True)
    (folder / "status").write_text("\n\n".join(s.strip("\n") for s in stanzas) + "\n")
    return folder


@pytest.mark.parametrize(
    ("stanzas", "installed"),
    [
        ([_stanza("libopus0", "i386")], False),  # only Wine's copy: the amd64 library is missing
        ([_stanza("libopus0", "amd64")], True),
        ([_stanza("libopus0", "i386"), _stanza("libopus0", "amd64")], True),
        (
            [
                _stanza("libopus0", "amd64", "deinstall ok config-files"),
                _stanza("libopus0", "i386"),
            ],
            False,
        ),
        ([_stanza("libopus0", "all")], True),  # architecture-independent packages suit all
        ([_stanza("libpulse0", "amd64")], False),
    ],
)
def test_only_a_copy_for_the_machines_architecture_counts(
    tmp_path: Path, stanzas: list[str], installed: bool
) -> None:
    admindir = _admindir(tmp_path, stanzas)
    assert is_installed("libopus0", admindir=admindir, architecture="amd64") is installed


def test_a_library_installed_for_another_architecture_only_is_fetched(tmp_path: Path) -> None:
    """The machine's own dpkg database, with one library of mosquitto's present as i386 only."""
    native = machine_architecture()
    foreign = FOREIGN.get(native, "i386")
    system = Path("/var/lib/dpkg/status").read_text()
    library = next(
        d
        for d in depends("mosquitto", RuntimeError)
        if d.startswith("lib") and is_installed(d, architecture=native)
    )
    stanzas = [s for s in system.split("\n\n") if s.strip()]
    as_is = _admindir(tmp_path / "as-is", stanzas)
    assert library not in packages_to_fetch(["mosquitto"], RuntimeError, admindir=as_is)
    # The same database with the library's native copy replaced by a foreign one (Wine's).
    ours = re.compile(rf"^Package: {re.escape(library)}$", re.MULTILINE)
    kept = [s for s in stanzas if not ours.search(s)]
    admindir = _admindir(tmp_path / "foreign", [*kept, _stanza(library, foreign)])
    assert not is_installed(library, admindir=admindir)
    assert library in packages_to_fetch(["mosquitto"], RuntimeError, admindir=admindir)
