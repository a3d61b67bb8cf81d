"""The bot's settings: command-line flags, environment variables, defaults — validated once.

Every setting can come from a ``DAIDE_MCTS_*`` environment variable (e.g.
``DAIDE_MCTS_PORT=16714``) or from a flag of ``daide-mcts play``; flags win.
A bad value is a :class:`SettingsError` with a message naming the setting.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Literal

from pydantic import Field, ValidationError, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from bot.client.core.timebudget import DEFAULT_MIN_MARGIN, DEFAULT_THINK_TIME
from bot.client.gamelog import DEFAULT_LOG_LEVEL, LOG_LEVELS, LogFormat
from bot.client.mqtt_publisher import MqttTelemetry, Telemetry
from bot.client.mqtt_url import parse_mqtt_url

DEFAULT_PORT = 16713

MAX_WORKERS = 64
"""Most search processes one bot may run."""


def available_cores() -> int:
    """The cores this process may run on (its CPU affinity where the system tells it)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


class SettingsError(ValueError):
    """A setting has a value the bot cannot use; the message says which and why."""


class BotSettings(BaseSettings):
    """Everything ``daide-mcts play`` needs to connect and play one game."""

    model_config = SettingsConfigDict(env_prefix="DAIDE_MCTS_", extra="forbid")

    host: str = Field("127.0.0.1", description="DAIDE server host")
    port: int = Field(DEFAULT_PORT, ge=1, le=65535, description="DAIDE server port")
    name: str = Field("daide-mcts", description="name sent in NME (letters, digits, _)")
    strategy: str = Field(
        "mcts", description="how to choose movement orders: mcts, mcts:<variant>, dumbbot, random"
    )
    workers: int | Literal["auto"] = Field(
        1, description="search processes: a number from 1 to 64, or auto (one per core)"
    )
    final_year: int | None = Field(
        None, ge=1, le=8191, description="offer the draw once this year is played out (BANDANA -fy)"
    )
    log_dir: Path | None = Field(None, description="folder for the JSON-lines game log")
    think_time: float = Field(
        DEFAULT_THINK_TIME,
        gt=0,
        le=3600,
        description="seconds to think when the server sets no deadline",
    )
    min_margin: float = Field(
        DEFAULT_MIN_MARGIN,
        ge=0,
        le=60,
        description="least seconds to keep between last submission and deadline",
    )
    max_think: float | None = Field(
        None,
        gt=0,
        le=3600,
        description="most seconds from a phase's start to the last submission, whatever the "
        "deadline (bots beside a person)",
    )
    chooser: Literal["bot", "person"] = Field(
        "bot", description="who chooses the orders: bot (the strategy) or person (a page)"
    )
    press: Literal["off", "unbound"] = Field(
        "unbound",
        description="in press games: negotiate by value without binding our orders (unbound, "
        "the default) or refuse every proposal (off: REJ, as before the negotiator); "
        "docs/press.md",
    )
    press_turn: bool = Field(
        False,
        description="name the turn in every SND (SND (turn) (power ...) (press)): MILA's "
        "server takes a lone recipient's group for a turn and stops reading the connection",
    )
    rejoin_power: str | None = Field(None, description="rejoin as this power (IAM)")
    rejoin_passcode: int | None = Field(None, description="passcode for IAM")
    reconnect_attempts: int = Field(8, ge=0, le=1000, description="reconnections before giving up")
    connect_timeout: float = Field(10.0, gt=0, le=600, description="seconds to wait for TCP")
    seed: int | None = Field(None, description="random seed (default: from the OS)")
    rules: Literal["parlance", "datc"] = Field(
        "parlance",
        description="the server's civil-disorder rule: parlance (Parlance, BANDANA) or datc (MILA)",
    )
    telemetry: str | None = Field(None, description="mqtt://host:port/prefix for live events")
    game_id: str | None = Field(
        None, description="the game's name in telemetry topics (default: server host:port)"
    )
    telemetry_queue: int = Field(
        1000, ge=1, le=1_000_000, description="telemetry events kept while the broker is away"
    )
    log_level: str = Field(
        DEFAULT_LOG_LEVEL, description=f"console log level: {', '.join(LOG_LEVELS)}"
    )
    log_format: LogFormat = Field(
        LogFormat.CONSOLE, description="console log lines: console (key=value) or json"
    )

    @field_validator("workers", mode="before")
    @classmethod
    def _workers(cls, value: object) -> object:
        if isinstance(value, str) and value.strip().lower() == "auto":
            return "auto"
        try:
            count = int(value)  # type: ignore[call-overload]
        except (TypeError, ValueError):
            raise ValueError("must be a number from 1 to 64, or auto") from None
        if not 1 <= count <= MAX_WORKERS:
            raise ValueError("must be a number from 1 to 64, or auto")
        return count

    @property
    def search_workers(self) -> int:
        """How many search processes to use: ``auto`` is one per core this process may use."""
        if self.workers == "auto":
            return max(1, min(MAX_WORKERS, available_cores()))
        return self.workers

    @field_validator("log_level")
    @classmethod
    def _log_level(cls, value: str) -> str:
        if value.lower() not in LOG_LEVELS:
            raise ValueError(f"must be one of {', '.join(LOG_LEVELS)}")
        return value.lower()

    @field_validator("name")
    @classmethod
    def _daide_text(cls, value: str) -> str:
        if not value or not all(c.isalnum() or c in "_.-" for c in value) or not value.isascii():
            raise ValueError("must be ASCII letters, digits, '_', '.' or '-'")
        return value

    @field_validator("telemetry")
    @classmethod
    def _telemetry_url(cls, value: str | None) -> str | None:
        if value is None or not value.strip():
            return None
        parse_mqtt_url(value)  # MqttUrlError (a ValueError) says what is wrong
        return value.strip()

    @field_validator("game_id")
    @classmethod
    def _game_id(cls, value: str | None) -> str | None:
        if value is None:
            return None
        if not value or any(c in "/+#" or not c.isprintable() for c in value):
            raise ValueError("must be non-empty, printable, without '/', '+' or '#'")
        return value

    @field_validator("rejoin_power")
    @classmethod
    def _power(cls, value: str | None) -> str | None:
        if value is None:
            return None
        if len(value) != 3 or not value.isalpha():
            raise ValueError("must be a three-letter power token such as ENG")
        return value.upper()


def load_settings(**overrides: object) -> BotSettings:
    """Settings from the environment with ``overrides`` (flags) on top; SettingsError if invalid."""
    given = {k: v for k, v in overrides.items() if v is not None}
    try:
        return BotSettings(**given)  # type: ignore[arg-type]
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc']) or 'settings'}: "
            f"{err['msg'].removeprefix('Value error, ')}"
            for err in exc.errors()
        )
        raise SettingsError(problems) from None


def make_telemetry(
    settings: BotSettings, power_of: Callable[[], str | None] = lambda: None
) -> Telemetry:
    """The telemetry the settings ask for: off, or MQTT to ``settings.telemetry``.

    The game is ``settings.game_id`` or, by default, the DAIDE server's ``host:port``.
    """
    if not settings.telemetry:
        return Telemetry()
    return MqttTelemetry(
        parse_mqtt_url(settings.telemetry),
        game=settings.game_id or f"{settings.host}:{settings.port}",
        name=settings.name,
        power_of=power_of,
        maxsize=settings.telemetry_queue,
    )
