"""The standard MDF mutated as a hostile server might: named cases and seeded random ones.

The MDF's tokens are edited as a tree (a group is a list): named mutations
(ANK's army list dropped, entries and groups dropped, duplicated or emptied,
provinces the map does not list, moves to coasts or to the province itself,
unbalanced brackets) and seeded random edits (a token, an adjacency entry, a
unit list, a destination, a province or a power dropped, repeated, moved or
replaced).  :func:`reaction` says what a client must do with each: play on
the map, refuse it (it parses but is not a usable map) or answer HUH/PRN (it
does not parse).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from random import Random
from typing import Literal

from adjudicator.maps import GameMap
from adjudicator.rule_errors import AdjudicatorError
from adjudicator.standard import standard_definition
from protocol.daide_errors import LanguageError
from protocol.messages import Mdf, parse_message
from protocol.tokens import BRA, KET, STANDARD

Tree = list["int | Tree"]
Reaction = Literal["play", "refuse", "huh"]

RANDOM_CASES = 34
"""Seeded random mutations, besides the named ones."""


# --- the MDF as a tree of tokens ----------------------------------------------------------


def _tree(tokens: list[int]) -> Tree:
    """Tokens with balanced brackets as nested lists (a group is a list)."""
    stack: list[Tree] = [[]]
    for token in tokens:
        if token == BRA:
            stack.append([])
        elif token == KET:
            group = stack.pop()
            stack[-1].append(group)
        else:
            stack[-1].append(token)
    assert len(stack) == 1
    return stack[0]


def _tokens(tree: Tree) -> list[int]:
    out: list[int] = []
    for item in tree:
        if isinstance(item, list):
            out += (BRA, *_tokens(item), KET)
        else:
            out.append(item)
    return out


STANDARD_TOKENS = list(Mdf(standard_definition()).to_tokens(STANDARD))
STANDARD_TREE = _tree(STANDARD_TOKENS)
_, POWERS, PROVINCES, ADJACENCIES = STANDARD_TREE


def _number(name: str) -> int:
    return STANDARD.number(name)


def _mdf(edit: Callable[[Tree], None]) -> list[int]:
    """The standard MDF's tokens after ``edit`` changed a deep copy of its tree."""
    tree = _tree(STANDARD_TOKENS)
    edit(tree)
    return _tokens(tree)


def _entry(tree: Tree, province: str) -> Tree:
    """The adjacency entry of ``province`` in an MDF tree."""
    for entry in tree[3]:
        if entry[0] == _number(province):
            return entry
    raise AssertionError(province)


def _unit_list(tree: Tree, province: str, kind: str) -> Tree:
    """``province``'s ``(AMY ...)`` or ``(FLT ...)`` list (``kind`` "AMY" or "FLT")."""
    for group in _entry(tree, province)[1:]:
        if group[0] == _number(kind):
            return group
    raise AssertionError((province, kind))


def _drop_entry_list(province: str, kind: str) -> Callable[[Tree], None]:
    def edit(tree: Tree) -> None:
        _entry(tree, province).remove(_unit_list(tree, province, kind))

    return edit


def _drop_destination(province: str, kind: str, dest: str) -> Callable[[Tree], None]:
    def edit(tree: Tree) -> None:
        _unit_list(tree, province, kind).remove(_number(dest))

    return edit


def _drop_entry(province: str) -> Callable[[Tree], None]:
    def edit(tree: Tree) -> None:
        tree[3].remove(_entry(tree, province))

    return edit


def _duplicate_entry(province: str) -> Callable[[Tree], None]:
    def edit(tree: Tree) -> None:
        tree[3].append(_entry(tree, province))

    return edit


def _drop_listed(province: str) -> Callable[[Tree], None]:
    """Take ``province`` out of the province lists (its adjacencies stay)."""

    def edit(tree: Tree) -> None:
        for group in (*tree[2][0], tree[2][1]):
            if _number(province) in group:
                group.remove(_number(province))

    return edit


def _set(index: tuple[int, ...], value: Tree | int) -> Callable[[Tree], None]:
    def edit(tree: Tree) -> None:
        node = tree
        for i in index[:-1]:
            node = node[i]
        node[index[-1]] = value

    return edit


def _all(*edits: Callable[[Tree], None]) -> Callable[[Tree], None]:
    def edit(tree: Tree) -> None:
        for one in edits:
            one(tree)

    return edit


def _no_centres(tree: Tree) -> None:
    """Every supply centre listed among the other provinces instead."""
    groups = tree[2][0]
    tree[2][1].extend(p for group in groups for p in group[1:])  # type: ignore[union-attr]
    groups.clear()  # type: ignore[union-attr]


def _homeless(power: str) -> Callable[[Tree], None]:
    """``power``'s home centres made neutral."""

    def edit(tree: Tree) -> None:
        for group in tree[2][0]:  # type: ignore[union-attr]
            if group[0] == _number(power):
                group[0] = _number("UNO")

    return edit


NAMED: dict[str, list[int]] = {
    "ANK's army list dropped": _mdf(_drop_entry_list("ANK", "AMY")),
    "ANK's fleet list dropped": _mdf(_drop_entry_list("ANK", "FLT")),
    "ANK's whole entry dropped": _mdf(_drop_entry("ANK")),
    "MUN's army list emptied": _mdf(_set((3, 0, 1), [_number("AMY")])),
    "BUR dropped from PAR's army list": _mdf(_drop_destination("PAR", "AMY", "BUR")),
    "TYR dropped from the province lists": _mdf(_drop_listed("TYR")),
    "ANK dropped from the province lists": _mdf(_drop_listed("ANK")),
    "ANK's entry given twice": _mdf(_duplicate_entry("ANK")),
    "a centre group given twice": _mdf(lambda tree: tree[2][0].append(tree[2][0][0])),
    "no powers": _mdf(_set((1,), [])),
    "TUR not among the powers": _mdf(lambda tree: tree[1].remove(_number("TUR"))),
    "no provinces": _mdf(_set((2,), [[], []])),
    "no adjacencies": _mdf(_set((3,), [])),
    "empty adjacency entries": _mdf(
        lambda tree: tree[3].__setitem__(slice(None), [[e[0]] for e in tree[3]])
    ),
    "an army move to a coast": _mdf(
        lambda tree: _unit_list(tree, "ANK", "AMY").append([_number("STP"), _number("NCS")])
    ),
    "ANK adjacent to itself": _mdf(
        lambda tree: _unit_list(tree, "ANK", "AMY").append(_number("ANK"))
    ),
    "a fleet move to STP without a coast": _mdf(
        lambda tree: _unit_list(tree, "BAR", "FLT").append(_number("STP"))
    ),
    "CON's entry given twice and SMY's dropped": _mdf(
        _all(_duplicate_entry("CON"), _drop_entry("SMY"))
    ),
    "an unbalanced bracket": STANDARD_TOKENS[:-1],
    "no supply centres": _mdf(_no_centres),
    "TUR with no home centre": _mdf(_homeless("TUR")),
}


# --- seeded random mutations ------------------------------------------------------------------

VOCABULARY = sorted({t for t in STANDARD_TOKENS if t not in (BRA, KET)} - {STANDARD_TOKENS[0]})
PROVINCE_TOKENS = sorted({entry[0] for entry in ADJACENCIES})
COAST_PLACES = sorted(
    (entry[0], group[0][1])
    for entry in ADJACENCIES
    for group in entry[1:]
    if isinstance(group[0], list)
)
"""Each coast the map defines, as ``(province, coast)`` tokens."""


def _paths(tree: Tree, prefix: tuple[int, ...] = ()) -> list[tuple[int, ...]]:
    """Every item's index path inside the MDF's three groups."""
    out = []
    for i, item in enumerate(tree):
        path = (*prefix, i)
        if prefix:
            out.append(path)
        if isinstance(item, list):
            out += _paths(item, path)
    return out


def _token_edit(tree: Tree, rng: Random) -> None:
    """Drop, repeat or replace any one item (the MDF rarely parses afterwards)."""
    path = rng.choice(_paths(tree))
    parent = tree
    for i in path[:-1]:
        parent = parent[i]
    i = path[-1]
    op = rng.randrange(3)
    if op == 0:
        del parent[i]
    elif op == 1:
        parent.insert(i, copy.deepcopy(parent[i]))
    else:
        parent[i] = rng.choice(VOCABULARY)


def _entry_edit(tree: Tree, rng: Random) -> None:
    """Drop, repeat or rename one province's adjacency entry."""
    entries = tree[3]
    if not entries:
        return
    i = rng.randrange(len(entries))
    op = rng.randrange(3)
    if op == 0:
        del entries[i]
    elif op == 1:
        entries.insert(rng.randrange(len(entries) + 1), copy.deepcopy(entries[i]))
    else:
        entries[i][0] = rng.choice(PROVINCE_TOKENS)


def _list_edit(tree: Tree, rng: Random) -> None:
    """Drop, repeat or empty one unit list, or drop or add one of its destinations."""
    entries = [entry for entry in tree[3] if len(entry) > 1]
    if not entries:
        return
    entry = rng.choice(entries)
    j = rng.randrange(1, len(entry))
    group = entry[j]
    op = rng.randrange(5)
    if op == 0:
        del entry[j]
    elif op == 1:
        entry.append(copy.deepcopy(group))
    elif op == 2:
        del group[1:]
    elif op == 3 and len(group) > 1:
        del group[rng.randrange(1, len(group))]
    elif rng.random() < 0.5:
        group.insert(rng.randrange(1, len(group) + 1), rng.choice(PROVINCE_TOKENS))
    else:
        group.insert(rng.randrange(1, len(group) + 1), list(rng.choice(COAST_PLACES)))


def _province_edit(tree: Tree, rng: Random) -> None:
    """Move a province to another province group, drop it from the lists, or list it twice."""
    groups = [*tree[2][0], tree[2][1]]
    source = rng.choice([g for g in groups if g])
    first = 1 if source is not tree[2][1] else 0  # a centre group starts with its owner
    if len(source) <= first:
        return
    province = source.pop(rng.randrange(first, len(source)))
    op = rng.randrange(3)
    if op == 0:
        rng.choice(groups).append(province)
    elif op == 1:
        source.extend((province, province))


def _power_edit(tree: Tree, rng: Random) -> None:
    """Drop or repeat a power, or give a centre group to a power not listed."""
    powers = tree[1]
    op = rng.randrange(3)
    if op == 0 and powers:
        del powers[rng.randrange(len(powers))]
    elif op == 1 and powers:
        powers.append(rng.choice(powers))
    else:
        group = rng.choice(tree[2][0])
        group[0] = rng.choice(POWERS)


EDITS = (_token_edit, _entry_edit, _list_edit, _list_edit, _list_edit, _province_edit, _power_edit)
"""The random edits, weighted: most change the map and keep it well formed."""


def random_mdf(seed: int) -> list[int]:
    """The standard MDF after one to three random edits (seeded)."""
    rng = Random(seed)
    tree = _tree(STANDARD_TOKENS)
    for _ in range(rng.randint(1, 3)):
        rng.choice(EDITS)(tree, rng)
    return _tokens(tree)


CASES = {**NAMED, **{f"random {seed}": random_mdf(seed) for seed in range(RANDOM_CASES)}}


# --- what a client must do ------------------------------------------------------------------


def reaction(tokens: list[int]) -> tuple[Reaction, GameMap | None]:
    """What the client must answer to an MDF of ``tokens``, and the map if it can play on it."""
    try:
        message = parse_message(tokens, STANDARD)
    except LanguageError:
        return "huh", None
    assert isinstance(message, Mdf) and message.definition is not None
    try:
        return "play", GameMap.from_definition(message.definition)
    except AdjudicatorError:
        return "refuse", None
