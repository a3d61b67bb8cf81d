"""Games per hour: a local tournament (``--parallel K``) against the same on a local Ray cluster.

``daide-mcts bench cluster`` plays the same short tournament ``--runs`` times
each way on this machine: locally with ``--parallel K``, and through a
one-node Ray cluster of ``K`` CPUs started here on loopback (each game one
task reserving one CPU, so K at once as well).  The difference is Ray's
overhead per game.  It also times the driver's bookkeeping per finished game
(rewriting every table and the chart) for a large tournament, which bounds
how many games per hour one driver can take from many machines.
"""

from __future__ import annotations

import argparse
import io
import statistics
import tempfile
import time
from pathlib import Path

from bot.local.launch import Deadlines
from bot.local.lineup import parse_lineup
from bot.measure.metrics import GameRecord
from bot.servers.ray import RayNode
from bot.tournament.reports import write_results
from bot.tournament.saved import GameEntry, TournamentSettings, game_folder
from bot.tournament.schedule import run_tournament

HOUR = 3600.0
POWERS = ("AUS", "ENG", "FRA", "GER", "ITA", "RUS", "TUR")


def _per_hour(games: int, seconds: float) -> float:
    return games * HOUR / seconds


def _bookkeeping(settings: TournamentSettings, games: int, folder: Path) -> float:
    """Seconds the driver spends writing the results after one game of a ``games``-game run."""
    entries = []
    for index in range(games):
        centres = [(index + i) % 8 + 1 for i in range(7)]
        record = GameRecord.scored(
            index=index,
            powers=POWERS,
            years=(1900, 1901, 1902),
            curve=((3,) * 7, tuple(centres), tuple(centres)),
            centres=centres,
            eliminated=[None] * 7,
            solo=None,
            end="WIN 1902",
            seconds=10.0,
        )
        entries.append(GameEntry(index, record, {}, "DRW", "WIN 1902", "bench", 10.0))
    folder.mkdir(parents=True)
    began = time.perf_counter()
    write_results(folder, settings, entries, games)
    return time.perf_counter() - began


def _storing(folder: Path, entry: GameEntry, runs: int = 20) -> float:
    """Median seconds the driver takes to store one game that came back (unpack, rename)."""
    from bot.cluster.driver import store_game
    from bot.cluster.task import _archive

    archive = _archive(game_folder(folder, entry.index))
    times = []
    for run in range(runs):
        target = folder.parent / f"store-{run}"
        result = {"entry": {**entry.to_dict(), "index": 0}, "archive": archive, "node": {}}
        began = time.perf_counter()
        store_game(target, result)
        times.append(time.perf_counter() - began)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print its figures."""
    p = argparse.ArgumentParser(prog="daide-mcts bench cluster", description=__doc__)
    p.add_argument("--games", type=int, default=8, help="games per tournament (8)")
    p.add_argument("--runs", type=int, default=3, help="tournaments each way (3)")
    p.add_argument("--parallel", type=int, default=2, help="games at once, both ways (2)")
    p.add_argument("--lineup", default="dumbbot,random", help="lineup (dumbbot,random)")
    p.add_argument("--final-year", type=int, default=1902, help="final year (1902)")
    p.add_argument("--mtl", type=int, default=2, help="movement deadline, seconds (2)")
    p.add_argument("--big", type=int, default=1000, help="games for the bookkeeping figure")
    args = p.parse_args(argv)
    import ray

    from bot.cluster.driver import RESULTS_INTERVAL, check_nodes, connect, run_on_ray
    from bot.cluster.identity import this_build

    settings = TournamentSettings(
        parse_lineup(args.lineup), args.final_year, Deadlines(args.mtl, 1, 1), seed=1
    )
    with tempfile.TemporaryDirectory(prefix="bench-cluster-") as tmp:
        base = Path(tmp)
        began = time.perf_counter()
        head = RayNode("127.0.0.2", num_cpus=args.parallel, temp_dir=base / "ray").start()
        startup = time.perf_counter() - began
        began = time.perf_counter()
        connect(head.address)
        check_nodes(this_build())
        ray.shutdown()
        joining = time.perf_counter() - began
        local: list[float] = []
        on_ray: list[float] = []
        game_seconds: dict[str, list[float]] = {"local": [], "ray": []}
        try:
            for run in range(args.runs):
                for way in ("local", "ray"):
                    folder = base / f"{way}-{run}"
                    began = time.perf_counter()
                    if way == "local":
                        result = run_tournament(
                            settings, folder, args.games, parallel=args.parallel
                        )
                    else:
                        result = run_on_ray(
                            settings, folder, args.games, address=head.address, stream=io.StringIO()
                        )
                    wall = time.perf_counter() - began
                    if len(result.entries) != args.games:
                        print(f"{way} run {run + 1}: only {len(result.entries)} games finished")
                        return 1
                    (local if way == "local" else on_ray).append(wall)
                    game_seconds[way] += [e.seconds for e in result.entries.values()]
                    print(
                        f"run {run + 1} {way:5}: {wall:6.1f} s for {args.games} games, "
                        f"{_per_hour(args.games, wall):5.0f} games/hour"
                    )
        finally:
            head.stop()
        book = _bookkeeping(settings, args.big, base / "big")
        local_run = base / "local-0"
        stored = _storing(local_run, next(iter(result.entries.values())))
    t_local, t_ray = statistics.median(local), statistics.median(on_ray)
    overhead = (t_ray - joining - t_local) * args.parallel / args.games
    print()
    print(
        f"lineup {args.lineup}, WIN {args.final_year}, MTL {args.mtl}s, {args.games} games, "
        f"{args.parallel} at once; medians of {args.runs} runs"
    )
    print(
        f"--parallel {args.parallel}: {t_local:6.1f} s  {_per_hour(args.games, t_local):5.0f} "
        f"games/hour  (a game itself: {statistics.median(game_seconds['local']):.1f} s)"
    )
    print(
        f"--ray (1 node, {args.parallel} CPUs): {t_ray:6.1f} s  "
        f"{_per_hour(args.games, t_ray):5.0f} games/hour  "
        f"(a game itself: {statistics.median(game_seconds['ray']):.1f} s)"
    )
    print(
        f"Ray's overhead per game: {overhead:.2f} s, plus {joining:.1f} s per tournament to join "
        f"the cluster and check its nodes; starting the head node took {startup:.1f} s"
    )
    print(
        f"driver: storing a game that came back {stored * 1000:.0f} ms (at most "
        f"{HOUR / stored:.0f} games/hour); rewriting the tables at {args.big} games {book:.2f} s "
        f"(done at most every {RESULTS_INTERVAL:.0f} s)"
    )
    return 0
