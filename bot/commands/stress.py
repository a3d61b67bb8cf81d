"""daide-mcts stress: scripted deadline stress tests on a real Parlance and a hostile server.

Runs the scenarios of the stress suite one after the other, prints a table
(missed orders, the margin between each bot's last submission and the
deadline as the server saw it, CPU share and peak memory per bot) and saves
everything as JSON.  Exits 1 if any scenario missed an order or failed a
check.  With --fuzz N it runs the hostile-server fuzzer instead: N seeded
mutations of a recorded Parlance game, each replayed to the real client, and
a table of the invariants held and violated per kind of mutation; it exits 1
if any was violated.  Examples:

    daide-mcts stress                                   # the full default set
    daide-mcts stress --short --strategy dumbbot        # the CI version
    daide-mcts stress --scenario long-game              # peak memory per year, 20 years
    daide-mcts stress --fuzz 300 --seed 1               # 300 fuzz cases
    daide-mcts stress --fuzz-case 17 --seed 1           # one fuzz case again
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bot.stress.scenarios import DEFAULT_SET, FULL, Scenario, short
from bot.toolkit.usererror import UserError

if TYPE_CHECKING:
    from bot.stress.report import ScenarioResult


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
    fuzz = p.add_argument_group("the hostile-server fuzzer (instead of the scenarios)")
    fuzz.add_argument("--fuzz", type=int, metavar="N", help="run fuzz cases 0 to N-1 of --seed")
    fuzz.add_argument(
        "--fuzz-case",
        type=int,
        action="append",
        metavar="I",
        help="run fuzz case I of --seed (repeatable; what a failure prints to reproduce it)",
    )
    fuzz.add_argument(
        "--fuzz-clients",
        type=int,
        default=2,
        metavar="K",
        help="clients playing cases side by side (default 2)",
    )
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Run the chosen scenarios (or the fuzzer); 0 if every one passed."""
    if args.fuzz is not None or args.fuzz_case:
        return run_fuzz_cases(args)

    from bot.client.settings import BotSettings
    from bot.servers.parlance_install import ParlanceUnavailableError, install
    from bot.stress.scenario_runner import run_scenario

    strategy = args.strategy or BotSettings().strategy
    _check_strategy(strategy)
    if args.final_year is not None and not 1901 <= args.final_year <= 2000:
        raise UserError("--final-year must be between 1901 and 2000")
    try:
        parlance = install()
    except ParlanceUnavailableError as exc:
        raise UserError(f"Parlance is needed for the stress tests: {exc}") from exc
    scenarios = _scenarios(args)
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
    figures = {
        "strategy": strategy,
        "short": args.short,
        "scenarios": [r.as_dict() for r in results],
    }
    json_path = _save(figures, args.json or out / "stress.json")
    _print_scenario_results(results)
    print(f"\nfigures saved in {json_path}; logs in {out}")
    return 0 if all(r.passed for r in results) else 1


def _check_strategy(strategy: str) -> None:
    """UserError if ``--strategy`` names no strategy."""
    from search.choosers import check_strategy
    from search.registry import PolicySpecError

    try:
        check_strategy(strategy)
    except PolicySpecError as exc:
        raise UserError(f"--strategy {strategy}: {exc}") from exc


def _scenarios(args: argparse.Namespace) -> list[Scenario]:
    """The scenarios ``--scenario``, ``--short`` and ``--final-year`` ask for."""
    names = args.scenario or list(DEFAULT_SET)
    scenarios = [short(FULL[n]) if args.short else FULL[n] for n in names]
    if args.final_year is not None:
        scenarios = [s if s.hostile else replace(s, final_year=args.final_year) for s in scenarios]
    return scenarios


def _save(figures: dict[str, Any], json_path: Path) -> Path:
    """Write ``figures`` to ``json_path`` under the command line, the date and the machine."""
    document = {
        "command": "daide-mcts stress " + " ".join(sys.argv[2:]),
        "date": time.strftime("%Y-%m-%d %H:%M:%S"),
        "machine": {
            "cores": os.cpu_count(),
            "python": platform.python_version(),
            "platform": platform.platform(),
        },
        **figures,
    }
    json_path.parent.mkdir(parents=True, exist_ok=True)
    json_path.write_text(json.dumps(document, indent=2) + "\n")
    return json_path


def _print_scenario_results(results: list[ScenarioResult]) -> None:
    """The table of every scenario, then the memory of each long one year by year."""
    from bot.stress.report import table, yearly_table

    print(table(results))
    for result in results:
        if "yearly_peak_mb" in result.extra:
            print(f"\n{result.name}: peak memory per game year")
            print(yearly_table(result))
            if "memory_growth" in result.extra:
                growth = 100 * result.extra["memory_growth"]
                print(f"growth, early years to last years: {growth:.1f}%")


MAX_FUZZ_CASES = 1_000_000
"""Most fuzz cases one run may ask for."""

MAX_FUZZ_CLIENTS = 64
"""Most clients playing fuzz cases side by side."""


def run_fuzz_cases(args: argparse.Namespace) -> int:
    """``--fuzz N`` / ``--fuzz-case I``: run the fuzzer, print its table; 0 if nothing failed."""
    from bot.stress.fuzz import DEFAULT_STRATEGY, CaseResult, run_fuzz
    from bot.stress.fuzz_stream import StreamError, recorded_game

    _check_fuzz_flags(args)
    strategy = args.strategy or DEFAULT_STRATEGY
    _check_strategy(strategy)
    try:
        stream = recorded_game()
    except (OSError, StreamError) as exc:
        raise UserError(f"the recorded game cannot be read: {exc}") from exc
    cases = list(range(args.fuzz or 0)) + [c for c in args.fuzz_case or () if c >= (args.fuzz or 0)]
    print(
        f"fuzzing: {len(cases)} cases of seed {args.seed}, {args.fuzz_clients} clients, "
        f"strategy {strategy} ...",
        file=sys.stderr,
        flush=True,
    )

    def show(result: CaseResult) -> None:
        if not result.passed:
            print(f"FAIL {result.headline()}", flush=True)
            for problem in result.problems:
                print(f"     {problem}", flush=True)

    report = asyncio.run(
        run_fuzz(
            cases,
            args.seed,
            parallel=args.fuzz_clients,
            strategy=strategy,
            stream=stream,
            on_case=show,
        )
    )
    stamp = time.strftime("%Y%m%d-%H%M%S")
    json_path = _save(report.as_dict(), args.json or args.out / stamp / "fuzz.json")
    total = report.totals()
    print()
    print("invariants held/violated per kind of mutation:")
    print(report.table())
    print(
        f"\n{total.cases} cases in {report.wall_seconds:.0f} s: "
        f"{total.cases - len(report.failures)} passed, {len(report.failures)} failed; "
        f"invariants held {sum(total.held.values())}, violated {sum(total.violated.values())}"
    )
    print(f"figures saved in {json_path}")
    return 1 if report.failures else 0


def _check_fuzz_flags(args: argparse.Namespace) -> None:
    """UserError if the fuzzer's flags are out of range or mixed with the scenarios'."""
    if args.scenario or args.short or args.final_year is not None:
        raise UserError("--fuzz runs the fuzzer alone: drop --scenario, --short, --final-year")
    if args.fuzz is not None and not 1 <= args.fuzz <= MAX_FUZZ_CASES:
        raise UserError(f"--fuzz must be between 1 and {MAX_FUZZ_CASES}")
    if any(c < 0 for c in args.fuzz_case or ()):
        raise UserError("--fuzz-case must not be negative")
    if not 1 <= args.fuzz_clients <= MAX_FUZZ_CLIENTS:
        raise UserError(f"--fuzz-clients must be between 1 and {MAX_FUZZ_CLIENTS}")
