"""Civil-disorder removals under both rules, checked against MILA's engine (the DATC rule).

Parlance's rule is covered row by row in ``extra_cases.py`` (and against Parlance's own
judge); here random winters in which powers order no removals are adjudicated by MILA's
``diplomacy`` engine and by ours: under :attr:`CivilDisorderRule.DATC` every case must
agree, and Parlance's rule must differ in some (which is why the option exists).
"""

from __future__ import annotations

from random import Random

import pytest
from diplomacy import Game

from adjudicator.adjustments import adjudicate_adjustments, home_distance
from adjudicator.maps import ARMY, FLEET, standard_map
from adjudicator.position import WINTER, Position
from adjudicator.rules import CivilDisorderRule
from bot.lab.bench.bench_adjudicator import MILA_POWERS, mila_unit

M = standard_map()
CASES = 200


def _random_winter(rng: Random) -> Position:
    """Every power has 2-7 units on random free locations and fewer centres than units."""
    units: dict[int, tuple[int, int, int]] = {}
    owners = [-1] * M.num_provinces
    free_centres = list(M.supply_centres)
    rng.shuffle(free_centres)
    for power in range(M.num_powers):
        wanted = rng.randint(2, 7)
        while sum(u[0] == power for u in units.values()) < wanted:
            utype = rng.choice((ARMY, FLEET))
            locs = [
                loc
                for loc in range(M.num_locations)
                if M.can_stand(utype, loc) and M.loc_province[loc] not in units
            ]
            loc = rng.choice(locs)
            units[M.loc_province[loc]] = (power, utype, loc)
        for _ in range(rng.randint(0, wanted - 1)):
            owners[free_centres.pop()] = power
    return Position(M, WINTER, 1901, units, owners)


def _mila_units_after(pos: Position) -> dict[str, set[str]]:
    game = Game()
    game.set_current_phase("W1901A")
    game.clear_units()
    game.clear_centers()
    for power, name in MILA_POWERS.items():
        pid = M.power_index[power]
        mine = [mila_unit(pos, p) for p, u in pos.units.items() if u[0] == pid]
        game.set_units(name, mine, reset=True)
        game.set_centers(name, [M.provinces[p] for p in M.supply_centres if pos.owners[p] == pid])
    game.process()
    return {power: set(game.get_units(name)) for power, name in MILA_POWERS.items()}


def _ours_after(pos: Position, rule: CivilDisorderRule) -> dict[str, set[str]]:
    after = adjudicate_adjustments(pos, {}, rule).position
    out: dict[str, set[str]] = {power: set() for power in MILA_POWERS}
    for prov, unit in after.units.items():
        out[M.powers[unit[0]]].add(mila_unit(after, prov))
    return out


def test_datc_rule_removes_what_milas_engine_removes() -> None:
    rng = Random(2026)
    parlance_differs = 0
    for case in range(CASES):
        pos = _random_winter(rng)
        mila = _mila_units_after(pos)
        assert _ours_after(pos, CivilDisorderRule.DATC) == mila, f"case {case}"
        parlance_differs += _ours_after(pos, CivilDisorderRule.PARLANCE) != mila
    assert parlance_differs > 0, "Parlance's rule agreed with MILA everywhere: the cases are weak"


@pytest.mark.parametrize(
    ("power", "unit", "where", "parlance", "datc"),
    [
        # A fleet in the Gulf of Bothnia is 1 from St Petersburg (south coast) either way.
        ("RUS", FLEET, ("GOB", None), 1, 1),
        # A fleet in the Black Sea is 1 from Sevastopol either way.
        ("RUS", FLEET, ("BLA", None), 1, 1),
        # An Italian fleet in Marseilles: Piedmont then Venice is 2 over land, but a fleet
        # sails Gulf of Lyon, Tyrrhenian Sea, Rome (or Naples): 3.
        ("ITA", FLEET, ("MAR", None), 2, 3),
        # A Turkish fleet in the Aegean: Constantinople or Smyrna is 1 either way.
        ("TUR", FLEET, ("AEG", None), 1, 1),
        # A German fleet in Holland is 1 from Kiel either way; an army in Holland too.
        ("GER", FLEET, ("HOL", None), 1, 1),
        ("GER", ARMY, ("HOL", None), 1, 1),
        # An Austrian fleet in the Ionian Sea is 2 from Trieste either way (Adriatic or
        # Albania); a fleet in Sevastopol is 2 over land (Rumania, Budapest) but 6 by sea
        # (Black Sea, Constantinople, Aegean, Ionian, Adriatic, Trieste).
        ("AUS", FLEET, ("ION", None), 2, 2),
        ("AUS", FLEET, ("SEV", None), 2, 6),
    ],
)  # fmt: skip
def test_home_distance_by_rule(
    power: str, unit: int, where: tuple[str, str | None], parlance: int, datc: int
) -> None:
    pid = M.power_index[power]
    loc = M.location(*where)
    prov = M.loc_province[loc]
    tup = (pid, unit, loc)
    assert home_distance(M, pid, prov, tup, CivilDisorderRule.PARLANCE) == parlance
    assert home_distance(M, pid, prov, tup, CivilDisorderRule.DATC) == datc
