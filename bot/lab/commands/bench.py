"""daide-mcts bench NAME: run a benchmark that prints figures.

Each benchmark is a module with a function main(argv) -> int: those of the
pure cores (protocol, adjudicator, search) and of the bot's tooling, all in
bot.lab.bench (bench_*); this command only dispatches to them.  Their figures,
with the command that produced them, go into BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import importlib

BENCHMARKS = {
    "protocol": ("bot.lab.bench.bench_protocol", "decode/encode throughput on a captured game"),
    "adjudicator": (
        "bot.lab.bench.bench_adjudicator",
        "movement phases per second, against MILA's engine",
    ),
    "search": (
        "bot.lab.bench.bench_search",
        "MCTS rollouts and iterations per second, 1 and 2 workers",
    ),
    "heuristics": (
        "bot.lab.bench.bench_heuristics",
        "DumbBot's and RandomBot's milliseconds per call",
    ),
    "grades": (
        "bot.lab.bench.bench_grades",
        "the coach's grades against replays: centres lost by label, grading time",
    ),
    "telemetry": (
        "bot.lab.bench.bench_telemetry",
        "emit cost, MQTT publishing rate, event-loop lag",
    ),
    "cluster": ("bot.lab.bench.bench_cluster", "games per hour: --parallel against --ray, locally"),
}


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``bench`` subcommand."""
    p = subparsers.add_parser(
        "bench",
        help="run a benchmark and print its figures",
        description="Benchmarks: "
        + "; ".join(f"{name} ({what})" for name, (_, what) in BENCHMARKS.items()),
    )
    p.add_argument("name", choices=sorted(BENCHMARKS), help="which benchmark")
    p.add_argument("args", nargs=argparse.REMAINDER, help="options for that benchmark")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Import the benchmark's module and run its ``main``."""
    module = importlib.import_module(BENCHMARKS[args.name][0])
    return int(module.main(args.args) or 0)
