# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
# cython: cdivision=True
"""DumbBot's choice compiled (see ``search/_dumbbot.pxd``).

The same arithmetic as :class:`search.dumbbot.DumbBot` on C arrays, drawing from the same
random generator in the same order: each unit's order from the values of its moves
(:func:`_order_unit`), the wasted holds made supports (:func:`_replace_wasted_holds`), a
power's orders (:func:`_choose_moves`).  The weighted random choice
(``search.dumbbot_values.select_index``) is inline in the ``.pxd``: the rollout's
retreats and adjustments choose with it too.
"""

from cpython.mem cimport PyMem_Free, PyMem_Malloc
from libc.string cimport memcpy, memset

from adjudicator.orders import HOLD_ORDER as _HOLD_ORDER

from search._draws cimport Draws, _shuffle
from search._maptables cimport (
    AUTUMN,
    FALL,
    HOLD,
    MAX_POWERS,
    SPRING,
    SUMMER,
    WINTER,
    MAX_OPTIONS,
    MOVE,
    STALLED,
    SUPPORT_HOLD,
    SUPPORT_MOVE,
    WAITING,
    CMap,
    CWeights,
)
from search._valuation cimport CValues, _Board, _competition, _compute, _repoint, _value

cdef extern from *:
    const char *SOURCE_SHA256  # defined by setup.py

SOURCE_HASH = SOURCE_SHA256.decode("ascii")
"""The SHA-256 of the source this module was built from (see adjudicator.compiled_rules.load)."""


cdef class _Orders:
    """The orders given so far, per province, and the order they were given in."""


    def __cinit__(self, int np):
        cdef int i
        self.np = np
        self.kind = <int *> PyMem_Malloc((10 * np + np * np) * sizeof(int))
        self.waiting = <unsigned char *> PyMem_Malloc(np * np + np)
        self.scores = <long long *> PyMem_Malloc(np * sizeof(long long))
        if self.kind == NULL or self.waiting == NULL or self.scores == NULL:
            raise MemoryError()
        self.a = self.kind + np
        self.b = self.a + np
        self.seq = self.b + np
        self.moving_into = self.seq + np
        self.waited = self.moving_into + np
        self.ours = self.waited + np * np
        self.holding = self.ours + np
        self.waited_for = self.waiting + np * np
        memset(self.waiting, 0, np * np + np)
        self.num_waited = 0
        self.count = 0
        for i in range(np):
            self.kind[i] = -1
            self.moving_into[i] = -1

    cdef void reset(self, const int *loc_prov) noexcept:
        """No order given yet (as built): only the entries of the orders given are cleared
        (``loc_prov``: the map's provinces of its locations, where the moves went)."""
        cdef int i, p
        for i in range(self.count):
            p = self.seq[i]
            if self.kind[p] == MOVE:
                self.moving_into[loc_prov[self.a[p]]] = -1
            self.kind[p] = -1
        for i in range(self.num_waited):
            self.waiting[self.waited[i]] = 0
            self.waited_for[self.waited[i] // self.np] = 0
        self.num_waited = 0
        self.count = 0


    def __dealloc__(self):
        PyMem_Free(self.kind)
        PyMem_Free(self.waiting)
        PyMem_Free(self.scores)


cdef int _order_unit(
    CMap cm, CWeights w, _Board b, CValues v, _Orders o, int prov, Draws *d, bint force
) except -2:
    """One unit's order into ``o`` (its kind), or WAITING (see DumbBot._order_unit)."""
    cdef int opts[MAX_OPTIONS]
    cdef long long scores[MAX_OPTIONS]
    cdef int np = cm.num_provinces
    cdef int power = b.upow[prov]
    cdef int node = b.unode[prov]
    cdef int n = 1, j, k, dest, dprov, mover
    cdef int first = cm.adj_off[node], last = cm.adj_off[node + 1]
    cdef const int *adj_loc = &cm.adj_loc[0]
    cdef const int *adj_node = &cm.adj_node[0]
    cdef const int *adj_prov = &cm.adj_prov[0]
    cdef const unsigned char *waiting = o.waiting + prov * np
    cdef bint ok
    opts[0] = cm.node_loc[node]
    scores[0] = _value(v, node)
    if o.waited_for[prov]:  # not to the units waiting for this one
        for j in range(first, last):
            if not waiting[adj_prov[j]]:
                opts[n] = adj_loc[j]
                scores[n] = _value(v, adj_node[j])
                n += 1
    else:
        for j in range(first, last):
            opts[n] = adj_loc[j]
            scores[n] = _value(v, adj_node[j])
            n += 1
    while True:
        k = _select(scores, n, d, w)
        dest = opts[k]
        dprov = cm.loc_prov[dest]
        if dprov == prov:
            o.kind[prov] = HOLD
            return HOLD
        ok = True
        if b.upow[dprov] == power:
            if o.kind[dprov] >= 0:
                if o.kind[dprov] != MOVE:
                    if _competition(v, dprov) > 1:
                        o.kind[prov] = SUPPORT_HOLD
                        o.a[prov] = dprov
                        return SUPPORT_HOLD
                    ok = False
            elif not force:
                o.wait(dprov, prov)
                return WAITING
        mover = o.moving_into[dprov]
        if mover >= 0:
            if _competition(v, dprov) > 0:
                o.kind[prov] = SUPPORT_MOVE
                o.a[prov] = mover
                o.b[prov] = dprov
                return SUPPORT_MOVE
            ok = False
        if ok:
            o.kind[prov] = MOVE
            o.a[prov] = dest
            return MOVE
        for j in range(k, n - 1):
            opts[j] = opts[j + 1]
            scores[j] = scores[j + 1]
        n -= 1


cdef void _replace_wasted_holds(CMap cm, _Board b, CValues v, _Orders o) noexcept:
    """Each hold becomes a support of the best neighbouring order (DumbBot's rule)."""
    cdef int np = cm.num_provinces
    cdef int *holding = o.holding
    cdef int *t_unit = holding + np
    cdef int *t_kind = t_unit + np
    cdef int *t_dest = t_kind + np
    cdef long long *t_score = o.scores
    cdef int nh = 0, s, prov, k, dprov, node, j, q, src
    cdef long long best
    for j in range(np):
        t_unit[j] = -1
    for s in range(o.count):
        prov = o.seq[s]
        k = o.kind[prov]
        node = b.unode[prov]
        if k == MOVE:
            dprov = cm.loc_prov[o.a[prov]]
            t_unit[dprov] = prov
            t_kind[dprov] = MOVE
            t_dest[dprov] = dprov
            t_score[dprov] = (
                _value(v, cm.node_of(cm.node_type[node], o.a[prov])) * _competition(v, dprov)
            )
        else:
            t_unit[prov] = prov
            t_kind[prov] = k
            t_score[prov] = _value(v, node) * (_competition(v, prov) - 1)
            if k == HOLD:
                holding[nh] = prov
                nh += 1
    for s in range(nh):
        prov = holding[s]
        node = b.unode[prov]
        src = -1
        best = 0
        for j in range(cm.adj_off[node], cm.adj_off[node + 1]):
            q = cm.loc_prov[cm.adj_loc[j]]
            if t_unit[q] >= 0 and (t_score[q] > best or src < 0):
                src = q
                best = t_score[q]
        if src >= 0:
            if t_kind[src] == MOVE:
                o.kind[prov] = SUPPORT_MOVE
                o.a[prov] = t_unit[src]
                o.b[prov] = t_dest[src]
            else:
                o.kind[prov] = SUPPORT_HOLD
                o.a[prov] = t_unit[src]




cdef dict _loaded_movement_orders(
    CMap cm, CWeights w, _Board b, int season, int power, Draws *d, CValues v, _Orders o
):
    """movement_orders on the board loaded into ``b`` (``v`` and ``o`` are reset here)."""
    if not _choose_moves(cm, w, b, season, power, d, v, o):
        return {}
    return _orders_dict(o.count, o.seq, o.kind, o.a, o.b)


cdef dict _orders_dict(int count, const int *seq, const int *kind, const int *a, const int *b):
    """The engine orders of the provinces ``seq[:count]``, in that order, from their order
    kinds and targets by province (``kind``, ``a``, ``b``)."""
    cdef int i, prov, r
    orders = {}
    for i in range(count):
        prov = seq[i]
        r = kind[prov]
        if r == HOLD:
            orders[prov] = _HOLD_ORDER
        elif r == MOVE:
            orders[prov] = (MOVE, a[prov])
        elif r == SUPPORT_HOLD:
            orders[prov] = (SUPPORT_HOLD, a[prov])
        else:
            orders[prov] = (SUPPORT_MOVE, a[prov], b[prov])
    return orders


cdef int _choose_moves(
    CMap cm,
    CWeights w,
    _Board b,
    int season,
    int power,
    Draws *d,
    CValues v,
    _Orders o,
    bint valued=False,
    const int *units=NULL,
    int num_units=0,
    bint repoint=False,
) except -1:
    """DumbBot's orders for ``power``'s units on ``b`` into ``o`` (reset here); how many.

    ``valued``: ``v`` already holds ``power``'s values on ``b``.  ``units`` (if not NULL):
    the ``num_units`` provinces with a unit of ``power`` on ``b``, in province order (a
    movement phase sorts every power's out once, not from every province per power).
    ``repoint``: :func:`_compute` last pointed ``v`` at ``b`` in ``season`` with ``w`` for
    another power, and nothing was valued since (a movement phase's powers in turn): ``v``
    is pointed at ``power``'s levels of that valuation (see :func:`_repoint`).
    """
    v.power = power
    o.reset(&cm.loc_prov[0])
    cdef int np = cm.num_provinces
    cdef int k, prov, r, count, waiting
    cdef int stalled = 0
    cdef bint force
    cdef int *ours = o.ours
    if units == NULL:
        count = _provinces_of(b.upow, np, power, ours)
    else:
        count = num_units
        memcpy(ours, units, count * sizeof(int))
    if not count:
        return 0
    if not valued:
        if repoint:
            _repoint(cm, v)
        else:
            _compute(cm, w, b, season, False, v)
    while count:
        _shuffle(ours, count, d)
        force = stalled >= STALLED
        waiting = 0  # the units that wait go to the front of ``ours``, in turn
        for k in range(count):
            prov = ours[k]
            r = _order_unit(cm, w, b, v, o, prov, d, force)
            force = False
            if r == WAITING:
                ours[waiting] = prov
                waiting += 1
            else:
                o.seq[o.count] = prov
                o.count += 1
                if r == MOVE:
                    o.moving_into[cm.loc_prov[o.a[prov]]] = prov
        stalled = stalled + 1 if waiting == count else 0
        count = waiting
    _replace_wasted_holds(cm, b, v, o)
    return o.count

