"""The static position value: centres, plus centres in reach, minus centres under threat."""

from __future__ import annotations

import pytest

from adjudicator.position import initial_position
from search.evaluation import position_values, pressure
from tests.search.boards import M, position, power, prov


def test_pressure_counts_units_in_and_next_to_a_province() -> None:
    pos = initial_position(M)
    press = pressure(pos)
    assert press[prov("BUR")][power("FRA")] == 2  # A PAR and A MAR
    assert press[prov("BUR")][power("GER")] == 1  # A MUN
    assert press[prov("PAR")][power("FRA")] == 1  # A PAR stands there; F BRE cannot go inland
    assert press[prov("BEL")] == [0] * M.num_powers


def test_values_add_centres_in_reach_and_take_off_centres_under_threat() -> None:
    pos = position(
        "FAL 1902",
        ["FRA A BUR", "FRA A PIC", "GER A MUN", "GER A RUH", "GER A KIE"],
        {"FRA": ["PAR", "BRE", "MAR"], "GER": ["MUN", "BER", "KIE"]},
    )
    values = position_values(pos, gain=0.5, threat=0.5)
    # France presses Belgium (A BUR, A PIC) harder than Germany (A RUH): +0.5.
    assert values[power("FRA")] == pytest.approx((3 + 0.5) / 18)
    # Germany alone presses Holland (A RUH, A KIE) and Denmark (A KIE); Munich is pressed
    # by A BUR once and by Germany's A MUN and A RUH twice, so it is safe.
    assert values[power("GER")] == pytest.approx((3 + 0.5 * 2) / 18)
    threatened = position(
        "FAL 1902",
        ["FRA A BUR", "FRA A RUH", "GER A BER"],
        {"FRA": ["PAR", "BRE", "MAR"], "GER": ["MUN", "BER", "KIE"]},
    )
    values = position_values(threatened, gain=0.5, threat=0.5)
    # Munich (empty) is pressed by two French armies and no German unit.
    assert values[power("GER")] == pytest.approx((3 - 0.5) / 18)
    assert values[power("FRA")] == pytest.approx((3 + 0.5 * 2) / 18)  # MUN, BEL/HOL: 2 units


def test_a_solo_is_worth_everything() -> None:
    owners = {"FRA": [M.provinces[c] for c in M.supply_centres[:18]]}
    pos = position("SPR 1910", ["FRA A PAR"], owners)
    values = position_values(pos)
    assert values[power("FRA")] == 1.0 and sum(values) == 1.0
