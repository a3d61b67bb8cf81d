"""Where a game shown by the viewer comes from: a run folder, or a DAIDE server watched live.

* :func:`load_run` reads a run folder written by ``daide-mcts game`` (or a
  tournament's ``games/game-NNN``): the server's messages in
  ``messages.daide``, and who played which power from ``summary.json``;
* :func:`check_reachable` and :func:`watch` join a running DAIDE server as an
  observer (:class:`bot.local.observer.Observer`) and feed every message to
  a :class:`~bot.view.timeline.Timeline` as it arrives.

Problems a user can cause (a folder that holds no game, a server that does
not answer) raise :class:`ViewSourceError` with a one-line reason.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from pathlib import Path

from bot.jsonfiles import read_json_object
from bot.local.observer import Observer
from bot.local.record import received_texts
from bot.view.timeline import Timeline
from protocol.errors import LanguageError
from protocol.messages import Message, parse_text

MESSAGES_FILE = "messages.daide"
SUMMARY_FILE = "summary.json"
CONNECT_TIMEOUT = 5.0
"""Seconds a first connection to a server may take before it counts as unreachable."""


class ViewSourceError(Exception):
    """The game cannot be shown: no such run folder, no game in it, server unreachable."""


def load_run(folder: Path) -> Timeline:
    """The game recorded in ``folder``; ViewSourceError if there is none."""
    if not folder.is_dir():
        raise ViewSourceError(f"{folder} is not a folder")
    path = folder / MESSAGES_FILE
    if not path.is_file():
        if (folder / "tournament.json").is_file():
            raise ViewSourceError(
                f"{folder} is a tournament: give one of its games, e.g. {folder}/games/game-001"
            )
        raise ViewSourceError(f"{folder} holds no {MESSAGES_FILE}: not a run folder of a game")
    timeline = Timeline(source=str(folder))
    try:
        for text in received_texts(path):
            timeline.feed(_parse(text), text)
    except OSError as exc:
        raise ViewSourceError(f"cannot read {path}: {exc}") from exc
    if not timeline.phases:
        raise ViewSourceError(f"{path} records no phase of a game (no NOW from the server)")
    timeline.players.update(_players(folder / SUMMARY_FILE))
    timeline.over = True
    return timeline


def _parse(text: str) -> Message | None:
    try:
        return parse_text(text)
    except (LanguageError, ValueError):
        return None


def _players(path: Path) -> dict[str, str]:
    """Power → ``seat (player)`` from a run folder's summary, when it has one."""
    try:
        summary = read_json_object(path)
        players = summary["players"]
        return {
            str(p["power"]): f"{p['seat']} ({p['label']})" if p["label"] != p["seat"] else p["seat"]
            for p in players
            if p.get("power")
        }
    except (ValueError, KeyError, TypeError):
        return {}


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
