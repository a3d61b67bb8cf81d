"""Enemies that open as the field did (search.mcts.fieldbook, variant db)."""

from __future__ import annotations

import dataclasses
import time
from random import Random

import pytest

from adjudicator.orders import HOLD_ORDER
from adjudicator.position import initial_position
from search.arena import play_game
from search.choosers import SearchRequest
from search.dumbbot import DumbBot
from search.mcts.fieldbook import FieldBookDomain
from search.mcts.parallel import RootParallel
from search.mcts.player import AnytimeChooser, MctsPlayer, new_search, think
from search.mcts.variants import get_variant
from search.openings import BookPlayer, FieldBook, OrderSet, placement
from search.registry import uses_openings
from tests.search.boards import M, power, prov

ITERATIONS = 40
START = initial_position(M)
ENGLAND_HOLDS: OrderSet = tuple((prov(p), HOLD_ORDER) for p in ("EDI", "LON", "LVP"))


def _england_book(orders: OrderSet = ENGLAND_HOLDS, count: int = 10**6) -> FieldBook:
    key = (START.season, START.year, power("ENG"), placement(START, power("ENG")))
    return FieldBook(M.name, {key: {orders: count}}, 1)


@pytest.mark.parametrize("book", [None, FieldBook.empty(M.name)], ids=["no book", "empty book"])
def test_without_a_book_db_searches_as_dm(book: FieldBook | None) -> None:
    db = dataclasses.replace(get_variant("db"), book=book)
    ours, _ = think(START, power("FRA"), db, 1903, Random(4), iterations=ITERATIONS)
    theirs, _ = think(
        START, power("FRA"), get_variant("dm"), 1903, Random(4), iterations=ITERATIONS
    )
    assert ours == theirs


def test_with_a_book_the_enemies_open_from_it_in_the_tree_and_the_rollouts() -> None:
    db = dataclasses.replace(get_variant("db"), book=_england_book())
    search = new_search(START, power("FRA"), db, 1903, Random(1))
    domain = search.domain
    assert isinstance(domain, FieldBookDomain)
    model = domain.enemy_model()
    assert isinstance(model.player, BookPlayer) and not model.fixed
    rng = Random(2)
    for _ in range(20):  # a million games against one prior: the book nearly always
        orders = model.orders(START, power("FRA"), rng)
        assert all(orders[p] == o for p, o in ENGLAND_HOLDS)
    rollouts = domain.rollout_policies(M.num_powers, rng)
    assert all(isinstance(p, BookPlayer) for i, p in enumerate(rollouts) if i != power("FRA"))
    assert isinstance(rollouts[power("FRA")], DumbBot)


def test_the_chooser_searches_with_the_requests_book_of_the_same_map_only() -> None:
    chooser = AnytimeChooser("mcts:db", 1, 1903)
    finals: list[dict[str, object]] = []

    def ask(book: FieldBook | None) -> dict[str, object]:
        stop_at = time.monotonic() + 0.2
        request = SearchRequest(START, power("FRA"), stop_at, stop_at + 0.2, (), book)
        chooser(request, Random(0), lambda o, s, f: finals.append(s) if f else None,
                lambda: False)  # fmt: skip
        return finals[-1]

    try:
        assert ask(_england_book())["book_games"] == 1
        assert "book_games" not in ask(None)
        assert "book_games" not in ask(FieldBook("another map"))
    finally:
        chooser.close()


def test_root_parallel_helpers_search_with_the_book() -> None:
    db = dataclasses.replace(get_variant("db"), book=_england_book())
    parallel = RootParallel(1)
    try:
        _, stats = think(START, power("AUS"), db, 1902, Random(2), iterations=30,
                         parallel=parallel)  # fmt: skip
    finally:
        parallel.close()
    assert stats["workers"] == 2 and stats["merged_iterations"] == 60
    assert stats["book_games"] == 1


def test_an_in_process_player_keeps_a_book_across_games_without_its_own_orders() -> None:
    player = MctsPlayer(get_variant("db"), budget=None, iterations=5)
    seats = [player, *(DumbBot() for _ in range(M.num_powers - 1))]
    powers = list(range(M.num_powers))
    play_game(seats, powers, 1901, Random(0))
    assert player.book is None  # learnt when the next game starts
    play_game(seats, powers, 1901, Random(1))
    book = player.book
    assert book is not None and book.games == 1
    assert {key[2] for key in book.entries} == set(powers) - {powers[0]}
    assert player.last_stats["book_games"] == 1


def test_a_variant_that_keeps_no_book_learns_none() -> None:
    player = MctsPlayer(get_variant("dm"), budget=None, iterations=5)
    seats = [player, *(DumbBot() for _ in range(M.num_powers - 1))]
    for seed in range(2):
        play_game(seats, list(range(M.num_powers)), 1901, Random(seed))
    assert player.book is None


@pytest.mark.parametrize(
    ("spec", "uses"),
    [("mcts:db", True), ("MCTS:DB", True), ("mcts:db/cp=0.5", True), ("mcts", False),
     ("mcts:dm", False), ("mcts:dl", False), ("dumbbot", False), ("random", False),
     ("mcts:nosuch", False), ("bandana:dbrane", False), ("", False)],
)  # fmt: skip
def test_which_players_use_a_field_book(spec: str, uses: bool) -> None:
    assert uses_openings(spec) is uses


def test_a_variant_holding_a_book_stays_a_hashable_value() -> None:
    one = dataclasses.replace(get_variant("db"), book=_england_book())
    again = dataclasses.replace(get_variant("db"), book=_england_book())
    assert one == again and hash(one) == hash(again)
    assert one != dataclasses.replace(get_variant("db"), book=_england_book(count=3))
