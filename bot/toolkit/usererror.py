"""The error a user can fix, shared by every command."""

from __future__ import annotations


class UserError(Exception):
    """A problem the user can fix (bad input, missing server); printed without a traceback."""


MAX_PORT = 65535


def check_port(port: int, flag: str, lowest: int = 0) -> None:
    """UserError unless ``port`` (given as ``flag``) is between ``lowest`` and 65535."""
    if not lowest <= port <= MAX_PORT:
        raise UserError(f"{flag} must be between {lowest} and {MAX_PORT} (got {port})")


def extra_missing(needs: str, exc: ImportError, extra: str = "view") -> UserError:
    """The error for an optional ``extra`` not installed: "``needs`` the 'view' extra (...)"."""
    return UserError(
        f"{needs} the '{extra}' extra ({exc.name} is missing): pip install 'daide-mcts[{extra}]'"
    )
