"""The benchmark runs and prints its table (a smoke test: no figures are checked here)."""

from __future__ import annotations

import pytest

from bot.lab.bench.bench_protocol import main


def test_benchmark_runs(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--runs", "1", "--repeat", "1"]) == 0
    out = capsys.readouterr().out
    for stage in ("bytes -> wire", "bytes -> typed", "typed -> bytes", "text -> typed"):
        assert stage in out
