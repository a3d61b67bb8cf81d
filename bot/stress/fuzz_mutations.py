"""Seeded mutations of a recorded game stream: one hostile change per case.

A :class:`~bot.stress.fuzz_script.Script` is what the replay server
(:mod:`bot.stress.fuzz_server`) sends.  :func:`mutate` turns the recorded
script into case ``case`` of a run with ``seed``: the same pair always gives
the same mutation.  The kinds, taken in turn (the single-message ones are in
:mod:`bot.stress.fuzz_messages`):

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

Every changed message carries an :class:`~bot.stress.fuzz_script.Expect`:
what a client that does its job makes of it (take it, ignore it and count it,
answer HUH/PRN, send EM and rejoin, or either of the first two).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from random import Random
from typing import Any

from bot.stress import fuzz_messages as messages
from bot.stress.fuzz_script import (
    Draft,
    Expect,
    Item,
    Script,
    Slot,
    base_script,
    fails_to_parse,
    label,
)
from bot.stress.fuzz_stream import GameStream
from bot.stress.hostile import RESERVED_TOKEN, UNKNOWN_TOKEN
from protocol.tokens import BRA, KET

MAX_TRIES = 20
"""Attempts at a token corruption that does not parse, before falling back to a lost bracket."""

DUPLICATE_REACH = 3
"""How many messages later a duplicate may arrive."""


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


@dataclass(frozen=True)
class Mutation:
    """One case: its number and seed, its kind, what was done, and the script to replay."""

    case: int
    seed: int
    kind: Kind
    description: str
    script: Script


def case_kind(case: int) -> Kind:
    """The kind of case number ``case``."""
    return KINDS[case % len(KINDS)]


def mutate(stream: GameStream, case: int, seed: int) -> Mutation:
    """Case ``case`` of the run seeded ``seed``: the same pair always gives the same mutation."""
    kind = case_kind(case)
    draft = Draft(stream, base_script(stream), Random(f"fuzz:{seed}:{case}"))
    description = _MUTATORS[kind](draft)
    return Mutation(case, seed, kind, description, draft.script())


# --- the mutators, one per kind ------------------------------------------------------


def _clean(d: Draft) -> str:
    return "the recorded game, unchanged"


def _drop(d: Draft) -> str:
    slot = d.pick(d.slots())
    item = d.get(slot)
    d.touched(slot)
    del d.container(slot)[slot.index]
    return f"drop {label(item)}"


def _duplicate(d: Draft) -> str:
    slot = d.pick(d.slots())
    item = d.get(slot)
    container = d.container(slot)
    reach = 1 if slot.request is not None else 1 + d.rng.randrange(DUPLICATE_REACH)
    at = min(len(container), slot.index + reach)
    container.insert(at, dataclasses.replace(item, expect=Expect.ANY))
    d.touched(slot)
    return f"duplicate {label(item)} ({reach} later)"


def _reorder(d: Draft) -> str:
    def has_next(slot: Slot) -> bool:
        return _next_item(d.container(slot), slot.index) is not None

    slot = d.pick([s for s in d.slots() if has_next(s)])
    container = d.container(slot)
    other = _next_item(container, slot.index)
    assert other is not None
    first, second = container[slot.index], container[other]
    container[slot.index], container[other] = second, first
    d.touched(slot)
    return f"reorder: {label(second)} before {label(first)}"


def _next_item(container: list[Any], index: int) -> int | None:
    for j in range(index + 1, len(container)):
        if isinstance(container[j], Item):
            return j
    return None


def _corrupt(d: Draft) -> str:
    slot = d.pick(d.slots())
    item = d.get(slot)
    tokens, how, expect = _corrupt_tokens(item.tokens, d.rng)
    d.container(slot)[slot.index] = Item(tokens, expect)
    d.touched(slot)
    return f"corrupt ({how}) {label(item)}"


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
        if fails_to_parse(broken):
            return broken, how, Expect.MALFORMED
    brackets = [i for i, t in enumerate(tokens) if t in (BRA, KET)]
    if not brackets:  # a bare command: a bracket too many
        return (*tokens, KET), "lost bracket", Expect.MALFORMED
    at = rng.choice(brackets)
    return (*tokens[:at], *tokens[at + 1 :]), "lost bracket", Expect.MALFORMED


_MUTATORS: dict[Kind, Callable[[Draft], str]] = {
    Kind.CLEAN: _clean,
    Kind.DROP: _drop,
    Kind.DUPLICATE: _duplicate,
    Kind.REORDER: _reorder,
    Kind.CORRUPT: _corrupt,
    Kind.MDF: messages.mutate_mdf,
    Kind.NOW: messages.mutate_now,
    Kind.SCO: messages.mutate_sco,
    Kind.ORD: messages.mutate_ord,
    Kind.HLO: messages.mutate_hlo,
    Kind.MIS: messages.mutate_mis,
    Kind.REJ: messages.mutate_rej,
    Kind.TME: messages.mutate_tme,
    Kind.FOREIGN: messages.mutate_foreign,
}
