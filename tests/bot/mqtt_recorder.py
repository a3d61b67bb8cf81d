"""A test subscriber: records every message under a topic filter, in a background thread.

The game tests wait on subprocesses, so the subscriber runs its own event loop
in a thread.  It reconnects when the broker goes away; with ``persistent`` it
keeps its session (a fixed client id, no clean session), so a broker that keeps
sessions queues what is published while it is away.  A message is recorded when it
arrives (in the client's queue, before it is acknowledged), not when the loop reads it:
aiomqtt drops what is still queued when the connection goes, and the broker, having
had its acknowledgement, does not send it again.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from types import TracebackType

import aiomqtt


class MqttRecorder:
    """Every ``(topic, payload)`` received under ``topic_filter`` from the broker at ``port``."""

    def __init__(
        self, port: int, topic_filter: str, *, host: str = "127.0.0.1", persistent: bool = False
    ) -> None:
        self.host = host
        self.port = port
        self.topic_filter = topic_filter
        self.persistent = persistent
        self.subscriptions = 0
        self.errors: list[str] = []
        self._messages: list[tuple[str, bytes]] = []
        self._lock = threading.Lock()
        self._subscribed = threading.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._task: asyncio.Task[None] | None = None
        self._thread = threading.Thread(target=self._thread_main, daemon=True)

    @property
    def messages(self) -> list[tuple[str, bytes]]:
        """A copy of what has arrived so far, in arrival order."""
        with self._lock:
            return list(self._messages)

    def wait_for(
        self, predicate: Callable[[list[tuple[str, bytes]]], bool], timeout: float
    ) -> bool:
        """Wait until ``predicate(messages)`` holds; False after ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if predicate(self.messages):
                return True
            time.sleep(0.05)
        return predicate(self.messages)

    def start(self, timeout: float = 30.0) -> MqttRecorder:
        """Start and wait until subscribed (AssertionError saying why if it cannot)."""
        self._thread.start()
        assert self._subscribed.wait(timeout), f"could not subscribe: {self.errors[-3:]}"
        return self

    def stop(self) -> None:
        """Disconnect and end the thread."""
        if self._loop is not None and self._task is not None:
            self._loop.call_soon_threadsafe(self._task.cancel)
        self._thread.join(10)

    def _thread_main(self) -> None:
        self._loop = asyncio.new_event_loop()
        self._task = self._loop.create_task(self._main())
        try:
            self._loop.run_until_complete(self._task)
        except asyncio.CancelledError:
            pass
        finally:
            self._loop.close()

    async def _main(self) -> None:
        identifier = f"recorder-{id(self):x}"
        while True:
            try:
                async with aiomqtt.Client(
                    self.host,
                    self.port,
                    identifier=identifier,
                    clean_session=not self.persistent,
                    timeout=10,
                    queue_type=self._recording_queue(),
                ) as client:
                    await client.subscribe(self.topic_filter, qos=1)
                    self.subscriptions += 1
                    self._subscribed.set()
                    async for _message in client.messages:
                        pass
            except aiomqtt.MqttError as exc:
                self.errors.append(str(exc))
                await asyncio.sleep(0.05)

    def _record(self, message: aiomqtt.Message) -> None:
        payload = message.payload
        if not isinstance(payload, bytes):
            payload = str(payload).encode()
        with self._lock:
            self._messages.append((message.topic.value, payload))

    def _recording_queue(self) -> type[asyncio.Queue[aiomqtt.Message]]:
        """The client's queue class: it records each message as the client receives it."""
        recorder = self

        class RecordingQueue(asyncio.Queue[aiomqtt.Message]):
            def put_nowait(self, item: aiomqtt.Message) -> None:
                recorder._record(item)
                super().put_nowait(item)

        return RecordingQueue

    def __enter__(self) -> MqttRecorder:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()
