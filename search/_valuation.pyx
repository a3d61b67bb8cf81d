# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
# cython: cdivision=True
"""DumbBot's valuation compiled (see ``search/_valuation.pxd``).

The same arithmetic as :mod:`search.dumbbot_values` on C arrays:

* :class:`_Board` — one position read into C arrays;
* :class:`_Shared` — what the powers valued on one board share (its reading, the power
  sizes, the base values, the unit counts, the proximity levels), kept per map for the
  next call on the same board: a movement phase values seven powers on one position;
* :class:`CValues` and :func:`values` — one power's values in one phase (the interface of
  :class:`~search.dumbbot_values.ProvinceValues`).

The proximity levels are computed for every power at once, one power per lane of a
vector (``search/db_levels.h``: C with GCC's vector extensions, so the module needs GCC
or Clang).  Integer division follows Python's floor rule (``_fdiv``; lane-wise in the
kernels), as the pure-Python code does with ``//``.
"""

from cpython.mem cimport PyMem_Free, PyMem_Malloc
from libc.limits cimport INT_MAX
from libc.string cimport memcmp, memcpy, memset

from adjudicator.per_map cimport PerMap, kept_for
from search._maptables cimport (
    AUTUMN,
    DEPTH,
    FALL,
    MAX_POWERS,
    SPRING,
    SUMMER,
    WINTER,
    CMap,
    CWeights,
    _check_length,
    _fdiv,
)

cdef extern from *:
    const char *SOURCE_SHA256  # defined by setup.py

SOURCE_HASH = SOURCE_SHA256.decode("ascii")
"""The SHA-256 of the source this module was built from (see adjudicator.compiled_rules.load)."""

# The kernels (search/db_levels.h; see _compute_levels).
cdef extern from "db_levels.h":
    enum: DB_DEPTH
    void db_levels_narrow(
        int nn, int rows, int stride, const int *node_prov, const int *base,
        int num_runs, const int *runs, const int *recs, const int *item_off,
        const int *item_at, int *lv, int exact,
    ) noexcept nogil
    void db_levels_plain(
        int nn, int rows, int stride, const int *node_prov, const int *base,
        int num_runs, const int *runs, const int *recs, const int *item_off,
        const int *item_at, int *lv, int exact,
    ) noexcept nogil
    void db_levels_wide(
        int nn, int rows, int stride, const int *node_prov, const long long *base,
        int num_runs, const int *runs, const int *recs, const int *item_off,
        const int *item_at, long long *lv, int exact,
    ) noexcept nogil
    void db_some_levels_narrow(
        int nn, int rows, int stride, const int *node_prov, const int *base,
        int num_runs, const int *runs, const int *recs, const int *item_off,
        const int *item_at, int *lv, int exact, const unsigned long long *dirty, int words,
        const int *pos_node,
    ) noexcept nogil
    void db_some_levels_plain(
        int nn, int rows, int stride, const int *node_prov, const int *base,
        int num_runs, const int *runs, const int *recs, const int *item_off,
        const int *item_at, int *lv, int exact, const unsigned long long *dirty, int words,
        const int *pos_node,
    ) noexcept nogil
    void db_some_levels_wide(
        int nn, int rows, int stride, const int *node_prov, const long long *base,
        int num_runs, const int *runs, const int *recs, const int *item_off,
        const int *item_at, long long *lv, int exact, const unsigned long long *dirty,
        int words, const int *pos_node,
    ) noexcept nogil
    int db_plan(
        const unsigned long long *balls, int words, const int *changed, int m, bint all,
        int nn, const unsigned long long *need, unsigned long long *stale,
        unsigned long long *dirty,
    ) noexcept nogil
    void db_clear(int *p, size_t n) noexcept nogil
    void db_leaders(
        const int *counts, int np, int stride, int *top, int *leader, int *runner
    ) noexcept nogil
    bint db_centres_narrow(
        int *base, int stride, int n, const int *rows, const int *owner,
        const long long *attack, const long long *defend,
    ) noexcept nogil
    bint db_centres_wide(
        long long *base, int stride, int n, const int *rows, const int *owner,
        const long long *attack, const long long *defend,
    ) noexcept nogil

assert DB_DEPTH == DEPTH, "db_lanes.h's DB_DEPTH is search._maptables' DEPTH"

# the levels are made again node by node (_compute_some_levels) when the changed base rows
# are at most SOME_ROWS and the nodes they reach at most this share of the map's (more, and
# the full kernel is cheaper)
cdef enum:
    SOME_SHARE_NUM = 3
    SOME_SHARE_DEN = 5
    SOME_ROWS = 8


cdef class _Board:
    """One position read into C arrays: who stands where, and who owns what.

    ``ValueError`` if the position does not fit the map (a province, power or
    place the map lacks): nothing unchecked is written into the arrays.
    """


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
        for key, value in (<dict?> pos.units).items():
            u = _unit_tuple(value, UNIT_FIELDS)
            p, power, utype, loc = key, u[0], u[1], u[2]
            _check_unit(cm, p, power, utype, loc)
            self.upow[p] = power
            self.unode[p] = cm.node_of(utype, loc)
        dislodged = <dict?> pos.dislodged
        self.any_dislodged = len(dislodged) > 0
        for key, value in dislodged.items():
            u = _unit_tuple(value, DISLODGED_FIELDS)
            p, power, utype, loc = key, u[0], u[1], u[2]
            _check_unit(cm, p, power, utype, loc)
            self.dpow[p] = power
            self.dnode[p] = cm.node_of(utype, loc)
        return 0

    def __dealloc__(self):
        PyMem_Free(self.upow)


cdef enum:
    UNIT_FIELDS = 3  # (power, type, location)
    DISLODGED_FIELDS = 4  # (power, type, location, retreats)


cdef inline tuple _unit_tuple(object value, Py_ssize_t size):
    """``value``, a unit's tuple of ``size`` fields; else ``ValueError`` (C reads its items
    unchecked)."""
    if not isinstance(value, tuple) or len(<tuple> value) != size:
        raise ValueError(f"a unit {value!r} that is not a tuple of {size} fields")
    return <tuple> value


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
    """DumbBot's values of every node for one power in one phase (as ``ProvinceValues``).

    The C paths read a value or a competition count through :func:`_value` and
    :func:`_competition`, which work it out from the board valued last (the shared
    valuation :func:`_compute` points them at: its weighted levels, unit counts and
    defence values) for only the nodes and provinces read, a value once per valuation
    (``vals[node]``, current while ``stamp[node]`` is ``epoch``); ``kept`` says the arrays
    ``vals`` and ``comp`` hold every one instead (filled by :func:`_keep`, or copied in
    from a :class:`NodeValues`).
    """


    def __cinit__(self, CMap cm, int power):
        self.cm = cm
        self.tables = cm.tables
        self.power = power
        self.np = cm.num_provinces
        self.nn = cm.num_nodes
        self.nw = cm.num_powers
        self.vals = <long long *> PyMem_Malloc(
            self.nn * sizeof(long long) + (self.np * self.nw + self.np + self.nn) * sizeof(int)
        )
        if self.vals == NULL:
            raise MemoryError()
        self.counts = <int *> (self.vals + self.nn)
        self.comp = self.counts + self.np * self.nw
        self.stamp = self.comp + self.np
        memset(self.stamp, 0, self.nn * sizeof(int))
        self.epoch = 0

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



cdef object _union(list sets):
    """The union of bit sets."""
    cdef object out = 0
    for x in sets:
        out |= x
    return out


cdef class _Shared:
    """DumbBot's valuation of the last board valued, shared by the calls that read it.

    Seven powers are valued on one position in a row (a movement phase of a
    rollout, the enemies at a tree node, the builds of a winter): the board is
    read, the power sizes, the base and defence values, the unit counts near
    each province (with the most units one power has there and the most any
    other has) are computed once, and the first call that needs proximity
    levels computes them for every power at once: lane ``power`` of
    ``levels[(n * rows + node) * lanes + power]``, in 32-bit lanes when
    :meth:`CWeights.narrow` says they fit, else in 64-bit ones (see
    ``db_levels_narrow``).  The key is the board itself (units, dislodged
    units, owners), the season and the weights' valuation constants, compared
    in full, so a position changed in place is never taken for the one valued.
    A new board keeps the levels of the last when every base value is the
    same (the same weights; most often a winter and the spring after it), and
    makes them again only where its changed centres' rows reach when few
    changed (see :func:`_compute_levels`).
    """


    def __cinit__(self, CMap cm):
        cdef int nw = cm.num_powers
        cdef int np = cm.num_provinces
        cdef int nn = cm.num_nodes
        cdef int nc = cm.num_centres
        cdef int groups = cm.grp_off[nn]
        cdef int terms = cm.sum_off[nn] + groups, items = cm.item_off[groups]
        cdef int touches = cm.touch_off[nn]
        cdef int i, j, t, r
        self.np = np
        self.size = 5 * np
        self.rows = nn + groups  # the nodes, then the groups
        self.lanes = (nw + LANES - 1) // LANES * LANES
        cdef int row = DEPTH * self.lanes  # a row's levels, side by side (see DB_LEVELS)
        self.board = <int *> PyMem_Malloc(
            (
                self.size + np * self.lanes + 3 * np + nn + terms + 2 * nn + items + touches
                + 2 * np + nc
            ) * sizeof(int)
        )
        self.base = PyMem_Malloc(np * self.lanes * sizeof(long long))
        self.defence = <long long *> PyMem_Malloc((np + 2 * nc) * sizeof(long long))
        self.levels = PyMem_Malloc(DEPTH * self.rows * self.lanes * sizeof(long long))
        self.words = (nn + 63) // 64
        self.lv_attack = <long long *> PyMem_Malloc(2 * nc * sizeof(long long))
        self.balls = <unsigned long long *> PyMem_Malloc(
            (np + nn + 3) * DEPTH * self.words * sizeof(unsigned long long)
        )
        self.changed = <int *> PyMem_Malloc((2 * nc + nn + 1) * sizeof(int))
        if (
            self.board == NULL or self.base == NULL or self.defence == NULL
            or self.levels == NULL or self.lv_attack == NULL or self.balls == NULL
            or self.changed == NULL
        ):
            raise MemoryError()
        self.dirty = self.balls + np * DEPTH * self.words
        self.need = self.dirty + DEPTH * self.words
        self.stale = self.need + DEPTH * self.words
        self.cones = self.stale + DEPTH * self.words
        memset(self.stale, 0, DEPTH * self.words * sizeof(unsigned long long))
        self.use_need = False
        self.partial = False
        self.pos_node = self.changed + nc
        self.lv_owner = self.pos_node + nn
        self.lv_defend = self.lv_attack + nc
        self.lv_valid = False
        self.incremental = False
        self.counts = self.board + self.size
        self.top = self.counts + np * self.lanes
        self.leader = self.top + np
        self.runner = self.leader + np
        self.recs = self.runner + np
        self.runs = self.recs + nn + terms
        self.item_at = self.runs + 2 * nn
        self.touch_at = self.item_at + items
        self.unit_rows = self.touch_at + touches
        self.units = self.unit_rows + np
        self.owners = self.units + np
        self.attack = self.defence + np
        self.defend = self.attack + nc
        memset(self.counts, 0, (np * self.lanes + 3 * np) * sizeof(int))
        memset(self.base, 0, np * self.lanes * sizeof(long long))
        memset(self.defence, 0, np * sizeof(long long))
        self.num_unit_rows = 0
        records = []
        for i in range(nn):
            at = [cm.sum_idx[j] * row for j in range(cm.sum_off[i], cm.sum_off[i + 1])]
            at += [(nn + j) * row for j in range(cm.grp_off[i], cm.grp_off[i + 1])]
            records.append([i * row, *at])
        records.sort(key=len)  # stable: by node within a run
        self._balls(cm, [record[0] // row for record in records])
        t = 0
        r = -1
        for record in records:
            if r < 0 or self.runs[2 * r] != len(record) - 1:
                r += 1
                self.runs[2 * r] = len(record) - 1
                self.runs[2 * r + 1] = 0
            self.runs[2 * r + 1] += 1
            for j in record:
                self.recs[t] = j
                t += 1
        self.num_runs = r + 1
        for j in range(items):
            self.item_at[j] = cm.item_idx[j] * row
        for j in range(touches):
            self.touch_at[j] = cm.touch_prov[j] * self.lanes
        self.valid = False

    cdef int _balls(self, CMap cm, list nodes) except -1:
        """Each record position's node (``nodes``), each province's balls (the nodes whose
        level n reads, through n proximity terms, a node of that province) and each node's
        cones (the nodes whose level n its last level reads), as bit sets by position."""
        cdef int nn = cm.num_nodes, np = cm.num_provinces
        cdef int i, j, g, n, p
        bit = [0] * nn
        for i in range(nn):
            self.pos_node[i] = nodes[i]
            bit[nodes[i]] = (<object> 1) << i  # a Python int: any number of bits
        readers = [[] for _ in range(nn)]  # the nodes that have node j among their terms
        terms = [[] for _ in range(nn)]  # the nodes node i reads
        for i in range(nn):
            for j in range(cm.sum_off[i], cm.sum_off[i + 1]):
                readers[cm.sum_idx[j]].append(i)
                terms[i].append(cm.sum_idx[j])
            for g in range(cm.grp_off[i], cm.grp_off[i + 1]):
                for j in range(cm.item_off[g], cm.item_off[g + 1]):
                    readers[cm.item_idx[j]].append(i)
                    terms[i].append(cm.item_idx[j])
        memset(self.balls, 0, np * DEPTH * self.words * sizeof(unsigned long long))
        memset(self.cones, 0, nn * DEPTH * self.words * sizeof(unsigned long long))
        near = list(bit)  # within n reader steps of each node
        far = list(bit)  # within n term steps of each node
        for n in range(DEPTH):
            if n:
                near = [
                    near[i] | _union([near[k] for k in readers[i]]) for i in range(nn)
                ]
                far = [far[i] | _union([far[k] for k in terms[i]]) for i in range(nn)]
            for i in range(nn):
                self._mark(
                    self.balls + (cm.node_prov[i] * DEPTH + n) * self.words, near[i]
                )
                self._mark(self.cones + (i * DEPTH + DEPTH - 1 - n) * self.words, far[i])
        return 0

    cdef void _mark(self, unsigned long long *mask, object bits):
        """The bit set ``bits`` or'ed into ``mask``'s words."""
        cdef int k
        for k in range(self.words):
            mask[k] |= <unsigned long long> ((bits >> (64 * k)) & 0xFFFFFFFFFFFFFFFF)

    def __dealloc__(self):
        PyMem_Free(self.board)
        PyMem_Free(self.base)
        PyMem_Free(self.defence)
        PyMem_Free(self.levels)
        PyMem_Free(self.lv_attack)
        PyMem_Free(self.balls)
        PyMem_Free(self.changed)



cdef PerMap _SHARED = PerMap()
"""Each map's :class:`_Shared` (the valuation of the board it valued last)."""


cdef _Shared _shared_of(CMap cm):
    """``cm``'s :class:`_Shared`, made at its first valuation."""
    found = kept_for(_SHARED, cm)
    if found is None:
        found = _SHARED.keep(cm, _Shared(cm))
    return <_Shared> found


def forget(CMap cm):
    """Drop the board valued last on ``cm``'s map (benchmarks: every call then values from
    scratch)."""
    cdef _Shared sh = _shared_of(cm)
    sh.valid = False
    sh.levels_ready = False
    sh.lv_valid = False
    sh.partial = False
    memset(sh.stale, 0, DEPTH * sh.words * sizeof(unsigned long long))


cdef _Shared _shared(CMap cm, CWeights w, _Board b, int season):
    """The valuation of ``b``, every power's levels ready (see :class:`_Shared`)."""
    cdef _Shared sh = _shared_of(cm)
    if not (
        sh.valid
        and sh.season == season
        and sh.key is w.values_key
        and memcmp(sh.board, b.upow, sh.size * sizeof(int)) == 0
    ):
        sh.valid = False
        if sh.key is not w.values_key:
            sh.narrow = w.narrow(cm)
            sh.plain = w.plain(cm)
            sh.exact = w.exact if sh.narrow else 0
            sh.key = w.values_key
            sh.levels_ready = False
            memset(sh.base, 0, sh.np * sh.lanes * sizeof(long long))  # lanes' width may differ
            sh.lv_valid = False
            sh.incremental = not w.base_unit
            sh.partial = False
            memset(sh.stale, 0, DEPTH * sh.words * sizeof(unsigned long long))
            sh.num_unit_rows = 0
        memcpy(sh.board, b.upow, sh.size * sizeof(int))
        sh.season = season
        if _compute_board(cm, w, b, season, sh):
            sh.levels_ready = False
        sh.valid = True
    if not sh.levels_ready or sh.partial:  # partial levels serve only the call they were for
        _compute_levels(cm, sh)
        sh.levels_ready = True
    return sh


cdef bint _compute_board(CMap cm, CWeights w, _Board b, int season, _Shared sh) noexcept:
    """Every power's base values, the owners' defence values, and the unit counts (see
    search.dumbbot_values.base_values and unit_counts_near); whether a base value may have
    changed (with a unit weight, always: the unit terms are not compared)."""
    cdef int np = cm.num_provinces, nw = cm.num_powers, lanes = sh.lanes
    cdef long long attack_w, defence_w
    if season == FALL or season == AUTUMN:
        attack_w, defence_w = w.fall_attack, w.fall_defence
    else:
        attack_w, defence_w = w.spring_attack, w.spring_defence
    sh.weights[0] = attack_w
    sh.weights[1] = defence_w
    cdef long long sizes[MAX_POWERS]
    cdef size_t width = sizeof(int) if sh.narrow else sizeof(long long)  # a lane's
    cdef long long *row
    cdef int *narrow_row
    cdef long long d, a, unit_term, size
    cdef long long *threat = sh.defend  # first each centre's threat, the largest size of
    # a unit of another power than its owner that can reach it (0 if none)
    cdef bint changed
    cdef int i, j, k, n, q, s, sc, owner, node
    cdef bint take
    cdef int counts[MAX_POWERS]
    cdef int *units = sh.units
    cdef int *counts_of  # one power's lane of the unit counts
    _count_centres(cm, b.owner, counts)
    for q in range(nw):
        sizes[q] = w.size_a * counts[q] * counts[q] + w.size_b * counts[q] + w.size_c
    # an attack value for everyone but the owner, who defends (the other rows stay 0)
    for k in range(sh.num_unit_rows):
        memset(<char *> sh.base + sh.unit_rows[k] * lanes * width, 0, lanes * width)
    sh.num_unit_rows = 0
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
        sh.owners[k] = owner
        sh.attack[k] = a
        threat[k] = 0
    # the provinces with a unit, listed without a branch per province
    n = 0
    for i in range(np):
        units[n] = i
        n += b.upow[i] >= 0
    # each unit's threats (by unit, not by centre and neighbour: fewer reads), as selects
    # (the branches would be mispredicted often)
    for s in range(n):
        i = units[s]
        q = b.upow[i]
        node = b.unode[i]
        size = sizes[q]
        for j in range(cm.threat_off[node], cm.threat_off[node + 1]):
            k = cm.threat_idx[j]
            take = (q != sh.owners[k]) & (size > threat[k])
            threat[k] = size if take else threat[k]
    if b.any_dislodged:
        for i in range(np):
            q = b.dpow[i]
            if q >= 0:
                size = sizes[q]
                for j in range(cm.threat_off[b.dnode[i]], cm.threat_off[b.dnode[i] + 1]):
                    k = cm.threat_idx[j]
                    if q != sh.owners[k] and size > threat[k]:
                        threat[k] = size
    for k in range(cm.num_centres):
        sc = cm.centres[k]
        owner = sh.owners[k]
        d = 0
        if owner >= 0:
            d = threat[k]
            if cm.home[owner * np + sc]:
                d = d * w.home_defence if d else -w.home_vacation
        sh.defence[sc] = d
        sh.defend[k] = d * defence_w
    if sh.narrow:
        changed = db_centres_narrow(
            <int *> sh.base, lanes, cm.num_centres, &cm.centres[0], sh.owners, sh.attack,
            sh.defend,
        )
    else:
        changed = db_centres_wide(
            <long long *> sh.base, lanes, cm.num_centres, &cm.centres[0], sh.owners,
            sh.attack, sh.defend,
        )
    if w.base_unit:
        changed = True
        for k in range(n):
            i = units[k]
            unit_term = _fdiv(sizes[b.upow[i]] * w.base_unit, 100) * attack_w
            if sh.narrow:
                narrow_row = <int *> sh.base + i * lanes
                for q in range(lanes):
                    narrow_row[q] += <int> unit_term
            else:
                row = <long long *> sh.base + i * lanes
                for q in range(lanes):
                    row[q] += unit_term
            sh.unit_rows[k] = i
        sh.num_unit_rows = n
    # unit counts near each province (strength and competition; not used in winter), then
    # the most units one power has there, the first such power, and the most of the others
    if season == WINTER:
        db_clear(sh.counts, np * lanes + 3 * np)  # counts, top, leader, runner
        return changed
    db_clear(sh.counts, np * lanes)
    for k in range(n):
        i = units[k]
        counts_of = sh.counts + b.upow[i]
        for j in range(cm.touch_off[b.unode[i]], cm.touch_off[b.unode[i] + 1]):
            counts_of[sh.touch_at[j]] += 1
    if b.any_dislodged:
        for i in range(np):
            if b.dpow[i] >= 0:
                counts_of = sh.counts + b.dpow[i]
                k = b.dnode[i]
                for j in range(cm.touch_off[k], cm.touch_off[k + 1]):
                    counts_of[sh.touch_at[j]] += 1
    db_leaders(sh.counts, np, lanes, sh.top, sh.leader, sh.runner)
    return changed


cdef void _compute_levels(CMap cm, _Shared sh) noexcept:
    """Every power's proximity levels (see search.dumbbot_values.proximity_levels), in
    32-bit or 64-bit lanes (see :class:`_Shared`): made again only where the centres' base
    rows that changed since the levels were last computed reach (the same integers), unless
    that is most of the map."""
    cdef int m = 0, k
    cdef bint differs, every
    if sh.incremental:
        # every node (other weights: most often every centre's row changed), or those the
        # centres whose base rows (set by owner, attack, defence) changed reach
        every = not (
            sh.lv_valid
            and sh.weights[0] == sh.lv_weights[0] and sh.weights[1] == sh.lv_weights[1]
        )
        if every:
            memcpy(sh.lv_owner, sh.owners, cm.num_centres * sizeof(int))
            memcpy(sh.lv_attack, sh.attack, cm.num_centres * sizeof(long long))
            memcpy(sh.lv_defend, sh.defend, cm.num_centres * sizeof(long long))
            sh.lv_weights[0] = sh.weights[0]
            sh.lv_weights[1] = sh.weights[1]
            sh.lv_valid = True
        else:
            for k in range(cm.num_centres):
                differs = (
                    (sh.owners[k] != sh.lv_owner[k]) | (sh.attack[k] != sh.lv_attack[k])
                    | (sh.defend[k] != sh.lv_defend[k])
                )
                sh.lv_owner[k] = sh.owners[k]
                sh.lv_attack[k] = sh.attack[k]
                sh.lv_defend[k] = sh.defend[k]
                sh.changed[m] = cm.centres[k]
                m += differs
        if (
            (sh.use_need or not every and m <= SOME_ROWS)
            and db_plan(
                sh.balls, sh.words, sh.changed, m, every, cm.num_nodes,
                sh.need if sh.use_need else NULL, sh.stale, sh.dirty,
            ) * SOME_SHARE_DEN <= SOME_SHARE_NUM * (DEPTH - 1) * cm.num_nodes
        ):
            _compute_some_levels(cm, sh)
            sh.partial = sh.use_need
            return
        memset(sh.stale, 0, DEPTH * sh.words * sizeof(unsigned long long))
        sh.partial = False
    if sh.plain:
        db_levels_plain(
            cm.num_nodes, sh.rows, sh.lanes, &cm.node_prov[0], <int *> sh.base, sh.num_runs,
            sh.runs, sh.recs, &cm.item_off[0], sh.item_at, <int *> sh.levels, sh.exact,
        )
    elif sh.narrow:
        db_levels_narrow(
            cm.num_nodes, sh.rows, sh.lanes, &cm.node_prov[0], <int *> sh.base, sh.num_runs,
            sh.runs, sh.recs, &cm.item_off[0], sh.item_at, <int *> sh.levels, sh.exact,
        )
    else:
        db_levels_wide(
            cm.num_nodes, sh.rows, sh.lanes, &cm.node_prov[0], <long long *> sh.base,
            sh.num_runs, sh.runs, sh.recs, &cm.item_off[0], sh.item_at,
            <long long *> sh.levels, 0,
        )


cdef void _compute_some_levels(CMap cm, _Shared sh) noexcept:
    """The levels of the nodes ``sh.dirty`` names, the others' kept (see _compute_levels)."""
    if sh.plain:
        db_some_levels_plain(
            cm.num_nodes, sh.rows, sh.lanes, &cm.node_prov[0], <int *> sh.base, sh.num_runs,
            sh.runs, sh.recs, &cm.item_off[0], sh.item_at, <int *> sh.levels, sh.exact,
            sh.dirty, sh.words, sh.pos_node,
        )
    elif sh.narrow:
        db_some_levels_narrow(
            cm.num_nodes, sh.rows, sh.lanes, &cm.node_prov[0], <int *> sh.base, sh.num_runs,
            sh.runs, sh.recs, &cm.item_off[0], sh.item_at, <int *> sh.levels, sh.exact,
            sh.dirty, sh.words, sh.pos_node,
        )
    else:
        db_some_levels_wide(
            cm.num_nodes, sh.rows, sh.lanes, &cm.node_prov[0], <long long *> sh.base,
            sh.num_runs, sh.runs, sh.recs, &cm.item_off[0], sh.item_at,
            <long long *> sh.levels, 0, sh.dirty, sh.words, sh.pos_node,
        )


cdef void _repoint(CMap cm, CValues v) noexcept:
    """Point ``v`` at ``v.power``'s levels of the shared valuation :func:`_compute` made
    last, with a fresh epoch (no value worked out yet): a movement phase's powers in turn
    need no board compared and nothing else set again."""
    cdef _Shared sh = _shared_of(cm)
    if v.epoch == INT_MAX:
        memset(v.stamp, 0, v.nn * sizeof(int))
        v.epoch = 0
    v.epoch += 1
    v.kept = False
    v.shared = sh
    v.levels = (<char *> sh.levels) + v.power * (sizeof(int) if sh.narrow else sizeof(long long))


cdef void _compute(CMap cm, CWeights w, _Board b, int season, bint removing, CValues out):
    """Point ``out`` at the valuation of ``b`` for its power (see
    search.dumbbot_values.dumbbot_values; :func:`_value` and :func:`_competition` read it,
    :func:`values` keeps it whole and copies the unit counts too)."""
    cdef int np = cm.num_provinces
    cdef long long strength_w = 0, competition_w = 0, winter_defence_w = 0
    cdef int table  # of proximity weights: spring, fall, build, remove
    cdef bint winter = season == WINTER
    if season == SPRING or season == SUMMER:
        table = 0
        strength_w, competition_w = w.spring_strength, w.spring_competition
    elif season == FALL or season == AUTUMN:
        table = 1
        strength_w, competition_w = w.fall_strength, w.fall_competition
    else:
        table = 3 if removing else 2
        winter_defence_w = w.remove_defence if removing else w.build_defence
    cdef _Shared sh = _shared(cm, w, b, season)
    _repoint(cm, out)  # a fresh epoch, and the power's levels of this valuation
    out.winter = winter
    out.strength_w = strength_w
    out.competition_w = competition_w
    out.winter_defence_w = winter_defence_w
    out.prox = &w.prox[table][0]
    out.narrow = sh.narrow
    out.lanes = sh.lanes
    out.level = sh.lanes
    out.defence = sh.defence
    out.node_prov = &cm.node_prov[0]
    out.owner = sh.board + 4 * np
    out.unit_counts = sh.counts
    out.top = sh.top
    out.leader = sh.leader
    out.runner = sh.runner


cdef void _compute_retreats(
    CMap cm, CWeights w, _Board b, int season, CValues out, const int *ropt_n, const int *ropt,
    int max_options,
):
    """:func:`_compute` for a retreat phase: the levels made only at the nodes whose levels
    its choices read (the cones of the options of every unit dislodged from ``p`` that has
    more than one, ``ropt[p * max_options:][:ropt_n[p]]``; the levels elsewhere are left
    stale, see _compute_levels)."""
    cdef _Shared sh = _shared_of(cm)
    cdef int size = DEPTH * sh.words
    cdef int p, i, k, utype
    cdef unsigned long long *cone
    for k in range(size):
        sh.need[k] = 0
    for p in range(cm.num_provinces):
        if b.dpow[p] >= 0 and ropt_n[p] > 1:
            utype = cm.node_type[b.dnode[p]]
            for i in range(ropt_n[p]):
                cone = sh.cones + cm.node_of(utype, ropt[p * max_options + i]) * size
                for k in range(size):
                    sh.need[k] |= cone[k]
    sh.use_need = True
    _compute(cm, w, b, season, False, out)
    sh.use_need = False


cdef void _keep(CValues v, long long *vals, int *comp) noexcept:
    """Every value and competition count of ``v`` into ``vals`` and ``comp``."""
    cdef int i
    for i in range(v.np):
        comp[i] = _competition(v, i)
    for i in range(v.nn):
        vals[i] = _value(v, i)


def values(CMap cm, CWeights w, object pos, int power, bint removing=False):
    """DumbBot's values for ``power`` in the phase ``pos`` is in (a :class:`CValues`)."""
    if not 0 <= power < cm.num_powers:
        raise ValueError(f"no power {power} on this map")
    out = CValues(cm, power)
    _compute(cm, w, _Board(cm, pos), pos.season, removing, out)
    _keep(out, out.vals, out.comp)
    out.kept = True
    cdef int prov, q
    for prov in range(cm.num_provinces):
        for q in range(cm.num_powers):
            out.counts[prov * cm.num_powers + q] = _shared_of(cm).counts[prov * out.lanes + q]
    return out

