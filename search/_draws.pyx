# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
# cython: cdivision=True
"""The compiled search's random generator (see ``search/_draws.pxd``).

A plain :class:`search.generator.SearchRandom` is drawn from in C: its NumPy bit
generator's ``bitgen_t`` (from the capsule NumPy offers for this), one 64-bit word a
draw, the words turned into numbers by :mod:`search.generator`'s rules.  Any other
generator (a ``random.Random``, a subclass, an instance with a drawing method of its
own) is drawn from through its methods.
"""

from cpython.pycapsule cimport PyCapsule_GetPointer

from search.generator import SearchRandom as _SearchRandom

cdef extern from *:
    const char *SOURCE_SHA256  # defined by setup.py

SOURCE_HASH = SOURCE_SHA256.decode("ascii")
"""The SHA-256 of the source this module was built from (see adjudicator.compiled_rules.load)."""


cdef tuple _DRAWING_METHODS = ("random", "getrandbits", "shuffle", "choice", "_randbelow")
"""What the Python loops call to draw (an instance attribute of that name draws instead)."""

cdef object _SEARCH_RANDOM = _SearchRandom


cdef inline bint _plain(object rng) except -1:
    """Whether ``rng`` is a plain ``SearchRandom`` drawing with the class's own methods."""
    if type(rng) is not _SEARCH_RANDOM:
        return False
    attributes = rng.__dict__
    for name in _DRAWING_METHODS:
        if name in attributes:
            return False
    return True


cdef Draws _draws(object rng):
    """The draws from ``rng``: in C on its bit generator when it is a plain ``SearchRandom``.

    Made once per call from Python (the instance's attributes looked up once), and passed
    down to every phase and power that draws in it."""
    cdef Draws d
    d.rng = <PyObject *> rng
    d.bits = NULL
    if _plain(rng):
        d.bits = <bitgen_t *> PyCapsule_GetPointer(rng._bits.capsule, "BitGenerator")
    return d


def draws_in_c(rng):
    """Whether the compiled code draws from ``rng`` in C (else through its methods)."""
    return _plain(rng)


cdef int _shuffle(int *items, int n, Draws *d) except -1:
    """``rng.shuffle`` of the ``n`` ``items`` (as of a list of them)."""
    cdef int i, r, x
    if d.bits == NULL:
        shuffled = [items[i] for i in range(n)]
        (<object> d.rng).shuffle(shuffled)
        for i in range(n):
            items[i] = shuffled[i]
        return 0
    for i in range(n - 1, 0, -1):
        r = <int> _below(d.bits, i + 1)
        x = items[i]
        items[i] = items[r]
        items[r] = x
    return 0


cdef object _choice(list items, Draws *d):
    """``rng.choice(items)`` (``items`` not empty)."""
    if d.bits == NULL:
        return (<object> d.rng).choice(items)
    return items[_below(d.bits, len(items))]


def _draws_of(rng, list kinds):
    """The draws of :class:`Draws` from ``rng``, one per ``(kind, n)`` of ``kinds`` (tests).

    Kinds: 0 ``random()``, 1 ``randrange(n)``, 2 ``shuffle`` of ``list(range(n))``,
    3 ``choice(list(range(n)))``.
    """
    cdef Draws d = _draws(rng)
    cdef int i
    cdef int shuffled[256]
    out = []
    for kind, n in kinds:
        if kind == 0:
            out.append(_uniform(&d))
        elif kind == 1:
            out.append(_below(d.bits, n) if d.bits != NULL else (<object> d.rng).randrange(n))
        elif kind == 2:
            if not 0 <= n <= 256:
                raise ValueError("at most 256 items are shuffled")
            for i in range(n):
                shuffled[i] = i
            _shuffle(shuffled, n, &d)
            out.append([shuffled[i] for i in range(n)])
        else:
            out.append(_choice(list(range(n)), &d))
    return out
