# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
# cython: cdivision=True
"""The compiled search's entry points from Python: DumbBot's and the learned policy's
movement orders, the thesis's region weights, the ``dm`` rollout and the steps of its
tree (Cython).

The same arithmetic as :class:`search.dumbbot.DumbBot` and
:class:`search.mcts.domain.DiplomacyDomain` on C arrays, drawing from the same random
generator in the same order, so a seed gives the same orders on either path (the
pure-Python modules are the oracle the tests hold this one to).
:mod:`search.compiled_search` decides which path runs.  Built on rooms, each cimported
through its ``.pxd`` (their Python names are offered here too):

* ``search._maptables`` — :class:`CMap` (a map's node tables as C arrays), :class:`CWeights`
  (one :class:`~search.tables.DumbBotWeights` as C integers), the order kinds and seasons;
* ``search._draws`` — a plain :class:`~search.generator.SearchRandom` drawn from in C
  through NumPy's bit generator interface (:func:`draws_in_c`);
* ``search._valuation`` — DumbBot's valuation: :func:`values` (a :class:`CValues`, the
  interface of :class:`~search.dumbbot_values.ProvinceValues`); :func:`forget`;
* ``search._dumbbot`` — DumbBot's choice: its weighted random choice and a power's
  movement orders;
* ``search._policy`` — :class:`CPolicy`, a learned order model's movement orders;
* ``search._rollout`` — a game played on in C arrays phase by phase, and its reward
  (:class:`NodeValues` keeps a tree node's enemy values between steps).

This module's own:

* :func:`movement_orders` — :meth:`DumbBot.movement_orders
  <search.dumbbot.DumbBot.movement_orders>` (on each map's scratch space);
* :func:`learned_orders` (:func:`learned_orders_board` from a :class:`Board`) —
  :meth:`LearnedPolicy.movement_orders <search.orderpolicy.LearnedPolicy.movement_orders>`;
* :func:`region_weights` — :func:`search.mcts.weights._weights` (V5-V8's and
  ``dm``'s weighted candidates);
* :func:`play_out` and :func:`play_out_reward` — a whole ``dm`` rollout;
* :func:`step` — a step of the tree (:class:`search.mcts.domain.DiplomacyDomain`),
  the enemies played by DumbBot or, given one, the learned policy;
* :class:`Board` — a tree node's position kept in C (:func:`board`), stepped
  (:func:`step_board`), rolled out (:func:`play_out_reward_board`) and ordered from
  (:func:`movement_orders_board`) without a Position between;
* :class:`MovementPhases` — recorded movement phases resolved and applied again (the
  adjudicator's benchmark).
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

from search._draws cimport Draws, _below, _choice, _draws, _shuffle, _uniform
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
    _check,
    _check_length,
    _fdiv,
    _ints,
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
from search._rollout cimport (
    NodeValues,
    _Game,
    _apply_movement,
    _check_reward_args,
    _draw_players,
    _game,
    _play_adjustments,
    _play_movement,
    _play_retreats,
    _reward,
    _roll_out,
    _terminal,
)
from adjudicator._movetables cimport _MapFacts
from adjudicator._moveorders cimport resolve_arrays
from adjudicator._resolver cimport _Resolver
from adjudicator.per_map cimport PerMap, kept_for

from adjudicator.position import Position as _Position

_new_position = _Position.__new__

# the rooms' Python names, as this module has always offered them
from search._draws import draws_in_c
from search._valuation import forget, values

globals().update(
    CMap=CMap,
    CWeights=CWeights,
    CValues=CValues,
    CPolicy=CPolicy,
    NodeValues=NodeValues,
)

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
    sum added left to right from zero, as search.compiled_search.plain_sum adds),
    and no fused multiply-add (``-ffp-contract=off``).
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


cpdef dict movement_orders(CMap cm, CWeights w, object pos, int power, object rng):
    """DumbBot's orders for every unit of ``power`` (see DumbBot.movement_orders)."""
    if not 0 <= power < cm.num_powers:
        raise ValueError(f"no power {power} on this map")
    return _orders_in(cm, w, pos, None, power, rng)


cpdef dict movement_orders_board(CMap cm, CWeights w, Board start, int power, object rng):
    """:func:`movement_orders` in the position ``start`` holds."""
    if not 0 <= power < cm.num_powers:
        raise ValueError(f"no power {power} on this map")
    if start.cm is not cm:
        raise ValueError("a board kept for another map")
    return _orders_in(cm, w, None, start, power, rng)




cpdef dict learned_orders(CMap cm, CPolicy pol, object pos, int power, object rng):
    """LearnedPolicy.movement_orders: the model's orders for every unit of ``power``."""
    if not 0 <= power < cm.num_powers:
        raise ValueError(f"no power {power} on this map")
    _check_policy(cm, pol)
    return _orders_in(cm, pol, pos, None, power, rng)


cpdef dict learned_orders_board(CMap cm, CPolicy pol, Board start, int power, object rng):
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




cpdef double play_out_reward(
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
) except? -1.0:
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


cpdef object step(
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

    # its fields are declared in search/_fastbot.pxd

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


cpdef tuple weighted_options(Board board, int power, tuple level_weights, int foreign_constant):
    """The thesis's options for ``power``'s units on ``board``, each valued by its region.

    ``(mean, [(province, orders, values), ...])``: per unit, in province order, the orders
    of search.mcts.thesis_rules.possible_orders (without ``two_step``) and the weight of
    the region each ends in (search.mcts.weights.RegionWeights.order_value); ``mean`` the
    regions' mean weight.  ``level_weights`` are the season's proximity weights.  The
    weights are :func:`region_weights`' and the mean adds them left to right, as
    search.compiled_search.plain_sum does.
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


cpdef Board board(CMap cm, object pos, int us, int final_year, int win_centres):
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


cpdef object step_board(
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


cpdef double play_out_reward_board(
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
) except? -1.0:
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


cdef enum:
    BOARD_ROWS = 6  # MovementPhases: the rows of a phase's board


cdef class MovementPhases:
    """Movement phases (no convoys) read into C once, to resolve and apply as the compiled
    rollouts and steps do (bot.lab.bench.bench_adjudicator times :meth:`run`).

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



