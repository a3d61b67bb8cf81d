# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
# cython: cdivision=True
"""DumbBot's valuation and movement orders, and the thesis's region weights, compiled (Cython).

The same arithmetic as :mod:`search.dumbbot_values` and :class:`search.dumbbot.DumbBot`
on C arrays, drawing from the same random generator in the same order, so a
seed gives the same orders on either path (the pure-Python modules are the
oracle the tests hold this one to).  :mod:`search.compiled_search` decides which path
runs.

* :class:`CMap` — a map's node tables as C arrays (built once per map);
* :class:`CWeights` — one :class:`~search.tables.DumbBotWeights` as C
  integers, with the check that its values cannot overflow 64 bits on a map;
* :func:`values` — a :class:`CValues` (the interface of
  :class:`~search.dumbbot_values.ProvinceValues`) for one power in one phase;
* :func:`movement_orders` — :meth:`DumbBot.movement_orders
  <search.dumbbot.DumbBot.movement_orders>`;
* :func:`region_weights` — :func:`search.mcts.weights._weights` (V5-V8's and
  ``dm``'s weighted candidates);
* :func:`play_out` and :func:`step` — a whole ``dm`` rollout and a step of its
  tree (:class:`search.mcts.domain.DiplomacyDomain`), every phase in C arrays
  (:class:`NodeValues` keeps a tree node's enemy values between steps).

What the powers valued on one board share (its reading, the power sizes, the
base values, the unit counts, each power's proximity levels once computed) is
kept for the next call on the same board (:class:`_Shared`): a movement phase
values seven powers on one position.  A plain ``random.Random`` is shuffled
from C (:func:`_stock_shuffle`, checked at import against the standard
library's ``shuffle``: same draws, same permutation).  Integer division
follows Python's floor rule (:func:`_fdiv`), as the pure-Python code does with
``//``.
"""

import random as _random
from dataclasses import fields

from cpython.mem cimport PyMem_Free, PyMem_Malloc
from libc.string cimport memcmp, memcpy, memset

from adjudicator.orders import HOLD_ORDER as _HOLD_ORDER
from adjudicator.orders import MOVE as _PY_MOVE
from adjudicator.orders import SUPPORT_HOLD as _PY_SUPPORT_HOLD
from adjudicator.orders import SUPPORT_MOVE as _PY_SUPPORT_MOVE

cdef extern from *:
    const char *SOURCE_SHA256  # defined by setup.py

SOURCE_HASH = SOURCE_SHA256.decode("ascii")
"""The SHA-256 of the source this module was built from (see adjudicator.compiled_rules.load)."""

cdef enum:
    DEPTH = 10  # proximity levels (search.tables.PROXIMITY_DEPTH)
    STALLED = 10  # search.dumbbot.STALLED_ROUNDS
    HOLD = 0
    MOVE = 1
    SUPPORT_HOLD = 2
    SUPPORT_MOVE = 3
    WAITING = -1
    SPRING = 0
    SUMMER = 1
    FALL = 2
    AUTUMN = 3
    WINTER = 4
    MAX_OPTIONS = 64
    MAX_POWERS = 64

assert (_PY_MOVE, _PY_SUPPORT_HOLD, _PY_SUPPORT_MOVE) == (MOVE, SUPPORT_HOLD, SUPPORT_MOVE)

cdef double SAFE = 2.0 ** 62
"""Largest magnitude an intermediate value may reach for the 64-bit arithmetic to be exact."""


cdef inline long long _fdiv(long long a, long long b) noexcept nogil:
    """``a // b`` with Python's floor rule, for ``b > 0``."""
    cdef long long q = a / b
    if a % b != 0 and a < 0:
        q -= 1
    return q


cdef int[::1] _ints(object values):
    cdef Py_ssize_t n = len(values)
    cdef int[::1] out = _new_ints(n if n else 1)
    cdef Py_ssize_t i
    for i in range(n):
        out[i] = values[i]
    return out


cdef int _check(object values, Py_ssize_t bound, str what, int lowest=0) except -1:
    """ValueError unless each of ``values`` lies in ``lowest .. bound - 1``."""
    for value in values:
        if not lowest <= value < bound:
            raise ValueError(f"{what}: {value} is not in {lowest}..{bound - 1}")
    return 0


cdef int[::1] _indices(object values, Py_ssize_t bound, str what, int lowest=0):
    """``values`` as C ints, each checked to lie in ``lowest .. bound - 1`` (ValueError if not).

    Every table the compiled code indexes with is built through here (or
    :func:`_check`): an index it has not checked never reaches a C array.
    """
    _check(values, bound, what, lowest)
    return _ints(values)


cdef void _check_length(object values, Py_ssize_t size, str what) except *:
    if len(values) != size:
        raise ValueError(f"{what}: {len(values)} entries, not {size}")


cdef int[::1] _new_ints(Py_ssize_t n):
    import array

    return array.array("i", bytes(4 * n))


cdef unsigned char[::1] _new_bytes(Py_ssize_t n):
    return bytearray(n)


cdef class _Shared
cdef class _Board
cdef class CValues
cdef class _Orders


cdef dict _VALUE_KEYS = {}
_NOT_IN_VALUES = frozenset({"play_alternative", "alternative_difference_modifier"})


cdef class CMap:
    """A map's DumbBot tables as C arrays (see :class:`search.tables.MapTables`).

    Built from the map and its :class:`~search.tables.MapTables`; node ids are
    the tables' own.  Every index is checked as the arrays are built (``ValueError``
    if one is out of range, or a move leads to a place with no node of its unit
    type), so the unchecked C reads below stay inside the arrays.
    """

    cdef readonly object tables
    cdef readonly int num_provinces, num_nodes, num_powers, num_locations, num_centres
    cdef readonly double growth
    cdef int[::1] node_prov, node_type, node_loc, node_of_army, node_of_fleet, loc_prov
    cdef int[::1] sum_off, sum_idx, grp_off, item_off, item_idx
    cdef int[::1] centres, nb_off, nb_idx, touch_off, touch_prov, adj_off, adj_loc
    cdef int[::1] nadj_off, nadj_idx  # each node's neighbouring nodes, in adjacency order
    cdef unsigned char[::1] reach, home
    cdef _Shared shared
    # Scratch space of movement_orders, kept between calls (not while one is running).
    cdef _Board spare_board
    cdef CValues spare_values
    cdef _Orders spare_orders
    cdef bint busy

    def __init__(self, object game_map, object tables):
        cdef int n = tables.num_nodes
        cdef int np = game_map.num_provinces
        cdef int nl = game_map.num_locations
        cdef int i, j
        self.tables = tables
        self.num_provinces = np
        self.num_nodes = n
        self.num_powers = game_map.num_powers
        self.num_locations = nl
        self.num_centres = len(game_map.supply_centres)
        if self.num_powers > MAX_POWERS:
            raise ValueError(f"a map of more than {MAX_POWERS} powers")
        for what, values, size in (
            ("node provinces", tables.node_prov, n),
            ("node types", tables.node_type, n),
            ("node locations", tables.node_loc, n),
            ("node adjacencies", tables.adjacency, n),
            ("node reach", tables.reach, n),
            ("army nodes", tables.node_of[0], nl),
            ("fleet nodes", tables.node_of[1], nl),
            ("location provinces", game_map.loc_province, nl),
            ("neighbours", game_map.neighbours, np),
            ("homes", game_map.homes, self.num_powers),
        ):
            _check_length(values, size, what)
        self.node_prov = _indices(tables.node_prov, np, "node provinces")
        self.node_type = _indices(tables.node_type, 2, "node types")
        self.node_loc = _indices(tables.node_loc, nl, "node locations")
        self.node_of_army = _indices(tables.node_of[0], n, "army nodes", -1)
        self.node_of_fleet = _indices(tables.node_of[1], n, "fleet nodes", -1)
        self.loc_prov = _indices(game_map.loc_province, np, "location provinces")
        for i in range(n):
            if self.node_of(self.node_type[i], self.node_loc[i]) != i:
                raise ValueError(f"node {i} is not the node of its own location")
        # proximity: each node sums itself and one node per bordering province (the best
        # of that province's nodes when it borders several), as search.dumbbot_values does
        sums, sum_off, groups, grp_off, items, item_off = [], [0], [], [0], [], [0]
        adj_locs, adj_off, touch, touch_off = [], [0], [], [0]
        growth = 0
        widest = 0
        for i in range(n):
            by_prov = {}
            for j in tables.adjacency[i]:
                by_prov.setdefault(tables.node_prov[j], []).append(j)
            sums.append(i)
            terms = 1
            for js in by_prov.values():
                terms += 1
                if len(js) == 1:
                    sums.append(js[0])
                else:
                    items.extend(js)
                    item_off.append(len(items))
                    groups.append(len(item_off) - 2)
            growth = max(growth, terms)
            sum_off.append(len(sums))
            grp_off.append(len(groups))
            dests = game_map.adjacent(tables.node_type[i], tables.node_loc[i])
            _check(dests, nl, "destinations")
            for j in dests:
                if self.node_of(self.node_type[i], j) < 0:
                    raise ValueError(f"node {i} moves to location {j}, where it cannot stand")
            adj_locs.extend(dests)
            adj_off.append(len(adj_locs))
            widest = max(widest, len(dests))
            # a unit counts once per location it borders (duplicates kept, as Parang)
            touch.append(tables.node_prov[i])
            touch.extend(game_map.loc_province[d] for d in dests)
            touch_off.append(len(touch))
        if widest + 1 > MAX_OPTIONS:
            raise ValueError(f"a node with {widest} neighbours (at most {MAX_OPTIONS - 1})")
        self.growth = growth / 5.0
        self.sum_idx = _indices(sums, n, "proximity terms")
        self.sum_off = _ints(sum_off)
        self.grp_off = _ints(grp_off)
        self.item_idx = _indices(items, n, "proximity groups")
        self.item_off = _ints(item_off)
        self.adj_loc = _indices(adj_locs, nl, "destinations")
        self.adj_off = _ints(adj_off)
        self.touch_prov = _indices(touch, np, "bordering provinces")
        self.touch_off = _ints(touch_off)
        self.centres = _indices(game_map.supply_centres, np, "supply centres")
        nadj, nadj_off = [], [0]
        for i in range(n):
            nadj.extend(tables.adjacency[i])
            nadj_off.append(len(nadj))
        self.nadj_idx = _indices(nadj, n, "neighbouring nodes")
        self.nadj_off = _ints(nadj_off)
        nbs, nb_off = [], [0]
        for i in range(np):
            nbs.extend(game_map.neighbours[i])
            nb_off.append(len(nbs))
        self.nb_idx = _indices(nbs, np, "neighbours")
        self.nb_off = _ints(nb_off)
        self.reach = _new_bytes(n * np)
        for i in range(n):
            _check(tables.reach[i], np, "reach")
            for j in tables.reach[i]:
                self.reach[i * np + j] = 1
        self.home = _new_bytes(self.num_powers * np)
        for i in range(self.num_powers):
            _check(game_map.homes[i], np, "home centres")
            for j in game_map.homes[i]:
                self.home[i * np + j] = 1
        self.shared = _Shared(self)
        self.spare_board = _Board(self)
        self.spare_values = CValues(self, 0)
        self.spare_orders = _Orders(np)
        self.busy = False

    def forget(self):
        """Drop the board valued last (benchmarks: every call then values from scratch)."""
        self.shared.valid = False

    cdef inline int node_of(self, int utype, int loc) noexcept:
        return self.node_of_army[loc] if utype == 0 else self.node_of_fleet[loc]


cdef class CWeights:
    """One :class:`~search.tables.DumbBotWeights` as C integers.

    ``ValueError`` if a proximity table is not :data:`DEPTH` long.
    :meth:`fits` says whether every value on a map stays exact in 64 bits.
    """

    cdef long long spring_attack, spring_defence, fall_attack, fall_defence
    cdef long long prox[4][DEPTH]  # spring, fall, build, remove
    cdef long long spring_strength, spring_competition, fall_strength, fall_competition
    cdef long long base_unit, home_vacation, home_attack, home_defence
    cdef long long build_defence, remove_defence, play_alternative, modifier
    cdef long long size_a, size_b, size_c
    cdef dict _fits
    cdef readonly tuple values_key

    def __init__(self, object w):
        cdef int k, n
        tables = (w.spring_proximity, w.fall_proximity, w.build_proximity, w.remove_proximity)
        for k in range(4):
            if len(tables[k]) != DEPTH:
                raise ValueError(f"a proximity table has {len(tables[k])} weights, not {DEPTH}")
            for n in range(DEPTH):
                self.prox[k][n] = tables[k][n]
        self.spring_attack = w.spring_attack
        self.spring_defence = w.spring_defence
        self.fall_attack = w.fall_attack
        self.fall_defence = w.fall_defence
        self.spring_strength = w.spring_strength
        self.spring_competition = w.spring_competition
        self.fall_strength = w.fall_strength
        self.fall_competition = w.fall_competition
        self.base_unit = w.base_unit_weight
        self.home_vacation = w.home_vacation_weight
        self.home_attack = w.home_attack_weight
        self.home_defence = w.home_defence_weight
        self.build_defence = w.build_defence
        self.remove_defence = w.remove_defence
        self.play_alternative = w.play_alternative
        self.modifier = w.alternative_difference_modifier
        self.size_a = w.size_square
        self.size_b = w.size_linear
        self.size_c = w.size_constant
        self._fits = {}
        # the constants the values depend on (not the coin's): one interned tuple per set
        key = tuple(getattr(w, f.name) for f in fields(w) if f.name not in _NOT_IN_VALUES)
        self.values_key = _VALUE_KEYS.setdefault(key, key)

    def fits(self, CMap cm):
        """Whether every intermediate value on ``cm``'s map stays below 2**62 in magnitude.

        A bound from the weights and the map alone: the largest power size,
        the base value it can give, the growth of proximity per level, the
        unit counts, and DumbBot's coin arithmetic on the resulting values.
        """
        found = self._fits.get(id(cm))
        if found is None:
            found = self._fits[id(cm)] = self._bound(cm) < SAFE
        return found

    cdef double _bound(self, CMap cm):
        cdef double size = 0, s, base, level, value = 0, units
        cdef int k
        cdef int c, n
        for c in range(cm.num_centres + 1):
            s = abs(<double>self.size_a * c * c + <double>self.size_b * c + self.size_c)
            size = max(size, s)
        home = max(1.0, abs(<double>self.home_attack), abs(<double>self.home_defence))
        weight = max(abs(<double>self.spring_attack), abs(<double>self.spring_defence),
                     abs(<double>self.fall_attack), abs(<double>self.fall_defence))
        base = (size * home + abs(<double>self.home_vacation)) * weight
        base += size * abs(<double>self.base_unit) * weight * cm.num_provinces
        units = 2.0 * cm.num_provinces * (cm.num_locations + 1)  # units touching a province
        for k in range(4):
            level = base
            s = 0
            for n in range(DEPTH):
                s += abs(<double>self.prox[k][n]) * level
                level *= max(1.0, cm.growth)
            value = max(value, s)
        value += units * max(abs(<double>self.spring_strength),
                             abs(<double>self.spring_competition),
                             abs(<double>self.fall_strength), abs(<double>self.fall_competition))
        value += size * home * max(abs(<double>self.build_defence),
                                   abs(<double>self.remove_defence))
        # the coin: (best - second) * modifier, then times play_alternative; wasted-hold scores
        return max(
            value * units,
            2 * value * max(1.0, abs(<double>self.modifier)) * max(
                1.0, abs(<double>self.play_alternative)
            ),
            size * abs(<double>self.base_unit),
        )


cdef class _Board:
    """One position read into C arrays: who stands where, and who owns what.

    ``ValueError`` if the position does not fit the map (a province, power or
    place the map lacks): nothing unchecked is written into the arrays.
    """

    cdef int *upow
    cdef int *unode
    cdef int *dpow
    cdef int *dnode
    cdef int *owner
    cdef bint any_dislodged
    cdef int np

    def __cinit__(self, CMap cm, object pos=None):
        cdef int np = cm.num_provinces
        self.np = np
        self.upow = <int *> PyMem_Malloc(5 * np * sizeof(int))
        if self.upow == NULL:
            raise MemoryError()
        self.unode = self.upow + np
        self.dpow = self.unode + np
        self.dnode = self.dpow + np
        self.owner = self.dnode + np
        if pos is not None:
            self.load(cm, pos)

    cdef int load(self, CMap cm, object pos) except -1:
        """Read ``pos`` into the arrays (a board is read again for each position)."""
        cdef int np = self.np
        cdef int i, p, power, utype, loc
        cdef tuple u
        for i in range(4 * np):
            self.upow[i] = -1
        owners = pos.owners
        _check_length(owners, np, "owners")
        for i in range(np):
            p = owners[i]
            if not -1 <= p < cm.num_powers:
                raise ValueError(f"province {i} owned by power {p}, which the map lacks")
            self.owner[i] = p
        for key, value in (<dict> pos.units).items():
            u = <tuple> value
            p, power, utype, loc = key, u[0], u[1], u[2]
            _check_unit(cm, p, power, utype, loc)
            self.upow[p] = power
            self.unode[p] = cm.node_of(utype, loc)
        dislodged = <dict> pos.dislodged
        self.any_dislodged = len(dislodged) > 0
        for key, value in dislodged.items():
            u = <tuple> value
            p, power, utype, loc = key, u[0], u[1], u[2]
            _check_unit(cm, p, power, utype, loc)
            self.dpow[p] = power
            self.dnode[p] = cm.node_of(utype, loc)
        return 0

    def __dealloc__(self):
        PyMem_Free(self.upow)


cdef inline int _check_unit(CMap cm, int province, int power, int utype, int loc) except -1:
    """``ValueError`` unless a unit of ``power`` and ``utype`` may stand at ``loc`` in
    ``province`` on the map."""
    if not 0 <= province < cm.num_provinces:
        raise ValueError(f"a unit in province {province}, which the map lacks")
    if not 0 <= power < cm.num_powers:
        raise ValueError(f"a unit of power {power}, which the map lacks")
    if not (0 <= utype <= 1 and 0 <= loc < cm.num_locations):
        raise ValueError(f"a unit of type {utype} at location {loc}, which the map lacks")
    if cm.node_of(utype, loc) < 0 or cm.loc_prov[loc] != province:
        raise ValueError(f"a unit of type {utype} at location {loc}, where it cannot stand")
    return 0


cdef class CValues:
    """DumbBot's values of every node for one power in one phase (as ``ProvinceValues``)."""

    cdef readonly object tables
    cdef readonly int power
    cdef int np, nn, nw
    cdef long long *vals
    cdef int *counts
    cdef int *comp
    cdef CMap cm

    def __cinit__(self, CMap cm, int power):
        self.cm = cm
        self.tables = cm.tables
        self.power = power
        self.np = cm.num_provinces
        self.nn = cm.num_nodes
        self.nw = cm.num_powers
        self.vals = <long long *> PyMem_Malloc(
            self.nn * sizeof(long long) + (self.np * self.nw + self.np) * sizeof(int)
        )
        if self.vals == NULL:
            raise MemoryError()
        self.counts = <int *> (self.vals + self.nn)
        self.comp = self.counts + self.np * self.nw

    def __dealloc__(self):
        PyMem_Free(self.vals)

    def node_value(self, int node):
        """The value DumbBot gives ``node`` in this phase."""
        if not 0 <= node < self.nn:
            raise IndexError(f"no node {node} on this map")
        return self.vals[node]

    def value(self, int unit_type, int loc):
        """The value of location ``loc`` for a unit of ``unit_type``."""
        if unit_type not in (0, 1) or not 0 <= loc < self.cm.num_locations:
            raise IndexError(f"no location {loc} for unit type {unit_type} on this map")
        return self.node_value(self.cm.node_of(unit_type, loc))

    def strength(self, int prov):
        """Our units in or next to ``prov`` (a fleet next to two coasts counts twice)."""
        if not 0 <= prov < self.np:
            raise IndexError(f"no province {prov} on this map")
        return self.counts[prov * self.nw + self.power]

    def competition(self, int prov):
        """The most units any one other power has in or next to ``prov``."""
        if not 0 <= prov < self.np:
            raise IndexError(f"no province {prov} on this map")
        return self.comp[prov]


cdef class _Shared:
    """DumbBot's valuation of the last board valued, shared by the calls that read it.

    Seven powers are valued on one position in a row (a movement phase of a
    rollout, the enemies at a tree node, the builds of a winter): the board is
    read, the power sizes, every power's base values and the unit counts near
    each province are computed once, and each power's proximity levels the
    first time that power is asked for (``levels[(power * DEPTH + n) * nodes +
    node]``); asking again for a power finds them here.  The key is the board
    itself (units, dislodged units, owners), the season and the weights'
    valuation constants, compared in full, so a position changed in place is
    never taken for the one valued.
    """

    cdef int *board
    cdef long long *levels
    cdef long long *base
    cdef long long *defence
    cdef int *counts
    cdef unsigned char *ready
    cdef int np, size
    cdef int season
    cdef object key
    cdef bint valid

    def __cinit__(self, CMap cm):
        cdef int nw = cm.num_powers
        self.np = cm.num_provinces
        self.size = 5 * self.np
        self.board = <int *> PyMem_Malloc((self.size + self.np * nw) * sizeof(int))
        self.levels = <long long *> PyMem_Malloc(
            (DEPTH * cm.num_nodes + 2 * self.np) * nw * sizeof(long long)
        )
        self.ready = <unsigned char *> PyMem_Malloc(nw)
        if self.board == NULL or self.levels == NULL or self.ready == NULL:
            raise MemoryError()
        self.counts = self.board + self.size
        self.base = self.levels + DEPTH * cm.num_nodes * nw
        self.defence = self.base + self.np * nw
        self.valid = False

    def __dealloc__(self):
        PyMem_Free(self.board)
        PyMem_Free(self.levels)
        PyMem_Free(self.ready)


cdef _Shared _shared(CMap cm, CWeights w, _Board b, int season, int power):
    """The valuation of ``b`` with ``power``'s levels ready (see :class:`_Shared`)."""
    cdef _Shared sh = cm.shared
    if not (
        sh.valid
        and sh.season == season
        and (sh.key is w.values_key or sh.key == w.values_key)
        and memcmp(sh.board, b.upow, sh.size * sizeof(int)) == 0
    ):
        sh.valid = False
        memcpy(sh.board, b.upow, sh.size * sizeof(int))
        sh.season = season
        sh.key = w.values_key
        _compute_board(cm, w, b, season, sh)
        sh.valid = True
    if not sh.ready[power]:
        _compute_levels(cm, sh, power)
        sh.ready[power] = 1
    return sh


cdef void _compute_board(CMap cm, CWeights w, _Board b, int season, _Shared sh) noexcept:
    """Every power's base and defence values, and the unit counts (see
    search.dumbbot_values.base_values and unit_counts_near)."""
    cdef int np = cm.num_provinces, nw = cm.num_powers
    cdef long long attack_w, defence_w
    if season == FALL or season == AUTUMN:
        attack_w, defence_w = w.fall_attack, w.fall_defence
    else:
        attack_w, defence_w = w.spring_attack, w.spring_defence
    cdef long long sizes[MAX_POWERS]
    cdef long long *base = sh.base  # base[power * np + prov]
    cdef long long *defence = sh.defence  # defence[power * np + prov]
    cdef long long d, a, unit_term
    cdef int i, j, k, q, sc, owner, other
    cdef int *counts = sh.counts
    for q in range(nw):
        sh.ready[q] = 0
        sizes[q] = 0
    for k in range(cm.num_centres):
        q = b.owner[cm.centres[k]]
        if q >= 0:
            sizes[q] += 1
    for q in range(nw):
        sizes[q] = w.size_a * sizes[q] * sizes[q] + w.size_b * sizes[q] + w.size_c
    # an attack value for everyone but the owner, who defends
    for i in range(np * nw):
        base[i] = 0
        defence[i] = 0
    for k in range(cm.num_centres):
        sc = cm.centres[k]
        owner = b.owner[sc]
        if owner < 0:
            a = w.size_c * attack_w
        else:
            a = sizes[owner]
            if cm.home[owner * np + sc]:
                a *= w.home_attack
            a *= attack_w
        for q in range(nw):
            base[q * np + sc] = a
        if owner >= 0:
            d = 0
            for j in range(cm.nb_off[sc], cm.nb_off[sc + 1]):
                i = cm.nb_idx[j]
                other = b.upow[i]
                if other >= 0 and other != owner and sizes[other] > d \
                        and cm.reach[b.unode[i] * np + sc]:
                    d = sizes[other]
                if b.any_dislodged:
                    other = b.dpow[i]
                    if other >= 0 and other != owner and sizes[other] > d \
                            and cm.reach[b.dnode[i] * np + sc]:
                        d = sizes[other]
            if cm.home[owner * np + sc]:
                d = d * w.home_defence if d else -w.home_vacation
            defence[owner * np + sc] = d
            base[owner * np + sc] = d * defence_w
    if w.base_unit:
        for i in range(np):
            if b.upow[i] >= 0:
                unit_term = _fdiv(sizes[b.upow[i]] * w.base_unit, 100) * attack_w
                for q in range(nw):
                    base[q * np + i] += unit_term
    # unit counts near each province (strength and competition; not used in winter)
    for i in range(np * nw):
        counts[i] = 0
    if season != WINTER:
        for i in range(np):
            if b.upow[i] >= 0:
                k = b.unode[i]
                for j in range(cm.touch_off[k], cm.touch_off[k + 1]):
                    counts[cm.touch_prov[j] * nw + b.upow[i]] += 1
            if b.any_dislodged and b.dpow[i] >= 0:
                k = b.dnode[i]
                for j in range(cm.touch_off[k], cm.touch_off[k + 1]):
                    counts[cm.touch_prov[j] * nw + b.dpow[i]] += 1


cdef void _compute_levels(CMap cm, _Shared sh, int power) noexcept:
    """``power``'s proximity levels (see search.dumbbot_values.proximity_levels).

    The tables are read through plain pointers, so the compiler keeps them in
    registers across the loops (most of a search's time is spent here).
    """
    cdef int nn = cm.num_nodes
    cdef long long *base = sh.base + power * cm.num_provinces
    cdef long long *cur = sh.levels + power * DEPTH * nn
    cdef long long *nxt
    cdef long long total, best, x
    cdef int i, j, n, g, t, end
    cdef const int *node_prov = &cm.node_prov[0]
    cdef const int *sum_off = &cm.sum_off[0]
    cdef const int *sum_idx = &cm.sum_idx[0]
    cdef const int *grp_off = &cm.grp_off[0]
    cdef const int *item_off = &cm.item_off[0]
    cdef const int *item_idx = &cm.item_idx[0]
    for i in range(nn):
        cur[i] = base[node_prov[i]]
    for n in range(1, DEPTH):
        nxt = cur + nn
        for i in range(nn):
            total = 0
            for j in range(sum_off[i], sum_off[i + 1]):
                total += cur[sum_idx[j]]
            for g in range(grp_off[i], grp_off[i + 1]):
                t = item_off[g]
                end = item_off[g + 1]
                best = cur[item_idx[t]]
                for j in range(t + 1, end):
                    x = cur[item_idx[j]]
                    if x > best:
                        best = x
                total += best
            nxt[i] = _fdiv(total, 5)
        cur = nxt


cdef void _compute(CMap cm, CWeights w, _Board b, int season, bint removing, CValues out):
    """Fill ``out`` for its power (see search.dumbbot_values.dumbbot_values)."""
    cdef int np = cm.num_provinces, nn = cm.num_nodes, nw = cm.num_powers
    cdef int power = out.power
    cdef long long strength_w = 0, competition_w = 0, winter_defence_w = 0
    cdef long long *prox_w
    cdef bint winter = season == WINTER
    if season == SPRING or season == SUMMER:
        prox_w = &w.prox[0][0]
        strength_w, competition_w = w.spring_strength, w.spring_competition
    elif season == FALL or season == AUTUMN:
        prox_w = &w.prox[1][0]
        strength_w, competition_w = w.fall_strength, w.fall_competition
    else:
        prox_w = &w.prox[3][0] if removing else &w.prox[2][0]
        winter_defence_w = w.remove_defence if removing else w.build_defence
    cdef _Shared sh = _shared(cm, w, b, season, power)
    cdef long long *levels = sh.levels + power * DEPTH * nn
    cdef long long *defence = sh.defence + power * np
    cdef int *counts = sh.counts
    cdef long long v
    cdef int i, k, q, n, best
    memcpy(out.counts, counts, np * nw * sizeof(int))
    for i in range(np):
        best = 0
        for q in range(nw):
            if q != power and counts[i * nw + q] > best:
                best = counts[i * nw + q]
        out.comp[i] = best
    for i in range(nn):
        v = 0
        for n in range(DEPTH):
            v += prox_w[n] * levels[n * nn + i]
        k = cm.node_prov[i]
        if winter:
            if defence[k] > 0:
                v += winter_defence_w * defence[k]
        else:
            v += strength_w * counts[k * nw + power] - competition_w * out.comp[k]
        out.vals[i] = v


def values(CMap cm, CWeights w, object pos, int power, bint removing=False):
    """DumbBot's values for ``power`` in the phase ``pos`` is in (a :class:`CValues`)."""
    if not 0 <= power < cm.num_powers:
        raise ValueError(f"no power {power} on this map")
    out = CValues(cm, power)
    _compute(cm, w, _Board(cm, pos), pos.season, removing, out)
    return out


# --- the thesis's region weights -------------------------------------------------------


def region_weights(
    CMap cm, object pos, int power, tuple level_weights, int foreign_constant
):
    """The thesis's region weight of every node for ``power`` (search.mcts.weights._weights).

    ``level_weights`` are the season's proximity weights.  Floating point as
    Python computes it: the same operations in the same order (a neighbour
    sum added left to right from zero, as ``sum`` does before Python 3.12; the
    caller checks the version), and no fused multiply-add (``-ffp-contract=off``).
    """
    if not 0 <= power < cm.num_powers:
        raise ValueError(f"no power {power} on this map")
    cdef _Board b = _Board(cm, pos)
    cdef int np = cm.num_provinces, nn = cm.num_nodes
    cdef int levels = len(level_weights)
    cdef int centres[MAX_POWERS]
    cdef int i, j, k, q, sc, owner, threats, n
    cdef double s, w
    cdef double *block = <double *> PyMem_Malloc((3 * nn + np) * sizeof(double))
    if block == NULL:
        raise MemoryError()
    cdef double *cur = block
    cdef double *nxt = cur + nn
    cdef double *total = nxt + nn
    cdef double *base = total + nn
    cdef double *swap
    for q in range(cm.num_powers):
        centres[q] = 0
    for k in range(cm.num_centres):
        q = b.owner[cm.centres[k]]
        if q >= 0:
            centres[q] += 1
    for i in range(np):
        base[i] = 0
    for k in range(cm.num_centres):
        sc = cm.centres[k]
        owner = b.owner[sc]
        if owner == power:
            threats = 0
            for j in range(cm.nb_off[sc], cm.nb_off[sc + 1]):
                i = cm.nb_idx[j]
                if b.upow[i] >= 0 and b.upow[i] != power and cm.reach[b.unode[i] * np + sc]:
                    threats += 1
            base[sc] = threats
        else:
            base[sc] = foreign_constant - (centres[owner] if owner >= 0 else 0)
    w = level_weights[0]
    for i in range(nn):
        cur[i] = base[cm.node_prov[i]] * w
        total[i] = cur[i]
    for n in range(1, levels):
        w = level_weights[n]
        for i in range(nn):
            s = 0.0
            for j in range(cm.nadj_off[i], cm.nadj_off[i + 1]):
                s += cur[cm.nadj_idx[j]]
            nxt[i] = (s / 5.0 + cur[i]) * w
        for i in range(nn):
            total[i] = total[i] + nxt[i]
        swap = cur
        cur = nxt
        nxt = swap
    out = [total[i] for i in range(nn)]
    PyMem_Free(block)
    return out


# --- DumbBot's weighted random choice ---------------------------------------------------


cdef int _select(long long *scores, int n, object rand, CWeights w) except -1:
    """search.dumbbot_values.select_index on a C array (``rand`` is the generator's ``random``)."""
    cdef int ranked[MAX_OPTIONS]
    cdef int i, j, x, current, step
    cdef long long best, second, chance, best_chance
    if n == 1:
        return 0
    for i in range(n):  # insertion sort by (score, index)
        x = i
        j = i
        while j > 0 and scores[ranked[j - 1]] > scores[x]:
            ranked[j] = ranked[j - 1]
            j -= 1
        ranked[j] = x
    best = scores[ranked[n - 1]]
    current = n - 1
    step = n - 1
    while step > 0:
        step -= 1
        second = scores[ranked[step]]
        if best:
            best_chance = _fdiv((best - second) * w.modifier, best if best > 0 else -best)
        else:
            best_chance = 0
        chance = w.play_alternative - _fdiv(best_chance * w.play_alternative, 100)
        if <double> rand() * 100 < <double> chance:
            current = step
        else:
            break
    return ranked[current]


# --- movement orders ----------------------------------------------------------------------


cdef class _Orders:
    """The orders given so far, per province, and the order they were given in."""

    cdef int *kind
    cdef int *a
    cdef int *b
    cdef int *seq
    cdef int *moving_into
    cdef unsigned char *waiting  # waiting[p * np + q]: the unit in q waits for the one in p
    cdef int *waited  # the entries of ``waiting`` set, to clear them for the next call
    cdef int num_waited
    cdef int count, np

    def __cinit__(self, int np):
        self.np = np
        self.kind = <int *> PyMem_Malloc((5 * np + np * np) * sizeof(int))
        self.waiting = <unsigned char *> PyMem_Malloc(np * np)
        if self.kind == NULL or self.waiting == NULL:
            raise MemoryError()
        self.a = self.kind + np
        self.b = self.a + np
        self.seq = self.b + np
        self.moving_into = self.seq + np
        self.waited = self.moving_into + np
        memset(self.waiting, 0, np * np)
        self.num_waited = 0
        self.reset()

    cdef void reset(self) noexcept:
        """No order given yet (as built)."""
        cdef int i
        for i in range(self.np):
            self.kind[i] = -1
            self.moving_into[i] = -1
        for i in range(self.num_waited):
            self.waiting[self.waited[i]] = 0
        self.num_waited = 0
        self.count = 0

    cdef inline void wait(self, int p, int q) noexcept:
        """The unit in ``q`` waits for the one in ``p``."""
        cdef int at = p * self.np + q
        if not self.waiting[at]:
            self.waiting[at] = 1
            self.waited[self.num_waited] = at
            self.num_waited += 1

    def __dealloc__(self):
        PyMem_Free(self.kind)
        PyMem_Free(self.waiting)


cdef int _order_unit(
    CMap cm, CWeights w, _Board b, CValues v, _Orders o, int prov, object rand, bint force
) except -2:
    """One unit's order into ``o`` (its kind), or WAITING (see DumbBot._order_unit)."""
    cdef int opts[MAX_OPTIONS]
    cdef long long scores[MAX_OPTIONS]
    cdef int np = cm.num_provinces
    cdef int power = b.upow[prov]
    cdef int node = b.unode[prov]
    cdef int utype = cm.node_type[node]
    cdef int n = 1, j, k, dest, dprov, mover
    cdef bint ok
    opts[0] = cm.node_loc[node]
    for j in range(cm.adj_off[node], cm.adj_off[node + 1]):
        dest = cm.adj_loc[j]
        if not o.waiting[prov * np + cm.loc_prov[dest]]:
            opts[n] = dest
            n += 1
    for j in range(n):
        scores[j] = v.vals[cm.node_of(utype, opts[j])]
    while True:
        k = _select(scores, n, rand, w)
        dest = opts[k]
        dprov = cm.loc_prov[dest]
        if dprov == prov:
            o.kind[prov] = HOLD
            return HOLD
        ok = True
        if b.upow[dprov] == power:
            if o.kind[dprov] >= 0:
                if o.kind[dprov] != MOVE:
                    if v.comp[dprov] > 1:
                        o.kind[prov] = SUPPORT_HOLD
                        o.a[prov] = dprov
                        return SUPPORT_HOLD
                    ok = False
            elif not force:
                o.wait(dprov, prov)
                return WAITING
        mover = o.moving_into[dprov]
        if mover >= 0:
            if v.comp[dprov] > 0:
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
    cdef int *holding = <int *> PyMem_Malloc(5 * np * sizeof(int))
    cdef int *t_unit = holding + np
    cdef int *t_kind = t_unit + np
    cdef int *t_dest = t_kind + np
    cdef long long *t_score = <long long *> PyMem_Malloc(np * sizeof(long long))
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
            t_score[dprov] = v.vals[cm.node_of(cm.node_type[node], o.a[prov])] * v.comp[dprov]
        else:
            t_unit[prov] = prov
            t_kind[prov] = k
            t_score[prov] = v.vals[node] * (v.comp[prov] - 1)
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
    PyMem_Free(holding)
    PyMem_Free(t_score)


cdef int _stock_shuffle(list items, object rng) except -1:
    """``random.Random.shuffle`` as the standard library writes it, drawing through
    ``getrandbits`` from C (checked against the running Python at import)."""
    cdef Py_ssize_t i, n = len(items)
    cdef unsigned long long r, m
    cdef int k
    getrandbits = rng.getrandbits
    for i in range(n - 1, 0, -1):
        m = i + 1
        k = 0
        while (m >> k) != 0:
            k += 1
        r = getrandbits(k)
        while r >= m:
            r = getrandbits(k)
        items[i], items[r] = items[r], items[i]
    return 0


def _same_as_the_standard_shuffle():
    """Whether :func:`_stock_shuffle` draws and permutes exactly as ``Random.shuffle`` does."""
    for seed in range(20):
        for n in range(13):
            mine, theirs = _random.Random(seed), _random.Random(seed)
            a, b = list(range(n)), list(range(n))
            _stock_shuffle(a, mine)
            theirs.shuffle(b)
            if a != b or mine.getstate() != theirs.getstate():
                return False
    return True


STOCK_SHUFFLE = _same_as_the_standard_shuffle()
"""Whether shuffles of a plain ``random.Random`` run from C (else through its method)."""


cdef int _shuffle(list items, object rng) except -1:
    """Shuffle as ``rng.shuffle(items)`` would, from C when ``rng`` is a plain ``Random``."""
    if STOCK_SHUFFLE and type(rng) is _random.Random:
        return _stock_shuffle(items, rng)
    rng.shuffle(items)
    return 0


def movement_orders(CMap cm, CWeights w, object pos, int power, object rng):
    """DumbBot's orders for every unit of ``power`` (see DumbBot.movement_orders)."""
    if not 0 <= power < cm.num_powers:
        raise ValueError(f"no power {power} on this map")
    cdef bint spare = not cm.busy
    if not spare:  # a call already running (another thread): scratch space of its own
        return _movement_orders(cm, w, pos, power, rng, _Board(cm), CValues(cm, power), _Orders(
            cm.num_provinces
        ))
    cm.busy = True
    try:
        return _movement_orders(
            cm, w, pos, power, rng, cm.spare_board, cm.spare_values, cm.spare_orders
        )
    finally:
        cm.busy = False


cdef dict _movement_orders(
    CMap cm, CWeights w, object pos, int power, object rng, _Board b, CValues v, _Orders o
):
    """movement_orders on the scratch space given (any contents; each is reset here)."""
    b.load(cm, pos)
    cdef int i, prov, r
    orders = {}
    if not _choose_moves(cm, w, b, pos.season, power, rng, v, o):
        return orders
    for i in range(o.count):
        prov = o.seq[i]
        r = o.kind[prov]
        if r == HOLD:
            orders[prov] = _HOLD_ORDER
        elif r == MOVE:
            orders[prov] = (MOVE, o.a[prov])
        elif r == SUPPORT_HOLD:
            orders[prov] = (SUPPORT_HOLD, o.a[prov])
        else:
            orders[prov] = (SUPPORT_MOVE, o.a[prov], o.b[prov])
    return orders


cdef int _choose_moves(
    CMap cm,
    CWeights w,
    _Board b,
    int season,
    int power,
    object rng,
    CValues v,
    _Orders o,
    bint valued=False,
) except -1:
    """DumbBot's orders for ``power``'s units on ``b`` into ``o`` (reset here); how many.

    ``valued``: ``v`` already holds ``power``'s values on ``b``.
    """
    v.power = power
    o.reset()
    cdef int np = cm.num_provinces
    cdef int i, prov, r, count, waiting
    cdef int stalled = 0
    cdef bint force
    ours = [i for i in range(np) if b.upow[i] == power]
    if not ours:
        return 0
    if not valued:
        _compute(cm, w, b, season, False, v)
    rand = rng.random
    while ours:
        _shuffle(ours, rng)
        unordered = []
        force = stalled >= STALLED
        count = len(ours)
        waiting = 0
        for item in ours:
            prov = item
            r = _order_unit(cm, w, b, v, o, prov, rand, force)
            force = False
            if r == WAITING:
                unordered.append(item)
                waiting += 1
            else:
                o.seq[o.count] = prov
                o.count += 1
                if r == MOVE:
                    o.moving_into[cm.loc_prov[o.a[prov]]] = prov
        stalled = stalled + 1 if waiting == count else 0
        ours = unordered
    _replace_wasted_holds(cm, b, v, o)
    return o.count


# --- a whole rollout, every power played by one DumbBot ------------------------------------

from adjudicator._fastmove cimport _MapFacts, _Resolver, resolve_arrays

cdef class NodeValues

from adjudicator.position import Position as _Position

_new_position = _Position.__new__


cdef class _Game:
    """A game as a rollout plays it on in C (the board, the phase, the retreats), and the
    scratch space of its phases (see :func:`play_out`)."""

    cdef _Board b
    cdef CValues v
    cdef _Orders o
    cdef _Resolver r
    cdef int season, year
    cdef int *ropt_n  # the retreats of the unit dislodged from p: ropt[p * MAX_OPTIONS + i]
    cdef int *ropt
    cdef int *units  # the provinces with a unit, in province order (num_units of them)
    cdef int num_units
    cdef int *kind  # each unit's order this phase, with the order tuple's arguments a and b
    cdef int *a
    cdef int *b_arg
    cdef int *contested  # after a movement: no retreat there (_Resolver.mark_contested)
    cdef int *arrival  # per unit: the node it moves to; per dislodged unit: where it retreats
    cdef int *pn_off  # each province's nodes: pn_idx[pn_off[p]:pn_off[p + 1]]
    cdef int *pn_idx
    cdef unsigned char *taken
    cdef bint busy

    def __cinit__(self, CMap cm, object game_map):
        cdef int np = cm.num_provinces
        cdef int i, k
        self.b = _Board(cm)
        self.v = CValues(cm, 0)
        self.o = _Orders(np)
        self.r = _Resolver(_MapFacts(game_map))
        if self.r.n != np or self.r.facts.num_locations != cm.num_locations:
            raise ValueError("the resolver's map is not the tables' map")
        self.ropt_n = <int *> PyMem_Malloc(
            ((8 + MAX_OPTIONS) * np + 1 + cm.num_nodes) * sizeof(int)
        )
        self.taken = <unsigned char *> PyMem_Malloc(np)
        if self.ropt_n == NULL or self.taken == NULL:
            raise MemoryError()
        self.ropt = self.ropt_n + np
        self.units = self.ropt + MAX_OPTIONS * np
        self.kind = self.units + np
        self.a = self.kind + np
        self.b_arg = self.a + np
        self.contested = self.b_arg + np
        self.arrival = self.contested + np
        self.pn_off = self.arrival + np
        self.pn_idx = self.pn_off + np + 1
        prov_nodes = cm.tables.prov_nodes
        _check_length(prov_nodes, np, "province nodes")
        _check_length([n for nodes in prov_nodes for n in nodes], cm.num_nodes, "province nodes")
        k = 0
        for i in range(np):
            _check(prov_nodes[i], cm.num_nodes, "province nodes")
            self.pn_off[i] = k
            for node in prov_nodes[i]:
                self.pn_idx[k] = node
                k += 1
        self.pn_off[np] = k
        self.busy = False

    def __dealloc__(self):
        PyMem_Free(self.ropt_n)
        PyMem_Free(self.taken)

    cdef int load(self, CMap cm, object pos) except -1:
        """Read ``pos`` (any phase) into the arrays."""
        cdef _Board b = self.b
        cdef int p, n, node, loc
        b.load(cm, pos)
        self.season = pos.season
        self.year = pos.year
        for key, value in (<dict> pos.dislodged).items():
            p = key
            options = (<tuple> value)[3]
            n = len(options)
            if n >= MAX_OPTIONS:
                raise ValueError(f"{n} retreats of one unit (at most {MAX_OPTIONS - 1})")
            node = b.dnode[p]
            for i in range(n):
                loc = options[i]
                if not 0 <= loc < cm.num_locations or cm.node_of(cm.node_type[node], loc) < 0:
                    raise ValueError(f"a retreat to location {loc}, where the unit cannot stand")
                self.ropt[p * MAX_OPTIONS + i] = loc
            self.ropt_n[p] = n
        return 0

    cdef object position(self, CMap cm, object game_map):
        """The game as a :class:`~adjudicator.position.Position` (units in province order)."""
        cdef _Board b = self.b
        cdef int p, node, i
        units = {}
        dislodged = {}
        for p in range(cm.num_provinces):
            if b.upow[p] >= 0:
                node = b.unode[p]
                units[p] = (b.upow[p], cm.node_type[node], cm.node_loc[node])
            if b.dpow[p] >= 0:
                node = b.dnode[p]
                dislodged[p] = (
                    b.dpow[p],
                    cm.node_type[node],
                    cm.node_loc[node],
                    tuple([self.ropt[p * MAX_OPTIONS + i] for i in range(self.ropt_n[p])]),
                )
        pos = _new_position(_Position)
        pos.map = game_map
        pos.season = self.season
        pos.year = self.year
        pos.units = units
        pos.owners = [b.owner[p] for p in range(cm.num_provinces)]
        pos.dislodged = dislodged
        return pos


cdef dict _GAMES = {}  # id(CMap): (the CMap, its _Game)
cdef int _MAPS_KEPT = 64  # the most maps whose _Game is kept (as search.compiled_search's)


cdef _Game _game(CMap cm, object game_map):
    """The kept game arrays of ``cm``'s map, ``game_map`` (fresh ones while those are in use)."""
    found = _GAMES.get(id(cm))
    cdef _Game g
    if (
        found is None
        or found[0] is not cm
        or (<_Game> found[1]).r.facts.game_map is not game_map
        or (<_Game> found[1]).busy
    ):
        g = _Game(cm, game_map)
        if found is None or not (<_Game> found[1]).busy:
            if len(_GAMES) >= _MAPS_KEPT:
                _GAMES.clear()
            _GAMES[id(cm)] = (cm, g)
        return g
    return <_Game> found[1]


cdef inline bint _ended_by(_Game g, int final_year) noexcept:
    """Position.ended_by: winter of ``final_year`` reached or passed."""
    return g.year > final_year or (g.year == final_year and g.season == WINTER)


cdef int _solo_winner(CMap cm, _Board b, int win_centres) noexcept:
    """adjudicator.phases.solo_winner (without the previous counts)."""
    cdef int counts[MAX_POWERS]
    cdef int q, k, best = 0, ties = 0, winner = -1
    for q in range(cm.num_powers):
        counts[q] = 0
    for k in range(cm.num_centres):
        q = b.owner[cm.centres[k]]
        if q >= 0:
            counts[q] += 1
    for q in range(cm.num_powers):
        if counts[q] > best:
            best, ties, winner = counts[q], 1, q
        elif counts[q] == best:
            ties += 1
    if best < win_centres or ties != 1:
        return -1
    return winner


cdef bint _terminal(CMap cm, _Game g, int us, int final_year, int win_centres) noexcept:
    """search.mcts.domain.DiplomacyDomain.terminal."""
    cdef _Board b = g.b
    cdef int p
    if _ended_by(g, final_year):
        return True
    if g.season == SPRING and _solo_winner(cm, b, win_centres) >= 0:
        return True
    for p in range(cm.num_provinces):
        if b.upow[p] == us:
            return False
    for p in range(cm.num_provinces):
        if b.owner[p] == us:
            return False
    return True


cdef bint _adjustments_due(CMap cm, _Board b) noexcept:
    """Whether some power's centres and units (dislodged ones too) differ."""
    cdef int diff[MAX_POWERS]
    cdef int q, k, p
    for q in range(cm.num_powers):
        diff[q] = 0
    for k in range(cm.num_centres):
        q = b.owner[cm.centres[k]]
        if q >= 0:
            diff[q] += 1
    for p in range(cm.num_provinces):
        if b.upow[p] >= 0:
            diff[b.upow[p]] -= 1
        if b.dpow[p] >= 0:
            diff[b.dpow[p]] -= 1
    for q in range(cm.num_powers):
        if diff[q]:
            return True
    return False


cdef void _enter_winter(CMap cm, _Game g) noexcept:
    """adjudicator.phases.enter_winter: centre ownership, then winter or the next spring."""
    cdef _Board b = g.b
    cdef int k, sc
    for k in range(cm.num_centres):
        sc = cm.centres[k]
        if b.upow[sc] >= 0:
            b.owner[sc] = b.upow[sc]
    g.season = WINTER
    if not _adjustments_due(cm, b):
        g.season = SPRING
        g.year += 1


cdef int _play_movement(
    CMap cm, CWeights w, _Game g, object rng, int given, object action, NodeValues known
) except -1:
    """search.simulate.play_phase in a movement phase, then next_position (no convoys).

    Every power present but ``given`` plays DumbBot's orders, in power order;
    then ``action`` (``(province, order)`` pairs checked by :func:`_simple_orders`,
    or None) is laid over them, as ``dict.update`` would.  ``known`` (or None)
    keeps the powers' values on this board from one call to the next.
    """
    cdef _Board b = g.b
    cdef _Orders o = g.o
    cdef _Resolver r = g.r
    cdef int np = cm.num_provinces
    cdef unsigned char present[MAX_POWERS]
    cdef int i, p, q, s, node, dest, n_moving = 0
    cdef int *moving
    cdef bint any_dislodged
    for q in range(cm.num_powers):
        present[q] = 0
    g.num_units = 0
    for p in range(np):
        if b.upow[p] >= 0:
            g.units[g.num_units] = p
            g.num_units += 1
            present[b.upow[p]] = 1
            g.kind[p] = HOLD
    for q in range(cm.num_powers):  # in power order, as the set of powers present iterates
        if present[q] and q != given:
            if known is None:
                _choose_moves(cm, w, b, g.season, q, rng, g.v, o)
            elif known.ready[q]:
                memcpy(g.v.vals, known.vals + q * cm.num_nodes, cm.num_nodes * sizeof(long long))
                memcpy(g.v.comp, known.comp + q * np, np * sizeof(int))
                _choose_moves(cm, w, b, g.season, q, rng, g.v, o, True)
            else:
                _choose_moves(cm, w, b, g.season, q, rng, g.v, o)
                memcpy(known.vals + q * cm.num_nodes, g.v.vals, cm.num_nodes * sizeof(long long))
                memcpy(known.comp + q * np, g.v.comp, np * sizeof(int))
                known.ready[q] = 1
            for s in range(o.count):
                p = o.seq[s]
                g.kind[p] = o.kind[p]
                g.a[p] = o.a[p]
                g.b_arg[p] = o.b[p]
    if action is not None:
        for key, value in action:
            p = key
            if b.upow[p] >= 0:
                order = <tuple> value
                g.kind[p] = order[0]
                if g.kind[p] != HOLD:
                    g.a[p] = order[1]
                if g.kind[p] == SUPPORT_MOVE:
                    g.b_arg[p] = order[2]
    any_dislodged = resolve_arrays(g.r, g.num_units, g.units, b.upow, g.kind, g.a, g.b_arg)
    # the units that moved or were dislodged leave; then the movers arrive
    moving = g.units  # reused: the movers overwrite the units' list from its start
    for i in range(g.num_units):
        p = g.units[i]
        node = b.unode[p]
        if r.moved[p]:
            g.arrival[p] = cm.node_of(cm.node_type[node], g.a[p])
            moving[n_moving] = p
            n_moving += 1
        elif r.dislodger[p] >= 0:
            b.dpow[p] = b.upow[p]
            b.dnode[p] = node
            b.upow[p] = -1
            b.unode[p] = -1
    for i in range(n_moving):
        p = moving[i]
        g.kind[p] = b.upow[p]  # the mover's power, kept while its province is emptied
        b.upow[p] = -1
        b.unode[p] = -1
    for i in range(n_moving):
        p = moving[i]
        dest = cm.loc_prov[g.a[p]]
        b.upow[dest] = g.kind[p]
        b.unode[dest] = g.arrival[p]
    b.any_dislodged = any_dislodged
    if any_dislodged:
        r.mark_contested(g.contested)
        for p in range(np):
            if b.dpow[p] < 0:
                continue
            node = b.dnode[p]
            s = 0
            for i in range(cm.adj_off[node], cm.adj_off[node + 1]):
                dest = cm.adj_loc[i]
                q = cm.loc_prov[dest]
                if b.upow[q] < 0 and not g.contested[q] and q != r.dislodger[p]:
                    g.ropt[p * MAX_OPTIONS + s] = dest
                    s += 1
            g.ropt_n[p] = s
        g.season += 1
    elif g.season == SPRING:
        g.season = FALL
    else:
        _enter_winter(cm, g)
    return 0


cdef int _play_retreats(CMap cm, CWeights w, _Game g, object rng, int heuristic) except -1:
    """search.simulate.play_phase in a retreat phase: DumbBot.retreat_orders for each power
    in turn (search.heuristics.random_retreats for ``heuristic``, if a power), then
    adjudicator.retreats.adjudicate_retreats (a retreat to a province another unit
    retreats to bounces: both disband)."""
    cdef _Board b = g.b
    cdef CValues v = g.v
    cdef int np = cm.num_provinces
    cdef int choices[MAX_OPTIONS]
    cdef long long scores[MAX_OPTIONS]
    cdef int p, q, n, k, i, j, utype, target
    cdef int *arrivals = g.kind  # per province: how many units retreat there
    for p in range(np):
        g.arrival[p] = -1
        arrivals[p] = 0
    for q in range(cm.num_powers):
        ours = [p for p in range(np) if b.dpow[p] == q]
        if not ours:
            continue
        _shuffle(ours, rng)
        memset(g.taken, 0, np)
        if q == heuristic:
            for item in ours:
                p = item
                free = [
                    g.ropt[p * MAX_OPTIONS + i]
                    for i in range(g.ropt_n[p])
                    if not g.taken[cm.loc_prov[g.ropt[p * MAX_OPTIONS + i]]]
                ]
                if free:
                    g.arrival[p] = rng.choice(free)
                    target = cm.loc_prov[g.arrival[p]]
                    g.taken[target] = 1
                    arrivals[target] += 1
            continue
        v.power = q
        _compute(cm, w, b, g.season, False, v)
        rand = rng.random
        for item in ours:
            p = item
            utype = cm.node_type[b.dnode[p]]
            n = g.ropt_n[p]
            for i in range(n):
                choices[i] = g.ropt[p * MAX_OPTIONS + i]
                scores[i] = v.vals[cm.node_of(utype, choices[i])]
            while n:
                k = _select(scores, n, rand, w)
                target = cm.loc_prov[choices[k]]
                if g.taken[target]:
                    for j in range(k, n - 1):
                        choices[j] = choices[j + 1]
                        scores[j] = scores[j + 1]
                    n -= 1
                    continue
                g.taken[target] = 1
                g.arrival[p] = choices[k]
                arrivals[target] += 1
                break
    for p in range(np):
        if b.dpow[p] < 0:
            continue
        if g.arrival[p] >= 0:
            target = cm.loc_prov[g.arrival[p]]
            if arrivals[target] == 1:
                b.upow[target] = b.dpow[p]
                b.unode[target] = cm.node_of(cm.node_type[b.dnode[p]], g.arrival[p])
        b.dpow[p] = -1
        b.dnode[p] = -1
    b.any_dislodged = False
    if g.season == SUMMER:
        g.season = FALL
    else:
        _enter_winter(cm, g)
    return 0


cdef int _best_adjustments(CMap cm, CWeights w, _Game g, int power, int due) except -1:
    """search.heuristics.best_builds (``due`` > 0) or worst_removals (``due`` < 0) for
    ``power`` into ``g.arrival`` (as :func:`_play_adjustments` marks changes)."""
    cdef _Board b = g.b
    cdef CValues v = g.v
    cdef int np = cm.num_provinces
    cdef int ranked[MAX_OPTIONS]
    cdef long long keys[MAX_OPTIONS]
    cdef int p, i, j, n = 0, made = 0, x
    cdef long long key
    v.power = power
    _compute(cm, w, b, WINTER, due < 0, v)
    for p in range(np):  # insertion sort of the build nodes by (-value, node), or the
        # units by (value, province): both lists come in ascending node or province order
        if due > 0:
            if not (cm.home[power * np + p] and b.owner[p] == power and b.upow[p] < 0):
                continue
            for j in range(g.pn_off[p], g.pn_off[p + 1]):
                if n == MAX_OPTIONS:
                    raise ValueError(f"more than {MAX_OPTIONS} places to build")
                x = g.pn_idx[j]
                key = -v.vals[x]
                i = n
                while i > 0 and (keys[i - 1] > key or keys[i - 1] == key and ranked[i - 1] > x):
                    keys[i] = keys[i - 1]
                    ranked[i] = ranked[i - 1]
                    i -= 1
                keys[i] = key
                ranked[i] = x
                n += 1
        elif b.upow[p] == power:
            if n == MAX_OPTIONS:
                raise ValueError(f"more than {MAX_OPTIONS} units to remove from")
            key = v.vals[b.unode[p]]
            i = n
            while i > 0 and (keys[i - 1] > key or keys[i - 1] == key and ranked[i - 1] > p):
                keys[i] = keys[i - 1]
                ranked[i] = ranked[i - 1]
                i -= 1
            keys[i] = key
            ranked[i] = p
            n += 1
    if due > 0:
        for p in range(np):
            g.taken[p] = 0
        for i in range(n):
            if made == due:
                break
            p = cm.node_prov[ranked[i]]
            if not g.taken[p]:
                g.taken[p] = 1
                g.arrival[p] = ranked[i]
                made += 1
    else:
        for i in range(min(n, -due)):
            g.arrival[ranked[i]] = -2
    return 0


cdef int _play_adjustments(
    CMap cm, CWeights w, _Game g, object rng, int heuristic, CWeights wh
) except -1:
    """search.simulate.play_phase in winter: DumbBot's builds (search.dumbbot.dumbbot_builds)
    and removals (dumbbot_removals) for each power in turn (search.heuristics.best_builds
    and worst_removals with the weights ``wh`` for ``heuristic``, if a power), all chosen on
    the winter's board, then adjudicator.adjustments.adjudicate_adjustments.

    Both build at most one unit per province, only in their owned, empty home centres, no
    more than are due, and remove exactly as many of their own units as are due: every
    order succeeds, and civil disorder never has a unit to remove.
    """
    cdef _Board b = g.b
    cdef CValues v = g.v
    cdef int np = cm.num_provinces
    cdef int due[MAX_POWERS]
    cdef int options[MAX_OPTIONS]
    cdef long long scores[MAX_OPTIONS]
    cdef int p, q, k, n, j, node, made, count
    cdef int *change = g.arrival  # per province: the node built there, or -2 for a removal
    cdef object rand = rng.random
    for q in range(cm.num_powers):
        due[q] = 0
    for k in range(cm.num_centres):
        q = b.owner[cm.centres[k]]
        if q >= 0:
            due[q] += 1
    for p in range(np):
        change[p] = -1
        if b.upow[p] >= 0:
            due[b.upow[p]] -= 1
    for q in range(cm.num_powers):
        if due[q] == 0:
            continue
        if q == heuristic:
            _best_adjustments(cm, wh, g, q, due[q])
            continue
        v.power = q
        n = 0
        made = 0
        if due[q] > 0:
            count = due[q]
            _compute(cm, w, b, WINTER, False, v)
            for p in range(np):  # build_nodes: the nodes of the owned, empty home centres
                if cm.home[q * np + p] and b.owner[p] == q and b.upow[p] < 0:
                    for j in range(g.pn_off[p], g.pn_off[p + 1]):
                        if n == MAX_OPTIONS:
                            raise ValueError(f"more than {MAX_OPTIONS} places to build")
                        options[n] = g.pn_idx[j]
                        scores[n] = v.vals[options[n]]
                        n += 1
            memset(g.taken, 0, np)
            while n and made < count:
                k = _select(scores, n, rand, w)
                node = options[k]
                for j in range(k, n - 1):
                    options[j] = options[j + 1]
                    scores[j] = scores[j + 1]
                n -= 1
                p = cm.node_prov[node]
                if not g.taken[p]:
                    g.taken[p] = 1
                    change[p] = node
                    made += 1
        else:
            count = -due[q]
            _compute(cm, w, b, WINTER, True, v)
            for p in range(np):  # units_of: in province order
                if b.upow[p] == q:
                    if n == MAX_OPTIONS:
                        raise ValueError(f"more than {MAX_OPTIONS} units to remove from")
                    options[n] = p
                    scores[n] = -v.vals[b.unode[p]]
                    n += 1
            while n and made < count:
                k = _select(scores, n, rand, w)
                change[options[k]] = -2
                for j in range(k, n - 1):
                    options[j] = options[j + 1]
                    scores[j] = scores[j + 1]
                n -= 1
                made += 1
    for p in range(np):
        if change[p] == -2:
            b.upow[p] = -1
            b.unode[p] = -1
        elif change[p] >= 0:
            b.upow[p] = b.owner[p]  # the builder
            b.unode[p] = change[p]
    g.season = SPRING
    g.year += 1
    return 0


def play_out(
    CMap cm,
    CWeights w,
    object pos,
    object rng,
    int us,
    int horizon,
    int final_year,
    int win_centres,
):
    """search.mcts.domain.DiplomacyDomain.play_out when every power's rollout player is the
    DumbBot of ``w``: the position where the rollout ends.

    Phase by phase from ``pos`` until winter of ``horizon`` or the end of the game (winter
    of ``final_year``, a solo in spring, ``us`` without units and centres), as
    search.simulate.play_phase plays each phase, on C arrays, drawing from ``rng`` the same
    numbers in the same order.  The position returned has its units in province order.
    """
    if not 0 <= us < cm.num_powers:
        raise ValueError(f"no power {us} on this map")
    cdef _Game g = _game(cm, pos.map)
    g.busy = True
    try:
        g.load(cm, pos)
        while not (
            _ended_by(g, horizon) or _terminal(cm, g, us, final_year, win_centres)
        ):
            if g.season == SPRING or g.season == FALL:
                _play_movement(cm, w, g, rng, -1, None, None)
            elif g.season == SUMMER or g.season == AUTUMN:
                _play_retreats(cm, w, g, rng, -1)
            else:
                _play_adjustments(cm, w, g, rng, -1, None)
        return g.position(cm, pos.map)
    finally:
        g.busy = False


cdef class NodeValues:
    """The enemies' DumbBot values on one board, kept between the steps from it.

    A tree node's enemies are asked for orders at every descent, on the same
    board: their values (and competition counts, all DumbBot's orders read)
    are the same each time, so :func:`step` computes each power's once.
    """

    cdef long long *vals  # vals[power * nodes + node]
    cdef int *comp  # comp[power * provinces + province]
    cdef unsigned char *ready

    def __cinit__(self, CMap cm):
        cdef int nw = cm.num_powers
        self.vals = <long long *> PyMem_Malloc(nw * cm.num_nodes * sizeof(long long))
        self.comp = <int *> PyMem_Malloc(nw * cm.num_provinces * sizeof(int))
        self.ready = <unsigned char *> PyMem_Malloc(nw)
        if self.vals == NULL or self.comp == NULL or self.ready == NULL:
            raise MemoryError()
        memset(self.ready, 0, nw)

    def __dealloc__(self):
        PyMem_Free(self.vals)
        PyMem_Free(self.comp)
        PyMem_Free(self.ready)


cdef bint _simple_orders(CMap cm, _Board b, object orders) except -1:
    """Whether every order of ``orders`` (``(province, order)`` pairs) for a unit is one the
    compiled phases play: a hold,
    a move to a place the unit can stand, a support of a hold or of a move (no coast named)
    between provinces of the map; no convoy."""
    cdef int p, k, node, loc
    for key, value in orders:
        p = key
        if not 0 <= p < cm.num_provinces:
            return False
        if b.upow[p] < 0:
            continue
        if type(value) is not tuple:
            return False
        order = <tuple> value
        k = order[0]
        if k == HOLD:
            ok = len(order) == 1
        elif k == MOVE:
            loc = order[1]
            node = b.unode[p]
            ok = len(order) == 2 and 0 <= loc < cm.num_locations and cm.node_of(
                cm.node_type[node], loc
            ) >= 0
        elif k == SUPPORT_HOLD:
            ok = len(order) == 2 and 0 <= order[1] < cm.num_provinces
        elif k == SUPPORT_MOVE:
            ok = len(order) == 3 and 0 <= order[1] < cm.num_provinces and 0 <= order[
                2
            ] < cm.num_provinces
        else:
            ok = False
        if not ok:
            return False
    return True


def step(
    CMap cm,
    CWeights w,
    CWeights wus,
    object pos,
    object action,
    object rng,
    int us,
    int final_year,
    int win_centres,
    NodeValues known=None,
):
    """search.mcts.domain.DiplomacyDomain.step when the enemies' model and their retreat
    and adjustment player are the DumbBot of ``w``, and ours a plain
    search.heuristics.PhaseHeuristics with the weights ``wus``: the next position, or None.

    In the movement phase ``pos``, ``us`` plays ``action`` (``(province, order)``
    pairs, as search.mcts.order_sets.Action) and every other power present
    DumbBot's orders (asked in power order, as the enemy model asks); then the
    retreat and adjustment phases are played until a movement phase or the end
    of the game for ``us`` in ``final_year``.  None, before any draw, when
    ``action`` has an order the compiled phases do not play (a convoy, a support
    naming a coast).  ``known``, if given, is ``pos``'s :class:`NodeValues` for
    the DumbBot of ``w`` (filled as the powers are valued).
    """
    if not 0 <= us < cm.num_powers:
        raise ValueError(f"no power {us} on this map")
    cdef _Game g = _game(cm, pos.map)
    g.busy = True
    try:
        g.load(cm, pos)
        if not (g.season == SPRING or g.season == FALL):
            raise ValueError("step starts from a movement phase")
        if not _simple_orders(cm, g.b, action):
            return None
        _play_movement(cm, w, g, rng, us, action, known)
        while not (
            g.season == SPRING
            or g.season == FALL
            or _terminal(cm, g, us, final_year, win_centres)
        ):
            if g.season == SUMMER or g.season == AUTUMN:
                _play_retreats(cm, w, g, rng, us)
            else:
                _play_adjustments(cm, w, g, rng, us, wus)
        return g.position(cm, pos.map)
    finally:
        g.busy = False
