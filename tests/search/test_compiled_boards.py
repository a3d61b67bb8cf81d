"""Positions kept in C between the compiled tree's calls (``search/_fastbot.pyx``'s ``Board``).

The compiled ``dm`` tree keeps each node's position as a ``Board`` and steps, rolls
out and draws its DumbBots' samples from it without a Position between.  From
varied positions (every kind of phase, dislodged units among them) a board must
give back the position, its key and its end-of-game test, and stepping, rolling out
and ordering from it must give what the same calls give from the position, drawing
the same numbers, with a learned policy as the enemies' player too (``model=NAME``).
"""

from __future__ import annotations

from typing import Any

import pytest

from adjudicator.maps import standard_map
from adjudicator.position import Position
from search import compiled_search as speedups
from search.dumbbot import DumbBot
from search.generator import SearchRandom
from search.mcts.compiled_tree import compiled_search
from search.mcts.domain import DiplomacyDomain
from search.mcts.variants import LIVELY_DUMBBOT, get_variant
from search.orderpolicy import FEATURES, LearnedPolicy
from search.tables import tables_for
from tests.search.test_randombot import positions_of, varied_positions

EVERY = 3
"""The tests take every EVERY-th of the varied positions."""


def _fastbot() -> Any:
    assert speedups.COMPILED is not None
    return speedups.COMPILED


def _cweights(pos: Position, weights: Any) -> Any:
    fast = speedups.kernel(tables_for(pos.map), weights)
    assert fast is not None
    return fast.cweights


def _cmap(pos: Position) -> Any:
    return speedups.compiled_map(tables_for(pos.map))


def _board(domain: DiplomacyDomain, pos: Position) -> Any:
    return _fastbot().board(_cmap(pos), pos, domain.us, domain.final_year, pos.map.win_centres)


def _domain(pos: Position, i: int, spec: str = "dm") -> DiplomacyDomain:
    n = pos.map.num_powers
    return DiplomacyDomain(get_variant(spec), i % n, pos.year + i % 3, n)


STEP_VARIANTS = ("dm", "dm/model=policy:enemies")
"""DumbBot's enemies in the tree, and the shipped learned policy's."""


def _enemy_policy(domain: DiplomacyDomain, pos: Position) -> Any:
    """The compiled learned policy of the domain's enemies in the tree, or None."""
    if domain.enemy_policy is None:
        return None
    policy = domain.enemy_policy.compiled(pos.map)
    assert policy is not None
    return policy


def test_a_board_gives_back_its_position_key_and_end(compiled: None) -> None:
    search = compiled_search(
        _domain(varied_positions()[0], 0), varied_positions()[0], get_variant("dm"), SearchRandom(1)
    )
    assert search is not None
    core = search.core
    seen = {"dislodged": 0, "terminal": 0, "playing": 0}
    for i, pos in enumerate(varied_positions()[::EVERY]):
        domain = _domain(pos, i)
        board = _board(domain, pos)
        assert board.position() == pos
        assert (board.season, board.year) == (pos.season, pos.year)
        assert board.terminal == domain.terminal(pos)
        for power in range(pos.map.num_powers):
            assert board.units_of(power) == pos.units_of(power)
        if pos.dislodged:
            assert board.key() is None
            seen["dislodged"] += 1
        else:
            assert board.key() == core.key(pos)
        seen["terminal" if board.terminal else "playing"] += 1
    assert min(seen.values()) > 3, seen


@pytest.mark.parametrize("spec", STEP_VARIANTS)
def test_stepping_from_a_board_is_stepping_from_its_position(compiled: None, spec: str) -> None:
    fastbot = _fastbot()
    stepped = changed = 0
    for i, pos in enumerate(positions_of("movement")[::EVERY]):
        domain = _domain(pos, i, spec)
        assert domain.enemy_bot is not None and domain.our_phases is not None
        enemies = _cweights(pos, domain.enemy_bot.weights)
        ours = _cweights(pos, domain.our_phases)
        policy = _enemy_policy(domain, pos)
        board = _board(domain, pos)
        for k, player in enumerate((DumbBot(), LIVELY_DUMBBOT)):
            action = tuple(player.movement_orders(pos, domain.us, SearchRandom(k)).items())
            given = (domain.us, domain.final_year, pos.map.win_centres)
            fast_rng, slow_rng = SearchRandom(k), SearchRandom(k)
            nxt = fastbot.step_board(
                _cmap(pos), enemies, ours, board, action, fast_rng, *given, policy=policy
            )
            expected = fastbot.step(
                _cmap(pos), enemies, ours, pos, action, slow_rng, *given, policy=policy
            )
            assert nxt.position() == expected, (i, k)
            assert nxt.terminal == domain.terminal(expected)
            assert fast_rng.getstate() == slow_rng.getstate()
            dumbbots = fastbot.step(_cmap(pos), enemies, ours, pos, action, SearchRandom(k), *given)
            changed += dumbbots != expected
            stepped += 1
    assert stepped > 20
    # the policy's enemies play otherwise than DumbBot's (and DumbBot's as themselves)
    assert changed > stepped // 2 if spec != "dm" else changed == 0


def test_rolling_out_and_ordering_from_a_board_is_doing_it_from_its_position(
    compiled: None,
) -> None:
    fastbot = _fastbot()
    rolled = 0
    for i, pos in enumerate(varied_positions()[::EVERY]):
        domain = _domain(pos, i)
        board = _board(domain, pos)
        rollout = _cweights(pos, DumbBot().weights)
        given = (domain.us, domain.final_year, domain.final_year, pos.map.win_centres, 6, 2)
        fast_rng, slow_rng = SearchRandom(i), SearchRandom(i)
        reward = fastbot.play_out_reward_board(_cmap(pos), rollout, board, fast_rng, *given)
        assert reward == fastbot.play_out_reward(_cmap(pos), rollout, pos, slow_rng, *given)
        assert fast_rng.getstate() == slow_rng.getstate()
        if pos.is_movement:
            lively = _cweights(pos, LIVELY_DUMBBOT.weights)
            orders = fastbot.movement_orders_board(_cmap(pos), lively, board, domain.us, fast_rng)
            expected = fastbot.movement_orders(_cmap(pos), lively, pos, domain.us, slow_rng)
            assert orders == expected
            assert fast_rng.getstate() == slow_rng.getstate()
        rolled += 1
    assert rolled > 20


def test_a_learned_policys_orders_from_a_board_are_its_orders_from_the_position(
    compiled: None,
) -> None:
    """learned_orders_board (our learned candidates in the compiled tree) against learned_orders."""
    fastbot = _fastbot()
    player = get_variant("dm/model=policy:enemies").enemies.player
    assert isinstance(player, LearnedPolicy)
    drawn = 0
    for i, pos in enumerate(positions_of("movement")[::EVERY]):
        domain = _domain(pos, i)
        board = _board(domain, pos)
        policy = player.compiled(pos.map)
        assert policy is not None
        for power in range(pos.map.num_powers):
            fast_rng, slow_rng = SearchRandom(i + power), SearchRandom(i + power)
            orders = fastbot.learned_orders_board(_cmap(pos), policy, board, power, fast_rng)
            assert orders == fastbot.learned_orders(_cmap(pos), policy, pos, power, slow_rng)
            assert fast_rng.getstate() == slow_rng.getstate()
            drawn += bool(orders)
    assert drawn > 50


def test_a_board_of_another_map_is_a_value_error(compiled: None) -> None:
    pos = varied_positions()[0]
    domain = _domain(pos, 0)
    board = _board(domain, pos)
    other = speedups.COMPILED.CMap(standard_map.__wrapped__(), tables_for(pos.map))  # type: ignore[union-attr]
    weights = _cweights(pos, DumbBot().weights)
    with pytest.raises(ValueError, match="another map"):
        _fastbot().movement_orders_board(other, weights, board, 0, SearchRandom(1))
    with pytest.raises(ValueError, match="another map"):
        _fastbot().play_out_reward_board(
            other, weights, board, SearchRandom(1), 0, 1905, 1905, 18, 6, 1
        )


def test_a_policy_of_another_map_is_a_value_error_from_a_board(compiled: None) -> None:
    pos = positions_of("movement")[0]
    domain = _domain(pos, 0)
    board = _board(domain, pos)
    weights = _cweights(pos, DumbBot().weights)
    other_tables = tables_for(standard_map.__wrapped__())
    other = speedups.learned_policy(other_tables, tuple(0.0 for _ in FEATURES), DumbBot().weights)
    assert other is not None
    cmap = _cmap(pos)
    given = (domain.us, domain.final_year, pos.map.win_centres)
    with pytest.raises(ValueError, match="another map"):
        _fastbot().step_board(
            cmap, weights, weights, board, (), SearchRandom(1), *given, policy=other
        )
    with pytest.raises(ValueError, match="another map"):
        _fastbot().learned_orders_board(cmap, other, board, 0, SearchRandom(1))
