"""daide-mcts stress: scripted deadline stress tests on a real Parlance and a hostile server.

Runs the scenarios of the stress suite one after the other, prints a table
(missed orders, the margin between each bot's last submission and the
deadline as the server saw it, CPU share and peak memory per bot) and saves
everything as JSON.  Exits 1 if any scenario missed an order or failed a
check.  Examples:

    daide-mcts stress                                   # the full default set
    daide-mcts stress --short --strategy dumbbot        # the CI version
    daide-mcts stress --scenario long-game              # peak memory per year, 20 years
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import sys
import time
from pathlib import Path

from bot.errors import UserError
from bot.stress.scenarios import DEFAULT_SET, FULL, short


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``stress`` subcommand."""
    p = subparsers.add_parser(
        "stress",
        help="run the deadline stress scenarios against a local Parlance",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "--scenario",
        action="append",
        choices=sorted(FULL),
        help="run only this scenario (repeatable; default: all but long-game)",
    )
    p.add_argument("--short", action="store_true", help="the short CI version of each scenario")
    p.add_argument(
        "--strategy",
        help="the bots' movement strategy (default: the bot's default, mcts)",
    )
    p.add_argument("--final-year", type=int, help="override each scenario's final year")
    p.add_argument("--json", type=Path, help="write the figures here (default: OUT/stress.json)")
    p.add_argument(
        "--out",
        type=Path,
        default=Path("runs/stress"),
        help="folder for the bots' logs and the JSON (default runs/stress)",
    )
    p.add_argument("--seed", type=int, default=0, help="seed for the bots and the network")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Run the chosen scenarios; 0 if every one passed."""
    from dataclasses import replace

    from bot.servers.parlance import ParlanceUnavailableError, install
    from bot.settings import BotSettings
    from bot.stress.report import table, yearly_table
    from bot.stress.runner import run_scenario
    from search.choosers import check_strategy
    from search.registry import PolicySpecError

    strategy = args.strategy or BotSettings().strategy
    try:
        check_strategy(strategy)
    except PolicySpecError as exc:
        raise UserError(f"--strategy {strategy}: {exc}") from exc
    if args.final_year is not None and not 1901 <= args.final_year <= 2000:
        raise UserError("--final-year must be between 1901 and 2000")
    try:
        parlance = install()
    except ParlanceUnavailableError as exc:
        raise UserError(f"Parlance is needed for the stress tests: {exc}") from exc
    names = args.scenario or list(DEFAULT_SET)
    scenarios = [short(FULL[n]) if args.short else FULL[n] for n in names]
    if args.final_year is not None:
        scenarios = [s if s.hostile else replace(s, final_year=args.final_year) for s in scenarios]
    stamp = time.strftime("%Y%m%d-%H%M%S")
    out = args.out / stamp
    out.mkdir(parents=True, exist_ok=True)
    results = []
    for scenario in scenarios:
        print(f"running {scenario.name}: {scenario.description} ...", file=sys.stderr, flush=True)
        result = asyncio.run(
            run_scenario(scenario, strategy, out / scenario.name, parlance, args.seed)
        )
        results.append(result)
        verdict = "passed" if result.passed else "FAILED: " + "; ".join(result.problems)
        print(f"  {scenario.name}: {verdict} ({result.wall_seconds:.0f} s)", file=sys.stderr)
    document = {
        "command": "daide-mcts stress " + " ".join(sys.argv[2:]),
        "date": time.strftime("%Y-%m-%d %H:%M:%S"),
        "machine": {
            "cores": os.cpu_count(),
            "python": platform.python_version(),
            "platform": platform.platform(),
        },
        "strategy": strategy,
        "short": args.short,
        "scenarios": [r.as_dict() for r in results],
    }
    json_path = args.json or out / "stress.json"
    json_path.parent.mkdir(parents=True, exist_ok=True)
    json_path.write_text(json.dumps(document, indent=2) + "\n")
    print(table(results))
    for result in results:
        if "yearly_peak_mb" in result.extra:
            print(f"\n{result.name}: peak memory per game year")
            print(yearly_table(result))
            if "memory_growth" in result.extra:
                growth = 100 * result.extra["memory_growth"]
                print(f"growth, early years to last years: {growth:.1f}%")
    print(f"\nfigures saved in {json_path}; logs in {out}")
    return 0 if all(r.passed for r in results) else 1
