"""How each player of recorded games played: its mixture over the behaviour library.

``python -m bot.local.styles FOLDER...`` reads game run folders (``daide-mcts
game``'s, or a tournament's ``games/game-NNN``; a tournament folder stands for
all its games), replays every movement phase from the server's ``ORD`` lines
in ``messages.daide``, and folds each power's orders into
:class:`~search.opponents.OpponentStats`, as a learning bot does during the
game.  It prints, per player label, the unit orders seen, the share of holds,
moves and supports, how DumbBot-like they were, and the mean of the fitted
mixtures over :func:`search.behaviour.library` at each game's end.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from bot.jsonfiles import UnreadableFile, read_json_object
from bot.local.record import received_texts
from bot.mirror import replay_mirror
from search.behaviour import LIBRARY_NAMES
from search.opponents import OpponentTracker

MESSAGES_FILE = "messages.daide"
SUMMARY_FILE = "summary.json"


class StylesError(Exception):
    """A folder that holds no recorded game."""


@dataclass
class LabelStyle:
    """What the players under one label did, summed over their games."""

    games: int = 0
    units: int = 0
    holds: int = 0
    moves: int = 0
    supports: int = 0
    likeness: float = 0.0
    mixture: list[float] = field(default_factory=lambda: [0.0] * len(LIBRARY_NAMES))

    def row(self, label: str) -> str:
        """One line of the report."""
        n = max(1, self.units)
        g = max(1, self.games)
        weights = " ".join(f"{w / g:5.2f}" for w in self.mixture)
        return (
            f"{label:<22} {self.games:>5} {self.units:>6} {self.holds / n:5.2f} "
            f"{self.moves / n:5.2f} {self.supports / n:5.2f} {self.likeness / g:8.2f}  {weights}"
        )


def game_folders(folders: Sequence[Path]) -> list[Path]:
    """The game folders named, a tournament folder standing for its finished games."""
    out: list[Path] = []
    for folder in folders:
        if (folder / MESSAGES_FILE).is_file():
            out.append(folder)
        elif (folder / "games").is_dir():
            out.extend(  # finished games: a running tournament can be read too
                p
                for p in sorted((folder / "games").iterdir())
                if (p / MESSAGES_FILE).is_file() and (p / SUMMARY_FILE).is_file()
            )
        else:
            raise StylesError(f"{folder} holds no {MESSAGES_FILE} and no games/ folder")
    return out


def _labels(folder: Path) -> dict[str, str]:
    """Power → the label of the player who had it, from the game's summary."""
    try:
        summary = read_json_object(folder / SUMMARY_FILE)
        return {str(p["power"]): str(p["label"]) for p in summary["players"] if p.get("power")}
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise StylesError(f"{folder / SUMMARY_FILE}: no players with their powers ({exc})") from exc


def styles(folders: Sequence[Path]) -> dict[str, LabelStyle]:
    """Every player label's :class:`LabelStyle` over the games in ``folders``."""
    out: dict[str, LabelStyle] = {}
    for folder in game_folders(folders):
        try:
            lines = list(received_texts(folder / MESSAGES_FILE))
        except UnreadableFile as exc:
            raise StylesError(str(exc)) from exc
        mirror = replay_mirror([lines])
        if mirror.game_map is None:
            raise StylesError(f"{folder / MESSAGES_FILE} records no map")
        stats = OpponentTracker().update(mirror.game_map, mirror.movements)
        if stats is None:
            continue
        labels = _labels(folder)
        for power, name in enumerate(mirror.game_map.powers):
            label = labels.get(name)
            profile = stats.powers[power]
            if label is None or not profile.units:
                continue
            style = out.setdefault(label, LabelStyle())
            style.games += 1
            style.units += profile.units
            style.holds += profile.holds
            style.moves += profile.moves
            style.supports += profile.supports
            style.likeness += stats.dumbbot_likeness(power)
            for i, w in enumerate(stats.mixture(power)):
                style.mixture[i] += w
    return out


def report(found: dict[str, LabelStyle]) -> str:
    """The table :func:`main` prints."""
    names = " ".join(f"{n[:5]:>5}" for n in LIBRARY_NAMES)
    head = (
        f"{'player':<22} {'games':>5} {'orders':>6} {'hold':>5} {'move':>5} {'supp':>5} "
        f"{'dumbbot?':>8}  {names}"
    )
    return "\n".join([head, *(found[label].row(label) for label in sorted(found))])


def main(argv: Sequence[str] | None = None) -> int:
    """Print the report for the folders on the command line."""
    parser = argparse.ArgumentParser(prog="python -m bot.local.styles", description=__doc__)
    parser.add_argument("folders", nargs="+", type=Path, help="game or tournament run folders")
    args = parser.parse_args(argv)
    try:
        print(report(styles(args.folders)))
    except StylesError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
