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
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from bot.local.albert_seat import AlbertInstall
from bot.local.bandana import BandanaInstall
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
    failures: dict[int, str] = {}
    todo = [k for k in range(games) if k not in entries]
    gate = asyncio.Semaphore(max(1, parallel))

    async def one(index: int) -> None:
        async with gate:
            sink = GameSink(index, display.note)
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
