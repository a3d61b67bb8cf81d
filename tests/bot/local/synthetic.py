"""Synthetic tournament folders: finished games written as ``tournament`` writes them."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from bot.local.launch import Deadlines
from bot.local.lineup import parse_lineup
from bot.measure.metrics import GameRecord
from bot.tournament.saved import GAME_FILE, GameEntry, TournamentSettings, game_folder, prepare

POWERS = ("AUS", "ENG", "FRA", "GER", "ITA", "RUS", "TUR")
FINAL_YEAR = 1903


def write_tournament(
    folder: Path,
    lineup: str,
    fill: str,
    seed: int | None,
    games: Sequence[tuple[Sequence[str], Sequence[int]]],
    powers: str = "random",
) -> TournamentSettings:
    """A tournament folder whose game ``k`` gave the seats ``games[k]``'s powers and centres."""
    settings = TournamentSettings(
        parse_lineup(lineup, fill), FINAL_YEAR, Deadlines(2, 1, 1), seed=seed, powers=powers
    )
    prepare(folder, settings, len(games))
    for index, (dealt, centres) in enumerate(games):
        record = GameRecord.scored(
            index=index,
            powers=dealt,
            years=(1900, FINAL_YEAR),
            curve=((3,) * len(centres), tuple(centres)),
            centres=centres,
            eliminated=[FINAL_YEAR if c == 0 else None for c in centres],
            solo=None,
            end=f"WIN {FINAL_YEAR}",
            seconds=10.0,
        )
        entry = GameEntry(index, record, {}, "DRW", f"WIN {FINAL_YEAR}", "synthetic", 10.0)
        game_folder(folder, index).mkdir(parents=True)
        (game_folder(folder, index) / GAME_FILE).write_text(json.dumps(entry.to_dict()))
    return settings
