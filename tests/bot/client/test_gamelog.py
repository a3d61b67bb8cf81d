"""The console log writes to the process's stderr as it is when a line is written."""

from __future__ import annotations

import io

import pytest
import structlog

from bot.client.gamelog import configure_logging


def test_a_stderr_replaced_and_closed_after_configuring_does_not_break_logging(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A stream the logging was configured with, closed since, is not the one written to."""
    old = io.StringIO()
    monkeypatch.setattr("sys.stderr", old)
    configure_logging("info")
    old.close()
    monkeypatch.undo()
    try:
        structlog.get_logger("test").warning("still here", seen=1)
        assert "still here" in capsys.readouterr().err
    finally:
        structlog.reset_defaults()


def test_an_unknown_level_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="not one of"):
        configure_logging("loud")
