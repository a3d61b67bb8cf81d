"""A tournament's progress on the terminal: a live bar (rich), or a line per game."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TextIO

from rich.console import Console
from rich.live import Live
from rich.progress_bar import ProgressBar
from rich.table import Table

from bot.local.lineup import Seat
from bot.local.record import LiveState
from bot.local.terminal_view import BAR_WIDTH, format_elapsed, progress_bar
from bot.tournament.saved import GameEntry


class GameSink:
    """The view of one tournament game: keeps its latest state for the tournament's display."""

    def __init__(self, index: int, notes: Callable[[str], None]) -> None:
        self.index = index
        self.state: LiveState | None = None
        self._notes = notes

    def note(self, text: str) -> None:
        """A line about the game, numbered."""
        self._notes(f"game {self.index + 1}: {text}")

    def update(self, state: LiveState) -> None:
        """The game's latest state."""
        self.state = state

    def close(self, state: LiveState | None) -> None:
        """The game is over: its last state."""
        self.state = state


@dataclass
class TournamentDisplay:
    """Progress of a tournament: a live progress bar on a terminal (rich), else a line per game."""

    stream: TextIO
    games: int
    done: int = 0
    running: dict[int, GameSink] = field(default_factory=dict)
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
