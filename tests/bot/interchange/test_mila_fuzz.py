"""A MILA saved game with any one part replaced by anything: read, or refused with ExchangeError.

Whatever a hand or another tool put in the file, :func:`game_values` gives our
values or one typed error; never a KeyError, an IndexError or a TypeError.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.interchange.exchange_errors import ExchangeError
from bot.interchange.mila_games import game_values
from bot.toolkit.jsonfiles import write_json_object
from bot.view.sources import load_run
from tests.bot.view.scripted_game import write_run_folder

JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**40), 2**40)
    | st.text(max_size=12)
    | st.sampled_from(["A PAR", "*A BUL", "F STP/SC", "S1901M", "WAIVE", "A PAR - BUR VIA"]),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=6,
)


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The scripted game as MILA saves it."""
    from bot.interchange.mila_games import mila_game, saved_game

    folder: Path = tmp_path_factory.mktemp("fuzz") / "scripted"
    write_run_folder(folder)
    data = saved_game(mila_game(load_run(folder), "scripted"))
    write_json_object(folder / "saved.json", data, indent=None)
    return json.loads((folder / "saved.json").read_text())


def _paths(value: Any, here: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield here
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*here, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _paths(item, (*here, index))


def _replaced(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    copy = json.loads(json.dumps(value))
    parent = copy
    for step in path[:-1]:
        parent = parent[step]
    parent[path[-1]] = new
    return copy


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_any_part_replaced_is_read_or_refused(saved: dict[str, Any], data: st.DataObject) -> None:
    paths = list(_paths(saved))
    path = data.draw(st.sampled_from(paths), label="path")
    broken = _replaced(saved, path, data.draw(JSON, label="new"))
    try:
        game = game_values(broken)
    except ExchangeError as exc:
        assert "\n" not in str(exc)
    else:
        assert game.phases
