# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
# cython: cdivision=True
"""A learned order policy's movement orders compiled (see ``search/_policy.pxd``).

:meth:`LearnedPolicy.movement_orders <search.orderpolicy.LearnedPolicy.movement_orders>`
on C arrays: the model's features of each unit's options, its draws from the same
generator in the same order, and DumbBot's choice among them (a feature) from
``search._dumbbot``.
"""

from cpython.mem cimport PyMem_Free, PyMem_Malloc
from libc.math cimport exp
from libc.string cimport memcpy, memset

from search._draws cimport Draws, _shuffle, _uniform
from search._dumbbot cimport _Orders, _choose_moves, _orders_dict, _provinces_of
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
    SUPPORT_HOLD,
    SUPPORT_MOVE,
    CMap,
    CWeights,
    _check,
    _check_length,
    _ints,
)
from search._valuation cimport CValues, _Board, _value

cdef double REACH_SCALE = 3.0  # search.orderpolicy.REACH_SCALE
cdef double DISTANCE_SCALE = 5.0  # search.orderpolicy.DISTANCE_SCALE

cdef extern from *:
    const char *SOURCE_SHA256  # defined by setup.py

SOURCE_HASH = SOURCE_SHA256.decode("ascii")
"""The SHA-256 of the source this module was built from (see adjudicator.compiled_rules.load)."""


cdef class CPolicy:
    """A learned order model's movement orders on one map (search.orderpolicy.LearnedPolicy).

    ``weights`` are the model's, one per feature of search.orderpolicy.FEATURES;
    ``dumbbot`` the compiled weights of the DumbBot whose draw gives the feature of
    DumbBot's choice.  The features read the map's supply centres, home centres,
    distances and each unit's reach; the scratch space is this object's (calls are
    not reentrant).
    """


    def __cinit__(self, CMap cm, object game_map, object weights, CWeights dumbbot):
        cdef int np = cm.num_provinces
        cdef int nn = cm.num_nodes
        cdef int i, j
        weights = tuple(weights)
        if len(weights) != NUM_FEATURES:
            raise ValueError(f"a learned order model needs {NUM_FEATURES} weights")
        self.tables = cm.tables
        self.dumbbot = dumbbot
        self.np = np
        for i in range(NUM_FEATURES):
            self.weight[i] = weights[i]
        self.bonus = self.weight[F_DUMBBOT_CHOICE]
        self.bonus_stay = self.bonus + self.weight[F_DUMBBOT_CHOICE_STAY]
        self.reach = <unsigned char *> PyMem_Malloc(nn * np + np)
        self.distance = <int *> PyMem_Malloc(np * np * sizeof(int))
        self.by_distance = <int *> PyMem_Malloc((np * cm.num_centres + 1) * sizeof(int))
        self.block = <int *> PyMem_Malloc(13 * np * sizeof(int))
        if (
            self.reach == NULL
            or self.distance == NULL
            or self.by_distance == NULL
            or self.block == NULL
        ):
            raise MemoryError()
        self.centre = self.reach + nn * np
        memset(self.reach, 0, nn * np + np)
        reach_idx, reach_off = [], [0]
        for i in range(nn):
            provinces = sorted(game_map.reach(cm.node_type[i], cm.node_loc[i]))
            _check(provinces, np, "reach")
            for j in provinces:
                self.reach[i * np + j] = 1
            reach_idx.extend(provinces)
            reach_off.append(len(reach_idx))
        self.reach_idx = _ints(reach_idx)
        self.reach_off = _ints(reach_off)
        for i in range(cm.num_centres):
            self.centre[cm.centres[i]] = 1
        _check_length(game_map.distance, np, "distances")
        for i in range(np):
            row = game_map.distance[i]
            _check_length(row, np, "distances")
            for j in range(np):
                self.distance[i * np + j] = row[j]
            nearest_first = sorted(
                [cm.centres[j] for j in range(cm.num_centres)], key=lambda sc: row[sc]
            )
            for j in range(cm.num_centres):
                self.by_distance[i * cm.num_centres + j] = nearest_first[j]
        self.enemies = self.block
        self.friends = self.enemies + np
        self.nearest = self.friends + np
        self.provs = self.nearest + np
        self.picks = self.provs + np
        self.order_of = self.picks + np
        self.later = self.order_of + np
        self.mover_into = self.later + np
        self.kind = self.mover_into + np
        self.a = self.kind + np
        self.b = self.a + np
        self.seq = self.b + np
        self.count = 0

    def __dealloc__(self):
        PyMem_Free(self.reach)
        PyMem_Free(self.distance)
        PyMem_Free(self.by_distance)
        PyMem_Free(self.block)



cdef int _nearest_target(CMap cm, CPolicy pol, _Board b, int power, int prov) noexcept:
    """The distance from ``prov`` to the nearest centre ``power`` does not own (0: none)."""
    cdef int i, sc
    cdef int *nearest_first = pol.by_distance + prov * cm.num_centres
    for i in range(cm.num_centres):
        sc = nearest_first[i]
        if b.owner[sc] != power:
            return pol.distance[prov * pol.np + sc]
    return 0


cdef int _dumbbot_choice(CMap cm, _Orders o, int prov, int *opts, int n) noexcept:
    """search.orderpolicy.dumbbot_choice: the index of the choice DumbBot's order came from."""
    cdef int kind = o.kind[prov]
    cdef int k, target
    if kind == MOVE:
        for k in range(n):
            if opts[k] == o.a[prov]:
                return k
        return 0
    if kind == SUPPORT_HOLD:
        target = o.a[prov]
    elif kind == SUPPORT_MOVE:
        target = o.b[prov]
    else:
        return 0
    for k in range(1, n):
        if cm.loc_prov[opts[k]] == target:
            return k
    return 0


cdef int _learned_moves(
    CMap cm,
    CPolicy pol,
    _Board b,
    int season,
    int power,
    Draws *dr,
    CValues v,
    _Orders o,
    bint valued=False,
) except -1:
    """LearnedPolicy.movement_orders for ``power``'s units on ``b`` into ``pol``'s orders; how many.

    One DumbBot draw (``pol.dumbbot``, into ``o`` and ``v``; ``valued``: ``v`` already holds
    its values), each unit's choice drawn by the softmax of its scores, the claim order
    shuffled, then search.orderpolicy.orders_from_choices.
    """
    cdef int np = cm.num_provinces
    cdef int opts[MAX_OPTIONS]
    cdef double scores[MAX_OPTIONS]
    cdef double f[NUM_FEATURES]
    cdef double *w = pol.weight
    cdef int i, j, k, n, p, q, prov, node, loc, d, there, owner, count, waiting, num_later
    cdef int agree
    cdef double top, total, r, acc, stay, enemies, fall_take
    cdef bint is_centre, take
    pol.count = 0
    if not _choose_moves(cm, pol.dumbbot, b, season, power, dr, v, o, valued):
        return 0
    count = _provinces_of(b.upow, np, power, pol.provs)
    for p in range(np):
        pol.enemies[p] = 0
        pol.friends[p] = 0
        pol.nearest[p] = -1
        pol.mover_into[p] = -1
        pol.kind[p] = -1
    for p in range(np):
        if b.upow[p] >= 0:
            node = b.unode[p]
            for j in range(pol.reach_off[node], pol.reach_off[node + 1]):
                q = pol.reach_idx[j]
                if b.upow[p] == power:
                    pol.friends[q] += 1
                else:
                    pol.enemies[q] += 1
    for i in range(count):
        prov = pol.provs[i]
        node = b.unode[prov]
        opts[0] = cm.node_loc[node]
        n = 1
        for j in range(cm.adj_off[node], cm.adj_off[node + 1]):
            opts[n] = cm.adj_loc[j]
            n += 1
        for k in range(n):
            loc = opts[k]
            d = cm.loc_prov[loc]
            there = b.upow[d]
            owner = b.owner[d]
            is_centre = pol.centre[d]
            take = is_centre and owner != power
            stay = 1.0 if k == 0 else 0.0
            enemies = pol.enemies[d] / REACH_SCALE
            fall_take = 1.0 if take and season == FALL else 0.0
            if pol.nearest[d] < 0:
                pol.nearest[d] = _nearest_target(cm, pol, b, power, d)
            f[0] = stay
            f[3] = 1.0 if is_centre else 0.0
            f[4] = 1.0 if is_centre and owner == power else 0.0
            f[5] = 1.0 if is_centre and owner != power and owner != -1 else 0.0
            f[6] = 1.0 if is_centre and owner == -1 else 0.0
            f[7] = 1.0 if cm.home[power * np + d] else 0.0
            f[8] = 1.0 if there == power and d != prov else 0.0
            f[9] = 1.0 if there != -1 and there != power else 0.0
            f[10] = enemies
            f[11] = max(
                0.0,
                pol.friends[d] - (1.0 if k > 0 or pol.reach[node * np + prov] else 0.0),
            ) / REACH_SCALE
            f[12] = fall_take
            f[13] = stay * fall_take
            f[14] = pol.nearest[d] / DISTANCE_SCALE
            f[15] = stay * enemies
            acc = 0.0
            for j in range(NUM_FEATURES):
                if j != F_DUMBBOT_CHOICE and j != F_DUMBBOT_CHOICE_STAY:
                    acc = acc + f[j] * w[j]
            scores[k] = acc
        k = _dumbbot_choice(cm, o, prov, opts, n)
        scores[k] = scores[k] + (pol.bonus_stay if k == 0 else pol.bonus)
        top = scores[0]
        for k in range(1, n):
            if scores[k] > top:
                top = scores[k]
        total = 0.0
        for k in range(n):
            scores[k] = exp(scores[k] - top)
            total = total + scores[k]
        r = _uniform(dr) * total
        k = 0
        acc = scores[0]
        while acc < r and k + 1 < n:
            k += 1
            acc = acc + scores[k]
        pol.picks[prov] = opts[k]
    for i in range(count):
        pol.order_of[i] = pol.provs[i]
    _shuffle(pol.order_of, count, dr)
    # DumbBot's own movers claim their provinces first (a stable sort on agreement)
    n = 0
    for i in range(count):
        prov = pol.order_of[i]
        if o.kind[prov] == MOVE and o.a[prov] == pol.picks[prov]:
            pol.later[n] = prov
            n += 1
    for i in range(count):
        prov = pol.order_of[i]
        if not (o.kind[prov] == MOVE and o.a[prov] == pol.picks[prov]):
            pol.later[n] = prov
            n += 1
    for i in range(count):
        pol.order_of[i] = pol.later[i]
    # search.orderpolicy.orders_from_choices
    waiting = count
    while waiting:
        num_later = 0
        for i in range(waiting):
            prov = pol.order_of[i]
            loc = pol.picks[prov]
            d = cm.loc_prov[loc]
            if d == prov:
                pol.give(prov, HOLD, 0, 0)
                continue
            if b.upow[d] == power:
                if pol.kind[d] < 0:
                    pol.later[num_later] = prov
                    num_later += 1
                    continue
                if pol.kind[d] != MOVE:
                    pol.give(prov, SUPPORT_HOLD, d, 0)
                    continue
            if pol.mover_into[d] >= 0:
                pol.give(prov, SUPPORT_MOVE, pol.mover_into[d], d)
            else:
                pol.give(prov, MOVE, loc, 0)
                pol.mover_into[d] = prov
        j = 0
        if num_later and num_later == waiting:  # waiting on each other in a cycle: the first stays
            prov = pol.later[0]
            pol.give(prov, SUPPORT_HOLD, cm.loc_prov[pol.picks[prov]], 0)
            j = 1
        for i in range(j, num_later):
            pol.order_of[i - j] = pol.later[i]
        waiting = num_later - j
    return pol.count


cdef int _check_policy(CMap cm, CPolicy policy) except -1:
    """ValueError if ``policy`` (or None) was made for another map than ``cm``'s."""
    if policy is not None and policy.tables is not cm.tables:
        raise ValueError("a learned policy made for another map")
    return 0


cdef dict _loaded_learned_orders(
    CMap cm, CPolicy pol, _Board b, int season, int power, Draws *d, CValues v, _Orders o
):
    """learned_orders on the board loaded into ``b`` (``v`` and ``o`` are reset here)."""
    cdef int count = _learned_moves(cm, pol, b, season, power, d, v, o)
    return _orders_dict(count, pol.seq, pol.kind, pol.a, pol.b)

