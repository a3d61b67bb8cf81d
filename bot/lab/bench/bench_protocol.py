"""Decode/encode throughput on a captured live game: ``daide-mcts bench protocol``.

The message mix is ``protocol/data/sample_game.txt`` (both directions of a
short Parlance game).  Each stage is timed over the whole mix, repeated, and
the median of several runs is reported in messages per second:

* ``bytes -> wire``: the decoder alone (frames, lifecycle, token checks),
  fed in socket-sized chunks;
* ``bytes -> typed``: the decoder plus :func:`~protocol.messages.parse_message`,
  what the client does for every message;
* ``typed -> bytes``: ``to_tokens`` plus the DM encoder, what the client does
  to send;
* ``text -> typed``: :func:`~protocol.messages.parse_text`, the adjudicator's
  and the tests' entry point;
* ``typed -> text``: :meth:`~protocol.messages.Message.to_text`, for logs.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable, Sequence

from protocol.data import sample_game
from protocol.decoder import Decoder
from protocol.messages import Message, parse_text
from protocol.tokens import STANDARD
from protocol.wire import DiplomacyMessage, encode_message, encode_representation


def _time(fn: Callable[[], int], runs: int) -> tuple[float, int]:
    """Median seconds of ``runs`` calls of ``fn``, and the count it returned."""
    times = []
    count = 0
    for _ in range(runs):
        start = time.perf_counter()
        count = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), count


def _stages(
    texts: list[str], messages: list[Message], chunks: list[bytes], repeat: int
) -> list[tuple[str, Callable[[], int]]]:
    """The timed stages, each a function doing ``repeat`` passes and counting messages."""

    def decode_wire() -> int:
        count = 0
        for _ in range(repeat):
            decoder = Decoder()
            for chunk in chunks:
                for _wire in decoder.feed(chunk):
                    count += 1
        return count - repeat  # the RM is not a game message

    def decode_typed() -> int:
        count = 0
        for _ in range(repeat):
            decoder = Decoder()
            for chunk in chunks:
                for wire in decoder.feed(chunk):
                    if isinstance(wire, DiplomacyMessage):
                        wire.parse()
                        count += 1
        return count

    def encode() -> int:
        for _ in range(repeat):
            for message in messages:
                encode_message(message)
        return repeat * len(messages)

    def from_text() -> int:
        for _ in range(repeat):
            for text in texts:
                parse_text(text)
        return repeat * len(texts)

    def to_text() -> int:
        for _ in range(repeat):
            for message in messages:
                message.to_text()
        return repeat * len(messages)

    return [
        ("bytes -> wire", decode_wire),
        ("bytes -> typed", decode_typed),
        ("typed -> bytes", encode),
        ("text -> typed", from_text),
        ("typed -> text", to_text),
    ]


def main(argv: Sequence[str]) -> int:
    """Run the benchmark and print a table; returns the exit code."""
    parser = argparse.ArgumentParser(
        prog="daide-mcts bench protocol", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--runs", type=int, default=7, help="timed runs per stage (median)")
    parser.add_argument("--repeat", type=int, default=20, help="passes over the game per run")
    parser.add_argument("--chunk", type=int, default=4096, help="octets per feed() call")
    args = parser.parse_args(list(argv))

    texts = [text for _, text in sample_game()]
    messages: list[Message] = [parse_text(text) for text in texts]
    stream = encode_representation(STANDARD) + b"".join(encode_message(m) for m in messages)
    chunks = [stream[i : i + args.chunk] for i in range(0, len(stream), args.chunk)]
    repeat: int = args.repeat
    stages = _stages(texts, messages, chunks, repeat)
    dm_octets = len(stream) - len(encode_representation(STANDARD))
    print(
        f"protocol benchmark: {len(messages)} messages ({dm_octets} octets of DMs) "
        f"x {repeat} passes, median of {args.runs} runs"
    )
    print(f"{'stage':<16} {'messages':>9} {'median s':>9} {'msg/s':>10} {'us/msg':>8}")
    for name, fn in stages:
        seconds, count = _time(fn, args.runs)
        rate = count / seconds if seconds else float("inf")
        print(f"{name:<16} {count:>9} {seconds:>9.4f} {rate:>10,.0f} {1e6 / rate:>8.1f}")
    return 0
