"""Players by spec: the heuristic bots, MCTS through search.mcts, typed errors."""

from __future__ import annotations

import pytest

from search.dumbbot import DumbBot
from search.mcts import DEFAULT_VARIANT
from search.randombot import RandomBot
from search.registry import (
    PolicySpecError,
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


def test_mcts_specs_build_the_variant_they_name() -> None:
    player = make_policy("mcts:v5", budget=2.5, seed=7, workers=1, final_year=1903)
    assert player.name == "mcts:v5"
    assert (player.budget, player.final_year) == (2.5, 1903)
    assert make_policy("mcts").name == f"mcts:{DEFAULT_VARIANT}"
    with pytest.raises(UnknownPolicyError, match="v99"):
        make_policy("mcts:v99")
