# cython: language_level=3
"""The compiled resolver's declarations: adjudicator/_fastmove.pyx's, and for the compiled
rollouts and steps of search/_fastbot.pyx (:func:`resolve_arrays`)."""

from cpython.ref cimport PyObject


cdef struct IntBuf:
    int *data
    int size
    int cap


cdef class _MapFacts:
    cdef readonly object game_map
    cdef int n
    cdef int num_locations
    cdef int *loc_province  # [num_locations]
    cdef int *kind  # [n]: INLAND, COASTAL or SEA
    cdef char *is_supply  # [n]
    cdef char *is_neighbour  # [n * n]: q in game_map.neighbours[p] at p * n + q
    cdef int *nb_off  # neighbours of p, in the map's order: nb_idx[nb_off[p]:nb_off[p + 1]]
    cdef int *nb_idx
    cdef int num_army_adj, num_fleet_adj
    cdef int *army_off  # army_adjacent[loc]: army_idx[army_off[loc]:army_off[loc + 1]]
    cdef int *army_idx
    cdef int *fleet_off  # fleet_adjacent[loc], likewise
    cdef int *fleet_idx
    cdef int *centres
    cdef int num_centres
    cdef int num_powers


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
    cdef int prepare(self) except -1
    cdef int _convoys(self, int f, int army) noexcept
    cdef int _find_routes(self, int army, bint explicit) except -1
    cdef int _walk(self, int dest, int depth) except -1
    cdef int _maybe_convoy_by_intent(self, int p) except -1
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


cdef int resolve_arrays(
    _Resolver r,
    int num_units,
    const int *units,
    const int *power,
    const int *kind,
    const int *a,
    const int *b,
) except -1
