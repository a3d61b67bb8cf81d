# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
# cython: cdivision=True
"""The compiled search's random generator: a plain ``random.Random`` drawn from in C.

:class:`Draws` says where a call draws from; :func:`_draws` makes it once per call from
Python; the draws (``_uniform``, ``_shuffle``, ``_choice``) give and leave exactly what
the generator's own methods do (see ``search/_draws.pyx`` and ``search/db_mt.h``).
"""

from cpython.ref cimport PyObject

cdef extern from "db_mt.h":
    enum: DB_MT_N
    ctypedef struct db_mt:
        int index
        unsigned int state[DB_MT_N]
    unsigned int db_mt_next(db_mt *mt) noexcept nogil
    int __builtin_clzll(unsigned long long x) noexcept nogil
    double db_mt_random(db_mt *mt) noexcept nogil


cdef struct Draws:  # where a call draws from: ``rng``, in C through ``mt`` unless NULL
    PyObject *rng  # the generator (the caller holds it)
    db_mt *mt  # its state, drawn from in C when it is a plain random.Random


cdef Draws _draws(object rng)
cdef int _shuffle(int *items, int n, Draws *d) except -1
cdef object _choice(list items, Draws *d)


cdef inline double _uniform(Draws *d) except? -1.0:
    """``rng.random()``."""
    if d.mt != NULL:
        return db_mt_random(d.mt)
    return (<object> d.rng).random()


cdef inline Py_ssize_t _mt_below(db_mt *mt, Py_ssize_t n) noexcept:
    """``Random._randbelow(n)`` for 1 <= ``n`` < 2**32: ``getrandbits(n.bit_length())``
    until a number below ``n``."""
    cdef int k = 64 - __builtin_clzll(<unsigned long long> n)  # n.bit_length()
    cdef Py_ssize_t r
    r = db_mt_next(mt) >> (32 - k)
    while r >= n:
        r = db_mt_next(mt) >> (32 - k)
    return r
