# cython: language_level=3
"""The compiled resolver's decisions (adjudicator/_resolver.pyx): one movement phase's units,
orders and decisions on C arrays; read and matched by adjudicator/_moveorders.pyx, applied by
adjudicator/_fastmove.pyx and the compiled search's rollouts."""

from cpython.ref cimport PyObject

from adjudicator._movetables cimport IntBuf, _MapFacts


cdef class _Resolver:
    cdef int n
    cdef _MapFacts facts
    # during a call: the unit's key in the units dict, its tuple, its order's (NULL: none)
    cdef PyObject **key_obj
    cdef PyObject **unit_obj
    cdef PyObject **order_obj
    # -1 between phases
    cdef int *kind
    cdef int *power
    cdef int *utype
    cdef int *loc
    cdef int *dst
    cdef int *dst_loc
    cdef int *into
    cdef int *coast
    cdef int *target  # the unit a support is given to, or the army a fleet convoys
    cdef int *h2h
    cdef int *route_first  # its first route in the route table, or LAND_MOVE
    cdef int *used_route  # the route reported for a convoyed army (after resolve_all)
    cdef int *dislodger  # the unit that dislodged the one in p, or -1
    # 0 between phases
    cdef int *state
    cdef int *res
    cdef int *matched
    cdef int *serial
    cdef int *paradox  # a convoyed army the Szykman rule stopped
    cdef int *route_num
    cdef int *path_first  # an explicit convoy path: paths.data[path_first:path_first + path_len]
    cdef int *path_len
    cdef int *moved
    # scratch
    cdef int *mark  # scratch flags, all 0 between uses
    cdef int *walk  # the route being walked in _walk
    # moves into p, in the units' order: att_head[p], its att_next, ... until -1 (likewise the
    # supports given to the unit in p: sup_head and sup_next); -1 between phases
    cdef int *att_head
    cdef int *att_next
    cdef int *sup_head
    cdef int *sup_next
    cdef int *units  # provinces with a unit, in the position's order
    cdef int num_units
    cdef int any_convoy  # some unit was ordered to convoy
    cdef int plain  # the phase came from resolve_arrays: no convoys, no coasts, no routes
    cdef int *cycle
    cdef int cycle_len, cycle_cap
    cdef int next_serial, low
    cdef IntBuf paths  # explicit convoy paths of the orders
    cdef IntBuf rt_start  # the route table: route k is rt_fleets[rt_start[k]:+rt_len[k]]
    cdef IntBuf rt_len
    cdef IntBuf rt_fleets
    cdef IntBuf found_start  # routes found by _walk, before they are sorted by length
    cdef IntBuf found_len
    cdef IntBuf found_fleets

    cdef void reset(self) noexcept
    cdef int _in_cycle(self, int p, int start) noexcept
    cdef int _append_cycle(self, int p) except -1
    cdef int resolve(self, int p) except -1
    cdef void _backup_rule(self, int old) noexcept
    cdef int _adjudicate(self, int p) except -1
    cdef int _path(self, int p) except -1
    cdef int _convoy_fails(self, int p) except -1
    cdef int _count(self, int p, int exclude_power) except -1
    cdef int _attack(self, int p) except -1
    cdef int _hold(self, int d) except -1
    cdef int _prevent(self, int q) except -1
    cdef int _move_succeeds(self, int p) except -1
    cdef int _support_given(self, int p) except -1
    cdef int resolve_all(self) except -1
    cdef int mark_contested(self, int *contested) except -1
    cdef int _result(self, int p) except -1
    cdef void fill_results(self, int *results) noexcept
    cdef int _result_after(self, int p) noexcept
