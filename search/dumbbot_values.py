"""DumbBot's province values, computed fast: the valuation shared by the heuristic players.

David Norman's DumbBot values every *node* (a place a unit of one type can
stand: the army node of a land province, the fleet node of each coast) for one
power, in two steps (constants from Parang's port, :class:`DumbBotWeights`):

1. Each supply centre gets a base value.  One of ours is worth its *defence
   value*: the size of the largest enemy power with a unit that can move into
   it.  Anyone else's is worth its *attack value*: the size of its owner
   (neutral centres count as size ``C``).  A power's size is ``A*x*x + B*x + C``
   for ``x`` centres.  ``proximity[0]`` of a node is ``attack * attack_weight +
   defence * defence_weight`` (the weights depend on the season).
2. ``proximity[n]`` of a node is ``(proximity[n-1]`` of the node ``+`` the sum,
   over each province the node borders, of the highest ``proximity[n-1]`` among
   the node's neighbours in that province``) // 5``, for ``n`` up to 9.

A movement or retreat destination is then worth ``sum(proximity[n] *
weight[n]) + strength_weight * strength - competition_weight * competition``,
where *strength* counts our units in or next to the province and
*competition* the most units any one other power has there.  A winter node is
worth ``sum(proximity[n] * build_weight[n]) + defence_weight * max(0, defence)``.

Where Parang's port differs from the seeds' description, this follows Parang:

* the seeds' "sum(proximity[n-1] of adjacent coasts * proximity[n-1] of this
  coast) / 5" is Parang's *sum* (own value plus, per bordering province, the
  best of its coasts), floored;
* the defence value is the size of the largest *enemy with a unit able to move
  in*, not of "the largest adjacent power";
* strength and competition count a unit once per location it borders, so a
  fleet in MAO counts twice next to Spain (both coasts), as in Parang.

Units dislodged in a retreat phase still count (Parlance's client board keeps
them on the map until they retreat).

Speed: the per-map tables are built once per map (:func:`tables_for`); the
proximity iteration is one list comprehension of C-level ``itemgetter`` sums
per level; destination values, strength and competition are computed lazily,
only for the nodes a player asks about.  This module is also the oracle of the
compiled twin, ``search/_fastbot.pyx``, which computes the same values some forty
times faster and runs instead when it was built (see :mod:`search.compiled_search`).
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import itemgetter, mul
from random import Random

from adjudicator.position import AUTUMN, FALL, SPRING, SUMMER, WINTER, Position
from search import compiled_search as speedups
from search.tables import DEFAULT_WEIGHTS, PROXIMITY_DEPTH, DumbBotWeights, MapTables, tables_for

# --- the values -------------------------------------------------------------------------


def proximity_levels(tables: MapTables, base: Sequence[int]) -> list[list[int]]:
    """``proximity[0..9]`` per node, from ``base[prov]`` (proximity[0] of the province's nodes)."""
    node_prov = tables.node_prov
    cur = [base[p] for p in node_prov]
    levels = [cur]
    getters = tables.sum_getters
    multi = tables.multi_groups
    for _ in range(PROXIMITY_DEPTH - 1):
        nxt = [sum(g(cur)) // 5 for g in getters]
        for i, groups in multi:
            total = sum(getters[i](cur))
            for group in groups:
                total += max([cur[j] for j in group])
            nxt[i] = total // 5
        levels.append(nxt)
        cur = nxt
    return levels


class ProvinceValues:
    """DumbBot's values of every node for one power in one phase (lazy where it pays).

    Build with :func:`dumbbot_values`.  :meth:`node_value` is the value DumbBot
    compares destinations, retreats, builds and removals by;
    :meth:`strength` and :meth:`competition` are its per-province unit counts.
    """

    __slots__ = (
        "_counts",
        "_values",
        "competition_cache",
        "defence",
        "levels",
        "num_powers",
        "power",
        "proximity_weights",
        "tables",
        "weights",
        "winter",
        "winter_defence_weight",
    )

    def __init__(
        self,
        tables: MapTables,
        power: int,
        levels: list[list[int]],
        defence: list[int],
        counts: list[int],
        proximity_weights: tuple[int, ...],
        weights: tuple[int, int],
        winter: bool,
    ) -> None:
        self.tables = tables
        self.power = power
        self.levels = levels
        self.defence = defence
        self._counts = counts
        self.num_powers = tables.map.num_powers
        self.proximity_weights = proximity_weights
        self.weights = weights
        self.winter = winter
        self.winter_defence_weight = weights[0]
        self._values: list[int | None] = [None] * tables.num_nodes
        self.competition_cache: dict[int, int] = {}

    def strength(self, prov: int) -> int:
        """Our units in or next to ``prov`` (a fleet next to two coasts counts twice)."""
        return self._counts[prov * self.num_powers + self.power]

    def competition(self, prov: int) -> int:
        """The most units any one other power has in or next to ``prov``."""
        cached = self.competition_cache.get(prov)
        if cached is None:
            start = prov * self.num_powers
            row = self._counts[start : start + self.num_powers]
            row[self.power] = 0
            cached = self.competition_cache[prov] = max(row)
        return cached

    def node_value(self, node: int) -> int:
        """The value DumbBot gives ``node`` in this phase (see the module docstring)."""
        value = self._values[node]
        if value is None:
            value = sum(map(mul, self.proximity_weights, map(itemgetter(node), self.levels)))
            prov = self.tables.node_prov[node]
            if self.winter:
                d = self.defence[prov]
                if d > 0:
                    value += self.winter_defence_weight * d
            else:
                strength_w, competition_w = self.weights
                value += strength_w * self.strength(prov) - competition_w * self.competition(prov)
            self._values[node] = value
        return value

    def value(self, unit_type: int, loc: int) -> int:
        """The value of location ``loc`` for a unit of ``unit_type``."""
        return self.node_value(self.tables.node_of[unit_type][loc])


def base_values(
    pos: Position, power: int, attack_weight: int, defence_weight: int, weights: DumbBotWeights
) -> tuple[list[int], list[int]]:
    """``(proximity[0] per province, defence value per province)`` for ``power``."""
    m = pos.map
    counts = pos.centre_counts()
    sizes = [weights.size(c) for c in counts]
    neutral = weights.size_constant
    owners = pos.owners
    tables = tables_for(m)
    base = [0] * m.num_provinces
    defence = [0] * m.num_provinces
    my_homes = m.homes[power]
    for sc in m.supply_centres:
        owner = owners[sc]
        if owner == power:
            d = _largest_threat(pos, tables, sizes, power, sc)
            if sc in my_homes:
                d = d * weights.home_defence_weight if d else -weights.home_vacation_weight
            defence[sc] = d
            base[sc] = d * defence_weight
        elif owner < 0:
            base[sc] = neutral * attack_weight
        else:
            attack = sizes[owner]
            if sc in m.homes[owner]:
                attack *= weights.home_attack_weight
            base[sc] = attack * attack_weight
    if weights.base_unit_weight:
        for prov, unit in pos.units.items():
            base[prov] += sizes[unit[0]] * weights.base_unit_weight // 100 * attack_weight
    return base, defence


def _largest_threat(pos: Position, tables: MapTables, sizes: list[int], power: int, sc: int) -> int:
    """The size of the largest enemy with a unit (dislodged ones too) able to move into ``sc``."""
    units = pos.units
    dislodged = pos.dislodged
    reach = tables.reach
    node_of = tables.node_of
    d = 0
    for q in tables.neighbour_provs[sc]:
        unit = units.get(q)
        if unit is not None:
            other = unit[0]
            if other != power and sizes[other] > d and sc in reach[node_of[unit[1]][unit[2]]]:
                d = sizes[other]
        if dislodged:
            du = dislodged.get(q)
            if du is not None:
                other = du[0]
                if other != power and sizes[other] > d and sc in reach[node_of[du[1]][du[2]]]:
                    d = sizes[other]
    return d


def unit_counts_near(pos: Position) -> list[int]:
    """Per province and power (flat, ``prov * num_powers + power``): units in or next to it."""
    tables = tables_for(pos.map)
    num_powers = pos.map.num_powers
    counts = [0] * (pos.map.num_provinces * num_powers)
    node_of = tables.node_of
    touch = tables.touch_offsets
    for power, utype, loc in pos.units.values():
        for offset in touch[node_of[utype][loc]]:
            counts[offset + power] += 1
    for power, utype, loc, _ in pos.dislodged.values():
        for offset in touch[node_of[utype][loc]]:
            counts[offset + power] += 1
    return counts


class _ProximityCache:
    """A small bounded memo of proximity levels keyed by the base vector.

    The same (position, power) is valued again and again when a search
    replays the phases just below its root; the base vector (one int per
    province) is a cheap exact key for the costly part.  A ``limit`` of 0
    turns the memo off.
    """

    __slots__ = ("entries", "hits", "limit", "misses")

    def __init__(self, limit: int = 256) -> None:
        # (id of the tables, *base): the tables (held, so that their id stays their own), levels
        self.entries: dict[tuple[int, ...], tuple[MapTables, list[list[int]]]] = {}
        self.limit = limit
        self.hits = 0
        self.misses = 0

    def levels(self, tables: MapTables, base: list[int]) -> list[list[int]]:
        """The proximity levels for ``base``, from the memo when it has them."""
        if self.limit <= 0:
            self.misses += 1
            return proximity_levels(tables, base)
        key = (id(tables), *base)
        found = self.entries.get(key)
        if found is not None:
            self.hits += 1
            return found[1]
        self.misses += 1
        if len(self.entries) >= self.limit:
            self.entries.clear()
        levels = proximity_levels(tables, base)
        self.entries[key] = (tables, levels)
        return levels

    def clear(self) -> None:
        """Forget every entry and reset the counters."""
        self.entries.clear()
        self.hits = self.misses = 0


PROXIMITY_CACHE = _ProximityCache()
"""The process-wide proximity memo (its ``hits``/``misses`` are handy when profiling)."""


def dumbbot_values(
    pos: Position,
    power: int,
    weights: DumbBotWeights = DEFAULT_WEIGHTS,
    *,
    removing: bool = False,
) -> ProvinceValues:
    """DumbBot's values for ``power`` in the phase ``pos`` is in.

    Spring movement and summer retreats use the spring weights, fall and autumn
    the fall weights; winter uses the spring attack/defence weights with the
    build (or, with ``removing``, the removal) proximity and defence weights.
    When the compiled code runs, the values come as its ``CValues``, with the same
    methods.
    """
    season = pos.season
    tables = tables_for(pos.map)
    fast = speedups.kernel(tables, weights)
    if fast is not None:
        return fast.values(pos, power, removing)  # type: ignore[no-any-return]
    if season == SPRING or season == SUMMER:
        attack_w, defence_w = weights.spring_attack, weights.spring_defence
        prox_w = weights.spring_proximity
        pair = (weights.spring_strength, weights.spring_competition)
    elif season == FALL or season == AUTUMN:
        attack_w, defence_w = weights.fall_attack, weights.fall_defence
        prox_w = weights.fall_proximity
        pair = (weights.fall_strength, weights.fall_competition)
    else:
        assert season == WINTER
        attack_w, defence_w = weights.spring_attack, weights.spring_defence
        if removing:
            prox_w, pair = weights.remove_proximity, (weights.remove_defence, 0)
        else:
            prox_w, pair = weights.build_proximity, (weights.build_defence, 0)
    base, defence = base_values(pos, power, attack_w, defence_w, weights)
    levels = PROXIMITY_CACHE.levels(tables, base)
    counts = unit_counts_near(pos) if season != WINTER else []
    return ProvinceValues(tables, power, levels, defence, counts, prox_w, pair, season == WINTER)


# --- DumbBot's weighted random choice ---------------------------------------------------


def prefer_second(best: int, second: int, rng: Random, weights: DumbBotWeights) -> bool:
    """DumbBot's coin: whether to play the second choice instead of ``best`` (higher is better).

    The chance is ``play_alternative`` percent, less as the gap grows: it is 0
    once ``second`` trails ``best`` by a fifth of ``best`` (with the default
    modifier 500).
    """
    if best:
        best_chance = (best - second) * weights.alternative_difference_modifier // abs(best)
    else:
        best_chance = 0
    chance = weights.play_alternative - best_chance * weights.play_alternative // 100
    return rng.random() * 100 < chance


def select_index(
    values: Sequence[int], rng: Random, weights: DumbBotWeights = DEFAULT_WEIGHTS
) -> int:
    """DumbBot's choice among ``values`` (higher is better): usually the best, sometimes not.

    Walks down from the best value, taking each next one while the coin says
    so, each compared against the *best* (Parang's choice; the original
    DumbBot compared against the current pick).  Ties rank by index, the last
    one first, as Parang's sort of ``(value, index)`` pairs does.
    """
    n = len(values)
    if n == 1:
        return 0
    ranked = sorted(range(n), key=lambda i: (values[i], i))
    best = values[ranked[-1]]
    current = n - 1
    step = n - 1
    while step > 0:
        step -= 1
        if prefer_second(best, values[ranked[step]], rng, weights):
            current = step
        else:
            break
    return ranked[current]
