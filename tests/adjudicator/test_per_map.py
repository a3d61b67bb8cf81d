"""The one per-map cache (``adjudicator/per_map.py``): as imported (the build, where there
is one) and as its source runs in Python, the same cache.

Keys told by identity and held, every key dropped at the limit, the last key answered
without a look-up (seen in the source, whose ``find`` a subclass can count).
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from adjudicator import per_map

SMALL_LIMIT = 3


def _source() -> ModuleType:
    """``adjudicator/per_map.py`` run as Python, beside the module imported (built or not)."""
    assert per_map.__file__ is not None
    path = Path(per_map.__file__).with_name("per_map.py")
    spec = importlib.util.spec_from_file_location("per_map_as_python", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


SOURCE = _source()


@pytest.fixture(params=["imported", "source"])
def per_map_type(request: pytest.FixtureRequest) -> Any:
    """The cache class as imported, then as the source runs in Python."""
    return per_map.PerMap if request.param == "imported" else SOURCE.PerMap


class Key:
    """A key equal to every other (the cache must tell keys by identity, not equality)."""

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Key)

    def __hash__(self) -> int:
        return 0


def test_the_source_runs_as_python_without_a_hash() -> None:
    assert SOURCE.SOURCE_HASH is None
    assert SOURCE.MAPS_KEPT == per_map.MAPS_KEPT


def test_keys_are_told_by_identity(per_map_type: Any) -> None:
    cache = per_map_type()
    first, second = Key(), Key()
    assert cache.get(first) is None
    assert cache.put(first, "a") == "a"
    assert cache.get(first) == "a"
    assert cache.get(second) is None
    cache.put(second, "b")
    assert (cache.get(first), cache.get(second), len(cache)) == ("a", "b", 2)


def test_the_keys_are_held_and_all_dropped_when_full(per_map_type: Any) -> None:
    cache = per_map_type(SMALL_LIMIT)
    for i in range(SMALL_LIMIT):
        cache.put(Key(), i)  # no other reference: the cache holds the key, its id stays its own
    assert len(cache) == SMALL_LIMIT
    kept = Key()
    cache.put(kept, "new")
    assert len(cache) == 1
    assert cache.get(kept) == "new"
    cache.put(kept, "again")  # a key kept already is replaced, nothing dropped
    assert (len(cache), cache.get(kept)) == (1, "again")


def test_the_default_limit_is_the_maps_kept(per_map_type: Any) -> None:
    cache = per_map_type()
    keys = [Key() for _ in range(per_map.MAPS_KEPT)]
    for key in keys:
        cache.put(key, key)
    assert len(cache) == per_map.MAPS_KEPT
    assert all(cache.get(key) is key for key in keys)
    cache.put(Key(), None)
    assert len(cache) == 1
    assert cache.get(keys[0]) is None


def test_the_last_key_is_answered_without_a_look_up() -> None:
    class Counted(SOURCE.PerMap):  # type: ignore[name-defined]
        """Counts the look-ups."""

        def __init__(self) -> None:
            super().__init__()
            self.looked = 0

        def find(self, key: object) -> object:
            self.looked += 1
            return super().find(key)

    cache = Counted()
    first, second = Key(), Key()
    cache.put(first, 1)
    cache.put(second, 2)
    assert (cache.get(second), cache.looked) == (2, 0)  # kept last
    assert (cache.get(first), cache.looked) == (1, 1)
    assert (cache.get(first), cache.looked) == (1, 1)  # found last
    assert (cache.get(Key()), cache.looked) == (None, 2)  # not kept: the last stays
    assert (cache.get(first), cache.looked) == (1, 2)
