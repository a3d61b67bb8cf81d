# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
# cython: cdivision=True
"""A learned order policy's movement orders compiled (:class:`CPolicy`, the twin of
:class:`search.orderpolicy.LearnedPolicy`).  See ``search/_policy.pyx``.
"""

from search._draws cimport Draws
from search._dumbbot cimport _Orders
from search._maptables cimport CMap, CWeights
from search._valuation cimport CValues, _Board

cdef enum:
    NUM_FEATURES = 16  # len(search.orderpolicy.FEATURES)
    F_DUMBBOT_CHOICE = 1  # the features of DumbBot's choice: added per draw, not in the base
    F_DUMBBOT_CHOICE_STAY = 2


cdef class CPolicy:
    cdef readonly object tables
    cdef readonly CWeights dumbbot
    cdef double weight[NUM_FEATURES]
    cdef double bonus, bonus_stay
    cdef int np
    cdef unsigned char *reach  # reach[node * np + p]: game_map.reach(type, loc) holds p
    cdef int[::1] reach_off, reach_idx  # the same as lists: reach_idx[reach_off[node]:...]
    cdef unsigned char *centre  # per province
    cdef int *distance  # distance[p * np + q]
    cdef int *by_distance  # by_distance[p * centres + i]: the centres, nearest to p first
    cdef int *block
    cdef int *enemies  # per province: enemy units reaching it, then our own
    cdef int *friends
    cdef int *nearest  # per province: distance to the nearest centre to take (-1: not yet)
    cdef int *provs  # our units' provinces, sorted
    cdef int *picks  # per province: the location the unit there chose
    cdef int *order_of  # the order the units claim their provinces in
    cdef int *later
    cdef int *mover_into  # per province: the unit of ours moving in, or -1
    cdef int *kind  # per province: the order of our unit there (-1: none yet), its a and b
    cdef int *a
    cdef int *b
    cdef int *seq  # the orders' provinces, in the order they were given
    cdef int count

    cdef inline void give(self, int prov, int kind, int a, int b) noexcept:
        """Our unit in ``prov`` is given its order."""
        self.kind[prov] = kind
        self.a[prov] = a
        self.b[prov] = b
        self.seq[self.count] = prov
        self.count += 1


cdef int _learned_moves(
    CMap cm,
    CPolicy pol,
    _Board b,
    int season,
    int power,
    Draws *dr,
    CValues v,
    _Orders o,
    bint valued=*,
) except -1
cdef int _check_policy(CMap cm, CPolicy policy) except -1
cdef dict _loaded_learned_orders(
    CMap cm, CPolicy pol, _Board b, int season, int power, Draws *d, CValues v, _Orders o
)
