"""The error a user can fix, shared by every command."""

from __future__ import annotations


class UserError(Exception):
    """A problem the user can fix (bad input, missing server); printed without a traceback."""
