"""A real Ray cluster on this machine's loopback: a head node and worker nodes, separate processes.

Each node is ``ray start --block`` with fresh ports, its own CPU limit and a
temporary folder under pytest's; they are stopped by signalling their own
process trees (other Ray clusters may run on this machine).  If Ray cannot
start, the test fails and says why.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from bot.servers.ray import RayNode, RayUnavailableError

HEAD_HOST = "127.0.0.2"
"""Ray maps 127.0.0.1 to the machine's outward address in a cluster; other loopback ones stay."""

WORKER_HOSTS = ("127.0.0.3", "127.0.0.4", "127.0.0.5")


def _start(node: RayNode) -> RayNode:
    try:
        return node.start()
    except RayUnavailableError as exc:
        pytest.fail(f"a Ray node could not be started: {exc}")


@pytest.fixture(scope="module")
def ray_head(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RayNode]:
    """The head node of a one-CPU Ray cluster on 127.0.0.2 (no worker yet)."""
    node = _start(RayNode(HEAD_HOST, num_cpus=1, temp_dir=tmp_path_factory.mktemp("ray-head")))
    yield node
    node.stop()


@pytest.fixture
def ray_worker(
    ray_head: RayNode, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Callable[..., RayNode]]:
    """A factory: ``ray_worker(env={...})`` starts a one-CPU worker node joined to the head."""
    started: list[RayNode] = []

    def start(env: dict[str, str] | None = None) -> RayNode:
        host = WORKER_HOSTS[len(started)]
        temp = Path(tmp_path_factory.mktemp("ray-worker"))
        node = RayNode(host, num_cpus=1, temp_dir=temp, join=ray_head.address, env=env or {})
        started.append(_start(node))
        return node

    yield start
    for node in started:
        node.stop()
