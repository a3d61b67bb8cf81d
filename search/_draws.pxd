# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
# cython: cdivision=True
"""The compiled search's random generator: a :class:`search.generator.SearchRandom` drawn
from in C.

:class:`Draws` says where a call draws from; :func:`_draws` makes it once per call from
Python; the draws (``_uniform``, ``_below``, ``_shuffle``, ``_choice``) read the 64-bit
words of the generator's NumPy bit generator through NumPy's supported C interface
(``bitgen_t``) and give and leave exactly what the generator's own methods do (the rules
are :mod:`search.generator`'s).  Any other generator is drawn from through its methods.
"""

from cpython.ref cimport PyObject
from libc.stdint cimport uint64_t

cdef extern from "numpy/random/bitgen.h":
    ctypedef struct bitgen_t:
        void *state
        uint64_t (*next_uint64)(void *st) noexcept nogil

cdef extern from *:
    int __builtin_clzll(unsigned long long x) noexcept nogil

cdef enum:
    WORD_BITS = 64  # the bits of one draw (search.generator.WORD_BITS)
    DOUBLE_BITS = 53  # a float's significand: random()'s resolution


cdef struct Draws:  # where a call draws from: ``rng``, in C through ``bits`` unless NULL
    PyObject *rng  # the generator (the caller holds it, and so its bit generator)
    bitgen_t *bits  # its bit generator, drawn from in C when it is a plain SearchRandom


cdef Draws _draws(object rng)
cdef int _shuffle(int *items, int n, Draws *d) except -1
cdef object _choice(list items, Draws *d)


cdef inline double _uniform(Draws *d) except? -1.0:
    """``rng.random()``."""
    if d.bits != NULL:
        return <double> (d.bits.next_uint64(d.bits.state) >> (WORD_BITS - DOUBLE_BITS)) * (
            1.0 / 9007199254740992.0
        )
    return (<object> d.rng).random()


cdef inline Py_ssize_t _below(bitgen_t *bits, Py_ssize_t n) noexcept:
    """``rng._randbelow(n)`` for 1 <= ``n``: ``getrandbits(n.bit_length())`` (a word's top
    bits) until a number below ``n``."""
    cdef int k = WORD_BITS - __builtin_clzll(<unsigned long long> n)  # n.bit_length()
    cdef uint64_t r
    r = bits.next_uint64(bits.state) >> (WORD_BITS - k)
    while r >= <uint64_t> n:
        r = bits.next_uint64(bits.state) >> (WORD_BITS - k)
    return <Py_ssize_t> r
