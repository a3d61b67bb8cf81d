"""Positions of a recorded game, on its own map: what benchmarks search from on a variant.

A run folder (``daide-mcts game --map world3``) records every message the server
sent; its ``MDF`` gives the map and each ``NOW`` with the ``SCO`` before it a
position.  :func:`recorded_positions` reads them back, so the search's speed can
be measured on any map Parlance serves.
"""

from __future__ import annotations

from pathlib import Path

from adjudicator.maps import GameMap
from adjudicator.position import Position
from adjudicator.rule_errors import AdjudicatorError
from bot.toolkit.jsonfiles import UnreadableFile
from bot.toolkit.messagelog import MESSAGES_FILE, RecordedText, received_texts
from protocol.messages import Mdf, Now, Sco
from protocol.notation import Centres
from protocol.values import Season

MID_GAME_YEARS = 3
"""The mid-game position is the spring this many years after the first."""


class RecordedGameError(ValueError):
    """A run folder whose record holds no map or no position; the message says why."""


def recorded_positions(folder: Path) -> dict[str, Position]:
    """The opening and a mid-game spring (the fourth year's, or the last) of ``folder``'s game.

    Keyed by a label naming the turn, e.g. ``start (SPR 1901)``; RecordedGameError
    if the record is missing, unreadable or holds no map and position.
    """
    path = folder / MESSAGES_FILE
    texts = RecordedText()
    game_map: GameMap | None = None
    centres: Centres | None = None
    springs: list[Position] = []
    try:
        for text in received_texts(path):
            message = texts.read(text)
            if isinstance(message, Mdf) and message.definition is not None and game_map is None:
                game_map = GameMap.from_definition(message.definition, folder.name)
            elif isinstance(message, Sco) and message.centres is not None:
                centres = message.centres
            elif isinstance(message, Now) and message.turn is not None:
                if game_map is None or centres is None or message.turn.season != Season.SPRING:
                    continue
                springs.append(Position.from_values(game_map, message.turn, message.units, centres))
    except (UnreadableFile, OSError) as exc:
        raise RecordedGameError(f"{folder}: {exc}") from None
    except AdjudicatorError as exc:
        raise RecordedGameError(f"{folder}: the record does not fit its map: {exc}") from None
    if not springs:
        raise RecordedGameError(f"{path} records no map and spring position of a game")
    start = springs[0]
    wanted = start.year + MID_GAME_YEARS
    mid = next((p for p in springs if p.year == wanted), springs[-1])
    return {f"start (SPR {start.year})": start, f"mid-game (SPR {mid.year})": mid}
