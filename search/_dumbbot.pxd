# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
# cython: cdivision=True
"""DumbBot's choice compiled: its weighted random choice (inline), the orders it gives
(:class:`_Orders`) and a power's movement orders on a valued board (:func:`_choose_moves`).
See ``search/_dumbbot.pyx``.
"""

from libc.limits cimport LLONG_MIN

from search._draws cimport Draws, _uniform
from search._maptables cimport CMap, CWeights, _fdiv
from search._valuation cimport CValues, _Board


cdef class _Orders:
    cdef int *kind
    cdef int *a
    cdef int *b
    cdef int *seq
    cdef int *moving_into
    cdef unsigned char *waiting  # waiting[p * np + q]: the unit in q waits for the one in p
    cdef unsigned char *waited_for  # waited_for[p]: some unit waits for the one in p
    cdef int *waited  # the entries of ``waiting`` set, to clear them for the next call
    cdef int *ours  # scratch: the units still to order (or to retreat), in the order drawn
    cdef int *holding  # scratch of _replace_wasted_holds: 4 * np ints, np scores
    cdef long long *scores
    cdef int num_waited
    cdef int count, np

    cdef void reset(self, const int *loc_prov) noexcept

    cdef inline void wait(self, int p, int q) noexcept:
        """The unit in ``q`` waits for the one in ``p``."""
        cdef int at = p * self.np + q
        if not self.waiting[at]:
            self.waiting[at] = 1
            self.waited_for[p] = 1
            self.waited[self.num_waited] = at
            self.num_waited += 1


cdef dict _orders_dict(int count, const int *seq, const int *kind, const int *a, const int *b)
cdef dict _loaded_movement_orders(
    CMap cm, CWeights w, _Board b, int season, int power, Draws *d, CValues v, _Orders o
)
cdef int _choose_moves(
    CMap cm,
    CWeights w,
    _Board b,
    int season,
    int power,
    Draws *d,
    CValues v,
    _Orders o,
    bint valued=*,
    const int *units=*,
    int num_units=*,
    bint repoint=*,
) except -1


cdef inline int _provinces_of(const int *powers, int np, int power, int *out) noexcept:
    """The provinces ``p`` where ``powers[p]`` is ``power`` into ``out``, in order; how many."""
    cdef int p, n = 0
    for p in range(np):
        if powers[p] == power:
            out[n] = p
            n += 1
    return n


cdef inline int _ranked_below(long long *scores, int n, int k) noexcept:
    """The option ranked next below option ``k`` by (score, index), or -1 if none."""
    cdef int i, found = -1
    cdef long long bound = scores[k], at = LLONG_MIN, s
    cdef bint take
    # selects, not branches (the scores come in no order): the later index of equals
    for i in range(n):
        s = scores[i]
        take = ((s < bound) | ((s == bound) & (i < k))) & (s >= at)
        found = i if take else found
        at = s if take else at
    return found


cdef inline int _select(long long *scores, int n, Draws *d, CWeights w) except -1:
    """search.dumbbot_values.select_index on a C array, drawing from ``d`` (one option: no
    draw, and no call)."""
    if n == 1:
        return 0
    return _select_among(scores, n, d, w)


cdef inline int _select_among(long long *scores, int n, Draws *d, CWeights w) except -1:
    """:func:`_select` of two options or more.

    The options are ranked by (score, index) from the top: the best and the runner-up
    found in one pass, each further one only when the draws go on to it (most choices
    stop at the best or the next).
    """
    cdef int i, current = 0, below = -1
    cdef long long best = scores[0], second = LLONG_MIN, s, chance, best_chance
    cdef bint top, runner
    # selects, not branches (the scores come in no order): the later index of equals
    for i in range(1, n):
        s = scores[i]
        top = s >= best
        runner = s >= second
        below = current if top else (i if runner else below)
        second = best if top else (s if runner else second)
        current = i if top else current
        best = s if top else best
    for i in range(n - 1):
        if i:
            below = _ranked_below(scores, n, current)
            second = scores[below]
        if best:
            best_chance = _fdiv((best - second) * w.modifier, best if best > 0 else -best)
        else:
            best_chance = 0
        chance = w.play_alternative - _fdiv(best_chance * w.play_alternative, 100)
        if _uniform(d) * 100 < <double> chance:
            current = below
        else:
            break
    return current
