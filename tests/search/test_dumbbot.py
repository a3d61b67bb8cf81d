"""DumbBot: its values against a slow transcription of Parang, its choices on hand-made boards.

The oracle below is the obvious version of Parang's ``calculate_factors`` and
destination values (dicts keyed by ``(unit type, location)``, every unit
scanned for every province); the fast tables in :mod:`search.dumbbot_values` and their
compiled twin must agree with it exactly.
"""

from __future__ import annotations

import gc
import weakref
from collections import Counter, defaultdict
from random import Random

import pytest

from adjudicator.compiled_rules import pure_python
from adjudicator.maps import ARMY, FLEET, SEA, standard_map
from adjudicator.orders import (
    BUILD,
    HOLD_ORDER,
    MOVE,
    REMOVE,
    SUPPORT_HOLD,
    SUPPORT_MOVE,
    WAIVE,
    WAIVE_ORDER,
)
from adjudicator.position import AUTUMN, FALL, NOBODY, SPRING, SUMMER, WINTER, Position
from search import dumbbot as dumbbot_module
from search.dumbbot import DumbBot
from search.dumbbot_values import (
    PROXIMITY_CACHE,
    _ProximityCache,
    dumbbot_values,
    prefer_second,
    select_index,
)
from search.tables import DEFAULT_WEIGHTS, _build_tables, tables_for
from tests.search.boards import position, power, prov
from tests.search.test_randombot import assert_legal, positions_of, varied_positions

M = standard_map()


# --- the oracle ---------------------------------------------------------------------------


def oracle_values(pos: Position, me: int, removing: bool = False) -> dict[tuple[int, int], int]:
    """Parang's values, transcribed plainly: ``(unit type, location) -> value``."""
    w = DEFAULT_WEIGHTS
    m = pos.map
    if pos.season in (SPRING, SUMMER):
        aw, dw, prox_w = w.spring_attack, w.spring_defence, w.spring_proximity
        sw, cw = w.spring_strength, w.spring_competition
    elif pos.season in (FALL, AUTUMN):
        aw, dw, prox_w = w.fall_attack, w.fall_defence, w.fall_proximity
        sw, cw = w.fall_strength, w.fall_competition
    else:
        aw, dw = w.spring_attack, w.spring_defence
        prox_w = w.remove_proximity if removing else w.build_proximity
        sw = cw = 0
    coasts = []
    for p in range(m.num_provinces):
        if m.kind[p] != SEA:
            coasts.append((ARMY, p))
        coasts.extend((FLEET, loc) for loc in m.fleet_locations[p])
    counts = pos.centre_counts()
    size = {q: w.size(counts[q]) for q in range(m.num_powers)}
    size[NOBODY] = w.size_constant
    units = list(pos.units.values()) + [d[:3] for d in pos.dislodged.values()]
    attack = dict.fromkeys(range(m.num_provinces), 0)
    defence = dict.fromkeys(range(m.num_provinces), 0)
    for p in m.supply_centres:
        if pos.owners[p] == me:
            for q, utype, loc in units:
                if q != me and m.loc_province[loc] != p and p in m.reach(utype, loc):
                    defence[p] = max(defence[p], size[q])
        else:
            attack[p] = size[pos.owners[p]]
    prox = {
        c: [attack[m.loc_province[c[1]]] * aw + defence[m.loc_province[c[1]]] * dw] for c in coasts
    }
    for level in range(9):
        for c in coasts:
            seen: dict[int, int] = {}
            for d in m.adjacent(c[0], c[1]):
                value = prox[(c[0], d)][level]
                key = m.loc_province[d]
                seen[key] = max(seen.get(key, value), value)
            prox[c].append((prox[c][level] + sum(seen.values())) // 5)
    near: dict[int, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    for q, utype, loc in units:
        near[m.loc_province[loc]][q] += 1
        for d in m.adjacent(utype, loc):
            near[m.loc_province[d]][q] += 1
    out = {}
    for c in coasts:
        p = m.loc_province[c[1]]
        value = sum(x * y for x, y in zip(prox[c], prox_w, strict=True))
        if pos.season == WINTER:
            value += (w.remove_defence if removing else w.build_defence) * max(0, defence[p])
        else:
            strength = near[p][me]
            competition = max([n for q, n in near[p].items() if q != me], default=0)
            value += sw * strength - cw * competition
        out[c] = value
    return out


def sample_for_oracle() -> list[Position]:
    picks = positions_of("movement")[::9] + positions_of("retreat")[::3]
    return picks + positions_of("build")[::3] + positions_of("remove")[::3]


def test_values_match_the_slow_transcription_of_parang(hot_path: str) -> None:
    checked = 0
    for pos in sample_for_oracle():
        for me in range(M.num_powers):
            for removing in (False, True) if pos.season == WINTER else (False,):
                expected = oracle_values(pos, me, removing)
                values = dumbbot_values(pos, me, removing=removing)
                got = {c: values.value(*c) for c in expected}
                assert got == expected, (pos, me)
                checked += 1
    assert checked > 200


def test_tables_cover_every_place_a_unit_can_stand() -> None:
    t = tables_for(M)
    places = {(t.node_type[n], t.node_loc[n]) for n in range(t.num_nodes)}
    expected = {
        (utype, loc)
        for utype in (ARMY, FLEET)
        for loc in range(M.num_locations)
        if M.can_stand(utype, loc)
    }
    assert places == expected
    # a fleet in the Mid-Atlantic borders both coasts of Spain: Parang takes the better one
    mao = t.node_of[FLEET][prov("MAO")]
    assert any(len(g) == 2 for i, groups in t.multi_groups if i == mao for g in groups)


def test_proximity_memo_holds_the_tables_its_keys_name_by_id() -> None:
    """The memo's keys hold the tables' id: while an entry is kept its tables are too, so
    that tables made later (tables_for drops them past its limit) never take that id."""
    memo = _ProximityCache()
    tables = _build_tables(standard_map())
    base = [1] * standard_map().num_provinces
    levels = memo.levels(tables, base)
    held = weakref.ref(tables)
    del tables
    gc.collect()
    assert held() is not None
    assert memo.levels(held(), base) is levels  # type: ignore[arg-type]
    assert memo.hits == 1


@pure_python()
def test_proximity_memo_gives_the_same_values() -> None:
    pos = varied_positions()[30]
    PROXIMITY_CACHE.clear()
    cold = [
        dumbbot_values(pos, p).value(*pos.units[u][1:]) for p in range(7) for u in pos.units_of(p)
    ]
    warm = [
        dumbbot_values(pos, p).value(*pos.units[u][1:]) for p in range(7) for u in pos.units_of(p)
    ]
    assert cold == warm
    assert PROXIMITY_CACHE.hits >= 1


# --- the weighted choice ------------------------------------------------------------------


class FixedDice(Random):
    """A Random whose ``random()`` always returns the same number."""

    def __init__(self, value: float) -> None:
        super().__init__(0)
        self.value = value

    def random(self) -> float:
        return self.value


@pytest.mark.parametrize(
    ("best", "second", "roll", "expected"),
    [
        (100, 100, 0.49, True),  # equal values: 50% chance of the second
        (100, 100, 0.51, False),
        (100, 90, 0.24, True),  # gap 10%: best_chance 50 -> 25% chance
        (100, 90, 0.26, False),
        (100, 80, 0.0, False),  # a gap of a fifth never plays the second
        (0, -50, 0.49, True),  # best 0: no gap term, 50%
        (-100, -120, 0.0, False),  # negative best: gap measured against |best|
    ],
)
def test_prefer_second_follows_parang_arithmetic(
    best: int, second: int, roll: float, expected: bool
) -> None:
    assert prefer_second(best, second, FixedDice(roll), DEFAULT_WEIGHTS) is expected


def test_select_index_mostly_takes_the_best_and_compares_against_the_best() -> None:
    assert select_index([5], Random(0)) == 0
    # far apart: always the best
    assert {select_index([10, 1000, 20], Random(s)) for s in range(50)} == {1}
    # all equal: walks down with 50% each step, ties ranked by index (last first):
    # P(last) = 1/2, P(middle) = P(first) = 1/4
    picks = Counter(select_index([7, 7, 7], Random(s)) for s in range(2000))
    assert 900 < picks[2] < 1100
    assert 400 < picks[1] < 600
    assert 400 < picks[0] < 600
    # a die always under 50% walks to the bottom when every value ties the best
    assert select_index([7, 7, 7], FixedDice(0.1)) == 0


# --- orders on hand-made boards -----------------------------------------------------------


def test_moves_into_the_valuable_foreign_centres_next_door() -> None:
    owners = {
        "AUS": ["VIE", "TRI", "BUD"],
        "GER": ["MUN", "BER", "KIE"],
        "ITA": ["VEN", "ROM", "NAP"],
    }
    pos = position("FAL 1901", ["AUS A TYR", "GER A KIE", "ITA F NAP"], owners)
    rng = Random(0)
    dests = Counter(
        DumbBot().movement_orders(pos, power("AUS"), rng)[prov("TYR")] for _ in range(300)
    )
    assert set(dests) <= {(MOVE, prov("MUN")), (MOVE, prov("VEN"))}
    assert min(dests.values()) > 50  # two near-equal targets: the alternative gets played


def test_supports_a_move_that_meets_competition() -> None:
    owners = {"FRA": ["PAR", "BRE", "MAR", "MUN"], "ENG": ["LON", "EDI", "LVP"]}
    pos = position("FAL 1901", ["FRA A PIC", "FRA A BUR", "ENG F NTH"], owners)
    rng = Random(1)
    bel = prov("BEL")
    for _ in range(100):
        orders = DumbBot().movement_orders(pos, power("FRA"), rng)
        movers = [p for p, o in orders.items() if o == (MOVE, bel)]
        assert len(movers) == 1
        (other,) = set(orders) - set(movers)
        assert orders[other] == (SUPPORT_MOVE, movers[0], bel)


def test_does_not_move_onto_its_own_unit_that_stays() -> None:
    pos = varied_positions()[0]
    for seed in range(30):
        orders = DumbBot().movement_orders(pos, power("RUS"), Random(seed))
        staying = {p for p, o in orders.items() if o[0] != MOVE}
        targets = [M.loc_province[o[1]] for o in orders.values() if o[0] == MOVE]
        assert not staying & set(targets)
        assert len(targets) == len(set(targets)), "never two of our units into one province"


def test_wasted_holds_become_supports_of_the_best_neighbouring_order() -> None:
    pos = position(
        "SPR 1901",
        ["GER A MUN", "GER A BER", "GER F KIE", "RUS A WAR", "RUS A PRU"],
        {"GER": ["MUN", "BER", "KIE"], "RUS": ["WAR"]},
    )
    values = dumbbot_values(pos, power("GER"))
    orders = {
        prov("BER"): HOLD_ORDER,
        prov("KIE"): (MOVE, prov("HOL")),
        prov("MUN"): (MOVE, prov("SIL")),
    }
    DumbBot()._replace_wasted_holds(pos, values, orders)
    # Berlin borders Silesia (a move with competition) and Kiel (no entry: Kiel's unit moves out)
    assert orders[prov("BER")] == (SUPPORT_MOVE, prov("MUN"), prov("SIL"))


class _UniqueValues:
    """Stub values: every node worth its id plus one (so a value names its node)."""

    def __init__(self) -> None:
        self.tables = tables_for(M)

    def node_value(self, node: int) -> int:
        return node + 1

    def value(self, utype: int, loc: int) -> int:
        return self.tables.node_of[utype][loc] + 1

    def competition(self, prov: int) -> int:
        return 0


@pure_python()  # it stubs the Python valuation (the compiled twin: tests/search/test_speedups.py)
def test_a_waiting_cycle_is_broken(monkeypatch: pytest.MonkeyPatch) -> None:
    # A TYR wants VEN, F VEN wants TRI, A TRI wants TYR, every time: Parang would wait for ever.
    t = tables_for(M)
    wants = {
        (ARMY, prov("TYR")): (ARMY, prov("VEN")),
        (FLEET, prov("VEN")): (FLEET, prov("TRI")),
        (ARMY, prov("TRI")): (ARMY, prov("TYR")),
    }
    by_value = {t.node_of[a[0]][a[1]] + 1: t.node_of[b[0]][b[1]] + 1 for a, b in wants.items()}

    def stubborn(scores: list[int], rng: Random, weights: object = None) -> int:
        wanted = by_value[scores[0]]  # the first option is the unit's own place
        return scores.index(wanted) if wanted in scores else 0

    monkeypatch.setattr(dumbbot_module, "dumbbot_values", lambda *a, **k: _UniqueValues())
    monkeypatch.setattr(dumbbot_module, "select_index", stubborn)
    pos = position("SPR 1901", ["ITA A TYR", "ITA F VEN", "ITA A TRI"], {"ITA": ["VEN", "TRI"]})
    orders = DumbBot().movement_orders(pos, power("ITA"), Random(0))
    # the first unit of the stalled round moves in regardless; the others follow: a rotation
    assert orders == {
        prov("TYR"): (MOVE, prov("VEN")),
        prov("VEN"): (MOVE, prov("TRI")),
        prov("TRI"): (MOVE, prov("TYR")),
    }


def test_builds_in_free_home_centres_then_waives() -> None:
    owners = {"GER": ["MUN", "BER", "KIE", "DEN", "HOL"], "RUS": ["WAR", "MOS", "SEV", "STP"]}
    pos = position("WIN 1901", ["GER A RUH", "RUS A PRU", "RUS A SIL", "RUS F BAL"], owners)
    homes = {prov("MUN"), prov("BER"), prov("KIE")}
    rng = Random(2)
    for _ in range(50):
        orders = assert_legal(pos, power("GER"), DumbBot(), rng)
        builds = [o for o in orders if o[0] == BUILD]
        assert {M.loc_province[o[2]] for o in builds} == homes
        assert orders.count(WAIVE_ORDER) == 1


def test_removes_the_least_valuable_units() -> None:
    pos = position(
        "WIN 1901",
        ["GER A BER", "GER F BAR", "GER A SYR", "RUS A PRU", "RUS A SIL"],
        {"GER": ["BER"], "RUS": ["WAR", "MOS", "SEV", "STP"]},
    )
    rng = Random(3)
    for _ in range(50):
        orders = DumbBot().adjustment_orders(pos, power("GER"), rng)
        assert sorted(orders) == [(REMOVE, prov("BAR")), (REMOVE, prov("SYR"))]


# --- legality and determinism over many positions --------------------------------------------


def test_dumbbot_orders_are_legal_in_every_kind_of_phase() -> None:
    bot = DumbBot()
    rng = Random(11)
    kinds: Counter[int] = Counter()
    for pos in varied_positions():
        for me in range(M.num_powers):
            if pos.is_movement and not pos.units_of(me):
                continue
            if pos.is_retreat and not any(d[0] == me for d in pos.dislodged.values()):
                continue
            if pos.season == WINTER and pos.adjustments()[me] == 0:
                continue
            orders = assert_legal(pos, me, bot, rng)
            kinds[pos.season] += 1
            if pos.is_retreat:
                targets = [M.loc_province[o[1]] for o in orders if len(o) > 1]
                assert len(targets) == len(set(targets)), "no two retreats into one province"
            if pos.season == WINTER and pos.adjustments()[me] > 0:
                assert all(o[0] in (BUILD, WAIVE) for o in orders)
    assert all(kinds[s] > 5 for s in range(5)), kinds


def test_dumbbot_is_deterministic_for_a_seed() -> None:
    bot = DumbBot()
    for pos in varied_positions()[::5]:
        for me in range(M.num_powers):
            if pos.is_movement:
                a = bot.movement_orders(pos, me, Random(9))
                b = bot.movement_orders(pos, me, Random(9))
            elif pos.is_retreat:
                a = bot.retreat_orders(pos, me, Random(9))
                b = bot.retreat_orders(pos, me, Random(9))
            else:
                a = bot.adjustment_orders(pos, me, Random(9))
                b = bot.adjustment_orders(pos, me, Random(9))
            assert a == b


def test_dumbbot_supports_show_up_in_real_play() -> None:
    kinds: Counter[int] = Counter()
    rng = Random(4)
    for pos in positions_of("movement")[:60]:
        for me in range(M.num_powers):
            for order in DumbBot().movement_orders(pos, me, rng).values():
                kinds[order[0]] += 1
    assert kinds[MOVE] > kinds[SUPPORT_MOVE] > 0
    assert kinds[SUPPORT_HOLD] > 0
