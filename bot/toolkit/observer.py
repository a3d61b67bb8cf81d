"""An observer on a DAIDE server: hears every public message of a game (NOW, ORD, SCO, SMR...).

The game runner joins as an observer (``OBS``) before the players, so its
record holds the whole public game and its live view follows every phase.
Once the game has started it asks Parlance which player plays which power
(the local admin command ``Server: powers``; other servers simply ignore or
refuse it).  MILA's server refuses observers: :class:`ObserverRefusedError`,
and the runner follows the game through its bots' records instead.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable

from bot import __version__
from bot.client.connection import Connection, ConnectionLost
from protocol.daide_errors import EncodeError, LanguageError
from protocol.messages import (
    Adm,
    Hlo,
    Map,
    Mdf,
    Message,
    Obs,
    Off,
    Rej,
    Yes,
    parse_message,
)
from protocol.tokens import NO_MAP
from protocol.wire import DiplomacyMessage, ErrorMessage, FinalMessage, RepresentationMessage

MessageHandler = Callable[[str, str, Message | None], None]
"""Hears ``(direction, text, parsed message or None)`` for every message in or out."""

POWERS_QUERY = "Server: powers"
"""Parlance's admin command listing each power's player (answered to local clients only)."""


class ObserverRefusedError(Exception):
    """The server does not take observers (its REJ is the message)."""


class Observer:
    """Watches one game on ``host:port``; :meth:`run` returns when the game or connection ends."""

    def __init__(
        self,
        host: str,
        port: int,
        on_message: MessageHandler,
        *,
        name: str = "daide-mcts-observer",
        version: str = __version__,
        connect_timeout: float = 10.0,
    ) -> None:
        self.host = host
        self.port = port
        self.on_message = on_message
        self.name = name
        self.version = version
        self.connect_timeout = connect_timeout
        self.end_reason: str | None = None
        self._conn: Connection | None = None
        self._map_name = "standard"

    async def run(self) -> str:
        """Observe until the server closes the connection, sends OFF, or it breaks; why it ended."""
        last_error: Exception | None = None
        for _ in range(50):
            try:
                self._conn = await Connection.open(self.host, self.port, self.connect_timeout)
                break
            except (OSError, TimeoutError) as exc:
                last_error = exc
                await asyncio.sleep(0.2)
        else:
            self.end_reason = f"cannot connect: {last_error}"
            return self.end_reason
        try:
            self.end_reason = await self._receive_all(self._conn)
        except ConnectionLost as lost:
            self.end_reason = lost.reason
        finally:
            await self._conn.close()
        return self.end_reason

    async def _receive_all(self, conn: Connection) -> str:
        while True:
            wire = await conn.receive()
            if isinstance(wire, RepresentationMessage):
                self._send(Obs(self.name, self.version))
            elif isinstance(wire, DiplomacyMessage):
                text = wire.text
                try:
                    message: Message | None = parse_message(wire.tokens, wire.table)
                except LanguageError:
                    message = None
                self.on_message("in", text, message)
                if message is not None and self._react(message):
                    return "OFF"
            elif isinstance(wire, FinalMessage):
                return "the server closed the game (FM)"
            elif isinstance(wire, ErrorMessage):
                return f"the server sent an error (EM {wire.code}: {wire.description})"

    def _react(self, message: Message) -> bool:
        """Answer what needs an answer; True when the observation is over."""
        if isinstance(message, Map):
            self._map_name = message.name or "standard"
            self._send(Mdf())
        elif isinstance(message, Mdf) and message.definition is not None:
            self._send(Yes(Map(self._map_name)))
        elif isinstance(message, Hlo):
            self._send(Adm(self.name, POWERS_QUERY))
        elif isinstance(message, Rej) and isinstance(message.message, Obs):
            raise ObserverRefusedError(self._text(message))
        elif isinstance(message, Off):
            return True
        return False

    def _text(self, message: Message) -> str:
        table = self._conn.table if self._conn is not None else NO_MAP
        try:
            return message.to_text(table)
        except EncodeError:
            return repr(message)

    def _send(self, message: Message) -> None:
        if self._conn is None:
            return
        with contextlib.suppress(ConnectionLost):
            text = self._conn.send(message)
            self.on_message("out", text, message)
