"""Live telemetry: the bot's events published to an MQTT broker, never at the game's expense.

The client calls ``telemetry.emit(PhaseStarted, turn=..., ...)`` at each event
point.  With telemetry off that is :class:`Telemetry`, which does nothing.
With ``--telemetry mqtt://host:port/prefix`` it is :class:`MqttTelemetry`:

* :meth:`~MqttTelemetry.emit` builds the event (the schemas are in
  :mod:`bot.client.telemetry_events`), appends it to a bounded queue and returns at
  once.  It never raises and never waits: when the queue is full the oldest
  event is dropped and counted (``dropped``, also in every later event);
* one background task publishes the queue in order (QoS 1), reconnecting with
  exponential backoff when the broker is unreachable or lost; an event whose
  publication failed goes back to the front of the queue;
* :meth:`~MqttTelemetry.close`, at the end of the game, gives the queue at most
  ``flush_timeout`` seconds to drain (one last reconnection included), then
  stops; what is left is counted as ``undelivered``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections import deque
from collections.abc import Callable
from typing import Any

import aiomqtt
import structlog

from bot.client.mqtt_url import MqttTarget, topic_level
from bot.client.telemetry_events import UNASSIGNED, Event

DEFAULT_QUEUE = 1000
"""Events kept while the broker is slow or away (a bot sends about 70 per game year)."""

log = structlog.get_logger("daide-mcts.telemetry")

MQTT_LOG = logging.getLogger("daide-mcts.mqtt")
"""The MQTT library's own logger: silenced, since we report connection problems ourselves."""
MQTT_LOG.addHandler(logging.NullHandler())
MQTT_LOG.propagate = False


class Telemetry:
    """Telemetry that is off: every call does nothing.  :class:`MqttTelemetry` publishes."""

    enabled = False

    def start(self) -> None:
        """Begin publishing (in the running event loop)."""

    def emit(self, kind: type[Event], **fields: Any) -> None:
        """Record one event of type ``kind`` with ``fields`` (the envelope is filled in)."""

    async def close(self) -> None:
        """Deliver what is still queued, within a short time limit, and stop."""

    def stats(self) -> dict[str, Any]:
        """Counters for the game log."""
        return {"enabled": False}


class MqttTelemetry(Telemetry):
    """Publishes events to ``target``'s broker under ``prefix/<game>/<power>/<event>``.

    ``power_of`` returns the bot's power once known (None before HLO).
    """

    enabled = True

    def __init__(
        self,
        target: MqttTarget,
        *,
        game: str,
        name: str,
        power_of: Callable[[], str | None] = lambda: None,
        maxsize: int = DEFAULT_QUEUE,
        flush_timeout: float = 2.0,
        publish_timeout: float = 5.0,
        backoff: tuple[float, float] = (0.2, 5.0),
    ) -> None:
        if maxsize < 1:
            raise ValueError("the telemetry queue must hold at least one event")
        self.target = target
        self.game = topic_level(game)
        self.name = name
        self.run = secrets.token_hex(6)
        self.power_of = power_of
        self.maxsize = maxsize
        self.flush_timeout = flush_timeout
        self.publish_timeout = publish_timeout
        self.backoff = backoff
        self.emitted = 0
        self.published = 0
        self.dropped = 0
        self.invalid = 0
        self.undelivered = 0
        self.connections = 0
        self.connected = False
        self._seq = 0
        self._queue: deque[tuple[str, Event]] = deque()
        self._wake = asyncio.Event()
        self._closing = False
        self._task: asyncio.Task[None] | None = None
        self._failing = False

    # --- the client's side: never blocks, never raises ----------------------------------------

    def start(self) -> None:
        """Start the publishing task in the running event loop (once)."""
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(
                self._publish_loop(), name="telemetry"
            )

    def emit(self, kind: type[Event], **fields: Any) -> None:
        """Queue one event; on a full queue drop the oldest.  Returns at once and never raises."""
        try:
            power = self.power_of()
            level = power or UNASSIGNED
            event = kind(
                **{
                    **fields,
                    "game": self.game,
                    "power": power,
                    "name": self.name,
                    "run": self.run,
                    "seq": self._seq + 1,
                    "time": time.time(),
                    "dropped": self.dropped,
                }
            )
            topic = f"{self.target.prefix}/{self.game}/{topic_level(level)}/{event.event}"
        except Exception as exc:
            self.invalid += 1
            log.error("telemetry event not built", kind=getattr(kind, "__name__", kind), error=exc)
            return
        self._seq += 1
        self.emitted += 1
        if len(self._queue) >= self.maxsize:
            self._queue.popleft()
            self.dropped += 1
        self._queue.append((topic, event))
        self._wake.set()

    def stats(self) -> dict[str, Any]:
        """Counters for the game log: emitted, published, dropped, undelivered..."""
        return {
            "enabled": True,
            "target": str(self.target),
            "game": self.game,
            "run": self.run,
            "emitted": self.emitted,
            "published": self.published,
            "dropped": self.dropped,
            "invalid": self.invalid,
            "undelivered": self.undelivered,
            "queued": len(self._queue),
            "connections": self.connections,
        }

    async def close(self) -> None:
        """Give the queue ``flush_timeout`` seconds to drain, then stop publishing."""
        self._closing = True
        self._wake.set()
        task = self._task
        if task is not None and not task.done():
            await asyncio.wait({task}, timeout=self.flush_timeout)
            if not task.done():
                task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self.undelivered = len(self._queue)

    # --- the publishing task ------------------------------------------------------------------

    async def _publish_loop(self) -> None:
        """Connect, publish the queue, and on any failure reconnect after a growing pause."""
        delay = self.backoff[0]
        while not (self._closing and not self._queue):
            try:
                async with self._mqtt_client() as client:
                    self.connections += 1
                    self.connected = True
                    delay = self.backoff[0]
                    if self._failing:
                        log.info("telemetry broker reachable again", target=str(self.target))
                    self._failing = False
                    await self._drain_while_connected(client)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # whatever the broker or the network does, keep the game going
                self._note_failure(exc, delay)
            finally:
                self.connected = False
            if self._closing and not self._queue:
                return
            if self._closing:
                await asyncio.sleep(self.backoff[0])  # close() bounds these last attempts
            else:
                with contextlib.suppress(TimeoutError):
                    # close() wakes us at once for one last attempt.
                    async with asyncio.timeout(delay):
                        await self._wait_for_close()
                delay = min(delay * 2, self.backoff[1])

    def _mqtt_client(self) -> aiomqtt.Client:
        t = self.target
        return aiomqtt.Client(
            t.host,
            t.port,
            username=t.username,
            password=t.password,
            identifier=f"daide-mcts-{self.run}",
            logger=MQTT_LOG,
            keepalive=15,
            timeout=self.publish_timeout,
        )

    async def _drain_while_connected(self, client: aiomqtt.Client) -> None:
        """Drain the queue; raise MqttError as soon as the connection drops.

        aiomqtt's message iterator raises when the connection is lost, so
        iterating over it (we subscribe to nothing) notices a lost broker at
        once, even while a publication waits for its acknowledgement.
        """

        async def until_disconnected() -> None:
            async for _message in client.messages:
                pass

        drain = asyncio.create_task(self._drain(client))
        watchdog = asyncio.create_task(until_disconnected())
        try:
            done, _pending = await asyncio.wait(
                {drain, watchdog}, return_when=asyncio.FIRST_COMPLETED
            )
        finally:
            for task in (drain, watchdog):
                task.cancel()
            await asyncio.gather(drain, watchdog, return_exceptions=True)
        for task in done:
            task.result()  # the watchdog's MqttError, or the drain's

    async def _drain(self, client: aiomqtt.Client) -> None:
        """Publish queued events in order until the queue is empty and we are closing."""
        while True:
            while not self._queue:
                if self._closing:
                    return
                self._wake.clear()
                await self._wake.wait()
            topic, event = self._queue.popleft()
            payload = event.model_copy(update={"dropped": self.dropped}).model_dump_json()
            try:
                await client.publish(topic, payload, qos=1, timeout=self.publish_timeout)
            except BaseException:
                self._requeue(topic, event)
                raise
            self.published += 1

    def _requeue(self, topic: str, event: Event) -> None:
        if len(self._queue) >= self.maxsize:
            self.dropped += 1
        else:
            self._queue.appendleft((topic, event))

    async def _wait_for_close(self) -> None:
        while not self._closing:
            self._wake.clear()
            await self._wake.wait()

    def _note_failure(self, exc: Exception, retry_in: float) -> None:
        if not self._failing:
            log.warning(
                "telemetry broker unreachable; events are queued meanwhile",
                target=str(self.target),
                error=str(exc) or type(exc).__name__,
                retry_in=retry_in,
            )
        else:
            log.debug("telemetry broker still unreachable", error=str(exc), retry_in=retry_in)
        self._failing = True


def search_fields(stats: dict[str, Any]) -> dict[str, Any]:
    """A search's statistics as :class:`~bot.client.telemetry_events.SearchStats` fields.

    ``strategy``, ``iterations`` and ``seconds`` get their own fields when present;
    the rest goes under ``stats``, values that are not JSON scalars as text.
    """
    fields: dict[str, Any] = {}
    rest: dict[str, Any] = {}
    for key, value in stats.items():
        if (
            (key == "strategy" and isinstance(value, str))
            or (key == "iterations" and isinstance(value, int) and not isinstance(value, bool))
            or (key == "seconds" and isinstance(value, int | float) and not isinstance(value, bool))
        ):
            fields[key] = value
        elif value is None or isinstance(value, str | int | float | bool):
            rest[str(key)] = value
        else:
            rest[str(key)] = str(value)
    fields["stats"] = rest
    return fields
