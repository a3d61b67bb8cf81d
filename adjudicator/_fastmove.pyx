# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
"""The movement resolver, compiled (Cython): the rollouts' and the adjudicator's.

:func:`next_position` is :func:`adjudicator.movement.next_position` and
:func:`adjudicate` is :func:`adjudicator.movement.adjudicate_movement`: the
same Kruijswijk resolver as :class:`adjudicator.movement._Resolver`, decision
for decision in the same order, on C arrays, convoys included (convoy routes
found in the same order, the same backup rule for convoy paradoxes); the next
position has its units and dislodged units in the same order, the phase
advanced as :func:`adjudicator.phases.after_movement` does.  The resolver and
its arrays are kept from one call to the next (reset, not reallocated), and the
map's tables are read into C arrays once per map.  An order the compiled code
cannot read (a place the map lacks, a malformed tuple) makes both return None:
the caller runs the Python resolver, which judges it as the rules say.
:mod:`adjudicator.compiled_rules` decides which path runs; the Python resolver
is the oracle the tests hold this one to.

A phase is resolved in three steps, each a cdef function on C arrays so that a
C caller can hold the orders itself: :func:`_setup` reads the Python orders into
the resolver's arrays, :meth:`_Resolver.prepare` matches supports and convoys
and finds the convoy routes, :meth:`_Resolver.resolve_all` decides every unit.
"""

from cpython.dict cimport PyDict_Next
from cpython.long cimport PyLong_AsLongAndOverflow, PyLong_CheckExact
from cpython.tuple cimport PyTuple_CheckExact, PyTuple_GET_ITEM, PyTuple_GET_SIZE
from cpython.mem cimport PyMem_Free, PyMem_Malloc, PyMem_Realloc
from cpython.ref cimport PyObject
from cpython.type cimport PyType_GenericNew
from libc.string cimport memset

from adjudicator.orders import HOLD as _PY_HOLD
from adjudicator.orders import MOVE as _PY_MOVE
from adjudicator.orders import SUPPORT_HOLD as _PY_SUPPORT_HOLD
from adjudicator.orders import SUPPORT_MOVE as _PY_SUPPORT_MOVE
from adjudicator.orders import CONVOY as _PY_CONVOY
from adjudicator.orders import CONVOY_MOVE as _PY_CONVOY_MOVE
from adjudicator.orders import BNC as _PY_BNC
from adjudicator.orders import CUT as _PY_CUT
from adjudicator.orders import DSR as _PY_DSR
from adjudicator.orders import HOLD_ORDER as _PY_HOLD_ORDER
from adjudicator.orders import NSO as _PY_NSO
from adjudicator.orders import SUC as _PY_SUC
from adjudicator.maps import ARMY as _PY_ARMY
from adjudicator.maps import INLAND as _PY_INLAND
from adjudicator.maps import SEA as _PY_SEA
from adjudicator.position import FALL as _PY_FALL
from adjudicator.position import SPRING as _PY_SPRING
from adjudicator.position import WINTER as _PY_WINTER
from adjudicator.position import Position as _Position

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
    RESOLVER_ARRAYS = 29  # int arrays of n entries in a _Resolver's one block (two have n + 1)
    CLEARED_TO_MINUS_ONE = 13  # the first arrays of the block, -1 between phases
    CLEARED_TO_ZERO = 9  # the next ones, 0 between phases

assert (
    _PY_HOLD, _PY_MOVE, _PY_SUPPORT_HOLD, _PY_SUPPORT_MOVE, _PY_CONVOY, _PY_CONVOY_MOVE
) == (HOLD, MOVE, SUPPORT_HOLD, SUPPORT_MOVE, CONVOY, CONVOY_MOVE)
assert (_PY_SUC, _PY_BNC, _PY_CUT, _PY_DSR, _PY_NSO) == (R_SUC, R_BNC, R_CUT, R_DSR, R_NSO)
assert (_PY_ARMY, _PY_INLAND, _PY_SEA) == (ARMY, INLAND, SEA)
assert NO_UNIT == LAND_MOVE == -1 and UNRESOLVED == 0  # what _Resolver.__cinit__'s memsets give

cdef tuple _RESULT_CODES = (_PY_SUC, _PY_BNC, _PY_CUT, _PY_DSR, _PY_NSO)


cdef int _push(IntBuf *b, int value) except -1:
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
    """What resolving and applying a phase need of one map, as C arrays (built once per map)."""

    def __cinit__(self, game_map):
        cdef int n = game_map.num_provinces
        cdef int num_locations = len(game_map.loc_province)
        cdef int i, j
        if len(game_map.neighbours) != n:
            raise ValueError(f"{len(game_map.neighbours)} neighbour lists for {n} provinces")
        self.game_map = game_map
        self.n = n
        self.num_locations = num_locations
        self.num_powers = game_map.num_powers
        self.loc_province = <int *> PyMem_Malloc(num_locations * sizeof(int))
        self.kind = <int *> PyMem_Malloc(n * sizeof(int))
        self.is_supply = <char *> PyMem_Malloc(n)
        self.is_neighbour = <char *> PyMem_Malloc(n * n)
        self.centres = <int *> PyMem_Malloc((n + 1) * sizeof(int))
        if (
            self.loc_province == NULL or self.kind == NULL or self.is_supply == NULL
            or self.is_neighbour == NULL or self.centres == NULL
        ):
            raise MemoryError()
        for i in range(num_locations):
            self.loc_province[i] = game_map.loc_province[i]
            if not 0 <= self.loc_province[i] < n:
                raise ValueError(f"location {i} is in province {self.loc_province[i]}")
        for i in range(n):
            self.kind[i] = game_map.kind[i]
            self.is_supply[i] = 1 if game_map.is_supply[i] else 0
        memset(self.is_neighbour, 0, n * n)
        self.nb_off = _lists(game_map.neighbours, n, &self.nb_idx)
        for i in range(n):
            for j in range(self.nb_off[i], self.nb_off[i + 1]):
                self.is_neighbour[i * n + self.nb_idx[j]] = 1
        self.num_army_adj = len(game_map.army_adjacent)
        self.num_fleet_adj = len(game_map.fleet_adjacent)
        self.army_off = _lists(game_map.army_adjacent, num_locations, &self.army_idx)
        self.fleet_off = _lists(game_map.fleet_adjacent, num_locations, &self.fleet_idx)
        self.num_centres = 0
        for i in game_map.supply_centres:
            if not 0 <= i < n:
                raise ValueError(f"a supply centre {i} the map lacks")
            self.centres[self.num_centres] = i
            self.num_centres += 1

    def __dealloc__(self):
        PyMem_Free(self.loc_province)
        PyMem_Free(self.kind)
        PyMem_Free(self.is_supply)
        PyMem_Free(self.is_neighbour)
        PyMem_Free(self.nb_off)
        PyMem_Free(self.army_off)
        PyMem_Free(self.fleet_off)
        PyMem_Free(self.centres)


cdef int *_lists(object lists, int limit, int **items) except NULL:
    """A tuple of tuples of ids below ``limit`` as C arrays: the offsets, returned, and the
    items (``*items``), in one block that belongs to the offsets."""
    cdef int count = len(lists)
    cdef int total = 0
    cdef int i, item
    for row in lists:
        total += len(row)
    cdef int *off = <int *> PyMem_Malloc((count + 1 + total) * sizeof(int))
    if off == NULL:
        raise MemoryError()
    cdef int *idx = off + count + 1
    total = 0
    for i in range(count):
        off[i] = total
        for value in lists[i]:
            item = value
            if not 0 <= item < limit:
                PyMem_Free(off)
                raise ValueError(f"an adjacency to {item}, which the map lacks")
            idx[total] = item
            total += 1
    off[count] = total
    items[0] = idx
    return off


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

    # --- matching orders, and convoy routes -----------------------------------------------

    cdef int prepare(self) except -1:
        """Match supports and convoys, find convoy routes, list attackers and supports.

        The units and their orders are in the arrays (``units``, ``kind``,
        ``power``, ``utype``, ``dst``, ``dst_loc``, ``target``, ``into``,
        ``coast``, explicit convoy paths); as in _Resolver.__init__ of
        adjudicator.movement.
        """
        cdef int *kind = self.kind
        cdef int *dst = self.dst
        cdef int i, p, a, k, t, d
        if self.any_convoy:
            for i in range(self.num_units):
                p = self.units[i]
                if kind[p] == CONVOY:
                    a = self.target[p]
                    k = kind[a]
                    if (k == MOVE or k == CONVOY_MOVE) and dst[a] == self.into[p] and (
                        self.utype[a] == ARMY
                    ):
                        self.matched[p] = 1
        for i in range(0 if self.plain else self.num_units):  # convoys: none when plain
            p = self.units[i]
            if kind[p] == CONVOY_MOVE:
                self._find_routes(p, 1)
            elif (
                kind[p] == MOVE and self.any_convoy and self.utype[p] == ARMY
                and self.facts.kind[dst[p]] != INLAND
            ):
                self._maybe_convoy_by_intent(p)
        # attackers of each province and head-to-head battles, supports matched by what the
        # supported unit does; each list in the units' order (made from the back)
        for i in range(self.num_units - 1, -1, -1):
            p = self.units[i]
            k = kind[p]
            if k == MOVE or k == CONVOY_MOVE:
                d = dst[p]
                self.att_next[p] = self.att_head[d]
                self.att_head[d] = p
                if (
                    self.route_first[p] == LAND_MOVE
                    and (kind[d] == MOVE or kind[d] == CONVOY_MOVE)
                    and dst[d] == p
                    and self.route_first[d] == LAND_MOVE
                ):
                    self.h2h[p] = d
            elif k == SUPPORT_MOVE:
                t = self.target[p]
                if (kind[t] == MOVE or kind[t] == CONVOY_MOVE) and dst[t] == self.into[p] and (
                    self.coast[p] < 0 or self.dst_loc[t] == self.coast[p]
                ):
                    self.matched[p] = 1
                    self.sup_next[p] = self.sup_head[t]
                    self.sup_head[t] = p
            elif k == SUPPORT_HOLD:
                t = self.target[p]
                if kind[t] >= 0 and kind[t] != MOVE and kind[t] != CONVOY_MOVE and t != p:
                    self.matched[p] = 1
                    self.sup_next[p] = self.sup_head[t]
                    self.sup_head[t] = p
        return 0

    cdef inline int _convoys(self, int f, int army) noexcept:
        """Whether the unit in ``f`` convoys ``army`` (to where the army goes)."""
        return self.kind[f] == CONVOY and self.matched[f] and self.target[f] == army

    cdef int _find_routes(self, int army, bint explicit) except -1:
        """The army's convoy routes into the route table (see _Resolver._find_routes).

        With ``explicit``, the path its order names (none if it is not a chain of
        fleets convoying it); else every chain of seas whose fleets convoy it,
        shortest first, in the order of routes.sea_chains.
        """
        cdef _MapFacts facts = self.facts
        cdef int n = self.n
        cdef int dest = self.dst[army]
        cdef int i, f, prev, first, length, count, any_sea, k, j
        self.route_first[army] = self.rt_start.size
        self.route_num[army] = 0
        if explicit and self.path_len[army] > 0:
            first = self.path_first[army]
            length = self.path_len[army]
            prev = army
            for i in range(first, first + length):
                f = self.paths.data[i]
                if not self._convoys(f, army):
                    return 0
            for i in range(first, first + length):
                f = self.paths.data[i]
                if facts.kind[f] != SEA or not facts.is_neighbour[prev * n + f]:
                    return 0
                prev = f
            if not facts.is_neighbour[prev * n + dest]:
                return 0
            _push(&self.rt_start, self.rt_fleets.size)
            _push(&self.rt_len, length)
            for i in range(first, first + length):
                _push(&self.rt_fleets, self.paths.data[i])
            self.route_num[army] = 1
            return 0
        # the seas to walk: marked in mark[], cleared below
        any_sea = 0
        for i in range(self.num_units):
            f = self.units[i]
            if self._convoys(f, army) and facts.kind[f] == SEA:
                self.mark[f] = 1
                any_sea = 1
        if any_sea and army != dest:
            self.found_start.size = 0
            self.found_len.size = 0
            self.found_fleets.size = 0
            # routes.sea_chains pops routes from a stack: the last neighbour's first
            for j in range(facts.nb_off[army + 1] - 1, facts.nb_off[army] - 1, -1):
                f = facts.nb_idx[j]
                if self.mark[f] == 1:
                    self.walk[0] = f
                    self.mark[f] = 2
                    self._walk(dest, 1)
                    self.mark[f] = 1
            # shortest first, equal lengths in the order found (a stable sort)
            count = self.found_start.size
            length = 1
            while length <= n:
                for k in range(count):
                    if self.found_len.data[k] == length:
                        _push(&self.rt_start, self.rt_fleets.size)
                        _push(&self.rt_len, length)
                        first = self.found_start.data[k]
                        for i in range(first, first + length):
                            _push(&self.rt_fleets, self.found_fleets.data[i])
                        self.route_num[army] += 1
                        if self.route_num[army] == count:
                            break
                if self.route_num[army] == count:
                    break
                length += 1
        for i in range(self.num_units):
            self.mark[self.units[i]] = 0
        return 0

    cdef int _walk(self, int dest, int depth) except -1:
        """Record the route walk[:depth] if it reaches ``dest``; walk on through marked seas.

        ``mark`` is 1 on a sea of the walk, 2 on one already on the route.
        """
        cdef _MapFacts facts = self.facts
        cdef int here = self.walk[depth - 1]
        cdef int i, j, f
        if facts.is_neighbour[here * self.n + dest]:
            _push(&self.found_start, self.found_fleets.size)
            _push(&self.found_len, depth)
            for i in range(depth):
                _push(&self.found_fleets, self.walk[i])
        for j in range(facts.nb_off[here + 1] - 1, facts.nb_off[here] - 1, -1):
            f = facts.nb_idx[j]
            if self.mark[f] == 1:
                self.walk[depth] = f
                self.mark[f] = 2
                self._walk(dest, depth + 1)
                self.mark[f] = 1
        return 0

    cdef int _maybe_convoy_by_intent(self, int p) except -1:
        """DATC 4.A.3 d: an army moving to an adjacent province goes by convoy if a fleet of
        its own power convoys it there and a route exists."""
        cdef int i, f, own = 0
        for i in range(self.num_units):
            f = self.units[i]
            if self._convoys(f, p) and self.power[f] == self.power[p]:
                own = 1
                break
        if not own:
            return 0
        self._find_routes(p, 0)
        if self.route_num[p] == 0:
            self.route_first[p] = LAND_MOVE
        return 0

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


cdef inline bint _order_item(tuple order, Py_ssize_t i, long *out) noexcept:
    """Read ``order[i]`` into ``out`` if it is an int that fits; else 1 (for the Python
    resolver, which judges such orders as the rules say)."""
    cdef int overflow
    cdef object item = <object> PyTuple_GET_ITEM(order, i)
    if not PyLong_CheckExact(item):
        return 1
    out[0] = PyLong_AsLongAndOverflow(item, &overflow)
    return overflow != 0


cdef int _setup(_Resolver r, dict units, dict orders) except -2:
    """Read the units and their orders into ``r``'s arrays; 0, or 1 if a unit or an order
    needs Python (a unit's fields or key not plain ints: reading such objects could run
    Python code that changes the dicts being read).

    Every province and location is checked before it indexes an array: a unit
    outside the map (or of a power it lacks) is a ``ValueError``, an order
    naming a place the map lacks (or not shaped as adjudicator.orders says)
    goes to the Python resolver (which judges it as the rules say).  Orders for
    provinces without a unit are ignored, as the Python resolver ignores them.
    """
    cdef _MapFacts facts = r.facts
    cdef int n = r.n
    cdef int num_locations = facts.num_locations
    cdef int p, overflow
    cdef long province, kind = 0, first = 0, second = 0, item = 0
    cdef Py_ssize_t size, at = 0, i
    cdef PyObject *key
    cdef PyObject *value
    cdef PyObject *path
    while PyDict_Next(units, &at, &key, &value):
        if not PyTuple_CheckExact(<object> value) or PyTuple_GET_SIZE(<object> value) != 3:
            raise ValueError(f"a unit {<object> value!r} that is not (power, type, location)")
        # Anything but plain ints could run Python code (and change the dict) as it is read.
        if not (
            PyLong_CheckExact(<object> key)
            and PyLong_CheckExact(<object> PyTuple_GET_ITEM(<object> value, 0))
            and PyLong_CheckExact(<object> PyTuple_GET_ITEM(<object> value, 1))
            and PyLong_CheckExact(<object> PyTuple_GET_ITEM(<object> value, 2))
        ):
            return 1
        province = PyLong_AsLongAndOverflow(<object> key, &overflow)
        if overflow or not 0 <= province < n:
            raise ValueError(f"a unit in province {<object> key}, which the map lacks")
        p = province
        r.units[r.num_units] = p
        r.num_units += 1
        r.key_obj[p] = key
        r.unit_obj[p] = value
        r.order_obj[p] = NULL
        r.kind[p] = HOLD
        first = PyLong_AsLongAndOverflow(<object> PyTuple_GET_ITEM(<object> value, 0), &overflow)
        if overflow or not 0 <= first < facts.num_powers:
            raise ValueError(f"a unit of power {first}, which the map lacks")
        r.power[p] = first
        r.utype[p] = PyLong_AsLongAndOverflow(<object> PyTuple_GET_ITEM(<object> value, 1), &overflow)
        if overflow:
            raise ValueError(f"a unit {<object> value!r} of a type the map lacks")
        item = PyLong_AsLongAndOverflow(<object> PyTuple_GET_ITEM(<object> value, 2), &overflow)
        if overflow or not 0 <= item < num_locations:
            raise ValueError(f"a unit at location {item}, which the map lacks")
        r.loc[p] = item
    at = 0
    while PyDict_Next(orders, &at, &key, &value):
        if not PyLong_CheckExact(<object> key):
            return 1
        province = PyLong_AsLongAndOverflow(<object> key, &overflow)
        if overflow or not 0 <= province < n:
            continue
        p = province
        if r.kind[p] == NO_UNIT:
            continue
        if not PyTuple_CheckExact(<object> value):
            return 1
        size = PyTuple_GET_SIZE(<object> value)
        if size == 0:
            return 1
        r.order_obj[p] = value
        if _order_item(<object> value, 0, &kind):
            return 1
        if kind == HOLD:
            continue
        if kind == MOVE:
            if size < 2:
                return 1
            if _order_item(<object> value, 1, &first):
                return 1
            if not 0 <= first < num_locations:
                return 1
            r.dst_loc[p] = first
            r.dst[p] = facts.loc_province[first]
        elif kind == SUPPORT_MOVE or kind == CONVOY:
            if size < 3:
                return 1
            if _order_item(<object> value, 1, &first):
                return 1
            if _order_item(<object> value, 2, &second):
                return 1
            if not (0 <= first < n and 0 <= second < n):
                return 1
            r.target[p] = first
            r.into[p] = second
            if kind == CONVOY:
                r.any_convoy = 1
            elif size > 3:
                if _order_item(<object> value, 3, &item):
                    return 1
                # a coast the map lacks matches no move
                r.coast[p] = item if 0 <= item < num_locations else num_locations
        elif kind == SUPPORT_HOLD:
            if size < 2:
                return 1
            if _order_item(<object> value, 1, &first):
                return 1
            if not 0 <= first < n:
                return 1
            r.target[p] = first
            r.into[p] = first
        elif kind == CONVOY_MOVE:
            if size < 3:
                return 1
            if _order_item(<object> value, 1, &first):
                return 1
            path = PyTuple_GET_ITEM(<object> value, 2)
            if not 0 <= first < n or not PyTuple_CheckExact(<object> path):
                return 1
            r.dst[p] = first
            r.dst_loc[p] = first
            r.path_first[p] = r.paths.size
            r.path_len[p] = PyTuple_GET_SIZE(<object> path)
            for i in range(r.path_len[p]):
                if _order_item(<object> path, i, &item):
                    return 1
                if not 0 <= item < n:
                    return 1
                _push(&r.paths, item)
        else:
            return 1
        r.kind[p] = kind
    return 0


cdef class _Scratch:
    """The resolver and arrays of the last call, kept for the next one on that map."""

    cdef _MapFacts facts
    cdef _Resolver resolver
    cdef int *results  # [n]
    cdef int *occupied  # [n]: a unit in the next position
    cdef int *contested  # [n]: a standoff or a move that could have come
    cdef int *counts  # [2 * (powers + 1)]
    cdef int powers

    def __cinit__(self, _MapFacts facts):
        cdef int n = facts.n
        self.facts = facts
        self.resolver = _Resolver(facts)
        self.results = <int *> PyMem_Malloc(3 * n * sizeof(int))
        if self.results == NULL:
            raise MemoryError()
        self.occupied = self.results + n
        self.contested = self.occupied + n
        self.counts = NULL
        self.powers = -1

    def __dealloc__(self):
        PyMem_Free(self.results)
        PyMem_Free(self.counts)


cdef dict _SCRATCH = {}  # by id of the map (its facts hold the map, so the id stays its own)
cdef int _MAPS_KEPT = 64
cdef _Scratch _last = None
cdef bint _busy = False


cdef _Scratch _scratch(object game_map):
    """The kept scratch space for ``game_map``, reset (a fresh one if in use)."""
    global _last
    cdef _Scratch sc
    if _busy:
        return _Scratch(_MapFacts(game_map))
    if _last is not None and _last.facts.game_map is game_map:
        sc = _last
        sc.resolver.reset()
        return sc
    found = _SCRATCH.get(id(game_map))
    if found is None or (<_Scratch> found).facts.game_map is not game_map:
        if len(_SCRATCH) >= _MAPS_KEPT:
            _SCRATCH.clear()
        sc = _Scratch(_MapFacts(game_map))
        _SCRATCH[id(game_map)] = sc
    else:
        sc = <_Scratch> found
        sc.resolver.reset()
    _last = sc
    return sc


cdef object _apply(_Scratch sc, object pos, dict units, bint any_dislodged):
    """The next position (see _Resolver.run and adjudicator.phases.after_movement)."""
    cdef _Resolver r = sc.resolver
    cdef _MapFacts facts = sc.facts
    cdef int n = facts.n
    cdef int *moved = r.moved
    cdef int *dislodger = r.dislodger
    cdef int i, j, p, q, prov, dest, start, end
    # The units that stayed, in their order, then the ones that moved: a copy (cloned
    # whole, not rebuilt key by key) less the units that left, plus their arrivals.
    cdef dict new_units = units.copy()
    for i in range(r.num_units):
        p = r.units[i]
        if moved[p] or dislodger[p] >= 0:
            del new_units[<object> r.key_obj[p]]
    for i in range(r.num_units):
        p = r.units[i]
        if moved[p]:
            unit = <tuple> r.unit_obj[p]
            new_units[r.dst[p]] = ((<tuple> unit)[0], (<tuple> unit)[1], r.dst_loc[p])
    cdef dict new_dislodged = {}
    cdef int *occupied = sc.occupied
    cdef int *contested = sc.contested
    if any_dislodged:
        for i in range(n):
            occupied[i] = 0
        for i in range(r.num_units):
            p = r.units[i]
            if moved[p]:
                occupied[r.dst[p]] = 1
            elif dislodger[p] < 0:
                occupied[p] = 1
        r.mark_contested(contested)
        for i in range(r.num_units):
            p = r.units[i]
            q = dislodger[p]
            if q < 0:
                continue
            unit = <tuple> r.unit_obj[p]
            if r.utype[p] == ARMY:
                if r.loc[p] >= facts.num_army_adj:
                    raise ValueError(f"an army at location {r.loc[p]}, which is not a province")
                start = facts.army_off[r.loc[p]]
                end = facts.army_off[r.loc[p] + 1]
            else:
                if r.loc[p] >= facts.num_fleet_adj:
                    raise ValueError(f"a fleet at location {r.loc[p]}, which has no adjacencies")
                start = facts.fleet_off[r.loc[p]]
                end = facts.fleet_off[r.loc[p] + 1]
            options = []
            for j in range(start, end):
                dest = facts.army_idx[j] if r.utype[p] == ARMY else facts.fleet_idx[j]
                prov = facts.loc_province[dest]
                if not occupied[prov] and not contested[prov] and (
                    r.route_first[q] != LAND_MOVE or prov != q
                ):
                    options.append(dest)
            new_dislodged[p] = (
                (<tuple> unit)[0], (<tuple> unit)[1], (<tuple> unit)[2], tuple(options)
            )
    # shared with pos until a centre changes hands (positions are not changed in place:
    # adjudicator.phases changes a copy's)
    cdef list owners = pos.owners
    if len(owners) != n:
        raise ValueError(f"{len(owners)} owners on a map of {n} provinces")
    season = pos.season
    year = pos.year
    # after_movement, enter_winter and after_adjustments of adjudicator.phases
    if new_dislodged:
        season = season + 1
    elif season == _PY_SPRING:
        season = _PY_FALL
    else:
        # the units' powers where they stand now (occupied: their power + 1)
        for i in range(n):
            occupied[i] = 0
        for i in range(r.num_units):
            p = r.units[i]
            if moved[p]:
                occupied[r.dst[p]] = r.power[p] + 1
            elif dislodger[p] < 0:
                occupied[p] = r.power[p] + 1
        for i in range(facts.num_centres):
            p = facts.centres[i]
            if occupied[p] and owners[p] != occupied[p] - 1:
                if owners is pos.owners:
                    owners = list(owners)
                owners[p] = occupied[p] - 1
        season = _PY_WINTER
        if not _adjustments_due(sc, owners):
            season = _PY_SPRING
            year = year + 1
    nxt = PyType_GenericNew(<type> _Position, None, None)
    nxt.map = facts.game_map
    nxt.season = season
    nxt.year = year
    nxt.units = new_units
    nxt.owners = owners
    nxt.dislodged = new_dislodged
    return nxt


cdef bint _adjustments_due(_Scratch sc, list owners) except -1:
    """Whether some power's centres and units differ (Position.adjustments has a non-zero).

    ``sc.occupied`` holds the power + 1 of the unit in each province (0: none).
    """
    cdef _MapFacts facts = sc.facts
    cdef int powers = facts.num_powers
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
    for i in range(facts.n):
        if sc.occupied[i]:
            armies[sc.occupied[i] - 1] += 1
    for i in range(powers):
        if centres[i] != armies[i]:
            return True
    return False


def next_position(pos, dict orders):
    """The position after a movement phase, or None when an order needs the Python resolver."""
    global _busy
    cdef dict units = pos.units
    cdef _Scratch sc = _scratch(pos.map)
    cdef bint any_dislodged
    _busy = True
    try:
        if _setup(sc.resolver, units, orders):
            return None
        sc.resolver.prepare()
        any_dislodged = sc.resolver.resolve_all()
        return _apply(sc, pos, units, any_dislodged)
    finally:
        _busy = False


def adjudicate(pos, dict orders):
    """adjudicator.movement.adjudicate_movement, or None when an order needs Python.

    Returns the same ``MovementResult``: results, dislodgements, convoy routes
    and the orders as adjudicated, in the units' order, and the next position.
    """
    global _busy
    cdef dict units = pos.units
    cdef _Scratch sc = _scratch(pos.map)
    cdef _Resolver r = sc.resolver
    cdef bint any_dislodged
    cdef int i, j, p, route
    _busy = True
    try:
        if _setup(r, units, orders):
            return None
        r.prepare()
        any_dislodged = r.resolve_all()
        r.fill_results(sc.results)
        # copies of the units dict with the values replaced: built without growing
        full = units.copy()
        results = units.copy()
        dislodged = {}
        routes = {}
        for i in range(r.num_units):
            p = r.units[i]
            key = <object> r.key_obj[p]
            full[key] = <object> r.order_obj[p] if r.order_obj[p] != NULL else _PY_HOLD_ORDER
            results[key] = <object> PyTuple_GET_ITEM(_RESULT_CODES, sc.results[p])
            route = r.used_route[p]
            if route >= 0:
                routes[key] = tuple([
                    r.rt_fleets.data[j]
                    for j in range(r.rt_start.data[route], r.rt_start.data[route] + r.rt_len.data[route])
                ])
            if r.dislodger[p] >= 0:
                dislodged[key] = r.dislodger[p]
        nxt = _apply(sc, pos, units, any_dislodged)
        done = PyType_GenericNew(<type> _MovementResult, None, None)
        done.position = nxt
        done.orders = full
        done.results = results
        done.dislodged = dislodged
        done.routes = routes
        return done
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
) except -1:
    """Resolve a movement phase given as arrays; 1 if a unit was dislodged, else 0.

    ``units`` lists the provinces holding a unit (their order is the units'
    order); indexed by province, ``power`` is the unit's power and ``kind`` its
    order (HOLD, MOVE, SUPPORT_HOLD or SUPPORT_MOVE: no convoys, no coasts named)
    with the order tuple's arguments in ``a`` and ``b``: a move's destination
    location; a support's supported province, and a supported move's destination
    province.  The caller has checked every index against ``r``'s map.  Then, as
    after :func:`_setup`, :meth:`_Resolver.prepare` and :meth:`_Resolver.resolve_all`:
    ``r.moved``, ``r.dislodger`` and :meth:`_Resolver.mark_contested` say what
    happened (for the provinces of ``units``; until ``r``'s next reset).
    """
    cdef const int *loc_province = r.facts.loc_province
    cdef int i, p, k
    r.reset()
    r.plain = 1
    for i in range(num_units):
        p = units[i]
        r.units[i] = p
        r.power[p] = power[p]
        k = kind[p]
        r.kind[p] = k
        if k == MOVE:
            r.dst_loc[p] = a[p]
            r.dst[p] = loc_province[a[p]]
        elif k == SUPPORT_MOVE:
            r.target[p] = a[p]
            r.into[p] = b[p]
        elif k == SUPPORT_HOLD:
            r.target[p] = a[p]
            r.into[p] = a[p]
    r.num_units = num_units
    r.prepare()
    return r.resolve_all()
