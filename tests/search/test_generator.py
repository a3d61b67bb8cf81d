"""The search's generator: ``random.Random``'s interface on NumPy's PCG64, by its own rules."""

from __future__ import annotations

import copy
import pickle
import random

import numpy as np
import pytest

from search.generator import STATE_VERSION, WORD_BITS, SearchRandom, seed_entropy

DRAWS = 200


def test_a_seed_gives_the_same_numbers_pinned_on_every_python() -> None:
    """The stream is NumPy's PCG64 (stable by NumPy's policy) through this module's rules:
    these numbers are the same on every Python the project supports."""
    rng = SearchRandom(2026)
    assert rng.random() == 0.17893481367543618
    assert rng.getrandbits(7) == 81
    assert rng.randrange(1000) == 478
    items = list(range(8))
    rng.shuffle(items)
    assert items == [0, 4, 7, 3, 6, 1, 2, 5]


def test_the_draws_are_the_bit_generators_words_by_the_modules_rules() -> None:
    words = np.random.PCG64(7)
    rng = SearchRandom(7)
    for k in (1, 5, 32, 63, 64):
        assert rng.getrandbits(k) == int(words.random_raw()) >> (WORD_BITS - k)
    assert rng.random() == (int(words.random_raw()) >> 11) * 2.0**-53
    high, low = int(words.random_raw()), int(words.random_raw())
    assert rng.getrandbits(100) == ((high << 64) | low) >> 28
    assert rng.getrandbits(0) == 0
    assert rng.getstate()[1] == words.state


def test_draws_stay_in_their_ranges() -> None:
    rng = SearchRandom(3)
    for n in (1, 2, 3, 7, 64, 65, 1000, (1 << 40) + 3):
        assert all(0 <= rng.randrange(n) < n for _ in range(DRAWS))
    assert all(0.0 <= rng.random() < 1.0 for _ in range(DRAWS))
    assert all(0 <= rng.getrandbits(70) < 1 << 70 for _ in range(DRAWS))
    items = list(range(30))
    rng.shuffle(items)
    assert sorted(items) == list(range(30)) and items != list(range(30))
    assert rng.choice("abc") in "abc"
    assert len(set(rng.sample(range(100), 10))) == 10


def test_seeds_are_taken_as_random_random_takes_them() -> None:
    assert SearchRandom(5).random() == SearchRandom(-5).random()
    assert SearchRandom("x").random() == SearchRandom(b"x").random()
    assert SearchRandom(b"x").random() == SearchRandom(bytearray(b"x")).random()
    assert SearchRandom(5).random() != SearchRandom(6).random()
    assert seed_entropy(None) is None
    assert isinstance(SearchRandom().random(), float)
    with pytest.raises(TypeError, match="seeded with"):
        SearchRandom(1.5)


def test_its_state_carries_over_to_copies_pickles_and_setstate() -> None:
    rng = SearchRandom(11)
    rng.random()
    rng.gauss(0.0, 1.0)
    state = rng.getstate()
    assert state[0] == STATE_VERSION
    twins = [copy.deepcopy(rng), pickle.loads(pickle.dumps(rng)), SearchRandom(0)]
    twins[2].setstate(state)
    expected = [rng.gauss(0.0, 1.0), rng.random(), rng.getrandbits(33)]
    for twin in twins:
        assert [twin.gauss(0.0, 1.0), twin.random(), twin.getrandbits(33)] == expected
    bits = rng._bits
    rng.seed(11)
    assert rng.getstate() == SearchRandom(11).getstate()
    assert rng._bits is bits  # the object C reads stays the same


def test_a_state_of_another_generator_is_refused() -> None:
    with pytest.raises(ValueError, match="not a SearchRandom state"):
        SearchRandom(1).setstate(random.Random(1).getstate())


def test_choosing_from_nothing_is_an_index_error() -> None:
    with pytest.raises(IndexError):
        SearchRandom(1).choice([])
    with pytest.raises(ValueError):
        SearchRandom(1).getrandbits(-1)
