# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
# cython: cdivision=True
"""The compiled search's random generator (see ``search/_draws.pxd``).

random.Random's generator as CPython's Modules/_randommodule.c keeps it (the object's
MT19937 state, ``search/db_mt.h``) is read and advanced in place from C; :data:`C_DRAWS`
checks at import that the layout and the draws are the running Python's (the same
numbers, permutations and state after as ``random``, ``getrandbits``, ``shuffle`` and
``choice``), else every draw goes through the generator's methods.
"""

import random as _random

from search._maptables cimport MAX_OPTIONS

cdef extern from *:
    const char *SOURCE_SHA256  # defined by setup.py

SOURCE_HASH = SOURCE_SHA256.decode("ascii")
"""The SHA-256 of the source this module was built from (see adjudicator.compiled_rules.load)."""


cdef tuple _DRAWING_METHODS = ("random", "getrandbits", "shuffle", "choice", "_randbelow")
"""What the Python loops call to draw (an instance attribute of that name draws instead)."""


cdef inline bint _plain(object rng) except -1:
    """Whether ``rng`` is a plain ``random.Random`` drawing with the class's own methods."""
    if not _c_draws or type(rng) is not _PLAIN_RANDOM:
        return False
    attributes = rng.__dict__
    for name in _DRAWING_METHODS:
        if name in attributes:
            return False
    return True


cdef Draws _draws(object rng):
    """The draws from ``rng``: in C on its state when it is a plain ``random.Random``.

    Made once per call from Python (the instance's attributes looked up once), and passed
    down to every phase and power that draws in it."""
    cdef Draws d
    d.rng = <PyObject *> rng
    d.mt = <db_mt *> d.rng if _plain(rng) else NULL
    return d



cdef int _shuffle(int *items, int n, Draws *d) except -1:
    """``rng.shuffle`` of the ``n`` ``items`` (as of a list of them)."""
    cdef int i, r, x
    if d.mt == NULL:
        shuffled = [items[i] for i in range(n)]
        (<object> d.rng).shuffle(shuffled)
        for i in range(n):
            items[i] = shuffled[i]
        return 0
    for i in range(n - 1, 0, -1):
        r = <int> _mt_below(d.mt, i + 1)
        x = items[i]
        items[i] = items[r]
        items[r] = x
    return 0


cdef object _choice(list items, Draws *d):
    """``rng.choice(items)`` (``items`` not empty)."""
    if d.mt == NULL:
        return (<object> d.rng).choice(items)
    return items[_mt_below(d.mt, len(items))]


def _same_draws_as_the_standard_generator():
    """Whether the draws of :class:`Draws` in C read the state of a plain ``random.Random``
    and give and leave exactly what its methods do, on many seeds and mixes of draws."""
    cdef Draws d
    cdef db_mt *mt
    cdef int i
    cdef int shuffled[MAX_OPTIONS]
    for seed in range(4):
        mine, theirs = _random.Random(seed), _random.Random(seed)
        mt = <db_mt *> <PyObject *> mine
        version, state, gauss = mine.getstate()
        if mt.index != state[DB_MT_N] or any(mt.state[i] != state[i] for i in range(DB_MT_N)):
            return False
        d.rng = <PyObject *> mine
        d.mt = mt
        mix = _random.Random(seed + 100)
        for _ in range(700):  # past the state's 624 words: a regeneration on the way
            kind = mix.randrange(4)
            n = mix.randrange(1, 40)
            if kind == 0:
                if db_mt_random(mt) != theirs.random():
                    return False
            elif kind == 1:
                if db_mt_next(mt) >> (32 - n % 32 - 1) != theirs.getrandbits(n % 32 + 1):
                    return False
            elif kind == 2:
                for i in range(n):
                    shuffled[i] = i
                _shuffle(shuffled, n, &d)
                b = list(range(n))
                theirs.shuffle(b)
                if [shuffled[i] for i in range(n)] != b:
                    return False
            elif _choice(list(range(n)), &d) != theirs.choice(list(range(n))):
                return False
        if mine.getstate() != theirs.getstate():
            return False
    return True


cdef object _PLAIN_RANDOM = _random.Random
cdef bint _c_draws = _same_draws_as_the_standard_generator()
C_DRAWS = _c_draws
"""Whether a plain ``random.Random`` is drawn from in C (else through its methods)."""
