"""The thesis's order rules (§3.1-3.4, §3.7) on hand-made boards."""

from __future__ import annotations

from random import Random

from adjudicator.legal import move_orders
from adjudicator.orders import HOLD_ORDER, MOVE, SUPPORT_MOVE
from search.mcts.thesis_rules import (
    expected_orders,
    greedy_else_random_orders,
    heuristic_orders,
    possible_orders,
    weight_greedy_orders,
)
from search.mcts.weights import RegionWeights
from tests.search.boards import loc, position, power, prov

FRANCE_HOME = {"FRA": ["PAR", "MAR", "BRE"], "GER": ["MUN", "BER", "KIE"]}


def options_by_name(pos, me: str, **kwargs) -> dict[str, set]:
    return {
        pos.map.provinces[p]: set(opts) for p, opts in possible_orders(pos, power(me), **kwargs)
    }


def test_a_unit_on_a_centre_we_do_not_own_holds() -> None:
    pos = position("FAL 1901", ["FRA A SPA", "FRA A BUR"], FRANCE_HOME)
    assert options_by_name(pos, "FRA")["SPA"] == {HOLD_ORDER}


def test_a_unit_next_to_targets_moves_into_them() -> None:
    pos = position("SPR 1901", ["FRA A BUR", "FRA A GAS"], FRANCE_HOME)
    options = options_by_name(pos, "FRA")
    # BEL is neutral, MUN German: both targets; PAR and MAR are ours.
    assert options["BUR"] == {(MOVE, loc("BEL")), (MOVE, loc("MUN"))}
    assert options["GAS"] == {(MOVE, loc("SPA"))}


def test_a_unit_supports_an_earlier_units_move_into_a_target_it_borders() -> None:
    pos = position("SPR 1901", ["FRA A BUR", "FRA A PIC"], FRANCE_HOME)
    options = options_by_name(pos, "FRA")
    # BUR (taken first) may move into BEL or MUN; PIC borders BEL only.
    assert options["PIC"] == {(SUPPORT_MOVE, prov("BUR"), prov("BEL"))}


def test_a_centre_we_stand_in_is_no_target() -> None:
    pos = position("SPR 1901", ["FRA A GAS", "FRA F SPA/NCS"], FRANCE_HOME)
    # SPA is occupied by us (and ours to take by holding): GAS sees no target.
    options = options_by_name(pos, "FRA")
    assert options["GAS"] == set(move_orders(pos, prov("GAS")))
    assert options["SPA"] == {HOLD_ORDER}


def test_otherwise_every_move_and_the_hold() -> None:
    pos = position("SPR 1901", ["FRA A PAR"], FRANCE_HOME)
    assert options_by_name(pos, "FRA")["PAR"] == set(move_orders(pos, prov("PAR")))


def test_two_steps_look_for_centres_two_provinces_away() -> None:
    pos = position("SPR 1901", ["FRA A PAR"], FRANCE_HOME)
    two = options_by_name(pos, "FRA", two_step=True)["PAR"]
    # PIC borders BEL; BUR borders BEL and MUN; GAS borders SPA; BRE borders none.
    assert two == {(MOVE, loc("PIC")), (MOVE, loc("BUR")), (MOVE, loc("GAS"))}


def test_the_rollout_heuristic_follows_the_same_rules() -> None:
    pos = position("SPR 1901", ["FRA A BUR", "FRA A PIC", "FRA A SPA"], FRANCE_HOME)
    seen = set()
    for seed in range(40):
        orders = heuristic_orders(pos, power("FRA"), Random(seed))
        assert orders[prov("SPA")] == HOLD_ORDER
        bur, pic = orders[prov("BUR")], orders[prov("PIC")]
        seen.add((bur, pic))
        support_pic = (SUPPORT_MOVE, prov("PIC"), prov("BEL"))
        assert bur in {(MOVE, loc("BEL")), (MOVE, loc("MUN")), support_pic}
        if pic == (SUPPORT_MOVE, prov("BUR"), prov("BEL")):
            assert bur == (MOVE, loc("BEL"))
    # Whichever unit is ordered first moves into BEL and the other supports it, or BUR goes to MUN.
    assert ((MOVE, loc("BEL")), (SUPPORT_MOVE, prov("BUR"), prov("BEL"))) in seen
    assert ((SUPPORT_MOVE, prov("PIC"), prov("BEL")), (MOVE, loc("BEL"))) in seen


def test_enemies_are_expected_to_move_into_a_foreign_centre_else_hold() -> None:
    pos = position("SPR 1901", ["ENG F NTH", "ENG A YOR"], {"ENG": ["LON", "EDI", "LVP"]})
    for seed in range(10):
        orders = expected_orders(pos, power("ENG"), Random(seed))
        assert orders[prov("YOR")] == HOLD_ORDER  # only English centres next to York
        kind, dest = orders[prov("NTH")]
        assert kind == MOVE and pos.map.provinces[pos.map.loc_province[dest]] in {
            "NWY",
            "HOL",
            "BEL",
            "DEN",
        }


def test_v4_enemies_grab_a_centre_else_play_at_random() -> None:
    pos = position("SPR 1901", ["ENG F NTH", "ENG A WAL"], {"ENG": ["LON", "EDI", "LVP"]})
    wal = set()
    for seed in range(60):
        orders = greedy_else_random_orders(pos, power("ENG"), Random(seed))
        assert orders[prov("NTH")][0] == MOVE
        wal.add(orders[prov("WAL")])
    assert wal == set(move_orders(pos, prov("WAL")))


def test_weight_greedy_takes_the_heaviest_regions_without_bouncing_itself() -> None:
    pos = position("SPR 1901", ["FRA A BUR", "FRA A PIC", "FRA A GAS"], FRANCE_HOME)
    weights = RegionWeights(pos, power("FRA"))
    for seed in range(20):
        orders = weight_greedy_orders(pos, power("FRA"), Random(seed), weights)
        ends = [p if o[0] != MOVE else pos.map.loc_province[o[1]] for p, o in orders.items()]
        assert len(ends) == len(set(ends))
    first = weight_greedy_orders(pos, power("FRA"), Random(0), weights)
    # Every unit ends in a region at least as heavy as any free one it could reach.
    for p, order in first.items():
        value = weights.order_value(p, order)
        assert value >= min(weights.order_value(p, o) for o in move_orders(pos, p))
