"""The message record of a run folder (``messages.daide``) and what Parlance's admin lines say.

A line is ``<unix time> <source> <in|out> <DAIDE text>``; the local game runner writes
it (:class:`bot.local.record.GameRecorder`), the viewer reads it back.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from bot.toolkit.jsonfiles import read_lines
from protocol.daide_errors import LanguageError
from protocol.mapdef import table_from_mdf_text
from protocol.messages import Message, parse_text
from protocol.tokens import NO_MAP, TokenTable

MESSAGES_FILE = "messages.daide"
"""A run folder's record of every message (the observer's, or one bot's of ours)."""

_POWERS_REPLY = re.compile(r"^([A-Za-z][A-Za-z ]*?) \(\d+\): (.*) \(([^()]*)\), from ")

POWER_TOKENS = {
    "Austria": "AUS",
    "England": "ENG",
    "France": "FRA",
    "Germany": "GER",
    "Italy": "ITA",
    "Russia": "RUS",
    "Turkey": "TUR",
}
"""Parlance names the standard powers in full in its admin messages."""


MAX_MESSAGE_LINE = 256 * 1024
"""The longest line of ``messages.daide`` read back: a DAIDE message is at most 32,767
tokens (:data:`protocol.decoder.DEFAULT_MAX_LENGTH`, the wire's 64 KiB), at most seven
characters a token as text (``0xNNNN`` and a space): 229,369, and the line's prefix."""

MAX_MESSAGES_BYTES = 256 * 1024 * 1024
"""The largest ``messages.daide`` read back (a century-long game records a few megabytes)."""


def received_texts(path: Path) -> Iterator[str]:
    """The DAIDE text of every message a run folder's ``messages.daide`` records as received.

    Lines are ``<unix time> <source> <in|out> <DAIDE text>`` (see :class:`GameRecorder`);
    others are skipped.  :class:`bot.toolkit.jsonfiles.UnreadableFile` (naming the file) if it
    is not a regular file, is too big or holds a line too long for a DAIDE message.
    """
    for _number, text in received_lines(path):
        yield text


def received_lines(path: Path) -> Iterator[tuple[int, str]]:
    """``(line number, DAIDE text)`` of every received message, as :func:`received_texts`."""
    lines = read_lines(path, max_line=MAX_MESSAGE_LINE, limit=MAX_MESSAGES_BYTES)
    for number, line in enumerate(lines, 1):
        parts = line.split(" ", 3)
        if len(parts) == 4 and parts[2] == "in":
            yield number, parts[3]


def player_from_admin(text: str) -> tuple[str, str] | None:
    """``(power, player name)`` from Parlance's answer to ``Server: powers``, else None."""
    match = _POWERS_REPLY.match(text)
    if match is None or match.group(2) == "None":
        return None
    full = match.group(1)
    return POWER_TOKENS.get(full, full[:3].upper()), match.group(2)


class RecordedText:
    """Reads a recorded game's messages, in order, with the names of the game's own map.

    A record keeps text, not the server's RM: the token table is made from the
    game's MDF when it goes by (see :func:`protocol.mapdef.table_from_mdf_text`),
    so every later message reads with the map's names; before it, only the
    language's tokens.
    """

    def __init__(self) -> None:
        self.table: TokenTable = NO_MAP

    def read(self, text: str) -> Message | None:
        """The message ``text`` records, or None if it does not read."""
        if text.startswith("MDF"):
            try:
                self.table = table_from_mdf_text(text)
            except (LanguageError, ValueError):
                return None
        try:
            return parse_text(text, self.table)
        except (LanguageError, ValueError):
            return None
