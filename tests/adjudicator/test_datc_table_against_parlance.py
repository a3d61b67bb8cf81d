"""Every row of the DATC table (and the extra cases) checked against Parlance's judge.

All rows go through ``parlance_judge.py`` (Python 2.7, Parlance 1.4.1's own
``Judge``, no network) in one subprocess; each row is one test comparing the
THX notes, ORD results, NOW units and SCO centres Parlance produces with what
the row expects.  Rows where Parlance is *wrong* w.r.t. the DATC (a bug, not a
DATC option choice) keep the DATC's answer and are strict xfails listed in
:data:`PARLANCE_DEVIATIONS`.
"""

from __future__ import annotations

import re
from collections import Counter

import pytest

from bot.servers.parlance_install import ParlanceInstall
from tests.adjudicator.datc_cases import CASES
from tests.adjudicator.datc_format import STANDARD_CENTRES, Case, Step
from tests.adjudicator.extra_cases import EXTRA_CASES
from tests.adjudicator.parlance_harness import centres, daide, run_cases, unit_key

ALL_CASES: tuple[Case, ...] = CASES + EXTRA_CASES

# case id -> why Parlance's answer differs from the row's (a Parlance bug, not
# an option choice: where the DATC offers options the rows follow Parlance).
# Each of these rows is a strict xfail, so a fixed Parlance would show up.
PARLANCE_DEVIATIONS: dict[str, str] = {
    "X.ORD.4": (
        "a server bug: the judge raises AttributeError when a unit supports the move of a "
        "unit that received no order (SupportMoveOrder.matches calls is_moving() on the "
        "result of get_order(), which is None for an unordered unit: the judge fills in "
        "missing orders only where it adjudicates the unit itself). Against a live "
        "parlance-server the game ends at that deadline: no ORD, the server sends SMR and "
        "the players leave. The row "
        "keeps the rules' answer (the army holds, the support is unmatched: NSO); "
        "test_random_vs_parlance.py gives every unit an order to stay clear of this bug"
    ),
}

MOVEMENT_SEASONS = {"SPR", "FAL"}
RETREAT_SEASONS = {"SUM", "AUT"}


def case_json(case: Case) -> dict:
    return {
        "id": case.id,
        "variant": "standard",
        "turn": case.turn,
        "units": list(case.units),
        "centres": case.centres,
        "steps": [{"orders": list(step.orders)} for step in case.steps],
    }


@pytest.fixture(scope="module")
def parlance_results(parlance_install: ParlanceInstall) -> dict[str, dict]:
    """Every row adjudicated by Parlance, by case id (one subprocess for all rows)."""
    return run_cases(parlance_install, [case_json(case) for case in ALL_CASES])


def check_step(case: Case, index: int, step: Step, got: dict) -> list[str]:
    """Differences between one expected step and Parlance's answer (empty if they agree)."""
    where = f"{case.id} step {index + 1} ({got['phase']})"
    problems: list[str] = []

    expected_notes = [(daide(o), daide(step.rejected.get(o, "MBV"))) for o in step.orders]
    got_notes = [(daide(o), n) for o, n in got["thx"]]
    if expected_notes != got_notes:
        diff = [
            f"{order}: expected {want}, Parlance {have}"
            for (order, want), (_, have) in zip(expected_notes, got_notes, strict=True)
            if want != have
        ]
        problems.append(f"{where}: THX notes differ: {diff}")
    unknown = set(step.rejected) - set(step.orders)
    if unknown:
        problems.append(f"{where}: 'rejected' names orders not in 'orders': {sorted(unknown)}")

    season = (got["phase"] or "").split(" ")[0].strip("( ")
    by_unit = season in MOVEMENT_SEASONS | RETREAT_SEASONS
    reported: dict[str, list[str]] = {}
    for line in got["ord"]:
        key = daide(line["unit"]) if by_unit and line["unit"] else daide(line["order"])
        reported.setdefault(key, []).append(line["result"])
    for key, want in step.results.items():
        have = reported.get(daide(key))
        if have is None:
            problems.append(
                f"{where}: no ORD for {key!r}; Parlance reported "
                + "; ".join(f"{line['order']} -> {line['result']}" for line in got["ord"])
            )
        elif any(result != daide(want) for result in have):
            problems.append(f"{where}: {key}: expected {want}, Parlance {' / '.join(have)}")

    if step.units_after is not None:
        want_units = Counter(unit_key(u) for u in step.units_after)
        have_units = Counter(unit_key(u) for u in got["units"])
        if want_units != have_units:
            missing = sorted((want_units - have_units).elements())
            unexpected = sorted((have_units - want_units).elements())
            problems.append(
                f"{where}: units after differ: missing {missing}, unexpected {unexpected}"
            )
    if step.centres_after is not None and centres(step.centres_after) != centres(got["sco"]):
        problems.append(f"{where}: centres after differ: Parlance {got['sco']}")
    want_end = None if step.slo is None else daide(step.slo)
    have_end = None if got["result"] is None else daide(got["result"])
    if want_end != have_end:
        problems.append(f"{where}: game end: expected {want_end}, Parlance {have_end}")
    return problems


def params() -> list[object]:
    out = []
    for case in ALL_CASES:
        marks = []
        if case.id in PARLANCE_DEVIATIONS:
            reason = f"Parlance bug: {PARLANCE_DEVIATIONS[case.id]}"
            marks.append(pytest.mark.xfail(strict=True, reason=reason))
        out.append(pytest.param(case, id=case.id, marks=marks))
    return out


@pytest.mark.parametrize("case", params())
def test_row_agrees_with_parlance(case: Case, parlance_results: dict[str, dict]) -> None:
    got = parlance_results[case.id]
    assert got["error"] is None, f"Parlance's judge raised on {case.id}:\n{got['error']}"
    assert len(got["steps"]) == len(case.steps)
    problems: list[str] = []
    for index, (step, answer) in enumerate(zip(case.steps, got["steps"], strict=True)):
        problems += check_step(case, index, step, answer)
    assert not problems, "\n".join(problems)


def test_table_is_well_formed() -> None:
    ids = [case.id for case in ALL_CASES]
    assert len(ids) == len(set(ids)), "duplicate case ids"
    assert set(PARLANCE_DEVIATIONS) <= set(ids), "deviation listed for an unknown case"
    for case in CASES:
        assert re.fullmatch(r"6\.[A-I]\.\d+", case.id), case.id
        assert case.title and case.steps and case.units
    for case in EXTRA_CASES:
        assert re.fullmatch(r"X\.[A-Z]+\.\d+", case.id), case.id
        assert case.title and case.steps and case.units
    order = [(c.id.split(".")[1], int(c.id.split(".")[2])) for c in CASES]
    assert order == sorted(order), "DATC rows are not in document order"
    all_centres = sorted(p for group in centres(STANDARD_CENTRES).values() for p in group)
    assert len(all_centres) == 34
    for case in ALL_CASES:
        # Parlance needs every centre owned by someone (UNO included), exactly once.
        listed = [p for group in centres(case.centres).values() for p in group]
        assert sorted(listed) == all_centres, f"{case.id}: centres must list the 34 centres once"
        for step in case.steps:
            assert set(step.rejected) <= set(step.orders), f"{case.id}: 'rejected' order not sent"
