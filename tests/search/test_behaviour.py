"""The behaviour library, the mixture fit and the mixture player (search.behaviour)."""

from __future__ import annotations

from random import Random

import pytest

from adjudicator.legal import movement_orders
from adjudicator.orders import HOLD_ORDER
from adjudicator.position import Position, initial_position
from search.behaviour import (
    LIBRARY_NAMES,
    PRIOR_UNITS,
    PRIOR_WEIGHTS,
    GuardingDumbBot,
    MixturePlayer,
    fit_mixture,
    library,
    order_likelihoods,
    threatened_own_centres,
)
from search.dumbbot import DumbBot
from search.opponents import OpponentStats
from search.policy import Policy
from search.randombot import RandomBot
from search.simulate import play_phase
from tests.search.boards import M, position, power, prov

DUMBBOT, RANDOM = LIBRARY_NAMES.index("dumbbot"), LIBRARY_NAMES.index("random")
GUARD = LIBRARY_NAMES.index("guard")


def _only_random_gives(low: float = 0.01, high: float = 0.5) -> tuple[float, ...]:
    """A likelihood row of an order only RandomBot gives."""
    return tuple(high if i == RANDOM else low for i in range(len(LIBRARY_NAMES)))


def _observed_game(players: list[Policy], seed: int, last_year: int) -> OpponentStats:
    """The statistics of a game played by ``players`` (one per power) up to ``last_year``."""
    rng = Random(seed)
    stats = OpponentStats.empty(M.num_powers)
    pos = initial_position(M)
    while pos.year <= last_year:
        played: dict[int, tuple[int, ...]] = {}
        before = pos
        pos = play_phase(pos, players, rng, played)
        if before.is_movement:
            stats = stats.observe(before, played, rng)
    return stats


def test_the_library_is_named_in_order_and_dumbbot_comes_first() -> None:
    assert [b.name for b in library()] == list(LIBRARY_NAMES)
    assert isinstance(library()[0].player, DumbBot)
    assert (1.0,) + (0.0,) * (len(LIBRARY_NAMES) - 1) == PRIOR_WEIGHTS


def test_likelihoods_are_probabilities_and_favour_the_player_that_gave_the_orders() -> None:
    pos = initial_position(M)
    rng = Random(4)
    germany = power("GER")
    own = DumbBot().movement_orders(pos, germany, rng)
    rows = order_likelihoods(pos, germany, own, rng)
    assert len(rows) == 3  # Germany's three units
    for row in rows:
        assert len(row) == len(LIBRARY_NAMES)
        assert all(0.0 < p <= 1.0 for p in row)
    assert sum(r[DUMBBOT] for r in rows) > sum(r[RANDOM] for r in rows)


@pytest.mark.parametrize(
    ("rows", "expected"),
    [
        ([], PRIOR_WEIGHTS),
        # Orders only the last player gives: its weight grows, the prior keeps DumbBot's.
        ([_only_random_gives()] * 200, None),
    ],
)
def test_the_fit_starts_from_dumbbot_and_follows_the_evidence(
    rows: list[tuple[float, ...]], expected: tuple[float, ...] | None
) -> None:
    weights = fit_mixture(rows)
    assert sum(weights) == pytest.approx(1.0)
    if expected is not None:
        assert weights == expected
    else:
        assert weights[RANDOM] > 0.9
        assert weights[DUMBBOT] >= PRIOR_UNITS / (len(rows) + PRIOR_UNITS)


def test_a_few_orders_move_the_weights_less_than_many() -> None:
    row = _only_random_gives()
    few, many = fit_mixture([row] * 4), fit_mixture([row] * 100)
    assert few[DUMBBOT] > 0.5 > many[DUMBBOT]


def test_a_games_orders_tell_dumbbot_from_a_random_player() -> None:
    players: list[Policy] = [DumbBot() for _ in range(M.num_powers)]
    players[power("ITA")] = RandomBot()
    stats = _observed_game(players, seed=11, last_year=1903)
    for p in range(M.num_powers):
        weights = stats.mixture(p)
        assert sum(weights) == pytest.approx(1.0)
        if p == power("ITA"):
            assert weights[RANDOM] > 0.3, weights
            assert weights[RANDOM] == max(weights[1:]), weights
        elif stats.powers[p].units:
            assert weights[RANDOM] < 0.2, (M.powers[p], weights)
    assert all(len(stats.powers[p].rows) == stats.powers[p].units for p in range(M.num_powers))


def test_the_memory_keeps_the_latest_orders_only(monkeypatch: pytest.MonkeyPatch) -> None:
    memory = 20
    monkeypatch.setattr("search.opponents.MEMORY", memory)
    stats = _observed_game([DumbBot() for _ in range(M.num_powers)], seed=3, last_year=1903)
    assert max(len(p.rows) for p in stats.powers) == memory
    assert max(p.units for p in stats.powers) > memory


def _legal(pos: Position, prov: int, order: tuple[int, ...]) -> bool:
    return order in movement_orders(pos, prov)


def test_the_mixture_player_is_dumbbot_for_the_prior_and_legal_for_any_weights() -> None:
    pos = initial_position(M)
    france = power("FRA")
    prior = MixturePlayer({france: PRIOR_WEIGHTS})
    assert prior.weights == {}  # DumbBot alone needs no mixing
    assert prior.movement_orders(pos, france, Random(7)) == DumbBot().movement_orders(
        pos, france, Random(7)
    )
    even = tuple(1 / len(LIBRARY_NAMES) for _ in LIBRARY_NAMES)
    mixed = MixturePlayer({france: even})
    rng = Random(8)
    seen: set[tuple[int, ...]] = set()
    for _ in range(50):
        orders = mixed.movement_orders(pos, france, rng)
        assert set(orders) == set(pos.units_of(france))
        for unit, order in orders.items():
            assert _legal(pos, unit, order), order
        seen.update(orders.values())
    dumbbot = DumbBot()
    draws = [dumbbot.movement_orders(pos, france, rng) for _ in range(50)]
    dumbbot_only = {o for d in draws for o in d.values()}
    assert seen - dumbbot_only  # orders DumbBot never gives here


def test_a_power_playing_only_random_is_played_as_randombot() -> None:
    pos = initial_position(M)
    turkey = power("TUR")
    weights = tuple(1.0 if i == RANDOM else 0.0 for i in range(len(LIBRARY_NAMES)))
    player = MixturePlayer({turkey: weights})
    assert player.movement_orders(pos, turkey, Random(9)) == RandomBot().movement_orders(
        pos, turkey, Random(9)
    )
    # Powers without weights are DumbBot.
    austria = power("AUS")
    assert player.movement_orders(pos, austria, Random(1)) == DumbBot().movement_orders(
        pos, austria, Random(1)
    )


def test_the_guard_holds_its_threatened_own_centres_and_plays_dumbbot_elsewhere() -> None:
    # Spring 1902: Germany's army in Munich has a French army next door in
    # Burgundy; Kiel and Berlin have no enemy in reach.
    # Warsaw's army reaches Silesia and Prussia, not Berlin.
    pos = position(
        "SPR 1902",
        ["GER A MUN", "GER F KIE", "GER A BER", "FRA A BUR", "RUS A WAR"],
        {"GER": ["MUN", "KIE", "BER"], "FRA": ["PAR"], "RUS": ["WAR"]},
    )
    germany = power("GER")
    assert threatened_own_centres(pos, germany) == [prov("MUN")]
    guard = GuardingDumbBot()
    moved = 0
    for seed in range(20):
        orders = guard.movement_orders(pos, germany, Random(seed))
        dumbbot = DumbBot().movement_orders(pos, germany, Random(seed))
        assert orders[prov("MUN")] == HOLD_ORDER
        moved += dumbbot.get(prov("MUN"), HOLD_ORDER) != HOLD_ORDER
        assert {u: o for u, o in orders.items() if u != prov("MUN")} == {
            u: o for u, o in dumbbot.items() if u != prov("MUN")
        }
    assert moved  # DumbBot itself would have left Munich


def test_a_player_that_guards_its_centres_is_fitted_to_the_guard() -> None:
    players: list[Policy] = [DumbBot() for _ in range(M.num_powers)]
    players[power("FRA")] = GuardingDumbBot()
    stats = _observed_game(players, seed=5, last_year=1904)
    weights = stats.mixture(power("FRA"))
    assert weights[GUARD] == max(weights[1:]), weights
    assert weights[GUARD] > 0.2, weights
