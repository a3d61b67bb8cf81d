"""The compiled legal order generator (``adjudicator/_fastlegal.pyx``) against the pure one.

For every unit of many positions, with and without convoys, both must give the
same list, order for order: positions of seeded random games (battle-heavy
orders, convoys included), boards of units scattered at random (many fleets at
sea, so long convoy chains and fleets on detours), every DATC case's starting
position, and boards on every playable mutated map.  Also: the generator's
cache of convoy destinations is never taken from one set of units for another.
"""

from __future__ import annotations

from itertools import pairwise
from random import Random

import pytest

from adjudicator import compiled_rules as speedups
from adjudicator.adjustments import adjudicate_adjustments
from adjudicator.daide import load_position
from adjudicator.legal import adjustment_options, movement_orders
from adjudicator.maps import ARMY, FLEET, SEA, standard_map
from adjudicator.movement import adjudicate_movement
from adjudicator.orders import CONVOY, CONVOY_MOVE, SUPPORT_MOVE, EngineOrder
from adjudicator.per_map import MAPS_KEPT
from adjudicator.position import FALL, SPRING, Position, initial_position
from adjudicator.randomorders import battle_orders
from adjudicator.retreats import adjudicate_retreats
from tests.adjudicator.datc_cases import CASES
from tests.adjudicator.datc_format import Case
from tests.adjudicator.extra_cases import EXTRA_CASES
from tests.adjudicator.mutated_maps import CASES as MUTATED
from tests.adjudicator.mutated_maps import reaction

M = standard_map()


def game_positions(seed: int, count: int) -> list[Position]:
    """Movement positions of seeded random games played with battle-heavy orders."""
    rng = Random(seed)
    out: list[Position] = []
    pos = initial_position(M)
    while len(out) < count:
        if pos.year > 1912 or len(pos.units) < 16:
            pos = initial_position(M)
        if pos.is_movement:
            out.append(pos)
            pos = adjudicate_movement(pos, battle_orders(pos, rng)).position
        elif pos.is_retreat:
            pos = adjudicate_retreats(pos, {}).position
        else:
            winter = {p: adjustment_options(pos, p)[:1] for p in range(M.num_powers)}
            pos = adjudicate_adjustments(pos, winter).position
    return out


def scattered_positions(seed: int, count: int) -> list[Position]:
    """Boards of 20-40 units of random powers placed anywhere they may stand."""
    rng = Random(seed)
    out: list[Position] = []
    for _ in range(count):
        units: dict[int, tuple[int, int, int]] = {}
        provinces = rng.sample(range(M.num_provinces), rng.randint(20, 40))
        for prov in provinces:
            power = rng.randrange(M.num_powers)
            fleet_at = M.fleet_locations[prov]
            if M.kind[prov] == SEA or (fleet_at and rng.random() < 0.4):
                units[prov] = (power, FLEET, rng.choice(fleet_at))
            else:
                units[prov] = (power, ARMY, prov)
        owners = [rng.randrange(-1, M.num_powers) if M.is_supply[p] else -1 for p in range(75)]
        out.append(Position(M, rng.choice((SPRING, FALL)), 1903, units, owners))
    return out


def pure(pos: Position, prov: int, convoys: bool) -> list[EngineOrder]:
    with speedups.pure_python():
        return movement_orders(pos, prov, convoys)


def assert_same_for_every_unit(pos: Position) -> int:
    """Compare both generators on every unit; the number of convoy-related orders seen."""
    assert speedups.fast_legal(pos.map) is not None
    convoying = 0
    for prov in pos.units:
        for convoys in (False, True):
            fast = movement_orders(pos, prov, convoys)
            assert fast == pure(pos, prov, convoys), (pos, prov, convoys)
        convoying += sum(o[0] in (CONVOY, CONVOY_MOVE) for o in fast)
    return convoying


def test_random_game_positions_give_the_same_orders(compiled: None) -> None:
    convoying = sum(assert_same_for_every_unit(pos) for pos in game_positions(11, 60))
    assert convoying > 100


def test_scattered_boards_give_the_same_orders(compiled: None) -> None:
    convoying = sum(assert_same_for_every_unit(pos) for pos in scattered_positions(5, 60))
    assert convoying > 1000


@pytest.mark.parametrize("case", CASES + EXTRA_CASES, ids=[c.id for c in CASES + EXTRA_CASES])
def test_datc_positions_give_the_same_orders(compiled: None, case: Case) -> None:
    units = " ".join(f"( {u} )" for u in case.units)
    pos = load_position(f"NOW ( {case.turn} ) {units}", f"SCO {case.centres}")
    if pos.is_movement:
        assert_same_for_every_unit(pos)


def test_a_changed_board_is_not_taken_for_the_one_before(compiled: None) -> None:
    """The convoy destinations kept between calls belong to the units they were computed for."""
    boards = scattered_positions(9, 15)
    seen_supports = 0
    for first, second in pairwise(boards):
        for pos in (first, second, first):
            for prov in pos.units:
                fast = movement_orders(pos, prov)
                assert fast == pure(pos, prov, True)
                seen_supports += sum(o[0] == SUPPORT_MOVE for o in fast)
        # the same dict changed in place (a fleet sails to an empty sea), then asked again
        moved = first.copy()
        prov, fleet = next((p, u) for p, u in moved.units.items() if u[1] == FLEET)
        empty = next(p for p in range(M.num_provinces) if M.kind[p] == SEA and p not in moved.units)
        for other in moved.units:
            movement_orders(moved, other)
        del moved.units[prov]
        moved.units[empty] = (fleet[0], FLEET, empty)
        for other in moved.units:
            assert movement_orders(moved, other) == pure(moved, other, True)
    assert seen_supports > 0


def test_the_switch_turns_the_compiled_generator_off(compiled: None) -> None:
    assert speedups.fast_legal(M) is not None
    with speedups.pure_python():
        assert speedups.fast_legal(M) is None


def test_each_map_has_its_own_tables_built_once(compiled: None) -> None:
    """The tables of a map are kept (asked again, the same ones); more maps than are kept
    never get each other's tables."""
    assert speedups.LEGAL is not None
    tokens = next(t for t in MUTATED.values() if reaction(t)[1] is not None)
    maps = [reaction(tokens)[1] for _ in range(MAPS_KEPT + 2)]
    for m in [M, *maps, M]:
        tables = speedups.fast_legal(m)
        assert tables.game_map is m
        assert speedups.fast_legal(m) is tables
    assert all(speedups.fast_legal(m).game_map is m for m in maps)


def test_every_playable_mutated_map_gives_the_same_orders(compiled: None) -> None:
    """Maps other than the standard one: the MDFs a client must accept, boards scattered on each."""
    maps = [m for _, m in (reaction(tokens) for tokens in MUTATED.values()) if m is not None]
    assert len(maps) > 5
    rng = Random(4)
    for m in maps:
        for _ in range(3):
            units: dict[int, tuple[int, int, int]] = {}
            for prov in rng.sample(range(m.num_provinces), min(30, m.num_provinces)):
                fleet_at = m.fleet_locations[prov]
                if fleet_at and (m.kind[prov] == SEA or rng.random() < 0.4):
                    units[prov] = (rng.randrange(m.num_powers), FLEET, rng.choice(fleet_at))
                elif m.kind[prov] != SEA:
                    units[prov] = (rng.randrange(m.num_powers), ARMY, prov)
            assert_same_for_every_unit(Position(m, SPRING, 1901, units, [-1] * m.num_provinces))


def test_units_that_change_in_place_are_read_again(compiled: None) -> None:
    """Units that are lists, not tuples, may change in place under the same objects."""
    flipped = 0
    for pos in scattered_positions(13, 10):
        pos.units = {p: list(u) for p, u in pos.units.items()}  # type: ignore[misc]
        for prov in pos.units:
            assert movement_orders(pos, prov) == pure(pos, prov, True)
        for prov, unit in pos.units.items():
            if unit[1] == ARMY and M.fleet_locations[prov] == (prov,):
                unit[1] = FLEET  # type: ignore[index]
                flipped += 1
        for prov in pos.units:
            assert movement_orders(pos, prov) == pure(pos, prov, True)
    assert flipped > 10


STP = M.province_index["STP"]
NORTH_COAST_OF_STP = M.location_index[("STP", "NCS")]


@pytest.mark.parametrize(
    ("prov", "unit"),
    [
        (10, (0, ARMY, 500)),
        (10, (0, 7, 10)),
        (10, (0, FLEET, -1)),
        (STP, (0, ARMY, NORTH_COAST_OF_STP)),
        (10, (0, FLEET, 11)),
    ],
    ids=[
        "location off the map",
        "no such unit type",
        "negative location",
        "an army on a coast",
        "a location in another province",
    ],
)
def test_a_unit_the_map_lacks_is_refused(
    compiled: None, prov: int, unit: tuple[int, int, int]
) -> None:
    pos = initial_position(M)
    pos.units[prov] = unit
    with pytest.raises(ValueError, match="which the map lacks"):
        movement_orders(pos, next(iter(pos.units)))
