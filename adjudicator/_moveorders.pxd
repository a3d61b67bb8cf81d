# cython: language_level=3
"""The orders read into the compiled resolver and matched (adjudicator/_moveorders.pyx): from
the Python orders (:func:`setup`), or as C arrays for the compiled search (:func:`resolve_arrays`)."""

from adjudicator._resolver cimport _Resolver


cdef int setup(_Resolver r, dict units, dict orders) except -2
cdef int prepare(_Resolver r) except -1
cdef int resolve_arrays(
    _Resolver r,
    int num_units,
    const int *units,
    const int *power,
    const int *kind,
    const int *a,
    const int *b,
) except -1
