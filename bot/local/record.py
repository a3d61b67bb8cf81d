"""The record of one server game as it happens: every message, the SCO of each year, the result.

:class:`GameRecorder` hears the public messages (from the observer, or from
one of our bots' game records when the server takes no observer), learns who
plays which power (our bots' HLO, Parlance's answer to ``Server: powers``,
and finally the SMR), and turns the finished game into a
:class:`bot.measure.metrics.GameRecord` scored as the thesis scores games.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from bot.local.lineup import Seat
from bot.measure.metrics import GameRecord
from bot.toolkit.messagelog import player_from_admin
from protocol.messages import Adm, Drw, Message, Now, Sco, Slo, Smr
from protocol.values import UNOWNED, Season, Turn

FIRST_YEAR = 1901
"""The first year of a standard game (a variant's is its own)."""

SEASON_INDEX = {s: i for i, s in enumerate(Season)}

_PLAYER_COUNT = re.compile(r"\bHave (\d+) players?\b")
"""Parlance's admin messages on every join and leave: "... has connected. Have 5 players and"."""


MessageListener = Callable[[str, str, str, Message | None], None]
"""Hears ``(source, direction, text, parsed message or None)`` for every message recorded."""


@dataclass(frozen=True)
class PowerState:
    """One power as the live view shows it."""

    power: str
    centres: int
    player: str | None


@dataclass(frozen=True)
class LiveState:
    """What the live view shows: the phase, the progress, and each power's centres and player."""

    turn: Turn | None
    progress: float
    powers: tuple[PowerState, ...]
    result: str | None
    over: bool
    elapsed: float


@dataclass
class GameRecorder:
    """Collects one game's record; ``messages_path`` (if given) receives every message as it comes.

    ``seats`` is the lineup, ``final_year`` the year whose winter ends the game,
    ``first_year`` the map's first.
    """

    seats: Sequence[Seat]
    final_year: int
    messages_path: Path | None = None
    listener: MessageListener | None = None
    first_year: int = FIRST_YEAR
    turn: Turn | None = None
    centres: dict[str, tuple[str, ...]] = field(default_factory=dict)
    sco_by_year: dict[int, dict[str, tuple[str, ...]]] = field(default_factory=dict)
    sco_text_by_year: dict[int, str] = field(default_factory=dict)
    bot_powers: dict[str, str] = field(default_factory=dict)
    names_by_power: dict[str, str] = field(default_factory=dict)
    smr: Smr | None = None
    result: str | None = None
    solo_power: str | None = None
    phases: int = 0
    messages: int = 0
    players_connected: int = 0
    """How many players the server last said it had (Parlance's admin messages)."""
    started: float = field(default_factory=time.monotonic)
    game_started: float | None = None
    ended: float | None = None
    _file: IO[str] | None = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        if self.messages_path is not None:
            self.messages_path.parent.mkdir(parents=True, exist_ok=True)
            self._file = open(self.messages_path, "a", encoding="utf-8")  # noqa: SIM115

    # --- hearing the game -----------------------------------------------------------------

    def on_message(self, source: str, direction: str, text: str, message: Message | None) -> None:
        """One DAIDE message in or out of ``source`` (``observer`` or a bot's name)."""
        self.messages += 1
        if self._file is not None:
            self._file.write(f"{time.time():.3f} {source} {direction} {text}\n")
            self._file.flush()
        if self.listener is not None:
            self.listener(source, direction, text, message)
        if direction != "in" or message is None:
            return
        if isinstance(message, Now) and message.turn is not None:
            if message.turn != self.turn:
                self.phases += 1
            self.turn = message.turn
            if self.game_started is None:
                self.game_started = time.monotonic()
        elif isinstance(message, Sco) and message.centres is not None:
            self._on_sco(message, text)
        elif isinstance(message, Drw):
            self.result = text
        elif isinstance(message, Slo):
            self.result = text
            self.solo_power = message.power
        elif isinstance(message, Smr):
            self.smr = message
            for player in message.players:
                self.names_by_power[player.power] = player.name
            self._end()
        elif isinstance(message, Adm):
            found = player_from_admin(message.text)
            if found is not None:
                self.names_by_power.setdefault(*found)
            count = _PLAYER_COUNT.search(message.text)
            if count is not None:
                self.players_connected = int(count.group(1))

    def _on_sco(self, message: Sco, text: str) -> None:
        assert message.centres is not None
        owned = {power: tuple(cs) for power, cs in message.centres if power != UNOWNED}
        for power in self.centres:
            owned.setdefault(power, ())
        self.centres = owned
        if self.turn is None:
            year = self.first_year - 1
        elif self.turn.season in (Season.SPRING, Season.SUMMER):
            year = self.turn.year - 1
        else:
            year = self.turn.year
        self.sco_by_year[year] = dict(owned)
        self.sco_text_by_year[year] = text

    def on_bot_power(self, seat_name: str, power: str) -> None:
        """A bot of ours said (in its game record) which power it plays."""
        self.bot_powers[seat_name] = power

    def close(self) -> None:
        """Stop writing messages (the game is over or abandoned)."""
        if self.ended is None:
            self.ended = time.monotonic()
        if self._file is not None:
            self._file.close()
            self._file = None

    def _end(self) -> None:
        if self.ended is None:
            self.ended = time.monotonic()

    # --- what it knows ----------------------------------------------------------------------

    @property
    def over(self) -> bool:
        """True once the server has summed the game up (SMR)."""
        return self.smr is not None

    @property
    def powers(self) -> list[str]:
        """The powers of the game, as the SCO lists them."""
        return sorted(self.centres)

    def progress(self) -> float:
        """How far the game is through its years, 0 to 1."""
        if self.over:
            return 1.0
        if self.turn is None:
            return 0.0
        phases = (self.final_year - self.first_year + 1) * len(SEASON_INDEX) - 1
        years = self.turn.year - self.first_year
        done = years * len(SEASON_INDEX) + SEASON_INDEX[self.turn.season]
        return max(0.0, min(1.0, done / max(1, phases)))

    def assignment(self) -> tuple[dict[str, str], str]:
        """Seat name → power for every seat known so far, and how it was found.

        Our bots say so themselves (or the server reports their name); the
        others are matched by the name the server reports for a power, and
        when that fails, in lineup order once only their powers are left.
        """
        found = {name: power for name, power in self.bot_powers.items()}
        taken = set(found.values())
        how = "reported by the bots"
        for seat in self.seats:
            if seat.name in found:
                continue
            for power, name in sorted(self.names_by_power.items()):
                if power in taken:
                    continue
                # Parang's bots name themselves after their script: DumbBot, EvilBot...
                if name == seat.name or (seat.kind == "parang" and name.lower() == seat.spec):
                    found[seat.name] = power
                    taken.add(power)
                    how = "reported by the bots and matched by name"
                    break
        # Our bots always name themselves; only the others may be matched by elimination.
        rest_seats = [s.name for s in self.seats if s.name not in found and s.kind != "ours"]
        rest_powers = [p for p in self.powers if p not in taken]
        if rest_seats and len(rest_seats) == len(rest_powers):
            found.update(zip(rest_seats, rest_powers, strict=True))
            how = "matched by name, the rest in lineup order"
        return found, how

    def snapshot(self) -> LiveState:
        """The live view's state now."""
        players = {power: name for name, power in self.assignment()[0].items()}
        powers = tuple(
            PowerState(p, len(self.centres.get(p, ())), players.get(p)) for p in self.powers
        )
        end = self.ended if self.ended is not None else time.monotonic()
        return LiveState(
            turn=self.turn,
            progress=self.progress(),
            powers=powers,
            result=self.result,
            over=self.over,
            elapsed=end - self.started,
        )

    # --- the finished game ----------------------------------------------------------------

    def end_turn(self) -> str:
        """The turn the game ended at (SMR's, else the last NOW's)."""
        if self.smr is not None and self.smr.turn is not None:
            return str(self.smr.turn)
        return str(self.turn) if self.turn is not None else "not started"

    def game_record(self, index: int = 0) -> GameRecord:
        """The game scored seat by seat; ValueError if it never got going or seats are unknown."""
        if not self.sco_by_year:
            raise ValueError("no supply-centre ownership was ever reported: the game did not start")
        seat_power, _ = self.assignment()
        missing = [s.name for s in self.seats if s.name not in seat_power]
        if missing:
            raise ValueError(f"cannot tell which power {', '.join(missing)} played")
        powers = [seat_power[s.name] for s in self.seats]
        years = sorted(self.sco_by_year)
        curve = [[len(self.sco_by_year[y].get(p, ())) for p in powers] for y in years]
        final = list(curve[-1])
        eliminated: list[int | None] = [None] * len(powers)
        for k in range(len(powers)):
            for year, row in zip(years, curve, strict=True):
                if row[k] == 0:
                    eliminated[k] = year
                    break
        if self.smr is not None:
            by_power = {p.power: p for p in self.smr.players}
            for k, power in enumerate(powers):
                summary = by_power.get(power)
                if summary is not None:
                    final[k] = summary.centres
                    if summary.eliminated is not None:
                        eliminated[k] = summary.eliminated
        solo = powers.index(self.solo_power) if self.solo_power in powers else None
        start = self.game_started or self.started
        seconds = (self.ended or time.monotonic()) - start
        return GameRecord.scored(
            index=index,
            powers=powers,
            years=years,
            curve=curve,
            centres=final,
            eliminated=eliminated,
            solo=solo,
            end=self.end_turn(),
            seconds=round(seconds, 3),
        )

    def sco_lines(self) -> list[str]:
        """``<year> <SCO text>`` for each year (the opening's year is the one before the first)."""
        return [f"{year} {self.sco_text_by_year[year]}" for year in sorted(self.sco_text_by_year)]
