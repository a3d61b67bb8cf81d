"""CPU time and memory of a process, from psutil.

The bot samples itself and its search worker after every phase, so a game
log shows how much CPU each phase cost and whether memory grows over a long
game.  psutil gives CPU seconds and the resident set size (RSS) now; the
peak of a process's RSS is the largest reading taken (after every phase and
at every year's start), and for this process also the kernel's own peak
(``resource.getrusage``), which lets the bot report the peak of each game
year separately (:meth:`ResourceMonitor.new_year` opens a new window).

A process that has gone, or one psutil may not read, gives ``None``: the
figures are then simply missing, the bot plays on.
"""

from __future__ import annotations

import os
import resource
import sys
import time
from dataclasses import dataclass

import psutil

KIB = 1024


@dataclass(frozen=True, slots=True)
class ProcessSample:
    """One reading of a process: CPU seconds used so far, current and peak resident memory."""

    pid: int
    cpu_seconds: float
    rss_kb: int
    peak_kb: int


def _own_peak_kb() -> int:
    """The peak RSS of the current process since it started, as the kernel counts it."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak // KIB if sys.platform == "darwin" else peak  # bytes on macOS, kB on Linux


def sample(pid: int | None = None) -> ProcessSample | None:
    """Read ``pid`` (default: this process); None if it has gone or cannot be read."""
    own = pid is None or pid == os.getpid()
    pid = os.getpid() if pid is None else pid
    try:
        process = psutil.Process(pid)
        with process.oneshot():
            times = process.cpu_times()
            rss_kb = process.memory_info().rss // KIB
    except (psutil.Error, OSError):
        return None
    peak_kb = max(rss_kb, _own_peak_kb()) if own else rss_kb
    return ProcessSample(pid, times.user + times.system, rss_kb, peak_kb)


class ResourceMonitor:
    """Follows the bot's two processes (client and search worker) through a game.

    :meth:`sample` gives a per-phase reading for the game log; :meth:`new_year`
    closes the previous game year's peak-memory window and opens the next;
    :meth:`totals` gives the figures for the game summary.  A year's peak is
    the largest RSS read during it (both processes together); the peaks over
    the whole game are the largest readings of each process.
    """

    def __init__(self) -> None:
        self.started = time.monotonic()
        self.cpu_main = 0.0
        self.cpu_worker = 0.0
        self.peak_main = 0
        self.peak_worker = 0
        self.yearly: dict[str, int] = {}
        self._year: int | None = None
        self._year_main = 0  # the largest readings of the current year
        self._year_worker = 0
        self._worker_cpu_before = 0.0  # CPU of earlier worker processes (after a restart)
        self._worker_pid: int | None = None

    def _read(self, worker_pid: int | None) -> tuple[ProcessSample | None, ProcessSample | None]:
        """Read both processes and fold the readings into the running maxima."""
        main = sample()
        worker = self._read_worker(worker_pid)
        if main is not None:
            self.cpu_main = main.cpu_seconds
            self.peak_main = max(self.peak_main, main.peak_kb)
            self._year_main = max(self._year_main, main.rss_kb)
        if worker is not None:
            self.peak_worker = max(self.peak_worker, worker.peak_kb)
            self._year_worker = max(self._year_worker, worker.rss_kb)
        return main, worker

    def sample(self, worker_pid: int | None) -> dict[str, float | int]:
        """Read both processes now; a record for the game log."""
        main, worker = self._read(worker_pid)
        record: dict[str, float | int] = {}
        if main is not None:
            record.update(rss_kb=main.rss_kb, peak_kb=main.peak_kb, cpu_seconds=main.cpu_seconds)
        if worker is not None:
            record.update(
                worker_rss_kb=worker.rss_kb,
                worker_peak_kb=self.peak_worker,
                worker_cpu_seconds=round(self.cpu_worker, 3),
            )
        return record

    def new_year(self, year: int, worker_pid: int | None) -> int | None:
        """A phase of ``year`` begins: close the last year's window; its peak (kB) if any."""
        if self._year is not None and year <= self._year:
            return None
        main, worker = self._read(worker_pid)
        finished = None
        if self._year is not None:
            finished = self._year_main + self._year_worker
            self.yearly[str(self._year)] = finished
        self._year_main = main.rss_kb if main is not None else 0
        self._year_worker = worker.rss_kb if worker is not None else 0
        self._year = year
        return finished

    def totals(self, worker_pid: int | None) -> dict[str, float | int]:
        """Wall time, CPU seconds and peak memory so far (the current year's peak included)."""
        self._read(worker_pid)
        if self._year is not None:
            self.yearly[str(self._year)] = self._year_main + self._year_worker
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
