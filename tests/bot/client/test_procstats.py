"""Process figures from psutil: this process, a child, one that has gone; yearly peaks."""

from __future__ import annotations

import subprocess
import sys
import time

from bot.client.procstats import ResourceMonitor, sample


def test_a_sample_reads_cpu_and_memory_of_this_process_and_of_a_child() -> None:
    own = sample()
    assert own is not None and own.rss_kb > 1000 and own.peak_kb >= own.rss_kb
    busy = "x = sum(i * i for i in range(3_000_000)); import time; time.sleep(30)"
    child = subprocess.Popen([sys.executable, "-c", busy])
    try:
        reading = None
        for _ in range(100):
            reading = sample(child.pid)
            if reading is not None and reading.cpu_seconds > 0.05:
                break
            time.sleep(0.1)
        assert reading is not None and reading.pid == child.pid and reading.rss_kb > 1000
        assert reading.cpu_seconds > 0.05
    finally:
        child.kill()
        child.wait()
    assert sample(child.pid) is None  # gone


def test_the_monitor_keeps_a_peak_per_year_and_totals() -> None:
    monitor = ResourceMonitor()
    assert monitor.new_year(1901, None) is None
    record = monitor.sample(None)
    assert record["rss_kb"] > 0 and record["cpu_seconds"] > 0
    assert monitor.new_year(1901, None) is None  # the same year: no new window
    finished = monitor.new_year(1902, None)
    assert finished is not None and finished >= record["rss_kb"]
    totals = monitor.totals(None)
    assert set(monitor.yearly) == {"1901", "1902"}
    assert totals["peak_rss_kb"] >= monitor.yearly["1901"] > 0
    assert totals["worker_peak_rss_kb"] == 0
