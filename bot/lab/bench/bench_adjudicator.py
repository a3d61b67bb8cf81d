"""``daide-mcts bench adjudicator``: movement phases per second, against MILA's engine.

The corpus is fixed by a seed: full-board movement phases (22-34 units) from
random games played with :func:`adjudicator.randomorders.battle_orders`
(attacks, matching supports, convoys).  Our engine is timed from engine-form
orders to results and the next position (:func:`adjudicate_movement`); MILA's
``diplomacy`` engine on the same phases from ``set_orders`` to ``process()``
(each phase's game is set up before the clock starts).  The figures are the
median of several runs; the ratio is taken between medians of the same run.
It also times legal order generation on the corpus positions: every unit's
movement orders (:func:`adjudicator.legal.movement_orders`, convoys included);
and, on the corpus phases without convoy orders (the search's orders never
convoy; the compiled resolver, see :mod:`adjudicator.compiled_rules`, runs
every phase): the search's path as the compiled rollouts and steps run it
(``search._fastbot.MovementPhases``: each phase read into C arrays once,
untimed, then resolved and applied in place in C, its board restored from
those arrays first, timed); :func:`adjudicator.movement.next_position` (a
Position and an orders dict in, the next Position out: the tree's Python
path), compiled and in pure Python; and full adjudication.
"""

from __future__ import annotations

import argparse
import statistics
import time
from random import Random
from typing import Any

from adjudicator import compiled_rules as speedups
from adjudicator.adjustments import adjudicate_adjustments
from adjudicator.legal import adjustment_options, movement_orders
from adjudicator.maps import ARMY, standard_map
from adjudicator.movement import adjudicate_movement, next_position
from adjudicator.orders import (
    CONVOY,
    CONVOY_MOVE,
    HOLD,
    MOVE,
    SUPPORT_HOLD,
    SUPPORT_MOVE,
    EngineOrder,
    Orders,
)
from adjudicator.position import FALL, Position, initial_position
from adjudicator.randomorders import battle_orders
from adjudicator.retreats import adjudicate_retreats
from adjudicator.rules import JUDGE_NAMES
from search.compiled_search import movement_phases

Phase = tuple[Position, Orders]

MILA_POWERS = {
    "AUS": "AUSTRIA", "ENG": "ENGLAND", "FRA": "FRANCE", "GER": "GERMANY",
    "ITA": "ITALY", "RUS": "RUSSIA", "TUR": "TURKEY",
}  # fmt: skip
MILA_PROVINCES = JUDGE_NAMES


def build_corpus(seed: int, size: int) -> list[Phase]:
    """``size`` full-board movement phases (22-34 units) with battle-heavy orders."""
    rng = Random(seed)
    m = standard_map()
    corpus: list[Phase] = []
    pos = initial_position(m)
    while len(corpus) < size:
        if pos.year > 1912 or len(pos.units) < 22:
            pos = initial_position(m)
        if pos.is_movement:
            orders = battle_orders(pos, rng)
            corpus.append((pos, orders))
            pos = adjudicate_movement(pos, orders).position
        elif pos.is_retreat:
            pos = adjudicate_retreats(pos, {}).position
        else:
            winter = {p: adjustment_options(pos, p)[:1] for p in range(m.num_powers)}
            pos = adjudicate_adjustments(pos, winter).position
    return corpus


def time_engine(corpus: list[Phase]) -> float:
    """Seconds to adjudicate the whole corpus once with our engine."""
    started = time.perf_counter()
    for pos, orders in corpus:
        adjudicate_movement(pos, orders)
    return time.perf_counter() - started


def time_next_position(corpus: list[Phase]) -> float:
    """Seconds to compute every phase's next position once (the tree's Python path)."""
    started = time.perf_counter()
    for pos, orders in corpus:
        next_position(pos, orders)
    return time.perf_counter() - started


def time_phases(phases: Any) -> float:
    """Seconds to resolve and apply once, in C, the phases of a ``MovementPhases``."""
    started = time.perf_counter()
    phases.run()
    return time.perf_counter() - started


def time_legal(corpus: list[Phase]) -> tuple[float, int]:
    """Seconds to generate every unit's legal movement orders in every corpus position."""
    count = 0
    started = time.perf_counter()
    for pos, _ in corpus:
        for prov in pos.units:
            count += len(movement_orders(pos, prov))
    return time.perf_counter() - started, count


# --- MILA ------------------------------------------------------------------------------------


def mila_location(pos: Position, loc: int) -> str:
    """A location in MILA's notation (``LYO``, ``STP/SC``)."""
    m = pos.map
    name = m.provinces[m.loc_province[loc]]
    name = MILA_PROVINCES.get(name, name)
    coast = m.loc_coast[loc]
    return f"{name}/{coast[0]}C" if coast else name


def mila_unit(pos: Position, prov: int) -> str:
    """The unit in province ``prov`` in MILA's notation (``F STP/SC``)."""
    _, utype, loc = pos.units[prov]
    return f"{'A' if utype == ARMY else 'F'} {mila_location(pos, loc)}"


def mila_order(pos: Position, prov: int, order: EngineOrder) -> str:
    """One engine order in MILA's notation (``A PAR - BUR``, ``F NTH C A LON - BEL``)."""
    m = pos.map
    unit = mila_unit(pos, prov)
    kind = order[0]
    if kind == HOLD:
        return f"{unit} H"
    if kind == MOVE:
        return f"{unit} - {mila_location(pos, order[1])}"
    if kind == CONVOY_MOVE:
        return f"{unit} - {mila_location(pos, order[1])} VIA"
    dest = MILA_PROVINCES.get(m.provinces[order[-1]], m.provinces[order[-1]])
    if kind == SUPPORT_HOLD:
        return f"{unit} S {mila_unit(pos, order[1])}"
    if kind == SUPPORT_MOVE:
        return f"{unit} S {mila_unit(pos, order[1])} - {dest}"
    assert kind == CONVOY
    return f"{unit} C {mila_unit(pos, order[1])} - {dest}"


def mila_games(corpus: list[Phase]) -> list[tuple[Any, dict[str, list[str]]]]:
    """One MILA game per phase, set up with its units and centres, and its orders."""
    from diplomacy import Game  # an optional peer: only the benchmark needs it

    out = []
    for pos, orders in corpus:
        m = pos.map
        game = Game()
        game.clear_units()
        by_power: dict[str, list[str]] = {name: [] for name in MILA_POWERS.values()}
        for prov in pos.units:
            by_power[MILA_POWERS[m.powers[pos.units[prov][0]]]].append(mila_unit(pos, prov))
        for power_name, units in by_power.items():
            game.set_units(power_name, units, reset=True)
        for power in range(m.num_powers):
            owned = [
                MILA_PROVINCES.get(m.provinces[sc], m.provinces[sc])
                for sc in m.supply_centres
                if pos.owners[sc] == power
            ]
            game.set_centers(MILA_POWERS[m.powers[power]], owned, reset=True)
        if pos.season == FALL:
            game.set_current_phase(f"F{pos.year}M")
        else:
            game.set_current_phase(f"S{pos.year}M")
        mila_orders: dict[str, list[str]] = {name: [] for name in MILA_POWERS.values()}
        for prov, order in orders.items():
            mila_power = MILA_POWERS[m.powers[pos.units[prov][0]]]
            mila_orders[mila_power].append(mila_order(pos, prov, order))
        out.append((game, mila_orders))
    return out


def time_mila(corpus: list[Phase]) -> float:
    """Seconds for MILA to set the orders of and process every phase once."""
    games = mila_games(corpus)
    started = time.perf_counter()
    for game, orders in games:
        for power, power_orders in orders.items():
            game.set_orders(power, power_orders)
        game.process()
    return time.perf_counter() - started


def _print_search_paths(corpus: list[Phase], runs: int) -> None:
    """Print the search's phases per second: in C, by next_position and fully adjudicated.

    Then legal-order generation.
    """
    convoying = (CONVOY, CONVOY_MOVE)
    plain = [(p, o) for p, o in corpus if not any(x[0] in convoying for x in o.values())]
    phases = movement_phases(plain)
    if phases is None:
        print("resolve + apply:   no figure: compiled code not built or switched off")
    else:
        in_c = statistics.median(len(plain) / time_phases(phases) for _ in range(runs))
        print(
            f"resolve + apply:   {in_c:9.0f} phases/s in C, as the compiled rollouts run them "
            f"(the {len(plain)} phases without convoy orders, each read into C once, untimed; "
            f"median of {runs})"
        )
    with speedups.pure_python():
        pure = [len(plain) / time_next_position(plain) for _ in range(runs)]
    pure_median = statistics.median(pure)
    line = f"{pure_median:9.0f} phases/s in pure Python"
    if speedups.fast_movement() is not None:
        fast = [len(plain) / time_next_position(plain) for _ in range(runs)]
        line = f"{statistics.median(fast):9.0f} phases/s compiled, {pure_median:.0f} in pure Python"
    print(
        f"next_position:     {line} (a Position and orders dict in, a Position out: the "
        f"tree's Python path; the same {len(plain)} phases; medians of {runs})"
    )
    full = statistics.median(len(plain) / time_engine(plain) for _ in range(runs))
    print(
        f"full, no convoys:  {full:9.0f} phases/s (results and next position, the same "
        f"{len(plain)} phases; median of {runs})"
    )
    legal = []
    generated = 0
    for _ in range(runs):
        seconds, generated = time_legal(corpus)
        legal.append(len(corpus) / seconds)
    print(
        f"legal orders:      {statistics.median(legal):9.0f} positions/s, every unit's movement "
        f"orders ({generated / len(corpus):.0f} per position; median of {runs})"
    )


def main(argv: list[str]) -> int:
    """Print phases per second for both engines and their ratio."""
    parser = argparse.ArgumentParser(prog="daide-mcts bench adjudicator", description=__doc__)
    parser.add_argument("--seed", type=int, default=1, help="corpus seed (default 1)")
    parser.add_argument("--size", type=int, default=400, help="phases in the corpus (default 400)")
    parser.add_argument("--runs", type=int, default=5, help="timed runs per engine (default 5)")
    parser.add_argument(
        "--mila-size",
        type=int,
        default=100,
        help="phases of the corpus MILA adjudicates per run (default 100; it is slow)",
    )
    parser.add_argument("--no-mila", action="store_true", help="time our engine only")
    args = parser.parse_args(argv)
    corpus = build_corpus(args.seed, args.size)
    units = [len(pos.units) for pos, _ in corpus]
    supports = sum(1 for _, o in corpus for x in o.values() if x[0] in (SUPPORT_HOLD, SUPPORT_MOVE))
    convoys = sum(1 for _, o in corpus for x in o.values() if x[0] == CONVOY_MOVE)
    print(
        f"corpus: {len(corpus)} movement phases, seed {args.seed}, units {min(units)}-{max(units)} "
        f"(mean {statistics.mean(units):.1f}), {supports / len(corpus):.1f} supports and "
        f"{convoys / len(corpus):.2f} convoyed armies per phase"
    )
    ours = [len(corpus) / time_engine(corpus) for _ in range(args.runs)]
    ours_median = statistics.median(ours)
    print(
        f"daide-mcts engine: {ours_median:9.0f} phases/s (median of {args.runs}: "
        + ", ".join(f"{x:.0f}" for x in ours)
        + ")"
    )
    _print_search_paths(corpus, args.runs)
    if args.no_mila:
        return 0
    subset = corpus[: args.mila_size]
    mila = [len(subset) / time_mila(subset) for _ in range(args.runs)]
    mila_median = statistics.median(mila)
    print(
        f"MILA diplomacy:    {mila_median:9.0f} phases/s (median of {args.runs}: "
        + ", ".join(f"{x:.0f}" for x in mila)
        + ")"
    )
    print(f"ratio: {ours_median / mila_median:.1f}x MILA")
    return 0
