"""The field book (search.openings): what it records, how it plays, and what it refuses."""

from __future__ import annotations

import json
from collections import Counter
from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.orders import (
    CONVOY,
    CONVOY_MOVE,
    HOLD,
    HOLD_ORDER,
    MOVE,
    SUPPORT_HOLD,
    SUPPORT_MOVE,
    EngineOrder,
)
from adjudicator.position import Position, initial_position
from search.dumbbot import DumbBot
from search.openings import (
    BOOK_YEARS,
    BookError,
    BookPlayer,
    FieldBook,
    OrderSet,
    describe,
    is_opening,
    placement,
    playable,
)
from tests.search.boards import M, dumbbot_game, loc, position, power, prov


def power_orders(pos: Position, orders: dict[int, EngineOrder], who: int) -> OrderSet:
    return tuple((p, orders.get(p, HOLD_ORDER)) for p, _, _ in placement(pos, who))


# --- what a game adds ---------------------------------------------------------------------


def test_the_start_is_an_opening_and_later_phases_are_not() -> None:
    game = dumbbot_game(1, 2)
    assert is_opening(game[0][0])
    assert not any(is_opening(pos) for pos, _ in game[1:])


def test_a_game_adds_the_first_year_of_every_power_but_ours() -> None:
    game = dumbbot_game(2, 2)
    ours = power("FRA")
    book = FieldBook.empty(M.name).with_game(game, {ours})
    assert book.games == 1
    first = [(pos, orders) for pos, orders in game if pos.year < 1901 + BOOK_YEARS]
    assert len(first) == 2  # spring and fall
    for pos, orders in first:
        for who in range(M.num_powers):
            key = (pos.season, pos.year, who, placement(pos, who))
            if who == ours:
                assert book.choices(key) == {}
            else:
                assert book.choices(key) == {power_orders(pos, orders, who): 1}
    assert len(book) == 2 * (M.num_powers - 1)
    assert {key[1] for key in book.entries} == {1901}


def test_a_game_not_seen_from_its_start_adds_nothing() -> None:
    game = dumbbot_game(3, 2)
    book = FieldBook.empty(M.name)
    assert book.with_game(game[1:], ()) is book
    assert book.with_game([], ()) is book


def test_books_add_up_and_only_on_one_map() -> None:
    one = FieldBook.empty(M.name).with_game(dumbbot_game(4, 1), ())
    two = one.merged(one)
    assert two.games == 2
    assert all(
        count == 2 * one.entries[key][orders]
        for key, seen in two.entries.items()
        for orders, count in seen.items()
    )
    with pytest.raises(BookError, match="map"):
        one.merged(FieldBook.empty("other"))


def test_the_book_survives_json() -> None:
    book = FieldBook.empty(M.name)
    for seed in range(5):
        book = book.with_game(dumbbot_game(seed, 1), {seed % M.num_powers})
    data = json.loads(json.dumps(book.to_data(M)))
    assert FieldBook.from_data(data, M) == book


# --- data that is not a book --------------------------------------------------------------


def _good() -> dict:
    return FieldBook.empty(M.name).with_game(dumbbot_game(5, 1), ()).to_data(M)


def _entry(data: dict) -> dict:
    return data["entries"][0]


BAD_BOOKS = [
    ("not an object", lambda d: [d], "object"),
    ("unknown format", lambda d: {**d, "format": 99}, "format"),
    ("another map", lambda d: {**d, "map": "modern"}, "map"),
    ("no game count", lambda d: {**d, "games": -1}, "game count"),
    ("a true game count", lambda d: {**d, "games": True}, "game count"),
    ("entries not a list", lambda d: {**d, "entries": {}}, "entries"),
    ("an entry not an object", lambda d: {**d, "entries": [7]}, "entry 0"),
    ("a retreat season", lambda d: _set(d, "season", 1), "movement phase"),
    ("an unknown power", lambda d: _set(d, "power", "XYZ"), "power"),
    ("a province off the map", lambda d: _set(d, "units", [[999, 0, 0]]), "province"),
    ("a unit type off the map", lambda d: _set(d, "units", [[0, 5, 0]]), "unit type"),
    ("a count of zero", lambda d: _order_set(d, "count", 0), "count"),
    ("a count that is text", lambda d: _order_set(d, "count", "3"), "count"),
    ("an order set for other units", lambda d: _order_set(d, "set", [[0, [HOLD]]]), "each"),
    ("an order of text", lambda d: _order_set(d, "set", [[0, ["H"]]]), "engine order"),
    ("an empty order", lambda d: _order_set(d, "set", [[0, []]]), "engine order"),
    ("a missing key", lambda d: _drop(d, "units"), "entry 0"),
    ("an order nested deep", lambda d: _order_set(d, "set", [[0, _deep(100_000)]]), "order"),
]


def _set(data: dict, key: str, value: object) -> dict:
    _entry(data)[key] = value
    return data


def _order_set(data: dict, key: str, value: object) -> dict:
    _entry(data)["orders"][0][key] = value
    return data


def _deep(depth: int) -> list:
    value: list = []
    for _ in range(depth):
        value = [value]
    return value


def _drop(data: dict, key: str) -> dict:
    del _entry(data)[key]
    return data


@pytest.mark.parametrize(("case", "spoil", "says"), BAD_BOOKS, ids=[c[0] for c in BAD_BOOKS])
def test_data_that_is_not_a_book_is_refused_saying_why(case: str, spoil, says: str) -> None:
    with pytest.raises(BookError, match=says):
        FieldBook.from_data(spoil(_good()), M)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=40,
)


@settings(max_examples=300, deadline=None)
@given(json_values)
def test_any_json_is_a_book_or_a_book_error(value: object) -> None:
    try:
        book = FieldBook.from_data(value, M)
    except BookError:
        return
    assert book.map_name == M.name


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_spoiling_one_field_of_a_real_book_is_a_book_or_a_book_error(data: st.DataObject) -> None:
    book = _good()
    entry = data.draw(st.sampled_from(book["entries"]))
    key = data.draw(st.sampled_from(sorted(entry)))
    entry[key] = data.draw(json_values)
    try:
        read = FieldBook.from_data(book, M)
    except BookError:
        return
    assert read.games == book["games"]


# --- which orders can be played -----------------------------------------------------------

BOARD = position(
    "FAL 1901",
    ["ENG F ECH", "ENG A WAL", "FRA F BRE", "FRA A PIC", "GER A BUR", "ENG F NTH", "ENG A YOR"],
    {},
)

PLAYABLE = [
    ("hold", "ENG", [("ECH", (HOLD,))], True),
    ("move to a neighbour", "ENG", [("ECH", (MOVE, loc("BRE")))], True),
    ("move out of reach", "ENG", [("ECH", (MOVE, loc("MAR")))], False),
    ("someone else's unit", "ENG", [("BRE", (HOLD,))], False),
    ("no unit there", "ENG", [("LON", (HOLD,))], False),
    ("support a present unit", "ENG", [("NTH", (SUPPORT_HOLD, prov("ECH")))], True),
    ("support an absent unit", "ENG", [("NTH", (SUPPORT_HOLD, prov("HOL")))], False),
    ("support itself", "ENG", [("ECH", (SUPPORT_HOLD, prov("ECH")))], False),
    ("support a move", "ENG", [("NTH", (SUPPORT_MOVE, prov("ECH"), prov("BEL")))], True),
    ("support an absent mover", "ENG", [("NTH", (SUPPORT_MOVE, prov("LON"), prov("BEL")))], False),
    (
        "support a move out of reach",
        "ENG",
        [("NTH", (SUPPORT_MOVE, prov("ECH"), prov("PIC")))],
        False,
    ),
    ("support a foreign unit", "FRA", [("BRE", (SUPPORT_MOVE, prov("BUR"), prov("PIC")))], True),
    ("convoy a present army", "ENG", [("ECH", (CONVOY, prov("WAL"), prov("BEL")))], True),
    ("convoy a fleet", "ENG", [("ECH", (CONVOY, prov("NTH"), prov("BEL")))], False),
    ("an army convoying", "ENG", [("WAL", (CONVOY, prov("YOR"), prov("BEL")))], False),
    ("an army by convoy", "ENG", [("WAL", (CONVOY_MOVE, prov("BEL"), (prov("ECH"),)))], True),
    ("a fleet by convoy", "ENG", [("ECH", (CONVOY_MOVE, prov("BEL"), ()))], False),
    ("an unknown kind", "ENG", [("ECH", (42,))], False),
    ("a hold with a target", "ENG", [("ECH", (HOLD, 3))], False),
]


@pytest.mark.parametrize(("case", "who", "orders", "ok"), PLAYABLE, ids=[c[0] for c in PLAYABLE])
def test_only_orders_the_engine_can_take_are_playable(
    case: str, who: str, orders: list, ok: bool
) -> None:
    chosen = tuple((prov(where), order) for where, order in orders)
    assert playable(BOARD, power(who), chosen) is ok


# --- playing from the book ----------------------------------------------------------------


def _book_of(pos: Position, who: int, orders: OrderSet, count: int) -> FieldBook:
    key = (pos.season, pos.year, who, placement(pos, who))
    return FieldBook(M.name, {key: {orders: count}}, count)


def test_a_known_key_is_played_from_the_book_as_often_as_it_was_seen() -> None:
    start = initial_position(M)
    england = power("ENG")
    seen = ((prov("EDI"), HOLD_ORDER), (prov("LON"), HOLD_ORDER), (prov("LVP"), HOLD_ORDER))
    player = BookPlayer(DumbBot(), _book_of(start, england, seen, 9), prior=1.0)
    rng = Random(7)
    draws = Counter(
        tuple(sorted(player.movement_orders(start, england, rng).items())) == seen
        for _ in range(2000)
    )
    assert 0.87 < draws[True] / 2000 < 0.93  # 9 / (9 + 1)


@pytest.mark.parametrize("where", ["another power", "a later year", "an unplayable set"])
def test_where_the_book_cannot_serve_the_base_player_plays(where: str) -> None:
    start = initial_position(M)
    england = power("ENG")
    holds = tuple((prov(p), HOLD_ORDER) for p in ("EDI", "LON", "LVP"))
    orders: OrderSet = holds
    asked, pos = england, start
    if where == "another power":
        asked = power("FRA")
    elif where == "a later year":
        pos = start.copy()
        pos.year = 1902
    else:  # Edinburgh supports a fleet that is not in the North Sea
        orders = ((prov("EDI"), (SUPPORT_HOLD, prov("NTH"))), *holds[1:])
    player = BookPlayer(DumbBot(), _book_of(start, england, orders, 10**6), prior=0.0)
    for seed in range(10):
        expected = Random(seed)
        if where == "an unplayable set":  # the book drew first, then gave way
            expected.random()
            expected.choices([orders], [1])
        got = player.movement_orders(pos, asked, Random(seed))
        assert got == DumbBot().movement_orders(pos, asked, expected)
        assert tuple(sorted(got.items())) != orders


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_whatever_a_book_holds_the_player_plays_only_playable_orders(data: st.DataObject) -> None:
    game = dumbbot_game(data.draw(st.integers(0, 3)), 1)
    pos, _ = game[data.draw(st.integers(0, len(game) - 1))]
    who = data.draw(st.sampled_from(sorted({u[0] for u in pos.units.values()})))
    provinces = [p for p, _, _ in placement(pos, who)]
    order = st.tuples(st.integers(0, 6), st.integers(0, M.num_provinces - 1)).map(
        lambda t: (t[0],) if t[0] == HOLD else (t[0], t[1])
    ) | st.tuples(st.just(SUPPORT_MOVE), st.integers(0, 80), st.integers(0, 80))
    chosen = tuple((p, data.draw(order)) for p in provinces)
    player = BookPlayer(DumbBot(), _book_of(pos, who, chosen, 5), prior=0.0)
    got = tuple(sorted(player.movement_orders(pos, who, Random(0)).items()))
    assert got != chosen or playable(pos, who, chosen)


DESCRIBED = [
    ([("LON", (MOVE, loc("ECH")))], "LON-ECH"),
    ([("MAO", (MOVE, loc("SPA/NCS")))], "MAO-SPA/NCS"),
    ([("LVP", (HOLD,))], "LVP H"),
    ([("NTH", (SUPPORT_HOLD, prov("ECH")))], "NTH S ECH"),
    ([("NTH", (SUPPORT_MOVE, prov("ECH"), prov("BEL")))], "NTH S ECH-BEL"),
    ([("ECH", (CONVOY, prov("WAL"), prov("BEL")))], "ECH C WAL-BEL"),
    ([("WAL", (CONVOY_MOVE, prov("BEL"), (prov("ECH"),)))], "WAL-BEL via ECH"),
    ([("WAL", (CONVOY_MOVE, prov("BEL"), ()))], "WAL-BEL via any route"),
    ([("EDI", (MOVE, loc("NTH"))), ("LON", (HOLD,))], "EDI-NTH, LON H"),
]


@pytest.mark.parametrize(("orders", "text"), DESCRIBED, ids=[c[1] for c in DESCRIBED])
def test_order_sets_are_described_by_province(orders: list, text: str) -> None:
    assert describe(M, tuple((prov(p), o) for p, o in orders)) == text
