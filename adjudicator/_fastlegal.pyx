# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
"""Legal movement orders, compiled (Cython): :func:`adjudicator.legal.movement_orders`.

:class:`LegalTables` (:func:`tables`) holds one map as C arrays — reach matrices (which
provinces a unit in a slot, a unit type at a location, can move into), the
neighbour matrix the convoy chains walk — and every order tuple the generator
can give, built once and shared (orders are immutable tuples).  Everything a
unit may order without a convoy depends only on its slot and the slots of the
other units, so the tables keep, for each pair of slots, the orders of the
first about the second (its support to hold, then its supports to move, in
the pure generator's order), and for each slot its hold and moves.
:func:`movement_orders` copies those lists into the result; the position's
units are converted once, and kept while the same unit objects stand in the
same order (the generator is asked about every unit of a position in turn).
The convoy rules are those of :mod:`adjudicator.legal` (a chain of fleets at
sea, a convoying fleet on some simple chain, a supported convoyed move on a
chain avoiding the supporter), answered by walks over the fleets at sea
instead of listing every chain.  The result equals the pure generator's list,
order for order; the pure code is the oracle the tests hold this one to
(``tests/adjudicator/test_fastlegal.py``).
"""

from cpython.dict cimport PyDict_Next
from cpython.list cimport PyList_New
from cpython.mem cimport PyMem_Free, PyMem_Malloc
from cpython.object cimport PyObject
from cpython.sequence cimport PySequence_Fast_ITEMS
from cpython.tuple cimport PyTuple_CheckExact
from libc.string cimport memcpy, memset

from adjudicator.per_map cimport PerMap, kept_for

from adjudicator.maps import ARMY as _PY_ARMY
from adjudicator.maps import COASTAL as _PY_COASTAL
from adjudicator.maps import FLEET as _PY_FLEET
from adjudicator.maps import SEA as _PY_SEA
from adjudicator.orders import CONVOY as _PY_CONVOY
from adjudicator.orders import CONVOY_MOVE as _PY_CONVOY_MOVE
from adjudicator.orders import HOLD_ORDER as _PY_HOLD_ORDER
from adjudicator.orders import MOVE as _PY_MOVE
from adjudicator.orders import SUPPORT_HOLD as _PY_SUPPORT_HOLD
from adjudicator.orders import SUPPORT_MOVE as _PY_SUPPORT_MOVE

cdef extern from *:
    const char *SOURCE_SHA256  # defined by setup.py

cdef extern from "Python.h":
    void _incref "Py_INCREF" (PyObject *)
    void _set_item "PyList_SET_ITEM" (object, Py_ssize_t, PyObject *)

SOURCE_HASH = SOURCE_SHA256.decode("ascii")
"""The SHA-256 of the source this module was built from (see adjudicator.compiled_rules.load)."""

cdef enum:
    ARMY = 0
    FLEET = 1
    COASTAL = 1
    SEA = 2

assert (_PY_ARMY, _PY_FLEET, _PY_COASTAL, _PY_SEA) == (ARMY, FLEET, COASTAL, SEA)


cdef class _Board:
    """The units of one position as C arrays, and scratch space for the convoy walks."""

    cdef int n, count
    cdef bint reusable  # whether the loaded units may be kept when the same objects come again
    cdef list held  # the dict's keys and values the arrays were loaded from (kept alive)
    cdef PyObject **keys  # [n] borrowed from held, in the dict's order
    cdef PyObject **values  # [n]
    cdef int *prov  # [n] units in the dict's order
    cdef int *slot  # [n] each unit's slot (see LegalTables)
    cdef int *index_of  # [n] position of the unit in a province in the arrays above, or -1
    cdef int *armies  # [n] positions of the armies on a coast, in the dict's order
    cdef int num_armies
    cdef bint any_sea
    cdef char *sea_fleet  # [n] 1 if a fleet stands in that sea
    cdef char *seen  # [n] scratch
    cdef char *dests  # [n] scratch: convoy destinations
    cdef int *stack  # [n] scratch
    cdef int *cursor  # [n] scratch: per depth, the next neighbour to try
    cdef char *known  # [n] 1 if the army_* rows of that army are computed for these units
    cdef int *army_dests  # [n][n] convoy destinations of each army, ascending (no sea avoided)
    cdef int *army_found  # [n] how many
    cdef char *army_seas  # [n][n] 1 for each sea a chain from that army reaches
    cdef bint convoyed_known  # whether the three arrays below are computed for these units
    cdef int num_convoyed
    cdef int *convoyed_army  # [n * n] each move only a convoy makes: the army (in the dict's
    cdef int *convoyed_dest  # [n * n] order) and where to (ascending)
    cdef PyObject **out  # [capacity] scratch: the orders of one call, before they are listed

    def __cinit__(self, int n, int capacity):
        self.n = n
        self.count = 0
        self.reusable = False
        self.held = []
        self.keys = <PyObject **> PyMem_Malloc((2 * n + capacity) * sizeof(PyObject *))
        self.prov = <int *> PyMem_Malloc((8 * n + 3 * n * n) * sizeof(int))
        self.sea_fleet = <char *> PyMem_Malloc(4 * n + n * n)
        if self.keys == NULL or self.prov == NULL or self.sea_fleet == NULL:
            raise MemoryError()
        self.values = self.keys + n
        self.out = self.values + n
        self.slot = self.prov + n
        self.index_of = self.slot + n
        self.armies = self.index_of + n
        self.stack = self.armies + n
        self.cursor = self.stack + n
        self.army_found = self.cursor + n
        self.army_dests = self.army_found + n
        self.convoyed_army = self.army_dests + n * n
        self.convoyed_dest = self.convoyed_army + n * n
        self.seen = self.sea_fleet + n
        self.dests = self.seen + n
        self.known = self.dests + n
        self.army_seas = self.known + n
        memset(self.prov, 0, 8 * n * sizeof(int))
        memset(self.sea_fleet, 0, 4 * n)
        for p in range(n):
            self.index_of[p] = -1

    def __dealloc__(self):
        PyMem_Free(self.keys)
        PyMem_Free(self.prov)
        PyMem_Free(self.sea_fleet)


cdef class LegalTables:
    """One map's tables for :func:`movement_orders` (build one per map and keep it).

    A slot is a unit type at a location: an army's slot is its province, a
    fleet's is ``n`` plus its location (``n`` provinces).
    """

    cdef readonly object game_map
    cdef int n, nloc, slots
    cdef char *kind  # [n]
    cdef char *reach  # [slots][n]: 1 if a unit in that slot reaches the province
    cdef int *loc_province  # [nloc]
    cdef char *nb  # [n][n] neighbours
    cdef int *nb_off  # [n + 1]: neighbours in the map's order
    cdef int *nb_idx
    cdef int *pair_off  # [slots * slots + 1]: each pair's orders in pair_items (see the module)
    cdef PyObject **pair_items  # borrowed from the lists below and HOLD_ORDER
    cdef PyObject **support_move_items  # the items of support_move, convoy and convoy_move
    cdef PyObject **convoy_items
    cdef PyObject **convoy_move_items
    cdef list moves  # [slots]: list of (MOVE, dest) in adjacency order
    cdef list support_hold  # [n]
    cdef list support_move  # [n * n]
    cdef list convoy  # [n * n]
    cdef list convoy_move  # [n]
    cdef object hold
    cdef _Board board

    def __cinit__(self, game_map):
        self.kind = NULL
        self.reach = NULL
        self.loc_province = NULL
        self.nb = NULL
        self.nb_off = NULL
        self.nb_idx = NULL
        self.pair_off = NULL
        self.pair_items = NULL

    def __init__(self, game_map):
        cdef int n = game_map.num_provinces
        cdef int nloc = game_map.num_locations
        cdef int slots = n + nloc
        cdef int s, p, k, total
        self.game_map = game_map
        self.n = n
        self.nloc = nloc
        self.slots = slots
        self.hold = _PY_HOLD_ORDER
        self.kind = <char *> PyMem_Malloc(n)
        self.reach = <char *> PyMem_Malloc(slots * n)
        self.nb = <char *> PyMem_Malloc(n * n)
        self.loc_province = <int *> PyMem_Malloc(nloc * sizeof(int))
        self.nb_off = <int *> PyMem_Malloc((n + 1) * sizeof(int))
        self.pair_off = <int *> PyMem_Malloc((slots * slots + 1) * sizeof(int))
        if (self.kind == NULL or self.reach == NULL or self.nb == NULL or self.nb_off == NULL
                or self.loc_province == NULL or self.pair_off == NULL):
            raise MemoryError()
        memset(self.reach, 0, slots * n)
        memset(self.nb, 0, n * n)
        for p in range(n):
            self.kind[p] = game_map.kind[p]
        for p in range(nloc):
            self.loc_province[p] = game_map.loc_province[p]
        reach_order = []  # each slot's reach set in the order the pure generator iterates it
        self.moves = []
        for s in range(slots):
            if s < n:
                reach = game_map.army_reach[s]
                adjacent = game_map.army_adjacent[s]
            else:
                reach = game_map.fleet_reach[s - n]
                adjacent = game_map.fleet_adjacent[s - n]
            reach_order.append(list(reach))
            for p in reach:
                self.reach[s * n + p] = 1
            self.moves.append([(_PY_MOVE, d) for d in adjacent])
        total = sum(len(game_map.neighbours[p]) for p in range(n))
        self.nb_idx = <int *> PyMem_Malloc((total + 1) * sizeof(int))
        if self.nb_idx == NULL:
            raise MemoryError()
        k = 0
        for p in range(n):
            self.nb_off[p] = k
            for q in game_map.neighbours[p]:
                self.nb[p * n + q] = 1
                self.nb_idx[k] = q
                k += 1
        self.nb_off[n] = k
        self.support_hold = [(_PY_SUPPORT_HOLD, p) for p in range(n)]
        self.support_move = [(_PY_SUPPORT_MOVE, p, d) for p in range(n) for d in range(n)]
        self.convoy = [(_PY_CONVOY, p, d) for p in range(n) for d in range(n)]
        self.convoy_move = [(_PY_CONVOY_MOVE, d, ()) for d in range(n)]
        self.support_move_items = PySequence_Fast_ITEMS(self.support_move)
        self.convoy_items = PySequence_Fast_ITEMS(self.convoy)
        self.convoy_move_items = PySequence_Fast_ITEMS(self.convoy_move)
        total = self._pairs(reach_order, 0)
        self.pair_items = <PyObject **> PyMem_Malloc((total + 1) * sizeof(PyObject *))
        if self.pair_items == NULL:
            raise MemoryError()
        self._pairs(reach_order, 1)
        # one call's orders: one row of pairs, and at most a convoy, a move by convoy and a
        # support for each army and province
        widest = max(self.pair_off[(s + 1) * slots] - self.pair_off[s * slots] for s in range(slots))
        self.board = _Board(n, widest + 2 * n * n + n)

    cdef int _pairs(self, list reach_order, bint fill) except -1:
        """Count (and with ``fill`` write) each pair of slots' orders; returns how many in all.

        The pair of a slot with itself is its hold and moves.  Another slot's
        entries are the supports the first slot gives it: to hold, if it reaches
        the second's province, then to move into each province both reach but
        the supporter's own, in the order the pure generator lists them.
        """
        cdef int n = self.n
        cdef int slots = self.slots
        cdef int total = 0
        cdef int s, o, own, other, dest
        cdef object order
        for s in range(slots):
            own = s if s < n else self.loc_province[s - n]
            for o in range(slots):
                if not fill:
                    self.pair_off[s * slots + o] = total
                if o == s:
                    total = self._put(self.hold, total, fill)
                    for order in self.moves[s]:
                        total = self._put(order, total, fill)
                    continue
                other = o if o < n else self.loc_province[o - n]
                if self.reach[s * n + other]:
                    total = self._put(self.support_hold[other], total, fill)
                for dest in reach_order[o]:
                    if self.reach[s * n + dest] and dest != own:
                        total = self._put(self.support_move[other * n + dest], total, fill)
        if not fill:
            self.pair_off[slots * slots] = total
        return total

    cdef inline int _put(self, object order, int at, bint fill):
        """Write ``order`` at ``at`` in pair_items when filling; the next free place."""
        if fill:
            self.pair_items[at] = <PyObject *> order
        return at + 1

    def __dealloc__(self):
        PyMem_Free(self.kind)
        PyMem_Free(self.reach)
        PyMem_Free(self.loc_province)
        PyMem_Free(self.nb)
        PyMem_Free(self.nb_off)
        PyMem_Free(self.nb_idx)
        PyMem_Free(self.pair_off)
        PyMem_Free(self.pair_items)


cdef int _load(_Board board, LegalTables t, dict units) except -1:
    """Copy the units (in the dict's order), mark the fleets at sea and the armies on a coast.

    Nothing is done when the dict holds the same key and value objects in the
    same order as at the last load (units are tuples, so equal) and the
    convoy destinations computed for them are kept.  A unit outside the map,
    or at a location outside its province, is a ``ValueError``: nothing
    unchecked indexes a C array.
    """
    cdef Py_ssize_t at = 0
    cdef PyObject *key
    cdef PyObject *value
    cdef int k = 0
    cdef int n = t.n
    cdef int p, ut, lc
    cdef bint tuples = True
    if board.reusable and len(units) == board.count:
        while PyDict_Next(units, &at, &key, &value):
            if key != board.keys[k] or value != board.values[k]:
                break
            k += 1
        else:
            return 0
    if len(units) > n:
        raise ValueError(f"{len(units)} units on a map of {n} provinces")
    board.reusable = False
    board.count = 0
    for p in range(n):
        board.index_of[p] = -1
    board.held = held = []
    board.num_armies = 0
    board.any_sea = False
    board.convoyed_known = False
    memset(board.sea_fleet, 0, n)
    memset(board.known, 0, n)
    k = 0
    for prov, unit in units.items():
        p = prov
        ut = unit[1]
        lc = unit[2]
        if not (
            0 <= p < n
            and 0 <= ut <= 1
            and 0 <= lc < (n if ut == ARMY else t.nloc)
            and t.loc_province[lc] == p
            and board.index_of[p] < 0
        ):
            raise ValueError(f"a unit of type {ut} at {lc} in province {p}, which the map lacks")
        held.append(prov)
        held.append(unit)
        board.keys[k] = <PyObject *> prov
        board.values[k] = <PyObject *> unit
        tuples = tuples and PyTuple_CheckExact(unit)
        board.prov[k] = p
        board.slot[k] = lc if ut == ARMY else n + lc
        board.index_of[p] = k
        board.count = k + 1
        if ut == FLEET and t.kind[p] == SEA:
            board.sea_fleet[p] = 1
            board.any_sea = True
        elif ut == ARMY and t.kind[p] == COASTAL:
            board.armies[board.num_armies] = k
            board.num_armies += 1
        k += 1
    board.reusable = tuples  # a unit that is not a tuple may change in place
    return 0


cdef int *_army_destinations(_Board board, LegalTables t, int army, int *found) noexcept:
    """The convoy destinations of ``army`` in ascending order (no sea avoided).

    Computed once per set of units, with the seas its chains reach
    (``board.army_seas``); ``found`` is set to how many.
    """
    cdef int n = t.n
    cdef int *row = board.army_dests + army * n
    cdef int dest, count = 0
    if not board.known[army]:
        if _destinations(board, t, army, -1):
            for dest in range(n):
                if board.dests[dest]:
                    row[count] = dest
                    count += 1
        memcpy(board.army_seas + army * n, board.seen, n)
        board.army_found[army] = count
        board.known[army] = 1
    found[0] = board.army_found[army]
    return row


cdef int _destinations(_Board board, LegalTables t, int army, int avoid) noexcept:
    """Mark ``board.dests`` with where chains of fleets at sea (not ``avoid``) carry ``army``.

    As ``_convoy_destinations`` in adjudicator.legal: coastal provinces next to
    a sea reached from the army's neighbouring seas (marked in ``board.seen``).
    Returns how many.
    """
    cdef int n = t.n
    cdef int top = 0
    cdef int found = 0
    cdef int i, here, q
    memset(board.seen, 0, n)
    memset(board.dests, 0, n)
    for i in range(t.nb_off[army], t.nb_off[army + 1]):
        q = t.nb_idx[i]
        if board.sea_fleet[q] and q != avoid and not board.seen[q]:
            board.seen[q] = 1
            board.stack[top] = q
            top += 1
    while top:
        top -= 1
        here = board.stack[top]
        for i in range(t.nb_off[here], t.nb_off[here + 1]):
            q = t.nb_idx[i]
            if board.sea_fleet[q] and q != avoid:
                if not board.seen[q]:
                    board.seen[q] = 1
                    board.stack[top] = q
                    top += 1
            elif t.kind[q] == COASTAL and q != army and not board.dests[q]:
                board.dests[q] = 1
                found += 1
    return found


cdef bint _chain_through(_Board board, LegalTables t, int army, int dest, int fleet) noexcept:
    """Whether a simple chain of fleets at sea from ``army`` to ``dest`` passes ``fleet``.

    A depth-first walk over simple chains (``board.stack`` holds the chain,
    ``board.seen`` its seas), stopping at the first that ends next to ``dest``
    with ``fleet`` on it.
    """
    cdef int n = t.n
    cdef int depth, here, q, i, through
    memset(board.seen, 0, n)
    for i in range(t.nb_off[army], t.nb_off[army + 1]):
        q = t.nb_idx[i]
        if not board.sea_fleet[q]:
            continue
        board.stack[0] = q
        board.cursor[0] = t.nb_off[q]
        board.seen[q] = 1
        depth = 1
        through = 1 if q == fleet else 0
        if through and t.nb[q * n + dest]:
            return True
        while depth:
            here = board.stack[depth - 1]
            if board.cursor[depth - 1] == t.nb_off[here + 1]:
                board.seen[here] = 0
                if here == fleet:
                    through = 0
                depth -= 1
                continue
            q = t.nb_idx[board.cursor[depth - 1]]
            board.cursor[depth - 1] += 1
            if not board.sea_fleet[q] or board.seen[q]:
                continue
            board.seen[q] = 1
            if q == fleet:
                through = 1
            if through and t.nb[q * n + dest]:
                return True
            board.stack[depth] = q
            board.cursor[depth] = t.nb_off[q]
            depth += 1
    return False


cdef int _convoyed_moves(_Board board, LegalTables t) noexcept:
    """List once per set of units each army's moves only a convoy makes; how many."""
    cdef int n = t.n
    cdef int *dests
    cdef int found = 0
    cdef int j, i, army, dest
    if not board.convoyed_known:
        board.num_convoyed = 0
        for j in range(board.num_armies):
            army = board.prov[board.armies[j]]
            dests = _army_destinations(board, t, army, &found)
            for i in range(found):
                dest = dests[i]
                if not t.reach[army * n + dest]:  # the army's own reach (its slot is its province)
                    board.convoyed_army[board.num_convoyed] = army
                    board.convoyed_dest[board.num_convoyed] = dest
                    board.num_convoyed += 1
        board.convoyed_known = True
    return board.num_convoyed


cdef Py_ssize_t _convoy_orders(
    _Board board, LegalTables t, int prov, int slot, Py_ssize_t at
) noexcept:
    """Write the convoy-related orders of the unit in ``prov`` from ``board.out[at]`` on.

    As adjudicator.legal: convoy orders (a fleet at sea) or moves by convoy (an
    army on a coast), then supports for moves only a convoy makes, on a chain
    avoiding the supporter.  An army whose chains never reach the supporting
    fleet has the same destinations avoiding it as without.  Returns the end.
    """
    cdef int n = t.n
    cdef int base = slot * n
    cdef int *dests
    cdef int found = 0
    cdef int j, i, army, dest, walked
    cdef bint at_sea = board.sea_fleet[prov]
    if at_sea:
        for j in range(board.num_armies):
            army = board.prov[board.armies[j]]
            dests = _army_destinations(board, t, army, &found)
            if not board.army_seas[army * n + prov]:
                continue
            for i in range(found):
                dest = dests[i]
                if _chain_through(board, t, army, dest, prov):
                    board.out[at] = t.convoy_items[army * n + dest]
                    at += 1
    elif slot < n and t.kind[prov] == COASTAL:
        dests = _army_destinations(board, t, prov, &found)
        for i in range(found):
            board.out[at] = t.convoy_move_items[dests[i]]
            at += 1
    walked = -1  # the army whose destinations avoiding prov board.dests holds
    for j in range(_convoyed_moves(board, t)):
        army = board.convoyed_army[j]
        dest = board.convoyed_dest[j]
        if army == prov or dest == prov or not t.reach[base + dest]:
            continue
        if at_sea and board.army_seas[army * n + prov]:
            if walked != army:
                _destinations(board, t, army, prov)
                walked = army
            if not board.dests[dest]:
                continue
        board.out[at] = t.support_move_items[army * n + dest]
        at += 1
    return at


cdef PerMap _TABLES = PerMap()
"""Each map's :class:`LegalTables`."""


cpdef LegalTables tables(game_map):
    """The tables of ``game_map``, built once per map (maps are immutable)."""
    found = kept_for(_TABLES, game_map)
    if found is None:
        found = _TABLES.keep(game_map, LegalTables(game_map))
    return <LegalTables> found


def movement_orders(pos, int prov, bint convoys=True):
    """All legal orders for the unit in ``prov`` (see adjudicator.legal.movement_orders)."""
    cdef LegalTables t = tables(pos.map)
    cdef _Board board = t.board
    cdef int slots = t.slots
    cdef int k, me, row, lo, hi, i
    cdef Py_ssize_t at
    _load(board, t, pos.units)
    me = board.index_of[prov] if 0 <= prov < t.n else -1
    if me < 0:
        raise KeyError(prov)
    row = board.slot[me] * slots
    at = 0
    lo = t.pair_off[row + board.slot[me]]
    hi = t.pair_off[row + board.slot[me] + 1]
    for i in range(lo, hi):
        board.out[at] = t.pair_items[i]
        at += 1
    for k in range(board.count):
        if k == me:
            continue
        lo = t.pair_off[row + board.slot[k]]
        hi = t.pair_off[row + board.slot[k] + 1]
        for i in range(lo, hi):
            board.out[at] = t.pair_items[i]
            at += 1
    if convoys and board.any_sea:
        at = _convoy_orders(board, t, prov, board.slot[me], at)
    cdef list out = PyList_New(at)
    for i in range(at):
        _incref(board.out[i])
        _set_item(out, i, board.out[i])
    return out
