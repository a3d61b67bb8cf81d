"""The variants choose exactly the orders they chose when these choices were recorded.

``pinned_choices.json`` holds, for ``dm``, the thesis's ``v1``-``v8`` and a
few overridden settings, the orders each chose for a few fixed positions with
a fixed seed and an iteration cap (the search is deterministic then).  A
change to how variants are configured must not change what they play.

Recording again (only when a change of play is intended and measured)::

    .venv/bin/python -m tests.search.mcts.test_pinned_choices
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from random import Random
from typing import Any

import pytest

from adjudicator.maps import ARMY, standard_map
from adjudicator.position import NOBODY, SEASONS, Position, initial_position
from search.mcts.player import think
from search.mcts.variants import get_variant
from tests.search.boards import dumbbot_game, position

FIXTURE = Path(__file__).with_name("pinned_choices.json")
M = standard_map()

SPECS = (
    "dm",
    *(f"v{k}" for k in range(1, 9)),
    "dm/cp=0.1/final=mean",
    "dm/years=full/widen=off",
    "v5/years=2/double=on",
)
"""The variants pinned: the kept ones, and overrides of their settings."""

ITERATIONS = 48
"""The iteration cap of every pinned search."""

FINAL_YEAR = 1905
"""The game's last year, as BANDANA's ``-fy`` gives it."""

SEED = 2026
"""The seed of every pinned search."""


def _describe(pos: Position) -> dict[str, Any]:
    """A position as :func:`tests.search.boards.position` takes it."""
    units = [
        f"{M.powers[power]} {'A' if kind == ARMY else 'F'} {_loc_name(loc)}"
        for power, kind, loc in (pos.units[prov] for prov in sorted(pos.units))
    ]
    owners: dict[str, list[str]] = {}
    for prov, owner in enumerate(pos.owners):
        if owner != NOBODY:
            owners.setdefault(M.powers[owner], []).append(M.provinces[prov])
    return {"turn": f"{SEASONS[pos.season].value} {pos.year}", "units": units, "owners": owners}


def _loc_name(loc: int) -> str:
    where = M.location_name(loc)
    return f"{where.province}/{where.coast}" if where.coast else str(where.province)


def boards() -> list[tuple[str, Position, list[str]]]:
    """``(label, position, powers searched)`` for every pinned board, as recorded."""
    spring = initial_position(M)
    middle = next(p for p, _ in dumbbot_game(seed=5, years=3) if p.year == 1903)
    return [("spring 1901", spring, ["AUS", "ENG", "RUS"]), ("mid-game", middle, ["FRA", "TUR"])]


def choose(spec: str, pos: Position, power: str) -> dict[str, list[int]]:
    """The orders ``spec`` chooses for ``power`` at ``pos``, by province name."""
    orders, stats = think(
        pos, M.power_index[power], get_variant(spec), FINAL_YEAR, Random(SEED),
        iterations=ITERATIONS,
    )  # fmt: skip
    assert stats["iterations"] == ITERATIONS
    return {M.provinces[prov]: list(order) for prov, order in sorted(orders.items())}


def record() -> dict[str, Any]:
    """Every pinned choice, as the fixture stores it."""
    out: dict[str, Any] = {
        "seed": SEED,
        "iterations": ITERATIONS,
        "final_year": FINAL_YEAR,
        "boards": [],
    }
    for label, played, powers in boards():
        described = _describe(played)
        pos = position(described["turn"], described["units"], described["owners"])
        choices = {spec: {p: choose(spec, pos, p) for p in powers} for spec in SPECS}
        out["boards"].append({"label": label, "position": described, "choices": choices})
    return out


def _cases() -> list[tuple[str, dict[str, Any], str, str, dict[str, list[int]]]]:
    if not FIXTURE.is_file():
        return []  # being recorded (else the test above fails)
    data = json.loads(FIXTURE.read_text())
    return [
        (board["label"], board["position"], spec, power, orders)
        for board in data["boards"]
        for spec, by_power in board["choices"].items()
        for power, orders in by_power.items()
    ]


def test_the_fixture_was_recorded_with_these_settings() -> None:
    data = json.loads(FIXTURE.read_text())
    assert (data["seed"], data["iterations"], data["final_year"]) == (
        SEED,
        ITERATIONS,
        FINAL_YEAR,
    )
    assert [set(b["choices"]) for b in data["boards"]] == [set(SPECS)] * len(boards())


@pytest.mark.parametrize(("label", "board", "spec", "power", "orders"), _cases())
def test_a_variant_chooses_the_pinned_orders(
    label: str, board: dict[str, Any], spec: str, power: str, orders: dict[str, list[int]]
) -> None:
    pos = position(board["turn"], board["units"], board["owners"])
    assert choose(spec, pos, power) == orders, f"{spec} for {power} at {label}"


def _compact(text: str) -> str:
    """JSON text with every list of numbers on one line."""
    return re.sub(r"\[\s+([-\d,\s]+?)\s+\]", lambda m: f"[{' '.join(m[1].split())}]", text)


if __name__ == "__main__":
    FIXTURE.write_text(_compact(json.dumps(record(), indent=1)) + "\n")
    print(f"wrote {FIXTURE}", file=sys.stderr)
