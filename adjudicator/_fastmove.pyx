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
C caller can hold the orders itself, in the resolver's rooms (each cimported through
its ``.pxd``): :func:`adjudicator._moveorders.setup` reads the Python orders into
the resolver's arrays, :func:`adjudicator._moveorders.prepare` matches supports and
convoys and finds the convoy routes, :meth:`adjudicator._resolver._Resolver.resolve_all`
decides every unit (on the map's tables of adjudicator/_movetables.pyx).  This module
keeps the resolver from one call to the next and builds the next position, by the phase's
rules the compiled search's rollouts follow too (adjudicator/_phaserules.pxd: the retreats
of a dislodged unit, the centres taken in a fall, whether adjustments are due).
"""

from cpython.tuple cimport PyTuple_GET_ITEM
from cpython.mem cimport PyMem_Free, PyMem_Malloc
from cpython.type cimport PyType_GenericNew

from adjudicator._movetables cimport ARMY, _MapFacts
from adjudicator._moveorders cimport prepare, setup
from adjudicator._phaserules cimport adjustments_due, retreat_barred, retreat_options, take_centres
from adjudicator._resolver cimport _Resolver
from adjudicator.per_map cimport PerMap, kept_for

from adjudicator.orders import BNC as _PY_BNC
from adjudicator.orders import CUT as _PY_CUT
from adjudicator.orders import DSR as _PY_DSR
from adjudicator.orders import HOLD_ORDER as _PY_HOLD_ORDER
from adjudicator.orders import NSO as _PY_NSO
from adjudicator.orders import SUC as _PY_SUC
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

cdef tuple _RESULT_CODES = (_PY_SUC, _PY_BNC, _PY_CUT, _PY_DSR, _PY_NSO)


cdef class _Scratch:
    """The resolver and arrays of the last call, kept for the next one on that map."""

    cdef _MapFacts facts
    cdef _Resolver resolver
    cdef int *results  # [n]
    cdef int *unit_power  # [n]: the power of the unit in the next position, or -1
    cdef int *contested  # [n]: a standoff or a move that could have come
    cdef int *owner  # [n]: the centres' owners (those of centres only)
    cdef int *before  # [n]: the centres' owners before the fall's changes
    cdef int *options  # [the most adjacent locations of one]: a dislodged unit's retreats
    cdef int *due  # [powers]: each power's centres less its units

    def __cinit__(self, _MapFacts facts):
        cdef int n = facts.n
        cdef int most = _most_adjacent(facts)
        self.facts = facts
        self.resolver = _Resolver(facts)
        self.results = <int *> PyMem_Malloc((5 * n + most + facts.num_powers) * sizeof(int))
        if self.results == NULL:
            raise MemoryError()
        self.unit_power = self.results + n
        self.contested = self.unit_power + n
        self.owner = self.contested + n
        self.before = self.owner + n
        self.options = self.before + n
        self.due = self.options + most

    def __dealloc__(self):
        PyMem_Free(self.results)


cdef int _most_adjacent(_MapFacts facts) noexcept:
    """The most locations next to one location, for an army or a fleet."""
    cdef int loc, most = 0
    for loc in range(facts.num_army_adj):
        most = max(most, facts.army_off[loc + 1] - facts.army_off[loc])
    for loc in range(facts.num_fleet_adj):
        most = max(most, facts.fleet_off[loc + 1] - facts.fleet_off[loc])
    return most


cdef PerMap _SCRATCH = PerMap()
"""Each map's :class:`_Scratch`."""

cdef bint _busy = False


cdef _Scratch _scratch(object game_map):
    """The kept scratch space for ``game_map``, reset (a fresh one if in use)."""
    cdef _Scratch sc
    if _busy:
        return _Scratch(_MapFacts(game_map))
    found = kept_for(_SCRATCH, game_map)
    if found is None:
        return <_Scratch> _SCRATCH.keep(game_map, _Scratch(_MapFacts(game_map)))
    sc = <_Scratch> found
    sc.resolver.reset()
    return sc


cdef inline void _place_units(_Scratch sc) noexcept:
    """``sc.unit_power``: the power of the unit in each province after the movement, or -1."""
    cdef _Resolver r = sc.resolver
    cdef int *unit_power = sc.unit_power
    cdef int i, p
    for i in range(sc.facts.n):
        unit_power[i] = -1
    for i in range(r.num_units):
        p = r.units[i]
        if r.moved[p]:
            unit_power[r.dst[p]] = r.power[p]
        elif r.dislodger[p] < 0:
            unit_power[p] = r.power[p]


cdef object _apply(_Scratch sc, object pos, dict units, bint any_dislodged):
    """The next position (see _Resolver.run and adjudicator.phases.after_movement)."""
    cdef _Resolver r = sc.resolver
    cdef _MapFacts facts = sc.facts
    cdef int n = facts.n
    cdef int *moved = r.moved
    cdef int *dislodger = r.dislodger
    cdef int *owner = sc.owner
    cdef int i, j, p, loc, count
    cdef const int *adjacent
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
    if any_dislodged:
        _place_units(sc)
        r.mark_contested(sc.contested)
        for i in range(r.num_units):
            p = r.units[i]
            if dislodger[p] < 0:
                continue
            unit = <tuple> r.unit_obj[p]
            loc = r.loc[p]
            if r.utype[p] == ARMY:
                if loc >= facts.num_army_adj:
                    raise ValueError(f"an army at location {loc}, which is not a province")
                adjacent = facts.army_idx + facts.army_off[loc]
                count = facts.army_off[loc + 1] - facts.army_off[loc]
            else:
                if loc >= facts.num_fleet_adj:
                    raise ValueError(f"a fleet at location {loc}, which has no adjacencies")
                adjacent = facts.fleet_idx + facts.fleet_off[loc]
                count = facts.fleet_off[loc + 1] - facts.fleet_off[loc]
            count = retreat_options(
                adjacent,
                count,
                facts.loc_province,
                sc.unit_power,
                sc.contested,
                retreat_barred(dislodger, r.route_first, p),
                sc.options,
            )
            new_dislodged[p] = (
                (<tuple> unit)[0],
                (<tuple> unit)[1],
                (<tuple> unit)[2],
                tuple([sc.options[j] for j in range(count)]),
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
        _place_units(sc)
        for i in range(facts.num_centres):
            p = facts.centres[i]
            owner[p] = owners[p]
            sc.before[p] = owner[p]
        if take_centres(facts.centres, facts.num_centres, sc.unit_power, owner):
            owners = list(owners)
            for i in range(facts.num_centres):
                p = facts.centres[i]
                if owner[p] != sc.before[p]:
                    owners[p] = owner[p]
        season = _PY_WINTER
        if not adjustments_due(
            facts.centres, facts.num_centres, owner, sc.unit_power, n, facts.num_powers, sc.due
        ):
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


def next_position(pos, dict orders):
    """The position after a movement phase, or None when an order needs the Python resolver."""
    global _busy
    cdef dict units = pos.units
    cdef _Scratch sc = _scratch(pos.map)
    cdef bint any_dislodged
    _busy = True
    try:
        if setup(sc.resolver, units, orders):
            return None
        prepare(sc.resolver)
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
        if setup(r, units, orders):
            return None
        prepare(r)
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
