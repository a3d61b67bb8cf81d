"""Logging: structlog for the console, and one JSON-lines record per game.

The game record (:class:`GameLog`) holds every message in and out in DAIDE
text, the orders chosen, search statistics and the deadline margin of every
submission.  Each line is written and flushed at once, so a crash loses
nothing already written.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import time
from enum import StrEnum
from pathlib import Path
from typing import IO, Any

import structlog


class LogFormat(StrEnum):
    """How console log lines look: ``key=value`` for people, or one JSON object per line."""

    CONSOLE = "console"
    JSON = "json"


LOG_LEVELS = ("debug", "info", "warning", "error", "critical")
"""The console log levels, least severe first (the standard library's level names)."""

DEFAULT_LOG_LEVEL = "info"


def _stderr_logger(*_names: Any) -> structlog.PrintLogger:
    """A logger printing to ``sys.stderr`` as it is now, not as it was at configuration.

    A process whose stderr is replaced after its logging was configured (a test's
    captured stream, closed since) keeps logging to the stream it has.
    """
    return structlog.PrintLogger(sys.stderr)


def configure_logging(
    level: str = DEFAULT_LOG_LEVEL, log_format: LogFormat = LogFormat.CONSOLE
) -> None:
    """Set up structlog for this process; ValueError for a level not in :data:`LOG_LEVELS`."""
    if level.lower() not in LOG_LEVELS:
        raise ValueError(f"log level {level!r} is not one of {', '.join(LOG_LEVELS)}")
    renderer: Any = (
        structlog.processors.JSONRenderer()
        if log_format is LogFormat.JSON
        else structlog.dev.ConsoleRenderer(colors=False)
    )
    structlog.configure(
        processors=[
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            renderer,
        ],
        wrapper_class=structlog.make_filtering_bound_logger(
            logging.getLevelNamesMapping()[level.upper()]
        ),
        logger_factory=_stderr_logger,
        cache_logger_on_first_use=False,
    )


def add_log_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``--log-level`` and ``--log-format`` flags; argparse rejects other values."""
    parser.add_argument(
        "--log-level",
        type=str.lower,
        choices=LOG_LEVELS,
        help=f"console log level: {', '.join(LOG_LEVELS)} (default {DEFAULT_LOG_LEVEL})",
    )
    parser.add_argument(
        "--log-format",
        type=str.lower,
        choices=[f.value for f in LogFormat],
        help="console log lines: console (key=value) or json (one JSON object per line; "
        "default console)",
    )


class GameLog:
    """A JSON-lines game record; ``None`` path means record nothing."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._file: IO[str] | None = None
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._file = open(path, "a", encoding="utf-8")  # noqa: SIM115 - closed in close()

    def write(self, kind: str, **fields: object) -> None:
        """Append one record ``{"t": unix time, "kind": kind, ...fields}``."""
        if self._file is None:
            return
        record = {"t": round(time.time(), 4), "kind": kind, **fields}
        try:
            self._file.write(json.dumps(record, default=str) + "\n")
            self._file.flush()
        except OSError:
            # A full disk must not stop the game; the console log still says what happens.
            pass

    def message(self, direction: str, text: str) -> None:
        """Record one DAIDE message: ``direction`` is ``in`` or ``out``."""
        self.write("msg", dir=direction, text=text)

    def close(self) -> None:
        """Flush and close the file."""
        if self._file is not None:
            self._file.close()
            self._file = None


def game_log_path(log_dir: Path, name: str) -> Path:
    """A fresh file name for one game's record in ``log_dir``."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    return log_dir / f"{name}-{stamp}-{int(time.time() * 1000) % 100000:05d}.jsonl"
