# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
# cython: cdivision=True
"""DumbBot's valuation compiled: a board read into C arrays (:class:`_Board`), what the
powers valued on it share (:class:`_Shared`, one per map) and one power's values
(:class:`CValues`, read through the inline :func:`_value` and :func:`_competition`).
See ``search/_valuation.pyx``.
"""

from search._maptables cimport DEPTH, CMap, CWeights

cdef extern from "db_lanes.h":
    int LANES "DB_LANES"
    long long db_weigh_lanes(const long long *prox, const int *lv) noexcept nogil
    long long db_weigh_other(
        const long long *prox, const void *lv, Py_ssize_t level, bint narrow
    ) noexcept nogil


cdef class _Board:
    cdef int *upow
    cdef int *unode
    cdef int *dpow
    cdef int *dnode
    cdef int *owner
    cdef bint any_dislodged
    cdef int np

    cdef int load(self, CMap cm, object pos) except -1


cdef class _Shared:
    cdef int *board
    cdef int *counts  # counts[prov * lanes + power]: units in or next to prov
    cdef int *top  # per province: the most units one power has in or next to it,
    cdef int *leader  # the first power that has that many,
    cdef int *runner  # and the most any other power has
    cdef void *base  # base[prov * lanes + power]: proximity level 0, in the levels' lanes
    cdef long long *defence  # defence[prov]: the defence value of prov for its owner
    # scratch for _compute_board: per centre (in CMap.centres order) its owner, the attack
    # value of every other power, and the owner's defence value (see db_centres_narrow)
    cdef int *owners
    cdef long long *attack
    cdef long long *defend
    # the map's proximity terms as offsets into a level: each node's own, one per bordering
    # province, a group row where that province has several nodes; a record per node (its
    # row's offset, then its terms'), in runs of nodes with as many terms: run r has
    # runs[2 r + 1] nodes of runs[2 r] terms (see db_levels_narrow)
    cdef int *recs
    cdef int *runs
    cdef int num_runs
    cdef int *item_at  # the items of the groups (CMap.item_idx), likewise
    cdef int *touch_at  # CMap.touch_prov as offsets into counts (prov * lanes)
    cdef void *levels  # levels[(row * DEPTH + n) * lanes + power]: int or long long lanes
    # what the last board set, cleared for the next one: the rows of base given a unit's term
    cdef int *unit_rows
    cdef int num_unit_rows
    cdef int *units  # scratch for _compute_board: the provinces with a unit
    # Levels made again only where base rows changed (see _compute_levels): the centres'
    # base rows the levels were computed from (valid with lv_valid), per province and
    # level the nodes within that many terms of its nodes (bits by record position, words
    # a level), scratch for the changed provinces and the nodes to compute, and each
    # record position's node.
    cdef int *lv_owner  # per centre: the owner, attack and defence value of its base row
    cdef long long *lv_attack
    cdef long long *lv_defend
    cdef unsigned long long *balls
    cdef unsigned long long *dirty
    # per node and level n, the nodes whose level n its level DEPTH - 1 reads (through
    # DEPTH - 1 - n terms: its value needs them); the nodes a retreat phase's choices read,
    # so, per level (with use_need, the only ones made); the nodes left stale (partial)
    cdef unsigned long long *cones
    cdef unsigned long long *need
    cdef unsigned long long *stale
    cdef bint use_need, partial
    cdef int *changed
    cdef int *pos_node
    cdef int words
    cdef bint lv_valid
    cdef long long weights[2]  # the board's attack and defence weights,
    cdef long long lv_weights[2]  # and those the levels were computed with
    cdef bint incremental  # the weights give no unit terms (only the centres' rows change)
    cdef int np, rows, lanes, size
    cdef int season
    cdef object key
    cdef bint valid, narrow, levels_ready
    cdef bint plain  # narrow, and no level below 0 (CWeights.plain)
    cdef int exact  # CWeights.exact with narrow lanes (else 0)

    cdef int _balls(self, CMap cm, list nodes) except -1
    cdef void _mark(self, unsigned long long *mask, object bits)


cdef class CValues:
    cdef readonly object tables
    cdef readonly int power
    cdef int np, nn, nw
    cdef long long *vals
    cdef int *counts  # filled by values() (the C paths read vals and comp only)
    cdef int *comp
    cdef CMap cm
    cdef bint kept  # vals and comp hold the values (else they are worked out as read)
    cdef int *stamp  # per node: the epoch whose value vals holds
    cdef int epoch  # of the valuation _compute pointed this at last
    # the valuation _compute pointed this at: the shared board's, for ``power`` (held, so
    # that the arrays the pointers below read stay while this reads them)
    cdef _Shared shared
    cdef bint winter
    cdef long long strength_w, competition_w, winter_defence_w
    cdef bint narrow  # the levels are ints (else long longs)
    cdef const long long *prox  # the season's proximity weights
    cdef const void *levels  # levels[(node * DEPTH + n) * lanes]: ``power``'s proximity levels
    cdef Py_ssize_t lanes, level
    cdef const long long *defence
    cdef const int *node_prov
    cdef const int *owner
    cdef const int *unit_counts  # unit_counts[prov * lanes + power]
    cdef const int *top
    cdef const int *leader
    cdef const int *runner


cdef void _repoint(CMap cm, CValues v) noexcept
cdef void _compute(CMap cm, CWeights w, _Board b, int season, bint removing, CValues out)
cdef void _compute_retreats(
    CMap cm, CWeights w, _Board b, int season, CValues out, const int *ropt_n, const int *ropt,
    int max_options,
)
cdef void _keep(CValues v, long long *vals, int *comp) noexcept


cdef inline void _count_centres(CMap cm, const int *owner, int *counts) noexcept:
    """Each power's supply centres by the centres' ``owner`` into ``counts[0:num_powers]``."""
    cdef int q, k
    for q in range(cm.num_powers):
        counts[q] = 0
    for k in range(cm.num_centres):
        q = owner[cm.centres[k]]
        if q >= 0:
            counts[q] += 1


cdef inline int _competition(CValues v, int prov) noexcept:
    """The most units any power but ``v``'s has in or next to ``prov``."""
    if v.kept:
        return v.comp[prov]
    return v.runner[prov] if v.leader[prov] == v.power else v.top[prov]


cdef inline long long _weighed(CValues v, int node) noexcept:
    """The proximity levels of ``v``'s power at ``node``, weighted by its season's table."""
    cdef Py_ssize_t at = <Py_ssize_t> node * DEPTH * v.lanes
    if v.narrow and v.lanes == LANES:
        return db_weigh_lanes(v.prox, (<const int *> v.levels) + at)
    if v.narrow:
        return db_weigh_other(v.prox, (<const int *> v.levels) + at, v.level, True)
    return db_weigh_other(v.prox, (<const long long *> v.levels) + at, v.level, False)


cdef inline long long _value(CValues v, int node) noexcept:
    """``v``'s value of ``node``: its weighted proximity levels plus what its province adds
    (strength and competition, or the winter defence; see search.dumbbot_values)."""
    if v.kept or v.stamp[node] == v.epoch:
        return v.vals[node]
    cdef int prov = v.node_prov[node]
    cdef long long extra
    if not v.winter:
        extra = (
            v.strength_w * v.unit_counts[prov * v.lanes + v.power]
            - v.competition_w * _competition(v, prov)
        )
    elif v.owner[prov] == v.power and v.defence[prov] > 0:
        extra = v.winter_defence_w * v.defence[prov]
    else:
        extra = 0
    v.stamp[node] = v.epoch
    v.vals[node] = _weighed(v, node) + extra
    return v.vals[node]
