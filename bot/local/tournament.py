"""Tournaments: many local games of one lineup, scored per player and per label, resumable.

A tournament lives in one folder::

    tournament.json      the settings (lineup, final year, deadlines, seed, server)
    games/game-001/      each game's run folder (see :mod:`bot.local.runner`);
                         ``game.json`` in it marks the game as finished
    results.json         every game and the summaries per label, seat and power
    results.csv          one row per game and seat (who played which power, centres...)
    summary.csv          one row per label, seat and power (means with their spread)
    results.md           the summaries as markdown tables
    centres.png          mean supply centres per year of each player label

The server assigns the powers (at random, on Parlance); each game records
who got which.  Running the same tournament folder again keeps the finished
games, replays unfinished ones and plays the rest.  A game that never started
(a seat left before it began, as BANDANA's bots sometimes do when the server
is slow to answer their ``NME``) is played once more at once.  ``parallel`` games run at
once, each on its own server and port.
"""

from __future__ import annotations

import asyncio
import contextlib
import csv
import json
import shutil
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from random import Random
from typing import Any, TextIO

from rich.console import Console
from rich.live import Live
from rich.progress_bar import ProgressBar
from rich.table import Table

from bot.jsonfiles import CorruptJSON, read_json_model, write_json_object
from bot.local.albert import AlbertInstall
from bot.local.bandana import BandanaInstall
from bot.local.chart import standings_chart
from bot.local.launch import Deadlines
from bot.local.lineup import Seat
from bot.local.record import LiveState
from bot.local.runner import GameConfig, GameError, GameOutcome, play_game, run_until_done
from bot.local.schemas import GameEntryShape, TournamentShape
from bot.local.view import BAR_WIDTH, format_elapsed, progress_bar
from bot.measure.comparison import ComparisonError, Run, checked, focus_label, standing
from bot.measure.metrics import GameRecord, Standings, markdown_table

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


def finished_games(folder: Path) -> tuple[TournamentSettings, list[GameEntry]]:
    """The settings and finished games (in order) of the tournament in ``folder``.

    TournamentError if it holds no tournament, no finished game, or a corrupt game file.
    """
    settings = load_settings(folder)
    if settings is None:
        raise TournamentError(f"{folder} holds no tournament (no {SETTINGS_FILE})")
    entries = [read_game(m) for m in sorted((folder / "games").glob(f"game-*/{GAME_FILE}"))]
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
    return Run(source, labels, settings.seed, tuple(e.record for e in entries))


# --- results ----------------------------------------------------------------------------------


def standings(settings: TournamentSettings, entries: Sequence[GameEntry]) -> Standings:
    """The finished games summed up per label, seat and power."""
    return Standings(
        lineup=tuple(s.label for s in settings.seats),
        games=tuple(e.record for e in sorted(entries, key=lambda e: e.index)),
        seats=tuple(s.name for s in settings.seats),
    )


SUMMARY_FIELDS = (
    "group",
    "name",
    "games",
    "mean_centres",
    "sd_centres",
    "min_centres",
    "max_centres",
    "solos",
    "points",
    "mean_points",
    "sd_points",
    "mean_rank",
    "sd_rank",
)

GAME_FIELDS = (
    "game",
    "seat",
    "label",
    "power",
    "centres",
    "solo",
    "points",
    "rank",
    "eliminated",
    "result",
    "end",
)


def write_results(
    folder: Path, settings: TournamentSettings, entries: Sequence[GameEntry], games: int
) -> Standings | None:
    """Write results.json/.csv/.md, summary.csv and centres.png; the standings (None if no game)."""
    if not entries:
        return None
    table = standings(settings, entries)
    ordered = sorted(entries, key=lambda e: e.index)
    groups = (("label", table.by_label()), ("seat", table.by_seat()), ("power", table.by_power()))
    write_json_object(
        folder / "results.json",
        {
            "settings": settings.as_dict(),
            "games_planned": games,
            "games_finished": len(ordered),
            **table.summaries_dict(),
            "games": [e.to_dict() for e in ordered],
        },
    )
    with open(folder / "results.csv", "w", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(GAME_FIELDS)
        for e in ordered:
            r = e.record
            for i, seat in enumerate(settings.seats):
                writer.writerow(
                    [
                        e.index + 1,
                        seat.name,
                        seat.label,
                        r.powers[i],
                        r.centres[i],
                        int(r.solo == i),
                        r.points[i],
                        r.ranks[i],
                        "" if r.eliminated[i] is None else r.eliminated[i],
                        e.result,
                        e.end,
                    ]
                )
    with open(folder / "summary.csv", "w", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(SUMMARY_FIELDS)
        for group, rows in groups:
            for s in rows:
                d = asdict(s)
                writer.writerow([group, *(_round(d[k]) for k in SUMMARY_FIELDS[1:])])
    (folder / "results.md").write_text(
        markdown_report(settings, table, len(ordered), games, ordered)
    )
    subtitle = f"{len(ordered)} games to WIN {settings.final_year}"
    standings_chart(table, subtitle, folder / "centres.png")
    return table


def _round(value: object) -> object:
    return round(value, 4) if isinstance(value, float) else value


def focus_lines(settings: TournamentSettings, entries: Sequence[GameEntry]) -> list[str]:
    """The focus label's centres and margins with 95% intervals (none for a one-label lineup)."""
    run = as_run(settings, entries)
    if len(set(run.lineup)) < 2 or not entries:
        return []
    return standing([run], focus_label(run.lineup)).lines()


def _focus_section(settings: TournamentSettings, entries: Sequence[GameEntry]) -> list[str]:
    lines = focus_lines(settings, entries)
    if not lines:
        return []
    head = "With 95% intervals (`daide-mcts compare` pools and pairs folders):"
    return [head, "", "```", *lines, "```", ""]


def markdown_report(
    settings: TournamentSettings,
    table: Standings,
    finished: int,
    games: int,
    entries: Sequence[GameEntry] = (),
) -> str:
    """The tournament's results as a markdown document."""
    lineup = ", ".join(f"{s.name} ({s.label})" for s in settings.seats)
    lines = [
        "# Tournament results",
        "",
        f"{finished} of {games} games, each to WIN {settings.final_year}; "
        f"deadlines {settings.deadlines}; {POWER_DEAL_TEXT[settings.powers]}.",
        "",
        f"Lineup: {lineup}.",
        "",
        *_focus_section(settings, entries),
        "Means over games, ± one standard deviation.  Points as BANDANA counts them "
        "(12 for a solo, else the draw shared by the survivors); rank 1 is best.",
        "",
        "## Per player label",
        "",
        markdown_table("player", table.by_label()),
        "",
        "## Per seat",
        "",
        markdown_table("seat", table.by_seat()),
        "",
        "## Per power",
        "",
        markdown_table("power", table.by_power()),
        "",
    ]
    return "\n".join(lines)


# --- running ------------------------------------------------------------------------------------


class _GameSink:
    """The view of one tournament game: keeps its latest state for the tournament's display."""

    def __init__(self, index: int, notes: Callable[[str], None]) -> None:
        self.index = index
        self.state: LiveState | None = None
        self._notes = notes

    def note(self, text: str) -> None:
        self._notes(f"game {self.index + 1}: {text}")

    def update(self, state: LiveState) -> None:
        self.state = state

    def close(self, state: LiveState | None) -> None:
        self.state = state


@dataclass
class TournamentDisplay:
    """Progress of a tournament: a live progress bar on a terminal (rich), else a line per game."""

    stream: TextIO
    games: int
    done: int = 0
    running: dict[int, _GameSink] = field(default_factory=dict)
    started: float = field(default_factory=time.monotonic)
    _live: Live | None = None
    _console: Console | None = None

    @property
    def tty(self) -> bool:
        """True when the stream is a terminal."""
        isatty = getattr(self.stream, "isatty", None)
        return bool(callable(isatty) and isatty())

    def note(self, text: str) -> None:
        """Print a line (above the progress bar on a terminal)."""
        if self._console is not None:
            self._console.print(text, markup=False, highlight=False)
            return
        self.stream.write(text + "\n")
        self.stream.flush()

    def running_text(self) -> str:
        """The phase of each game running."""
        parts = []
        for index, sink in sorted(self.running.items()):
            turn = sink.state.turn if sink.state is not None else None
            parts.append(f"#{index + 1} {turn or 'starting'}")
        return ", ".join(parts)

    def status(self) -> str:
        """Games done, time so far, and the phase of each game running, in one line."""
        elapsed = time.monotonic() - self.started
        return (
            f"{progress_bar(self.done / max(1, self.games), 20)} {self.done}/{self.games} games"
            f"  {format_elapsed(elapsed)}  {self.running_text()}"
        )

    def _render(self) -> Table:
        line = Table.grid(padding=(0, 2))
        line.add_row(
            ProgressBar(total=max(1, self.games), completed=self.done, width=BAR_WIDTH),
            f"{self.done}/{self.games} games",
            format_elapsed(time.monotonic() - self.started),
            self.running_text(),
        )
        return line

    def finish(self) -> None:
        """Leave the final status on its own line."""
        if self._live is not None:
            self._live.stop()
            self._live = None
            self._console = None
        self.note(self.status())

    def tick(self) -> None:
        """Redraw the progress (on a terminal)."""
        if not self.tty:
            return
        if self._live is None:
            self._console = Console(file=self.stream, force_terminal=True)
            self._live = Live(self._render(), console=self._console, auto_refresh=False)
            self._live.start()
        self._live.update(self._render(), refresh=True)


def describe_game(entry: GameEntry, seats: Sequence[Seat]) -> str:
    """One line: the result and every seat's power and centres, best first."""
    r = entry.record
    order = sorted(range(len(seats)), key=lambda i: (r.ranks[i], i))
    players = ", ".join(f"{seats[i].name} {r.powers[i]} {r.centres[i]}" for i in order)
    return f"{entry.result} at {entry.end} in {format_elapsed(entry.seconds)}: {players}"


@dataclass
class TournamentRun:
    """The outcome of (this run of) a tournament."""

    folder: Path
    settings: TournamentSettings
    games: int
    entries: dict[int, GameEntry]
    kept: int
    failures: dict[int, str]
    table: Standings | None


async def play_tournament(
    settings: TournamentSettings,
    folder: Path,
    games: int,
    *,
    parallel: int = 1,
    telemetry: str | None = None,
    stream: TextIO | None = None,
    bandana: BandanaInstall | None = None,
    albert: AlbertInstall | None = None,
) -> TournamentRun:
    """Play the games ``folder`` does not hold yet, ``parallel`` at a time; write the results.

    ``bandana`` is the folder of BANDANA's jars, for lineups with BANDANA's bots;
    ``albert`` Albert's install, for lineups with Albert.
    """
    import io

    display = TournamentDisplay(stream or io.StringIO(), games)
    entries = prepare(folder, settings, games)
    kept = len(entries)
    if kept:
        display.note(f"resuming: {kept} finished game(s) kept in {folder}")
    display.done = len([k for k in entries if k < games])
    failures: dict[int, str] = {}
    todo = [k for k in range(games) if k not in entries]
    gate = asyncio.Semaphore(max(1, parallel))

    async def one(index: int) -> None:
        async with gate:
            sink = _GameSink(index, display.note)
            display.running[index] = sink
            try:
                for attempt in range(1, START_ATTEMPTS + 1):
                    shutil.rmtree(game_folder(folder, index), ignore_errors=True)
                    outcome = await play_game(
                        settings.game_config(index, telemetry, bandana, albert),
                        game_folder(folder, index),
                        sink,
                        index=index,
                    )
                    if outcome.record is not None or attempt == START_ATTEMPTS:
                        break
                    display.note(
                        f"game {index + 1}: did not start ({'; '.join(outcome.problems)}); "
                        f"playing it again"
                    )
            except GameError as exc:
                failures[index] = str(exc)
                display.note(f"game {index + 1}: could not be played: {exc}")
                return
            finally:
                display.running.pop(index, None)
            if outcome.record is None or not outcome.ended_cleanly:
                failures[index] = "; ".join(outcome.problems) or "no result"
                display.note(f"game {index + 1}: did not end cleanly: {failures[index]}")
                return
            entry = GameEntry.from_outcome(index, outcome)
            write_json_object(game_folder(folder, index) / GAME_FILE, entry.to_dict())
            entries[index] = entry
            display.done += 1
            display.note(f"game {index + 1}/{games}: {describe_game(entry, settings.seats)}")
            write_results(folder, settings, list(entries.values()), games)

    async def ticker() -> None:
        while True:
            display.tick()
            await asyncio.sleep(0.5)

    tick_task = asyncio.create_task(ticker())
    try:
        await asyncio.gather(*(one(k) for k in todo))
    finally:
        tick_task.cancel()
        display.finish()
    table = write_results(folder, settings, [e for k, e in entries.items() if k < games], games)
    return TournamentRun(folder, settings, games, entries, kept, failures, table)


def run_tournament(
    settings: TournamentSettings,
    folder: Path,
    games: int,
    *,
    parallel: int = 1,
    telemetry: str | None = None,
    stream: TextIO | None = None,
    bandana: BandanaInstall | None = None,
    albert: AlbertInstall | None = None,
) -> TournamentRun:
    """Blocking :func:`play_tournament` (KeyboardInterrupt on Ctrl-C or SIGTERM, after clean-up)."""
    return run_until_done(
        play_tournament(
            settings,
            folder,
            games,
            parallel=parallel,
            telemetry=telemetry,
            stream=stream,
            bandana=bandana,
            albert=albert,
        )
    )
