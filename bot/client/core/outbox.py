"""Where the core's parts put their actions while one event is handled."""

from __future__ import annotations

from bot.client.core import notes
from bot.client.core.effects import Effect, Publish, ScheduleTick, Send
from bot.client.core.session import NotConnected, Session
from protocol.daide_errors import EncodeError
from protocol.messages import Message
from protocol.tokens import NO_MAP, TokenTable


class Outbox:
    """The actions of the event being handled, its time, the session that guards sends.

    ``table`` is the game's token table (the server's RM; no power or province
    before it): every text the core writes of a message or an order uses it.

    ``now`` is the event's time (the core reads no clock); :meth:`send` asks
    the session first, which raises :class:`~bot.client.core.session.SessionNotReady` for a
    game action before the session joined and
    :class:`~bot.client.core.session.NotConnected` without a connection.
    """

    def __init__(self) -> None:
        self.now = 0.0
        self.session: Session | None = None
        self.actions: list[Effect] = []
        self.table: TokenTable = NO_MAP

    def begin(self, now: float) -> None:
        """A new event at ``now``: an empty outbox."""
        self.now = now
        self.actions = []

    def take(self) -> list[Effect]:
        """The actions so far, in order; the outbox is empty afterwards."""
        actions, self.actions = self.actions, []
        return actions

    def act(self, action: Effect) -> None:
        """Ask the shell for ``action``."""
        self.actions.append(action)

    def note(self, note: notes.Note) -> None:
        """Publish ``note`` on the stream."""
        self.actions.append(Publish(note))

    def send(self, message: Message) -> None:
        """Send ``message`` if the session allows it (else raise, see the class)."""
        if self.session is None:
            raise NotConnected("not connected")
        self.session.send(message)
        self.actions.append(Send(message))

    def tick(self, at: float) -> None:
        """Be woken at ``at``."""
        self.actions.append(ScheduleTick(at))

    def ignore(self, why: str, message: Message) -> None:
        """Note a message that parsed but does not fit the game as we know it."""
        self.note(notes.MessageIgnored(why, self.text(message), kind(message)))

    def text(self, message: Message) -> str:
        """``message`` in DAIDE text, with the game's names (its repr if the table lacks one)."""
        try:
            return message.to_text(self.table)
        except EncodeError:
            return repr(message)


def kind(message: Message) -> str:
    """A message's name as the counters use it (``NOW``, ``REJ``)."""
    return type(message).__name__.upper()
