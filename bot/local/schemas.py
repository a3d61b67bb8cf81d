"""The shapes of the JSON files games, tournaments and arenas leave behind, checked when read back.

A tournament is resumed, compared and rated from its ``tournament.json`` and
each game's ``game.json``; ``compare`` also reads the file ``arena --json``
writes.  Those files may have been cut by a crash or edited by hand, so each
is read by :func:`bot.toolkit.jsonfiles.read_json_model` into one of these pydantic
models: every number bounded (a year fits DAIDE, a count is not negative, no
infinity), every per-seat list as long as the lineup, before any of it
reaches the code that computes with it.  Anything else is a
:class:`bot.toolkit.jsonfiles.CorruptJSON` naming the file and the first field wrong.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, model_validator

from bot.local.lineup import SeatKind
from bot.measure.comparison import ComparisonError, Run, checked
from bot.measure.metrics import GameRecord
from bot.toolkit.jsonfiles import MAX_NUMBER, CorruptJSON, read_json_model
from protocol.tokens import INTEGER_MAX

Year = Annotated[int, Field(ge=0, le=INTEGER_MAX)]
"""A game year: DAIDE writes it in 14 bits."""

Count = Annotated[int, Field(ge=0, le=INTEGER_MAX)]
"""Supply centres, and the seat numbers of a lineup."""

Index = Annotated[int, Field(ge=0, le=MAX_NUMBER)]
"""A game's number in its tournament or arena."""

Seed = Annotated[int, Field(ge=-MAX_NUMBER, le=MAX_NUMBER)]
"""A random seed."""

Real = Annotated[float, Field(allow_inf_nan=False, ge=-MAX_NUMBER, le=MAX_NUMBER)]
"""Points, ranks and seconds."""

Seconds = Annotated[int, Field(ge=0, le=MAX_NUMBER)]
"""A phase deadline."""


class Shape(BaseModel):
    """A file's shape: fields it does not name are ignored (newer files read by older code)."""

    model_config = ConfigDict(extra="ignore", frozen=True)


class GameRecordShape(Shape):
    """A :class:`bot.measure.metrics.GameRecord`, seat by seat."""

    index: Index
    powers: list[str] = Field(min_length=1)
    years: list[Year] = Field(min_length=1)
    curve: list[list[Count]]
    centres: list[Count]
    eliminated: list[Year | None]
    solo: Count | None
    points: list[Real]
    ranks: list[Real]
    end: str
    seconds: Real

    @model_validator(mode="after")
    def _one_entry_per_seat(self) -> GameRecordShape:
        seats = len(self.powers)
        for name in ("centres", "eliminated", "points", "ranks"):
            if len(getattr(self, name)) != seats:
                raise ValueError(f"{name} has {len(getattr(self, name))} entries for {seats} seats")
        if len(self.curve) != len(self.years):
            raise ValueError(f"curve has {len(self.curve)} rows for {len(self.years)} years")
        if any(len(row) != seats for row in self.curve):
            raise ValueError(f"a row of curve does not have one count for each of {seats} seats")
        if self.solo is not None and self.solo >= seats:
            raise ValueError(f"solo is seat {self.solo} of {seats}")
        return self

    def value(self) -> GameRecord:
        """The record itself."""
        return GameRecord(
            index=self.index,
            powers=tuple(self.powers),
            years=tuple(self.years),
            curve=tuple(tuple(row) for row in self.curve),
            centres=tuple(self.centres),
            eliminated=tuple(self.eliminated),
            solo=self.solo,
            points=tuple(self.points),
            ranks=tuple(self.ranks),
            end=self.end,
            seconds=self.seconds,
        )


class GameEntryShape(Shape):
    """A tournament's ``game.json``: one finished game (see ``bot.tournament.saved.GameEntry``)."""

    index: Index
    record: GameRecordShape
    seat_powers: dict[str, str]
    result: str
    end: str
    server: str
    seconds: Real


class SeatShape(Shape):
    """A seat of a saved lineup (see :class:`bot.local.lineup.Seat`)."""

    label: str
    kind: SeatKind
    spec: str
    name: str


class DeadlinesShape(Shape):
    """Seconds per phase (see :class:`bot.local.launch.Deadlines`)."""

    move: Seconds
    retreat: Seconds
    build: Seconds


class SettingsShape(Shape):
    """What every game of a tournament shares (see ``TournamentSettings``)."""

    lineup: list[SeatShape] = Field(min_length=1)
    final_year: Year
    deadlines: DeadlinesShape
    seed: Seed | None = None
    server: str = "auto"
    powers: str = "random"
    map: str = Field(default="standard", pattern=r"^[A-Za-z0-9_]{1,40}$")
    first_year: Year = 1901
    press_level: Count = 0


class TournamentShape(Shape):
    """A tournament's ``tournament.json``: its settings and how many games it is to play.

    The first tournaments saved the settings alone, without ``games``.
    """

    settings: SettingsShape
    games: Index | None = None

    @model_validator(mode="before")
    @classmethod
    def _settings_alone(cls, data: object) -> object:
        if isinstance(data, dict) and "settings" not in data:
            return {"settings": data}
        return data


class ArenaRunShape(Shape):
    """What ``arena --json`` saves, as far as ``compare`` reads it."""

    lineup: list[str] = Field(min_length=1)
    seed: Seed
    games: list[GameRecordShape]


def read_arena_run(path: Path) -> Run:
    """The run saved by ``arena --json PATH``; ComparisonError (naming the file) if not one."""
    try:
        shape = read_json_model(path, ArenaRunShape)
    except CorruptJSON as exc:
        raise ComparisonError(f"{exc} (not an arena run)") from None
    games = tuple(game.value() for game in shape.games)
    return checked(Run(str(path), tuple(shape.lineup), shape.seed, games))
