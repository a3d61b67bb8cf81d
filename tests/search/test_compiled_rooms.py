"""The compiled search's rooms: ``search._maptables``, ``search._draws``, ``search._valuation``,
``search._dumbbot``, ``search._policy``, ``search._rollout``, and ``search._fastbot`` on them
(cimported through their ``.pxd`` files).

The rooms' names as ``search._fastbot`` offers them,
the C kept in headers (not in Cython strings), and a stale room keeping the compiled
search from running.
"""

from __future__ import annotations

import importlib
import re
from random import Random
from types import ModuleType
from typing import Any

import pytest

from adjudicator import compiled_rules as switch
from adjudicator.maps import standard_map
from adjudicator.position import initial_position
from search import compiled_search
from search.generator import SearchRandom
from search.tables import DEFAULT_WEIGHTS, tables_for
from tests.sources import source_text

ROOMS = (
    "search._maptables",
    "search._draws",
    "search._valuation",
    "search._dumbbot",
    "search._policy",
    "search._rollout",
)
ADJUDICATOR_ROOMS = (
    "adjudicator._movetables",
    "adjudicator._resolver",
    "adjudicator._moveorders",
    "adjudicator.per_map",
)
"""The adjudicator's compiled modules the compiled search cimports: the resolver's rooms
(adjudicator/_*.pxd) and the per-map cache (adjudicator/per_map.pxd)."""
_EXTERN_BLOCK = re.compile(r"^cdef extern from \*:\n((?:    .*\n|\n)*)", re.MULTILINE)


def _room(name: str) -> Any:
    return importlib.import_module(name)


def _mixed_draws(seed: int) -> list[tuple[int, int]]:
    """Kinds and sizes of draws for ``search._draws._draws_of``: every kind, small and large."""
    mix = Random(seed)
    sizes = (1, 2, 3, 7, 64, 65, 255, 256, (1 << 31) + 5, (1 << 62) + 1)
    return [
        (kind, mix.choice(sizes[:8] if kind in (2, 3) else sizes))
        for kind in mix.choices(range(4), k=400)
    ]


@pytest.mark.parametrize("seed", [0, 1, 2026])
def test_the_c_draws_give_and_leave_what_the_generators_methods_do(
    compiled: None, seed: int
) -> None:
    """In C on the bit generator (a plain SearchRandom) and through the methods (any other),
    the same numbers as ``random()``, ``randrange``, ``shuffle`` and ``choice``, and the
    generator left in the same state."""
    draws = _room("search._draws")
    kinds = _mixed_draws(seed)
    mine, theirs = SearchRandom(seed), SearchRandom(seed)
    assert draws.draws_in_c(mine)
    got = draws._draws_of(mine, kinds)
    expected: list[object] = []
    for kind, n in kinds:
        if kind == 0:
            expected.append(theirs.random())
        elif kind == 1:
            expected.append(theirs.randrange(n))
        elif kind == 2:
            items = list(range(n))
            theirs.shuffle(items)
            expected.append(items)
        else:
            expected.append(theirs.choice(list(range(n))))
    assert got == expected
    assert mine.getstate() == theirs.getstate()
    plain = Random(seed)
    assert not draws.draws_in_c(plain)
    assert draws._draws_of(plain, kinds[:50]) == draws._draws_of(Random(seed), kinds[:50])


def test_the_rooms_names_are_offered_by_the_compiled_search(compiled: None) -> None:
    fastbot = compiled_search.COMPILED
    assert fastbot is not None
    assert fastbot.CMap is _room("search._maptables").CMap
    assert fastbot.CWeights is _room("search._maptables").CWeights
    assert fastbot.CValues is _room("search._valuation").CValues
    assert fastbot.values is _room("search._valuation").values
    assert fastbot.draws_in_c is _room("search._draws").draws_in_c
    assert fastbot.CPolicy is _room("search._policy").CPolicy
    assert fastbot.NodeValues is _room("search._rollout").NodeValues


def test_a_forgotten_valuation_is_made_again_the_same(compiled: None) -> None:
    fastbot = compiled_search.COMPILED
    assert fastbot is not None
    tables = tables_for(standard_map())
    cmap = compiled_search.compiled_map(tables)
    weights = fastbot.CWeights(DEFAULT_WEIGHTS)
    pos = initial_position(standard_map())
    before = [fastbot.values(cmap, weights, pos, power).node_value(0) for power in range(7)]
    fastbot.forget(cmap)
    after = [fastbot.values(cmap, weights, pos, power).node_value(0) for power in range(7)]
    assert before == after


def test_each_map_has_its_own_bounds_in_the_weights(compiled: None) -> None:
    """CWeights keeps fits, narrow and plain per map: a map made alike is asked afresh."""
    fastbot = compiled_search.COMPILED
    assert fastbot is not None
    tables = tables_for(standard_map())
    weights = fastbot.CWeights(DEFAULT_WEIGHTS)
    maps = [fastbot.CMap(standard_map(), tables) for _ in range(2)]
    answers = [(weights.fits(m), weights.narrow(m), weights.plain(m)) for m in maps]
    fresh = fastbot.CWeights(DEFAULT_WEIGHTS)
    assert answers == [(fresh.fits(m), fresh.narrow(m), fresh.plain(m)) for m in maps]


@pytest.mark.parametrize("name", [*ROOMS, "search._fastbot"])
def test_no_c_is_written_in_cython_strings(name: str) -> None:
    """C lives in the search's headers (search/db_*.h), where C tools see it: an inline
    extern block only declares the hash setup.py defines."""
    text = source_text(name)
    blocks = _EXTERN_BLOCK.findall(text)
    assert blocks, "the module declares SOURCE_SHA256"
    for block in blocks:
        assert '"""' not in block
        assert block.strip() == "const char *SOURCE_SHA256  # defined by setup.py"


def test_the_compiled_search_cimports_its_rooms() -> None:
    assert set(switch.cimported("search._fastbot")) == {*ADJUDICATOR_ROOMS, *ROOMS}
    assert switch.cimported("search._maptables") == ["adjudicator.per_map"]
    assert set(switch.cimported("search._fasttree")) == {
        "search._fastbot",
        "search._maptables",
        "search._policy",
        "search._rollout",
    }


@pytest.mark.parametrize("stale", ROOMS)
def test_a_stale_room_keeps_the_compiled_search_from_running(
    compiled: None, monkeypatch: pytest.MonkeyPatch, stale: str
) -> None:
    def current(module: ModuleType) -> bool:
        return module.__name__ != stale

    monkeypatch.setattr(switch, "is_current", current)
    with pytest.warns(switch.StaleExtensionWarning, match=re.escape(stale)):
        assert switch.load("search._fastbot") is None
    if stale in switch.cimported("search._fasttree"):
        with pytest.warns(switch.StaleExtensionWarning, match=re.escape(stale)):
            assert switch.load("search._fasttree") is None
    else:  # it runs only beside search._fastbot (search.mcts.compiled_tree asks for both)
        assert switch.load("search._fasttree") is not None
