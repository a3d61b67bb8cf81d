"""The receiving end of a worker's pipe: messages read while busy are kept, never lost.

A searching process looks at its pipe between iterations for a stop.  What
it finds there may instead be the next job or a request to quit: that
message ends the current search and is kept to be handled next, so a busy
process never drops work.  The end of the pipe (the parent is gone) reads as
the quit message.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from multiprocessing.connection import Connection
from typing import Generic, TypeVar

M = TypeVar("M")


class PipeInbox(Generic[M]):
    """Messages from ``conn``; ``quit_message`` stands for the end of the pipe."""

    def __init__(self, conn: Connection, quit_message: M) -> None:
        self.conn = conn
        self.quit_message = quit_message
        self._kept: deque[M] = deque()

    def next(self) -> M:
        """The next message, waiting for one if none is kept."""
        if self._kept:
            return self._kept.popleft()
        try:
            message: M = self.conn.recv()
        except (EOFError, OSError):
            return self.quit_message
        return message

    def arrived(self) -> Iterator[M]:
        """The messages already waiting in the pipe (without blocking)."""
        try:
            while self.conn.poll():
                yield self.conn.recv()
        except (EOFError, OSError):
            yield self.quit_message

    def keep(self, message: M) -> None:
        """Hand ``message`` back: :meth:`next` returns it first."""
        self._kept.append(message)
