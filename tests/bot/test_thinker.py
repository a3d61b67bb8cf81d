"""The client's side of a search job (bot.thinker.ThinkJob)."""

from __future__ import annotations

import asyncio

from bot.thinker import ThinkJob
from bot.worker_protocol import Progress


def test_a_phase_that_ends_as_a_message_arrives_still_stops_waiting() -> None:
    """The cancellation of the phase's task is never lost to a message of the same instant.

    (Python 3.11's ``asyncio.wait_for`` returned the message and dropped the
    cancellation: a phase the server had ended played on and sent its GOF.)
    """

    async def race() -> int:
        lost = 0
        for _ in range(50):
            job = ThinkJob(1, 0.0, 0.0)
            waiting = asyncio.create_task(job.next(5.0))
            await asyncio.sleep(0)  # waiting on the job's queue
            job._deliver(Progress(1, {}, {}))
            waiting.cancel()
            try:
                await waiting
                lost += 1
            except asyncio.CancelledError:
                pass
            assert job.queue.qsize() == 1  # the message is still there, not half taken
        return lost

    assert asyncio.run(race()) == 0


def test_next_gives_the_message_or_none_after_the_timeout() -> None:
    async def wait() -> tuple[object, object]:
        job = ThinkJob(1, 0.0, 0.0)
        nothing = await job.next(0.01)
        job._deliver(Progress(1, {}, {}))
        return nothing, await job.next(5.0)

    nothing, message = asyncio.run(wait())
    assert nothing is None and isinstance(message, Progress)
