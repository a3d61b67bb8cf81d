"""A person's seat: the DAIDE client with the person choosing, and the page, in one event loop.

:class:`PersonSeat` joins a game with :class:`~bot.client.shell.DaideClient` (the same
core as the bot: handshake, HLO, rejoining with IAM, every rule about hostile
input) set to let a person choose (``chooser="person"``), and serves the
person's page (:mod:`bot.human.webapp`) on 127.0.0.1 with uvicorn in the same
asyncio loop, so the page's handlers read the core's state and feed it
events directly.  The page's address (with its secret) is announced once
the page is listening; the seat plays on whether a page is open or not.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import uvicorn

from bot.client.core import events as ev
from bot.client.core import notes
from bot.client.core.person import PersonChoices
from bot.client.settings import BotSettings
from bot.client.shell import DaideClient, GameSummary
from bot.human.api import Limits, SeatInfo
from bot.human.coaching import SeatCoach
from bot.human.desk import SeatDesk
from bot.human.press_panel import PressLog, PressPanel
from bot.human.ranked_hint import ranked_from_note
from bot.human.seatrecord import SeatRecord
from bot.human.webapp import SeatApp, new_secret
from bot.toolkit.order_words import format_order_text
from protocol.daide_errors import ProtocolError
from protocol.messages import Mis, parse_text
from protocol.notation import parse_order
from protocol.press import Press
from protocol.tokens import TokenTable
from protocol.values import Order, Turn

LOOPBACK = "127.0.0.1"
ACCEPTED = "MBV"
"""THX's note for an order the server accepted."""
BACKLOG = 64
GRACEFUL_SHUTDOWN = 1
"""Seconds open requests get when the page's server stops."""


@dataclass(frozen=True, slots=True)
class SeatAddress:
    """Where a seat's page is: its port and secret, and the address to open."""

    port: int
    secret: str

    @property
    def url(self) -> str:
        """The page's address, secret included."""
        return f"http://{LOOPBACK}:{self.port}/?key={self.secret}"


class PersonSeat:
    """The seat: the client (``chooser="person"``), its desk, and the page's control of it."""

    def __init__(
        self,
        settings: BotSettings,
        http_port: int = 0,
        record: Path | None = None,
        last_year: int | None = None,
    ) -> None:
        """``last_year`` is the game's last year when the seat knows it and offers no draw."""
        year = settings.final_year if settings.final_year is not None else last_year
        self.record = None if record is None else SeatRecord(record, settings.name, year)
        self.client = DaideClient(settings.model_copy(update={"chooser": "person"}))
        self.desk = SeatDesk()
        self.press_log = PressLog()
        self.coach = SeatCoach(lambda: self.client.core.power, year)
        self.client.stream.listeners.append(self._on_note)
        self._socket = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._socket.bind((LOOPBACK, http_port))
        self._socket.listen(BACKLOG)
        self.address = SeatAddress(int(self._socket.getsockname()[1]), new_secret())
        self.web = SeatApp(
            self,
            self.desk,
            self.address.secret,
            LOOPBACK,
            self.address.port,
            coach=self.coach,
            press=PressPanel(self, self.press_log),
        )
        self._server: uvicorn.Server | None = None

    # --- what the page asks (SeatControl) -------------------------------------------------

    def current(self) -> PersonChoices | None:
        """The phase being played as the seat's legal orders in it; None before the game or after.

        The core's :meth:`~bot.client.core.person.PhaseInPlay.choices`: the page's menus,
        its checks and the core's are one list.
        """
        core = self.client.core
        phase = core.phase_in_play()
        if phase is None or phase.power is None or core.game_over:
            return None
        return phase.choices()

    def seconds_left(self) -> float | None:
        """Seconds to the deadline as the core reckons it."""
        phase = self.client.core.phase_in_play()
        return None if phase is None else phase.seconds_left(time.monotonic())

    def info(self) -> SeatInfo:
        """The power, the server, the time limits, the result."""
        core = self.client.core
        hlo = core.hlo
        s = self.client.settings
        return SeatInfo(
            power=core.power,
            name=s.name,
            server=f"{s.host}:{s.port}",
            joined=core.joined,
            over=core.game_over,
            result=core.result,
            limits=None
            if hlo is None
            else Limits(
                move=hlo.variant.move_time_limit,
                retreat=hlo.variant.retreat_time_limit,
                build=hlo.variant.build_time_limit,
            ),
        )

    def submit(self, turn: Turn, orders: list[Order]) -> None:
        """Send the person's set for ``turn`` (the core sends one SUB)."""
        self.client.feed_later(ev.PersonOrders(time.monotonic(), turn, tuple(orders)))

    def ready(self, turn: Turn, ready: bool) -> None:
        """GOF or NOT (GOF) for ``turn``."""
        self.client.feed_later(ev.PersonReady(time.monotonic(), turn, ready))

    def draw(self) -> None:
        """Propose a draw."""
        self.client.feed_later(ev.PersonDraw(time.monotonic()))

    def hint(self, turn: Turn, seconds: float) -> None:
        """Ask the search for its orders in ``turn``."""
        self.client.feed_later(ev.HintRequested(time.monotonic(), turn, seconds))

    # --- the press panel (PressControl) -----------------------------------------------------

    def press_level(self) -> int:
        """The game's press level (HLO's LVL; 0 before it)."""
        return self.client.core.press_level

    def press_table(self) -> TokenTable:
        """The game's token table."""
        return self.client.core.table

    def press_powers(self) -> tuple[str, ...]:
        """The game's powers, from the map of the phase in play (none before the first)."""
        phase = self.client.core.phase_in_play()
        return () if phase is None else phase.position.map.powers

    def press_power(self) -> str | None:
        """The seat's power."""
        return self.client.core.power

    def send_press(self, recipients: tuple[str, ...], press: Press) -> None:
        """Send the person's press (the core checks it and notes it sent or refused)."""
        self.client.feed_later(ev.PersonPress(time.monotonic(), recipients, press))

    # --- what the core notes ----------------------------------------------------------------

    def _turn(self) -> Turn | None:
        phase = self.client.core.phase_in_play()
        return None if phase is None else phase.turn

    def _on_note(self, note: notes.Note) -> None:
        core = self.client.core
        self.press_log.noted(note, core.table, core.press_level, self._turn())
        match note:
            case notes.MessageIn(text=text):
                message = None
                with contextlib.suppress(ProtocolError, ValueError):
                    message = parse_text(text, self.client.core.table)
                if self.record is not None:
                    self.record.heard(text)
                self.desk.heard(message, text)
                self.coach.heard(text)
                if isinstance(message, Mis):
                    self.desk.lacking(self._turn(), text)
            case notes.OrderAccepted(order=order):
                self.desk.answered(self._turn(), format_order_text(order), ACCEPTED)
            case notes.OrderRefused(order=order, note=answer):
                self.desk.answered(self._turn(), format_order_text(order), answer)
            case notes.PersonOrdersRefused(turn=turn, reason=reason):
                self.desk.refused(turn, reason)
            case notes.HintReady(turn=turn, orders=orders, sets=sets, spread=spread):
                table = self.client.core.table
                ranked = ranked_from_note(sets, spread, lambda o: _usual(o, table))
                self.desk.hinted(turn, [_usual(o, table) for o in orders], ranked=ranked)
            case notes.HintFailed(turn=turn, error=error):
                self.desk.hinted(turn, None, error)
        # The core's own state (the phase, the game's end) may have moved with the note.
        self.web.changed()

    # --- running ----------------------------------------------------------------------------

    async def run(
        self,
        announce: Callable[[SeatAddress], None],
        ended: Callable[[GameSummary], None] | None = None,
        stay: bool = False,
    ) -> GameSummary:
        """Serve the page and play the game; ``ended`` hears its summary as it ends.

        With ``stay`` the page is served on after the game (it shows the
        result) until the task is cancelled.
        """
        config = uvicorn.Config(
            self.web.app,
            log_level="warning",
            lifespan="off",
            timeout_graceful_shutdown=GRACEFUL_SHUTDOWN,
        )
        self._server = uvicorn.Server(config)
        serving = asyncio.create_task(self._server.serve(sockets=[self._socket]))
        while not self._server.started and not serving.done():
            await asyncio.sleep(0.01)
        if serving.done():
            serving.result()  # the page could not be served: say why
        announce(self.address)
        try:
            summary = await self.client.run()
            if ended is not None:
                ended(summary)
            if stay:
                await serving
            return summary
        finally:
            self.coach.close()
            if self.record is not None:
                self.record.close()
            self._server.should_exit = True
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(serving, GRACEFUL_SHUTDOWN + 2)


def _usual(text: str, table: TokenTable) -> str:
    """A hint's order (DAIDE text) in the usual notation; kept as given if it does not parse."""
    try:
        return format_order_text(parse_order(text, table))
    except (ProtocolError, ValueError):
        return text
