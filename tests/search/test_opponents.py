"""Opponent statistics: counts of what each power ordered, and how DumbBot-like it played."""

from __future__ import annotations

import pickle
from random import Random

from adjudicator.orders import HOLD_ORDER, MOVE, SUPPORT_MOVE
from adjudicator.position import initial_position
from protocol.messages import parse_text
from search.arena import play_game
from search.dumbbot import DumbBot
from search.opponents import OpponentStats, OpponentTracker, orders_from_results
from search.randombot import RandomBot
from search.simulate import play_phase
from tests.search.boards import M, loc, position, power, prov


def test_orders_are_counted_by_kind_and_attacks_by_victim() -> None:
    pos = position(
        "SPR 1902",
        ["FRA A BUR", "FRA A PAR", "FRA F MAO", "GER A MUN", "GER A RUH"],
        {"FRA": ["PAR", "BRE", "MAR"], "GER": ["MUN", "BER", "KIE"]},
    )
    orders = {
        prov("BUR"): (MOVE, loc("MUN")),
        prov("PAR"): (SUPPORT_MOVE, prov("BUR"), prov("MUN")),
        prov("MUN"): HOLD_ORDER,
        prov("RUH"): (MOVE, loc("BEL")),
    }  # FRA F MAO has no order: it holds
    stats = OpponentStats.empty(M.num_powers).observe(pos, orders, Random(0), samples=4)
    fra, ger = stats.powers[power("FRA")], stats.powers[power("GER")]
    assert (fra.units, fra.moves, fra.supports, fra.holds) == (3, 1, 1, 1)
    assert fra.attacks[power("GER")] == 1 and sum(fra.attacks) == 1
    assert (ger.units, ger.moves, ger.holds) == (2, 1, 1)
    assert sum(ger.attacks) == 0  # Belgium is neutral and empty
    assert stats.phases == 1 and stats.powers[power("ENG")].units == 0
    assert pickle.loads(pickle.dumps(stats)) == stats


def test_dumbbot_looks_like_dumbbot_and_a_random_player_does_not() -> None:
    rng = Random(3)
    dumbbot, random_bot = DumbBot(), RandomBot()
    policies = [dumbbot] * M.num_powers
    policies[power("ITA")] = random_bot
    stats = OpponentStats.empty(M.num_powers)
    pos = initial_position(M)
    while pos.year < 1904:
        played: dict[int, tuple[int, ...]] = {}
        before = pos
        pos = play_phase(pos, policies, rng, played)
        if before.is_movement:
            stats = stats.observe(before, played, rng)
    assert stats.phases == 6
    likeness = [stats.dumbbot_likeness(p) for p in range(M.num_powers)]
    for p, value in enumerate(likeness):
        if p != power("ITA") and stats.powers[p].units:
            assert value > 0.85, (M.powers[p], value)
    assert likeness[power("ITA")] < 0.5
    # With no phase seen, every power is presumed to be DumbBot.
    assert OpponentStats.empty(M.num_powers).dumbbot_likeness(power("ITA")) == 1.0


class Watcher(DumbBot):
    """DumbBot that records what an arena shows it."""

    def __init__(self) -> None:
        super().__init__()
        self.games = 0
        self.seen: list[tuple[str, int]] = []

    def start_game(self) -> None:
        self.games += 1

    def observe(self, pos, orders) -> None:  # type: ignore[no-untyped-def]
        assert set(orders) <= set(pos.units)
        self.seen.append((f"{pos.season} {pos.year}", len(orders)))


def test_the_arena_shows_observers_every_movement_phase() -> None:
    watcher = Watcher()
    players = [watcher] + [DumbBot() for _ in range(6)]
    play_game(players, list(range(7)), 1902, Random(5))
    assert watcher.games == 1
    assert [turn for turn, _ in watcher.seen] == ["0 1901", "2 1901", "0 1902", "2 1902"]
    assert watcher.seen[0][1] == 22  # DumbBot orders every unit


def test_ord_results_become_engine_orders() -> None:
    pos = initial_position(M)
    lines = [
        "ORD ( SPR 1901 ) ( ( FRA AMY PAR ) MTO BUR ) ( SUC )",
        "ORD ( SPR 1901 ) ( ( FRA FLT BRE ) SUP ( FRA AMY PAR ) MTO BUR ) ( SUC )",
        "ORD ( SPR 1901 ) ( ( FRA AMY MAR ) MTO PIE ) ( SUC )",
    ]
    results = [parse_text(line).entry for line in lines]  # type: ignore[attr-defined]
    orders = orders_from_results(pos, results)
    # Brest does not border Burgundy: the support is refused and the fleet counts as holding.
    assert orders == {prov("PAR"): (MOVE, loc("BUR")), prov("MAR"): (MOVE, loc("PIE"))}


def test_the_tracker_folds_in_new_phases_and_starts_afresh_for_a_new_game() -> None:
    rng = Random(2)
    policies = [DumbBot()] * M.num_powers
    pos = initial_position(M)
    observed: list[tuple[object, dict[int, tuple[int, ...]]]] = []
    while pos.year < 1903:
        played: dict[int, tuple[int, ...]] = {}
        before = pos
        pos = play_phase(pos, policies, rng, played)
        if before.is_movement:
            observed.append((before.to_data(), played))
    tracker = OpponentTracker()
    assert tracker.update(M, []) is None
    first = tracker.update(M, observed[:2])
    assert first is not None and first.phases == 2
    whole = tracker.update(M, observed)
    assert whole is not None and whole.phases == 4 and tracker.seen == 4
    assert OpponentTracker().update(M, observed) == whole  # the same, folded in one go
    again = tracker.update(M, observed[:1])  # a new game
    assert again is not None and again.phases == 1
