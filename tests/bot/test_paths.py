"""A run's dated folder (:func:`bot.toolkit.paths.dated_folder`): new, named by the time."""

from __future__ import annotations

import re
import time
from pathlib import Path

from bot.toolkit.paths import STAMP, dated_folder

AHEAD = 10
"""Seconds of stamps taken before the call: the call falls within them however slow."""


def test_a_dated_folder_is_new_and_not_made(tmp_path: Path) -> None:
    path = dated_folder(tmp_path / "runs", "game")
    assert path.parent == tmp_path / "runs"
    assert re.fullmatch(r"game-\d{8}-\d{6}", path.name)
    assert not path.exists() and not path.parent.exists()


def test_a_taken_name_gets_the_next_number(tmp_path: Path) -> None:
    now = time.time()
    for second in range(AHEAD):
        stamp = time.strftime(STAMP, time.localtime(now + second))
        (tmp_path / f"start-{stamp}").mkdir()
        (tmp_path / f"start-{stamp}-2").mkdir()
    path = dated_folder(tmp_path, "start")
    assert re.fullmatch(r"start-\d{8}-\d{6}-3", path.name)
    assert not path.exists()
