# cython: language_level=3
"""The compiled movement resolver's tables (adjudicator/_movetables.pyx): its constants, a
growable int buffer, and one map's facts as C arrays; cimported by the resolver's other rooms
(adjudicator/_resolver.pyx, _moveorders.pyx, _fastmove.pyx) and the compiled search."""

from cpython.mem cimport PyMem_Realloc


cdef enum:
    HOLD = 0
    MOVE = 1
    SUPPORT_HOLD = 2
    SUPPORT_MOVE = 3
    CONVOY = 4
    CONVOY_MOVE = 5
    NO_UNIT = -1
    UNRESOLVED = 0
    GUESSING = 1
    RESOLVED = 2
    NO_GUESS = 1 << 30
    ARMY = 0
    INLAND = 0
    SEA = 2
    LAND_MOVE = -1  # route_first of a unit that does not move by convoy (routes None in Python)
    # results, in the order of their DAIDE tokens (adjudicator.orders)
    R_SUC = 0
    R_BNC = 1
    R_CUT = 2
    R_DSR = 3
    R_NSO = 4


cdef struct IntBuf:
    int *data
    int size
    int cap


cdef inline int push(IntBuf *b, int value) except -1:
    """Append ``value`` to ``b``, growing it as needed."""
    cdef int *grown
    cdef int cap
    if b.size == b.cap:
        cap = 2 * b.cap if b.cap else 64
        grown = <int *> PyMem_Realloc(b.data, cap * sizeof(int))
        if grown == NULL:
            raise MemoryError()
        b.data = grown
        b.cap = cap
    b.data[b.size] = value
    b.size += 1
    return 0


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

