"""``daide-mcts bench NAME``: every benchmark it names can be found and started."""

from __future__ import annotations

import importlib

import pytest

from bot.cli import main
from bot.lab.commands.bench import BENCHMARKS


@pytest.mark.parametrize("name", sorted(BENCHMARKS))
def test_every_benchmark_module_has_a_main(name: str) -> None:
    module = importlib.import_module(BENCHMARKS[name][0])
    assert callable(module.main)


def test_every_benchmark_is_the_labs() -> None:
    for name in BENCHMARKS:
        assert BENCHMARKS[name][0].startswith("bot.lab.bench."), name


def test_bench_heuristics_prints_its_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "heuristics", "--calls", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert any(line.startswith("dumbbot ") and line.endswith("ms/call") for line in lines)
    assert any(line.startswith("randombot ") and line.endswith("ms/call") for line in lines)
