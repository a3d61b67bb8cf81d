"""The search worker process (bot.client.thinker.Thinker): jobs, limits, retimes, really started."""

from __future__ import annotations

import asyncio
import math
import time

import pytest

from adjudicator.maps import standard_map
from adjudicator.position import initial_position
from adjudicator.standard import standard_definition
from bot.client.thinker import Thinker, ThinkerError
from search.mcts.worker_protocol import Answer, JobMessage
from search.policy import SearchLimit


async def _worker(strategy: str) -> tuple[Thinker, asyncio.Queue[tuple[JobMessage, float]]]:
    queue: asyncio.Queue[tuple[JobMessage, float]] = asyncio.Queue()
    thinker = Thinker(
        strategy, seed=1, on_message=lambda message, at: queue.put_nowait((message, at))
    )
    thinker.start()
    return thinker, queue


async def _answer(queue: asyncio.Queue[tuple[JobMessage, float]], job: int) -> tuple[Answer, float]:
    while True:
        message, at = await asyncio.wait_for(queue.get(), 30)
        if isinstance(message, Answer) and message.job_id == job:
            return message, at


def test_a_job_is_answered_within_its_limit() -> None:
    async def play() -> tuple[Answer, float, float]:
        thinker, queue = await _worker("mcts")
        try:
            thinker.use_map(standard_definition(), "standard")
            pos = initial_position(standard_map())
            stop = time.monotonic() + 1.0
            thinker.think(1, pos, 1, SearchLimit(stop, stop + 0.2))
            answer, at = await _answer(queue, 1)
            return answer, at, stop
        finally:
            thinker.close()

    answer, at, stop = asyncio.run(play())
    assert answer.orders and at >= stop - 0.05


def test_a_retime_to_an_earlier_stop_ends_the_search_then() -> None:
    async def play() -> tuple[float, float]:
        thinker, queue = await _worker("mcts")
        try:
            thinker.use_map(standard_definition(), "standard")
            pos = initial_position(standard_map())
            now = time.monotonic()
            thinker.think(1, pos, 1, SearchLimit(now + 60, now + 61))
            await asyncio.sleep(0.5)
            stop = time.monotonic() + 0.5
            thinker.retime(1, SearchLimit(stop, stop + 0.1))
            _, at = await _answer(queue, 1)
            return at, stop
        finally:
            thinker.close()

    at, stop = asyncio.run(play())
    assert stop - 0.05 <= at < stop + 5.0, f"answered {at - stop:.2f} s after the new stop"


def test_a_job_without_the_map_is_refused() -> None:
    async def play() -> None:
        thinker, _ = await _worker("dumbbot")
        try:
            pos = initial_position(standard_map())
            now = time.monotonic()
            with pytest.raises(ThinkerError, match="map"):
                thinker.think(1, pos, 1, SearchLimit(now + 1, now + 1))
        finally:
            thinker.close()

    asyncio.run(play())


def test_a_limit_that_collects_helpers_before_the_stop_is_refused() -> None:
    with pytest.raises(ValueError, match="before the stop"):
        SearchLimit(10.0, 9.0)
    with pytest.raises(ValueError, match="iteration cap"):
        SearchLimit(10.0, 11.0, iterations=0)
    with pytest.raises(ValueError, match="needs an iteration cap"):
        SearchLimit(math.inf, math.inf)
    assert not SearchLimit(math.inf, math.inf, iterations=5).timed
