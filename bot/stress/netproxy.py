"""A TCP proxy of our own for testing the bot on a bad network: latency, jitter, stalls, cuts.

:class:`NetProxy` listens on loopback and relays every connection it accepts
to a target server.  Each direction has a :class:`LinkProfile`: a fixed
latency plus uniform jitter per chunk (bytes keep their order: a chunk is
never released before the one ahead of it) and, with some probability per
chunk, a stall that holds everything behind it.  :meth:`NetProxy.cut` aborts
the live connections at once (both sides see a reset), as a failing network
would; :meth:`NetProxy.cut_after` does it later.

An optional *tap* sees every DAIDE message that crosses the proxy, decoded
with our protocol package, at the time it passes the server's side of the
proxy: a server message when the proxy reads it from the server, a client
message when the proxy hands it to the server.  That is the server's view of
time, which is what deadlines are measured in; the stress tests use it to
measure how long before the deadline each SUB really arrived.

The proxy can also play a hostile server.  :meth:`NetProxy.inject` puts extra
DAIDE frames into the server's stream to the client, at the next message
boundary (never inside a message the server is sending), as if the server had
sent them; an *intercept* sees every DM the client sends and may keep it from
the server (the client's answers to injected messages, which the real server
never sent).  Neither injected nor intercepted messages reach the tap.

Use it as an async context manager::

    async with NetProxy("127.0.0.1", server_port, downstream=LinkProfile(0.2, 0.15)) as proxy:
        ...  # point the bot at proxy.port
        proxy.inject(encode_tokens(tokens))  # "the server" says something odd
        proxy.cut()

``python -m bot.stress.netproxy --target 127.0.0.1:16713 --listen 16714 --latency 0.2``
runs one from the shell.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from random import Random

from protocol.daide_errors import ProtocolViolation
from protocol.decoder import Decoder, Role
from protocol.wire import HEADER_SIZE, DiplomacyMessage, MessageType, WireMessage, unpack_tokens

CHUNK = 65536


class Direction(Enum):
    """Which way bytes travel through the proxy."""

    UP = "client->server"
    DOWN = "server->client"


@dataclass(frozen=True)
class LinkProfile:
    """How one direction of the link misbehaves.

    ``latency`` seconds are added to every chunk, plus a uniform ``jitter``
    in ``[-jitter, +jitter]`` (never below zero); with probability
    ``stall_chance`` per chunk the link also stalls for ``stall_seconds``.
    """

    latency: float = 0.0
    jitter: float = 0.0
    stall_chance: float = 0.0
    stall_seconds: float = 0.0

    def __post_init__(self) -> None:
        if min(self.latency, self.jitter, self.stall_chance, self.stall_seconds) < 0:
            raise ValueError("link profile values must not be negative")
        if self.stall_chance > 1:
            raise ValueError("stall_chance is a probability (0..1)")

    @property
    def transparent(self) -> bool:
        """True when the link adds no delay at all."""
        return self.latency == 0 and self.jitter == 0 and self.stall_chance == 0


Tap = Callable[[int, Direction, WireMessage, float], None]
"""``tap(link_id, direction, message, monotonic_time)``, called for each relayed message."""

Intercept = Callable[[int, DiplomacyMessage], bool]
"""``intercept(link_id, message)``, called for each DM the client sends; True keeps it back."""


@dataclass
class ProxyStats:
    """What the proxy has done so far."""

    accepted: int = 0
    cuts: int = 0
    stalls: int = 0
    bytes_up: int = 0
    bytes_down: int = 0
    injected: int = 0
    intercepted: int = 0


class _FrameCursor:
    """Follows the frame headers of a DAIDE byte stream to tell where each message ends."""

    __slots__ = ("_header", "_left")

    def __init__(self) -> None:
        self._header = b""
        self._left = 0  # octets of the current message's body still to come

    @property
    def at_boundary(self) -> bool:
        """True when every octet seen so far belongs to a complete message."""
        return not self._header and not self._left

    def ends(self, data: bytes) -> list[int]:
        """Follow ``data``; the offsets in it just after each message that ends there."""
        out = []
        pos = 0
        size = len(data)
        while pos < size:
            if self._left:
                step = min(self._left, size - pos)
                pos += step
                self._left -= step
                if not self._left:
                    out.append(pos)
                continue
            need = HEADER_SIZE - len(self._header)
            self._header += data[pos : pos + need]
            pos = min(pos + need, size)
            if len(self._header) == HEADER_SIZE:
                self._left = int.from_bytes(self._header[2:4], "big")
                self._header = b""
                if not self._left:
                    out.append(pos)
        return out


@dataclass
class _Lane:
    """One direction of one link: its release queue and where its messages end."""

    queue: asyncio.Queue[tuple[float, bytes] | None] = field(default_factory=asyncio.Queue)
    frames: _FrameCursor = field(default_factory=_FrameCursor)
    last_release: float = 0.0
    pending: bytearray = field(default_factory=bytearray)
    """Injected frames waiting for a message boundary (server to client only)."""
    held: bytearray = field(default_factory=bytearray)
    """The start of a client message not yet complete (only when intercepting)."""

    def splice(self, data: bytes) -> bytes:
        """``data`` with the pending injected frames put in at its last message boundary."""
        was_at_boundary = self.frames.at_boundary
        ends = self.frames.ends(data)
        if not self.pending or not (ends or was_at_boundary):
            return data
        cut = ends[-1] if ends else 0
        out = data[:cut] + bytes(self.pending) + data[cut:]
        self.pending.clear()
        return out

    def screen(self, data: bytes, keep_back: Callable[[DiplomacyMessage], bool]) -> bytes:
        """The complete messages of ``held + data`` that may pass; the rest waits or is dropped."""
        self.held += data
        out = bytearray()
        pos = 0
        while len(self.held) - pos >= HEADER_SIZE:
            kind = self.held[pos]
            length = int.from_bytes(self.held[pos + 2 : pos + 4], "big")
            end = pos + HEADER_SIZE + length
            if end > len(self.held):
                break
            frame = bytes(self.held[pos:end])
            pos = end
            if kind == MessageType.DM and length and not length & 1:
                message = DiplomacyMessage(unpack_tokens(frame[HEADER_SIZE:]))
                if keep_back(message):
                    continue
            out += frame
        del self.held[:pos]
        return bytes(out)


@dataclass
class _Link:
    """One relayed connection: the client's socket and ours to the server."""

    link_id: int
    client: asyncio.StreamWriter
    server: asyncio.StreamWriter
    tasks: list[asyncio.Task[None]] = field(default_factory=list)
    lanes: dict[Direction, _Lane] = field(default_factory=dict)

    def abort(self) -> None:
        for writer in (self.client, self.server):
            with contextlib.suppress(Exception):
                writer.transport.abort()
        for task in self.tasks:
            task.cancel()


class NetProxy:
    """Relays TCP connections to ``target_host:target_port`` through misbehaving links."""

    def __init__(
        self,
        target_host: str,
        target_port: int,
        *,
        listen_host: str = "127.0.0.1",
        listen_port: int = 0,
        upstream: LinkProfile | None = None,
        downstream: LinkProfile | None = None,
        seed: int | None = None,
        tap: Tap | None = None,
        intercept: Intercept | None = None,
    ) -> None:
        self.target = (target_host, target_port)
        self.listen_host = listen_host
        self.port = listen_port
        self.profiles = {
            Direction.UP: upstream or LinkProfile(),
            Direction.DOWN: downstream or LinkProfile(),
        }
        self.tap = tap
        self.intercept = intercept
        self.stats = ProxyStats()
        self._rng = Random(seed)
        self._server: asyncio.Server | None = None
        self._links: dict[int, _Link] = {}
        self._next_id = 0
        self._timers: list[asyncio.Task[None]] = []

    # --- lifecycle -----------------------------------------------------------------------

    async def start(self) -> NetProxy:
        """Start listening; ``port`` then holds the port the bot should connect to."""
        self._server = await asyncio.start_server(
            self._accept, self.listen_host, self.port, limit=CHUNK
        )
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    async def stop(self) -> None:
        """Stop listening and drop every live connection."""
        for timer in self._timers:
            timer.cancel()
        if self._server is not None:
            self._server.close()
            with contextlib.suppress(Exception):
                await self._server.wait_closed()
            self._server = None
        for link in list(self._links.values()):
            link.abort()
        self._links.clear()

    async def __aenter__(self) -> NetProxy:
        return await self.start()

    async def __aexit__(self, *exc_info: object) -> None:
        await self.stop()

    # --- faults on demand --------------------------------------------------------------

    @property
    def live_links(self) -> int:
        """How many connections are being relayed right now."""
        return len(self._links)

    def cut(self) -> int:
        """Abort every live connection now (both ends see a reset); how many were cut."""
        links = list(self._links.values())
        for link in links:
            link.abort()
            self._links.pop(link.link_id, None)
        self.stats.cuts += len(links)
        return len(links)

    def cut_after(self, seconds: float) -> asyncio.Task[None]:
        """Cut the live connections ``seconds`` from now (cancel the task to call it off)."""

        async def later() -> None:
            await asyncio.sleep(seconds)
            self.cut()

        task = asyncio.get_running_loop().create_task(later())
        self._timers.append(task)
        return task

    def inject(self, data: bytes) -> int:
        """Send DAIDE frames to every live client as if the server had sent them.

        ``data`` must be whole frames (e.g. ``encode_tokens(...)``).  They go in
        at a message boundary of the server's stream, never inside a message:
        called from the tap, after the last complete message of the chunk the
        tapped message came in (so after that message); on an idle link, at
        once; else at the next boundary.  Returns the number of links they
        were queued on.
        """
        links = [link for link in self._links.values() if Direction.DOWN in link.lanes]
        for link in links:
            link.lanes[Direction.DOWN].pending += data
            asyncio.get_running_loop().call_soon(self._flush_injected, link)
        self.stats.injected += len(links)
        return len(links)

    def _flush_injected(self, link: _Link) -> None:
        """Release injected frames that no server chunk has carried yet, if at a boundary."""
        lane = link.lanes.get(Direction.DOWN)
        if lane is None or not lane.pending or not lane.frames.at_boundary:
            return
        data = bytes(lane.pending)
        lane.pending.clear()
        self._enqueue(lane, data, self.profiles[Direction.DOWN])

    # --- relaying --------------------------------------------------------------------------

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.stats.accepted += 1
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.target, limit=CHUNK)
        except OSError:
            writer.transport.abort()
            return
        self._next_id += 1
        link = _Link(self._next_id, writer, up_writer)
        self._links[link.link_id] = link
        pumps = [
            asyncio.create_task(self._pump(link, reader, up_writer, Direction.UP)),
            asyncio.create_task(self._pump(link, up_reader, writer, Direction.DOWN)),
        ]
        link.tasks.extend(pumps)
        await asyncio.gather(*pumps, return_exceptions=True)
        self._links.pop(link.link_id, None)
        for w in (writer, up_writer):
            with contextlib.suppress(Exception):
                w.close()

    async def _pump(
        self,
        link: _Link,
        source: asyncio.StreamReader,
        sink: asyncio.StreamWriter,
        direction: Direction,
    ) -> None:
        """Copy one direction, delaying chunks as the profile says; end both on EOF or error."""
        profile = self.profiles[direction]
        observer = _Observer(self.tap, link.link_id, direction) if self.tap else None
        lane = _Lane()
        link.lanes[direction] = lane
        sender = asyncio.create_task(self._release(lane.queue, sink, direction, observer))
        link.tasks.append(sender)
        intercept = self.intercept if direction is Direction.UP else None

        def keep_back(message: DiplomacyMessage) -> bool:
            assert intercept is not None
            if intercept(link.link_id, message):
                self.stats.intercepted += 1
                return True
            return False

        try:
            while True:
                data = await source.read(CHUNK)
                if not data:
                    break
                if direction is Direction.DOWN:
                    if observer is not None:
                        # A server message is "sent" when the server sent it.
                        observer.feed(data, time.monotonic())
                    data = lane.splice(data)
                elif intercept is not None:
                    data = lane.screen(data, keep_back)
                    if not data:
                        continue
                self._enqueue(lane, data, profile)
        except (ConnectionError, OSError):
            link.abort()  # a reset on one side is passed on to the other
            return
        # The source closed: deliver what is still queued, then close the other side too.
        lane.queue.put_nowait(None)
        with contextlib.suppress(Exception):
            await sender
        with contextlib.suppress(Exception):
            sink.close()

    def _enqueue(self, lane: _Lane, data: bytes, profile: LinkProfile) -> None:
        """Queue ``data`` for release after the profile's delay, never before what is ahead."""
        release = max(time.monotonic() + self._delay(profile), lane.last_release)
        lane.last_release = release
        lane.queue.put_nowait((release, data))

    async def _release(
        self,
        queue: asyncio.Queue[tuple[float, bytes] | None],
        sink: asyncio.StreamWriter,
        direction: Direction,
        observer: _Observer | None,
    ) -> None:
        while True:
            item = await queue.get()
            if item is None:
                return
            release, data = item
            wait = release - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            try:
                sink.write(data)
                await sink.drain()
            except (ConnectionError, OSError, RuntimeError):
                return
            if direction is Direction.UP:
                self.stats.bytes_up += len(data)
                if observer is not None:
                    observer.feed(data, time.monotonic())
            else:
                self.stats.bytes_down += len(data)

    def _delay(self, profile: LinkProfile) -> float:
        if profile.transparent:
            return 0.0
        delay = profile.latency
        if profile.jitter:
            delay += self._rng.uniform(-profile.jitter, profile.jitter)
        if profile.stall_chance and self._rng.random() < profile.stall_chance:
            self.stats.stalls += 1
            delay += profile.stall_seconds
        return max(0.0, delay)


class _Observer:
    """Decodes one direction's bytes for the tap; stops quietly at the first violation."""

    def __init__(self, tap: Tap | None, link_id: int, direction: Direction) -> None:
        self.tap = tap
        self.link_id = link_id
        self.direction = direction
        self.decoder: Decoder | None = Decoder(
            Role.SERVER if direction is Direction.UP else Role.CLIENT
        )

    def feed(self, data: bytes, at: float) -> None:
        if self.decoder is None or self.tap is None:
            return
        try:
            for message in self.decoder.feed(data):
                self.tap(self.link_id, self.direction, message, at)
        except ProtocolViolation:
            self.decoder = None  # the endpoints will sort it out; we only watch


# --- command line -------------------------------------------------------------------------


def _host_port(text: str) -> tuple[str, int]:
    host, _, port = text.rpartition(":")
    try:
        return host or "127.0.0.1", int(port)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected HOST:PORT, got {text!r}") from None


def main(argv: Sequence[str] | None = None) -> int:
    """Run a proxy from the shell until interrupted."""
    p = argparse.ArgumentParser(description="A misbehaving TCP proxy for DAIDE testing.")
    p.add_argument("--target", type=_host_port, required=True, help="server HOST:PORT")
    p.add_argument("--listen", type=int, default=0, help="local port (default: any free one)")
    p.add_argument("--latency", type=float, default=0.0, help="seconds added each way")
    p.add_argument("--jitter", type=float, default=0.0, help="+- seconds of jitter each way")
    p.add_argument("--stall-chance", type=float, default=0.0, help="probability per chunk")
    p.add_argument("--stall-seconds", type=float, default=0.0, help="length of a stall")
    p.add_argument("--cut-after", type=float, help="cut the connections after this many seconds")
    args = p.parse_args(argv)
    try:
        profile = LinkProfile(args.latency, args.jitter, args.stall_chance, args.stall_seconds)
    except ValueError as exc:
        p.error(str(exc))

    async def serve() -> None:
        proxy = NetProxy(
            *args.target, listen_port=args.listen, upstream=profile, downstream=profile
        )
        async with proxy:
            print(f"relaying 127.0.0.1:{proxy.port} -> {args.target[0]}:{args.target[1]}")
            if args.cut_after is not None:
                proxy.cut_after(args.cut_after)
            await asyncio.Event().wait()

    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(serve())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
