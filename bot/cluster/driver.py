"""A tournament on a Ray cluster: the driver's side.

:func:`run_on_ray` connects to the cluster, checks that every node runs this
very daide-mcts (a node that does not is refused: no game is scheduled on
it), and submits each game not yet in the tournament folder as one Ray task
reserving ``cpus_per_game`` CPUs.  Results are written as they arrive, the
same way a local tournament writes them (:mod:`bot.tournament`), so the
folder, its tables and its resumption are the same; a game's run folder is
unpacked beside the others and its ``game.json`` written last, under a
temporary name renamed into place, so a game is either there whole or not
at all, and never twice (a game's id is its index in the tournament).

Faults: a task whose node or worker process is lost is submitted again
(another node takes it when the lost one is gone); a game the watchdog
stopped is played once more, then reported; a node found running another
build by a game's task is refused from then on and the game goes elsewhere.
"""

from __future__ import annotations

import contextlib
import io
import ipaddress
import json
import os
import re
import shutil
import signal
import socket
import tarfile
import time
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from bot.cluster.identity import Build, this_build
from bot.cluster.options import AUTO, default_cpus
from bot.cluster.task import Status, config_to_dict, play_on_node, probe
from bot.tournament.progress import describe_game
from bot.tournament.reports import write_results
from bot.tournament.saved import (
    GAME_FILE,
    GameEntry,
    TournamentError,
    TournamentSettings,
    game_folder,
    prepare,
    read_game,
)
from bot.tournament.schedule import TournamentRun

if TYPE_CHECKING:
    from rich.progress import Progress, TaskID

MAX_LOSSES = 3
"""Times a game is submitted again after losing its node or worker, before it is reported."""

HUNG_RETRIES = 1
"""Times a game stopped by the watchdog is played again, before it is reported."""

WATCHDOG_MARGIN = 120.0
"""Seconds the default watchdog adds to a game's own time limit."""

PROBE_TIMEOUT = 120.0
"""Seconds a node gets to answer the build check."""

RESULTS_INTERVAL = 5.0
"""Least seconds between two rewrites of the tables and chart (each game is stored at once).

Rewriting them takes about a second at a thousand games on this machine: at
every result, that would cap a driver at a few thousand games an hour."""

POLL = 0.5
"""Seconds between two looks at the running tasks (and redraws of the progress bar)."""

NODE_ID_LABEL = "ray.io/node-id"

INIT_ATTEMPTS = 2
"""Tries at joining a ``ray://`` head whose client server accepts us, then fails to start
our session (seen once in a full test run, beside other processes: a second try works)."""

CONNECT_TIMEOUT = 10.0
"""Seconds a TCP connection to the head's address gets before Ray is given it: where nothing
listens, Ray's client retries for half a minute before it says so."""


class ClusterError(Exception):
    """The tournament cannot run on the cluster (no Ray, unreachable, no usable node...)."""


@dataclass(frozen=True)
class NodeCheck:
    """The cluster's nodes, as the build check found them."""

    accepted: dict[str, dict[str, Any]]
    """Node id -> identity (host, address, build) of the nodes that run our build."""
    refused: dict[str, str]
    """Node id -> why it is refused (one line naming the node)."""


def _ray() -> Any:
    try:
        import ray
    except ImportError:
        raise ClusterError(
            "--ray needs Ray, which is not installed: pip install 'daide-mcts[cluster]'"
        ) from None
    return ray


def connect(address: str) -> None:
    """Join the Ray cluster at ``address`` as its driver; ClusterError if it cannot be reached."""
    ray = _ray()
    if address != AUTO:
        _listening(address)
    options: dict[str, Any] = {"logging_level": "ERROR", "log_to_driver": False}
    if not address.startswith("ray://") and address != AUTO:
        host = address.rsplit(":", 1)[0]
        try:
            loopback = ipaddress.ip_address(host).is_loopback
        except ValueError:
            loopback = False
        if loopback:  # a cluster on this machine's loopback: the driver is on that node
            options["_node_ip_address"] = host
    for attempt in range(1, INIT_ATTEMPTS + 1):
        try:
            with warnings.catch_warnings():  # Ray warns, then raises: the error says it all
                warnings.simplefilter("ignore")
                ray.init(address=address, **options)
            return
        except (ConnectionError, RuntimeError, ValueError, TimeoutError) as exc:
            # ConnectionAbortedError: the head took the connection, then failed; once more.
            if isinstance(exc, ConnectionAbortedError) and attempt < INIT_ATTEMPTS:
                continue
            raise ClusterError(f"cannot join the Ray cluster at {address}: {reason(exc)}") from None


def _listening(address: str) -> None:
    """ClusterError at once when nothing accepts a TCP connection at ``address``.

    ``address``: ``ray://HOST:PORT`` or ``HOST:PORT``, as bot.cluster.options checked it.
    """
    host, _, port = address.removeprefix("ray://").rpartition(":")
    if not host or not port.isdigit():
        return  # not HOST:PORT: Ray says what is wrong with it
    try:
        with socket.create_connection((host, int(port)), timeout=CONNECT_TIMEOUT):
            pass
    except OSError as exc:
        said = exc.strerror or reason(exc)
        raise ClusterError(
            f"cannot join the Ray cluster at {address}: nothing answers at {host}:{port} ({said})"
        ) from None


def reason(exc: BaseException) -> str:
    """One line saying why ``exc`` happened.

    Ray's client puts the head's whole traceback under a first line ending in a
    colon ("Initialization failure from server:"): the traceback's last line is the
    reason, and goes after it.
    """
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    if not lines:
        return type(exc).__name__
    if lines[0].endswith(":") and len(lines) > 1:
        return f"{lines[0]} {lines[-1]}"
    return lines[0]


def _describe_node(identity: dict[str, Any]) -> str:
    return f"{identity.get('address') or '?'} ({identity.get('host', '?')})"


def check_nodes(expected: Build, timeout: float = PROBE_TIMEOUT) -> NodeCheck:
    """Ask every live node what it runs; accept those that run ``expected``, refuse the others."""
    ray = _ray()
    from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

    remote_probe = ray.remote(probe)
    asked = {}
    for node in ray.nodes():
        if not node.get("Alive") or node.get("Resources", {}).get("CPU", 0) <= 0:
            continue
        strategy = NodeAffinitySchedulingStrategy(node_id=node["NodeID"], soft=False)
        ref = remote_probe.options(num_cpus=0, scheduling_strategy=strategy).remote()
        asked[node["NodeID"]] = (node, ref)
    accepted: dict[str, dict[str, Any]] = {}
    refused: dict[str, str] = {}
    for node_id, (node, ref) in asked.items():
        try:
            identity = ray.get(ref, timeout=timeout)
        except ray.exceptions.GetTimeoutError:
            refused[node_id] = f"node {node['NodeManagerAddress']}: no answer within {timeout:.0f}s"
            continue
        except ray.exceptions.RayError as exc:
            refused[node_id] = f"node {node['NodeManagerAddress']}: {reason(exc)}"
            continue
        why = expected.difference(Build.from_dict(identity["build"]))
        if why is None:
            accepted[node_id] = identity
        else:
            refused[node_id] = f"node {_describe_node(identity)} refused: {why}"
    return NodeCheck(accepted, refused)


def _node_cpus(node_ids: set[str]) -> list[float]:
    ray = _ray()
    return [
        float(n.get("Resources", {}).get("CPU", 0))
        for n in ray.nodes()
        if n.get("Alive") and n["NodeID"] in node_ids
    ]


def _unpack(archive: bytes, target: Path) -> None:
    target.mkdir(parents=True)
    with tarfile.open(fileobj=io.BytesIO(archive), mode="r:gz") as tar:
        tar.extractall(target, filter="data")


def keep_unfinished(folder: Path, result: dict[str, Any]) -> None:
    """Unpack the run folder of a game that did not finish, to look into (no ``game.json``).

    As in a local tournament, a resumed run plays it again.
    """
    if result.get("archive"):
        target = game_folder(folder, int(result["index"]))
        if not (target / GAME_FILE).exists():
            shutil.rmtree(target, ignore_errors=True)
            _unpack(result["archive"], target)


def lost_reason(exc: BaseException) -> str:
    """Ray's long message about a lost task in a few words: the error and the node."""
    node = re.search(r"Node IP: ([^,\s]+)", str(exc))
    return f"{type(exc).__name__}{f' on node {node.group(1)}' if node else ''}"


def store_game(folder: Path, result: dict[str, Any]) -> GameEntry:
    """Write a finished game into the tournament folder, whole or not at all; its entry.

    The run folder is unpacked under a temporary name, ``game.json`` (with
    the node that played it) written into it, and the folder renamed into
    place.  A game already stored (and readable) is left as it is.
    """
    entry = GameEntry.from_dict(result["entry"])
    target = game_folder(folder, entry.index)
    if (target / GAME_FILE).exists():
        with contextlib.suppress(TournamentError):  # an unreadable one is replaced
            return read_game(target / GAME_FILE)
    partial = target.with_name(f".{target.name}.partial-{os.getpid()}")
    shutil.rmtree(partial, ignore_errors=True)
    _unpack(result["archive"], partial)
    data = {**entry.to_dict(), "node": result.get("node", {})}
    (partial / GAME_FILE).write_text(json.dumps(data, indent=1) + "\n")
    shutil.rmtree(target, ignore_errors=True)
    partial.rename(target)
    return entry


@dataclass
class _Attempt:
    """A game in flight: how often it lost its node, how often the watchdog stopped it."""

    index: int
    losses: int = 0
    hung: int = 0
    submitted: float = field(default_factory=time.monotonic)


class _Progress:
    """The progress bar (rich), with a line per event above it."""

    def __init__(self, stream: TextIO, games: int, done: int) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

        self.console = Console(file=stream, soft_wrap=True, highlight=False)
        self.progress: Progress = Progress(
            "[progress.description]{task.description}",
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=self.console,
            transient=False,
        )
        self.task: TaskID = self.progress.add_task("games", total=games, completed=done)

    def note(self, text: str) -> None:
        self.console.print(text, markup=False)

    def advance(self, running: int, nodes: int) -> None:
        self.progress.update(
            self.task, advance=1, description=f"games ({running} running on {nodes} nodes)"
        )

    def running(self, running: int, nodes: int) -> None:
        self.progress.update(self.task, description=f"games ({running} running on {nodes} nodes)")


def run_on_ray(
    settings: TournamentSettings,
    folder: Path,
    games: int,
    *,
    address: str = AUTO,
    cpus_per_game: float | None = None,
    watchdog: float | None = None,
    telemetry: str | None = None,
    stream: TextIO | None = None,
) -> TournamentRun:
    """Play the games ``folder`` lacks on the Ray cluster at ``address``; write the results.

    ClusterError if Ray is missing, the cluster cannot be reached, or no node
    can take a game.  KeyboardInterrupt (after cancelling the running games)
    on Ctrl-C.
    """
    ray = _ray()
    connect(address)
    previous = _sigterm_interrupts()
    try:
        return _run(
            ray,
            settings,
            folder,
            games,
            cpus_per_game=cpus_per_game or default_cpus(settings.seats),
            watchdog=watchdog,
            telemetry=telemetry,
            stream=stream,
        )
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)
        ray.shutdown()


def _raise_interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def _sigterm_interrupts() -> Any:
    """Make SIGTERM end the run like Ctrl-C (running games cancelled); the previous handler."""
    try:
        return signal.signal(signal.SIGTERM, _raise_interrupt)
    except ValueError:  # not the main thread: leave signals alone
        return None


def _run(
    ray: Any,
    settings: TournamentSettings,
    folder: Path,
    games: int,
    *,
    cpus_per_game: float,
    watchdog: float | None,
    telemetry: str | None,
    stream: TextIO | None,
) -> TournamentRun:
    build = this_build()
    nodes = check_nodes(build)
    entries = prepare(folder, settings, games)
    kept = len(entries)
    view = _Progress(stream or io.StringIO(), games, len([k for k in entries if k < games]))
    for line in nodes.refused.values():
        view.note(
            line + "; install the same daide-mcts on every node (README: Tournaments on a cluster)"
        )
    if not nodes.accepted:
        raise ClusterError(f"no node of the cluster runs {build}")
    if max(_node_cpus(set(nodes.accepted)), default=0.0) < cpus_per_game:
        raise ClusterError(
            f"each game reserves {cpus_per_game:g} CPUs (--cpus-per-game) and no accepted node "
            f"has that many"
        )
    view.note(
        f"Ray cluster: {len(nodes.accepted)} node(s) running {build}; "
        f"{cpus_per_game:g} CPU(s) per game"
    )
    if kept:
        view.note(f"resuming: {kept} finished game(s) kept in {folder}")
    scheduler = _Scheduler(ray, settings, folder, games, entries, view, nodes, build)
    scheduler.cpus_per_game = cpus_per_game
    scheduler.watchdog = watchdog
    scheduler.telemetry = telemetry
    scheduler.run()
    table = write_results(folder, settings, [e for k, e in entries.items() if k < games], games)
    return TournamentRun(folder, settings, games, entries, kept, scheduler.failures, table)


class _Scheduler:
    """The games in flight: submits them, and takes each result or fault as it comes."""

    def __init__(
        self,
        ray: Any,
        settings: TournamentSettings,
        folder: Path,
        games: int,
        entries: dict[int, GameEntry],
        view: _Progress,
        nodes: NodeCheck,
        build: Build,
    ) -> None:
        self.ray = ray
        self.settings = settings
        self.folder = folder
        self.games = games
        self.entries = entries
        self.view = view
        self.accepted = set(nodes.accepted)
        self.refused = set(nodes.refused)
        self.expected = build.as_dict()
        self.cpus_per_game = 1.0
        """CPUs each game's task reserves."""
        self.watchdog: float | None = None
        """Seconds before a running game is stopped (None: its time limit plus a margin)."""
        self.telemetry: str | None = None
        """The bots' ``--telemetry`` URL."""
        self.failures: dict[int, str] = {}
        self.pending: dict[Any, _Attempt] = {}
        self.remote = ray.remote(play_on_node)
        self._written = 0.0
        self._alive = len(self.accepted)

    def submit(self, attempt: _Attempt) -> None:
        """Start (or start again) a game's task, away from every refused node."""
        from ray.util.scheduling_strategies import NodeLabelSchedulingStrategy, NotIn

        config = self.settings.game_config(attempt.index, self.telemetry)
        limit = self.watchdog or config.time_limit() + WATCHDOG_MARGIN
        options: dict[str, Any] = {"num_cpus": self.cpus_per_game, "max_retries": 0}
        if self.refused:
            options["scheduling_strategy"] = NodeLabelSchedulingStrategy(
                hard={NODE_ID_LABEL: NotIn(*sorted(self.refused))}
            )
        ref = self.remote.options(**options).remote(
            config_to_dict(config), attempt.index, limit, self.expected
        )
        attempt.submitted = time.monotonic()
        self.pending[ref] = attempt

    def run(self) -> None:
        """Play every game the folder lacks; cancel the running ones on any interruption."""
        for index in range(self.games):
            if index not in self.entries:
                self.submit(_Attempt(index))
        with self.view.progress:
            try:
                while self.pending:
                    ready, _ = self.ray.wait(list(self.pending), num_returns=1, timeout=POLL)
                    live = {n["NodeID"] for n in self.ray.nodes() if n["Alive"]}
                    self._alive = len(self.accepted & live)
                    self.view.running(len(self.pending), self._alive)
                    for ref in ready:
                        self._take(ref, self.pending.pop(ref))
            except BaseException:
                for ref in self.pending:
                    self.ray.cancel(ref, force=True)
                raise

    def _fail(self, attempt: _Attempt, problem: str) -> None:
        self.failures[attempt.index] = problem
        self.view.note(f"game {attempt.index + 1}: {problem}")

    def _take(self, ref: Any, attempt: _Attempt) -> None:
        """One task has ended: store its game, play it again, or report it."""
        number = attempt.index + 1
        try:
            result = self.ray.get(ref)
        except self.ray.exceptions.RayTaskError as exc:  # our code raised on the node
            self._fail(attempt, f"failed on its node: {str(exc).strip().splitlines()[-1]}")
            return
        except self.ray.exceptions.RayError as exc:  # its node or worker process was lost
            attempt.losses += 1
            if attempt.losses > MAX_LOSSES:
                self._fail(attempt, f"lost {attempt.losses} times: {lost_reason(exc)}")
            else:
                self.view.note(
                    f"game {number}: lost mid-game ({lost_reason(exc)}); playing it again"
                )
                self.submit(attempt)
            return
        status = result["status"]
        node = _describe_node(result.get("node", {}))
        problems = "; ".join(result.get("problems", [])) or "no result"
        if status in (Status.HUNG, Status.FAILED):
            keep_unfinished(self.folder, result)
        if status == Status.REFUSED:
            self.refused.add(result["node"]["node_id"])
            self.view.note(f"game {number}: node {node} refused: {problems}; moving the game")
            self.submit(attempt)
        elif status == Status.HUNG:
            attempt.hung += 1
            if attempt.hung > HUNG_RETRIES:
                self._fail(attempt, f"hung twice (on {node}): {problems}")
            else:
                self.view.note(f"game {number} on {node}: {problems}; playing it again")
                self.submit(attempt)
        elif status == Status.DONE:
            self._store(result, node)
        else:
            self._fail(attempt, f"did not end cleanly on {node}: {problems}")

    def _store(self, result: dict[str, Any], node: str) -> None:
        entry = store_game(self.folder, result)
        self.entries[entry.index] = entry
        self.view.advance(len(self.pending), self._alive)
        self.view.note(
            f"game {entry.index + 1}/{self.games} on {node}: "
            f"{describe_game(entry, self.settings.seats)}"
        )
        if time.monotonic() - self._written >= RESULTS_INTERVAL:
            entries = list(self.entries.values())
            write_results(self.folder, self.settings, entries, self.games)
            self._written = time.monotonic()
