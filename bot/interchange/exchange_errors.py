"""What can go wrong taking a game to or from another tool's format; each a one-line message.

::

    ExchangeError               any of these (a ValueError)
    ├── NotStandardMapError     the game is on a map other than the standard one
    ├── NotAMilaGameError       a file that is not a MILA saved game (or not one we read)
    └── ReplayMismatchError     MILA's engine, replaying the record, reaches another position
"""

from __future__ import annotations


class ExchangeError(ValueError):
    """A game cannot be exported or imported; the message says why in one line."""


class NotStandardMapError(ExchangeError):
    """The game is on a variant map: MILA's engine plays only its own maps."""


class NotAMilaGameError(ExchangeError):
    """The file is not a MILA saved game, or holds something we cannot read as one."""


class ReplayMismatchError(ExchangeError):
    """MILA's engine, fed the recorded orders, does not reach the recorded position."""
