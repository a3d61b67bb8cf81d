"""``daide-mcts bench telemetry``: what telemetry costs the bot's event loop.

Prints, as the median of ``--repeat`` runs:

* the cost of one ``emit()`` (building and queueing an event), with room in
  the queue and with a full queue (dropping);
* publishing ``--events`` queued events to a local mosquitto (started for
  the run): events per second (connection included), and how late a task
  that asks to wake every millisecond wakes meanwhile (the client's messages
  and deadlines live on that loop), next to the same measure with nothing to
  publish (the machine's own noise).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import statistics
import time
from collections.abc import Sequence

from bot.client.mqtt_publisher import MqttTelemetry
from bot.client.mqtt_url import parse_mqtt_url
from bot.client.telemetry_events import OrderResult
from bot.servers.mosquitto import MosquittoBroker, MosquittoUnavailableError, install
from bot.servers.ports import free_port
from protocol.values import Hold, Location, Season, Turn, Unit, UnitType

TURN = Turn(Season.SPRING, 1901)
ORDER = Hold(Unit("ENG", UnitType.FLEET, Location("LON")))


def _publisher(port: int, maxsize: int) -> MqttTelemetry:
    return MqttTelemetry(
        parse_mqtt_url(f"mqtt://127.0.0.1:{port}/bench"),
        game="bench",
        name="bench",
        power_of=lambda: "ENG",
        maxsize=maxsize,
        flush_timeout=120.0,
    )


def emit_cost(events: int, maxsize: int) -> float:
    """Microseconds per emit() of an order result into a queue of ``maxsize`` (not started)."""
    telemetry = _publisher(free_port(), maxsize)
    started = time.perf_counter()
    for _ in range(events):
        telemetry.emit(OrderResult, turn=TURN, order=ORDER, result=("SUC",))
    return (time.perf_counter() - started) / events * 1e6


class LagMeter:
    """A task that asks to wake every millisecond and records how late it wakes (seconds)."""

    def __init__(self) -> None:
        self.lags: list[float] = []
        self._task: asyncio.Task[None] | None = None

    async def _tick(self) -> None:
        while True:
            before = time.perf_counter()
            await asyncio.sleep(0.001)
            self.lags.append(time.perf_counter() - before - 0.001)

    def start(self) -> None:
        """Begin measuring."""
        self._task = asyncio.create_task(self._tick())

    async def stop(self) -> tuple[float, float]:
        """Stop; (99th percentile, worst) lag in milliseconds."""
        assert self._task is not None
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task
        lags = sorted(self.lags) or [0.0]
        return lags[int(len(lags) * 0.99)] * 1000, lags[-1] * 1000


async def publish_run(port: int, events: int) -> tuple[float, float, float, float, float]:
    """Publish ``events`` events; the figures in the order :func:`main` prints them.

    Events per second; p99 and worst loop lag (ms) while publishing; then the
    same two over as long a time with nothing to publish (the machine's noise).
    """
    telemetry = _publisher(port, events)
    for _ in range(events):  # queued first: emit()'s own cost is measured by emit_cost()
        telemetry.emit(OrderResult, turn=TURN, order=ORDER, result=("SUC",))
    meter = LagMeter()
    meter.start()
    await asyncio.sleep(0.01)
    started = time.perf_counter()
    telemetry.start()
    await telemetry.close()
    elapsed = time.perf_counter() - started
    p99, worst = await meter.stop()
    if telemetry.published != events:
        raise RuntimeError(f"only {telemetry.published} of {events} events were published")
    idle = LagMeter()
    idle.start()
    await asyncio.sleep(elapsed)
    idle_p99, idle_worst = await idle.stop()
    return events / elapsed, p99, worst, idle_p99, idle_worst


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(prog="daide-mcts bench telemetry", description=__doc__)
    parser.add_argument("--events", type=int, default=5000, help="events per run (default 5000)")
    parser.add_argument("--repeat", type=int, default=5, help="runs; the median is shown")
    args = parser.parse_args(argv)
    emits = [emit_cost(args.events, args.events) for _ in range(args.repeat)]
    drops = [emit_cost(args.events, 10) for _ in range(args.repeat)]
    print(f"emit(), room in the queue: {statistics.median(emits):.1f} us per event")
    print(f"emit(), queue full (drop): {statistics.median(drops):.1f} us per event")
    try:
        broker = MosquittoBroker(install()).start()
    except MosquittoUnavailableError as exc:
        print(f"error: {exc}")
        return 1
    try:
        runs = [asyncio.run(publish_run(broker.port, args.events)) for _ in range(args.repeat)]
    finally:
        broker.stop()
    rate, p99, worst, idle_p99, idle_worst = (
        statistics.median(r[i] for r in runs) for i in range(5)
    )
    print(f"publishing {args.events} events to a local mosquitto (QoS 1): {rate:.0f} events/s")
    print(f"event-loop lag while publishing: p99 {p99:.2f} ms, worst {worst:.1f} ms")
    print(f"event-loop lag, nothing to publish: p99 {idle_p99:.2f} ms, worst {idle_worst:.1f} ms")
    return 0
