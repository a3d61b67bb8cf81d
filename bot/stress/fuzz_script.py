"""What the replay server sends, and the draft a mutation edits.

A :class:`Script` is the handshake replies, then the body's messages (each an
:class:`Item`) with a :class:`Barrier` after each phase's ``NOW`` (and its
``TME``), where the server waits for the client's orders; :class:`AwaitOrders`
and :class:`Pause` hold the server back where a mutation needs the client to
have ordered, or to have had time to react.  Every changed message carries an
:class:`Expect`: what a client that does its job makes of it.  A mutation
(:mod:`bot.stress.fuzz_mutations`) edits a :class:`Draft` of the recorded
script.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property
from random import Random
from typing import Any

from bot.stress.fuzz_stream import GameStream
from protocol.daide_errors import LanguageError, ProtocolError
from protocol.expression import format_tokens
from protocol.messages import Message, Not, Tme, parse_message
from protocol.tokens import STANDARD


class Expect(StrEnum):
    """What a client that does its job makes of a message."""

    ACCEPT = "accept"
    """Well-formed and fits the game: taken as given."""
    IGNORE = "ignore"
    """Parses, but contradicts the game or answers what was never sent: logged, counted, ignored."""
    MALFORMED = "malformed"
    """Does not parse: answered with HUH or PRN, counted."""
    VIOLATION = "violation"
    """Breaks the wire protocol: answered with EM, the connection closed and joined again."""
    ANY = "any"
    """May be taken or ignored (a duplicate, a NOW from the past, another game's message)."""


ERRORS = (Expect.IGNORE, Expect.MALFORMED, Expect.VIOLATION)
"""Expectations that the client's error counters must show."""


@dataclass(frozen=True)
class Item:
    """One message the server sends: its tokens, what the client should make of it.

    ``recorded`` is the index in the recorded body of the message this is,
    unchanged (None for a changed, injected or handshake message).
    """

    tokens: tuple[int, ...]
    expect: Expect = Expect.ACCEPT
    recorded: int | None = None

    @cached_property
    def message(self) -> Message | None:
        """The message, or None if it does not parse."""
        try:
            return parse_message(self.tokens)
        except LanguageError:
            return None

    @property
    def text(self) -> str:
        """The DAIDE text (hexadecimal numbers for tokens that have no name)."""
        try:
            return format_tokens(self.tokens)
        except (ProtocolError, KeyError, ValueError):
            return " ".join(f"0x{t:04X}" for t in self.tokens)

    @property
    def command(self) -> str:
        """The first token's name (``NOW``, ``ORD`` ...)."""
        return STANDARD.names.get(self.tokens[0], f"0x{self.tokens[0]:04X}")


@dataclass(frozen=True)
class Barrier:
    """The server waits here for the client's orders for ``phase`` (or the deadline)."""

    phase: int


@dataclass(frozen=True)
class AwaitOrders:
    """The server waits here until the client has ordered ``phase`` (or for a while)."""

    phase: int


@dataclass(frozen=True)
class Pause:
    """The server waits ``seconds`` here: time for the client to react to what came before."""

    seconds: float


REACTION = 0.5
"""Seconds given to the client to answer a message it should ignore (a MIS it was not owed)."""

Step = Item | Barrier | AwaitOrders | Pause


@dataclass(frozen=True)
class Script:
    """What the replay server sends: handshake replies by request, then the steps."""

    handshake: tuple[tuple[type[Message], tuple[Item, ...]], ...]
    steps: tuple[Step, ...]
    handshake_intact: bool = True
    """False when a handshake reply (the map included) was changed: no phase is owed then."""

    def replies(self, request: Message) -> tuple[Item, ...]:
        """The replies to a handshake request (none if there are none)."""
        for kind, items in self.handshake:
            if isinstance(request, kind):
                return items
        return ()


def item_of(message: Message, expect: Expect = Expect.ACCEPT, recorded: int | None = None) -> Item:
    """The item sending ``message``."""
    return Item(message.to_tokens(), expect, recorded)


def base_script(stream: GameStream) -> Script:
    """The recorded stream as a script, unchanged."""
    handshake = tuple(
        (kind, tuple(item_of(m) for m in replies)) for kind, replies in stream.handshake
    )
    steps: list[Step] = []
    barrier_after: dict[int, int] = {}
    for phase in stream.phases:
        last = phase.now
        while last + 1 < len(stream.body) and is_clock(stream.body[last + 1]):
            last += 1
        barrier_after[last] = phase.index
    for i, message in enumerate(stream.body):
        steps.append(item_of(message, recorded=i))
        if i in barrier_after:
            steps.append(Barrier(barrier_after[i]))
    return Script(handshake, tuple(steps))


def is_clock(message: Message) -> bool:
    """A ``TME`` or ``NOT (TME)``: the server's clock."""
    return isinstance(message, Tme) or (
        isinstance(message, Not) and isinstance(message.message, Tme)
    )


# --- the draft a mutation edits ---------------------------------------------------------


@dataclass
class Slot:
    """Where an item sits: in the handshake replies to request ``request``, or in the steps."""

    request: int | None
    index: int


@dataclass
class Draft:
    """The recorded script being changed: handshake replies and steps as lists."""

    stream: GameStream
    base: Script
    rng: Random
    handshake: list[list[Item]] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)
    handshake_intact: bool = True

    def __post_init__(self) -> None:
        self.handshake = [list(items) for _, items in self.base.handshake]
        self.steps = list(self.base.steps)

    def script(self) -> Script:
        """The script as it now stands."""
        handshake = tuple(
            (kind, tuple(items))
            for (kind, _), items in zip(self.base.handshake, self.handshake, strict=True)
        )
        return Script(handshake, tuple(self.steps), self.handshake_intact)

    # --- finding and placing items

    def slots(self, where: Callable[[Item], bool] = lambda _: True) -> list[Slot]:
        """Where the items ``where`` accepts sit, handshake replies first."""
        found = [
            Slot(r, i)
            for r, items in enumerate(self.handshake)
            for i, item in enumerate(items)
            if where(item)
        ]
        found += [
            Slot(None, i)
            for i, step in enumerate(self.steps)
            if isinstance(step, Item) and where(step)
        ]
        return found

    def container(self, slot: Slot) -> list[Any]:
        """The list ``slot`` is in."""
        return self.steps if slot.request is None else self.handshake[slot.request]

    def get(self, slot: Slot) -> Item:
        """The item at ``slot``."""
        item: Item = self.container(slot)[slot.index]
        return item

    def pick(self, slots: list[Slot]) -> Slot:
        """A slot, the message kind first drawn evenly (there are far more ORD than HLO)."""
        by_command: dict[str, list[Slot]] = {}
        for slot in slots:
            by_command.setdefault(self.get(slot).command, []).append(slot)
        command = self.rng.choice(sorted(by_command))
        return self.rng.choice(by_command[command])

    def touched(self, slot: Slot) -> None:
        """The item at ``slot`` was changed (a handshake reply: no phase is owed then)."""
        if slot.request is not None:
            self.handshake_intact = False

    def step_of(self, recorded: int) -> int:
        """Index in the steps of the recorded body message ``recorded``."""
        for i, step in enumerate(self.steps):
            if isinstance(step, Item) and step.recorded == recorded:
                return i
        raise LookupError(recorded)

    def barrier_of(self, phase: int) -> int:
        """Index in the steps of ``phase``'s barrier."""
        for i, step in enumerate(self.steps):
            if isinstance(step, Barrier) and step.phase == phase:
                return i
        raise LookupError(phase)

    def after_hlo(self) -> int:
        """A random step index after the game's HLO and before its last message.

        That is where an injected message may go: the client stops reading once
        the game is over (SMR), so a message after the last one might go unread.
        """
        first = self.step_of(self.stream.hlo) + 1
        last = self.step_of(len(self.stream.body) - 1)
        return self.rng.randrange(first, last + 1)

    def place(self, item: Item, recorded: int) -> str:
        """Send ``item`` instead of, before or after the recorded message ``recorded``."""
        at = self.step_of(recorded)
        how = self.rng.choice(("instead of", "before", "after"))
        if how == "instead of":
            self.steps[at] = item
        elif how == "before":
            self.steps.insert(at, item)
        else:
            self.steps.insert(at + 1, item)
        return how


def label(item: Item) -> str:
    """The item's text, cut to one short line."""
    text = item.text
    return text if len(text) <= 70 else text[:67] + "..."


def fails_to_parse(tokens: tuple[int, ...]) -> bool:
    """Whether ``tokens`` do not parse as a message."""
    try:
        parse_message(tokens)
    except LanguageError:
        return True
    return False
