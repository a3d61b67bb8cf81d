"""Players by spec: the heuristic bots, MCTS through search.mcts, typed errors."""

from __future__ import annotations

import sys
import types

import pytest

from search import registry
from search.dumbbot import DumbBot
from search.randombot import RandomBot
from search.registry import (
    PolicySpecError,
    PolicyUnavailableError,
    UnknownPolicyError,
    make_policy,
    parse_spec,
)


def test_heuristic_specs() -> None:
    assert isinstance(make_policy("dumbbot"), DumbBot)
    assert isinstance(make_policy(" DumbBot "), DumbBot)
    assert isinstance(make_policy("random", budget=1, seed=3, workers=2), RandomBot)


@pytest.mark.parametrize(
    ("spec", "parsed"),
    [("mcts", ("mcts", None)), ("mcts:v8", ("mcts", "v8")), ("MCTS:V3", ("mcts", "v3"))],
)
def test_mcts_specs_parse(spec: str, parsed: tuple[str, str | None]) -> None:
    assert parse_spec(spec) == parsed


@pytest.mark.parametrize("spec", ["", "dumb", "dumbbot:x", "mcts:", "random:2", "d-brane"])
def test_unknown_specs_raise_a_value_error_listing_the_valid_ones(spec: str) -> None:
    with pytest.raises(UnknownPolicyError) as info:
        make_policy(spec)
    assert isinstance(info.value, ValueError)
    assert isinstance(info.value, PolicySpecError)
    if spec != "mcts:":
        assert "dumbbot" in str(info.value) and "mcts" in str(info.value)


def test_mcts_is_built_lazily_by_search_mcts(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []
    fake = types.ModuleType("search.mcts")

    def factory(variant: str, budget: float, seed: int, workers: int) -> object:
        if variant == "v99":
            raise ValueError("no such variant")
        calls.append((variant, budget, seed, workers))
        return DumbBot()

    fake.make_policy = factory  # type: ignore[attr-defined]
    fake.DEFAULT_VARIANT = "v8"  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "search.mcts", fake)
    make_policy("mcts:v5", budget=2.5, seed=7, workers=3)
    make_policy("mcts")
    assert calls == [("v5", 2.5, 7, 3), ("v8", 5.0, 0, 1)]
    with pytest.raises(UnknownPolicyError, match="v99"):
        make_policy("mcts:v99")


def test_missing_mcts_module_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(registry, "MCTS_MODULE", "search.no_such_module_here")
    with pytest.raises(PolicyUnavailableError, match="not written yet"):
        make_policy("mcts:v8")


def test_mcts_module_without_factory_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "search.mcts", types.ModuleType("search.mcts"))
    with pytest.raises(PolicyUnavailableError, match="make_policy"):
        make_policy("mcts")
