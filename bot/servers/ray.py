"""Ray nodes on this machine: a head and workers started with ``ray start``, on loopback.

The cluster tests and the cluster benchmark start their own small Ray
cluster with these: each node is ``ray start --block`` (so the node lives
exactly as long as that process tree), in its own session, with every port
fresh, its own temporary folder, a CPU limit, and a loopback address of its
own.  Other Ray clusters may run on the same machine, so a node is stopped by
signalling *its* process tree only — never with ``ray stop``, which stops
every Ray process of the machine.  A node also stops when the process that
started it dies (:mod:`bot.servers.lifeline`).

Ray rewrites ``127.0.0.1`` and ``localhost`` to the machine's outward address
when several nodes form a cluster, so the nodes take other loopback addresses
(``127.0.0.2``, ``127.0.0.3``...): every connection stays on loopback, and
each node has an address of its own, as separate machines would.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from bot.servers.lifeline import tied
from bot.servers.ports import free_port, wait_listening

STARTED = "Ray runtime started"
"""What ``ray start`` prints once its node has joined the cluster."""

START_TIMEOUT = 90.0
"""Seconds a node gets to come up (Ray takes several on two busy cores)."""

OBJECT_STORE_BYTES = 200 * 1024 * 1024
"""Shared memory a node reserves for Ray's objects (Ray's default is 30% of the RAM)."""

STOP_GRACE = 3.0
"""Seconds a node gets to leave after SIGTERM before its processes are killed."""

FAST_FAILURE_DETECTION = {
    "health_check_period_ms": 1000,
    "health_check_timeout_ms": 1000,
    "health_check_failure_threshold": 3,
}
"""Head settings that notice a lost node within seconds (Ray's defaults take about 30)."""

_PORT_FLAGS = (
    "--node-manager-port",
    "--object-manager-port",
    "--dashboard-agent-listen-port",
    "--dashboard-agent-grpc-port",
    "--runtime-env-agent-port",
    "--metrics-export-port",
)
"""Ports every node opens; each gets a fresh one so that nodes of other clusters never clash."""


class RayUnavailableError(RuntimeError):
    """Ray is not installed, or a node could not be started; the message says why."""


def ray_executable() -> Path:
    """The ``ray`` command of this Python environment; RayUnavailableError if Ray is missing."""
    candidate = Path(sys.executable).parent / "ray"
    if candidate.is_file():
        return candidate
    found = shutil.which("ray")
    if found is None:
        raise RayUnavailableError(
            "Ray is not installed in this environment: pip install 'daide-mcts[cluster]'"
        )
    return Path(found)


def process_tree(root: int) -> list[int]:
    """``root`` and all its descendants alive now (read from /proc), parents first."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # The command name may hold spaces and parentheses: the fields follow the last ')'.
        fields = stat[stat.rfind(")") + 2 :].split()
        children.setdefault(int(fields[1]), []).append(int(entry.name))
    tree, todo = [], [root]
    while todo:
        pid = todo.pop()
        tree.append(pid)
        todo.extend(children.get(pid, ()))
    return tree


def _signal_all(pids: list[int], sig: signal.Signals) -> None:
    for pid in pids:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, sig)


@dataclass
class RayNode:
    """One Ray node (``ray start --block``) on a loopback address; a head when ``head_port`` is 0.

    A head is started with ``RayNode(host="127.0.0.2", num_cpus=1, temp_dir=...)``;
    a worker joins it with ``RayNode(host="127.0.0.3", join=head.address, ...)``.
    ``env`` adds environment variables to the node's processes (its Ray workers
    inherit them).
    """

    host: str
    num_cpus: int
    temp_dir: Path
    join: str | None = None
    env: Mapping[str, str] = field(default_factory=dict)
    system_config: Mapping[str, object] = field(default_factory=lambda: FAST_FAILURE_DETECTION)
    object_store_bytes: int = OBJECT_STORE_BYTES
    gcs_port: int = 0
    client_port: int = 0
    node_manager_port: int = 0
    _proc: subprocess.Popen[bytes] | None = field(default=None, init=False, repr=False)
    _log: IO[bytes] | None = field(default=None, init=False, repr=False)

    @property
    def is_head(self) -> bool:
        """True for the head node (the one that runs the cluster's control store)."""
        return self.join is None

    @property
    def address(self) -> str:
        """The cluster's GCS address ``host:port`` (what ``ray start --address`` takes)."""
        return self.join if self.join is not None else f"{self.host}:{self.gcs_port}"

    @property
    def client_address(self) -> str:
        """The Ray client address ``ray://host:port`` of a head node."""
        if not self.is_head:
            raise ValueError("only the head node serves Ray clients")
        return f"ray://{self.host}:{self.client_port}"

    @property
    def log_path(self) -> Path:
        """Where the ``ray start`` output goes."""
        return self.temp_dir / "ray-start.log"

    def argv(self) -> list[str]:
        """The ``ray start`` command line of this node."""
        args = [
            str(ray_executable()),
            "start",
            "--block",
            f"--node-ip-address={self.host}",
            f"--num-cpus={self.num_cpus}",
            f"--object-store-memory={self.object_store_bytes}",
            f"--temp-dir={self.temp_dir}",
            "--disable-usage-stats",
            "--min-worker-port=0",  # Ray's workers take ports the kernel gives them
            "--max-worker-port=0",
            f"--node-manager-port={self.node_manager_port}",
            *(f"{flag}={free_port(self.host)}" for flag in _PORT_FLAGS[1:]),
        ]
        if self.is_head:
            args += [
                "--head",
                f"--port={self.gcs_port}",
                f"--ray-client-server-port={self.client_port}",
                "--include-dashboard=false",
                f"--system-config={json.dumps(dict(self.system_config))}",
            ]
        else:
            args.append(f"--address={self.join}")
        return args

    def start(self, timeout: float = START_TIMEOUT) -> RayNode:
        """Start the node and wait until it serves; RayUnavailableError with its output if not."""
        self.temp_dir.mkdir(parents=True, exist_ok=True)
        self.node_manager_port = self.node_manager_port or free_port(self.host)
        if self.is_head:
            self.gcs_port = self.gcs_port or free_port(self.host)
            self.client_port = self.client_port or free_port(self.host)
        argv = self.argv()
        self._log = open(self.log_path, "ab")  # noqa: SIM115 - closed in stop()
        try:
            self._proc = subprocess.Popen(
                # ``ray start`` stops its node's processes on SIGTERM (SIGKILL would orphan them)
                tied(argv, signal.SIGTERM),
                env={**os.environ, **self.env},
                stdin=subprocess.DEVNULL,
                stdout=self._log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
                # ``ray start`` stops its node's processes on SIGTERM (SIGKILL would orphan them)
            )
        except OSError as exc:
            self.stop()
            raise RayUnavailableError(f"cannot run {argv[0]}: {exc}") from exc
        ports = [self.node_manager_port]
        if self.is_head:
            ports += [self.gcs_port, self.client_port]
        deadline = time.monotonic() + timeout
        for port in ports:
            if not wait_listening(
                self.host, port, max(0.0, deadline - time.monotonic()), alive=self.running
            ):
                output = self.output()
                self.stop()
                raise RayUnavailableError(
                    f"the Ray {'head' if self.is_head else 'worker'} node on {self.host} did not "
                    f"listen on port {port} within {timeout:.0f}s; its output:\n{output[-3000:]}"
                )
        while STARTED not in self.output():
            if not self.running() or time.monotonic() > deadline:
                output = self.output()
                self.stop()
                raise RayUnavailableError(
                    f"the Ray node on {self.host} did not join its cluster within "
                    f"{timeout:.0f}s; its output:\n{output[-3000:]}"
                )
            time.sleep(0.1)
        return self

    def running(self) -> bool:
        """True while the node's ``ray start`` process is alive."""
        return self._proc is not None and self._proc.poll() is None

    def output(self) -> str:
        """What ``ray start`` has printed so far."""
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def kill(self) -> None:
        """Lose the node at once, as if its machine were switched off: SIGKILL its whole tree."""
        if self._proc is not None:
            _signal_all(process_tree(self._proc.pid), signal.SIGKILL)
            self._proc.wait()
        self._close()

    def stop(self, grace: float = STOP_GRACE) -> None:
        """Stop the node: SIGTERM to its process tree, SIGKILL to what is left after ``grace``."""
        if self._proc is not None:
            tree = process_tree(self._proc.pid)
            _signal_all(tree, signal.SIGTERM)
            deadline = time.monotonic() + grace
            while time.monotonic() < deadline and self._proc.poll() is None:
                time.sleep(0.1)
            # Ray's processes outlive their parent when it goes first: kill everything seen.
            _signal_all(sorted(set(tree) | set(process_tree(self._proc.pid))), signal.SIGKILL)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self._proc.wait(5)
        self._close()

    def _close(self) -> None:
        if self._log is not None:
            self._log.close()
            self._log = None

    def __enter__(self) -> RayNode:
        if self._proc is None:
            self.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()
