# cython: language_level=3
"""The compiled resolver's declarations, for the compiled rollouts of search/_fastbot.pyx."""


cdef class _Resolver:
    cdef int n
    cdef int *kind
    cdef int *power
    cdef int *dst
    cdef int *dst_loc
    cdef int *into
    cdef int *coast
    cdef int *target  # the unit a support is given to
    cdef int *h2h
    cdef int *state
    cdef int *res
    cdef int *matched
    cdef int *serial
    cdef int *sup_off  # supports of the unit in p: sup_idx[sup_off[p]:sup_off[p + 1]]
    cdef int *sup_idx
    cdef int *att_off  # moves into p: att_idx[att_off[p]:att_off[p + 1]]
    cdef int *att_idx
    cdef int *units  # provinces with a unit, in the position's order
    cdef int num_units
    cdef int *cycle
    cdef int cycle_len, cycle_cap
    cdef int next_serial, low

    cdef void _clear(self, int p) noexcept
    cdef void reset(self) noexcept
    cdef int _in_cycle(self, int p, int start) noexcept
    cdef int _append_cycle(self, int p) except -1
    cdef int resolve(self, int p) except -1
    cdef void _backup_rule(self, int old) noexcept
    cdef int _adjudicate(self, int p) except -1
    cdef int _count(self, int p, int exclude_power) except -1
    cdef int _attack(self, int p) except -1
    cdef int _hold(self, int d) except -1
    cdef int _prevent(self, int q) except -1
    cdef int _move_succeeds(self, int p) except -1
    cdef int _support_given(self, int p) except -1


cdef int resolve_arrays(
    _Resolver r,
    int num_units,
    const int *units,
    const int *power,
    const int *kind,
    const int *a,
    const int *b,
    const int *loc_prov,
    int *moved,
    int *dislodger,
    unsigned char *contested,
) except -1
