"""What ``daide-mcts watch`` knows and shows: one row per bot, built from its events.

:class:`WatchState` takes MQTT messages (topic and payload) from under a
prefix, validates them against :mod:`bot.client.telemetry_events`, and keeps the
latest state of every bot of every game (a bot is one run, so a bot that
reconnects keeps its row).  :meth:`WatchState.table` renders the rows as a
compact text table (and :meth:`WatchState.cells` gives them to the command's
rich table on a terminal); :func:`describe` turns one event into one plain line.
No I/O here: the command feeds it and prints.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.client.telemetry_events import (
    BadEventError,
    Centres,
    Connected,
    Disconnected,
    Event,
    GameOver,
    Joined,
    OrderResult,
    OrdersSubmitted,
    PhaseStarted,
    SearchStats,
    parse_event,
)


@dataclass
class BotRow:
    """The latest known state of one bot (one run of ``daide-mcts play``)."""

    game: str
    run: str
    name: str
    power: str | None = None
    turn: str | None = None
    centres: int | None = None
    margin: float | None = None
    iterations: int | None = None
    status: str = "connected"
    events: int = 0
    last_seq: int = 0
    missed: int = 0
    dropped: int = 0
    over: bool = False


COLUMNS = ("GAME", "POWER", "NAME", "PHASE", "SC", "MARGIN", "ITER", "STATUS", "LOST")


class WatchState:
    """Every bot's row, updated by :meth:`apply`; counts of events, bad messages, game-overs."""

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix.rstrip("/")
        self.rows: dict[tuple[str, str], BotRow] = {}
        self.events = 0
        self.invalid = 0
        self.game_overs = 0
        self.last_problem: str | None = None

    def apply(self, topic: str, payload: bytes | str) -> Event | None:
        """Take one message; the event it held, or None (counted in ``invalid``) if not valid."""
        levels = topic[len(self.prefix) + 1 :].split("/") if topic.startswith(self.prefix) else []
        if len(levels) != 3:
            self._bad(f"topic {topic!r} is not {self.prefix}/<game>/<power>/<event>")
            return None
        try:
            event = parse_event(payload)
        except BadEventError as exc:
            self._bad(f"{topic}: {exc}")
            return None
        if levels[2] != event.event or levels[0] != event.game:
            self._bad(f"{topic}: payload is a {event.event} event of game {event.game}")
            return None
        self.events += 1
        self._update(event)
        return event

    def _bad(self, problem: str) -> None:
        self.invalid += 1
        self.last_problem = problem

    def _update(self, event: Event) -> None:
        key = (event.game, event.run)
        row = self.rows.get(key)
        if row is None:
            row = self.rows[key] = BotRow(event.game, event.run, event.name)
        row.events += 1
        if event.seq > row.last_seq:
            row.missed += max(0, event.seq - row.last_seq - 1)
            row.last_seq = event.seq
        row.dropped = max(row.dropped, event.dropped)
        if event.power:
            row.power = event.power
        if isinstance(event, Connected):
            row.status = "reconnected" if event.rejoin else "connected"
        elif isinstance(event, Joined):
            row.status = "joined"
        elif isinstance(event, PhaseStarted):
            row.turn = event.turn
            row.status = "playing"
        elif isinstance(event, OrdersSubmitted):
            if event.margin is not None:
                row.margin = event.margin
        elif isinstance(event, SearchStats):
            if event.iterations is not None:
                row.iterations = event.iterations
        elif isinstance(event, Centres):
            if row.power in event.counts:
                row.centres = event.counts[row.power]
        elif isinstance(event, Disconnected):
            row.status = "reconnecting"
        elif isinstance(event, GameOver):
            if not row.over:
                self.game_overs += 1
            row.over = True
            if event.centres is not None:
                row.centres = event.centres
            result = (event.result or "").split(" ")[0] or "ended"
            row.status = f"over: {result}" if event.ended_cleanly else "over: unclean"

    def sorted_rows(self) -> list[BotRow]:
        """The rows by game, then power (unassigned last), then name."""
        return sorted(
            self.rows.values(), key=lambda r: (r.game, r.power is None, r.power or "", r.name)
        )

    def cells(self) -> list[list[str]]:
        """The table's cells: one row per bot (sorted), each with one text per column."""
        return [
            [
                r.game,
                r.power or "-",
                r.name,
                r.turn or "-",
                "-" if r.centres is None else str(r.centres),
                "-" if r.margin is None else f"{r.margin:.2f}s",
                "-" if r.iterations is None else str(r.iterations),
                r.status,
                str(max(r.missed, r.dropped)),
            ]
            for r in self.sorted_rows()
        ]

    def footer(self) -> str:
        """The counts under the table."""
        games = len({r.game for r in self.rows.values()})
        return (
            f"{games} game(s), {len(self.rows)} bot(s), {self.events} events, "
            f"{self.game_overs} game-over(s), {self.invalid} invalid message(s)"
        )

    def table(self) -> str:
        """The rows as an aligned text table, with a footer of counts."""
        cells = [list(COLUMNS), *self.cells()]
        widths = [max(len(row[i]) for row in cells) for i in range(len(COLUMNS))]
        lines = [
            "  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip()
            for row in cells
        ]
        return "\n".join([*lines, self.footer()])


def describe(event: Event) -> str:
    """One plain line saying what ``event`` tells: ``game POWER name: what happened``."""
    head = f"{event.game} {event.power or '-'} {event.name}:"
    if isinstance(event, Connected):
        return f"{head} connected to {event.host}:{event.port}{' (rejoin)' if event.rejoin else ''}"
    if isinstance(event, Joined):
        limits = "/".join(
            "-" if t is None else str(t)
            for t in (event.move_time_limit, event.retreat_time_limit, event.build_time_limit)
        )
        return f"{head} joined ({event.map}, deadlines {limits} s)"
    if isinstance(event, PhaseStarted):
        due = "" if event.deadline_in is None else f", deadline in {event.deadline_in:.1f}s"
        return f"{head} {event.turn} {event.phase}{due}"
    if isinstance(event, OrdersSubmitted):
        margin = "" if event.margin is None else f", margin {event.margin:.2f}s"
        return f"{head} {event.turn or '-'} submitted {len(event.orders)} order(s){margin}"
    if isinstance(event, SearchStats):
        parts = ["final" if event.final else "improved"]
        if event.iterations is not None:
            parts.append(f"{event.iterations} iterations")
        if event.seconds is not None:
            parts.append(f"{event.seconds:.2f}s")
        return f"{head} {event.turn} search {', '.join(parts)}"
    if isinstance(event, OrderResult):
        return f"{head} {event.turn} {event.order}: {' '.join(event.result) or '-'}"
    if isinstance(event, Centres):
        counts = " ".join(f"{p} {n}" for p, n in sorted(event.counts.items()))
        return f"{head} centres {counts}"
    if isinstance(event, Disconnected):
        return f"{head} disconnected ({event.reason}); retry in {event.retry_in:.1f}s"
    if isinstance(event, GameOver):
        how = "cleanly" if event.ended_cleanly else "uncleanly"
        return (
            f"{head} game over {how}: {event.result or '-'}; centres {event.centres}; "
            f"missed deadlines {event.missed_deadlines}"
        )
    return f"{head} {event.event}"
