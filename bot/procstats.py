"""CPU time and memory of a process, read from Linux's /proc (no dependency needed).

The bot samples itself and its search worker after every phase, so a game
log shows how much CPU each phase cost and whether memory grows over a long
game.  ``VmHWM`` is the peak resident set size since the process started or
since the last :func:`reset_peak` (writing ``5`` to ``/proc/PID/clear_refs``),
which lets the bot report the peak of each game year separately.

On a system without /proc every function returns ``None``/``False``: the
figures are then simply missing, the bot plays on.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass

_CLOCK_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


@dataclass(frozen=True, slots=True)
class ProcessSample:
    """One reading of a process: CPU seconds used so far, current and peak resident memory."""

    pid: int
    cpu_seconds: float
    rss_kb: int
    peak_kb: int


def sample(pid: int | None = None) -> ProcessSample | None:
    """Read ``pid`` (default: this process); None if it has gone or /proc is missing."""
    pid = os.getpid() if pid is None else pid
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            stat = f.read()
        with open(f"/proc/{pid}/status", encoding="ascii") as f:
            status = f.read()
    except OSError:
        return None
    # The command name (field 2) may hold spaces: the fields we need follow its ")".
    fields = stat[stat.rfind(")") + 2 :].split()
    try:
        cpu = (int(fields[11]) + int(fields[12])) / _CLOCK_TICKS  # utime + stime
    except (IndexError, ValueError):
        return None
    return ProcessSample(pid, cpu, _status_kb(status, "VmRSS"), _status_kb(status, "VmHWM"))


def reset_peak(pid: int | None = None) -> bool:
    """Start a new peak-memory window for ``pid`` (VmHWM := current RSS); False if not allowed."""
    pid = os.getpid() if pid is None else pid
    try:
        with open(f"/proc/{pid}/clear_refs", "w", encoding="ascii") as f:
            f.write("5")
    except OSError:
        return False
    return True


def _status_kb(status: str, key: str) -> int:
    start = status.find(key + ":")
    if start < 0:
        return 0
    line = status[start + len(key) + 1 : status.find("\n", start)]
    try:
        return int(line.split()[0])
    except (IndexError, ValueError):
        return 0


class ResourceMonitor:
    """Follows the bot's two processes (client and search worker) through a game.

    :meth:`sample` gives a per-phase reading for the game log; :meth:`new_year`
    closes the previous game year's peak-memory window and opens the next;
    :meth:`totals` gives the figures for the game summary.  Peaks survive the
    per-year resets because every reading keeps the running maximum.
    """

    def __init__(self) -> None:
        self.started = time.monotonic()
        self.cpu_main = 0.0
        self.cpu_worker = 0.0
        self.peak_main = 0
        self.peak_worker = 0
        self.yearly: dict[str, int] = {}
        self._year: int | None = None
        self._worker_cpu_before = 0.0  # CPU of earlier worker processes (after a restart)
        self._worker_pid: int | None = None

    def sample(self, worker_pid: int | None) -> dict[str, float | int]:
        """Read both processes now; a record for the game log."""
        main = sample()
        worker = self._read_worker(worker_pid)
        record: dict[str, float | int] = {}
        if main is not None:
            self.cpu_main = main.cpu_seconds
            self.peak_main = max(self.peak_main, main.peak_kb)
            record.update(rss_kb=main.rss_kb, peak_kb=main.peak_kb, cpu_seconds=main.cpu_seconds)
        if worker is not None:
            self.peak_worker = max(self.peak_worker, worker.peak_kb)
            record.update(
                worker_rss_kb=worker.rss_kb,
                worker_peak_kb=worker.peak_kb,
                worker_cpu_seconds=round(self.cpu_worker, 3),
            )
        return record

    def new_year(self, year: int, worker_pid: int | None) -> int | None:
        """A phase of ``year`` begins: close the last year's window; its peak (kB) if any."""
        if self._year is not None and year <= self._year:
            return None
        main = sample()
        worker = self._read_worker(worker_pid)
        finished = None
        if self._year is not None:
            finished = (main.peak_kb if main else 0) + (worker.peak_kb if worker else 0)
            self.yearly[str(self._year)] = finished
        if main is not None:
            self.peak_main = max(self.peak_main, main.peak_kb)
            reset_peak()
        if worker is not None:
            self.peak_worker = max(self.peak_worker, worker.peak_kb)
            reset_peak(worker.pid)
        self._year = year
        return finished

    def totals(self, worker_pid: int | None) -> dict[str, float | int]:
        """Wall time, CPU seconds and peak memory so far (closes the current year's window)."""
        main = sample()
        worker = self._read_worker(worker_pid)
        if main is not None:
            self.cpu_main = main.cpu_seconds
            self.peak_main = max(self.peak_main, main.peak_kb)
        if worker is not None:
            self.peak_worker = max(self.peak_worker, worker.peak_kb)
        if self._year is not None:
            self.yearly[str(self._year)] = (main.peak_kb if main else 0) + (
                worker.peak_kb if worker else 0
            )
        return {
            "wall_seconds": round(time.monotonic() - self.started, 3),
            "cpu_seconds": round(self.cpu_main, 3),
            "worker_cpu_seconds": round(self.cpu_worker, 3),
            "peak_rss_kb": self.peak_main,
            "worker_peak_rss_kb": self.peak_worker,
        }

    def _read_worker(self, pid: int | None) -> ProcessSample | None:
        if pid is None:
            return None
        if pid != self._worker_pid:
            self._worker_cpu_before = self.cpu_worker
            self._worker_pid = pid
        worker = sample(pid)
        if worker is not None:
            self.cpu_worker = self._worker_cpu_before + worker.cpu_seconds
        return worker
