"""Our engine against Parlance's judge on hundreds of random and bot-played phases.

Random games are played with our engine (random holds, moves, supports,
coordinated convoys; random retreats; random and excessive builds, too few
removals), and games are played by seven of our DumbBots (the positions a bot
reaches: crowded fronts, fleets retreating to coasts).  Every phase is
adjudicated again by Parlance 1.4.1's own judge (``parlance_judge.py``).  The
two must agree on every THX note, every ORD result, the next NOW (with retreat
options) and the next SCO.

Every unit always gets an explicit order: Parlance's judge crashes when a unit
supports the move of a unit that got no order (see the DATC table's X.ORD.4).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from random import Random

import pytest

from adjudicator.convert import adjustment_value, movement_value, retreat_value
from adjudicator.daide import adjudicate_phase
from adjudicator.legal import (
    adjustment_options,
    retreat_orders,
)
from adjudicator.maps import standard_map
from adjudicator.orders import (
    WAIVE_ORDER,
)
from adjudicator.position import Position, initial_position
from adjudicator.randomorders import battle_orders
from bot.servers.parlance_install import ParlanceInstall
from protocol.notation import (
    format_centres,
    format_order,
    format_turn,
    format_unit,
    format_unit_position,
)
from protocol.values import Order, Retreat
from tests.adjudicator.parlance_harness import centres, daide, dumbbot_orders, run_cases, unit_key

SEED = 20261122
GAMES = 8
YEARS = 6  # phases per game: about 12 movement, plus retreats and winters
BOT_SEED = 14
BOT_GAMES = 6  # seeds 14-19: fleets retreat to both coasts of Bulgaria and to St Petersburg


Chooser = Callable[[Position, Random], list[Order]]
"""A phase's orders, all powers together."""


def _games(choose: Chooser, rngs: list[Random]) -> list[tuple[Position, list[Order]]]:
    """Every phase of one game per ``rngs`` entry, to the end of ``YEARS``, with its orders."""
    phases: list[tuple[Position, list[Order]]] = []
    for rng in rngs:
        pos = initial_position(standard_map())
        while pos.year < 1901 + YEARS:
            orders = choose(pos, rng)
            phases.append((pos, orders))
            pos = adjudicate_phase(pos, orders).position
    return phases


def _random_orders(pos: Position, rng: Random) -> list[Order]:
    if pos.is_movement:
        engine = battle_orders(pos, rng)
        return [movement_value(pos, p, o) for p, o in sorted(engine.items())]
    orders = []
    if pos.is_retreat:
        for p in sorted(pos.dislodged):
            if rng.random() < 0.9:
                orders.append(retreat_value(pos, p, rng.choice(retreat_orders(pos, p))))
        return orders
    for power in range(pos.map.num_powers):
        options = adjustment_options(pos, power)
        due = abs(pos.adjustments()[power])
        if not options or rng.random() < 0.15:
            continue  # leave it to the rules: waives, civil-disorder removals
        picks = rng.sample(options, min(len(options), due + rng.choice((0, 0, 1))))
        orders += [adjustment_value(pos, power, o) for o in picks]
        if rng.random() < 0.2:
            orders.append(adjustment_value(pos, power, WAIVE_ORDER))
    return orders


def _case(index: int, pos: Position, orders: list[Order]) -> dict:
    return {
        "id": f"R{index}",
        "variant": "standard",
        "turn": format_turn(pos.turn),
        "units": [format_unit_position(u) for u in pos.unit_positions()],
        "centres": format_centres(pos.centres()),
        "steps": [{"orders": [format_order(o) for o in orders]}],
    }


PHASES = _games(_random_orders, [Random(SEED)] * GAMES) + _games(
    dumbbot_orders, [Random(BOT_SEED + game) for game in range(BOT_GAMES)]
)


def test_the_random_games_exercise_the_rules() -> None:
    kinds: Counter[object] = Counter()
    for pos, orders in PHASES:
        kinds[pos.season] += 1
        for order in orders:
            kinds[type(order).__name__] += 1
    assert kinds[0] + kinds[2] >= 60, kinds  # movement phases
    assert kinds[1] + kinds[3] >= 10, kinds  # retreat phases
    assert kinds[4] >= 10, kinds  # winters
    for name in ("SupportMove", "SupportHold", "Convoy", "MoveByConvoy", "Retreat", "Build"):
        assert kinds[name] >= 5, (name, kinds)


def test_fleets_retreat_to_a_coast() -> None:
    to_coasts = {
        str(order.destination)
        for _, orders in PHASES
        for order in orders
        if isinstance(order, Retreat) and order.destination.coast is not None
    }
    assert len(to_coasts) >= 2, to_coasts


@pytest.fixture(scope="module")
def parlance_answers(parlance_install: ParlanceInstall) -> dict[str, dict]:
    return run_cases(parlance_install, [_case(i, pos, o) for i, (pos, o) in enumerate(PHASES)])


@pytest.mark.parametrize("index", range(len(PHASES)))
def test_phase_agrees_with_parlance(index: int, parlance_answers: dict[str, dict]) -> None:
    pos, orders = PHASES[index]
    answer = parlance_answers[f"R{index}"]
    assert answer["error"] is None, answer["error"]
    theirs = answer["steps"][0]
    ours = adjudicate_phase(pos, orders)
    where = f"R{index} {pos.turn}"

    assert [n for _, n in ours.verdicts] == [n for _, n in theirs["thx"]], f"{where}: THX"

    by_unit = not pos.is_adjustment
    our_results: Counter[tuple[str, str]] = Counter()
    for r in ours.results:
        unit = getattr(r.order, "unit", None)
        key = daide(format_unit(unit)) if by_unit and unit else daide(format_order(r.order))
        our_results[(key, " ".join(r.result))] += 1
    their_results: Counter[tuple[str, str]] = Counter()
    for line in theirs["ord"]:
        key = daide(line["unit"]) if by_unit and line["unit"] else daide(line["order"])
        their_results[(key, line["result"])] += 1
    assert our_results == their_results, f"{where}: ORD results"

    our_units = Counter(unit_key(format_unit_position(u)) for u in ours.units)
    their_units = Counter(unit_key(u) for u in theirs["units"])
    assert our_units == their_units, f"{where}: units after"
    assert centres(format_centres(ours.centres)) == centres(theirs["sco"]), f"{where}: centres"
    assert daide(f"( {format_turn(ours.turn)} )") in daide(theirs["now"]), f"{where}: next phase"
