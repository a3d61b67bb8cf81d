"""RandomBot: legal, seeded, friendly supports; plus the helpers the other search tests share.

``varied_positions`` plays mixed RandomBot/DumbBot games and keeps positions
of every kind of phase (movement, retreats, winters with builds and with
removals); ``assert_legal`` checks a player's orders against the slow oracle
(:class:`adjudicator.validation.OrderBook`, which gives THX notes) and the
legal-order generators.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from random import Random

from adjudicator.convert import adjustment_value, movement_value, retreat_value
from adjudicator.legal import movement_orders
from adjudicator.maps import standard_map
from adjudicator.orders import (
    BUILD,
    MOVE,
    REMOVE,
    SUPPORT_HOLD,
    SUPPORT_MOVE,
    WAIVE,
    EngineOrder,
)
from adjudicator.position import WINTER, Position, initial_position
from adjudicator.validation import MBV, OrderBook
from search.dumbbot import DumbBot
from search.policy import Policy
from search.randombot import RandomBot
from search.simulate import play_phase


@lru_cache(maxsize=1)
def varied_positions() -> tuple[Position, ...]:
    """Positions from mixed games (1901-1912): movement, retreat and winter phases alike."""
    m = standard_map()
    out: list[Position] = []
    for seed in range(8):
        rng = Random(seed)
        players: list[Policy | None] = [
            RandomBot() if (seed + p) % 3 == 0 else DumbBot() for p in range(m.num_powers)
        ]
        pos = initial_position(m)
        while pos.year <= 1912:
            out.append(pos)
            pos = play_phase(pos, players, rng)
    return tuple(out)


def positions_of(kind: str) -> list[Position]:
    """The varied positions of one kind: ``movement``, ``retreat``, ``build`` or ``remove``."""
    out = []
    for pos in varied_positions():
        if pos.is_movement:
            k = "movement"
        elif pos.is_retreat:
            k = "retreat"
        else:
            due = pos.adjustments()
            if kind in ("build", "remove") and any(
                (d > 0 if kind == "build" else d < 0) for d in due
            ):
                out.append(pos)
            continue
        if k == kind:
            out.append(pos)
    return out


def assert_legal(pos: Position, power: int, player: object, rng: Random) -> list[EngineOrder]:
    """``player``'s orders for ``power`` in ``pos``: all accepted (MBV), none missing."""
    name = pos.map.powers[power]
    book = OrderBook(pos)
    if pos.is_movement:
        orders = player.movement_orders(pos, power, rng)  # type: ignore[attr-defined]
        assert set(orders) == set(pos.units_of(power)), "every unit gets an order"
        for prov, order in orders.items():
            assert order in movement_orders(pos, prov), (pos, prov, order)
            note = book.submit(name, movement_value(pos, prov, order))
            assert note == MBV, (pos, prov, order, note)
        return list(orders.values())
    if pos.is_retreat:
        orders = player.retreat_orders(pos, power, rng)  # type: ignore[attr-defined]
        ours = {p for p, d in pos.dislodged.items() if d[0] == power}
        assert set(orders) == ours
        for prov, order in orders.items():
            note = book.submit(name, retreat_value(pos, prov, order))
            assert note == MBV, (pos, prov, order, note)
        return list(orders.values())
    assert pos.season == WINTER
    adjustments = player.adjustment_orders(pos, power, rng)  # type: ignore[attr-defined]
    due = pos.adjustments()[power]
    assert len(adjustments) == abs(due)
    for order in adjustments:
        assert order[0] in ((BUILD, WAIVE) if due > 0 else (REMOVE,))
        note = book.submit(name, adjustment_value(pos, power, order))
        assert note == MBV, (pos, order, note)
    return adjustments


def test_random_orders_are_legal_in_every_kind_of_phase() -> None:
    bot = RandomBot()
    rng = Random(5)
    kinds = Counter()
    for pos in varied_positions():
        for power in range(pos.map.num_powers):
            if pos.is_movement and not pos.units_of(power):
                continue
            if pos.is_retreat and not any(d[0] == power for d in pos.dislodged.values()):
                continue
            if pos.season == WINTER and pos.adjustments()[power] == 0:
                continue
            assert_legal(pos, power, bot, rng)
            kinds[pos.season] += 1
    assert all(kinds[s] > 5 for s in range(5)), kinds


def test_random_bot_is_deterministic_for_a_seed() -> None:
    bot = RandomBot()
    for pos in varied_positions()[:40]:
        for power in range(7):
            if pos.is_movement:
                a = bot.movement_orders(pos, power, Random(3))
                b = bot.movement_orders(pos, power, Random(3))
            elif pos.is_retreat:
                a = bot.retreat_orders(pos, power, Random(3))
                b = bot.retreat_orders(pos, power, Random(3))
            else:
                a = bot.adjustment_orders(pos, power, Random(3))
                b = bot.adjustment_orders(pos, power, Random(3))
            assert a == b


def test_random_bot_supports_friendly_units_matching_their_orders() -> None:
    pos = initial_position(standard_map())
    bot = RandomBot(support_probability=0.5)
    rng = Random(0)
    supports = 0
    for _ in range(300):
        orders = bot.movement_orders(pos, pos.map.power_index["RUS"], rng)
        for order in orders.values():
            if order[0] == SUPPORT_MOVE:
                supports += 1
                assert orders[order[1]][0] == MOVE
                assert pos.map.loc_province[orders[order[1]][1]] == order[2]
            elif order[0] == SUPPORT_HOLD:
                supports += 1
                assert orders[order[1]][0] != MOVE
    assert supports > 50


def test_random_bot_moves_all_over() -> None:
    pos = initial_position(standard_map())
    bot = RandomBot(support_probability=0.0)
    vie = pos.map.province_index["VIE"]
    seen = Counter()
    rng = Random(1)
    for _ in range(500):
        seen[bot.movement_orders(pos, pos.map.power_index["AUS"], rng)[vie]] += 1
    # hold plus every neighbour of Vienna, roughly uniformly
    assert len(seen) == 1 + len(pos.map.army_adjacent[vie])
    assert min(seen.values()) > 500 / len(seen) / 2
