# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
# cython: cdivision=True
"""DumbBot's movement orders, the learned policy, the thesis's region weights, the ``dm``
rollout and the steps of its tree, compiled (Cython).

The same arithmetic as :class:`search.dumbbot.DumbBot` (and the modules named below) on
C arrays, drawing from the same random generator in the same order, so a seed gives the
same orders on either path (the pure-Python modules are the oracle the tests hold this one
to).  :mod:`search.compiled_search` decides which path runs.  Built on three rooms, each
cimported through its ``.pxd``:

* ``search._maptables`` — :class:`CMap` (a map's node tables as C arrays), :class:`CWeights`
  (one :class:`~search.tables.DumbBotWeights` as C integers), the order kinds and seasons,
  and :class:`PerMap`, the one cache of what is kept per map (here: each map's scratch
  space of movement orders and each map's rollout arrays);
* ``search._draws`` — a plain ``random.Random`` drawn from in C (:data:`C_DRAWS`);
* ``search._valuation`` — DumbBot's valuation: :func:`values` (a :class:`CValues`, the
  interface of :class:`~search.dumbbot_values.ProvinceValues`), read here through its
  inline ``_value`` and ``_competition``; :func:`forget`.

Its Python names stay offered here.  This module's own:

* :func:`movement_orders` — :meth:`DumbBot.movement_orders
  <search.dumbbot.DumbBot.movement_orders>`;
* :func:`region_weights` — :func:`search.mcts.weights._weights` (V5-V8's and
  ``dm``'s weighted candidates);
* :class:`CPolicy` and :func:`learned_orders` (:func:`learned_orders_board` from a
  :class:`Board`) — a learned order model's
  :meth:`LearnedPolicy.movement_orders <search.orderpolicy.LearnedPolicy.movement_orders>`
  (also the enemies' player of :func:`step` and :func:`step_board`, given one);
* :func:`play_out` and :func:`step` — a whole ``dm`` rollout and a step of its
  tree (:class:`search.mcts.domain.DiplomacyDomain`), every phase in C arrays
  (:class:`NodeValues` keeps a tree node's enemy values between steps); the rules of
  movement (resolution by ``adjudicator._fastmove``), retreats and winter are applied
  here on the rollout's arrays;
* :class:`Board` — a tree node's position kept in C (:func:`board`), stepped
  (:func:`step_board`), rolled out (:func:`play_out_reward_board`) and ordered from
  (:func:`movement_orders_board`) without a Position between.
"""

import random as _random

from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize
from cpython.mem cimport PyMem_Free, PyMem_Malloc
from cpython.ref cimport PyObject
from libc.limits cimport INT_MAX, LLONG_MIN
from libc.math cimport exp
from libc.string cimport memcmp, memcpy, memset

from adjudicator.orders import HOLD_ORDER as _HOLD_ORDER
from adjudicator.orders import MOVE as _PY_MOVE
from adjudicator.orders import SUPPORT_HOLD as _PY_SUPPORT_HOLD
from adjudicator.orders import SUPPORT_MOVE as _PY_SUPPORT_MOVE

from search._draws cimport Draws, _choice, _draws, _mt_below, _shuffle, _uniform
from search._maptables cimport (
    AUTUMN,
    DEPTH,
    FALL,
    HOLD,
    KEY_FIELDS,
    KEY_HEAD,
    KEY_LIMIT,
    MAX_OPTIONS,
    MAX_POWERS,
    MOVE,
    SPRING,
    STALLED,
    SUMMER,
    SUPPORT_HOLD,
    SUPPORT_MOVE,
    WAITING,
    WINTER,
    CMap,
    CWeights,
    PerMap,
    _check,
    _check_length,
    _fdiv,
    _ints,
    kept_for,
)
from search._valuation cimport (
    CValues,
    _Board,
    _compute,
    _compute_retreats,
    _count_centres,
    _keep,
    _repoint,
    _value,
    _competition,
)
from search._dumbbot cimport (
    _Orders,
    _choose_moves,
    _loaded_movement_orders,
    _orders_dict,
    _provinces_of,
    _select,
)
from search._policy cimport CPolicy, _check_policy, _learned_moves, _loaded_learned_orders

# the rooms' Python names, as this module has always offered them
from search._draws import C_DRAWS
from search._valuation import forget, values

globals().update(CMap=CMap, CWeights=CWeights, CValues=CValues, PerMap=PerMap, CPolicy=CPolicy)

cdef extern from *:
    const char *SOURCE_SHA256  # defined by setup.py

SOURCE_HASH = SOURCE_SHA256.decode("ascii")
"""The SHA-256 of the source this module was built from (see adjudicator.compiled_rules.load)."""

assert (_PY_MOVE, _PY_SUPPORT_HOLD, _PY_SUPPORT_MOVE) == (MOVE, SUPPORT_HOLD, SUPPORT_MOVE)


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
    cdef int i
    cdef double *block = <double *> PyMem_Malloc(_WEIGHTS_BLOCK(cm) * sizeof(double))
    if block == NULL:
        raise MemoryError()
    cdef const double *total
    try:
        total = _region_weights(
            cm, b.upow, b.unode, b.owner, power, level_weights, foreign_constant, block
        )
        return [total[i] for i in range(cm.num_nodes)]
    finally:
        PyMem_Free(block)


cdef inline Py_ssize_t _WEIGHTS_BLOCK(CMap cm) noexcept:
    """The doubles of scratch :func:`_region_weights` takes."""
    return 3 * cm.num_nodes + cm.num_provinces


cdef const double *_region_weights(
    CMap cm,
    const int *upow,
    const int *unode,
    const int *owner,
    int power,
    tuple level_weights,
    int foreign_constant,
    double *block,
) except NULL:
    """:func:`region_weights` of the board of ``upow``, ``unode`` and ``owner`` (as
    _Board's), in ``block`` (``_WEIGHTS_BLOCK(cm)`` doubles); where they start in it."""
    cdef int np = cm.num_provinces, nn = cm.num_nodes
    cdef int levels = len(level_weights)
    cdef int centres[MAX_POWERS]
    cdef int i, j, k, sc, own, threats, n
    cdef double s, w
    cdef double *cur = block
    cdef double *nxt = cur + nn
    cdef double *total = nxt + nn
    cdef double *base = total + nn
    cdef double *swap
    _count_centres(cm, owner, centres)
    for i in range(np):
        base[i] = 0
    for k in range(cm.num_centres):
        sc = cm.centres[k]
        own = owner[sc]
        if own == power:
            threats = 0
            for j in range(cm.nb_off[sc], cm.nb_off[sc + 1]):
                i = cm.nb_idx[j]
                if upow[i] >= 0 and upow[i] != power and cm.reach[unode[i] * np + sc]:
                    threats += 1
            base[sc] = threats
        else:
            base[sc] = foreign_constant - (centres[own] if own >= 0 else 0)
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
    return total


# --- movement orders from Python: DumbBot's, or a learned policy's ----------------------


def movement_orders(CMap cm, CWeights w, object pos, int power, object rng):
    """DumbBot's orders for every unit of ``power`` (see DumbBot.movement_orders)."""
    if not 0 <= power < cm.num_powers:
        raise ValueError(f"no power {power} on this map")
    return _orders_in(cm, w, pos, None, power, rng)


def movement_orders_board(CMap cm, CWeights w, Board start, int power, object rng):
    """:func:`movement_orders` in the position ``start`` holds."""
    if not 0 <= power < cm.num_powers:
        raise ValueError(f"no power {power} on this map")
    if start.cm is not cm:
        raise ValueError("a board kept for another map")
    return _orders_in(cm, w, None, start, power, rng)




def learned_orders(CMap cm, CPolicy pol, object pos, int power, object rng):
    """LearnedPolicy.movement_orders: the model's orders for every unit of ``power``."""
    if not 0 <= power < cm.num_powers:
        raise ValueError(f"no power {power} on this map")
    _check_policy(cm, pol)
    return _orders_in(cm, pol, pos, None, power, rng)


def learned_orders_board(CMap cm, CPolicy pol, Board start, int power, object rng):
    """:func:`learned_orders` in the position ``start`` holds."""
    if not 0 <= power < cm.num_powers:
        raise ValueError(f"no power {power} on this map")
    _check_policy(cm, pol)
    if start.cm is not cm:
        raise ValueError("a board kept for another map")
    return _orders_in(cm, pol, None, start, power, rng)


cdef class _Spare:
    """A map's scratch space of movement orders, kept between calls (not while one runs)."""

    cdef _Board b
    cdef CValues v
    cdef _Orders o
    cdef bint busy

    def __cinit__(self, CMap cm):
        self.b = _Board(cm)
        self.v = CValues(cm, 0)
        self.o = _Orders(cm.num_provinces)
        self.busy = False


cdef PerMap _SPARES = PerMap()
"""Each map's :class:`_Spare`."""


cdef _Spare _spare_of(CMap cm):
    """``cm``'s :class:`_Spare`, made at its first use."""
    found = kept_for(_SPARES, cm)
    if found is None:
        found = _SPARES.keep(cm, _Spare(cm))
    return <_Spare> found


cdef dict _orders_in(CMap cm, object player, object pos, Board start, int power, object rng):
    """The movement orders of ``player`` for every unit of ``power``: DumbBot's for a
    CWeights, the learned policy's for a CPolicy; in ``pos``, or in the position the board
    ``start`` holds when ``pos`` is None.  On the map's scratch space, unless a call
    already running (another thread) holds it: then on scratch space of its own."""
    cdef _Spare kept = _spare_of(cm)
    cdef bint spare = not kept.busy
    cdef _Board b = kept.b if spare else _Board(cm)
    cdef CValues v = kept.v if spare else CValues(cm, power)
    cdef _Orders o = kept.o if spare else _Orders(cm.num_provinces)
    cdef int season
    cdef Draws d = _draws(rng)
    if spare:
        kept.busy = True
    try:
        if start is None:
            b.load(cm, pos)
            season = pos.season
        else:
            memcpy(b.upow, start.cells, 5 * cm.num_provinces * sizeof(int))
            b.any_dislodged = start.any_dislodged
            season = start.season
        if type(player) is CPolicy:
            return _loaded_learned_orders(cm, <CPolicy>player, b, season, power, &d, v, o)
        return _loaded_movement_orders(cm, <CWeights>player, b, season, power, &d, v, o)
    finally:
        if spare:
            kept.busy = False



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
    cdef int *by_power  # the same provinces by power, each power's in province order
    cdef int *kind  # each unit's order this phase, with the order tuple's arguments a and b
    cdef int *a
    cdef int *b_arg
    cdef int *contested  # after a movement: no retreat there (_Resolver.mark_contested)
    cdef int *arrival  # per unit: the node it moves to; per dislodged unit: where it retreats
    cdef int *pn_off  # each province's nodes: pn_idx[pn_off[p]:pn_off[p + 1]]
    cdef int *pn_idx
    cdef unsigned char *taken
    cdef list unit_tuples  # [power * nodes + node]: the unit's tuple, made at its first use
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
            ((9 + MAX_OPTIONS) * np + 1 + cm.num_nodes) * sizeof(int)
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
        self.by_power = self.pn_idx + cm.num_nodes
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
        self.unit_tuples = [None] * (cm.num_powers * cm.num_nodes)
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
            options = (<tuple> value)[3]  # checked by b.load
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
        """The game as a :class:`~adjudicator.position.Position` (units in province order;
        one tuple object per power and node for every position made here)."""
        cdef _Board b = self.b
        cdef int p, node, i, at
        units = {}
        dislodged = {}
        for p in range(cm.num_provinces):
            if b.upow[p] >= 0:
                node = b.unode[p]
                at = b.upow[p] * cm.num_nodes + node
                unit = self.unit_tuples[at]
                if unit is None:
                    unit = self.unit_tuples[at] = (b.upow[p], cm.node_type[node], cm.node_loc[node])
                units[p] = unit
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


cdef PerMap _GAMES = PerMap()
"""Each map's :class:`_Game` (the rollouts' arrays), kept between calls."""


cdef _Game _game(CMap cm, object game_map):
    """The kept game arrays of ``cm``'s map, ``game_map`` (fresh ones while those are in use)."""
    found = kept_for(_GAMES, cm)  # the rollouts of a search: one map, without a look-up
    if (
        found is not None
        and (<_Game> found).r.facts.game_map is game_map
        and not (<_Game> found).busy
    ):
        return <_Game> found
    cdef _Game g = _Game(cm, game_map)
    if found is None or not (<_Game> found).busy:
        _GAMES.keep(cm, g)
    return g


cdef inline bint _ended_by(_Game g, int final_year) noexcept:
    """Position.ended_by: winter of ``final_year`` reached or passed."""
    return g.year > final_year or (g.year == final_year and g.season == WINTER)


cdef int _solo_winner(CMap cm, _Board b, int win_centres) noexcept:
    """adjudicator.phases.solo_winner (without the previous counts)."""
    cdef int counts[MAX_POWERS]
    cdef int q, k, best = 0, ties = 0, winner = -1
    _count_centres(cm, b.owner, counts)
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
    _count_centres(cm, b.owner, diff)
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
    CMap cm,
    CWeights w,
    _Game g,
    Draws *d,
    int given,
    object action,
    NodeValues known,
    CPolicy policy=None,
) except -1:
    """search.simulate.play_phase in a movement phase, then next_position (no convoys).

    Every power present but ``given`` plays DumbBot's orders, in power order (or,
    with a ``policy``, that learned policy's orders);
    then ``action`` (``(province, order)`` pairs checked by :func:`_simple_orders`,
    or None) is laid over them, as ``dict.update`` would.  ``known`` (or None)
    keeps the powers' values on this board from one call to the next (of the
    policy's DumbBot, with a policy).
    """
    cdef _Board b = g.b
    cdef _Orders o = g.o
    cdef int np = cm.num_provinces
    cdef int present[MAX_POWERS]  # each power's units
    cdef int start[MAX_POWERS]  # where its units begin in g.by_power
    cdef int p, q, s, at
    cdef bint any_dislodged
    for q in range(cm.num_powers):
        present[q] = 0
    g.num_units = 0
    for p in range(np):
        if b.upow[p] >= 0:
            g.units[g.num_units] = p
            g.num_units += 1
            present[b.upow[p]] += 1
            g.kind[p] = HOLD
    at = 0
    for q in range(cm.num_powers):
        start[q] = at
        at += present[q]
    for s in range(g.num_units):
        p = g.units[s]
        g.by_power[start[b.upow[p]]] = p
        start[b.upow[p]] += 1
    cdef bint valued
    cdef bint learned = policy is not None
    cdef bint pointed = False  # _compute pointed g.v at this board (for another power)
    for q in range(cm.num_powers):  # in power order, as the set of powers present iterates
        if present[q] and q != given:
            valued = known is not None and known.ready[q]
            if valued:
                memcpy(g.v.vals, known.vals + q * cm.num_nodes, cm.num_nodes * sizeof(long long))
                memcpy(g.v.comp, known.comp + q * np, np * sizeof(int))
                g.v.kept = True
            if learned:
                _learned_moves(cm, policy, b, g.season, q, d, g.v, o, valued)
            else:
                _choose_moves(  # start[q]: where the next power's units begin
                    cm, w, b, g.season, q, d, g.v, o, valued,
                    g.by_power + start[q] - present[q], present[q], pointed
                )
                pointed = pointed or not valued
            if known is not None and not valued:
                _keep(g.v, known.vals + q * cm.num_nodes, known.comp + q * np)
                known.ready[q] = 1
            if learned:
                for s in range(policy.count):
                    p = policy.seq[s]
                    g.kind[p] = policy.kind[p]
                    g.a[p] = policy.a[p]
                    g.b_arg[p] = policy.b[p]
            else:
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
    _apply_movement(cm, g, any_dislodged)
    return 0


cdef int _play_retreats(CMap cm, CWeights w, _Game g, Draws *d, int heuristic) except -1:
    """search.simulate.play_phase in a retreat phase: DumbBot.retreat_orders for each power
    in turn (search.heuristics.random_retreats for ``heuristic``, if a power), then
    adjudicator.retreats.adjudicate_retreats (a retreat to a province another unit
    retreats to bounces: both disband)."""
    cdef _Board b = g.b
    cdef CValues v = g.v
    cdef int np = cm.num_provinces
    cdef int choices[MAX_OPTIONS]
    cdef long long scores[MAX_OPTIONS]
    cdef int p, q, n, k, i, j, utype, target, count, s
    cdef bint valued
    cdef int *arrivals = g.kind  # per province: how many units retreat there
    cdef int counts[MAX_POWERS]  # each power's dislodged units
    cdef int start[MAX_POWERS]  # where they begin in g.by_power (in province order)
    cdef int *ours
    cdef int *dislodged = g.units  # scratch here: the provinces of the dislodged units
    cdef int num_dislodged = 0
    cdef bint pointed = False  # _compute pointed v at this board (for another power)
    for q in range(cm.num_powers):
        counts[q] = 0
    for p in range(np):
        if b.dpow[p] >= 0:
            dislodged[num_dislodged] = p
            num_dislodged += 1
            counts[b.dpow[p]] += 1
    count = 0
    for q in range(cm.num_powers):
        start[q] = count
        count += counts[q]
    for s in range(num_dislodged):
        p = dislodged[s]
        g.arrival[p] = -1
        for i in range(g.ropt_n[p]):  # where it may go: no arrival counted there yet
            arrivals[cm.loc_prov[g.ropt[p * MAX_OPTIONS + i]]] = 0
        g.by_power[start[b.dpow[p]]] = p
        start[b.dpow[p]] += 1
    for q in range(cm.num_powers):
        count = counts[q]
        if not count:
            continue
        ours = g.by_power + start[q] - count  # start[q]: where the next power's begin
        _shuffle(ours, count, d)
        memset(g.taken, 0, np)
        if q == heuristic:
            for s in range(count):
                p = ours[s]
                free = [
                    g.ropt[p * MAX_OPTIONS + i]
                    for i in range(g.ropt_n[p])
                    if not g.taken[cm.loc_prov[g.ropt[p * MAX_OPTIONS + i]]]
                ]
                if free:
                    g.arrival[p] = _choice(free, d)
                    target = cm.loc_prov[g.arrival[p]]
                    g.taken[target] = 1
                    arrivals[target] += 1
            continue
        valued = False  # a unit with one retreat or none draws nothing and reads no value
        for s in range(count):
            p = ours[s]
            utype = cm.node_type[b.dnode[p]]
            n = g.ropt_n[p]
            if n > 1 and not valued:
                v.power = q
                if pointed:  # the board is the same until every power has chosen
                    _repoint(cm, v)
                else:
                    _compute_retreats(cm, w, b, g.season, v, g.ropt_n, g.ropt, MAX_OPTIONS)
                    pointed = True
                valued = True
            for i in range(n):
                choices[i] = g.ropt[p * MAX_OPTIONS + i]
                scores[i] = _value(v, cm.node_of(utype, choices[i])) if n > 1 else 0
            while n:
                k = _select(scores, n, d, w)
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
    for s in range(num_dislodged):
        p = dislodged[s]
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


cdef inline void _insert_ranked(long long* keys, int* ranked, int n, long long key, int x) noexcept:
    """Insert ``x`` with ``key`` into the first ``n`` entries, kept ascending by (key, x)."""
    cdef int i = n
    while i > 0 and (keys[i - 1] > key or keys[i - 1] == key and ranked[i - 1] > x):
        keys[i] = keys[i - 1]
        ranked[i] = ranked[i - 1]
        i -= 1
    keys[i] = key
    ranked[i] = x


cdef int _best_adjustments(CMap cm, CWeights w, _Game g, int power, int due) except -1:
    """search.heuristics.best_builds (``due`` > 0) or worst_removals (``due`` < 0) for
    ``power`` into ``g.arrival`` (as :func:`_play_adjustments` marks changes)."""
    cdef _Board b = g.b
    cdef CValues v = g.v
    cdef int np = cm.num_provinces
    cdef int ranked[MAX_OPTIONS]
    cdef long long keys[MAX_OPTIONS]
    cdef int p, i, j, n = 0, made = 0, x
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
                _insert_ranked(keys, ranked, n, -_value(v, x), x)
                n += 1
        elif b.upow[p] == power:
            if n == MAX_OPTIONS:
                raise ValueError(f"more than {MAX_OPTIONS} units to remove from")
            _insert_ranked(keys, ranked, n, _value(v, b.unode[p]), p)
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
    CMap cm, CWeights w, _Game g, Draws *d, int heuristic, CWeights wh
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
    cdef int p, q, k, n, i, j, node, made, count
    cdef int *change = g.arrival  # per province: the node built there, or -2 for a removal
    cdef int pointed = -1  # ``removing`` of the last _compute of v on this board (-1: none)
    _count_centres(cm, b.owner, due)
    for p in range(np):
        change[p] = -1
        if b.upow[p] >= 0:
            due[b.upow[p]] -= 1
    for q in range(cm.num_powers):
        if due[q] == 0:
            continue
        if q == heuristic:
            _best_adjustments(cm, wh, g, q, due[q])
            pointed = -1
            continue
        v.power = q
        n = 0
        made = 0
        if due[q] > 0:
            count = due[q]
            for i in range(cm.home_off[q], cm.home_off[q + 1]):  # build_nodes: the nodes of
                p = cm.home_idx[i]  # the owned, empty home centres
                if b.owner[p] == q and b.upow[p] < 0:
                    for j in range(g.pn_off[p], g.pn_off[p + 1]):
                        if n == MAX_OPTIONS:
                            raise ValueError(f"more than {MAX_OPTIONS} places to build")
                        options[n] = g.pn_idx[j]
                        n += 1
            if n > 1:  # one place or none draws nothing and reads no value
                if pointed == 0:  # the board is the same until every power has chosen
                    _repoint(cm, v)
                else:
                    _compute(cm, w, b, WINTER, False, v)
                    pointed = 0
                for j in range(n):
                    scores[j] = _value(v, options[j])
            memset(g.taken, 0, np)
            while n and made < count:
                k = _select(scores, n, d, w)
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
            for p in range(np):  # units_of: in province order
                if b.upow[p] == q:
                    if n == MAX_OPTIONS:
                        raise ValueError(f"more than {MAX_OPTIONS} units to remove from")
                    options[n] = p
                    n += 1
            if n > 1:
                if pointed == 1:
                    _repoint(cm, v)
                else:
                    _compute(cm, w, b, WINTER, True, v)
                    pointed = 1
                for j in range(n):
                    scores[j] = -_value(v, b.unode[options[j]])
            while n and made < count:
                k = _select(scores, n, d, w)
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
    cdef Draws d = _draws(rng)
    g.busy = True
    try:
        g.load(cm, pos)
        _roll_out(cm, w, g, &d, us, horizon, final_year, win_centres)
        return g.position(cm, pos.map)
    finally:
        g.busy = False


cdef int _roll_out(
    CMap cm, CWeights w, _Game g, Draws *d, int us, int horizon, int final_year, int win_centres
) except -1:
    """:func:`play_out`'s phases, on the board loaded into ``g``."""
    while not (_ended_by(g, horizon) or _terminal(cm, g, us, final_year, win_centres)):
        if g.season == SPRING or g.season == FALL:
            _play_movement(cm, w, g, d, -1, None, None)
        elif g.season == SUMMER or g.season == AUTUMN:
            _play_retreats(cm, w, g, d, -1)
        else:
            _play_adjustments(cm, w, g, d, -1, None)
    return 0


def play_out_reward(
    CMap cm,
    CWeights w,
    object pos,
    object rng,
    int us,
    int horizon,
    int final_year,
    int win_centres,
    int player_draws,
    Py_ssize_t players,
):
    """search.mcts.domain.DiplomacyDomain.rollout when every power's rollout player is the
    DumbBot of ``w``: the reward of the position :func:`play_out` ends in.

    First ``player_draws`` times ``rng.randrange(players)`` (the enemies' rollout
    players drawn, though each is this DumbBot), then the rollout, without building
    its last position: our centres over ``win_centres``, capped at 1; 1 for our solo
    and 0 for another's.
    """
    _check_reward_args(cm, us, win_centres, player_draws, players)
    cdef Draws d = _draws(rng)
    _draw_players(&d, player_draws, players)
    cdef _Game g = _game(cm, pos.map)
    g.busy = True
    try:
        g.load(cm, pos)
        return _reward(cm, w, g, &d, us, horizon, final_year, win_centres)
    finally:
        g.busy = False


cdef int _check_reward_args(
    CMap cm, int us, int win_centres, int player_draws, Py_ssize_t players
) except -1:
    """``ValueError`` for settings :func:`play_out_reward` cannot play by."""
    if not 0 <= us < cm.num_powers:
        raise ValueError(f"no power {us} on this map")
    if players < 1 or players >= (<Py_ssize_t> 1 << 31) or player_draws < 0:
        raise ValueError("players to draw from must be between 1 and 2**31, draws at least 0")
    if win_centres < 1:
        raise ValueError("the winning count must be at least 1")
    return 0


cdef int _draw_players(Draws *d, int player_draws, Py_ssize_t players) except -1:
    """The enemies' rollout players drawn (``player_draws`` times ``rng.randrange(players)``)."""
    cdef int i
    for i in range(player_draws):
        if d.mt != NULL:
            _mt_below(d.mt, players)
        else:
            (<object> d.rng).randrange(players)
    return 0


cdef double _reward(
    CMap cm,
    CWeights w,
    _Game g,
    Draws *d,
    int us,
    int horizon,
    int final_year,
    int win_centres,
) except? -1.0:
    """The rollout from the board loaded into ``g`` and its reward (see :func:`play_out_reward`)."""
    cdef int winner
    cdef int counts[MAX_POWERS]
    _roll_out(cm, w, g, d, us, horizon, final_year, win_centres)
    winner = _solo_winner(cm, g.b, win_centres)
    if winner >= 0:
        return 1.0 if winner == us else 0.0
    _count_centres(cm, g.b.owner, counts)
    return min(1.0, <double> counts[us] / <double> win_centres)


cdef class NodeValues:
    """The enemies' DumbBot values on one board, kept between the steps from it.

    A tree node's enemies are asked for orders at every descent, on the same
    board: their values (and competition counts, all DumbBot's orders read)
    are the same each time, so :func:`step` computes each power's once.
    """

    cdef readonly object tables  # the map's tables they are sized for
    cdef long long *vals  # vals[power * nodes + node]
    cdef int *comp  # comp[power * provinces + province]
    cdef unsigned char *ready

    def __cinit__(self, CMap cm):
        cdef int nw = cm.num_powers
        self.tables = cm.tables
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
        if not order:
            return False
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
    CPolicy policy=None,
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
    the DumbBot of ``w`` (filled as the powers are valued).  With a ``policy``, the
    enemies' movement orders are that learned policy's (search.orderpolicy.LearnedPolicy;
    ``known`` then keeps its DumbBot's values) and ``w`` plays their retreats and adjustments.
    """
    _check_step_args(cm, us, known, policy)
    cdef _Game g = _game(cm, pos.map)
    g.busy = True
    try:
        g.load(cm, pos)
        if not _step_loaded(
            cm, w, wus, g, action, rng, us, final_year, win_centres, known, policy
        ):
            return None
        return g.position(cm, pos.map)
    finally:
        g.busy = False


cdef int _check_step_args(CMap cm, int us, NodeValues known, CPolicy policy) except -1:
    """``ValueError`` for settings :func:`step` cannot play by."""
    if not 0 <= us < cm.num_powers:
        raise ValueError(f"no power {us} on this map")
    _check_policy(cm, policy)
    if known is not None and known.tables is not cm.tables:
        raise ValueError("values kept for another map")
    return 0


cdef bint _step_loaded(
    CMap cm,
    CWeights w,
    CWeights wus,
    _Game g,
    object action,
    object rng,
    int us,
    int final_year,
    int win_centres,
    NodeValues known,
    CPolicy policy,
) except -1:
    """:func:`step` on the board loaded into ``g``: False (before any draw) when it declines."""
    if not (g.season == SPRING or g.season == FALL):
        raise ValueError("step starts from a movement phase")
    action = tuple(action)  # read twice: checked, then played
    if not _simple_orders(cm, g.b, action):
        return False
    cdef Draws d = _draws(rng)
    _play_movement(cm, w, g, &d, us, action, known, policy)
    while not (
        g.season == SPRING
        or g.season == FALL
        or _terminal(cm, g, us, final_year, win_centres)
    ):
        if g.season == SUMMER or g.season == AUTUMN:
            _play_retreats(cm, w, g, &d, us)
        else:
            _play_adjustments(cm, w, g, &d, us, wus)
    return True


cdef class Board:
    """A position kept in C arrays (a search tree node's), with its end-of-game test.

    What :class:`_Game` reads from a :class:`~adjudicator.position.Position`, copied
    out of the game arrays and back in without a Position between (:func:`board`,
    :func:`step_board`, :func:`play_out_reward_board`); :meth:`position` builds the
    Position, :meth:`key` its identity.  ``terminal``: whether the position ends the
    game for the power and final year it was made for (DiplomacyDomain.terminal).
    """

    cdef readonly CMap cm
    cdef readonly object game_map
    cdef readonly int season, year
    cdef readonly bint terminal
    cdef readonly bint any_dislodged
    cdef int *cells  # upow, unode, dpow, dnode, owner (as _Board's), then ropt_n and ropt
    cdef int np

    def __cinit__(self):
        self.cells = NULL

    def __dealloc__(self):
        PyMem_Free(self.cells)

    def position(self):
        """The position as a :class:`~adjudicator.position.Position` (units in province order)."""
        cdef CMap cm = self.cm
        cdef int np = self.np
        cdef int *upow = self.cells
        cdef int *unode = upow + np
        cdef int *dpow = unode + np
        cdef int *dnode = dpow + np
        cdef int *owner = dnode + np
        cdef int *ropt_n = owner + np
        cdef int *ropt = ropt_n + np
        cdef int p, node, i
        units = {}
        dislodged = {}
        for p in range(np):
            if upow[p] >= 0:
                node = unode[p]
                units[p] = (upow[p], cm.node_type[node], cm.node_loc[node])
            if self.any_dislodged and dpow[p] >= 0:
                node = dnode[p]
                dislodged[p] = (
                    dpow[p],
                    cm.node_type[node],
                    cm.node_loc[node],
                    tuple([ropt[p * MAX_OPTIONS + i] for i in range(ropt_n[p])]),
                )
        pos = _new_position(_Position)
        pos.map = self.game_map
        pos.season = self.season
        pos.year = self.year
        pos.units = units
        pos.owners = [owner[p] for p in range(np)]
        pos.dislodged = dislodged
        return pos

    cpdef list units_of(self, int power):
        """The provinces of ``power``'s units, in province order (Position.units_of)."""
        cdef int *upow = self.cells
        return [p for p in range(self.np) if upow[p] == power]

    def key(self):
        """search._fasttree.Core.key of :meth:`position` when no unit is dislodged, else None.

        One bytes string: the season and the year as C ints, then one signed char per
        field, four per province (its unit's power, type and location, -1 each without
        one; its owner).  None too on a map whose locations or powers a field cannot hold.
        """
        cdef CMap cm = self.cm
        if self.any_dislodged or cm.num_locations > KEY_LIMIT + 1 or cm.num_powers > KEY_LIMIT + 1:
            return None
        cdef int np = self.np
        cdef int *upow = self.cells
        cdef int *unode = upow + np
        cdef int *owner = upow + 4 * np
        cdef int head[KEY_HEAD]
        key = PyBytes_FromStringAndSize(NULL, KEY_HEAD * sizeof(int) + KEY_FIELDS * np)
        cdef char *out = PyBytes_AS_STRING(key)
        cdef signed char *fields = <signed char *> (out + KEY_HEAD * sizeof(int))
        cdef int p, node
        head[0] = self.season
        head[1] = self.year
        memcpy(out, head, KEY_HEAD * sizeof(int))
        for p in range(np):
            if upow[p] >= 0:
                node = unode[p]
                fields[KEY_FIELDS * p] = <signed char> upow[p]
                fields[KEY_FIELDS * p + 1] = <signed char> cm.node_type[node]
                fields[KEY_FIELDS * p + 2] = <signed char> cm.node_loc[node]
            else:
                fields[KEY_FIELDS * p] = -1
                fields[KEY_FIELDS * p + 1] = -1
                fields[KEY_FIELDS * p + 2] = -1
            fields[KEY_FIELDS * p + 3] = <signed char> owner[p]
        return key


def weighted_options(Board board, int power, tuple level_weights, int foreign_constant):
    """The thesis's options for ``power``'s units on ``board``, each valued by its region.

    ``(mean, [(province, orders, values), ...])``: per unit, in province order, the orders
    of search.mcts.thesis_rules.possible_orders (without ``two_step``) and the weight of
    the region each ends in (search.mcts.weights.RegionWeights.order_value); ``mean`` the
    regions' mean weight.  ``level_weights`` are the season's proximity weights.  The
    weights are :func:`region_weights`' and the mean adds them left to right, as ``sum``
    does before Python 3.12 (the caller checks the version).
    """
    cdef CMap cm = board.cm
    if not 0 <= power < cm.num_powers:
        raise ValueError(f"no power {power} on this map")
    cdef int np = cm.num_provinces, nn = cm.num_nodes
    cdef const int *upow = board.cells
    cdef const int *unode = upow + np
    cdef const int *owner = upow + 4 * np
    cdef int prov, node, utype, dest, j, k, i, n_planned = 0
    cdef bint seen
    cdef double total_weight = 0.0
    cdef const double *weight
    # per province whether it is a target (a centre ``power`` neither owns nor occupies),
    # then the moves into targets planned so far: each mover's province, then its target's
    cdef int *scratch = <int *> PyMem_Malloc((np + 2 * np * MAX_OPTIONS) * sizeof(int))
    cdef double *block = <double *> PyMem_Malloc(_WEIGHTS_BLOCK(cm) * sizeof(double))
    if scratch == NULL or block == NULL:
        PyMem_Free(scratch)
        PyMem_Free(block)
        raise MemoryError()
    cdef int *target = scratch
    cdef int *mover = target + np
    cdef int *into = mover + np * MAX_OPTIONS
    cdef list units = []
    cdef list orders, values
    try:
        weight = _region_weights(
            cm, upow, unode, owner, power, level_weights, foreign_constant, block
        )
        for i in range(nn):
            total_weight += weight[i]
        for prov in range(np):
            target[prov] = cm.is_centre[prov] and owner[prov] != power and upow[prov] != power
        for prov in range(np):
            if upow[prov] != power:
                continue
            node = unode[prov]
            utype = cm.node_type[node]
            orders = []
            values = []
            if cm.is_centre[prov] and owner[prov] != power:
                orders.append(_HOLD_ORDER)
                values.append(weight[node])
            else:
                for k in range(n_planned):  # each planned move it can support, once
                    if mover[k] == prov or not cm.reach[node * np + into[k]]:
                        continue
                    seen = False
                    for j in range(k):
                        if mover[j] == mover[k] and into[j] == into[k]:
                            seen = True
                            break
                    if not seen:
                        orders.append((SUPPORT_MOVE, mover[k], into[k]))
                        values.append(weight[node])
                if not orders:  # its moves into targets, planned for the later units
                    for j in range(cm.adj_off[node], cm.adj_off[node + 1]):
                        dest = cm.adj_loc[j]
                        if target[cm.loc_prov[dest]]:
                            orders.append((MOVE, dest))
                            values.append(weight[cm.node_of(utype, dest)])
                            mover[n_planned] = prov
                            into[n_planned] = cm.loc_prov[dest]
                            n_planned += 1
                if not orders:  # no move into a target among them: none planned
                    orders.append(_HOLD_ORDER)
                    values.append(weight[node])
                    for j in range(cm.adj_off[node], cm.adj_off[node + 1]):
                        dest = cm.adj_loc[j]
                        orders.append((MOVE, dest))
                        values.append(weight[cm.node_of(utype, dest)])
            units.append((prov, orders, values))
        return total_weight / nn, units
    finally:
        PyMem_Free(scratch)
        PyMem_Free(block)


cdef Board _save(CMap cm, _Game g, object game_map, bint terminal):
    """The board, phase and retreats loaded into ``g``, as a :class:`Board`."""
    cdef int np = cm.num_provinces
    cdef _Board b = g.b
    cdef int p
    cdef bint any_dislodged = False
    for p in range(np):
        if b.dpow[p] >= 0:
            any_dislodged = True
            break
    cdef Board out = Board.__new__(Board)
    cdef Py_ssize_t size = (7 + MAX_OPTIONS) * np if any_dislodged else 5 * np
    out.cells = <int *> PyMem_Malloc(size * sizeof(int))
    if out.cells == NULL:
        raise MemoryError()
    out.cm = cm
    out.game_map = game_map
    out.np = np
    out.season = g.season
    out.year = g.year
    out.terminal = terminal
    out.any_dislodged = any_dislodged
    memcpy(out.cells, b.upow, 5 * np * sizeof(int))
    for p in range(np):  # as _Board.load leaves them: no node where no unit stands
        if b.upow[p] < 0:
            out.cells[np + p] = -1
        if b.dpow[p] < 0:
            out.cells[3 * np + p] = -1
    if any_dislodged:
        memcpy(out.cells + 5 * np, g.ropt_n, np * sizeof(int))
        memcpy(out.cells + 6 * np, g.ropt, MAX_OPTIONS * np * sizeof(int))
    return out


cdef int _restore(CMap cm, _Game g, Board s) except -1:
    """``s`` loaded into ``g`` (as :meth:`_Game.load` loads its position)."""
    if s.cm is not cm:
        raise ValueError("a board kept for another map")
    cdef int np = cm.num_provinces
    memcpy(g.b.upow, s.cells, 5 * np * sizeof(int))
    g.b.any_dislodged = s.any_dislodged
    if s.any_dislodged:
        memcpy(g.ropt_n, s.cells + 5 * np, np * sizeof(int))
        memcpy(g.ropt, s.cells + 6 * np, MAX_OPTIONS * np * sizeof(int))
    g.season = s.season
    g.year = s.year
    return 0


def board(CMap cm, object pos, int us, int final_year, int win_centres):
    """``pos`` as a :class:`Board` (its ``terminal`` for ``us`` in ``final_year``)."""
    if not 0 <= us < cm.num_powers:
        raise ValueError(f"no power {us} on this map")
    cdef _Game g = _game(cm, pos.map)
    g.busy = True
    try:
        g.load(cm, pos)
        return _save(cm, g, pos.map, _terminal(cm, g, us, final_year, win_centres))
    finally:
        g.busy = False


def step_board(
    CMap cm,
    CWeights w,
    CWeights wus,
    Board start,
    object action,
    object rng,
    int us,
    int final_year,
    int win_centres,
    NodeValues known=None,
    CPolicy policy=None,
):
    """:func:`step` from ``start``: the next position as a :class:`Board`, or None.

    ``known`` and ``policy``: as :func:`step`'s.
    """
    _check_step_args(cm, us, known, policy)
    cdef _Game g = _game(cm, start.game_map)
    g.busy = True
    try:
        _restore(cm, g, start)
        if not _step_loaded(
            cm, w, wus, g, action, rng, us, final_year, win_centres, known, policy
        ):
            return None
        return _save(cm, g, start.game_map, _terminal(cm, g, us, final_year, win_centres))
    finally:
        g.busy = False


def play_out_reward_board(
    CMap cm,
    CWeights w,
    Board start,
    object rng,
    int us,
    int horizon,
    int final_year,
    int win_centres,
    int player_draws,
    Py_ssize_t players,
):
    """:func:`play_out_reward` from ``start``."""
    _check_reward_args(cm, us, win_centres, player_draws, players)
    cdef Draws d = _draws(rng)
    _draw_players(&d, player_draws, players)
    cdef _Game g = _game(cm, start.game_map)
    g.busy = True
    try:
        _restore(cm, g, start)
        return _reward(cm, w, g, &d, us, horizon, final_year, win_centres)
    finally:
        g.busy = False


cdef int _apply_movement(CMap cm, _Game g, bint any_dislodged) except -1:
    """adjudicator.movement.next_position's position, in place on ``g``'s board, from what
    :func:`resolve_arrays` (on ``g.units``, ``g.kind``, ``g.a``, ``g.b_arg``) found."""
    cdef _Board b = g.b
    cdef _Resolver r = g.r
    cdef int np = cm.num_provinces
    cdef int i, p, q, s, node, dest, n_moving = 0
    cdef int *moving
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


cdef enum:
    BOARD_ROWS = 6  # MovementPhases: the rows of a phase's board


cdef class MovementPhases:
    """Movement phases (no convoys) read into C once, to resolve and apply as the compiled
    rollouts and steps do (bot.measure.bench_adjudicator times :meth:`run`).

    Each phase is a ``(position, orders)`` pair: a movement phase without dislodged
    units, and engine orders that :func:`step` would take as an action (holds, moves,
    supports; no convoys, no coasts named); a unit without an order holds.
    """

    cdef CMap cm
    cdef _Game g
    cdef object game_map
    cdef int count
    cdef int *boards  # per phase, np each: the units' powers, their nodes, the owners,
    # then the orders' kinds and their arguments a and b (as _Game's)
    cdef int *dates  # per phase: season, year

    def __cinit__(self, CMap cm, object game_map, list phases):
        cdef int np = cm.num_provinces
        cdef int i, p
        cdef int *row
        self.cm = cm
        self.game_map = game_map
        self.g = _Game(cm, game_map)
        self.count = len(phases)
        self.boards = <int *> PyMem_Malloc((BOARD_ROWS * np * self.count + 1) * sizeof(int))
        self.dates = <int *> PyMem_Malloc((2 * self.count + 1) * sizeof(int))
        if self.boards == NULL or self.dates == NULL:
            raise MemoryError()
        for i, (pos, orders) in enumerate(phases):
            if pos.map is not game_map:
                raise ValueError("a phase on another map")
            if not (pos.season == SPRING or pos.season == FALL) or pos.dislodged:
                raise ValueError("a phase that is not a movement phase")
            self.g.load(cm, pos)
            if not _simple_orders(cm, self.g.b, (<dict> orders).items()):
                raise ValueError("an order the compiled phases do not play (a convoy, a coast)")
            row = self.boards + BOARD_ROWS * np * i
            memcpy(row, self.g.b.upow, np * sizeof(int))
            memcpy(row + np, self.g.b.unode, np * sizeof(int))
            memcpy(row + 2 * np, self.g.b.owner, np * sizeof(int))
            for p in range(np):
                row[3 * np + p] = HOLD
                row[4 * np + p] = 0
                row[5 * np + p] = 0
            for key, value in (<dict> orders).items():
                p = key
                if self.g.b.upow[p] < 0:
                    continue
                order = <tuple> value
                row[3 * np + p] = order[0]
                if order[0] != HOLD:
                    row[4 * np + p] = order[1]
                if order[0] == SUPPORT_MOVE:
                    row[5 * np + p] = order[2]
            self.dates[2 * i] = pos.season
            self.dates[2 * i + 1] = pos.year

    def __dealloc__(self):
        PyMem_Free(self.boards)
        PyMem_Free(self.dates)

    def __len__(self):
        return self.count

    cdef int _play(self, int i) except -1:
        """Phase ``i``'s board and orders into the game, then resolved and applied."""
        cdef CMap cm = self.cm
        cdef _Game g = self.g
        cdef _Board b = g.b
        cdef int np = cm.num_provinces
        cdef int *row = self.boards + BOARD_ROWS * np * i
        cdef int p
        memcpy(b.upow, row, np * sizeof(int))
        memcpy(b.unode, row + np, np * sizeof(int))
        memcpy(b.owner, row + 2 * np, np * sizeof(int))
        memset(b.dpow, -1, np * sizeof(int))
        memset(b.dnode, -1, np * sizeof(int))
        memcpy(g.kind, row + 3 * np, 3 * np * sizeof(int))  # g.kind, g.a, g.b_arg
        g.season = self.dates[2 * i]
        g.year = self.dates[2 * i + 1]
        g.num_units = 0
        for p in range(np):
            if b.upow[p] >= 0:
                g.units[g.num_units] = p
                g.num_units += 1
        _apply_movement(
            cm, g, resolve_arrays(g.r, g.num_units, g.units, b.upow, g.kind, g.a, g.b_arg)
        )
        return 0

    def run(self):
        """Resolve and apply every phase once, each from its board as read."""
        cdef int i
        for i in range(self.count):
            self._play(i)

    def next_position(self, int i):
        """Phase ``i`` resolved and applied, as a position (units in province order)."""
        if not 0 <= i < self.count:
            raise IndexError(f"no phase {i} of {self.count}")
        self._play(i)
        return self.g.position(self.cm, self.game_map)


