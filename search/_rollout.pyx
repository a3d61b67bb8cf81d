# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
# cython: cdivision=True
"""The ``dm`` rollout compiled (see ``search/_rollout.pxd``).

A whole rollout, every power played by one DumbBot (the twin of
:meth:`search.mcts.domain.DiplomacyDomain.play_out`): the position read into C arrays
once (:class:`_Game`, kept per map), then phase by phase every power's orders written
straight into the adjudicator's compiled resolver (``adjudicator/_moveorders.pxd``), the
movement applied in place, DumbBot's retreats, winter's centre ownership and DumbBot's
adjustments, until the horizon or the end; the reward of its end
(search.mcts.domain.DiplomacyDomain.rollout's).  The tree steps
(``search._fastbot``) play their phases with the same functions.  The rules a phase
shares with the adjudicator (a dislodged unit's retreats and which of them stand, the
centres taken in a fall, whether adjustments are due, a solo) are written once, in
``adjudicator/_phaserules.pxd``, and called here.
"""

from cpython.mem cimport PyMem_Free, PyMem_Malloc
from libc.limits cimport INT_MAX, LLONG_MIN
from libc.string cimport memcpy, memset

from adjudicator._movetables cimport _MapFacts
from adjudicator._moveorders cimport resolve_arrays
from adjudicator._phaserules cimport (
    adjustments_due,
    bounce_retreats,
    retreat_barred,
    retreat_options,
    solo_winner,
    take_centres,
)
from adjudicator._resolver cimport _Resolver
from adjudicator.per_map cimport PerMap, kept_for
from search._draws cimport Draws, _below, _choice, _draws, _shuffle, _uniform
from search._dumbbot cimport _Orders, _choose_moves, _provinces_of, _select
from search._maptables cimport (
    AUTUMN,
    DEPTH,
    FALL,
    HOLD,
    MAX_OPTIONS,
    MAX_POWERS,
    MOVE,
    SPRING,
    SUMMER,
    SUPPORT_HOLD,
    SUPPORT_MOVE,
    WINTER,
    CMap,
    CWeights,
    _check,
    _check_length,
    _fdiv,
)
from search._policy cimport CPolicy, _learned_moves
from search._valuation cimport (
    CValues,
    _Board,
    _competition,
    _compute,
    _compute_retreats,
    _count_centres,
    _keep,
    _repoint,
    _value,
)

from adjudicator.position import Position as _Position

cdef extern from *:
    const char *SOURCE_SHA256  # defined by setup.py

SOURCE_HASH = SOURCE_SHA256.decode("ascii")
"""The SHA-256 of the source this module was built from (see adjudicator.compiled_rules.load)."""

_new_position = _Position.__new__


cdef class _Game:
    """A game as a rollout plays it on in C (the board, the phase, the retreats), and the
    scratch space of its phases (see :func:`play_out`)."""


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


cdef bint _terminal(CMap cm, _Game g, int us, int final_year, int win_centres) noexcept:
    """search.mcts.domain.DiplomacyDomain.terminal."""
    cdef _Board b = g.b
    cdef int p
    cdef int counts[MAX_POWERS]
    if _ended_by(g, final_year):
        return True
    if g.season == SPRING:
        _count_centres(cm, b.owner, counts)
        if solo_winner(counts, cm.num_powers, win_centres) >= 0:
            return True
    for p in range(cm.num_provinces):
        if b.upow[p] == us:
            return False
    for p in range(cm.num_provinces):
        if b.owner[p] == us:
            return False
    return True


cdef void _enter_winter(CMap cm, _Game g) noexcept:
    """adjudicator.phases.enter_winter (no unit dislodged): centre ownership, then winter or
    the next spring, by the adjudicator's rules (adjudicator/_phaserules.pxd)."""
    cdef _Board b = g.b
    cdef int due[MAX_POWERS]
    take_centres(&cm.centres[0], cm.num_centres, b.upow, b.owner)
    g.season = WINTER
    if not adjustments_due(
        &cm.centres[0], cm.num_centres, b.owner, b.upow, cm.num_provinces, cm.num_powers, due
    ):
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
    adjudicator.retreats.adjudicate_retreats (which retreats stand: bounce_retreats)."""
    cdef _Board b = g.b
    cdef CValues v = g.v
    cdef int np = cm.num_provinces
    cdef int choices[MAX_OPTIONS]
    cdef long long scores[MAX_OPTIONS]
    cdef int p, q, n, k, i, j, utype, target, count, s
    cdef bint valued
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
                break
    bounce_retreats(dislodged, num_dislodged, &cm.loc_prov[0], g.arrival, g.kind)  # scratch
    for s in range(num_dislodged):
        p = dislodged[s]
        if g.arrival[p] >= 0:
            target = cm.loc_prov[g.arrival[p]]
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
        if d.bits != NULL:
            _below(d.bits, players)
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
    _count_centres(cm, g.b.owner, counts)
    winner = solo_winner(counts, cm.num_powers, win_centres)
    if winner >= 0:
        return 1.0 if winner == us else 0.0
    return min(1.0, <double> counts[us] / <double> win_centres)



cdef int _apply_movement(CMap cm, _Game g, bint any_dislodged) except -1:
    """adjudicator.movement.next_position's position, in place on ``g``'s board, from what
    :func:`resolve_arrays` (on ``g.units``, ``g.kind``, ``g.a``, ``g.b_arg``) found."""
    cdef _Board b = g.b
    cdef _Resolver r = g.r
    cdef int np = cm.num_provinces
    cdef int i, p, node, dest, n_moving = 0
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
            g.ropt_n[p] = retreat_options(
                &cm.adj_loc[cm.adj_off[node]],
                cm.adj_off[node + 1] - cm.adj_off[node],
                &cm.loc_prov[0],
                b.upow,
                g.contested,
                retreat_barred(r.dislodger, r.route_first, p),
                g.ropt + p * MAX_OPTIONS,
            )
        g.season += 1
    elif g.season == SPRING:
        g.season = FALL
    else:
        _enter_winter(cm, g)
    return 0




cdef class NodeValues:
    """The enemies' DumbBot values on one board, kept between the steps from it.

    A tree node's enemies are asked for orders at every descent, on the same
    board: their values (and competition counts, all DumbBot's orders read)
    are the same each time, so :func:`step` computes each power's once.
    """


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


