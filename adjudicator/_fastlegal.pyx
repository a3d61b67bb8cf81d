# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
"""Legal movement orders, compiled (Cython): :func:`adjudicator.legal.movement_orders`.

:class:`LegalTables` holds one map as C arrays — reach matrices (which
provinces a unit at a location can move into), each reach set's iteration
order in Python (so supports come out in the pure generator's order), the
neighbour matrix the convoy chains walk — and every order tuple the generator
can give, built once and shared (orders are immutable tuples).
:func:`movement_orders` converts the position's units once per call and
writes the orders without re-validation; the convoy rules are those of
:mod:`adjudicator.legal` (a chain of fleets at sea, a convoying fleet on some
simple chain, a supported convoyed move on a chain avoiding the supporter),
answered by a walk over the fleets at sea instead of listing every chain.
The result equals the pure generator's list, order for order; the pure code
is the oracle the tests hold this one to (``tests/adjudicator/test_fastlegal.py``).
"""

from cpython.mem cimport PyMem_Free, PyMem_Malloc
from libc.string cimport memset

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

SOURCE_HASH = SOURCE_SHA256.decode("ascii")
"""The SHA-256 of the source this module was built from (see adjudicator.compiled_rules.load)."""

cdef enum:
    ARMY = 0
    FLEET = 1
    COASTAL = 1
    SEA = 2

assert (_PY_ARMY, _PY_FLEET, _PY_COASTAL, _PY_SEA) == (ARMY, FLEET, COASTAL, SEA)

cdef object HOLD_ORDER = _PY_HOLD_ORDER


cdef class LegalTables:
    """One map's tables for :func:`movement_orders` (build one per map and keep it)."""

    cdef readonly object game_map
    cdef int n, nloc
    cdef char *kind  # n
    cdef char *reach  # [2][nloc][n]: 1 if a unit of that type at that location reaches prov
    cdef int *order_off  # [2 * nloc + 1]: reach sets in Python's iteration order
    cdef int *order_idx
    cdef char *nb  # [n][n] neighbours
    cdef int *nb_off  # [n + 1]: neighbours in the map's order
    cdef int *nb_idx
    cdef list moves  # [2 * nloc]: list of (MOVE, dest) in adjacency order
    cdef list support_hold  # [n]
    cdef list support_move  # [n * n]
    cdef list convoy  # [n * n]
    cdef list convoy_move  # [n]

    def __cinit__(self, game_map):
        self.kind = NULL
        self.reach = NULL
        self.order_off = NULL
        self.order_idx = NULL
        self.nb = NULL
        self.nb_off = NULL
        self.nb_idx = NULL

    def __init__(self, game_map):
        cdef int n = game_map.num_provinces
        cdef int nloc = game_map.num_locations
        cdef int utype, loc, p, k, total
        self.game_map = game_map
        self.n = n
        self.nloc = nloc
        self.kind = <char *> PyMem_Malloc(n)
        self.reach = <char *> PyMem_Malloc(2 * nloc * n)
        self.nb = <char *> PyMem_Malloc(n * n)
        self.order_off = <int *> PyMem_Malloc((2 * nloc + 1) * sizeof(int))
        self.nb_off = <int *> PyMem_Malloc((n + 1) * sizeof(int))
        if (self.kind == NULL or self.reach == NULL or self.nb == NULL
                or self.order_off == NULL or self.nb_off == NULL):
            raise MemoryError()
        memset(self.reach, 0, 2 * nloc * n)
        memset(self.nb, 0, n * n)
        for p in range(n):
            self.kind[p] = game_map.kind[p]
        sets = []
        self.moves = []
        for utype in range(2):
            for loc in range(nloc):
                if utype == ARMY:
                    reach = game_map.army_reach[loc] if loc < n else frozenset()
                    adjacent = game_map.army_adjacent[loc] if loc < n else ()
                else:
                    reach = game_map.fleet_reach[loc]
                    adjacent = game_map.fleet_adjacent[loc]
                ordered = list(reach)  # the order the pure generator iterates in
                sets.append(ordered)
                for p in ordered:
                    self.reach[(utype * nloc + loc) * n + p] = 1
                self.moves.append([(_PY_MOVE, d) for d in adjacent])
        total = sum(len(s) for s in sets)
        self.order_idx = <int *> PyMem_Malloc((total + 1) * sizeof(int))
        if self.order_idx == NULL:
            raise MemoryError()
        k = 0
        for loc in range(2 * nloc):
            self.order_off[loc] = k
            for p in sets[loc]:
                self.order_idx[k] = p
                k += 1
        self.order_off[2 * nloc] = k
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

    def __dealloc__(self):
        PyMem_Free(self.kind)
        PyMem_Free(self.reach)
        PyMem_Free(self.order_off)
        PyMem_Free(self.order_idx)
        PyMem_Free(self.nb)
        PyMem_Free(self.nb_off)
        PyMem_Free(self.nb_idx)


cdef class _Board:
    """The units of one position as C arrays, and scratch space for the convoy walks."""

    cdef int n, count
    cdef int *prov  # units in the position's order
    cdef int *utype
    cdef int *loc
    cdef char *sea_fleet  # [n] 1 if a fleet stands in that sea
    cdef char *seen  # [n] scratch
    cdef char *dests  # [n] scratch: convoy destinations
    cdef int *stack  # [n] scratch
    cdef int *cursor  # [n] scratch: per depth, the next neighbour to try
    cdef object tables  # the tables the units were loaded for
    cdef char *known  # [n] 1 if army_dests' row of that army is computed for these units
    cdef int *army_dests  # [n][n] convoy destinations of each army, ascending (no sea avoided)
    cdef int *army_found  # [n] how many

    def __cinit__(self, int n):
        self.n = n
        self.count = -1
        self.tables = None
        self.prov = <int *> PyMem_Malloc((7 * n + n * n) * sizeof(int))
        self.sea_fleet = <char *> PyMem_Malloc(4 * n)
        if self.prov == NULL or self.sea_fleet == NULL:
            raise MemoryError()
        self.army_found = self.prov + 6 * n
        self.army_dests = self.army_found + n
        self.known = self.sea_fleet + 3 * n
        memset(self.prov, 0, 7 * n * sizeof(int))
        memset(self.known, 0, n)
        self.utype = self.prov + n
        self.loc = self.utype + n
        self.stack = self.loc + n
        self.cursor = self.stack + n
        self.seen = self.sea_fleet + n
        self.dests = self.seen + n

    def __dealloc__(self):
        PyMem_Free(self.prov)
        PyMem_Free(self.sea_fleet)


cdef int _load(_Board board, LegalTables t, dict units) except -1:
    """Copy the units (in the dict's order) and mark the fleets at sea.

    The armies' convoy destinations computed for the units loaded before are
    kept when the units are the same (the generator is asked about every unit
    of a position in turn).  A unit outside the map is a ``ValueError``: nothing
    unchecked indexes a C array.
    """
    cdef int k = 0
    cdef int p, ut, lc
    cdef bint changed = board.tables is not t or len(units) != board.count
    if len(units) > t.n:
        raise ValueError(f"{len(units)} units on a map of {t.n} provinces")
    for prov, unit in units.items():
        p = prov
        ut = unit[1]
        lc = unit[2]
        if not (0 <= p < t.n and 0 <= ut <= 1 and 0 <= lc < t.nloc):
            raise ValueError(f"a unit of type {ut} at {lc} in province {p}, which the map lacks")
        if not changed and (board.prov[k] != p or board.utype[k] != ut or board.loc[k] != lc):
            changed = True
        board.prov[k] = p
        board.utype[k] = ut
        board.loc[k] = lc
        k += 1
    if changed:
        board.tables = t
        board.count = k
        memset(board.known, 0, t.n)
        memset(board.sea_fleet, 0, t.n)
        for k in range(board.count):
            p = board.prov[k]
            if board.utype[k] == FLEET and t.kind[p] == SEA:
                board.sea_fleet[p] = 1
    return 0


cdef int *_army_destinations(_Board board, LegalTables t, int army, int *found) noexcept:
    """The convoy destinations of ``army`` in ascending order (no sea avoided).

    Computed once per set of units; ``found`` is set to how many.
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
        board.army_found[army] = count
        board.known[army] = 1
    found[0] = board.army_found[army]
    return row


cdef int _destinations(_Board board, LegalTables t, int army, int avoid) noexcept:
    """Mark ``board.dests`` with where chains of fleets at sea (not ``avoid``) carry ``army``.

    As ``_convoy_destinations`` in adjudicator.legal: coastal provinces next to
    a sea reached from the army's neighbouring seas.  Returns how many.
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


cdef dict _BOARDS = {}


cdef _Board _board_for(int n):
    board = _BOARDS.get(n)
    if board is None:
        board = _Board(n)
        _BOARDS[n] = board
    return <_Board> board


def movement_orders(LegalTables t, pos, int prov, bint convoys=True):
    """All legal orders for the unit in ``prov`` (see adjudicator.legal.movement_orders)."""
    cdef int n = t.n
    cdef int nloc = t.nloc
    cdef _Board board = _board_for(n)
    cdef dict units = pos.units
    cdef int k, other, otype, oloc, i, dest, army, base, obase
    _load(board, t, units)
    unit = units[prov]
    cdef int utype = unit[1]
    cdef int loc = unit[2]
    cdef list out = [HOLD_ORDER]
    out.extend(<list> t.moves[utype * nloc + loc])
    base = (utype * nloc + loc) * n
    cdef list support_move = t.support_move
    for k in range(board.count):
        other = board.prov[k]
        if other == prov:
            continue
        if t.reach[base + other]:
            out.append(t.support_hold[other])
        obase = board.utype[k] * nloc + board.loc[k]
        for i in range(t.order_off[obase], t.order_off[obase + 1]):
            dest = t.order_idx[i]
            if t.reach[base + dest] and dest != prov:
                out.append(support_move[other * n + dest])
    if not convoys:
        return out
    cdef bint any_sea = False
    for k in range(n):
        if board.sea_fleet[k]:
            any_sea = True
            break
    if not any_sea:
        return out
    # Convoy orders (a fleet at sea) or moves by convoy (an army on a coast).
    cdef int *dests
    cdef int found = 0
    if utype == FLEET and t.kind[prov] == SEA:
        for k in range(board.count):
            army = board.prov[k]
            if board.utype[k] != ARMY or t.kind[army] != COASTAL:
                continue
            dests = _army_destinations(board, t, army, &found)
            for i in range(found):
                dest = dests[i]
                if _chain_through(board, t, army, dest, prov):
                    out.append(t.convoy[army * n + dest])
    elif utype == ARMY and t.kind[prov] == COASTAL:
        dests = _army_destinations(board, t, prov, &found)
        for i in range(found):
            out.append(t.convoy_move[dests[i]])
    # Supports for moves that need a convoy, on a chain avoiding the supporter.
    cdef int avoid = prov if board.sea_fleet[prov] else -1
    for k in range(board.count):
        army = board.prov[k]
        if army == prov or board.utype[k] != ARMY or t.kind[army] != COASTAL:
            continue
        oloc = board.loc[k]
        if avoid < 0:
            dests = _army_destinations(board, t, army, &found)
            for i in range(found):
                dest = dests[i]
                if t.reach[base + dest] and dest != prov and not t.reach[oloc * n + dest]:
                    out.append(support_move[army * n + dest])
        elif _destinations(board, t, army, avoid):
            for dest in range(n):
                if (
                    board.dests[dest]
                    and t.reach[base + dest]
                    and dest != prov
                    and not t.reach[oloc * n + dest]  # army_reach of the army's location
                ):
                    out.append(support_move[army * n + dest])
    return out
