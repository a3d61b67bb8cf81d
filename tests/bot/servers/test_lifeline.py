"""A child started through :func:`tied` ends when its parent is killed (SIGKILL)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

from tests.bot.proctree import identify, survivors

ROOT = Path(__file__).resolve().parents[3]
GRACE = 5.0
"""Seconds the orphaned children get to go."""

PARENT = textwrap.dedent(
    """
    import signal, subprocess, sys, threading
    from bot.servers.lifeline import tied
    tie = sys.argv[1] == "tied"
    children = [
        subprocess.Popen(tied(["sleep", "600"], sig) if tie else ["sleep", "600"]).pid
        for sig in (signal.SIGKILL, signal.SIGTERM)
    ]
    print(*children, flush=True)
    threading.Event().wait()
    """
)


def _orphans(mode: str) -> list[tuple[int, int]]:
    """Start a parent with two ``sleep`` children, SIGKILL it; its children left running."""
    parent = subprocess.Popen(
        [sys.executable, "-c", PARENT, mode], cwd=ROOT, stdout=subprocess.PIPE, text=True
    )
    try:
        assert parent.stdout is not None
        pids = [int(pid) for pid in parent.stdout.readline().split()]
        children = [identify(pid) for pid in pids]
        assert None not in children and len(children) == 2
    finally:
        os.kill(parent.pid, signal.SIGKILL)
        parent.wait()
    left = survivors([c for c in children if c is not None], GRACE)
    for pid, _ in left:
        os.kill(pid, signal.SIGKILL)
    return left


def test_children_die_with_their_killed_parent() -> None:
    assert _orphans("tied") == []


def test_without_it_the_children_would_outlive_the_parent() -> None:
    assert len(_orphans("untied")) == 2  # the check above can fail
