"""Enemies played as they have been seen to play (search.mcts.learned, variant dl)."""

from __future__ import annotations

import dataclasses
import time
from random import Random

from adjudicator.position import initial_position
from search.behaviour import LIBRARY_NAMES, MixturePlayer
from search.choosers import SearchRequest
from search.dumbbot import DumbBot
from search.mcts.learned import LearnedEnemiesDomain
from search.mcts.parallel import RootParallel
from search.mcts.player import AnytimeChooser, new_search, think
from search.mcts.variants import get_variant
from search.opponents import Observed, OpponentStats
from search.policy import Policy
from search.randombot import RandomBot
from search.simulate import play_phase
from tests.search.boards import M, power

ITERATIONS = 40
RANDOM = LIBRARY_NAMES.index("random")


def _game(players: list[Policy], last_year: int, seed: int = 5) -> Observed:
    """The movement phases of a game played by ``players``, as the client's mirror keeps them."""
    rng = Random(seed)
    pos = initial_position(M)
    observed: list[tuple[object, dict[int, tuple[int, ...]]]] = []
    while pos.year <= last_year:
        played: dict[int, tuple[int, ...]] = {}
        before = pos
        pos = play_phase(pos, players, rng, played)
        if before.is_movement:
            observed.append((before.to_data(), played))
    return observed  # type: ignore[return-value]


def _stats(observed: Observed) -> OpponentStats:
    stats = OpponentStats.empty(M.num_powers)
    rng = Random(0)
    from adjudicator.position import Position

    for data, orders in observed:
        stats = stats.observe(Position.from_data(M, data), orders, rng)
    return stats


def _root_edges(variant_name: str, opponents: OpponentStats | None) -> list[tuple[object, int]]:
    variant = dataclasses.replace(get_variant(variant_name), opponents=opponents)
    tree = new_search(initial_position(M), power("FRA"), variant, 1902, Random(3))
    tree.run(iterations=ITERATIONS)
    return [(e.action, e.visits) for e in tree.root.edges]


def test_without_statistics_or_against_dumbbots_the_search_is_dms() -> None:
    assert _root_edges("dl", None) == _root_edges("dm", None)
    dumbbots = _stats(_game([DumbBot() for _ in range(M.num_powers)], 1901))
    assert all(w[0] > 0.9 for w in (dumbbots.mixture(p) for p in range(M.num_powers)))
    # Every enemy fitted to DumbBot alone: no mixing at all, the same tree as dm's.
    only_dumbbot = dataclasses.replace(
        dumbbots,
        powers=tuple(
            dataclasses.replace(p, mixture=(1.0,) + (0.0,) * (len(LIBRARY_NAMES) - 1))
            for p in dumbbots.powers
        ),
    )
    assert _root_edges("dl", only_dumbbot) == _root_edges("dm", None)


def test_an_enemy_seen_playing_at_random_is_played_at_random_in_the_tree_and_rollouts() -> None:
    players: list[Policy] = [DumbBot() for _ in range(M.num_powers)]
    players[power("GER")] = RandomBot()
    stats = _stats(_game(players, 1903))
    assert stats.mixture(power("GER"))[RANDOM] > 0.3
    variant = dataclasses.replace(get_variant("dl"), opponents=stats)
    domain = new_search(initial_position(M), power("FRA"), variant, 1902, Random(1)).domain
    assert isinstance(domain, LearnedEnemiesDomain)
    assert domain.learned is not None and power("GER") in domain.learned.weights
    policies = domain.rollout_policies(M.num_powers, Random(0))
    assert policies[power("GER")] is domain.learned
    assert policies[power("FRA")] is variant.rollout_us
    no_rollouts = LearnedEnemiesDomain(variant, power("FRA"), 1902, M.num_powers, rollouts=False)
    assert no_rollouts.rollout_policies(M.num_powers, Random(0))[power("GER")] is not domain.learned
    # The tree's enemy orders for Germany are the mixture's, not DumbBot's.
    tree = new_search(initial_position(M), power("FRA"), variant, 1902, Random(1))
    germany = set(initial_position(M).units_of(power("GER")))
    seen = set()
    for _ in range(40):
        orders = tree.domain.enemy_orders(tree.root, Random(len(seen) + 100))
        seen.add(tuple(sorted((p, o) for p, o in orders.items() if p in germany)))
    start = initial_position(M)
    dumbbot = {
        tuple(sorted(DumbBot().movement_orders(start, power("GER"), Random(s)).items()))
        for s in range(40)
    }
    assert seen - dumbbot


def test_the_chooser_learns_from_the_movement_phases_in_the_request() -> None:
    observed = _game([DumbBot() for _ in range(M.num_powers)], 1901)
    pos = initial_position(M)
    reports: list[dict[str, object]] = []
    chooser = AnytimeChooser("mcts:dl", 1, 1903)
    try:
        for context in (None, observed):
            stop_at = time.monotonic() + 0.3
            request = SearchRequest(pos, power("ENG"), stop_at, stop_at + 0.2, context)
            chooser(request, Random(0), lambda o, s, f: reports.append(s) if f else None,
                    lambda: False)  # fmt: skip
    finally:
        chooser.close()
    assert "observed_phases" not in reports[0]
    assert reports[1]["observed_phases"] == len(observed) == 2
    assert chooser.tracker.seen == 2


def test_a_variant_that_does_not_observe_ignores_the_context() -> None:
    observed = _game([DumbBot() for _ in range(M.num_powers)], 1901)
    pos = initial_position(M)
    reports: list[dict[str, object]] = []
    chooser = AnytimeChooser("mcts:dm", 1, 1903)
    stop_at = time.monotonic() + 0.2
    chooser(SearchRequest(pos, power("ENG"), stop_at, stop_at + 0.2, observed), Random(0),
            lambda o, s, f: reports.append(s) if f else None, lambda: False)  # fmt: skip
    chooser.close()
    assert "observed_phases" not in reports[-1] and chooser.tracker.seen == 0


def test_root_parallel_helpers_search_with_the_same_statistics() -> None:
    players: list[Policy] = [DumbBot() for _ in range(M.num_powers)]
    players[power("ITA")] = RandomBot()
    stats = _stats(_game(players, 1902))
    variant = dataclasses.replace(get_variant("dl"), opponents=stats)
    pos = initial_position(M)
    parallel = RootParallel(1)
    try:
        _, with_helper = think(pos, power("AUS"), variant, 1902, Random(2), iterations=30,
                               parallel=parallel)  # fmt: skip
    finally:
        parallel.close()
    assert with_helper["workers"] == 2 and with_helper["merged_iterations"] == 60
    assert with_helper["observed_phases"] == stats.phases
    assert isinstance(MixturePlayer({power("ITA"): stats.mixture(power("ITA"))}), MixturePlayer)
