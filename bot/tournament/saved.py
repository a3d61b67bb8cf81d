"""A tournament's folder: its settings, its games, and reading them back.

A tournament lives in one folder::

    tournament.json      the settings (lineup, map, final year, deadlines, seed, server)
    games/game-001/      each game's run folder (see :mod:`bot.local.runner`);
                         ``game.json`` in it marks the game as finished
    results.json         every game and the summaries per label, seat and power
    results.csv          one row per game and seat (who played which power, centres...)
    summary.csv          one row per label, seat and power (means with their spread)
    results.md           the summaries as markdown tables
    centres.png          mean supply centres per year of each player label

The server assigns the powers (at random, on Parlance), or the seats take
them in turn (``--powers rotate``); each game records who got which.
"""

from __future__ import annotations

import contextlib
import json
import shutil
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from random import Random
from typing import Any

from bot.local.albert_seat import AlbertInstall
from bot.local.bandana import BandanaInstall
from bot.local.launch import FIRST_YEAR, STANDARD_MAP, Deadlines
from bot.local.lineup import Seat
from bot.local.runner import GameConfig, GameOutcome
from bot.local.schemas import GameEntryShape, TournamentShape
from bot.measure.comparison import ComparisonError, Run, checked
from bot.measure.metrics import GameRecord
from bot.toolkit.jsonfiles import CorruptJSON, read_json_model, write_json_object

SETTINGS_FILE = "tournament.json"
GAME_FILE = "game.json"
START_ATTEMPTS = 2
"""Times a game that never started (a seat left before it began) is played before giving up."""

SEED_STRIDE = 100
"""Game ``k`` seeds its bots from ``seed + k * SEED_STRIDE`` (seat ``i`` adds ``i``)."""


POWERS_RANDOM = "random"
POWERS_ROTATE = "rotate"
POWER_DEALS = (POWERS_RANDOM, POWERS_ROTATE)
"""How a tournament's powers may be dealt (``--powers``)."""
POWER_DEAL_TEXT = {
    POWERS_RANDOM: "powers assigned by the server",
    POWERS_ROTATE: "powers rotated (every seat plays every power once in each block of games)",
}


def rotated_slots(index: int, seats: int, seed: int | None) -> tuple[int, ...]:
    """Each seat's power slot in game ``index`` of a tournament with rotated powers.

    Games come in blocks of ``seats``; each block is a Latin square (every seat
    plays every power once, every game gives every power once) drawn from the
    cyclic one by shuffling its games, its seats and its powers with a
    generator seeded by ``seed`` and the block, so that which power a seat's
    neighbours have changes from block to block (in the plain cyclic square
    seat 2 always plays the power after seat 1's).  The same seed gives the
    same slots, so two tournaments of one lineup can be compared game by game.
    """
    block, row = divmod(index, seats)
    rng = Random(f"powers-{seed}-{block}")
    rows, columns, symbols = (rng.sample(range(seats), seats) for _ in range(3))
    return tuple(symbols[(columns[i] + rows[row]) % seats] for i in range(seats))


class TournamentError(Exception):
    """The tournament cannot go on (a folder holding another tournament, corrupt files...)."""


@dataclass(frozen=True)
class TournamentSettings:
    """What every game of a tournament shares."""

    seats: tuple[Seat, ...]
    final_year: int
    deadlines: Deadlines
    seed: int | None = None
    server: str = "auto"
    powers: str = POWERS_RANDOM
    """How the powers are dealt: :data:`POWERS_RANDOM` (by the server) or
    :data:`POWERS_ROTATE` (:func:`rotated_slots`: within each block of seven games
    every seat plays every power once)."""
    map: str = STANDARD_MAP
    """The map Parlance serves; one seat per power of it."""
    first_year: int = FIRST_YEAR
    """The map's first year."""
    press_level: int = 0
    """The press level the server allows (0: no press)."""

    def __post_init__(self) -> None:
        if self.powers not in POWER_DEALS:
            raise TournamentError(
                f"powers must be one of {', '.join(POWER_DEALS)}, not {self.powers!r}"
            )

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready."""
        return {
            "lineup": [asdict(s) for s in self.seats],
            "final_year": self.final_year,
            "deadlines": asdict(self.deadlines),
            "seed": self.seed,
            "server": self.server,
            "powers": self.powers,
            "map": self.map,
            "first_year": self.first_year,
            "press_level": self.press_level,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TournamentSettings:
        """The inverse of :meth:`as_dict`; TournamentError if malformed."""
        try:
            return cls(
                seats=tuple(Seat(**s) for s in data["lineup"]),
                final_year=int(data["final_year"]),
                deadlines=Deadlines(**data["deadlines"]),
                seed=None if data.get("seed") is None else int(data["seed"]),
                server=str(data.get("server", "auto")),
                powers=str(data.get("powers", POWERS_RANDOM)),
                map=str(data.get("map", STANDARD_MAP)),
                first_year=int(data.get("first_year", FIRST_YEAR)),
                press_level=int(data.get("press_level", 0)),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise TournamentError(
                f"{SETTINGS_FILE} is not a tournament's settings: {exc!r}"
            ) from None

    def game_config(
        self,
        index: int,
        telemetry: str | None,
        bandana: BandanaInstall | None = None,
        albert: AlbertInstall | None = None,
    ) -> GameConfig:
        """The settings of game ``index`` (its own seeds).

        ``bandana`` runs BANDANA's seats, ``albert`` Albert's.
        """
        seed = None if self.seed is None else self.seed + index * SEED_STRIDE
        slots = None
        if self.powers == POWERS_ROTATE:
            slots = rotated_slots(index, len(self.seats), self.seed)
        return GameConfig(
            seats=self.seats,
            final_year=self.final_year,
            deadlines=self.deadlines,
            seed=seed,
            server=self.server,
            telemetry=telemetry,
            bandana=bandana,
            albert=albert,
            power_slots=slots,
            map=self.map,
            first_year=self.first_year,
            press_level=self.press_level,
        )


@dataclass(frozen=True)
class GameEntry:
    """One finished game of a tournament, as saved in its ``game.json``."""

    index: int
    record: GameRecord
    seat_powers: dict[str, str]
    result: str
    end: str
    server: str
    seconds: float

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready."""
        return {
            "index": self.index,
            "result": self.result,
            "end": self.end,
            "server": self.server,
            "seconds": self.seconds,
            "seat_powers": self.seat_powers,
            "record": asdict(self.record),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameEntry:
        """The inverse of :meth:`to_dict`; ValueError if malformed."""
        try:
            return cls(
                index=int(data["index"]),
                record=GameRecord.from_dict(data["record"]),
                seat_powers={str(k): str(v) for k, v in data["seat_powers"].items()},
                result=str(data["result"]),
                end=str(data["end"]),
                server=str(data["server"]),
                seconds=float(data["seconds"]),
            )
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise ValueError(f"not a finished game: {exc!r}") from None

    @classmethod
    def from_outcome(cls, index: int, outcome: GameOutcome) -> GameEntry:
        """The entry of a game that ended with a record."""
        assert outcome.record is not None
        return cls(
            index=index,
            record=outcome.record,
            seat_powers=dict(outcome.seat_powers),
            result=outcome.result or "",
            end=outcome.end,
            server=outcome.server,
            seconds=round(outcome.seconds, 3),
        )


def read_game(marker: Path) -> GameEntry:
    """The finished game saved in ``marker`` (a ``game.json``); TournamentError if it is not one."""
    try:
        shape = read_json_model(marker, GameEntryShape)
    except CorruptJSON as exc:
        raise TournamentError(f"{exc} (not a finished game)") from None
    return GameEntry(
        index=shape.index,
        record=shape.record.value(),
        seat_powers=dict(shape.seat_powers),
        result=shape.result,
        end=shape.end,
        server=shape.server,
        seconds=shape.seconds,
    )


def game_folder(folder: Path, index: int) -> Path:
    """The run folder of game ``index`` (0-based; named from 1)."""
    return folder / "games" / f"game-{index + 1:03d}"


# --- the folder -----------------------------------------------------------------------------


def load_settings(folder: Path) -> TournamentSettings | None:
    """The settings saved in ``folder``, or None if it holds no tournament yet.

    TournamentError (naming the file and what is wrong) if they cannot be read.
    """
    path = folder / SETTINGS_FILE
    if not path.exists() and not path.is_symlink():
        return None
    try:
        shape = read_json_model(path, TournamentShape)
    except CorruptJSON as exc:
        raise TournamentError(f"cannot read the tournament's settings: {exc}") from None
    return TournamentSettings.from_dict(shape.settings.model_dump())


def prepare(folder: Path, settings: TournamentSettings, games: int) -> dict[int, GameEntry]:
    """Create or reopen the tournament folder; the finished games it already holds.

    Unfinished game folders (no ``game.json``, e.g. after an interruption) are
    removed so that their games are played again.
    """
    folder.mkdir(parents=True, exist_ok=True)
    saved = load_settings(folder)
    if saved is not None and saved != settings:
        raise TournamentError(
            f"{folder} holds a tournament with other settings "
            f"({json.dumps(saved.as_dict())}); use another folder"
        )
    write_json_object(folder / SETTINGS_FILE, {"settings": settings.as_dict(), "games": games})
    done: dict[int, GameEntry] = {}
    games_dir = folder / "games"
    if games_dir.is_dir():
        for child in sorted(games_dir.iterdir()):
            marker = child / GAME_FILE
            entry = None
            if marker.exists():
                with contextlib.suppress(TournamentError):
                    entry = read_game(marker)
            if entry is not None and game_folder(folder, entry.index) == child:
                done[entry.index] = entry
            elif child.is_dir():
                shutil.rmtree(child, ignore_errors=True)
    return done


def saved_games(folder: Path) -> int | None:
    """How many games the tournament in ``folder`` was asked to play, if it says."""
    try:
        return read_json_model(folder / SETTINGS_FILE, TournamentShape).games
    except CorruptJSON:
        return None


def finished_game_folders(folder: Path) -> list[Path]:
    """The run folders of the tournament in ``folder``'s finished games, in order."""
    return [m.parent for m in sorted((folder / "games").glob(f"game-*/{GAME_FILE}"))]


def finished_games(folder: Path) -> tuple[TournamentSettings, list[GameEntry]]:
    """The settings and finished games (in order) of the tournament in ``folder``.

    TournamentError if it holds no tournament, no finished game, or a corrupt game file.
    """
    settings = load_settings(folder)
    if settings is None:
        raise TournamentError(f"{folder} holds no tournament (no {SETTINGS_FILE})")
    entries = [read_game(f / GAME_FILE) for f in finished_game_folders(folder)]
    if not entries:
        raise TournamentError(f"{folder} holds no finished game yet")
    return settings, sorted(entries, key=lambda e: e.index)


def tournament_run(folder: Path) -> Run:
    """The finished games of the tournament in ``folder`` as a comparison run.

    TournamentError as :func:`finished_games`, and if a game's seats do not match the lineup.
    """
    settings, entries = finished_games(folder)
    try:
        return checked(as_run(settings, entries, str(folder)))
    except ComparisonError as exc:
        raise TournamentError(str(exc)) from None


def as_run(settings: TournamentSettings, entries: Sequence[GameEntry], source: str = "") -> Run:
    """The games of ``entries`` as a comparison run of the settings' lineup."""
    labels = tuple(seat.label for seat in settings.seats)
    return Run(source, labels, settings.seed, tuple(e.record for e in entries), settings.map)


# --- results ----------------------------------------------------------------------------------
