"""The seat's API: a refused request's reason, in one line of bounded length."""

from __future__ import annotations

import pytest
from pydantic import BaseModel, ConfigDict, ValidationError

from bot.human.api import MAX_REASON, reason


class Strict(BaseModel):
    """A request of one integer field, taking no other."""

    model_config = ConfigDict(extra="forbid", strict=True)
    count: int


def why(raw: str) -> str:
    with pytest.raises(ValidationError) as caught:
        Strict.model_validate_json(raw)
    return reason(caught.value)


def test_a_short_reason_is_given_whole() -> None:
    assert why('{"count": "3"}') == "count: Input should be a valid integer"
    assert why("{}") == "count: missing"
    assert why('{"count": 1, "x": 2}') == "x: this request takes no such field"
    assert why("[1]").startswith("the request: Input should be")


def test_a_long_reason_is_cut_to_the_limit_with_an_ellipsis() -> None:
    field = "f" * (2 * MAX_REASON)
    line = why(f'{{"count": 1, "{field}": 2}}')
    assert len(line) == MAX_REASON
    assert line == (field + ": this request takes no such field")[: MAX_REASON - 3] + "..."


def test_a_reason_of_exactly_the_limit_is_not_cut() -> None:
    suffix = ": this request takes no such field"
    field = "f" * (MAX_REASON - len(suffix))
    assert why(f'{{"count": 1, "{field}": 2}}') == field + suffix
