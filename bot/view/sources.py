"""Where a game shown by the viewer comes from: a run folder, or a DAIDE server watched live.

* :func:`load_run` reads a run folder written by ``daide-mcts game`` (or a
  tournament's ``games/game-NNN``): the server's messages in
  ``messages.daide``, and who played which power from ``summary.json``;
* :func:`check_reachable` and :func:`watch` join a running DAIDE server as an
  observer (:class:`bot.toolkit.observer.Observer`) and feed every message to
  a :class:`~bot.view.timeline.Timeline` as it arrives.

Problems a user can cause (a folder that holds no game, a file in it that is
not what it should be, a server that does not answer) raise
:class:`ViewSourceError` with a one-line reason.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from pathlib import Path

from pydantic import BaseModel, Field

from bot.toolkit.jsonfiles import UnreadableFile, read_json_model
from bot.toolkit.messagelog import MESSAGES_FILE, RecordedText, received_texts
from bot.toolkit.observer import Observer
from bot.view.timeline import Timeline
from protocol.messages import Message

SUMMARY_FILE = "summary.json"
CONNECT_TIMEOUT = 5.0
"""Seconds a first connection to a server may take before it counts as unreachable."""


class ViewSourceError(Exception):
    """The game cannot be shown: no run folder, no game or a corrupt file in it, no server."""


def load_run(folder: Path) -> Timeline:
    """The game recorded in ``folder``; ViewSourceError if there is none or a file is unreadable."""
    if not folder.is_dir():
        raise ViewSourceError(f"{folder} is not a folder")
    path = folder / MESSAGES_FILE
    if not path.exists() and not path.is_symlink():
        if (folder / "tournament.json").exists():
            raise ViewSourceError(
                f"{folder} is a tournament: give one of its games, e.g. {folder}/games/game-001"
            )
        raise ViewSourceError(f"{folder} holds no {MESSAGES_FILE}: not a run folder of a game")
    timeline = Timeline(source=str(folder))
    texts = RecordedText()
    try:
        for text in received_texts(path):
            timeline.feed(texts.read(text), text)
        players = _players(folder / SUMMARY_FILE)
    except UnreadableFile as exc:
        raise ViewSourceError(str(exc)) from None
    if not timeline.phases:
        raise ViewSourceError(f"{path} records no phase of a game (no NOW from the server)")
    timeline.players.update(players)
    timeline.over = True
    return timeline


class _Player(BaseModel):
    """A seat of ``summary.json`` as the viewer reads it (other fields are ignored)."""

    seat: str
    label: str
    power: str | None = None


class _Summary(BaseModel):
    """The part of a run folder's ``summary.json`` the viewer reads: who played what."""

    players: list[_Player] = Field(default_factory=list)


def _players(path: Path) -> dict[str, str]:
    """Power → ``seat (player)`` from a run folder's summary; none if it has no summary.

    UnreadableFile (naming the file) if the summary is there but is not one.
    """
    if not path.exists() and not path.is_symlink():
        return {}
    summary = read_json_model(path, _Summary)
    return {
        p.power: f"{p.seat} ({p.label})" if p.label != p.seat else p.seat
        for p in summary.players
        if p.power
    }


async def check_reachable(host: str, port: int, timeout: float = CONNECT_TIMEOUT) -> None:
    """Open and close one connection to ``host:port``; ViewSourceError if it cannot."""
    try:
        async with asyncio.timeout(timeout):
            _reader, writer = await asyncio.open_connection(host, port)
    except (OSError, TimeoutError) as exc:
        raise ViewSourceError(
            f"cannot reach a DAIDE server at {host}:{port}: {exc or 'timed out'}"
        ) from None
    writer.close()
    with contextlib.suppress(OSError):
        await writer.wait_closed()


async def watch(host: str, port: int, timeline: Timeline, changed: Callable[[], None]) -> str:
    """Observe the game on ``host:port`` into ``timeline`` (``changed()`` after each change).

    Returns why the observation ended (``OFF``, the server closed, ...).
    """

    def hear(direction: str, text: str, message: Message | None) -> None:
        if direction == "in" and timeline.feed(message, text):
            changed()

    observer = Observer(host, port, hear, name="daide-mcts-viewer")
    reason = await observer.run()
    timeline.over = True
    timeline.meta_version = timeline.version = timeline.version + 1
    changed()
    return reason
