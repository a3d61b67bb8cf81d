"""What a local game is and how it went: :class:`GameConfig` and :class:`GameOutcome`.

Shared by the runner that plays a game (:mod:`bot.local.runner`), the chart
of its centres (:mod:`bot.local.chart`) and tournaments, so that none of
them needs to import another to know these.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from bot.local.albert_seat import AlbertInstall
from bot.local.bandana import BandanaInstall
from bot.local.launch import (
    DEFAULT_DEADLINES,
    DEFAULT_FINAL_YEAR,
    FIRST_YEAR,
    STANDARD_MAP,
    Deadlines,
    years_to_play,
)
from bot.local.lineup import Seat
from bot.measure.metrics import GameRecord


@dataclass(frozen=True)
class GameConfig:
    """Everything that decides how a local game is played."""

    seats: tuple[Seat, ...]
    final_year: int = DEFAULT_FINAL_YEAR
    deadlines: Deadlines = DEFAULT_DEADLINES
    seed: int | None = None
    server: str = "auto"
    telemetry: str | None = None
    host: str = "127.0.0.1"
    bandana: BandanaInstall | None = None
    albert: AlbertInstall | None = None
    power_slots: tuple[int, ...] | None = None
    """Seat ``i`` plays the ``power_slots[i]``-th power of the server's order (Parlance,
    unshuffled: the seats join in that order); None: the server deals the powers."""
    bot_time: float | None = None
    """Most seconds our bots take per phase whatever the deadline (beside a person)."""
    map: str = STANDARD_MAP
    """The map Parlance serves (``standard`` or one of Parterre's variants)."""
    first_year: int = FIRST_YEAR
    """The map's first year."""
    press_level: int = 0
    """The press level the server allows (DAIDE's ``LVL``: 0 is no press)."""

    def time_limit(self) -> float:
        """Seconds after which a game that has not ended is stopped (every deadline, 1.5 times)."""
        years = years_to_play(self.final_year, self.first_year)
        return 120.0 + 1.5 * years * self.deadlines.year()

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready settings."""
        return {
            "final_year": self.final_year,
            "deadlines": asdict(self.deadlines),
            "seed": self.seed,
            "server": self.server,
            "telemetry": self.telemetry,
            "bandana_dir": None if self.bandana is None else str(self.bandana.folder),
            "albert_dir": None if self.albert is None else str(self.albert.folder),
            "lineup": [asdict(s) for s in self.seats],
            "power_slots": None if self.power_slots is None else list(self.power_slots),
            "bot_time": self.bot_time,
            "map": self.map,
            "first_year": self.first_year,
            "press_level": self.press_level,
        }


@dataclass
class GameOutcome:
    """How a game went: its record (None if it never got going), the result, the run folder."""

    folder: Path
    config: GameConfig
    server: str
    record: GameRecord | None
    result: str | None
    end: str
    ended_cleanly: bool
    problems: list[str] = field(default_factory=list)
    seat_powers: dict[str, str] = field(default_factory=dict)
    seconds: float = 0.0

    def summary(self) -> dict[str, Any]:
        """The JSON summary saved as ``summary.json`` (without the bots' own summaries)."""
        players = []
        for i, seat in enumerate(self.config.seats):
            entry: dict[str, Any] = {
                "seat": seat.name,
                "label": seat.label,
                "kind": seat.kind,
                "power": self.seat_powers.get(seat.name),
            }
            if self.record is not None:
                entry.update(
                    centres=self.record.centres[i],
                    solo=self.record.solo == i,
                    points=self.record.points[i],
                    rank=self.record.ranks[i],
                    eliminated=self.record.eliminated[i],
                )
            players.append(entry)
        return {
            "server": self.server,
            "settings": self.config.as_dict(),
            "result": self.result,
            "end": self.end,
            "ended_cleanly": self.ended_cleanly,
            "problems": self.problems,
            "seconds": round(self.seconds, 3),
            "players": players,
            "record": asdict(self.record) if self.record is not None else None,
        }
