"""Seeded mutations of a recorded game stream: one hostile change per case.

A :class:`Script` is what the replay server (:mod:`bot.stress.fuzz_server`)
sends: the handshake replies, then the body's messages (each an
:class:`Item`) with a :class:`Barrier` after each phase's ``NOW`` (and its
``TME``), where the server waits for the client's orders.  :func:`mutate` turns the recorded
script into case ``case`` of a run with ``seed``: the same pair always gives
the same mutation.  The kinds, taken in turn:

============  ===========================================================================
kind          what changes
============  ===========================================================================
clean         nothing (the control: every invariant must hold)
drop          one message is left out
duplicate     one message is sent again, up to three messages later
reorder       one message swaps places with the next
corrupt       one message's tokens are broken: an unknown or misplaced token, cut short,
              a bracket lost (none of these parse), or a reserved token (a wire error)
mdf           the map: an adjacency group or a province entry dropped, duplicated or
              moved, an empty list, a province missing, a centre listed twice, a
              one-sided adjacency, an unknown province token
now           a phase's NOW: far in the future, in the past, another season, an army at
              sea, two units in a province, a retreat mark outside retreats, a unit
              lost or added; sent in place of, before or after the real one
sco           an SCO: a centre owned twice, a province that is no centre, centres
              swapped, one missing, all neutral; in place of, before or after the real one
ord           an ORD: for a unit that is not on the board, for another turn, its
              result flipped
hlo           a second HLO mid-game: another power, another passcode, other time
              limits, an observer's
mis           a MIS nobody asked for, once the client has ordered the phase: for a unit
              we do not have, another power's unit, a count in a movement phase, an
              empty one
rej           a REJ of something never sent: ``REJ (IAM (power) (1234))``, a REJ of the
              NME long after it was accepted, OBS, DRW, HST
tme           a TME: zero, one second, the largest number, negative, the clock stopped
foreign       a message from another real game, anywhere after the HLO
============  ===========================================================================

Every changed message carries an :class:`Expect`: what a client that does
its job makes of it (take it, ignore it and count it, answer HUH/PRN, send
EM and rejoin, or either of the first two).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property
from random import Random
from typing import Any

from adjudicator.errors import AdjudicatorError
from adjudicator.maps import SEA
from adjudicator.position import Position
from bot.stress.fuzz_stream import GameStream, foreign_messages
from bot.stress.hostile import RESERVED_TOKEN, UNKNOWN_TOKEN
from protocol.errors import EncodeError, LanguageError, ProtocolError
from protocol.expression import format_tokens
from protocol.messages import (
    Drw,
    Hlo,
    Hst,
    Iam,
    Mdf,
    Message,
    Mis,
    Nme,
    Not,
    Now,
    Obs,
    Ord,
    Rej,
    Sco,
    Tme,
    Yes,
    parse_message,
)
from protocol.tokens import BRA, KET, STANDARD
from protocol.values import (
    UNOWNED,
    Hold,
    Location,
    MapDefinition,
    OrderResult,
    Season,
    Turn,
    Unit,
    UnitPosition,
    UnitType,
)
from protocol.variant import Variant

UNKNOWN_PROVINCE = 0x57F0
"""A token in a province category that the standard representation does not assign."""

MAX_TRIES = 20
"""Attempts at a token corruption that does not parse, before falling back to a lost bracket."""

DUPLICATE_REACH = 3
"""How many messages later a duplicate may arrive."""

FUTURE_YEARS = (50, 6000)
"""How far ahead a NOW from the future is (years)."""


class Kind(StrEnum):
    """What a case changes in the stream (see the module docstring)."""

    CLEAN = "clean"
    DROP = "drop"
    DUPLICATE = "duplicate"
    REORDER = "reorder"
    CORRUPT = "corrupt"
    MDF = "mdf"
    NOW = "now"
    SCO = "sco"
    ORD = "ord"
    HLO = "hlo"
    MIS = "mis"
    REJ = "rej"
    TME = "tme"
    FOREIGN = "foreign"


KINDS: tuple[Kind, ...] = tuple(Kind)
"""Every kind, in the order cases take them (case ``i`` is of kind ``KINDS[i % 14]``)."""


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


@dataclass(frozen=True)
class Mutation:
    """One case: its number and seed, its kind, what was done, and the script to replay."""

    case: int
    seed: int
    kind: Kind
    description: str
    script: Script


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
        while last + 1 < len(stream.body) and _is_clock(stream.body[last + 1]):
            last += 1
        barrier_after[last] = phase.index
    for i, message in enumerate(stream.body):
        steps.append(item_of(message, recorded=i))
        if i in barrier_after:
            steps.append(Barrier(barrier_after[i]))
    return Script(handshake, tuple(steps))


def _is_clock(message: Message) -> bool:
    return isinstance(message, Tme) or (
        isinstance(message, Not) and isinstance(message.message, Tme)
    )


def case_kind(case: int) -> Kind:
    """The kind of case number ``case``."""
    return KINDS[case % len(KINDS)]


def mutate(stream: GameStream, case: int, seed: int) -> Mutation:
    """Case ``case`` of the run seeded ``seed``: the same pair always gives the same mutation."""
    kind = case_kind(case)
    draft = _Draft(stream, base_script(stream), Random(f"fuzz:{seed}:{case}"))
    description = _MUTATORS[kind](draft)
    return Mutation(case, seed, kind, description, draft.script())


# --- the draft a mutator edits ---------------------------------------------------------


@dataclass
class _Slot:
    """Where an item sits: in the handshake replies to request ``request``, or in the steps."""

    request: int | None
    index: int


@dataclass
class _Draft:
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
        handshake = tuple(
            (kind, tuple(items))
            for (kind, _), items in zip(self.base.handshake, self.handshake, strict=True)
        )
        return Script(handshake, tuple(self.steps), self.handshake_intact)

    # --- finding and placing items

    def slots(self, where: Callable[[Item], bool] = lambda _: True) -> list[_Slot]:
        found = [
            _Slot(r, i)
            for r, items in enumerate(self.handshake)
            for i, item in enumerate(items)
            if where(item)
        ]
        found += [
            _Slot(None, i)
            for i, step in enumerate(self.steps)
            if isinstance(step, Item) and where(step)
        ]
        return found

    def container(self, slot: _Slot) -> list[Any]:
        return self.steps if slot.request is None else self.handshake[slot.request]

    def get(self, slot: _Slot) -> Item:
        item: Item = self.container(slot)[slot.index]
        return item

    def pick(self, slots: list[_Slot]) -> _Slot:
        """A slot, the message kind first drawn evenly (there are far more ORD than HLO)."""
        by_command: dict[str, list[_Slot]] = {}
        for slot in slots:
            by_command.setdefault(self.get(slot).command, []).append(slot)
        command = self.rng.choice(sorted(by_command))
        return self.rng.choice(by_command[command])

    def touched(self, slot: _Slot) -> None:
        if slot.request is not None:
            self.handshake_intact = False

    def step_of(self, recorded: int) -> int:
        """Index in the steps of the recorded body message ``recorded``."""
        for i, step in enumerate(self.steps):
            if isinstance(step, Item) and step.recorded == recorded:
                return i
        raise LookupError(recorded)

    def barrier_of(self, phase: int) -> int:
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


def _label(item: Item) -> str:
    text = item.text
    return text if len(text) <= 70 else text[:67] + "..."


# --- the mutators, one per kind ------------------------------------------------------


def _clean(d: _Draft) -> str:
    return "the recorded game, unchanged"


def _drop(d: _Draft) -> str:
    slot = d.pick(d.slots())
    item = d.get(slot)
    d.touched(slot)
    del d.container(slot)[slot.index]
    return f"drop {_label(item)}"


def _duplicate(d: _Draft) -> str:
    slot = d.pick(d.slots())
    item = d.get(slot)
    container = d.container(slot)
    reach = 1 if slot.request is not None else 1 + d.rng.randrange(DUPLICATE_REACH)
    at = min(len(container), slot.index + reach)
    container.insert(at, dataclasses.replace(item, expect=Expect.ANY))
    d.touched(slot)
    return f"duplicate {_label(item)} ({reach} later)"


def _reorder(d: _Draft) -> str:
    def has_next(slot: _Slot) -> bool:
        return _next_item(d.container(slot), slot.index) is not None

    slot = d.pick([s for s in d.slots() if has_next(s)])
    container = d.container(slot)
    other = _next_item(container, slot.index)
    assert other is not None
    first, second = container[slot.index], container[other]
    container[slot.index], container[other] = second, first
    d.touched(slot)
    return f"reorder: {_label(second)} before {_label(first)}"


def _next_item(container: list[Any], index: int) -> int | None:
    for j in range(index + 1, len(container)):
        if isinstance(container[j], Item):
            return j
    return None


def _corrupt(d: _Draft) -> str:
    slot = d.pick(d.slots())
    item = d.get(slot)
    tokens, how, expect = _corrupt_tokens(item.tokens, d.rng)
    d.container(slot)[slot.index] = Item(tokens, expect)
    d.touched(slot)
    return f"corrupt ({how}) {_label(item)}"


def _corrupt_tokens(tokens: tuple[int, ...], rng: Random) -> tuple[tuple[int, ...], str, Expect]:
    how = rng.choice(("unknown token", "misplaced token", "cut short", "lost bracket", "reserved"))
    if how == "reserved":
        at = rng.randrange(len(tokens))
        return (*tokens[:at], RESERVED_TOKEN, *tokens[at + 1 :]), how, Expect.VIOLATION
    for _ in range(MAX_TRIES):
        if how == "unknown token":
            at = rng.randrange(len(tokens))
            broken = (*tokens[:at], UNKNOWN_TOKEN, *tokens[at + 1 :])
        elif how == "misplaced token":
            at = rng.randrange(len(tokens))
            broken = (*tokens[:at], rng.choice(tokens), *tokens[at + 1 :])
        elif how == "cut short" and len(tokens) > 1:
            broken = tokens[: rng.randrange(1, len(tokens))]
        else:
            break
        if _fails_to_parse(broken):
            return broken, how, Expect.MALFORMED
    brackets = [i for i, t in enumerate(tokens) if t in (BRA, KET)]
    if not brackets:  # a bare command: a bracket too many
        return (*tokens, KET), "lost bracket", Expect.MALFORMED
    at = rng.choice(brackets)
    return (*tokens[:at], *tokens[at + 1 :]), "lost bracket", Expect.MALFORMED


def _fails_to_parse(tokens: tuple[int, ...]) -> bool:
    try:
        parse_message(tokens)
    except LanguageError:
        return True
    return False


def _mdf(d: _Draft) -> str:
    slot = next(s for s in d.slots() if isinstance(d.get(s).message, Mdf))
    mdf = d.get(slot).message
    assert isinstance(mdf, Mdf) and mdf.definition is not None
    how, tokens = _mutate_map(mdf.definition, d.rng)
    expect = Expect.MALFORMED if _fails_to_parse(tokens) else Expect.ANY
    d.container(slot)[slot.index] = Item(tokens, expect)
    d.handshake_intact = False
    return f"MDF: {how}"


def _mutate_map(definition: MapDefinition, rng: Random) -> tuple[str, tuple[int, ...]]:
    adj = list(definition.adjacencies)
    p = rng.randrange(len(adj))
    entry = adj[p]
    name = entry.province
    how = rng.choice(
        (
            "drop group",
            "drop entry",
            "duplicate entry",
            "foreign group",
            "empty list",
            "missing province",
            "centre twice",
            "one-sided",
            "unknown province",
        )
    )
    centres = list(definition.supply_centres)
    non_supply = list(definition.non_supply_centres)
    if how == "drop group" and entry.entries:
        g = rng.randrange(len(entry.entries))
        group = entry.entries[g]
        adj[p] = dataclasses.replace(entry, entries=entry.entries[:g] + entry.entries[g + 1 :])
        how = f"{name} loses its group ( {group.kind.value} {_places(group.destinations)} )"
    elif how == "drop entry":
        del adj[p]
        how = f"{name}'s adjacency entry dropped"
    elif how == "duplicate entry":
        adj.insert(p, entry)
        how = f"{name}'s adjacency entry listed twice"
    elif how == "foreign group":
        donor = adj[(p + 1 + rng.randrange(len(adj) - 1)) % len(adj)]
        if donor.entries:
            group = rng.choice(donor.entries)
            adj[p] = dataclasses.replace(entry, entries=(*entry.entries, group))
            how = f"{name} gets {donor.province}'s group ( {group.kind.value} ... )"
    elif how == "empty list" and entry.entries:
        g = rng.randrange(len(entry.entries))
        emptied = dataclasses.replace(entry.entries[g], destinations=())
        adj[p] = dataclasses.replace(
            entry, entries=(*entry.entries[:g], emptied, *entry.entries[g + 1 :])
        )
        how = f"{name}'s {emptied.kind.value} group is empty"
    elif how == "missing province":
        if name in non_supply:
            non_supply.remove(name)
        else:
            centres = [(owners, tuple(c for c in cs if c != name)) for owners, cs in centres]
        how = f"{name} missing from the province lists (its neighbours still name it)"
    elif how == "centre twice":
        _, listed = rng.choice([c for c in centres if c[1]])
        centre = rng.choice(listed)
        other = rng.randrange(len(centres))
        centres[other] = (centres[other][0], (*centres[other][1], centre))
        how = f"supply centre {centre} listed twice"
    elif how == "one-sided":
        groups = [g for g in entry.entries if g.destinations]
        if groups:
            group = rng.choice(groups)
            gone = rng.choice(group.destinations)
            kept = tuple(x for x in group.destinations if x != gone)
            shortened = dataclasses.replace(group, destinations=kept)
            adj[p] = dataclasses.replace(
                entry, entries=tuple(shortened if g is group else g for g in entry.entries)
            )
            how = f"{name} no longer lists {gone} ({gone} still lists {name})"
    changed = dataclasses.replace(
        definition,
        supply_centres=tuple(centres),
        non_supply_centres=tuple(non_supply),
        adjacencies=tuple(adj),
    )
    tokens = Mdf(changed).to_tokens()
    if how == "unknown province":
        # Into the adjacency section (the last group of the message): an unassigned province.
        at = len(tokens) - 1 - rng.randrange(1, max(2, len(tokens) // 3))
        while tokens[at] in (BRA, KET):
            at -= 1
        tokens = (*tokens[: at + 1], UNKNOWN_PROVINCE, *tokens[at + 1 :])
        how = f"an unassigned province token 0x{UNKNOWN_PROVINCE:04X} among the adjacencies"
    return how, tokens


def _places(locations: tuple[Location, ...]) -> str:
    return " ".join(str(x) for x in locations)


def _now(d: _Draft) -> str:
    phase = d.rng.choice(d.stream.phases)
    real = d.stream.body[phase.now]
    assert isinstance(real, Now) and real.turn is not None
    game_map = d.stream.game_map
    units = list(real.units)
    turn = real.turn
    nominal = Expect.ACCEPT
    how = d.rng.choice(
        ("future", "past", "other season", "army at sea", "two units", "mrt", "lost unit", "extra")
    )
    ours = [i for i, u in enumerate(units) if u.unit.power == d.stream.power]
    if how == "future":
        turn = Turn(turn.season, min(8191, turn.year + d.rng.randint(*FUTURE_YEARS)))
    elif how == "past":
        turn = Turn(turn.season, turn.year - 1)
        nominal = Expect.ANY
    elif how == "other season":
        seasons = [s for s in Season if s is not turn.season]
        turn = Turn(d.rng.choice(seasons), turn.year)
    elif how == "army at sea":
        taken = {u.unit.province for u in units}
        seas = [p for i, p in enumerate(game_map.provinces) if game_map.kind[i] == SEA]
        sea = d.rng.choice([s for s in seas if s not in taken])
        i = d.rng.randrange(len(units))
        unit = units[i].unit
        units[i] = UnitPosition(Unit(unit.power, UnitType.ARMY, Location(sea)), units[i].retreats)
        how = f"army at sea ({unit} becomes an army in {sea})"
    elif how == "two units":
        i = d.rng.randrange(len(units))
        unit = units[i].unit
        other = next(p for p in game_map.powers if p != unit.power)
        units.insert(i + 1, UnitPosition(dataclasses.replace(unit, power=other)))
        how = f"two units in {unit.province}"
    elif how == "mrt":
        i = d.rng.randrange(len(units))
        units[i] = UnitPosition(units[i].unit, ())
        if turn.season.is_retreat:
            turn = Turn(Season.SPRING, turn.year)
        how = f"{units[i].unit} must retreat in {turn.season.value}"
    elif how == "lost unit" and ours:
        lost = units.pop(d.rng.choice(ours))
        how = f"our {lost.unit} missing"
    else:
        taken = {u.unit.province for u in units}
        free = [
            p
            for i, p in enumerate(game_map.provinces)
            if game_map.kind[i] != SEA and p not in taken and not game_map.is_supply[i]
        ]
        place = d.rng.choice(free)
        units.append(UnitPosition(Unit(d.stream.power, UnitType.ARMY, Location(place))))
        how = f"an extra army of ours in {place}"
    centres = d.stream.body[phase.sco].centres if phase.sco is not None else ()  # type: ignore[attr-defined]
    changed = Now(turn, tuple(units))
    expect = nominal if _fits(d, changed, centres) else Expect.IGNORE
    where = d.place(item_of(changed, expect), phase.now)
    return f"NOW {real.turn} ({how}) {where} the real one"


def _fits(d: _Draft, now: Now, centres: object) -> bool:
    try:
        assert now.turn is not None
        Position.from_values(d.stream.game_map, now.turn, now.units, centres)  # type: ignore[arg-type]
    except (AdjudicatorError, KeyError, ValueError):
        return False
    return True


def _sco(d: _Draft) -> str:
    scos = [i for i, m in enumerate(d.stream.body) if isinstance(m, Sco) and m.centres]
    index = d.rng.choice(scos)
    real = d.stream.body[index]
    assert isinstance(real, Sco) and real.centres is not None
    game_map = d.stream.game_map
    centres = [(p, list(cs)) for p, cs in real.centres]
    owned = [(i, c) for i, (_, cs) in enumerate(centres) for c in cs]
    how = d.rng.choice(("owned twice", "not a centre", "swapped", "missing", "all neutral"))
    nominal = Expect.ACCEPT
    if how == "owned twice":
        i, centre = d.rng.choice(owned)
        j = d.rng.choice([k for k in range(len(centres)) if k != i])
        centres[j][1].append(centre)
        how = f"{centre} owned by {centres[i][0]} and {centres[j][0]}"
    elif how == "not a centre":
        plain = [p for i, p in enumerate(game_map.provinces) if not game_map.is_supply[i]]
        province = d.rng.choice(plain)
        j = d.rng.randrange(len(centres))
        centres[j][1].append(province)
        how = f"{province}, no supply centre, owned by {centres[j][0]}"
    elif how == "swapped":
        (i, a), (j, b) = d.rng.sample(owned, 2)
        centres[i][1][centres[i][1].index(a)] = b
        centres[j][1][centres[j][1].index(b)] = a
        how = f"{a} and {b} swap owners"
    elif how == "missing":
        i, centre = d.rng.choice(owned)
        centres[i][1].remove(centre)
        nominal = Expect.ANY
        how = f"{centre} not listed"
    else:
        everything = tuple(c for _, c in owned)
        centres = [(UNOWNED, list(everything))]
        how = "every centre neutral"
    changed = Sco(tuple((p, tuple(cs)) for p, cs in centres))
    following = next((p for p in d.stream.phases if p.now > index), d.stream.phases[-1])
    now = d.stream.body[following.now]
    assert isinstance(now, Now)
    try:
        assert now.turn is not None
        Position.from_values(game_map, now.turn, now.units, changed.centres)  # type: ignore[arg-type]
        expect = nominal
    except (AdjudicatorError, KeyError, ValueError):
        expect = Expect.IGNORE
    where = d.place(item_of(changed, expect), index)
    return f"SCO ({how}) {where} the real one"


def _ord(d: _Draft) -> str:
    ords = [i for i, m in enumerate(d.stream.body) if isinstance(m, Ord) and m.entry]
    index = d.rng.choice(ords)
    real = d.stream.body[index]
    assert isinstance(real, Ord) and real.entry is not None
    entry = real.entry
    how = d.rng.choice(("absent unit", "other turn", "flipped"))
    expect = Expect.IGNORE
    if how == "absent unit":
        unit = _absent_fleet(d, entry.turn)
        changed = OrderResult(entry.turn, Hold(unit), ("SUC",))
        how = f"for {unit}, which is not on the board"
    elif how == "other turn":
        changed = dataclasses.replace(entry, turn=Turn(entry.turn.season, entry.turn.year + 3))
        how = f"for {changed.turn}"
    else:
        flipped = ("BNC",) if entry.result == ("SUC",) else ("SUC",)
        changed = dataclasses.replace(entry, result=flipped)
        expect = Expect.ANY
        how = f"result {' '.join(flipped)} instead of {' '.join(entry.result)}"
    d.steps[d.step_of(index)] = item_of(Ord(changed), expect)
    return f"ORD {entry.turn} {how}"


def _absent_fleet(d: _Draft, turn: Turn) -> Unit:
    """A fleet of our power in a sea where no unit stands in the phase of ``turn``."""
    phase = next((p for p in d.stream.phases if p.turn == turn), d.stream.phases[0])
    game_map = d.stream.game_map
    taken = set(phase.position.units)
    seas = [p for p in range(game_map.num_provinces) if game_map.kind[p] == SEA and p not in taken]
    sea = game_map.provinces[d.rng.choice(seas)]
    return Unit(d.stream.power, UnitType.FLEET, Location(sea))


def _hlo(d: _Draft) -> str:
    real = d.stream.greeting
    how = d.rng.choice(("other power", "other passcode", "other limits", "observer"))
    expect = Expect.IGNORE
    if how == "other power":
        power = d.rng.choice([p for p in d.stream.game_map.powers if p != real.power])
        changed = dataclasses.replace(real, power=power)
    elif how == "other passcode":
        changed = dataclasses.replace(real, passcode=((real.passcode or 0) + 1) % 8192)
    elif how == "other limits":
        changed = dataclasses.replace(real, variant=Variant.of(0, move_time_limit=1))
        expect = Expect.ANY
    else:
        changed = Hlo("UNO", 0, real.variant)
    d.steps.insert(d.after_hlo(), item_of(changed, expect))
    return f"a second HLO ({how}): {changed}"


def _mis(d: _Draft) -> str:
    phase = d.rng.choice([p for p in d.stream.phases if not p.after_end])
    power = d.stream.power
    how = d.rng.choice(("absent unit", "other power", "wrong form", "empty"))
    expect = Expect.IGNORE
    if how == "absent unit":
        changed = Mis((UnitPosition(_absent_fleet(d, phase.turn)),))
    elif how == "other power":
        theirs = [u for u in phase.position.unit_positions() if u.unit.power != power]
        changed = Mis((d.rng.choice(theirs),))
        expect = Expect.ANY  # not about us at all: dropping it without a count is fine
    elif how == "wrong form":
        if phase.position.is_adjustment:
            changed = Mis((d.rng.choice(phase.position.unit_positions()),))
        else:
            changed = Mis(count=-2)
    else:
        changed = Mis()
        expect = Expect.ANY
    at = d.barrier_of(phase.index)
    d.steps[at:at] = [AwaitOrders(phase.index), item_of(changed, expect), Pause(REACTION)]
    return f"MIS in {phase.turn} ({how}): {changed}"


def _rej(d: _Draft) -> str:
    power = d.stream.power
    phase = d.rng.choice(d.stream.phases)
    refused: Message = d.rng.choice(
        (
            Iam(power, 1234),
            Nme("daide-mcts", "0.1"),
            Obs(),
            Drw(),
            Hst(phase.turn),
        )
    )
    d.steps.insert(d.after_hlo(), item_of(Rej(refused), Expect.IGNORE))
    return f"unsolicited REJ ( {refused} )"


def _tme(d: _Draft) -> str:
    clocks = [i for i, m in enumerate(d.stream.body) if _is_clock(m)]
    index = d.rng.choice(clocks)
    seconds = d.rng.choice((0, 1, 8191, -5, None))
    changed: Message = Not(Tme(3)) if seconds is None else Tme(seconds)
    if d.rng.random() < 0.5:
        d.steps[d.step_of(index)] = item_of(changed, Expect.ANY)
        where = "instead of"
    else:
        d.steps.insert(d.step_of(index) + 1, item_of(changed, Expect.ANY))
        where = "after"
    return f"{changed} {where} {d.stream.body[index]}"


def _foreign(d: _Draft) -> str:
    message = d.rng.choice(foreign_messages())
    expect = Expect.IGNORE if isinstance(message, Hlo) and message.power else Expect.ANY
    try:
        item = item_of(message, expect)
    except EncodeError:  # pragma: no cover - the sample game is on the standard map
        item = item_of(Yes(message), Expect.ANY)
    d.steps.insert(d.after_hlo(), item)
    return f"from another game: {_label(item)}"


_MUTATORS: dict[Kind, Callable[[_Draft], str]] = {
    Kind.CLEAN: _clean,
    Kind.DROP: _drop,
    Kind.DUPLICATE: _duplicate,
    Kind.REORDER: _reorder,
    Kind.CORRUPT: _corrupt,
    Kind.MDF: _mdf,
    Kind.NOW: _now,
    Kind.SCO: _sco,
    Kind.ORD: _ord,
    Kind.HLO: _hlo,
    Kind.MIS: _mis,
    Kind.REJ: _rej,
    Kind.TME: _tme,
    Kind.FOREIGN: _foreign,
}
