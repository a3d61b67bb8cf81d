"""A Ray node started by :class:`RayNode` stops, whole, when the process that started it dies."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.bot.proctree import descendants, survivors

ROOT = Path(__file__).resolve().parents[3]
START_TIMEOUT = 180.0
"""Seconds the starter gets to bring its Ray head up (Ray is slow on two busy cores)."""

GRACE = 45.0
"""Seconds the node gets to stop (``ray start`` drains for up to 30 s before stopping them)."""

STARTER = textwrap.dedent(
    """
    import sys, threading
    from pathlib import Path
    from bot.servers.ray import RayNode
    node = RayNode("127.0.0.2", num_cpus=1, temp_dir=Path(sys.argv[1])).start()
    print("up", flush=True)
    threading.Event().wait()
    """
)


@pytest.mark.ray
def test_a_ray_node_stops_when_its_starter_is_killed(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    temp = tmp_path_factory.mktemp("ray")  # a short path: Ray's socket paths must fit 107 bytes
    starter = subprocess.Popen(
        [sys.executable, "-c", STARTER, str(temp)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        assert starter.stdout is not None
        first = starter.stdout.readline()  # "up", or the error that stopped it
        procs = descendants(starter.pid)
        assert first.strip() == "up", first + starter.stdout.read()
        assert len(procs) > 2, "ray start, its control store, its node manager..."
    finally:
        os.kill(starter.pid, signal.SIGKILL)
        starter.wait(START_TIMEOUT)
    left = survivors(procs, GRACE)
    for pid, _ in left:
        os.kill(pid, signal.SIGKILL)
    assert left == []
