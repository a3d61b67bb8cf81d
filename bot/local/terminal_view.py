"""The live view of a running game: a redrawn block on a terminal, plain lines elsewhere.

On a terminal (:class:`TerminalView`, drawn by rich) the block shows the
phase, a progress bar through the years and, per power, its supply centres
and who plays it, redrawn in place.  When the output is a file or a pipe
(:class:`LineView`) one line is printed per phase, so logs stay readable.
"""

from __future__ import annotations

from typing import Protocol, TextIO

from rich.console import Console, Group
from rich.live import Live
from rich.progress_bar import ProgressBar
from rich.table import Table
from rich.text import Text

from bot.local.record import LiveState
from bot.view.colours import POWER_COLOURS

BAR_WIDTH = 30
REFRESH_PER_SECOND = 4


class View(Protocol):
    """Where a running game shows itself."""

    def note(self, text: str) -> None:
        """A one-off message (server started, fallback, game over...)."""

    def update(self, state: LiveState) -> None:
        """The game's state now (called often; draw only what changed)."""

    def close(self, state: LiveState | None) -> None:
        """The game is over: leave the last state on screen."""


def format_elapsed(seconds: float) -> str:
    """``m:ss``."""
    s = max(0, int(seconds))
    return f"{s // 60}:{s % 60:02d}"


def progress_bar(fraction: float, width: int = BAR_WIDTH) -> str:
    """``[#######---------]``."""
    filled = round(width * max(0.0, min(1.0, fraction)))
    return "[" + "#" * filled + "-" * (width - filled) + "]"


def status_line(state: LiveState) -> str:
    """The phase, the progress bar and the time so far, in one line."""
    turn = str(state.turn) if state.turn is not None else "waiting for players"
    if state.over:
        turn = f"{turn}  game over: {state.result or 'ended'}"
    return (
        f"{turn:<10}  {progress_bar(state.progress)} {state.progress * 100:3.0f}%"
        f"  {format_elapsed(state.elapsed)}"
    )


def power_lines(state: LiveState) -> list[str]:
    """One line per power: centres as a number and a bar, and its player."""
    lines = []
    for p in state.powers:
        bar = "#" * p.centres
        lines.append(f"  {p.power}  {p.centres:2d}  {bar:<18}  {p.player or '?'}")
    return lines


class TerminalView:
    """The game's block, redrawn in place on a terminal by rich: a live table, a progress bar."""

    def __init__(self, stream: TextIO) -> None:
        self.console = Console(file=stream, force_terminal=True, highlight=False)
        self._live: Live | None = None
        self._last: LiveState | None = None

    def _render(self, state: LiveState) -> Group:
        turn = str(state.turn) if state.turn is not None else "waiting for players"
        if state.over:
            turn = f"{turn}  game over: {state.result or 'ended'}"
        head = Table.grid(padding=(0, 2))
        head.add_row(
            Text(turn, style="bold"),
            ProgressBar(total=1.0, completed=state.progress, width=BAR_WIDTH),
            f"{state.progress * 100:3.0f}%",
            format_elapsed(state.elapsed),
        )
        table = Table(box=None, show_header=False, padding=(0, 1, 0, 2))
        for p in state.powers:
            colour = POWER_COLOURS.get(p.power, "white")
            table.add_row(
                Text(p.power, style=f"bold {colour}"),
                f"{p.centres:2d}",
                Text("█" * p.centres, style=colour),
                p.player or "?",
            )
        return Group(head, table)

    def note(self, text: str) -> None:
        """Print above the block (rich keeps the block below it)."""
        self.console.print(text, markup=False)

    def update(self, state: LiveState) -> None:
        """Redraw with the state now (rich refreshes a few times a second)."""
        self._last = state
        if self._live is None:
            self._live = Live(
                self._render(state), console=self.console, refresh_per_second=REFRESH_PER_SECOND
            )
            self._live.start()
        else:
            self._live.update(self._render(state))

    def close(self, state: LiveState | None) -> None:
        """Draw the final state and leave it."""
        if state is not None:
            self.update(state)
        if self._live is not None:
            self._live.stop()
            self._live = None


class LineView:
    """Prints one line per phase (and the notes): for files, pipes and CI logs."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self._turn: object = None
        self._over = False

    def note(self, text: str) -> None:
        """Print it."""
        self.stream.write(text + "\n")
        self.stream.flush()

    def update(self, state: LiveState) -> None:
        """A line when a new phase starts or the game ends."""
        if state.turn == self._turn and state.over == self._over:
            return
        self._turn, self._over = state.turn, state.over
        if state.turn is None and not state.over:
            return
        centres = " ".join(f"{p.power} {p.centres}" for p in state.powers)
        self.note(f"{status_line(state)}  {centres}")

    def close(self, state: LiveState | None) -> None:
        """Print the final state with the players."""
        if state is None:
            return
        self.update(state)
        for line in power_lines(state):
            self.note(line)


class QuietView:
    """Shows nothing (tournament games running side by side report through their own line)."""

    def note(self, text: str) -> None:
        """Nothing."""

    def update(self, state: LiveState) -> None:
        """Nothing."""

    def close(self, state: LiveState | None) -> None:
        """Nothing."""


def make_view(stream: TextIO) -> View:
    """A terminal view on a TTY, plain lines otherwise."""
    isatty = getattr(stream, "isatty", None)
    return TerminalView(stream) if callable(isatty) and isatty() else LineView(stream)
