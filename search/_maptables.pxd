# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
# cython: cdivision=True
"""The compiled search's map tables and DumbBot's weights, and what every room shares.

The constants of the order kinds and seasons, the checked builders of C arrays, a map's
tables (:class:`CMap`) and DumbBot's weights as C integers (:class:`CWeights`, which keep
their bounds per map in the one per-map cache, ``adjudicator/per_map.pxd``): cimported by
``search._draws``' users, by ``search._valuation`` and by ``search._fastbot``.
"""

from adjudicator.per_map cimport PerMap

cdef enum:
    STALLED = 10  # search.dumbbot.STALLED_ROUNDS
    HOLD = 0
    MOVE = 1
    SUPPORT_HOLD = 2
    SUPPORT_MOVE = 3
    WAITING = -1
    SPRING = 0
    SUMMER = 1
    FALL = 2
    AUTUMN = 3
    WINTER = 4
    MAX_OPTIONS = 64
    MAX_POWERS = 64
    KEY_FIELDS = 4  # a province's fields in a Board's key (search._fasttree.Core.key's)
    KEY_HEAD = 2  # the C ints before them: the season, the year
    KEY_LIMIT = 127  # the largest field value a key holds (a signed char)
    DEPTH = 10  # proximity levels (search.tables.PROXIMITY_DEPTH; db_lanes.h's DB_DEPTH)
    UNIT_COUNT_LIMIT = 1 << 27  # unit counts db_leaders takes (below it)


cdef inline long long _fdiv(long long a, long long b) noexcept nogil:
    """``a // b`` with Python's floor rule, for ``b > 0``."""
    cdef long long q = a / b
    if a % b != 0 and a < 0:
        q -= 1
    return q


cdef int[::1] _ints(object values)
cdef int _check(object values, Py_ssize_t bound, str what, int lowest=*) except -1
cdef int[::1] _indices(object values, Py_ssize_t bound, str what, int lowest=*)
cdef void _check_length(object values, Py_ssize_t size, str what) except *
cdef int[::1] _new_ints(Py_ssize_t n)
cdef unsigned char[::1] _new_bytes(Py_ssize_t n)


cdef class CMap:
    cdef readonly object tables
    cdef readonly int num_provinces, num_nodes, num_powers, num_locations, num_centres
    cdef readonly double growth
    cdef int[::1] node_prov, node_type, node_loc, node_of_army, node_of_fleet, loc_prov
    cdef int[::1] sum_off, sum_idx, grp_off, item_off, item_idx
    cdef int[::1] centres, nb_off, nb_idx, touch_off, touch_prov, adj_off, adj_loc
    cdef int[::1] adj_node, adj_prov  # per adj_loc entry: the mover's node there, its province
    cdef int[::1] nadj_off, nadj_idx  # each node's neighbouring nodes, in adjacency order
    # each node's threats: the centres (indices into centres) next to its province that
    # its unit can reach, threat_idx[threat_off[node]:threat_off[node + 1]]
    cdef int[::1] threat_off, threat_idx
    cdef int[::1] home_off, home_idx  # each power's home centres, in province order
    cdef unsigned char[::1] reach, home, is_centre

    cdef inline int node_of(self, int utype, int loc) noexcept:
        return self.node_of_army[loc] if utype == 0 else self.node_of_fleet[loc]


cdef class CWeights:
    cdef long long spring_attack, spring_defence, fall_attack, fall_defence
    cdef long long prox[4][DEPTH]  # spring, fall, build, remove
    cdef bint narrow_weights
    cdef long long spring_strength, spring_competition, fall_strength, fall_competition
    cdef long long base_unit, home_vacation, home_attack, home_defence
    cdef long long build_defence, remove_defence, play_alternative, modifier
    cdef long long size_a, size_b, size_c
    cdef PerMap bounds  # per CMap: [fits, narrow, plain], each None until asked
    cdef readonly tuple values_key
    # the proximity levels 1 .. exact are exact fifths of their sums: every base value is a
    # multiple of 5 ** exact (each is a product with an attack or a defence weight)
    cdef readonly int exact

    cdef list _bounds(self, CMap cm)
    cdef object _level_bound(self, CMap cm)
    cdef double _bound(self, CMap cm)
