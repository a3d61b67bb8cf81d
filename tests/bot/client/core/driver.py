"""Drives a :class:`bot.client.core.core.BotCore` by hand: events in at chosen times, actions out.

No socket and no clock: each step names its time, and the test reads what
the core asked for (messages sent, search jobs, ticks, notes).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypeVar

from adjudicator.maps import standard_map
from adjudicator.position import Position, initial_position
from adjudicator.standard import standard_definition
from bot.client.core import events as ev
from bot.client.core import notes
from bot.client.core.core import BotCore, CoreSettings
from bot.client.core.effects import (
    CancelSearch,
    Effect,
    Publish,
    RetimeSearch,
    ScheduleTick,
    Send,
    StartSearch,
)
from protocol.messages import Hlo, Map, Mdf, Message, Nme, Now, Sco, Yes
from protocol.tokens import STANDARD, TokenTable
from protocol.variant import Variant
from protocol.wire import DiplomacyMessage, RepresentationMessage
from search.mcts.worker_protocol import Answer, Orders, Progress

PASSCODE = 4242

A = TypeVar("A", bound=Effect)
M = TypeVar("M", bound=Message)
N = TypeVar("N", bound=notes.Note)


def opening() -> Position:
    """Spring 1901 on the standard map."""
    return initial_position(standard_map())


@dataclass
class Driver:
    """A core and everything it asked for, step by step (``log`` keeps every action).

    ``table`` is the game's token table (the server's RM): the messages are
    written with the standard map's token numbers and read with its names.
    """

    core: BotCore = field(
        default_factory=lambda: BotCore(CoreSettings(name="test", version="1", seed=7))
    )
    now: float = 100.0
    log: list[Effect] = field(default_factory=list)
    table: TokenTable = STANDARD

    def feed(self, event: ev.Event) -> list[Effect]:
        """Hand the core ``event``; its actions (also kept in ``log``)."""
        actions = self.core.handle(event)
        self.log.extend(actions)
        return actions

    def at(self, when: float) -> Driver:
        """Move the clock to ``when`` (never backwards)."""
        assert when >= self.now
        self.now = when
        return self

    def later(self, seconds: float) -> Driver:
        """Move the clock on by ``seconds``."""
        return self.at(self.now + seconds)

    # --- the server's side -------------------------------------------------------------

    def open(self) -> list[Effect]:
        """A new connection; its RM."""
        out = self.feed(ev.ConnectionOpened(self.now, "127.0.0.1", 16713))
        return out + self.open_rm()

    def open_rm(self) -> list[Effect]:
        """The server's RM on the connection just opened."""
        rm = (
            RepresentationMessage()
            if self.table == STANDARD
            else RepresentationMessage.of(self.table)
        )
        return self.feed(ev.ServerMessage(self.now, rm))

    def say(self, *messages: Message) -> list[Effect]:
        """The server sends ``messages`` (now)."""
        out: list[Effect] = []
        for message in messages:
            wire = DiplomacyMessage(tuple(message.to_tokens(STANDARD)), self.table)
            out += self.feed(ev.ServerMessage(self.now, wire))
        return out

    def join(self, variant: Variant | None = None, power: str = "FRA") -> list[Effect]:
        """Connect and be taken in as a new player: NME, MAP, MDF, HLO."""
        out = self.open()
        out += self.say(Yes(Nme("test", "1")), Map("STANDARD"), Mdf(standard_definition()))
        out += self.say(Hlo(power, PASSCODE, variant or Variant.of(move_time_limit=10)))
        return out

    def show(self, pos: Position) -> list[Effect]:
        """SCO and NOW of ``pos``."""
        return self.say(Sco(pos.centres()), Now(pos.turn, pos.unit_positions()))

    def lose(self) -> list[Effect]:
        """The connection drops."""
        return self.feed(ev.ConnectionLost(self.now, "cut"))

    def tick(self) -> list[Effect]:
        """A timer fires now."""
        return self.feed(ev.Tick(self.now))

    def progress(self, job: int, orders: Orders) -> list[Effect]:
        """The search reports an improvement for ``job``."""
        return self.feed(ev.SearchMessage(self.now, Progress(job, orders, {"iterations": 1})))

    def answer(self, job: int, orders: Orders) -> list[Effect]:
        """The search's final answer for ``job``."""
        return self.feed(ev.SearchMessage(self.now, Answer(job, orders, {"iterations": 2})))

    # --- reading the actions -------------------------------------------------------------------


def sent(actions: list[Effect], kind: type[M] | None = None) -> list[M]:
    """The messages among ``actions`` (of ``kind``)."""
    return [
        a.message
        for a in actions
        if isinstance(a, Send) and (kind is None or isinstance(a.message, kind))
    ]  # type: ignore[misc]


def of(actions: list[Effect], kind: type[A]) -> list[A]:
    """The actions of ``kind``."""
    return [a for a in actions if isinstance(a, kind)]


def noted(actions: list[Effect], kind: type[N]) -> list[N]:
    """The notes of ``kind`` among ``actions``."""
    return [a.note for a in actions if isinstance(a, Publish) and isinstance(a.note, kind)]


def job_of(actions: list[Effect]) -> StartSearch:
    """The one search job started among ``actions``."""
    (start,) = of(actions, StartSearch)
    return start


__all__ = [
    "PASSCODE",
    "CancelSearch",
    "Driver",
    "RetimeSearch",
    "ScheduleTick",
    "StartSearch",
    "job_of",
    "noted",
    "of",
    "opening",
    "sent",
]
