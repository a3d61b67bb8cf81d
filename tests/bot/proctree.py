"""Processes read from /proc: a process's descendants, and whether a process still runs.

A process is named by its id and its start time (field 22 of
``/proc/PID/stat``), so that a recycled id is not mistaken for it; a zombie
(state ``Z``: dead, not yet reaped by whoever adopted it) does not run.
"""

from __future__ import annotations

import time
from pathlib import Path

from bot.servers.ray import process_tree

Proc = tuple[int, int]
"""A process: (pid, start time in clock ticks since boot)."""

POLL = 0.1
"""Seconds between two looks at /proc."""


def _stat_fields(pid: int) -> list[str] | None:
    """The fields of ``/proc/PID/stat`` after the command name (None when ``pid`` is gone)."""
    try:
        stat = (Path("/proc") / str(pid) / "stat").read_text()
    except OSError:
        return None
    # The command name may hold spaces and parentheses: the fields follow the last ')'.
    return stat[stat.rfind(")") + 2 :].split()


def identify(pid: int) -> Proc | None:
    """``pid`` with its start time, or None when it has gone."""
    fields = _stat_fields(pid)
    return None if fields is None else (pid, int(fields[19]))


def cmdline(pid: int) -> str:
    """The command line of ``pid`` (empty once it has gone)."""
    try:
        raw = (Path("/proc") / str(pid) / "cmdline").read_bytes()
    except OSError:
        return ""
    return raw.replace(b"\0", b" ").decode(errors="replace").strip()


def descendants(root: int) -> list[Proc]:
    """Every process below ``root`` alive now."""
    found = (identify(pid) for pid in process_tree(root)[1:])
    return [proc for proc in found if proc is not None]


def runs(proc: Proc) -> bool:
    """True while the very process ``proc`` exists and is not a zombie."""
    pid, started = proc
    fields = _stat_fields(pid)
    return fields is not None and int(fields[19]) == started and fields[0] != "Z"


def survivors(procs: list[Proc], within: float) -> list[Proc]:
    """The processes of ``procs`` still running after up to ``within`` seconds."""
    deadline = time.monotonic() + within
    while True:
        alive = [proc for proc in procs if runs(proc)]
        if not alive or time.monotonic() > deadline:
            return alive
        time.sleep(POLL)
