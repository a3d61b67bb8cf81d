"""The search's random generator: ``random.Random``'s interface on NumPy's PCG64.

:class:`SearchRandom` is a ``random.Random`` whose numbers come from a NumPy bit
generator (``numpy.random.PCG64``), the subclassing ``random`` documents for a
generator of one's own.  Every draw is one 64-bit word of it, turned into a number
here by rules of this module's own (not CPython's, which may change):

* ``random()`` — the word's top 53 bits over ``2**53``;
* ``getrandbits(k)`` — the top ``k`` bits of the word (of words, most significant
  first, past 64);
* ``_randbelow(n)`` (``randrange(n)``, ``choice``, ``shuffle``, ``sample``) —
  ``getrandbits(n.bit_length())`` until a number below ``n``;
* ``shuffle`` — from the last item down, each swapped with one at or before it.

The compiled search (``search/_draws.pyx``) reads the same words through NumPy's
supported C interface (the bit generator's ``bitgen_t`` capsule) and turns them into
numbers by the same rules, so a pure-Python search and a compiled one draw the same
numbers from the same seed, and leave the generator in the same state, on every
Python.  A generator is not shared between threads while a draw runs.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import MutableSequence
from typing import Any, Protocol, TypeVar

import numpy as np

WORD_BITS = 64
"""The bits of one draw from the bit generator."""

_DOUBLE_BITS = 53
"""The bits of a float's significand: ``random()``'s resolution."""

_DOUBLE_SCALE = 1.0 / (1 << _DOUBLE_BITS)
"""``2**-53``: a 53-bit integer times it is a float in [0, 1), exactly."""

STATE_VERSION = "search.generator/pcg64/1"
"""The first item of :meth:`SearchRandom.getstate` (a state of another kind is refused)."""

T = TypeVar("T", covariant=True)


class Indexable(Protocol[T]):
    """What :meth:`SearchRandom.choice` chooses from: a length and items by index."""

    def __len__(self) -> int:
        """The number of items."""
        ...

    def __getitem__(self, index: int, /) -> T:
        """The item at ``index``."""
        ...


Seed = int | str | bytes | bytearray | None
"""What :class:`SearchRandom` is seeded with (as ``random.Random`` takes it)."""


def seed_entropy(a: Seed) -> int | None:
    """The bit generator's seed for ``a``: an int's magnitude, a text's SHA-512, or None.

    None seeds from the operating system's entropy.  Raises :class:`TypeError` for any
    other kind of seed.
    """
    if a is None:
        return None
    if isinstance(a, int):
        return abs(a)
    if isinstance(a, str):
        a = a.encode("utf-8")
    if isinstance(a, bytes | bytearray):
        return int.from_bytes(hashlib.sha512(a).digest(), "big")
    raise TypeError(f"a SearchRandom is seeded with None, an int, a str or bytes, not {type(a)}")


class SearchRandom(random.Random):
    """``random.Random`` drawing from NumPy's PCG64 (see the module docstring).

    Seeded as ``random.Random`` is (an int, a str or bytes, or None for fresh entropy);
    its state (:meth:`getstate`) is the bit generator's, so copies and pickles carry on
    where the original is.
    """

    _bits: np.random.PCG64  # the bit generator (the compiled search reads its capsule)
    _raw: Any  # its ``random_raw``: the next 64-bit word, as an int

    def seed(self, a: Any = None, version: int = 2) -> None:
        """Start again from ``a`` (``version`` is accepted for ``random.Random``'s sake).

        The bit generator stays the same object for the generator's life (its state is
        replaced), so what C holds of it during a call stays valid.
        """
        fresh = np.random.PCG64(seed_entropy(a))
        if "_bits" in self.__dict__:
            self._bits.state = fresh.state
        else:
            self._bits = fresh
            self._raw = fresh.random_raw
        self.gauss_next = None

    def random(self) -> float:
        """A float in [0, 1): the next word's top 53 bits over ``2**53``."""
        word: int = self._raw()
        return (word >> (WORD_BITS - _DOUBLE_BITS)) * _DOUBLE_SCALE

    def getrandbits(self, k: int) -> int:
        """A ``k``-bit number: the next word's top ``k`` bits (past 64, of several words)."""
        if k < 0:
            raise ValueError("the number of bits must be non-negative")
        if k == 0:
            return 0
        words = -(-k // WORD_BITS)
        value = 0
        for _ in range(words):
            value = (value << WORD_BITS) | self._raw()
        return value >> (words * WORD_BITS - k)

    def _randbelow(self, n: int) -> int:
        """A number in [0, ``n``), ``n`` >= 1: ``getrandbits(n.bit_length())`` until below ``n``."""
        k = n.bit_length()
        r = self.getrandbits(k)
        while r >= n:
            r = self.getrandbits(k)
        return r

    def shuffle(self, x: MutableSequence[Any]) -> None:
        """``x`` shuffled in place: each item, last first, swapped with one at or before it."""
        below = self._randbelow
        for i in range(len(x) - 1, 0, -1):
            j = below(i + 1)
            x[i], x[j] = x[j], x[i]

    def choice(self, seq: Indexable[T]) -> T:
        """An item of ``seq`` (not empty): ``seq[_randbelow(len(seq))]``."""
        if not len(seq):
            raise IndexError("cannot choose from an empty sequence")
        return seq[self._randbelow(len(seq))]

    def getstate(self) -> tuple[Any, ...]:
        """The state: :data:`STATE_VERSION`, the bit generator's, and ``gauss``' kept number."""
        return STATE_VERSION, self._bits.state, self.gauss_next

    def setstate(self, state: tuple[Any, ...]) -> None:
        """Carry on from ``state`` (one :meth:`getstate` gave); :class:`ValueError` otherwise."""
        if not isinstance(state, tuple) or len(state) != 3 or state[0] != STATE_VERSION:
            raise ValueError(f"not a SearchRandom state: {state!r:.80}")
        self._bits.state = state[1]
        self.gauss_next = state[2]
