"""What runs on a node: one game, in a child process under a watchdog, returned with its folder.

:func:`play_on_node` is the body of the Ray task (the driver wraps it with
``ray.remote``; Ray imports this module on the node, so the node plays with
its own installed code, checked against the driver's first).  The game runs
in ``python -m bot.cluster.child`` — the local runner with its own server and
seven bots on the node's loopback — which the kernel stops (SIGTERM) if the
task's process dies, so a cancelled or crashed task leaves no game behind.
The result is a plain dict: the status, the finished game's entry, the
problems, the node, and the game's run folder as a gzipped tar archive.
"""

from __future__ import annotations

import contextlib
import ctypes
import io
import json
import os
import shutil
import signal
import subprocess
import sys
import tarfile
import tempfile
import time
from dataclasses import asdict
from enum import StrEnum
from pathlib import Path
from typing import Any

from bot.cluster.identity import Build, hostname, this_build
from bot.local.launch import FIRST_YEAR, STANDARD_MAP, Deadlines
from bot.local.lineup import Seat
from bot.local.runner import GameConfig
from bot.toolkit.jsonfiles import CorruptJSON, read_json_object

CONFIG_FILE = "config.json"
OUTCOME_FILE = "outcome.json"
GAME_DIR = "game"
CHILD_LOG = "node.log"
"""The child's output, kept in the game's folder as ``node.log``."""

STOP_GRACE = 30.0
"""Seconds the child gets to stop its game after SIGTERM before it is killed."""

_PR_SET_PDEATHSIG = 1


class Status(StrEnum):
    """How a game's task ended."""

    DONE = "done"
    """The game ended cleanly; ``entry`` holds it."""
    FAILED = "failed"
    """The game was played but did not end cleanly, or could not start; ``problems`` say why."""
    HUNG = "hung"
    """The watchdog stopped the game."""
    REFUSED = "refused"
    """This node runs another daide-mcts; nothing was played."""


def config_to_dict(config: GameConfig) -> dict[str, Any]:
    """A game's settings as plain data (for the task's arguments)."""
    return {
        "seats": [asdict(s) for s in config.seats],
        "final_year": config.final_year,
        "deadlines": asdict(config.deadlines),
        "seed": config.seed,
        "server": config.server,
        "telemetry": config.telemetry,
        "host": config.host,
        "map": config.map,
        "first_year": config.first_year,
        "press_level": config.press_level,
    }


def config_from_dict(data: dict[str, Any]) -> GameConfig:
    """The inverse of :func:`config_to_dict`."""
    return GameConfig(
        seats=tuple(Seat(**s) for s in data["seats"]),
        final_year=int(data["final_year"]),
        deadlines=Deadlines(**data["deadlines"]),
        seed=None if data["seed"] is None else int(data["seed"]),
        server=str(data["server"]),
        telemetry=data["telemetry"],
        host=str(data["host"]),
        map=str(data.get("map", STANDARD_MAP)),
        first_year=int(data.get("first_year", FIRST_YEAR)),
        press_level=int(data.get("press_level", 0)),
    )


def node_identity() -> dict[str, Any]:
    """Who this node is: its host name, Ray node id and address, and its build."""
    node_id, address = "", ""
    with contextlib.suppress(Exception):  # outside Ray (a plain call) there is no context
        import ray

        context = ray.get_runtime_context()
        node_id = context.get_node_id()
        address = ray.util.get_node_ip_address()
    return {
        "host": hostname(),
        "node_id": node_id,
        "address": address,
        "build": this_build().as_dict(),
    }


def _die_with_parent() -> None:
    """In the child, before exec: SIGTERM when the task's process dies (Linux)."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)


def _archive(folder: Path) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        tar.add(folder, arcname=".")
    return buffer.getvalue()


def _stop(proc: subprocess.Popen[bytes]) -> None:
    """SIGTERM (the runner stops its server and bots), then SIGKILL after the grace."""
    with contextlib.suppress(ProcessLookupError):
        proc.terminate()
    try:
        proc.wait(STOP_GRACE)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def play_on_node(
    config: dict[str, Any], index: int, watchdog: float, expected: dict[str, Any]
) -> dict[str, Any]:
    """Play game ``index`` with ``config`` here, unless this node's build differs from ``expected``.

    ``watchdog`` seconds after the start, a game still running is stopped
    (status ``hung``).  Returns the status, the entry of a finished game,
    problems, the node, seconds, and the run folder as ``archive`` (tar.gz).
    """
    node = node_identity()
    reason = Build.from_dict(expected).difference(Build.from_dict(node["build"]))
    if reason is not None:
        return {"status": Status.REFUSED, "index": index, "node": node, "problems": [reason]}
    began = time.monotonic()
    workdir = Path(tempfile.mkdtemp(prefix=f"daide-mcts-game-{index + 1:03d}-"))
    try:
        (workdir / CONFIG_FILE).write_text(json.dumps({"index": index, "config": config}))
        (workdir / GAME_DIR).mkdir()
        with open(workdir / GAME_DIR / CHILD_LOG, "wb") as log:
            proc = subprocess.Popen(
                [sys.executable, "-m", "bot.cluster.child", str(workdir)],
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                env={**os.environ, "PYTHONUNBUFFERED": "1"},
                preexec_fn=_die_with_parent,
            )
            try:
                proc.wait(watchdog)
            except subprocess.TimeoutExpired:
                _stop(proc)
                return {
                    "status": Status.HUNG,
                    "index": index,
                    "node": node,
                    "problems": [f"still running after the watchdog's {watchdog:.0f}s; stopped"],
                    "seconds": time.monotonic() - began,
                    "archive": _archive(workdir / GAME_DIR),
                }
            except BaseException:  # the task was cancelled: take the game down with it
                _stop(proc)
                raise
        outcome: dict[str, Any] = {}
        with contextlib.suppress(CorruptJSON):
            outcome = read_json_object(workdir / OUTCOME_FILE)
        problems = list(outcome.get("problems", []))
        if not outcome:
            problems.append(f"the game's process ended with {proc.returncode} and no outcome")
        entry = outcome.get("entry")
        return {
            "status": Status.DONE if entry is not None else Status.FAILED,
            "index": index,
            "node": node,
            "entry": entry,
            "problems": problems,
            "seconds": time.monotonic() - began,
            "archive": _archive(workdir / GAME_DIR),
        }
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def probe() -> dict[str, Any]:
    """The node check's task: who this node is and what it runs."""
    return node_identity()
