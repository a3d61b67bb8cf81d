"""Data files recorded from a live Parlance server, and helpers to read them.

* ``standard_mdf.txt``: the MDF Parlance sends for the ``standard`` map, in
  text form on one line (the adjudicator's built-in standard map);
* ``sample_game.txt``: every message of a short live game (to 1903), one per
  line, ``<< `` for received and ``>> `` for sent; ``#`` lines are comments.

Both are written by ``python -m tests.protocol.capture_sample_game``.
"""

from __future__ import annotations

from pathlib import Path

DATA_DIR = Path(__file__).resolve().parent
"""The folder holding the data files."""
STANDARD_MDF_PATH = DATA_DIR / "standard_mdf.txt"
"""The standard map's MDF, as Parlance sends it."""
SAMPLE_GAME_PATH = DATA_DIR / "sample_game.txt"
"""A live game's messages, both directions."""

RECEIVED = "<<"
"""Direction prefix of a message the client received."""
SENT = ">>"
"""Direction prefix of a message the client sent."""


def standard_mdf_text() -> str:
    """The text of the standard map's MDF message (one line, no newline)."""
    return STANDARD_MDF_PATH.read_text().strip()


def sample_game() -> list[tuple[str, str]]:
    """The sample game as (direction, message text) pairs, direction ``<<`` or ``>>``."""
    lines = []
    for line in SAMPLE_GAME_PATH.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        direction, _, text = line.partition(" ")
        lines.append((direction, text))
    return lines
