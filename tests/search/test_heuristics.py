"""Our bot's retreats (random, legal, no self-bounce) and builds/removals (DumbBot values)."""

from __future__ import annotations

from collections import Counter
from random import Random

from adjudicator.orders import BUILD, DISBAND, REMOVE, RETREAT, WAIVE_ORDER
from adjudicator.position import WINTER
from search.dumbbot_values import dumbbot_values
from search.heuristics import PhaseHeuristics, best_builds, random_retreats, worst_removals
from tests.search.test_dumbbot import M, position, power, prov
from tests.search.test_randombot import assert_legal, positions_of


def test_retreats_are_legal_never_bounce_each_other_and_disband_only_when_stuck() -> None:
    rng = Random(0)
    checked = 0
    for player in (PhaseHeuristics(), PhaseHeuristics(randomised=True)):
        for pos in positions_of("retreat"):
            for me in {d[0] for d in pos.dislodged.values()}:
                assert_legal(pos, me, player, rng)
                orders = random_retreats(pos, me, Random(checked))
                targets = [M.loc_province[o[1]] for o in orders.values() if o[0] == RETREAT]
                assert len(targets) == len(set(targets))
                for p, order in orders.items():
                    if order[0] == DISBAND:
                        options = {M.loc_province[loc] for loc in pos.dislodged[p][3]}
                        assert options <= set(targets)
                checked += 1
    assert checked > 10


def test_retreats_are_spread_at_random() -> None:
    pos = next(
        p for p in positions_of("retreat") if any(len(d[3]) > 1 for d in p.dislodged.values())
    )
    where, d = next((w, d) for w, d in pos.dislodged.items() if len(d[3]) > 1)
    seen = Counter(random_retreats(pos, d[0], Random(s))[where] for s in range(200))
    assert set(seen) == {(RETREAT, loc) for loc in d[3]}


def test_adjustments_are_legal_in_every_winter() -> None:
    rng = Random(0)
    for player in (PhaseHeuristics(), PhaseHeuristics(randomised=True)):
        for pos in positions_of("build") + positions_of("remove"):
            for me, due in enumerate(pos.adjustments()):
                if due:
                    assert_legal(pos, me, player, rng)


def test_builds_take_the_best_home_nodes_then_waive() -> None:
    owners = {"GER": ["MUN", "BER", "KIE", "DEN", "HOL"], "RUS": ["WAR", "MOS", "SEV", "STP"]}
    pos = position("WIN 1901", ["GER A RUH", "RUS A PRU", "RUS A SIL", "RUS F BAL"], owners)
    orders = PhaseHeuristics().adjustment_orders(pos, power("GER"), Random(0))
    assert orders[-1] == WAIVE_ORDER
    builds = orders[:-1]
    assert {M.loc_province[o[2]] for o in builds} == {prov("MUN"), prov("BER"), prov("KIE")}
    values = dumbbot_values(pos, power("GER"))
    for _, utype, loc in builds:  # each build is the better unit type for its centre
        other = 1 - utype
        if M.can_stand(other, loc):
            assert values.value(utype, loc) >= values.value(other, loc)
    assert orders == best_builds(pos, power("GER"), 4)  # deterministic


def test_no_free_home_centre_means_waives_only() -> None:
    owners = {"GER": ["MUN", "BER", "KIE", "DEN"]}
    pos = position("WIN 1901", ["GER A MUN", "GER A BER", "GER F KIE"], owners)
    assert pos.season == WINTER and pos.adjustments()[power("GER")] == 1
    assert PhaseHeuristics().adjustment_orders(pos, power("GER"), Random(0)) == [WAIVE_ORDER]


def test_removals_take_the_least_valuable_units() -> None:
    pos = position(
        "WIN 1901",
        ["GER A BER", "GER F BAR", "GER A SYR", "RUS A PRU", "RUS A SIL"],
        {"GER": ["BER"], "RUS": ["WAR", "MOS", "SEV", "STP"]},
    )
    orders = PhaseHeuristics().adjustment_orders(pos, power("GER"), Random(0))
    assert sorted(orders) == [(REMOVE, prov("BAR")), (REMOVE, prov("SYR"))]
    assert orders == worst_removals(pos, power("GER"), 2)
    assert all(o[0] != BUILD for o in orders)
