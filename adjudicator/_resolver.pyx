# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
"""The compiled resolver's decisions: Kruijswijk's resolver on C arrays.

:class:`_Resolver` decides as :class:`adjudicator.movement._Resolver` does, decision for
decision in the same order (the same backup rule for convoy paradoxes); its arrays are
filled, and its supports, convoys and routes matched, by adjudicator/_moveorders.pyx.
"""

from cpython.mem cimport PyMem_Free, PyMem_Malloc, PyMem_Realloc
from libc.string cimport memset

from adjudicator._movetables cimport (
    ARMY, CONVOY, CONVOY_MOVE, GUESSING, LAND_MOVE, MOVE, NO_GUESS, NO_UNIT, R_BNC, R_CUT,
    R_DSR, R_NSO, R_SUC, RESOLVED, SUPPORT_HOLD, SUPPORT_MOVE, UNRESOLVED, _MapFacts,
)

cdef extern from *:
    const char *SOURCE_SHA256  # defined by setup.py

SOURCE_HASH = SOURCE_SHA256.decode("ascii")
"""The SHA-256 of the source this module was built from (see adjudicator.compiled_rules.load)."""

cdef enum:
    RESOLVER_ARRAYS = 29  # int arrays of n entries in a _Resolver's one block (two have n + 1)
    CLEARED_TO_MINUS_ONE = 13  # the first arrays of the block, -1 between phases
    CLEARED_TO_ZERO = 9  # the next ones, 0 between phases

assert NO_UNIT == LAND_MOVE == -1 and UNRESOLVED == 0  # what _Resolver.__cinit__'s memsets give


cdef inline int _resolved(_Resolver r, int p) except -1:
    """``r.resolve(p)``, without the call when ``p``'s decision is made."""
    if r.state[p] == RESOLVED:
        return r.res[p]
    return r.resolve(p)


# --- the decisions of a plain phase (resolve_arrays: no convoys, so no route to fail and
# no convoy order): adjudicator.movement's, as the methods below decide them, in C
# functions GCC can inline into one another (the methods of a class declared in a pxd are
# called through its table); only the recursion into another unit's decision is a call.

cdef inline int _plain_count(_Resolver r, int p, int exclude_power) except -1:
    """:meth:`_Resolver._count` in a plain phase."""
    cdef int s = r.sup_head[p], n = 0
    while s >= 0:
        if r.power[s] != exclude_power and _resolved(r, s):
            n += 1
        s = r.sup_next[s]
    return n


cdef inline int _plain_move_succeeds(_Resolver r, int p) except -1:
    """:meth:`_Resolver._move_succeeds` (and its attack, hold and prevent strengths) in a
    plain phase."""
    cdef int d = r.dst[p]
    cdef int dk = r.kind[d]
    cdef int attack, q, opponent, prevent
    # the attack strength
    if dk == NO_UNIT:
        attack = 1 + _plain_count(r, p, -1)
    elif (dk == MOVE or dk == CONVOY_MOVE) and r.h2h[p] < 0 and _resolved(r, d):
        attack = 1 + _plain_count(r, p, -1)
    elif r.power[d] == r.power[p]:
        return 0
    else:
        attack = 1 + _plain_count(r, p, r.power[d])
    # beaten by the defence, or by the hold strength of the province
    if r.h2h[p] >= 0:
        if attack <= 1 + _plain_count(r, d, -1):
            return 0
    elif dk != NO_UNIT:
        if dk == MOVE or dk == CONVOY_MOVE:
            if attack <= (0 if _resolved(r, d) else 1):
                return 0
        elif attack <= 1 + _plain_count(r, d, -1):
            return 0
    # or by another move's prevent strength
    q = r.att_head[d]
    while q >= 0:
        if q != p:
            opponent = r.h2h[q]
            if opponent >= 0 and _resolved(r, opponent):
                prevent = 0
            else:
                prevent = 1 + _plain_count(r, q, -1)
            if attack <= prevent:
                return 0
        q = r.att_next[q]
    return 1


cdef inline int _plain_support_given(_Resolver r, int p) except -1:
    """:meth:`_Resolver._support_given` in a plain phase."""
    cdef int q, pw, into
    if not r.matched[p]:
        return 0
    if r.att_head[p] < 0:
        return 1
    into = r.into[p]
    pw = r.power[p]
    q = r.att_head[p]
    while q >= 0:
        if q != into and r.power[q] != pw:
            return 0
        q = r.att_next[q]
    q = r.att_head[p]
    while q >= 0:
        if r.power[q] != pw and _resolved(r, q):
            return 0
        q = r.att_next[q]
    return 1


cdef inline int _plain_adjudicate(_Resolver r, int p) except -1:
    """:meth:`_Resolver._adjudicate` in a plain phase."""
    cdef int k = r.kind[p]
    cdef int q
    if k == MOVE or k == CONVOY_MOVE:
        return _plain_move_succeeds(r, p)
    if k == SUPPORT_MOVE or k == SUPPORT_HOLD:
        return _plain_support_given(r, p)
    q = r.att_head[p]
    while q >= 0:
        if _resolved(r, q):
            return 0
        q = r.att_next[q]
    return 1


cdef class _Resolver:
    """One movement phase's decisions (see adjudicator.movement._Resolver).

    Indexed by province: what each unit is and was ordered (``kind`` of order,
    ``dst``/``dst_loc`` of a move, ``target``/``into`` of a support or convoy),
    its convoy routes (``route_first``, ``LAND_MOVE`` when it does not go by
    convoy, and ``route_num`` routes of the route table), and the decisions.
    """

    def __cinit__(self, _MapFacts facts):
        cdef int n = facts.n
        self.n = n
        self.facts = facts
        self.kind = <int *> PyMem_Malloc((RESOLVER_ARRAYS * n + 2) * sizeof(int))
        self.key_obj = <PyObject **> PyMem_Malloc(3 * n * sizeof(PyObject *))
        self.cycle_cap = n + 8
        self.cycle = <int *> PyMem_Malloc(self.cycle_cap * sizeof(int))
        if self.kind == NULL or self.key_obj == NULL or self.cycle == NULL:
            raise MemoryError()
        self.unit_obj = self.key_obj + n
        self.order_obj = self.unit_obj + n
        self.power = self.kind + n
        self.utype = self.power + n
        self.loc = self.utype + n
        self.dst = self.loc + n
        self.dst_loc = self.dst + n
        self.into = self.dst_loc + n
        self.coast = self.into + n
        self.target = self.coast + n
        self.h2h = self.target + n
        self.route_first = self.h2h + n
        self.used_route = self.route_first + n
        self.dislodger = self.used_route + n
        self.state = self.dislodger + n
        self.res = self.state + n
        self.matched = self.res + n
        self.serial = self.matched + n
        self.paradox = self.serial + n
        self.route_num = self.paradox + n
        self.path_first = self.route_num + n
        self.path_len = self.path_first + n
        self.moved = self.path_len + n
        self.mark = self.moved + n
        self.walk = self.mark + n
        self.units = self.walk + n
        self.att_head = self.units + n + 1  # n, and att_head[-1]
        self.att_next = self.att_head + n  # n
        self.sup_head = self.att_next + n + 1  # n, and sup_head[-1]
        self.sup_next = self.sup_head + n  # n
        memset(self.kind, 0xFF, CLEARED_TO_MINUS_ONE * n * sizeof(int))
        memset(self.state, 0, (CLEARED_TO_ZERO + 1) * n * sizeof(int))  # and mark
        memset(self.att_head - 1, 0xFF, (n + 1) * sizeof(int))
        memset(self.sup_head - 1, 0xFF, (n + 1) * sizeof(int))
        self.num_units = 0
        self.reset()

    def __dealloc__(self):
        PyMem_Free(self.kind)
        PyMem_Free(self.key_obj)
        PyMem_Free(self.cycle)
        PyMem_Free(self.paths.data)
        PyMem_Free(self.rt_start.data)
        PyMem_Free(self.rt_len.data)
        PyMem_Free(self.rt_fleets.data)
        PyMem_Free(self.found_start.data)
        PyMem_Free(self.found_len.data)
        PyMem_Free(self.found_fleets.data)

    cdef void reset(self) noexcept:
        """No units, no orders, no decisions (for the next phase).

        Only the last phase's units have entries to clear: NO_UNIT, LAND_MOVE,
        UNRESOLVED and the other initial values are -1 or 0.
        """
        cdef int i, p
        for i in range(self.num_units):
            p = self.units[i]
            self.att_head[self.dst[p]] = -1  # [-1] when it did not move
            self.sup_head[self.target[p]] = -1  # [-1] when it supported no one
            self.kind[p] = NO_UNIT
            self.power[p] = -1
            self.dst[p] = -1
            self.dst_loc[p] = -1
            self.into[p] = -1
            self.target[p] = -1
            self.h2h[p] = -1
            self.dislodger[p] = -1
            self.state[p] = UNRESOLVED
            self.res[p] = 0
            self.matched[p] = 0
            self.serial[p] = 0
            self.moved[p] = 0
        if not self.plain:  # a plain phase never set the rest
            for i in range(self.num_units):
                p = self.units[i]
                self.utype[p] = -1
                self.loc[p] = -1
                self.coast[p] = -1
                self.route_first[p] = LAND_MOVE
                self.used_route[p] = -1
                self.paradox[p] = 0
                self.route_num[p] = 0
                self.path_first[p] = 0
                self.path_len[p] = 0
        self.plain = 0
        self.cycle_len = 0
        self.next_serial = 0
        self.low = NO_GUESS
        self.num_units = 0
        self.any_convoy = 0
        self.paths.size = 0
        self.rt_start.size = 0
        self.rt_len.size = 0
        self.rt_fleets.size = 0

    # --- the decisions ----------------------------------------------------------------------

    cdef int _in_cycle(self, int p, int start) noexcept:
        cdef int i
        for i in range(start, self.cycle_len):
            if self.cycle[i] == p:
                return 1
        return 0

    cdef int _append_cycle(self, int p) except -1:
        cdef int *grown
        if self.cycle_len == self.cycle_cap:
            grown = <int *> PyMem_Realloc(self.cycle, 2 * self.cycle_cap * sizeof(int))
            if grown == NULL:
                raise MemoryError()
            self.cycle = grown
            self.cycle_cap *= 2
        self.cycle[self.cycle_len] = p
        self.cycle_len += 1
        return 0

    cdef int resolve(self, int p) except -1:
        """Kruijswijk's resolve (see _Resolver.resolve in adjudicator.movement)."""
        cdef int state = self.state[p]
        cdef int serial, outer_low, old, first, second, low, i
        if state == RESOLVED:
            return self.res[p]
        if state == GUESSING:
            if self.serial[p] < self.low:
                self.low = self.serial[p]
            if not self._in_cycle(p, 0):
                self._append_cycle(p)
            return self.res[p]
        serial = self.next_serial
        self.next_serial = serial + 1
        self.serial[p] = serial
        outer_low = self.low
        old = self.cycle_len
        self.low = NO_GUESS
        self.res[p] = 0
        self.state[p] = GUESSING
        first = _plain_adjudicate(self, p) if self.plain else self._adjudicate(p)
        low = self.low
        if low == NO_GUESS:
            if self.state[p] != RESOLVED:
                self.res[p] = first
                self.state[p] = RESOLVED
            self.low = outer_low
            return first
        if low < serial:
            if not self._in_cycle(p, 0):
                self._append_cycle(p)
            self.res[p] = first
            self.low = min(outer_low, low)
            return first
        for i in range(old, self.cycle_len):
            self.state[self.cycle[i]] = UNRESOLVED
        self.cycle_len = old
        self.res[p] = 1
        self.state[p] = GUESSING
        self.low = NO_GUESS
        second = _plain_adjudicate(self, p) if self.plain else self._adjudicate(p)
        low = self.low
        if low < serial:
            if not self._in_cycle(p, 0):
                self._append_cycle(p)
            self.res[p] = second
            self.low = min(outer_low, low)
            return second
        if first == second:
            for i in range(old, self.cycle_len):
                self.state[self.cycle[i]] = UNRESOLVED
            self.cycle_len = old
            self.res[p] = first
            self.state[p] = RESOLVED
            self.low = outer_low
            return first
        if not self._in_cycle(p, old):
            self._append_cycle(p)
        self._backup_rule(old)
        self.low = outer_low
        return self.resolve(p)

    cdef void _backup_rule(self, int old) noexcept:
        """Settle a cycle with no single consistent answer (see adjudicator.movement).

        A cycle with a convoying fleet stops the convoyed armies in it or using
        one of its fleets (the Szykman rule); else a cycle of moves all succeed;
        anything else all fail.  ``mark``: 1 on a member, 2 on a member convoying.
        """
        cdef int i, j, k, q, a, involved, held = 0, fleets = 0, all_moves = 1
        for i in range(old, self.cycle_len):
            q = self.cycle[i]
            self.state[q] = UNRESOLVED
            if self.kind[q] == CONVOY:
                self.mark[q] = 2
                fleets = 1
            else:
                self.mark[q] = 1
            if self.kind[q] != MOVE and self.kind[q] != CONVOY_MOVE:
                all_moves = 0
        if fleets:
            for i in range(self.num_units):
                a = self.units[i]
                if self.route_first[a] == LAND_MOVE or self.paradox[a]:
                    continue
                involved = self.mark[a] != 0
                k = self.route_first[a]
                while not involved and k < self.route_first[a] + self.route_num[a]:
                    for j in range(self.rt_start.data[k], self.rt_start.data[k] + self.rt_len.data[k]):
                        if self.mark[self.rt_fleets.data[j]] == 2:
                            involved = 1
                            break
                    k += 1
                if involved:
                    self.paradox[a] = 1
                    self.res[a] = 0
                    self.state[a] = RESOLVED
                    held = 1
        if not held:
            for i in range(old, self.cycle_len):
                q = self.cycle[i]
                self.res[q] = all_moves
                self.state[q] = RESOLVED
        for i in range(old, self.cycle_len):
            self.mark[self.cycle[i]] = 0
        self.cycle_len = old

    cdef int _adjudicate(self, int p) except -1:
        cdef int k = self.kind[p]
        cdef int q
        if k == MOVE or k == CONVOY_MOVE:
            return self._move_succeeds(p)
        if k == SUPPORT_MOVE or k == SUPPORT_HOLD:
            return self._support_given(p)
        q = self.att_head[p]
        while q >= 0:
            if _resolved(self, q):
                return 0
            q = self.att_next[q]
        return 1

    cdef int _path(self, int p) except -1:
        """Whether a convoyed army has an undisrupted route."""
        cdef int k, j, whole
        for k in range(self.route_first[p], self.route_first[p] + self.route_num[p]):
            whole = 1
            for j in range(self.rt_start.data[k], self.rt_start.data[k] + self.rt_len.data[k]):
                if not _resolved(self, self.rt_fleets.data[j]):
                    whole = 0
                    break
            if whole:
                return 1
        return 0

    cdef inline int _convoy_fails(self, int p) except -1:
        """Whether ``p`` goes by convoy and its convoy is stopped or disrupted."""
        return self.route_first[p] != LAND_MOVE and (self.paradox[p] or not self._path(p))

    cdef int _count(self, int p, int exclude_power) except -1:
        """Given supports of the unit in ``p`` (from powers other than ``exclude_power``)."""
        cdef int s = self.sup_head[p], n = 0
        while s >= 0:
            if self.power[s] != exclude_power and _resolved(self, s):
                n += 1
            s = self.sup_next[s]
        return n

    cdef int _attack(self, int p) except -1:
        cdef int d, dk
        if self._convoy_fails(p):
            return 0
        d = self.dst[p]
        dk = self.kind[d]
        if dk == NO_UNIT:
            return 1 + self._count(p, -1)
        if (dk == MOVE or dk == CONVOY_MOVE) and self.h2h[p] < 0 and _resolved(self, d):
            return 1 + self._count(p, -1)
        if self.power[d] == self.power[p]:
            return 0
        return 1 + self._count(p, self.power[d])

    cdef int _hold(self, int d) except -1:
        cdef int dk = self.kind[d]
        if dk == NO_UNIT:
            return 0
        if dk == MOVE or dk == CONVOY_MOVE:
            return 0 if _resolved(self, d) else 1
        return 1 + self._count(d, -1)

    cdef int _prevent(self, int q) except -1:
        cdef int opponent
        if self._convoy_fails(q):
            return 0
        opponent = self.h2h[q]
        if opponent >= 0 and _resolved(self, opponent):
            return 0
        return 1 + self._count(q, -1)

    cdef int _move_succeeds(self, int p) except -1:
        cdef int attack = self._attack(p)
        cdef int d, q
        if attack == 0:
            return 0
        d = self.dst[p]
        if self.h2h[p] >= 0:
            if attack <= 1 + self._count(d, -1):
                return 0
        elif attack <= self._hold(d):
            return 0
        q = self.att_head[d]
        while q >= 0:
            if q != p and attack <= self._prevent(q):
                return 0
            q = self.att_next[q]
        return 1

    cdef int _support_given(self, int p) except -1:
        cdef int q, pw, into
        if not self.matched[p]:
            return 0
        if self.att_head[p] < 0:
            return 1
        into = self.into[p]
        pw = self.power[p]
        q = self.att_head[p]
        while q >= 0:  # not cut by the attacked unit, an own unit or an army not convoyed
            if q != into and self.power[q] != pw and not self._convoy_fails(q):
                return 0
            q = self.att_next[q]
        q = self.att_head[p]
        while q >= 0:
            if self.power[q] != pw and _resolved(self, q):
                return 0
            q = self.att_next[q]
        return 1

    # --- after the decisions ----------------------------------------------------------------

    cdef int resolve_all(self) except -1:
        """Decide every unit; fill ``moved``, ``used_route`` and ``dislodger`` as run() does.

        Returns 1 if anyone was dislodged (by its first attacker that moved).
        """
        cdef int i, p, q, k
        cdef int any_dislodged = 0
        for i in range(self.num_units):
            _resolved(self, self.units[i])
        for i in range(self.num_units):
            p = self.units[i]
            k = self.kind[p]
            if k == MOVE or k == CONVOY_MOVE:
                if self.plain:  # no route: _result is R_SUC or R_BNC by the decision
                    self.moved[p] = self.res[p] != 0
                elif self._result(p) == R_SUC:
                    self.moved[p] = 1
        for i in range(self.num_units):
            p = self.units[i]
            if self.moved[p]:
                continue
            q = self.att_head[p]
            while q >= 0:
                if self.moved[q]:
                    self.dislodger[p] = q
                    any_dislodged = 1
                    break
                q = self.att_next[q]
        return any_dislodged

    cdef int mark_contested(self, int *contested) except -1:
        """``contested[p]``: 1 where a move could have come (its prevent strength is not 0: a
        standoff, or the mover is there), else 0; no retreat goes there.  After resolve_all."""
        cdef int i, p, k, q
        memset(contested, 0, self.n * sizeof(int))
        for i in range(self.num_units):
            p = self.units[i]
            k = self.kind[p]
            if k == MOVE or k == CONVOY_MOVE:
                if self.plain:  # _prevent is 0 only by a head-to-head opponent that moved
                    q = self.h2h[p]
                    if q < 0 or not _resolved(self, q):
                        contested[self.dst[p]] = 1
                elif self._prevent(p) > 0:
                    contested[self.dst[p]] = 1
        return 0

    cdef int _result(self, int p) except -1:
        """The result code of a move (see _Resolver.run); sets ``used_route`` of a convoy."""
        cdef int k, j, whole
        if self.route_first[p] != LAND_MOVE:
            if self.route_num[p] == 0:
                return R_NSO
            self.used_route[p] = self.route_first[p]
            whole = 0
            for k in range(self.route_first[p], self.route_first[p] + self.route_num[p]):
                whole = 1
                for j in range(self.rt_start.data[k], self.rt_start.data[k] + self.rt_len.data[k]):
                    if not self.res[self.rt_fleets.data[j]]:
                        whole = 0
                        break
                if whole:
                    self.used_route[p] = k
                    break
            if not whole:
                return R_DSR
        return R_SUC if self.res[p] else R_BNC

    cdef void fill_results(self, int *results) noexcept:
        """Every unit's result code (after resolve_all), convoying fleets given their army's."""
        cdef int i, p, k, j, route
        for i in range(self.num_units):
            p = self.units[i]
            k = self.kind[p]
            if k == MOVE or k == CONVOY_MOVE:
                results[p] = self._result_after(p)
            elif k == SUPPORT_MOVE or k == SUPPORT_HOLD:
                results[p] = (R_SUC if self.res[p] else R_CUT) if self.matched[p] else R_NSO
            elif k == CONVOY:
                results[p] = R_NSO
            else:
                results[p] = R_SUC
        for i in range(self.num_units):
            p = self.units[i]
            route = self.used_route[p]
            if route >= 0:
                for j in range(self.rt_start.data[route], self.rt_start.data[route] + self.rt_len.data[route]):
                    results[self.rt_fleets.data[j]] = results[p]

    cdef inline int _result_after(self, int p) noexcept:
        """A move's result once resolve_all has chosen its route."""
        cdef int k, j, route
        if self.route_first[p] != LAND_MOVE:
            if self.route_num[p] == 0:
                return R_NSO
            route = self.used_route[p]
            for j in range(self.rt_start.data[route], self.rt_start.data[route] + self.rt_len.data[route]):
                if not self.res[self.rt_fleets.data[j]]:
                    return R_DSR
        return R_SUC if self.res[p] else R_BNC
