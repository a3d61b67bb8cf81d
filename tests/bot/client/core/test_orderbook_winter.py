"""The order book in winter and across a restated phase: MIS counts answered exactly."""

from __future__ import annotations

import pytest

from adjudicator.adjustments import civil_disorder_removals
from adjudicator.daide import load_position
from adjudicator.rules import CivilDisorderRule
from bot.client.core.orderbook import OrderBook
from protocol.notation import parse_order
from protocol.values import Order, Remove

TWO_REMOVALS = load_position(
    "NOW ( WIN 1901 ) ( FRA AMY BUR ) ( FRA FLT MAO ) ( FRA AMY PIC ) ( FRA AMY GAS ) "
    "( FRA AMY RUH )",
    "SCO ( FRA BRE MAR PAR ) ( GER BER KIE MUN )",
)
COVERED = "MIS for adjustments our submitted set already covers"


def o(text: str) -> Order:
    return parse_order(text)


def ranked_removals() -> list[Order]:
    """Civil disorder's order of our removals, as orders."""
    fra = TWO_REMOVALS.map.power_index["FRA"]
    provinces = civil_disorder_removals(TWO_REMOVALS, fra, 5)
    return [Remove(TWO_REMOVALS.unit_value(TWO_REMOVALS.units[p])) for p in provinces]


def test_a_mis_count_adds_the_next_removals_not_those_we_chose() -> None:
    ranked = ranked_removals()
    book = OrderBook("FRA", TWO_REMOVALS)
    book.record([ranked[0]])
    orders, why = book.on_mis_count(1)
    assert why is None
    assert orders == [ranked[0], ranked[1]]


def test_a_mis_count_our_set_covers_is_ignored_with_its_reason() -> None:
    ranked = ranked_removals()
    book = OrderBook("FRA", TWO_REMOVALS)
    book.record(ranked[:2])
    assert book.on_mis_count(1) == (None, COVERED)
    assert not book.mis_answered


def test_a_restated_phase_keeps_what_was_sent_accepted_and_refused() -> None:
    hold, move, build = (
        o("( FRA AMY PAR ) HLD"),
        o("( FRA AMY PAR ) MTO BUR"),
        o("( FRA FLT BRE ) HLD"),
    )
    earlier = OrderBook("FRA", TWO_REMOVALS)
    earlier.record([hold, move])
    earlier.on_thx(hold, "MBV")
    earlier.on_thx(move, "FAR")
    now = OrderBook("FRA", TWO_REMOVALS)
    now.record([build])
    now.accepted.add(build)
    now.refused.add(o("( FRA AMY MAR ) HLD"))
    now.carry_over(earlier)
    assert now.sent == {hold, move, build}
    assert now.accepted == {hold, build}
    assert now.refused == {move, o("( FRA AMY MAR ) HLD")}
    assert earlier.sent == {hold, move}  # the earlier book is left as it was


ITALY_TWO_AWAY = load_position(
    "NOW ( WIN 1901 ) ( ITA FLT MAR ) ( ITA AMY BUR ) ( ITA AMY VEN ) ( ITA AMY ROM )",
    "SCO ( ITA NAP ROM VEN )",
)
"""One removal due: the fleet in Marseilles is 2 steps from home over land but 3 by sea,
the army in Burgundy 3 either way."""


@pytest.mark.parametrize(
    ("rule", "removed"),
    [
        (CivilDisorderRule.PARLANCE, "( ITA AMY BUR ) REM"),  # the farthest, 3 against 2
        (CivilDisorderRule.DATC, "( ITA FLT MAR ) REM"),  # both 3: the fleet first
    ],
)
def test_a_mis_count_removes_what_the_servers_civil_disorder_rule_would(
    rule: CivilDisorderRule, removed: str
) -> None:
    book = OrderBook("ITA", ITALY_TWO_AWAY, rule)
    assert book.on_mis_count(1) == ([o(removed)], None)
