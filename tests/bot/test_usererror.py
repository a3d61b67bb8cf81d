"""The commands' shared checks of what a user gives (:mod:`bot.toolkit.usererror`)."""

from __future__ import annotations

import pytest

from bot.toolkit.usererror import UserError, check_port, extra_missing


@pytest.mark.parametrize(("port", "lowest"), [(0, 0), (65535, 0), (1, 1), (8080, 1)])
def test_a_port_in_range_passes(port: int, lowest: int) -> None:
    check_port(port, "--port", lowest)


@pytest.mark.parametrize(("port", "lowest"), [(-1, 0), (65536, 0), (0, 1), (70000, 1)])
def test_a_port_out_of_range_is_one_line(port: int, lowest: int) -> None:
    with pytest.raises(UserError) as caught:
        check_port(port, "--http-port", lowest)
    assert str(caught.value) == f"--http-port must be between {lowest} and 65535 (got {port})"


def test_a_missing_extra_names_the_module_and_the_install() -> None:
    error = extra_missing("the viewer needs", ImportError("no", name="uvicorn"))
    assert str(error) == (
        "the viewer needs the 'view' extra (uvicorn is missing): pip install 'daide-mcts[view]'"
    )
    assert "'daide-mcts[mila]'" in str(extra_missing("exporting needs", ImportError(), "mila"))
