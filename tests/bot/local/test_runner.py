"""The local game runner (bot.local.runner): what a cancelled game leaves behind."""

from __future__ import annotations

import asyncio
from pathlib import Path

import psutil
import pytest

from bot.local import runner
from bot.local.lineup import parse_lineup
from bot.local.outcome import GameConfig


def _servers() -> set[int]:
    """This machine's running Parlance servers."""
    found = set()
    for proc in psutil.process_iter(["pid", "cmdline"]):
        cmdline = proc.info["cmdline"] or []
        if any("parlance_deadline.py" in part for part in cmdline):
            found.add(proc.info["pid"])
    return found


@pytest.mark.parametrize("after", [0.05, 0.3])
def test_a_game_cancelled_while_its_server_starts_leaves_no_server(
    tmp_path: Path, after: float
) -> None:
    """Ctrl-C or SIGTERM while Parlance starts (it takes about a second) stops it too."""
    config = GameConfig(seats=parse_lineup("dumbbot"), final_year=1901, server="parlance")
    before = _servers()

    async def cancel_the_start() -> None:
        task = asyncio.create_task(runner.play_game(config, tmp_path / "game"))
        await asyncio.sleep(after)
        assert not task.done()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(cancel_the_start())
    assert _servers() - before == set()
