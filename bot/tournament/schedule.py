"""Playing a tournament: many local games, ``parallel`` at once, resumable.

Running the same tournament folder again keeps the finished games, replays
unfinished ones and plays the rest.  A game that never started (a seat left
before it began, as BANDANA's bots sometimes do when the server is slow to
answer their ``NME``) is played once more at once.  ``parallel`` games run at
once, each on its own server and port.
"""

from __future__ import annotations

import asyncio
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from bot.local.albert_seat import AlbertInstall
from bot.local.bandana import BandanaInstall
from bot.local.outcome import GameOutcome
from bot.local.runner import GameError, play_game, run_until_done
from bot.measure.metrics import Standings
from bot.toolkit.jsonfiles import write_json_object
from bot.tournament.progress import GameSink, TournamentDisplay, describe_game
from bot.tournament.reports import write_results
from bot.tournament.saved import (
    GAME_FILE,
    START_ATTEMPTS,
    GameEntry,
    TournamentSettings,
    game_folder,
    prepare,
)


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
    todo = [k for k in range(games) if k not in entries]
    gate = asyncio.Semaphore(max(1, parallel))
    schedule = _Schedule(settings, folder, games, display, entries, telemetry, bandana, albert)

    async def ticker() -> None:
        while True:
            display.tick()
            await asyncio.sleep(0.5)

    tick_task = asyncio.create_task(ticker())
    try:
        await asyncio.gather(*(schedule.play(k, gate) for k in todo))
    finally:
        tick_task.cancel()
        display.finish()
    table = write_results(folder, settings, [e for k, e in entries.items() if k < games], games)
    return TournamentRun(folder, settings, games, entries, kept, schedule.failures, table)


@dataclass
class _Schedule:
    """The games of one run of a tournament, and what became of each."""

    settings: TournamentSettings
    folder: Path
    games: int
    display: TournamentDisplay
    entries: dict[int, GameEntry]
    """The finished games, this run's added as they end."""
    telemetry: str | None
    bandana: BandanaInstall | None
    albert: AlbertInstall | None
    failures: dict[int, str] = field(default_factory=dict)

    async def play(self, index: int, gate: asyncio.Semaphore) -> None:
        """Play game ``index`` once ``gate`` lets it; keep its entry, or note its failure."""
        async with gate:
            sink = GameSink(index, self.display.note)
            self.display.running[index] = sink
            try:
                outcome = await self._play_until_started(index, sink)
            except GameError as exc:
                self.failures[index] = str(exc)
                self.display.note(f"game {index + 1}: could not be played: {exc}")
                return
            finally:
                self.display.running.pop(index, None)
            self._keep(index, outcome)

    async def _play_until_started(self, index: int, sink: GameSink) -> GameOutcome:
        """Play game ``index``, again (up to ``START_ATTEMPTS`` times) while it does not start."""
        for attempt in range(1, START_ATTEMPTS + 1):
            shutil.rmtree(game_folder(self.folder, index), ignore_errors=True)
            outcome = await play_game(
                self.settings.game_config(index, self.telemetry, self.bandana, self.albert),
                game_folder(self.folder, index),
                sink,
                index=index,
            )
            if outcome.record is not None or attempt == START_ATTEMPTS:
                break
            self.display.note(
                f"game {index + 1}: did not start ({'; '.join(outcome.problems)}); playing it again"
            )
        return outcome

    def _keep(self, index: int, outcome: GameOutcome) -> None:
        """File a game that ended cleanly and write the results so far; else note why not."""
        if outcome.record is None or not outcome.ended_cleanly:
            self.failures[index] = "; ".join(outcome.problems) or "no result"
            self.display.note(f"game {index + 1}: did not end cleanly: {self.failures[index]}")
            return
        entry = GameEntry.from_outcome(index, outcome)
        write_json_object(game_folder(self.folder, index) / GAME_FILE, entry.to_dict())
        self.entries[index] = entry
        self.display.done += 1
        self.display.note(
            f"game {index + 1}/{self.games}: {describe_game(entry, self.settings.seats)}"
        )
        write_results(self.folder, self.settings, list(self.entries.values()), self.games)


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
