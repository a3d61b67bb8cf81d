"""The one cache of what is kept per map (:class:`PerMap`), for every layer above it.

The adjudicator keeps its compiled tables and scratch space per map, the search its node
tables, compiled tables, kernels and policies: each in a :class:`PerMap`.  Maps are
immutable and a process plays on one or a few, so a value is made on a key's first use
and kept, found again by the key's identity.

Written once, run two ways (Cython's pure Python mode): ``setup.py`` compiles this file,
``adjudicator/per_map.pxd`` declaring :class:`PerMap` a ``cdef class`` whose ``find``
and ``keep`` are C methods, and ``kept_for`` the inline function the compiled rooms ask
first (the last key's value, without a call); without a build this same file runs as
Python.  Python callers use :meth:`PerMap.get` and :meth:`PerMap.put` either way.
"""

from __future__ import annotations

from typing import Any

MAPS_KEPT = 64
"""The most keys a :class:`PerMap` keeps by default (a process rarely plays on more than one
map)."""


class PerMap:
    """Values kept per map: one per key object.

    A key is a game map, a map's tables, a compiled map, the weights a map's kernel is
    made for.  Found by the key's identity, not equality (the key is held, so its id is
    not reused while its value is kept); at most ``limit`` keys, all dropped when one more
    comes; the last key found or kept is answered without a look-up.
    """

    def __init__(self, limit: int = MAPS_KEPT) -> None:
        self.kept: dict[int, tuple[object, object]] = {}
        self.limit = limit
        self.last_key: object = None
        self.last_value: object = None

    def find(self, key: object) -> object:
        """The value kept for ``key``, or None (compiled, ``kept_for`` asks the last first)."""
        found = self.kept.get(id(key))
        if found is None:
            return None
        self.last_key, self.last_value = key, found[1]
        return self.last_value

    def keep(self, key: object, value: object) -> object:
        """Keep ``value`` for ``key``, every key dropped first if ``limit`` are; ``value``."""
        if id(key) not in self.kept and len(self.kept) >= self.limit:
            self.kept.clear()
        self.kept[id(key)] = (key, value)
        self.last_key, self.last_value = key, value
        return value

    def get(self, key: object) -> Any:
        """The value kept for ``key``, or None."""
        if key is self.last_key:
            return self.last_value
        return self.find(key)

    def put(self, key: object, value: object) -> Any:
        """Keep ``value`` for ``key``; ``value``."""
        return self.keep(key, value)

    def __len__(self) -> int:
        return len(self.kept)


try:
    SOURCE_HASH: str | None = SOURCE_SHA256.decode("ascii")  # type: ignore[name-defined]
except NameError:  # not built: this file runs as Python
    SOURCE_HASH = None
"""The SHA-256 of the source the build was made from (setup.py's ``SOURCE_SHA256``; see
adjudicator.compiled_rules.load), None where this file runs as Python."""
