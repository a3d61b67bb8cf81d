"""Where a game shown by the viewer comes from: a run folder, or a DAIDE server watched live.

* :func:`load_run` reads a run folder written by ``daide-mcts game`` (or a
  tournament's ``games/game-NNN``): the server's messages in
  ``messages.daide``, and who played which power from ``summary.json``;
  the messages after a recorded ``MDF`` are read with the names that map
  defines (:func:`table_from_mdf_text`), so a game on any map is shown;
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
import re
from collections.abc import Callable
from pathlib import Path

from pydantic import BaseModel, Field

from bot.toolkit.jsonfiles import UnreadableFile, read_json_model
from bot.toolkit.messagelog import MESSAGES_FILE, received_texts
from bot.toolkit.observer import Observer
from bot.view.timeline import Timeline
from protocol.daide_errors import EncodeError, LanguageError
from protocol.messages import Message, parse_text
from protocol.tokens import LANGUAGE_TOKENS, STANDARD, TokenTable

SUMMARY_FILE = "summary.json"

POWER_BASE = 0x4100
"""The first power token number of a table made from an MDF's text."""

PROVINCE_BASE = 0x5000
"""The first province token number of a table made from an MDF's text."""

MAX_TOKENS = 0x100
"""The most powers, or provinces, such a table may define (one token category's room)."""
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
    table = STANDARD
    try:
        for text in received_texts(path):
            if text.startswith(MDF_PREFIX):
                table = table_from_mdf_text(text) or table
            timeline.feed(_parse(text, table), text)
        players = _players(folder / SUMMARY_FILE)
    except UnreadableFile as exc:
        raise ViewSourceError(str(exc)) from None
    if not timeline.phases:
        raise ViewSourceError(f"{path} records no phase of a game (no NOW from the server)")
    timeline.players.update(players)
    timeline.over = True
    return timeline


def _parse(text: str, table: TokenTable = STANDARD) -> Message | None:
    try:
        return parse_text(text, table)
    except (LanguageError, ValueError):
        return None


MDF_PREFIX = "MDF "
_NAME = re.compile(r"\b[A-Z0-9]{3}\b")
_FIRST_GROUP = re.compile(r"^MDF\s*\(([^()]*)\)")


def table_from_mdf_text(text: str) -> TokenTable | None:
    """A token table defining the powers and provinces an ``MDF``'s text names (None if none).

    A run folder records messages as text; a map other than the standard one
    names powers and provinces the standard table does not know.  The MDF's
    first list is its powers; every other name that is not a language token
    is a province.  Token numbers are made up (the text never shows them).
    """
    first = _FIRST_GROUP.match(text.upper())
    if first is None:
        return None
    language = set(LANGUAGE_TOKENS.values())
    powers = [n for n in dict.fromkeys(_NAME.findall(first.group(1))) if n not in language]
    named = dict.fromkeys(_NAME.findall(text.upper()[first.end() :]))
    provinces = [n for n in named if n not in language and n not in powers]
    if len(powers) > MAX_TOKENS or len(provinces) > MAX_TOKENS:
        return None
    entries = {POWER_BASE + i: p for i, p in enumerate(powers)}
    entries.update({PROVINCE_BASE + i: p for i, p in enumerate(provinces)})
    try:
        return TokenTable(entries)
    except EncodeError:
        return None


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
