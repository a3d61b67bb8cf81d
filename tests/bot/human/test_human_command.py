"""``daide-mcts human``'s flags: a bad one is refused in one line (exit code 2), before any I/O."""

from __future__ import annotations

import pytest

from bot.cli import main

BAD = [
    (["--http-port", "70000"], "--http-port must be between 0 and 65535"),
    (["--power", "FRA"], "--power and --passcode go together"),
    (["--port", "0"], "port"),
    (["--record", "/dev/null/run"], "--record /dev/null/run"),
    (["--last-year", "0"], "--last-year must be a year"),
]


@pytest.mark.parametrize(("args", "said"), BAD)
def test_a_bad_flag_is_one_line(
    args: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["human", *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("daide-mcts human: error:") and err.count("\n") == 1, err
    assert said in err


def test_help_names_the_page_and_the_extra(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["human", "--help"])
    out = capsys.readouterr().out
    assert "127.0.0.1" in out and "view extra" in out and "--http-port" in out
