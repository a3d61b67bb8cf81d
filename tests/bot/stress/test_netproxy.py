"""Our misbehaving TCP proxy (bot.stress.netproxy) between a client and a small echo server."""

from __future__ import annotations

import asyncio
import time

import pytest

from bot.stress.netproxy import Direction, LinkProfile, NetProxy, main
from protocol.messages import Tme
from protocol.wire import DiplomacyMessage, InitialMessage, encode_initial, encode_message


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


def test_bad_profiles_and_flags_are_refused(capsys) -> None:
    with pytest.raises(ValueError):
        LinkProfile(latency=-1)
    with pytest.raises(ValueError):
        LinkProfile(stall_chance=2)
    with pytest.raises(SystemExit):
        main(["--target", "nowhere"])
    assert "HOST:PORT" in capsys.readouterr().err
