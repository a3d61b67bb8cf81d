"""The order book: the server's THX and MIS in, the complete set to resubmit out (a table)."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from adjudicator.daide import load_position
from adjudicator.maps import standard_map
from adjudicator.position import Position, initial_position
from bot.client.core.orderbook import OrderBook
from protocol.notation import parse_order
from protocol.values import Order, Unit

M = standard_map()
SPRING = initial_position(M)
RETREAT = load_position(
    "NOW ( SUM 1901 ) ( FRA AMY BUR ) ( FRA FLT BRE ) ( GER AMY MUN ) "
    "( FRA AMY PAR MRT ( GAS PIC ) )",
    "SCO ( FRA BRE MAR PAR ) ( GER BER KIE MUN )",
)
WINTER_BUILD = load_position(
    "NOW ( WIN 1901 ) ( FRA AMY BUR ) ( FRA FLT MAO )",
    "SCO ( FRA BRE MAR PAR ) ( GER BER KIE MUN )",
)
WINTER_REMOVE = load_position(
    "NOW ( WIN 1901 ) ( FRA AMY BUR ) ( FRA FLT MAO ) ( FRA AMY PIC ) ( FRA AMY GAS )",
    "SCO ( FRA BRE MAR PAR ) ( GER BER KIE MUN )",
)


def o(text: str) -> Order:
    return parse_order(text)


def unit(text: str) -> Unit:
    order = parse_order(f"{text} HLD")
    return order.unit  # type: ignore[attr-defined]


FRA_SPRING = [
    o("( FRA AMY PAR ) MTO BUR"),
    o("( FRA AMY MAR ) MTO SPA"),
    o("( FRA FLT BRE ) MTO MAO"),
]


@dataclass
class ThxCase:
    name: str
    position: Position
    submitted: list[list[Order]]
    thx: list[tuple[Order, str]]
    resubmit: list[Order] | None
    refused: bool
    ignored: str | None


THX_CASES = [
    ThxCase("accepted", SPRING, [FRA_SPRING], [(FRA_SPRING[0], "MBV")], None, False, None),
    ThxCase(
        "a refused move becomes a hold",
        SPRING, [FRA_SPRING], [(FRA_SPRING[0], "FAR")],
        [FRA_SPRING[1], FRA_SPRING[2], o("( FRA AMY PAR ) HLD")], True, None,
    ),
    ThxCase(
        "a refused retreat becomes a disband",
        RETREAT, [[o("( FRA AMY PAR ) RTO PIC")]], [(o("( FRA AMY PAR ) RTO PIC"), "NVR")],
        [o("( FRA AMY PAR ) DSB")], True, None,
    ),
    ThxCase(
        "a refused build becomes a waive",
        WINTER_BUILD, [[o("( FRA FLT BRE ) BLD")]], [(o("( FRA FLT BRE ) BLD"), "ESC")],
        [o("FRA WVE")], True, None,
    ),
    ThxCase(
        "a THX for an order never sent is ignored",
        SPRING, [FRA_SPRING], [(o("( FRA AMY PAR ) MTO PIC"), "FAR")], None, False,
        "THX for an order we did not send in this phase",
    ),
    ThxCase(
        "a refusal of an order superseded by a later set needs no resubmission",
        SPRING, [FRA_SPRING, [o("( FRA AMY PAR ) MTO PIC"), *FRA_SPRING[1:]]],
        [(FRA_SPRING[0], "FAR")], None, True, None,
    ),
    ThxCase(
        "a refusal of an order accepted earlier in the phase is ignored (MILA, builds)",
        WINTER_BUILD, [[o("( FRA FLT BRE ) BLD")], [o("( FRA FLT BRE ) BLD")]],
        [(o("( FRA FLT BRE ) BLD"), "MBV"), (o("( FRA FLT BRE ) BLD"), "NYU")], None, False,
        "refusal of an order the server accepted earlier this phase",
    ),
    ThxCase(
        "a refused hold is dropped, not replaced by itself",
        SPRING, [FRA_SPRING],
        [(FRA_SPRING[0], "FAR"), (o("( FRA AMY PAR ) HLD"), "NRS")],
        [FRA_SPRING[1], FRA_SPRING[2]], True, None,
    ),
    ThxCase(
        "a refused waive is dropped: nothing replaces it",
        WINTER_BUILD, [[o("( FRA AMY PAR ) BLD"), o("FRA WVE")]], [(o("FRA WVE"), "NMB")],
        [o("( FRA AMY PAR ) BLD")], True, None,
    ),
]  # fmt: skip


@pytest.mark.parametrize("case", THX_CASES, ids=lambda c: c.name)
def test_thx(case: ThxCase) -> None:
    book = OrderBook("FRA", case.position)
    for orders in case.submitted:
        book.record(orders)
    verdict = None
    for order, note in case.thx:
        verdict = book.on_thx(order, note)
        if verdict.resubmit is not None:
            book.record(verdict.resubmit)
    assert verdict is not None
    assert verdict.resubmit == case.resubmit
    assert verdict.refused == case.refused
    assert verdict.ignored == case.ignored


def test_a_later_set_never_brings_back_a_refused_order() -> None:
    book = OrderBook("FRA", SPRING)
    book.record(FRA_SPRING)
    book.record(book.on_thx(FRA_SPRING[2], "FAR").resubmit or [])
    later = [o("( FRA AMY PAR ) MTO PIC"), FRA_SPRING[1], FRA_SPRING[2]]  # the search's next set
    assert book.without_refused(later) == [*later[:2], o("( FRA FLT BRE ) HLD")]
    book.on_thx(o("( FRA FLT BRE ) HLD"), "NRS")
    assert book.without_refused(later) == later[:2]  # a refused hold is not its own safe order
    assert book.without_refused(FRA_SPRING[:2]) == FRA_SPRING[:2]


def test_mis_units_adds_holds_and_disbands_for_our_unordered_units_only() -> None:
    book = OrderBook("FRA", SPRING)
    book.record(FRA_SPRING[:2])
    missing, ignored = book.on_mis_units(
        [(unit("( FRA FLT BRE )"), False), (unit("( FRA AMY PAR )"), False),
         (unit("( GER AMY MUN )"), False)]
    )  # fmt: skip
    assert missing == [*FRA_SPRING[:2], o("( FRA FLT BRE ) HLD")] and ignored is None
    assert missing is not None
    book.record(missing)
    assert book.on_mis_units([(unit("( FRA FLT BRE )"), False)]) == (None, None)

    retreat = OrderBook("FRA", RETREAT)
    assert retreat.on_mis_units([(unit("( FRA AMY PAR )"), True)]) == (
        [o("( FRA AMY PAR ) DSB")],
        None,
    )


def test_mis_units_never_orders_a_unit_we_do_not_have() -> None:
    book = OrderBook("FRA", SPRING)
    book.record(FRA_SPRING[:2])
    ghost = unit("( FRA FLT NAO )")
    missing, ignored = book.on_mis_units([(ghost, False), (unit("( FRA FLT BRE )"), False)])
    assert missing == [*FRA_SPRING[:2], o("( FRA FLT BRE ) HLD")]  # the real one only
    assert ignored == "MIS for units we do not have in SPR 1901: (FRA FLT NAO)"
    missing, ignored = book.on_mis_units([(ghost, False), (unit("( FRA AMY KIE )"), False)])
    assert missing is None
    assert ignored == ("MIS for units we do not have in SPR 1901: (FRA FLT NAO), (FRA AMY KIE)")
    # A unit on the board named as dislodged outside a retreat phase is not ours to disband.
    missing, ignored = book.on_mis_units([(unit("( FRA FLT BRE )"), True)])
    assert missing is None and ignored is not None


@pytest.mark.parametrize(
    ("position", "submitted", "count", "expected", "ignored"),
    [
        (WINTER_BUILD, [], -1, [o("FRA WVE")], False),
        (WINTER_BUILD, [o("FRA WVE")], -1, None, True),  # MILA does not count waives
        # every unit is one step from home: fleets go first
        (WINTER_REMOVE, [], 1, [o("( FRA FLT MAO ) REM")], False),
        (WINTER_REMOVE, [o("( FRA AMY GAS ) REM")], 1, None, True),
        (WINTER_REMOVE, [], 0, None, False),
    ],
)  # fmt: skip
def test_mis_count(position, submitted, count, expected, ignored) -> None:
    book = OrderBook("FRA", position)
    book.record(submitted)
    orders, why = book.on_mis_count(count)
    assert orders == expected
    assert (why is not None) == ignored
    if orders is not None:
        assert book.on_mis_count(count) == (None, None)  # answered once per phase


def test_recovery_is_once_per_phase_and_prefers_the_current_set() -> None:
    book = OrderBook("FRA", SPRING)
    assert book.recovery(lambda: FRA_SPRING) == FRA_SPRING
    assert book.recovery(lambda: FRA_SPRING) is None
    other = OrderBook("FRA", SPRING)
    other.record(FRA_SPRING[:1])
    assert other.recovery(lambda: FRA_SPRING) == FRA_SPRING[:1]
