"""The environment a program from an unpacked package tree runs in."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bot.servers.debian import UnpackedTree, library_env

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
