"""One connection's session: handshake, greeting, and the rule of what may be sent when.

A session goes through fixed stages (a table, as h11 keeps its states):

=========  ============================================  =========================
stage      how it is reached                             what we may send
=========  ============================================  =========================
OPENED     TCP connected, IM sent                        nothing (DMs need the RM)
GREETING   the server's RM arrived                       NME/IAM, map talk,
                                                         answers to the server
JOINED     HLO (a new player) or YES (IAM) (a rejoin)    everything, orders too
CLOSED     the connection ended                          nothing
=========  ============================================  =========================

Orders and game actions (SUB, GOF, NOT (GOF), DRW) sent before the session
is joined would reach the server as the wrong player or before it knows us:
:meth:`Session.send` refuses them with :class:`SessionNotReady`.  The session
holds no socket: the client core asks it before each message, and the shell
writes what the core allowed.

The session also remembers what it sent that the server may answer (YES,
REJ, or for a bare HLO an HLO): :meth:`Session.take` says whether an answer
is to something of that kind we sent and that was not answered yet, so that
an answer to something never sent changes nothing.
"""

from __future__ import annotations

from collections import deque
from enum import Enum

from protocol.messages import Drw, Gof, Huh, Message, Not, Prn, Rej, Sub, Yes


class Stage(Enum):
    """Where a session is in its life."""

    OPENED = "opened"
    GREETING = "greeting"
    JOINED = "joined"
    CLOSED = "closed"


GAME_ACTIONS = (Sub, Gof, Not, Drw)
"""Messages that act in the game as our power: only sent in a joined session."""

NOT_ANSWERED = (Yes, Rej, Huh, Prn)
"""Messages we send that are themselves answers: the server never answers them."""

AWAITED_MAX = 64
"""How many unanswered messages a session remembers (the oldest are forgotten first)."""


class SessionNotReady(Exception):
    """A game action was about to be sent before the session joined the game."""


class NotConnected(Exception):
    """A message was about to be sent on a connection that is gone."""


class Session:
    """The life of one connection; ``rejoin`` says whether it greets with IAM."""

    def __init__(self, rejoin: bool) -> None:
        self.rejoin = rejoin
        self.stage = Stage.OPENED
        self._awaited: deque[Message] = deque(maxlen=AWAITED_MAX)

    @property
    def joined(self) -> bool:
        """True once the server has taken us into the game on this connection."""
        return self.stage is Stage.JOINED

    def greeted(self) -> None:
        """The RM arrived: we may introduce ourselves."""
        if self.stage is Stage.OPENED:
            self.stage = Stage.GREETING

    def join(self) -> None:
        """The server took us in (HLO, or YES to IAM/OBS)."""
        if self.stage is not Stage.CLOSED:
            self.stage = Stage.JOINED

    def close(self) -> None:
        """The connection is over."""
        self.stage = Stage.CLOSED

    def send(self, message: Message) -> None:
        """``message`` is about to be sent: raise unless this stage allows it; remember it.

        :class:`SessionNotReady` for anything before the RM and for a game
        action before the session joined; :class:`NotConnected` when the
        connection is gone.
        """
        if self.stage is Stage.CLOSED:
            raise NotConnected("not connected")
        name = type(message).__name__.upper()
        if self.stage is Stage.OPENED:
            raise SessionNotReady(f"{name} before the server's RM")
        if isinstance(message, GAME_ACTIONS) and not self.joined:
            raise SessionNotReady(f"{name} before the session joined the game")
        if not isinstance(message, NOT_ANSWERED):
            self._awaited.append(message)

    def take(self, message: Message) -> bool:
        """Whether ``message`` was sent on this session and not answered yet; it is now.

        A server may quote our message back in its own spelling (a name, a
        version string), so a sent message of the same kind answers too: the
        oldest one still waiting.
        """
        sent = next((m for m in self._awaited if m == message), None)
        if sent is None:
            sent = next((m for m in self._awaited if type(m) is type(message)), None)
        if sent is None:
            return False
        self._awaited.remove(sent)
        return True
