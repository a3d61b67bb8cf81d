# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
"""The movement resolver without convoys, compiled (Cython): the rollouts' adjudication.

:func:`next_position` is :func:`adjudicator.movement.next_position` for order
sets with no convoy orders (the search's and DumbBot's never have one): the
same Kruijswijk resolver as :class:`adjudicator.movement._Resolver`, decision
for decision in the same order, on C arrays; the next position has its units
and dislodged units in the same order, the phase advanced as
:func:`adjudicator.phases.after_movement` does.  :func:`adjudicate` also gives
the results (``MovementResult``).  The resolver and its arrays are kept from one
call to the next (reset, not reallocated).  With a convoy order both return
None and the caller runs the Python resolver.  :mod:`adjudicator.compiled_rules` decides
which path runs; the Python resolver is the oracle the tests hold this one to.
"""

from cpython.mem cimport PyMem_Free, PyMem_Malloc, PyMem_Realloc

from adjudicator.orders import HOLD as _PY_HOLD
from adjudicator.orders import MOVE as _PY_MOVE
from adjudicator.orders import SUPPORT_HOLD as _PY_SUPPORT_HOLD
from adjudicator.orders import SUPPORT_MOVE as _PY_SUPPORT_MOVE
from adjudicator.orders import BNC as _PY_BNC
from adjudicator.orders import CUT as _PY_CUT
from adjudicator.orders import HOLD_ORDER as _PY_HOLD_ORDER
from adjudicator.orders import NSO as _PY_NSO
from adjudicator.orders import SUC as _PY_SUC
from adjudicator.position import FALL as _PY_FALL
from adjudicator.position import SPRING as _PY_SPRING
from adjudicator.position import WINTER as _PY_WINTER
from adjudicator.position import Position as _Position

_new_position = _Position.__new__
_MovementResult = None  # adjudicator.movement.MovementResult, set by bind() (no import cycle)


def bind(result_type):
    """Tell this module the result type to build (adjudicator.movement calls it once)."""
    global _MovementResult
    _MovementResult = result_type

cdef extern from *:
    const char *SOURCE_SHA256  # defined by setup.py

SOURCE_HASH = SOURCE_SHA256.decode("ascii")
"""The SHA-256 of the source this module was built from (see adjudicator.compiled_rules.load)."""

cdef enum:
    HOLD = 0
    MOVE = 1
    SUPPORT_HOLD = 2
    SUPPORT_MOVE = 3
    NO_UNIT = -1
    UNRESOLVED = 0
    GUESSING = 1
    RESOLVED = 2
    NO_GUESS = 1 << 30

assert (_PY_HOLD, _PY_MOVE, _PY_SUPPORT_HOLD, _PY_SUPPORT_MOVE) == (
    HOLD, MOVE, SUPPORT_HOLD, SUPPORT_MOVE
)


cdef class _Resolver:
    """One movement phase's decisions (see adjudicator.movement._Resolver)."""

    def __cinit__(self, int n):
        self.n = n
        self.kind = <int *> PyMem_Malloc((18 * n + 2) * sizeof(int))
        self.cycle_cap = n + 8
        self.cycle = <int *> PyMem_Malloc(self.cycle_cap * sizeof(int))
        if self.kind == NULL or self.cycle == NULL:
            raise MemoryError()
        self.power = self.kind + n
        self.dst = self.power + n
        self.dst_loc = self.dst + n
        self.into = self.dst_loc + n
        self.coast = self.into + n
        self.target = self.coast + n
        self.h2h = self.target + n
        self.state = self.h2h + n
        self.res = self.state + n
        self.matched = self.res + n
        self.serial = self.matched + n
        self.units = self.serial + n
        self.sup_off = self.units + n  # n + 1
        self.sup_idx = self.sup_off + n + 1  # n
        self.att_off = self.sup_idx + n  # n + 1
        self.att_idx = self.att_off + n + 1  # n
        cdef int i
        for i in range(n):
            self._clear(i)
        self.cycle_len = 0
        self.next_serial = 0
        self.low = NO_GUESS
        self.num_units = 0

    def __dealloc__(self):
        PyMem_Free(self.kind)
        PyMem_Free(self.cycle)

    cdef inline void _clear(self, int p) noexcept:
        """Province ``p``'s entries as a fresh resolver has them."""
        self.kind[p] = NO_UNIT
        self.power[p] = -1
        self.dst[p] = -1
        self.dst_loc[p] = -1
        self.into[p] = -1
        self.coast[p] = -1
        self.target[p] = -1
        self.h2h[p] = -1
        self.state[p] = UNRESOLVED
        self.res[p] = 0
        self.matched[p] = 0
        self.serial[p] = 0

    cdef void reset(self) noexcept:
        """Back to the state __cinit__ leaves (for the next phase)."""
        cdef int i
        for i in range(self.num_units):
            self._clear(self.units[i])
        self.cycle_len = 0
        self.next_serial = 0
        self.low = NO_GUESS
        self.num_units = 0

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
        first = self._adjudicate(p)
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
        second = self._adjudicate(p)
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
        """Without convoys: a cycle of moves all succeed; anything else all fail."""
        cdef int i, q, all_moves = 1
        for i in range(old, self.cycle_len):
            self.state[self.cycle[i]] = UNRESOLVED
        for i in range(old, self.cycle_len):
            if self.kind[self.cycle[i]] != MOVE:
                all_moves = 0
        for i in range(old, self.cycle_len):
            q = self.cycle[i]
            self.res[q] = all_moves
            self.state[q] = RESOLVED
        self.cycle_len = old

    cdef int _adjudicate(self, int p) except -1:
        cdef int k = self.kind[p]
        cdef int j
        if k == MOVE:
            return self._move_succeeds(p)
        if k == SUPPORT_MOVE or k == SUPPORT_HOLD:
            return self._support_given(p)
        for j in range(self.att_off[p], self.att_off[p + 1]):
            if self.resolve(self.att_idx[j]):
                return 0
        return 1

    cdef int _count(self, int p, int exclude_power) except -1:
        """Given supports of the unit in ``p`` (from powers other than ``exclude_power``)."""
        cdef int j, s, n = 0
        for j in range(self.sup_off[p], self.sup_off[p + 1]):
            s = self.sup_idx[j]
            if self.power[s] != exclude_power and self.resolve(s):
                n += 1
        return n

    cdef int _attack(self, int p) except -1:
        cdef int d = self.dst[p]
        cdef int dk = self.kind[d]
        if dk == NO_UNIT:
            return 1 + self._count(p, -1)
        if dk == MOVE and self.h2h[p] < 0 and self.resolve(d):
            return 1 + self._count(p, -1)
        if self.power[d] == self.power[p]:
            return 0
        return 1 + self._count(p, self.power[d])

    cdef int _hold(self, int d) except -1:
        cdef int dk = self.kind[d]
        if dk == NO_UNIT:
            return 0
        if dk == MOVE:
            return 0 if self.resolve(d) else 1
        return 1 + self._count(d, -1)

    cdef int _prevent(self, int q) except -1:
        cdef int opponent = self.h2h[q]
        if opponent >= 0 and self.resolve(opponent):
            return 0
        return 1 + self._count(q, -1)

    cdef int _move_succeeds(self, int p) except -1:
        cdef int attack = self._attack(p)
        cdef int d, j, q
        if attack == 0:
            return 0
        d = self.dst[p]
        if self.h2h[p] >= 0:
            if attack <= 1 + self._count(d, -1):
                return 0
        elif attack <= self._hold(d):
            return 0
        for j in range(self.att_off[d], self.att_off[d + 1]):
            q = self.att_idx[j]
            if q != p and attack <= self._prevent(q):
                return 0
        return 1

    cdef int _support_given(self, int p) except -1:
        cdef int j, q, pw, into
        if not self.matched[p]:
            return 0
        if self.att_off[p] == self.att_off[p + 1]:
            return 1
        into = self.into[p]
        pw = self.power[p]
        for j in range(self.att_off[p], self.att_off[p + 1]):
            q = self.att_idx[j]
            if q == into or self.power[q] == pw:
                continue
            return 0
        for j in range(self.att_off[p], self.att_off[p + 1]):
            q = self.att_idx[j]
            if self.power[q] != pw and self.resolve(q):
                return 0
        return 1


cdef int _setup(_Resolver r, dict units, dict orders, tuple loc_province) except -2:
    """Read the units and their orders; 0, or 1 if an order needs the Python resolver.

    Every province and location is checked before it indexes an array: a unit
    outside the map is a ``ValueError``, an order naming a place the map lacks
    goes to the Python resolver (which judges it as the rules say).
    """
    cdef int n = r.n
    cdef int num_locations = len(loc_province)
    cdef int p, k, i, t, s, loc
    cdef tuple order
    cdef Py_ssize_t size
    for key, unit in units.items():
        p = key
        if not 0 <= p < n:
            raise ValueError(f"a unit in province {p}, which the map lacks")
        r.units[r.num_units] = p
        r.num_units += 1
        r.power[p] = (<tuple> unit)[0]
        value = orders.get(key)
        if value is None:
            r.kind[p] = HOLD
            continue
        order = <tuple> value
        k = order[0]
        r.kind[p] = k
        if k == MOVE:
            loc = order[1]
            if not 0 <= loc < num_locations:
                return 1
            t = loc_province[loc]
            if not 0 <= t < n:
                return 1
            r.dst_loc[p] = loc
            r.dst[p] = t
        elif k == SUPPORT_MOVE:
            t = order[1]
            r.into[p] = order[2]
            size = len(order)
            if size > 3:
                r.coast[p] = order[3]
            if not (0 <= t < n and 0 <= r.into[p] < n):
                return 1
            r.target[p] = t
        elif k == SUPPORT_HOLD:
            t = order[1]
            if not 0 <= t < n:
                return 1
            r.into[p] = t
            r.target[p] = t
        elif k != HOLD:
            return 1
    # attackers of each province and head-to-head battles, in the units' order
    for i in range(n + 1):
        r.att_off[i] = 0
        r.sup_off[i] = 0
    for i in range(r.num_units):
        p = r.units[i]
        if r.kind[p] == MOVE:
            r.att_off[r.dst[p] + 1] += 1
            t = r.dst[p]
            if r.kind[t] == MOVE and r.dst[t] == p:
                r.h2h[p] = t
    # supports matched by what the supported unit does
    for i in range(r.num_units):
        s = r.units[i]
        k = r.kind[s]
        t = r.target[s]
        if k == SUPPORT_MOVE:
            if r.kind[t] == MOVE and r.dst[t] == r.into[s] and (
                r.coast[s] < 0 or r.dst_loc[t] == r.coast[s]
            ):
                r.matched[s] = 1
        elif k == SUPPORT_HOLD:
            if r.kind[t] >= 0 and r.kind[t] != MOVE and t != s:
                r.matched[s] = 1
        if r.matched[s]:
            r.sup_off[t + 1] += 1
    for i in range(n):
        r.att_off[i + 1] += r.att_off[i]
        r.sup_off[i + 1] += r.sup_off[i]
    cdef int *att_fill = <int *> PyMem_Malloc(2 * n * sizeof(int))
    if att_fill == NULL:
        raise MemoryError()
    cdef int *sup_fill = att_fill + n
    for i in range(n):
        att_fill[i] = r.att_off[i]
        sup_fill[i] = r.sup_off[i]
    for i in range(r.num_units):
        p = r.units[i]
        if r.kind[p] == MOVE:
            t = r.dst[p]
            r.att_idx[att_fill[t]] = p
            att_fill[t] += 1
        if r.matched[p]:
            t = r.target[p]
            r.sup_idx[sup_fill[t]] = p
            sup_fill[t] += 1
    PyMem_Free(att_fill)
    return 0


cdef class _MapFacts:
    """What applying a phase needs of one map, as C arrays (built once per map)."""

    cdef readonly object game_map
    cdef int n
    cdef char *is_supply  # [n]
    cdef int *centres
    cdef int num_centres

    def __cinit__(self, game_map):
        cdef int n = game_map.num_provinces
        cdef int i
        self.game_map = game_map
        self.n = n
        self.is_supply = <char *> PyMem_Malloc(n)
        self.centres = <int *> PyMem_Malloc((n + 1) * sizeof(int))
        if self.is_supply == NULL or self.centres == NULL:
            raise MemoryError()
        for i in range(n):
            self.is_supply[i] = 1 if game_map.is_supply[i] else 0
        self.num_centres = 0
        for i in game_map.supply_centres:
            if not 0 <= i < n:
                raise ValueError(f"a supply centre {i} the map lacks")
            self.centres[self.num_centres] = i
            self.num_centres += 1

    def __dealloc__(self):
        PyMem_Free(self.is_supply)
        PyMem_Free(self.centres)


cdef class _Scratch:
    """The resolver and arrays of the last call, kept for the next one on a map of that size."""

    cdef _Resolver resolver
    cdef int *moved  # [n]
    cdef int *dislodger  # [n]
    cdef int *counts  # [2 * (powers + 1)]
    cdef int powers
    cdef _MapFacts facts

    def __cinit__(self, int n):
        self.resolver = _Resolver(n)
        self.moved = <int *> PyMem_Malloc(2 * n * sizeof(int))
        if self.moved == NULL:
            raise MemoryError()
        self.dislodger = self.moved + n
        self.counts = NULL
        self.powers = -1
        self.facts = None

    def __dealloc__(self):
        PyMem_Free(self.moved)
        PyMem_Free(self.counts)


cdef dict _SCRATCH = {}
cdef bint _busy = False


cdef _Scratch _scratch(object game_map, int n):
    """The kept scratch space for ``game_map``'s size, reset (a fresh one if in use)."""
    cdef _Scratch sc
    found = _SCRATCH.get(n)
    if found is None or _busy:
        sc = _Scratch(n)
        if not _busy:
            _SCRATCH[n] = sc
    else:
        sc = <_Scratch> found
        sc.resolver.reset()
    if sc.facts is None or sc.facts.game_map is not game_map:
        sc.facts = _MapFacts(game_map)
    return sc


cdef int _resolve_all(_Scratch sc) except -1:
    """Resolve every unit; mark who moved and who was dislodged (by its first successful attacker).

    Returns 1 if anyone was dislodged.
    """
    cdef _Resolver r = sc.resolver
    cdef int n = r.n
    cdef int i, p, q, j
    cdef int *moved = sc.moved
    cdef int *dislodger = sc.dislodger
    cdef int any_dislodged = 0
    for i in range(r.num_units):
        r.resolve(r.units[i])
    for i in range(n):
        moved[i] = 0
        dislodger[i] = -1
    for i in range(r.num_units):
        p = r.units[i]
        if r.kind[p] == MOVE and r.res[p]:
            moved[p] = 1
    for i in range(r.num_units):
        p = r.units[i]
        if moved[p]:
            continue
        for j in range(r.att_off[p], r.att_off[p + 1]):
            q = r.att_idx[j]
            if moved[q]:
                dislodger[p] = q
                any_dislodged = 1
                break
    return any_dislodged


cdef object _apply(_Scratch sc, object pos, dict units, tuple loc_province, bint any_dislodged):
    """The next position (see _Resolver.run and adjudicator.phases.after_movement)."""
    cdef _Resolver r = sc.resolver
    cdef _MapFacts facts = sc.facts
    cdef int *moved = sc.moved
    cdef int *dislodger = sc.dislodger
    cdef int i, p, q, prov, power
    game_map = pos.map
    # The units that stayed, in their order, then the ones that moved: a copy (cloned
    # whole, not rebuilt key by key) less the units that left, plus their arrivals.
    cdef dict new_units = units.copy()
    for i in range(r.num_units):
        p = r.units[i]
        if moved[p] or dislodger[p] >= 0:
            del new_units[p]
    for i in range(r.num_units):
        p = r.units[i]
        if moved[p]:
            unit = units[p]
            new_units[r.dst[p]] = ((<tuple> unit)[0], (<tuple> unit)[1], r.dst_loc[p])
    cdef dict new_dislodged = {}
    if any_dislodged:
        contested = set()
        for i in range(r.num_units):
            p = r.units[i]
            if r.kind[p] == MOVE and r._prevent(p) > 0:
                contested.add(r.dst[p])
        for i in range(r.num_units):
            p = r.units[i]
            q = dislodger[p]
            if q < 0:
                continue
            unit = units[p]
            options = []
            for dest in game_map.adjacent((<tuple> unit)[1], (<tuple> unit)[2]):
                prov = loc_province[dest]
                if prov not in new_units and prov not in contested and prov != q:
                    options.append(dest)
            new_dislodged[p] = (
                (<tuple> unit)[0], (<tuple> unit)[1], (<tuple> unit)[2], tuple(options)
            )
    cdef list owners = list(pos.owners)
    if len(owners) != facts.n:
        raise ValueError(f"{len(owners)} owners on a map of {facts.n} provinces")
    season = pos.season
    year = pos.year
    # after_movement, enter_winter and after_adjustments of adjudicator.phases
    if new_dislodged:
        season = season + 1
    elif season == _PY_SPRING:
        season = _PY_FALL
    else:
        for key, unit in new_units.items():
            p = key
            if facts.is_supply[p]:
                owners[p] = (<tuple> unit)[0]
        season = _PY_WINTER
        if not _adjustments_due(sc, game_map.num_powers, owners, new_units):
            season = _PY_SPRING
            year = year + 1
    nxt = _new_position(_Position)
    nxt.map = game_map
    nxt.season = season
    nxt.year = year
    nxt.units = new_units
    nxt.owners = owners
    nxt.dislodged = new_dislodged
    return nxt


cdef bint _adjustments_due(_Scratch sc, int powers, list owners, dict units) except -1:
    """Whether some power's centres and units differ (Position.adjustments has a non-zero)."""
    cdef _MapFacts facts = sc.facts
    cdef int i, owner
    if sc.powers != powers:
        PyMem_Free(sc.counts)
        sc.counts = <int *> PyMem_Malloc(2 * (powers + 1) * sizeof(int))
        if sc.counts == NULL:
            sc.powers = -1
            raise MemoryError()
        sc.powers = powers
    cdef int *centres = sc.counts
    cdef int *armies = sc.counts + powers + 1
    for i in range(powers):
        centres[i] = 0
        armies[i] = 0
    for i in range(facts.num_centres):
        owner = owners[facts.centres[i]]
        if 0 <= owner < powers:
            centres[owner] += 1
    for unit in units.values():
        owner = (<tuple> unit)[0]
        if not 0 <= owner < powers:
            raise ValueError(f"a unit of power {owner}, which the map lacks")
        armies[owner] += 1
    for i in range(powers):
        if centres[i] != armies[i]:
            return True
    return False


def next_position(pos, dict orders):
    """The position after a movement phase, or None when an order needs the Python resolver."""
    global _busy
    game_map = pos.map
    cdef int n = game_map.num_provinces
    cdef dict units = pos.units
    cdef tuple loc_province = game_map.loc_province
    cdef _Scratch sc = _scratch(game_map, n)
    cdef bint any_dislodged
    _busy = True
    try:
        if _setup(sc.resolver, units, orders, loc_province):
            return None
        any_dislodged = _resolve_all(sc)
        return _apply(sc, pos, units, loc_province, any_dislodged)
    finally:
        _busy = False


def adjudicate(pos, dict orders):
    """adjudicator.movement.adjudicate_movement without convoys, or None with a convoy order.

    Returns the same ``MovementResult``: results, dislodgements and the
    orders as adjudicated, in the units' order, and the next position.
    """
    global _busy
    game_map = pos.map
    cdef int n = game_map.num_provinces
    cdef dict units = pos.units
    cdef tuple loc_province = game_map.loc_province
    cdef _Scratch sc = _scratch(game_map, n)
    cdef _Resolver r
    cdef bint any_dislodged
    cdef int p, k
    _busy = True
    try:
        r = sc.resolver
        if _setup(r, units, orders, loc_province):
            return None
        any_dislodged = _resolve_all(sc)
        full = {}
        results = {}
        dislodged = {}
        for key in units:
            p = key
            full[key] = orders.get(key, _PY_HOLD_ORDER)
            k = r.kind[p]
            if k == MOVE:
                results[key] = _PY_SUC if r.res[p] else _PY_BNC
            elif k == SUPPORT_MOVE or k == SUPPORT_HOLD:
                results[key] = (_PY_SUC if r.res[p] else _PY_CUT) if r.matched[p] else _PY_NSO
            else:
                results[key] = _PY_SUC
        if any_dislodged:
            for key in units:
                p = key
                if sc.dislodger[p] >= 0:
                    dislodged[key] = sc.dislodger[p]
        nxt = _apply(sc, pos, units, loc_province, any_dislodged)
        return _MovementResult(nxt, full, results, dislodged, {})
    finally:
        _busy = False


# --- one phase given as C arrays: search/_fastbot.pyx's compiled rollouts ------------------


cdef int resolve_arrays(
    _Resolver r,
    int num_units,
    const int *units,
    const int *power,
    const int *kind,
    const int *a,
    const int *b,
    const int *loc_prov,
    int *moved,
    int *dislodger,
    unsigned char *contested,
) except -1:
    """Resolve a movement phase given as arrays; 1 if a unit was dislodged, else 0.

    ``units`` lists the provinces holding a unit (their order is the units'
    order); indexed by province, ``power`` is the unit's power and ``kind`` its
    order (HOLD, MOVE, SUPPORT_HOLD or SUPPORT_MOVE: no convoys) with the order
    tuple's arguments in ``a`` and ``b``: a move's destination location; a
    support's supported province, and a supported move's destination province.
    The caller has checked every index.  Fills ``moved`` and ``dislodger`` as
    :func:`_resolve_all` does, and ``contested[prov]`` with 1 where a move left
    a standoff or a unit (what ``_apply`` keeps retreats out of), else 0.
    """
    cdef int n = r.n
    cdef int i, p, k, t, s, any_dislodged = 0
    r.reset()
    for i in range(num_units):
        p = units[i]
        r.units[i] = p
        r.power[p] = power[p]
        k = kind[p]
        r.kind[p] = k
        if k == MOVE:
            r.dst_loc[p] = a[p]
            r.dst[p] = loc_prov[a[p]]
        elif k == SUPPORT_MOVE:
            r.target[p] = a[p]
            r.into[p] = b[p]
        elif k == SUPPORT_HOLD:
            r.target[p] = a[p]
            r.into[p] = a[p]
    r.num_units = num_units
    # the lists of _setup (attackers of each province, supports of each unit, in the
    # units' order): counts, running totals, then filled from the back
    for i in range(n + 1):
        r.att_off[i] = 0
        r.sup_off[i] = 0
    for i in range(num_units):
        p = units[i]
        if r.kind[p] == MOVE:
            t = r.dst[p]
            r.att_off[t] += 1
            if r.kind[t] == MOVE and r.dst[t] == p:
                r.h2h[p] = t
    for i in range(num_units):
        s = units[i]
        k = r.kind[s]
        t = r.target[s]
        if k == SUPPORT_MOVE:
            if r.kind[t] == MOVE and r.dst[t] == r.into[s]:
                r.matched[s] = 1
        elif k == SUPPORT_HOLD:
            if r.kind[t] >= 0 and r.kind[t] != MOVE and t != s:
                r.matched[s] = 1
        if r.matched[s]:
            r.sup_off[t] += 1
    for i in range(1, n):
        r.att_off[i] += r.att_off[i - 1]
        r.sup_off[i] += r.sup_off[i - 1]
    r.att_off[n] = r.att_off[n - 1]
    r.sup_off[n] = r.sup_off[n - 1]
    for i in range(num_units - 1, -1, -1):
        p = units[i]
        if r.kind[p] == MOVE:
            t = r.dst[p]
            r.att_off[t] -= 1
            r.att_idx[r.att_off[t]] = p
        if r.matched[p]:
            t = r.target[p]
            r.sup_off[t] -= 1
            r.sup_idx[r.sup_off[t]] = p
    # as _resolve_all, and the standoffs of _apply
    for i in range(num_units):
        r.resolve(units[i])
    for i in range(n):
        moved[i] = 0
        dislodger[i] = -1
        contested[i] = 0
    for i in range(num_units):
        p = units[i]
        if r.kind[p] == MOVE and r.res[p]:
            moved[p] = 1
    for i in range(num_units):
        p = units[i]
        if moved[p]:
            continue
        for k in range(r.att_off[p], r.att_off[p + 1]):
            if moved[r.att_idx[k]]:
                dislodger[p] = r.att_idx[k]
                any_dislodged = 1
                break
    if any_dislodged:
        for i in range(num_units):
            p = units[i]
            if r.kind[p] == MOVE and r._prevent(p) > 0:
                contested[r.dst[p]] = 1
    return any_dislodged
