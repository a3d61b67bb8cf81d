"""Convoy routes: chains of sea provinces from an army's coast to its destination."""

from __future__ import annotations

from collections.abc import Collection

from adjudicator.maps import SEA, GameMap


def sea_chains(m: GameMap, start: int, dest: int, seas: Collection[int]) -> list[tuple[int, ...]]:
    """Every simple chain of the provinces ``seas`` from ``start`` to ``dest``, shortest first.

    A chain begins next to ``start``, each sea is next to the one before, and the last is
    next to ``dest``. Chains of equal length keep the order of a depth-first walk that
    takes the neighbours as the map lists them.
    """
    if not seas or start == dest:
        return []
    found: list[tuple[int, ...]] = []
    stack: list[tuple[int, ...]] = [(f,) for f in m.neighbours[start] if f in seas]
    while stack:
        route = stack.pop()
        here = route[-1]
        if dest in m.neighbours[here]:
            found.append(route)
        for f in m.neighbours[here]:
            if f in seas and f not in route:
                stack.append((*route, f))
    found.sort(key=len)
    return found


def is_sea_chain(m: GameMap, start: int, dest: int, path: tuple[int, ...]) -> bool:
    """Whether ``path`` is a non-empty sequence of adjacent seas from ``start`` to ``dest``."""
    if not path:
        return False
    prev = start
    for f in path:
        if m.kind[f] != SEA or f not in m.neighbours[prev]:
            return False
        prev = f
    return dest in m.neighbours[prev]
