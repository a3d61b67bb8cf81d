# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
"""The orders read into the compiled resolver, and matched: supports, convoys, convoy routes.

:func:`setup` reads a position's units and the Python orders into a
:class:`adjudicator._resolver._Resolver`'s arrays; :func:`resolve_arrays` reads a phase
given as C arrays (the compiled search's rollouts); :func:`prepare` matches supports and
convoys and finds the convoy routes (in the order of adjudicator.routes), as
adjudicator.movement._Resolver.__init__ does.
"""

from cpython.dict cimport PyDict_Next
from cpython.long cimport PyLong_AsLongAndOverflow, PyLong_CheckExact
from cpython.ref cimport PyObject
from cpython.tuple cimport PyTuple_CheckExact, PyTuple_GET_ITEM, PyTuple_GET_SIZE

from adjudicator._movetables cimport (
    ARMY, CONVOY, CONVOY_MOVE, HOLD, INLAND, LAND_MOVE, MOVE, NO_UNIT, SEA, SUPPORT_HOLD,
    SUPPORT_MOVE, _MapFacts, push,
)
from adjudicator._resolver cimport _Resolver

cdef extern from *:
    const char *SOURCE_SHA256  # defined by setup.py

SOURCE_HASH = SOURCE_SHA256.decode("ascii")
"""The SHA-256 of the source this module was built from (see adjudicator.compiled_rules.load)."""


cdef inline bint _order_item(tuple order, Py_ssize_t i, long *out) noexcept:
    """Read ``order[i]`` into ``out`` if it is an int that fits; else 1 (for the Python
    resolver, which judges such orders as the rules say)."""
    cdef int overflow
    cdef object item = <object> PyTuple_GET_ITEM(order, i)
    if not PyLong_CheckExact(item):
        return 1
    out[0] = PyLong_AsLongAndOverflow(item, &overflow)
    return overflow != 0


cdef int setup(_Resolver r, dict units, dict orders) except -2:
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
                push(&r.paths, item)
        else:
            return 1
        r.kind[p] = kind
    return 0


# --- matching orders, and convoy routes ------------------------------------------------

cdef int prepare(_Resolver r) except -1:
    """Match supports and convoys, find convoy routes, list attackers and supports.

    The units and their orders are in the arrays (``units``, ``kind``,
    ``power``, ``utype``, ``dst``, ``dst_loc``, ``target``, ``into``,
    ``coast``, explicit convoy paths); as in _Resolver.__init__ of
    adjudicator.movement.
    """
    cdef int *kind = r.kind
    cdef int *dst = r.dst
    cdef int i, p, a, k, t, d
    if r.any_convoy:
        for i in range(r.num_units):
            p = r.units[i]
            if kind[p] == CONVOY:
                a = r.target[p]
                k = kind[a]
                if (k == MOVE or k == CONVOY_MOVE) and dst[a] == r.into[p] and (
                    r.utype[a] == ARMY
                ):
                    r.matched[p] = 1
    for i in range(0 if r.plain else r.num_units):  # convoys: none when plain
        p = r.units[i]
        if kind[p] == CONVOY_MOVE:
            _find_routes(r, p, 1)
        elif (
            kind[p] == MOVE and r.any_convoy and r.utype[p] == ARMY
            and r.facts.kind[dst[p]] != INLAND
        ):
            _maybe_convoy_by_intent(r, p)
    # attackers of each province and head-to-head battles, supports matched by what the
    # supported unit does; each list in the units' order (made from the back)
    for i in range(r.num_units - 1, -1, -1):
        p = r.units[i]
        k = kind[p]
        if k == MOVE or k == CONVOY_MOVE:
            d = dst[p]
            r.att_next[p] = r.att_head[d]
            r.att_head[d] = p
            if (
                r.route_first[p] == LAND_MOVE
                and (kind[d] == MOVE or kind[d] == CONVOY_MOVE)
                and dst[d] == p
                and r.route_first[d] == LAND_MOVE
            ):
                r.h2h[p] = d
        elif k == SUPPORT_MOVE:
            t = r.target[p]
            if (kind[t] == MOVE or kind[t] == CONVOY_MOVE) and dst[t] == r.into[p] and (
                r.coast[p] < 0 or r.dst_loc[t] == r.coast[p]
            ):
                r.matched[p] = 1
                r.sup_next[p] = r.sup_head[t]
                r.sup_head[t] = p
        elif k == SUPPORT_HOLD:
            t = r.target[p]
            if kind[t] >= 0 and kind[t] != MOVE and kind[t] != CONVOY_MOVE and t != p:
                r.matched[p] = 1
                r.sup_next[p] = r.sup_head[t]
                r.sup_head[t] = p
    return 0


cdef inline int _convoys(_Resolver r, int f, int army) noexcept:
    """Whether the unit in ``f`` convoys ``army`` (to where the army goes)."""
    return r.kind[f] == CONVOY and r.matched[f] and r.target[f] == army


cdef int _find_routes(_Resolver r, int army, bint explicit) except -1:
    """The army's convoy routes into the route table (see _Resolver._find_routes).

    With ``explicit``, the path its order names (none if it is not a chain of
    fleets convoying it); else every chain of seas whose fleets convoy it,
    shortest first, in the order of routes.sea_chains.
    """
    cdef _MapFacts facts = r.facts
    cdef int n = r.n
    cdef int dest = r.dst[army]
    cdef int i, f, prev, first, length, count, any_sea, k, j
    r.route_first[army] = r.rt_start.size
    r.route_num[army] = 0
    if explicit and r.path_len[army] > 0:
        first = r.path_first[army]
        length = r.path_len[army]
        prev = army
        for i in range(first, first + length):
            f = r.paths.data[i]
            if not _convoys(r, f, army):
                return 0
        for i in range(first, first + length):
            f = r.paths.data[i]
            if facts.kind[f] != SEA or not facts.is_neighbour[prev * n + f]:
                return 0
            prev = f
        if not facts.is_neighbour[prev * n + dest]:
            return 0
        push(&r.rt_start, r.rt_fleets.size)
        push(&r.rt_len, length)
        for i in range(first, first + length):
            push(&r.rt_fleets, r.paths.data[i])
        r.route_num[army] = 1
        return 0
    # the seas to walk: marked in mark[], cleared below
    any_sea = 0
    for i in range(r.num_units):
        f = r.units[i]
        if _convoys(r, f, army) and facts.kind[f] == SEA:
            r.mark[f] = 1
            any_sea = 1
    if any_sea and army != dest:
        r.found_start.size = 0
        r.found_len.size = 0
        r.found_fleets.size = 0
        # routes.sea_chains pops routes from a stack: the last neighbour's first
        for j in range(facts.nb_off[army + 1] - 1, facts.nb_off[army] - 1, -1):
            f = facts.nb_idx[j]
            if r.mark[f] == 1:
                r.walk[0] = f
                r.mark[f] = 2
                _walk(r, dest, 1)
                r.mark[f] = 1
        # shortest first, equal lengths in the order found (a stable sort)
        count = r.found_start.size
        length = 1
        while length <= n:
            for k in range(count):
                if r.found_len.data[k] == length:
                    push(&r.rt_start, r.rt_fleets.size)
                    push(&r.rt_len, length)
                    first = r.found_start.data[k]
                    for i in range(first, first + length):
                        push(&r.rt_fleets, r.found_fleets.data[i])
                    r.route_num[army] += 1
                    if r.route_num[army] == count:
                        break
            if r.route_num[army] == count:
                break
            length += 1
    for i in range(r.num_units):
        r.mark[r.units[i]] = 0
    return 0


cdef int _walk(_Resolver r, int dest, int depth) except -1:
    """Record the route walk[:depth] if it reaches ``dest``; walk on through marked seas.

    ``mark`` is 1 on a sea of the walk, 2 on one already on the route.
    """
    cdef _MapFacts facts = r.facts
    cdef int here = r.walk[depth - 1]
    cdef int i, j, f
    if facts.is_neighbour[here * r.n + dest]:
        push(&r.found_start, r.found_fleets.size)
        push(&r.found_len, depth)
        for i in range(depth):
            push(&r.found_fleets, r.walk[i])
    for j in range(facts.nb_off[here + 1] - 1, facts.nb_off[here] - 1, -1):
        f = facts.nb_idx[j]
        if r.mark[f] == 1:
            r.walk[depth] = f
            r.mark[f] = 2
            _walk(r, dest, depth + 1)
            r.mark[f] = 1
    return 0


cdef int _maybe_convoy_by_intent(_Resolver r, int p) except -1:
    """DATC 4.A.3 d: an army moving to an adjacent province goes by convoy if a fleet of
    its own power convoys it there and a route exists."""
    cdef int i, f, own = 0
    for i in range(r.num_units):
        f = r.units[i]
        if _convoys(r, f, p) and r.power[f] == r.power[p]:
            own = 1
            break
    if not own:
        return 0
    _find_routes(r, p, 0)
    if r.route_num[p] == 0:
        r.route_first[p] = LAND_MOVE
    return 0


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
    after :func:`setup`, :func:`prepare` and :meth:`_Resolver.resolve_all`:
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
    prepare(r)
    return r.resolve_all()
