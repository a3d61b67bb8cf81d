"""Our misbehaving TCP proxy (bot.stress.netproxy) between a client and a small echo server."""

from __future__ import annotations

import asyncio
import time

import pytest

from bot.stress.netproxy import Direction, LinkProfile, NetProxy, main
from protocol.decoder import Decoder
from protocol.messages import Adm, Huh, Tme, parse_text
from protocol.tokens import HUH
from protocol.wire import (
    DiplomacyMessage,
    InitialMessage,
    encode_initial,
    encode_message,
    encode_representation,
)


async def _echo_server() -> asyncio.Server:
    async def echo(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        while data := await reader.read(4096):
            writer.write(data)
            await writer.drain()
        writer.close()

    return await asyncio.start_server(echo, "127.0.0.1", 0)


async def _read_exactly(reader: asyncio.StreamReader, n: int) -> bytes:
    return await asyncio.wait_for(reader.readexactly(n), 30)


async def test_bytes_arrive_whole_and_in_order_through_jitter_and_stalls() -> None:
    server = await _echo_server()
    jumpy = LinkProfile(latency=0.02, jitter=0.02, stall_chance=0.05, stall_seconds=0.1)
    async with (
        server,
        NetProxy(
            "127.0.0.1",
            server.sockets[0].getsockname()[1],
            upstream=jumpy,
            downstream=jumpy,
            seed=1,
        ) as proxy,
    ):
        reader, writer = await asyncio.open_connection("127.0.0.1", proxy.port)
        sent = bytearray()
        for i in range(200):
            chunk = bytes([i % 256]) * (1 + i % 7)
            sent += chunk
            writer.write(chunk)
            await writer.drain()
            await asyncio.sleep(0)
        assert await _read_exactly(reader, len(sent)) == bytes(sent)
        writer.close()
    assert proxy.stats.bytes_up == proxy.stats.bytes_down == len(sent)


async def test_latency_holds_bytes_back_at_least_that_long_each_way() -> None:
    server = await _echo_server()
    slow = LinkProfile(latency=0.15)
    async with (
        server,
        NetProxy(
            "127.0.0.1", server.sockets[0].getsockname()[1], upstream=slow, downstream=slow
        ) as proxy,
    ):
        reader, writer = await asyncio.open_connection("127.0.0.1", proxy.port)
        started = time.monotonic()
        writer.write(b"ping")
        assert await _read_exactly(reader, 4) == b"ping"
        assert time.monotonic() - started >= 0.3  # a lower bound: load only makes it later
        writer.close()


async def test_cut_resets_the_live_connection_and_new_ones_still_work() -> None:
    server = await _echo_server()
    async with server, NetProxy("127.0.0.1", server.sockets[0].getsockname()[1]) as proxy:
        reader, writer = await asyncio.open_connection("127.0.0.1", proxy.port)
        writer.write(b"a")
        assert await _read_exactly(reader, 1) == b"a"
        assert proxy.live_links == 1
        assert proxy.cut() == 1
        with pytest.raises((ConnectionError, asyncio.IncompleteReadError)):
            await _read_exactly(reader, 1)
        reader2, writer2 = await asyncio.open_connection("127.0.0.1", proxy.port)
        writer2.write(b"b")
        assert await _read_exactly(reader2, 1) == b"b"
        writer2.close()
    assert proxy.stats.cuts == 1 and proxy.stats.accepted == 2


async def test_cut_after_cuts_later() -> None:
    server = await _echo_server()
    async with server, NetProxy("127.0.0.1", server.sockets[0].getsockname()[1]) as proxy:
        reader, writer = await asyncio.open_connection("127.0.0.1", proxy.port)
        writer.write(b"x")
        assert await _read_exactly(reader, 1) == b"x"
        proxy.cut_after(0.05)
        with pytest.raises((ConnectionError, asyncio.IncompleteReadError)):
            await _read_exactly(reader, 1)
    assert proxy.stats.cuts == 1


async def test_the_tap_sees_daide_messages_both_ways() -> None:
    server = await _echo_server()  # echoes what the "client" sends as if the server said it
    seen: list[tuple[Direction, object]] = []

    def tap(link: int, direction: Direction, message: object, at: float) -> None:
        seen.append((direction, message))

    async with server, NetProxy("127.0.0.1", server.sockets[0].getsockname()[1], tap=tap) as proxy:
        reader, writer = await asyncio.open_connection("127.0.0.1", proxy.port)
        data = encode_initial() + encode_message(Tme(5))
        writer.write(data)
        assert await _read_exactly(reader, len(data)) == data
        writer.close()
    ups = [m for d, m in seen if d is Direction.UP]
    assert isinstance(ups[0], InitialMessage)
    assert isinstance(ups[1], DiplomacyMessage) and ups[1].parse() == Tme(5)
    # Downstream the tap reads as a client would: an echoed IM is a protocol violation,
    # after which it stops watching that direction (the relay itself goes on).
    assert [m for d, m in seen if d is Direction.DOWN] == []


def _messages(data: bytes) -> list[object]:
    """What a client decodes from ``data`` (the echo of a server's stream), parsed."""
    return [m.parse() for m in list(Decoder().feed(data))[1:]]  # type: ignore[union-attr]


async def test_injected_frames_go_in_between_messages_never_inside_one() -> None:
    server = await _echo_server()  # echoes a "server's" stream: RM, then DMs
    big = Adm("server", "x" * 15000)  # 30 KB: arrives in several chunks
    injected = Tme(99)

    def tap(link: int, direction: Direction, message: object, at: float) -> None:
        if isinstance(message, DiplomacyMessage) and message.parse() == Tme(1):
            assert proxy.inject(encode_message(injected)) == 1

    async with server, NetProxy("127.0.0.1", server.sockets[0].getsockname()[1], tap=tap) as proxy:
        reader, writer = await asyncio.open_connection("127.0.0.1", proxy.port)
        stream = encode_representation() + encode_message(Tme(1)) + encode_message(big)
        writer.write(stream[:1000])  # the server's first chunk ends inside the big message
        await writer.drain()
        await asyncio.sleep(0.3)
        writer.write(stream[1000:])
        await writer.drain()
        expected = len(stream) + len(encode_message(injected))
        received = await _read_exactly(reader, expected)
        writer.close()
    # After the message the tap saw, at the last boundary of its chunk: not inside the big one.
    assert _messages(received) == [Tme(1), injected, big]
    assert proxy.stats.injected == 1


async def test_injecting_on_an_idle_link_sends_at_once() -> None:
    server = await _echo_server()
    async with server, NetProxy("127.0.0.1", server.sockets[0].getsockname()[1]) as proxy:
        reader, writer = await asyncio.open_connection("127.0.0.1", proxy.port)
        writer.write(encode_representation())
        assert await _read_exactly(reader, 4) == encode_representation()
        proxy.inject(encode_message(Tme(7)) + encode_message(Tme(8)))
        data = await _read_exactly(reader, 2 * len(encode_message(Tme(7))))
        writer.close()
    assert _messages(encode_representation() + data) == [Tme(7), Tme(8)]


async def test_intercepted_client_messages_never_reach_the_server() -> None:
    server = await _echo_server()  # what comes back is what the server received
    kept: list[object] = []

    def intercept(link: int, message: DiplomacyMessage) -> bool:
        if message.tokens[0] == HUH:
            kept.append(message.parse())
            return True
        return False

    huh = parse_text("HUH ( ERR TME ( 1 ) )")
    async with (
        server,
        NetProxy("127.0.0.1", server.sockets[0].getsockname()[1], intercept=intercept) as proxy,
    ):
        reader, writer = await asyncio.open_connection("127.0.0.1", proxy.port)
        data = encode_initial() + encode_message(Tme(5)) + encode_message(huh)
        data += encode_message(Tme(6))
        for i in range(len(data)):  # one octet at a time: frames are put back together
            writer.write(data[i : i + 1])
            await writer.drain()
        passed = encode_initial() + encode_message(Tme(5)) + encode_message(Tme(6))
        assert await _read_exactly(reader, len(passed)) == passed
        writer.close()
    assert kept == [huh] and isinstance(kept[0], Huh)
    assert proxy.stats.intercepted == 1


def test_bad_profiles_and_flags_are_refused(capsys) -> None:
    with pytest.raises(ValueError):
        LinkProfile(latency=-1)
    with pytest.raises(ValueError):
        LinkProfile(stall_chance=2)
    with pytest.raises(SystemExit):
        main(["--target", "nowhere"])
    assert "HOST:PORT" in capsys.readouterr().err
