"""The thesis's region weights (equations 2-4) against a plain transcription."""

from __future__ import annotations

import pytest

from adjudicator.maps import standard_map
from adjudicator.position import SPRING, SUMMER, initial_position
from search.mcts.weights import (
    FALL_PROXIMITY_WEIGHTS,
    SPRING_PROXIMITY_WEIGHTS,
    RegionWeights,
    base_values,
)
from search.tables import tables_for
from tests.search.boards import position, power, prov
from tests.search.test_randombot import positions_of


def oracle_weights(pos, me: int) -> dict[tuple[int, int], float]:
    """Equations 2-4 written out with dicts keyed by (unit type, location)."""
    m = pos.map
    table = SPRING_PROXIMITY_WEIGHTS if pos.season in (SPRING, SUMMER) else FALL_PROXIMITY_WEIGHTS
    counts = {p: 0 for p in range(m.num_powers)}
    for sc in m.supply_centres:
        if pos.owners[sc] >= 0:
            counts[pos.owners[sc]] += 1
    value = {}
    for p in range(m.num_provinces):
        if not m.is_supply[p]:
            value[p] = 0
        elif pos.owners[p] == me:
            value[p] = sum(
                1
                for q, (owner, utype, where) in pos.units.items()
                if owner != me and p in m.reach(utype, where)
            )
        else:
            owner = pos.owners[p]
            value[p] = 6 - (counts[owner] if owner >= 0 else 0)
    regions = [(0, p) for p in range(m.num_provinces) if m.kind[p] != 2]
    regions += [(1, where) for p in range(m.num_provinces) for where in m.fleet_locations[p]]
    prox = {r: value[m.loc_province[r[1]]] * table[0] for r in regions}
    total = dict(prox)
    for n in range(1, 10):
        nxt = {}
        for utype, where in regions:
            around = sum(prox[(utype, d)] for d in m.adjacent(utype, where))
            nxt[(utype, where)] = (around / 5 + prox[(utype, where)]) * table[n]
        prox = nxt
        for r in regions:
            total[r] += prox[r]
    return total


def test_base_values_follow_the_thesis() -> None:
    pos = position(
        "SPR 1903",
        ["GER A RUH", "GER A BUR", "ITA A PIE", "FRA A PAR"],
        {"FRA": ["PAR", "MAR", "BRE"], "GER": ["MUN", "BER", "KIE", "HOL", "BEL"]},
    )
    v = base_values(pos, power("FRA"))
    assert v[prov("PAR")] == 1  # A BUR can move in
    assert v[prov("MAR")] == 2  # A BUR and A PIE can move in
    assert v[prov("BRE")] == 0
    assert v[prov("SPA")] == 6  # neutral: 6 - 0
    assert v[prov("BEL")] == 1  # German, 5 centres: 6 - 5
    assert v[prov("BUR")] == 0  # not a centre


@pytest.mark.parametrize("kind", ["opening", "varied"])
def test_weights_match_the_transcription(kind: str) -> None:
    m = standard_map()
    boards = [initial_position(m)] if kind == "opening" else positions_of("movement")[::9]
    tables = tables_for(m)
    for pos in boards:
        for me in range(m.num_powers):
            fast = RegionWeights(pos, me)
            slow = oracle_weights(pos, me)
            for node in range(tables.num_nodes):
                key = (tables.node_type[node], tables.node_loc[node])
                assert fast.node_weight[node] == pytest.approx(slow[key], rel=1e-9), (pos, me, key)
            assert fast.mean == pytest.approx(sum(slow.values()) / len(slow))


def test_spring_and_fall_use_their_tables() -> None:
    spring = position("SPR 1901", ["FRA A BUR"], {"FRA": ["PAR"]})
    fall = position("FAL 1901", ["FRA A BUR"], {"FRA": ["PAR"]})
    assert (
        RegionWeights(spring, power("FRA")).node_weight
        != RegionWeights(fall, power("FRA")).node_weight
    )
