"""daide-mcts watch mqtt://host:port/prefix: the live state of every bot publishing there.

Subscribes to everything under the prefix and shows one row per bot of every
game: game, power, name, phase, supply centres, the margin of its last
submission, search iterations, status, and events lost.  On a terminal the
table is redrawn as events arrive; otherwise each event is printed as one
line (except the many order results; --json prints every event), and the
table once at the end.  Ctrl-C ends it; so do --exit-after N
(after N game_over events, one per bot) and --timeout.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sys
from typing import TextIO

import aiomqtt
from rich.console import Console, Group
from rich.live import Live
from rich.table import Table
from rich.text import Text

from bot.client.mqtt_publisher import MQTT_LOG
from bot.client.mqtt_url import MqttTarget, MqttUrlError, parse_mqtt_url
from bot.client.telemetry_events import OrderResult
from bot.telemetry.watch_view import COLUMNS, WatchState, describe
from bot.toolkit.usererror import UserError

REDRAW_INTERVAL = 0.25
"""Least seconds between two redraws of the table on a terminal."""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``watch`` subcommand."""
    p = subparsers.add_parser(
        "watch",
        help="show the live state of the bots publishing telemetry to an MQTT broker",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("url", help="mqtt://host[:port][/prefix], as given to the bots' --telemetry")
    p.add_argument(
        "--exit-after",
        type=int,
        metavar="N",
        help="exit (0) after N game_over events, i.e. when N bots have finished",
    )
    p.add_argument(
        "--timeout",
        type=float,
        metavar="SECONDS",
        help="exit after this long (1 if --exit-after's count was not reached)",
    )
    p.add_argument(
        "--json", action="store_true", help="print each valid event as one JSON line instead"
    )
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Watch until Ctrl-C, the game-over count, or the timeout."""
    try:
        target = parse_mqtt_url(args.url)
    except MqttUrlError as exc:
        raise UserError(str(exc)) from exc
    if args.exit_after is not None and args.exit_after < 1:
        raise UserError("--exit-after must be at least 1")
    if args.timeout is not None and args.timeout <= 0:
        raise UserError("--timeout must be positive")
    out = sys.stdout
    watcher = Watcher(target, out, tty=out.isatty() and not args.json, json_lines=args.json)
    try:
        code = asyncio.run(watcher.watch(args.exit_after, args.timeout))
    except KeyboardInterrupt:
        code = 0
    except BrokerUnreachableError as exc:
        raise UserError(str(exc)) from exc
    watcher.finish()
    return code


class BrokerUnreachableError(Exception):
    """The first connection to the broker failed."""


class Watcher:
    """Subscribes under ``target``'s prefix and keeps ``out`` showing the bots' state."""

    def __init__(
        self, target: MqttTarget, out: TextIO, *, tty: bool = False, json_lines: bool = False
    ) -> None:
        self.target = target
        self.out = out
        self.tty = tty
        self.json_lines = json_lines
        self.state = WatchState(target.prefix)
        self._dirty = False
        self._console = Console(file=out, force_terminal=True) if tty else None
        self._live: Live | None = None

    async def watch(self, exit_after: int | None, timeout: float | None) -> int:
        """Run until ``exit_after`` game-overs (0) or ``timeout`` (1 if a count was wanted)."""
        try:
            async with asyncio.timeout(timeout):
                await self._subscribe(exit_after)
        except TimeoutError:
            if exit_after is not None:
                print(
                    f"watch: timed out after {timeout:g}s with {self.state.game_overs} of "
                    f"{exit_after} game-overs",
                    file=sys.stderr,
                )
                return 1
        return 0

    async def _subscribe(self, exit_after: int | None) -> None:
        t = self.target
        connected_once = False
        delay = 0.2
        redraw = asyncio.create_task(self._redraw_loop()) if self.tty else None
        try:
            while True:
                try:
                    async with aiomqtt.Client(
                        t.host,
                        t.port,
                        username=t.username,
                        password=t.password,
                        logger=MQTT_LOG,
                        timeout=10,
                    ) as client:
                        await client.subscribe(f"{t.prefix}/#", qos=1)
                        self._note(
                            f"watch: {'resubscribed' if connected_once else 'subscribed'} "
                            f"to {t.prefix}/# at {t.host}:{t.port}"
                        )
                        connected_once = True
                        delay = 0.2
                        async for message in client.messages:
                            payload = message.payload
                            if not isinstance(payload, bytes | str):
                                payload = str(payload)
                            self._show(message.topic.value, payload)
                            if exit_after is not None and self.state.game_overs >= exit_after:
                                return
                except aiomqtt.MqttError as exc:
                    if not connected_once:
                        raise BrokerUnreachableError(
                            f"cannot subscribe at {t}: {exc or type(exc).__name__}"
                        ) from exc
                    self._note(f"watch: lost the broker ({exc}); reconnecting in {delay:.1f}s")
                    await asyncio.sleep(delay)
                    delay = min(delay * 2, 5.0)
        finally:
            if redraw is not None:
                redraw.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await redraw

    def _show(self, topic: str, payload: bytes | str) -> None:
        event = self.state.apply(topic, payload)
        if self.json_lines:
            if event is not None:
                self._print(event.model_dump_json())
        elif self.tty:
            self._dirty = True
        elif isinstance(event, OrderResult):
            pass  # 20-odd per phase and bot: too many for plain lines (--json shows them)
        elif event is not None:
            self._print(describe(event))
        else:
            self._print(f"invalid message: {self.state.last_problem}")

    async def _redraw_loop(self) -> None:
        self._draw()
        while True:
            await asyncio.sleep(REDRAW_INTERVAL)
            if self._dirty:
                self._draw()

    def _render(self) -> Group:
        table = Table(*COLUMNS, box=None, header_style="bold", pad_edge=False)
        for row in self.state.cells():
            table.add_row(*row)
        title = Text(f"daide-mcts watch {self.target}   (Ctrl-C to quit)", style="bold")
        return Group(title, Text(""), table, Text(self.state.footer()))

    def _draw(self) -> None:
        """Redraw the table in place (rich's live display) on a terminal."""
        self._dirty = False
        assert self._console is not None
        if self._live is None:
            self._live = Live(self._render(), console=self._console, auto_refresh=False)
            self._live.start()
        self._live.update(self._render(), refresh=True)

    def _note(self, text: str) -> None:
        if self.tty:
            self._dirty = True
        print(text, file=sys.stderr)

    def _print(self, text: str) -> None:
        with contextlib.suppress(BrokenPipeError):
            self.out.write(text + "\n")
            self.out.flush()

    def finish(self) -> None:
        """Show the final state: the table (redrawn on a terminal, printed once otherwise)."""
        if self.json_lines:
            return
        if self.tty:
            self._draw()
            assert self._live is not None
            self._live.stop()
            self._live = None
        else:
            self._print(self.state.table())
