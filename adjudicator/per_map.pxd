# cython: language_level=3
"""The per-map cache compiled (adjudicator/per_map.py, Cython's pure Python mode): what
that file's :class:`PerMap` is in C, and :func:`kept_for`, its inline fast path; cimported
by every compiled room that keeps something per map (adjudicator/_fastlegal.pyx,
_fastmove.pyx, the compiled search's search/_maptables.pyx, _valuation.pyx, _rollout.pyx,
_fastbot.pyx)."""

cdef extern from *:
    const char *SOURCE_SHA256  # defined by setup.py


cdef class PerMap:
    cdef dict kept  # id(key): (key, value); the key held, so that its id stays its own
    cdef object last_key  # the key found or kept last, and its value
    cdef object last_value
    cdef Py_ssize_t limit

    cdef object find(self, object key)
    cdef object keep(self, object key, object value)


cdef inline object kept_for(PerMap cache, object key):
    """The value ``cache`` keeps for ``key`` (None if none): the last one without a look-up."""
    if key is cache.last_key:
        return cache.last_value
    return cache.find(key)
