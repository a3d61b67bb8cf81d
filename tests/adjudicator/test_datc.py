"""The DATC (6.A-6.I) and our extra rule cases, run through the engine's DAIDE entry point.

One test per table row (``datc_cases.py``, ``extra_cases.py``); each row says
which orders a server refuses (THX), what ORD reports, and optionally the
next position.
"""

from __future__ import annotations

import pytest

from adjudicator.daide import adjudicate_phase, load_position
from protocol.notation import parse_centres, parse_order, parse_unit, parse_unit_position
from protocol.values import Build, Order, Remove, Unit, UnitPosition
from tests.adjudicator.datc_cases import CASES
from tests.adjudicator.datc_format import Case
from tests.adjudicator.extra_cases import EXTRA_CASES

ALL = CASES + EXTRA_CASES


def _normal(position: UnitPosition) -> tuple[Unit, frozenset[object] | None]:
    retreats = None if position.retreats is None else frozenset(position.retreats)
    return position.unit, retreats


def _result_key(text: str) -> Unit | Order:
    """A results key is a unit (movement, retreats) or an order (adjustments)."""
    try:
        return parse_unit(text)
    except ValueError:
        return parse_order(text)


def test_table_has_every_section() -> None:
    sections = {case.id.rsplit(".", 1)[0] for case in CASES}
    assert sections == {f"6.{s}" for s in "ABCDEFGHI"}
    assert len({case.id for case in ALL}) == len(ALL), "duplicate case ids"


@pytest.mark.parametrize("case", ALL, ids=[c.id for c in ALL])
def test_case(case: Case) -> None:
    units = " ".join(f"( {u} )" for u in case.units)
    position = load_position(f"NOW ( {case.turn} ) {units}", f"SCO {case.centres}")
    for number, step in enumerate(case.steps, 1):
        where = f"{case.id} step {number} ({position.turn})"
        orders = [parse_order(text) for text in step.orders]
        outcome = adjudicate_phase(position, orders)

        notes = [note for _, note in outcome.verdicts]
        expected_notes = [step.rejected.get(text, "MBV") for text in step.orders]
        assert notes == expected_notes, f"{where}: THX notes"

        reported: dict[Unit | Order, tuple[str, ...]] = {}
        for result in outcome.results:
            order = result.order
            reported[order] = result.result
            unit = getattr(order, "unit", None)
            if unit is not None and not isinstance(order, Build | Remove):
                reported[unit] = result.result
        for key_text, tokens in step.results.items():
            key = _result_key(key_text)
            assert key in reported, f"{where}: ORD has nothing for {key_text}"
            assert reported[key] == tuple(tokens.split()), f"{where}: ORD result of {key_text}"

        if step.units_after is not None:
            got = {_normal(u) for u in outcome.units}
            want = {_normal(parse_unit_position(u)) for u in step.units_after}
            assert got == want, f"{where}: units after"
        if step.centres_after is not None:
            got_c = {(p, frozenset(c)) for p, c in outcome.centres}
            want_c = {(p, frozenset(c)) for p, c in parse_centres(step.centres_after)}
            assert got_c == want_c, f"{where}: centres after"
        slo = None if outcome.winner is None else f"SLO ( {outcome.winner} )"
        assert slo == step.slo, f"{where}: solo"
        position = outcome.position
