# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
# cython: cdivision=True
"""The compiled search's map tables and DumbBot's weights (see ``search/_maptables.pxd``).

* :class:`CMap` — a map's node tables as C arrays (built once per map), every index
  checked as they are built;
* :class:`CWeights` — one :class:`~search.tables.DumbBotWeights` as C integers, with the
  check that its values cannot overflow 64 bits on a map;

What the rooms keep per map they keep in :class:`adjudicator.per_map.PerMap` (a map's
bounds in its weights, its valuation's scratch, its rollout's arrays, and
search.compiled_search's tables, kernels and policies of a map).
"""

from dataclasses import fields

from adjudicator.per_map cimport PerMap, kept_for

cdef extern from *:
    const char *SOURCE_SHA256  # defined by setup.py

SOURCE_HASH = SOURCE_SHA256.decode("ascii")
"""The SHA-256 of the source this module was built from (see adjudicator.compiled_rules.load)."""

cdef double SAFE = 2.0 ** 62
"""Largest magnitude an intermediate value may reach for the 64-bit arithmetic to be exact."""

NARROW_LIMIT = 2 ** 31 - 5
"""Largest magnitude a proximity level (or a sum of its terms) may reach in 32-bit lanes
(a little below 2**31: room for ``DB_FLOOR_OFFSET``)."""


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


cdef dict _VALUE_KEYS = {}
_NOT_IN_VALUES = frozenset({"play_alternative", "alternative_difference_modifier"})


cdef class CMap:
    """A map's DumbBot tables as C arrays (see :class:`search.tables.MapTables`).

    Built from the map and its :class:`~search.tables.MapTables`; node ids are
    the tables' own.  Every index is checked as the arrays are built (``ValueError``
    if one is out of range, or a move leads to a place with no node of its unit
    type), so the unchecked C reads below stay inside the arrays.  Only the tables:
    what a room keeps per map it keeps in a :class:`~adjudicator.per_map.PerMap` keyed by the
    CMap.
    """

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
        self.adj_node = _ints(
            [self.node_of(self.node_type[i], adj_locs[j]) for i in range(n)
             for j in range(adj_off[i], adj_off[i + 1])]
        )
        self.adj_prov = _ints([game_map.loc_province[d] for d in adj_locs])
        self.touch_prov = _indices(touch, np, "bordering provinces")
        if 2 * len(touch) >= UNIT_COUNT_LIMIT:  # a province's units, standing and dislodged
            raise ValueError(f"{len(touch)} bordering provinces (db_leaders' counts)")
        self.touch_off = _ints(touch_off)
        self.centres = _indices(game_map.supply_centres, np, "supply centres")
        self.is_centre = _new_bytes(np)
        for i in range(self.num_centres):
            self.is_centre[self.centres[i]] = 1
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
        threats, threat_off = [], [0]
        for i in range(n):
            for k in range(self.num_centres):
                j = self.centres[k]
                if tables.node_prov[i] in game_map.neighbours[j] and self.reach[i * np + j]:
                    threats.append(k)
            threat_off.append(len(threats))
        self.threat_idx = _ints(threats)
        self.threat_off = _ints(threat_off)
        self.home = _new_bytes(self.num_powers * np)
        homes, home_off = [], [0]
        for i in range(self.num_powers):
            _check(game_map.homes[i], np, "home centres")
            for j in game_map.homes[i]:
                self.home[i * np + j] = 1
            homes.extend(sorted(set(game_map.homes[i])))
            home_off.append(len(homes))
        self.home_idx = _ints(homes)
        self.home_off = _ints(home_off)


cdef int _fives(long long x, int most):
    """How many times 5 divides ``x``, at most ``most`` (``most`` for 0)."""
    cdef int k = 0
    while k < most and x % 5 == 0:
        x //= 5
        k += 1
    return k


cdef class CWeights:
    """One :class:`~search.tables.DumbBotWeights` as C integers.

    ``ValueError`` if a proximity table is not :data:`DEPTH` long.
    :meth:`fits` says whether every value on a map stays exact in 64 bits.
    """


    def __init__(self, object w):
        cdef int k, n
        tables = (w.spring_proximity, w.fall_proximity, w.build_proximity, w.remove_proximity)
        self.narrow_weights = all(-NARROW_LIMIT <= x <= NARROW_LIMIT for t in tables for x in t)
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
        self.bounds = PerMap()
        self.exact = min(
            _fives(x, DEPTH - 1)
            for x in (w.spring_attack, w.spring_defence, w.fall_attack, w.fall_defence)
        )
        # the constants the values depend on (not the coin's): one interned tuple per set
        key = tuple(getattr(w, f.name) for f in fields(w) if f.name not in _NOT_IN_VALUES)
        self.values_key = _VALUE_KEYS.setdefault(key, key)

    def fits(self, CMap cm):
        """Whether every intermediate value on ``cm``'s map stays below 2**62 in magnitude.

        A bound from the weights and the map alone: the largest power size,
        the base value it can give, the growth of proximity per level, the
        unit counts, and DumbBot's coin arithmetic on the resulting values.
        """
        cdef list bounds = self._bounds(cm)
        if bounds[0] is None:
            bounds[0] = self._bound(cm) < SAFE
        return bounds[0]

    def narrow(self, CMap cm):
        """Whether every proximity level on ``cm``'s map, every sum it is divided from, and
        every proximity weight stay within 32 bits (the levels are computed in 32-bit lanes
        then, else 64-bit).

        A bound from the weights and the map alone: the largest base value any
        province can have, carried through the map's own proximity sums level by
        level (each node's bound is that of its terms' sum, divided by 5 and
        rounded up), in Python's exact integers.
        """
        cdef list bounds = self._bounds(cm)
        if bounds[1] is None:
            bounds[1] = self.narrow_weights and self._level_bound(cm) <= NARROW_LIMIT
        return bounds[1]

    def plain(self, CMap cm):
        """Whether the levels on ``cm``'s map are in 32-bit lanes (:meth:`narrow`) and never
        negative: every base value a power size (each one on the map), an attack or a defence
        weight, the home and unit weights can make is at least 0 (the levels' floor division
        is then a plain unsigned one)."""
        cdef list bounds = self._bounds(cm)
        if bounds[2] is None:
            bounds[2] = self.narrow(cm) and (
                all(
                    self.size_a * c * c + self.size_b * c + self.size_c >= 0
                    for c in range(cm.num_centres + 1)
                )
                and min(self.spring_attack, self.fall_attack, self.home_attack) >= 0
                and min(self.spring_defence, self.fall_defence, self.home_defence) >= 0
                and self.home_vacation <= 0
                and self.base_unit >= 0
            )
        return bounds[2]

    cdef list _bounds(self, CMap cm):
        """``cm``'s [fits, narrow, plain] (each None until asked), kept per map."""
        found = kept_for(self.bounds, cm)
        if found is None:
            found = self.bounds.keep(cm, [None, None, None])
        return <list> found

    cdef object _level_bound(self, CMap cm):
        """The largest magnitude a proximity level or a sum of its terms can reach on ``cm``."""
        size = max(
            abs(self.size_a * c * c + self.size_b * c + self.size_c)
            for c in range(cm.num_centres + 1)
        )
        attack = max(abs(self.spring_attack), abs(self.fall_attack))
        defence = max(abs(self.spring_defence), abs(self.fall_defence))
        threat = max(size * max(1, abs(self.home_defence)), abs(self.home_vacation))
        centre = max(size * max(1, abs(self.home_attack)) * attack, threat * defence)
        unit = (size * abs(self.base_unit) // 100 + 1) * attack if self.base_unit else 0
        bounds = [centre + unit] * cm.num_nodes
        worst = bounds[0]
        cdef int n, i, j, g
        for n in range(1, DEPTH):
            nxt = []
            for i in range(cm.num_nodes):
                total = 0
                for j in range(cm.sum_off[i], cm.sum_off[i + 1]):
                    total += bounds[cm.sum_idx[j]]
                for g in range(cm.grp_off[i], cm.grp_off[i + 1]):
                    total += max(
                        [bounds[cm.item_idx[j]] for j in range(cm.item_off[g], cm.item_off[g + 1])]
                    )
                worst = max(worst, total)
                nxt.append(-(-total // 5))
            bounds = nxt
        return worst

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


