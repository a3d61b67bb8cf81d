"""A seat at a fixed board for the web app's tests: a real position, every request recorded.

It stands in for the client only where a request never reaches the server
(the checks of the web layer); the games on real servers use the real seat.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from adjudicator.position import Position
from bot.client.core.person import PersonChoices, legal_choices
from bot.human.api import SeatInfo
from protocol.press import Press
from protocol.tokens import STANDARD, TokenTable
from protocol.values import Order, Turn


@dataclass
class BoardSeat:
    """Plays ``power`` at ``position``; ``sent`` lists every action the page asked for."""

    position: Position | None
    power: str = "FRA"
    sent: list[tuple[str, Any]] = field(default_factory=list)
    level: int = 10
    powers: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.position is not None:
            self.powers = self.position.map.powers

    def current(self) -> PersonChoices | None:
        return None if self.position is None else legal_choices(self.position, self.power)

    def seconds_left(self) -> float | None:
        return 60.0

    def info(self) -> SeatInfo:
        return SeatInfo(power=self.power, name="tester", server="board")

    def submit(self, turn: Turn, orders: list[Order]) -> None:
        self.sent.append(("submit", (turn, orders)))

    def ready(self, turn: Turn, ready: bool) -> None:
        self.sent.append(("ready", (turn, ready)))

    def draw(self) -> None:
        self.sent.append(("draw", None))

    def hint(self, turn: Turn, seconds: float) -> None:
        self.sent.append(("hint", (turn, seconds)))

    def press_level(self) -> int:
        return self.level

    def press_table(self) -> TokenTable:
        return STANDARD

    def press_powers(self) -> tuple[str, ...]:
        return self.powers

    def press_power(self) -> str | None:
        return self.power

    def send_press(self, recipients: tuple[str, ...], press: Press) -> None:
        self.sent.append(("press", (recipients, press)))
