"""The hostile-server fuzzer: a real game stream, one seeded mutation per case, the real client.

Each case takes the recorded Parlance game (:mod:`bot.stress.fuzz_stream`),
changes one thing in it (:mod:`bot.stress.fuzz_mutations`: a message dropped,
duplicated, swapped or corrupted; a mutated MDF, NOW, SCO, ORD, HLO, MIS, REJ
or TME; a message from another game), replays it from a
:class:`~bot.stress.fuzz_server.ReplayServer` on loopback to our real client
(in a :mod:`worker process <bot.stress.fuzz_worker>`, thinking briefly: the
``dumbbot`` strategy by default) and checks four invariants:

``survives``
    the client's process never dies (no signal, no exception, no hang, and it
    does not give up while the game goes on, unless it refused the map with
    ``REJ (MAP)``: leaving a game it cannot play is a clean stop);
``quiet``
    nothing is sent before the handshake: no message before the server's RM,
    no order, GOF or DRW before the HLO (or the YES to a rejoin's IAM), no
    break of the wire protocol;
``orders``
    every phase whose well-formed NOW arrives (and that the client can play:
    see :meth:`ReplayServer._owed <bot.stress.fuzz_server.ReplayServer>`) gets
    a complete set of legal orders before the recorded deadline;
``counters``
    the client's error counters say what was ignored: a message that does not
    parse shows in ``bad_messages``, one that contradicts the game in
    ``ignored_messages`` (and under its kind in ``ignored_by_kind``, when the
    summary has it), a wire error in ``wire_errors``; the unchanged game counts
    nothing.

Cases are numbered; case ``i`` of seed ``s`` is always the same mutation, so
a failure reproduces with ``daide-mcts stress --fuzz-case i --seed s``.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from bot.stress.fuzz_mutations import KINDS, Kind, Mutation, mutate
from bot.stress.fuzz_script import Expect, Item
from bot.stress.fuzz_server import ReplayServer, Trace, game_actions_before_joining
from bot.stress.fuzz_stream import GameStream, recorded_game
from bot.stress.fuzz_worker import ClientOutcome, ClientWorker, Outcome
from protocol.messages import Map, Off, Rej, Smr

DEFAULT_STRATEGY = "random"
"""The client's movement strategy in the fuzzer: it answers at once, so cases are quick."""

CLIENT_TIMEOUT = 120.0
"""Seconds a case's client may take before it counts as hung."""

CASES_PER_WORKER = 100
"""Cases a client worker process plays before a fresh one takes over (bounds what it keeps)."""

STOP_GRACE = 0.5
"""Seconds the replay server keeps going after its client ended first."""


class Invariant(StrEnum):
    """What must hold in every case (see the module docstring)."""

    SURVIVES = "survives"
    QUIET = "quiet"
    ORDERS = "orders"
    COUNTERS = "counters"


ERROR_COUNTERS = {
    Expect.MALFORMED: "bad_messages",
    Expect.IGNORE: "ignored_messages",
    Expect.VIOLATION: "wire_errors",
}
"""The client summary's counter that must show each kind of bad message."""

COUNTS_BY_KIND = "ignored_by_kind"
"""The client summary's counts of ignored messages by kind (``{"NOW": 2}``), where it has them."""


@dataclass
class CaseResult:
    """One case: what was done, which invariants held (None: nothing to check), what failed."""

    case: int
    seed: int
    kind: Kind
    description: str
    held: dict[Invariant, bool | None] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def passed(self) -> bool:
        """No invariant was violated."""
        return all(v is not False for v in self.held.values())

    def headline(self) -> str:
        """One line naming the case and how to run it again."""
        return (
            f"case {self.case} (seed {self.seed}, {self.kind}): {self.description} "
            f"[daide-mcts stress --fuzz-case {self.case} --seed {self.seed}]"
        )

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready dictionary."""
        return {
            "case": self.case,
            "seed": self.seed,
            "kind": str(self.kind),
            "description": self.description,
            "held": {str(k): v for k, v in self.held.items()},
            "problems": self.problems,
            "seconds": round(self.seconds, 3),
        }


def check(mutation: Mutation, trace: Trace, client: ClientOutcome) -> CaseResult:
    """The invariants of one case, from the server's trace and the client's outcome."""
    result = CaseResult(mutation.case, mutation.seed, mutation.kind, mutation.description)
    checks = (
        (Invariant.SURVIVES, _survives(trace, client)),
        (Invariant.QUIET, _quiet(trace)),
        (Invariant.ORDERS, _orders(trace)),
        (Invariant.COUNTERS, _counters(mutation, trace, client)),
    )
    for invariant, problems in checks:
        if problems is None:
            result.held[invariant] = None
            continue
        result.held[invariant] = not problems
        result.problems += [f"{invariant}: {p}" for p in problems]
    return result


def _survives(trace: Trace, client: ClientOutcome) -> list[str]:
    refused_map = any(
        isinstance(c.message, Rej) and isinstance(c.message.message, Map) for c in trace.received
    )
    problems = [p for p in trace.problems if "connect" in p or "come back" in p]
    if client.outcome in (Outcome.DIED, Outcome.RAISED, Outcome.HUNG):
        problems.append(f"the client {client.outcome}: {client.detail}")
    elif client.outcome == Outcome.GAVE_UP and not trace.finished and not refused_map:
        # Refusing a map it cannot play on (REJ (MAP)) and leaving is a clean stop.
        problems.append(f"the client gave up while the game went on: {client.detail}")
    return problems


def _quiet(trace: Trace) -> list[str]:
    problems = [p for p in trace.problems if "wire protocol" in p]
    for sent in game_actions_before_joining(trace):
        when = "before the server's RM" if not sent.greeted else "before HLO"
        problems.append(f"sent {sent.text[:60]} {when} (connection {sent.link})")
    return problems


def _orders(trace: Trace) -> list[str] | None:
    owed = [p for p in trace.phases if p.owed and p.needs_orders]
    if not owed:
        return None
    # Phases after a missed one are given only a moment (the case has failed): not judged.
    return [
        f"{p.turn}: no complete legal orders before the deadline ({p.detail})"
        for p in owed
        if not p.done and not p.hurried
    ]


def _counters(mutation: Mutation, trace: Trace, client: ClientOutcome) -> list[str] | None:
    summary = client.summary
    if client.outcome in (Outcome.DIED, Outcome.HUNG) or not summary:
        return None
    problems: list[str] = []
    read = read_before_the_end(trace)
    delivered = {item.expect for item in read}
    for expect, counter in ERROR_COUNTERS.items():
        if expect in delivered and not _count(summary, counter):
            problems.append(f"a {expect} message was delivered but {counter} is 0")
    by_kind = summary.get(COUNTS_BY_KIND)
    if isinstance(by_kind, dict):  # the client counts what it ignored per kind of message
        for command in sorted({i.command for i in read if i.expect is Expect.IGNORE}):
            if not by_kind.get(command):
                problems.append(
                    f"{command} that contradicts the game was delivered but "
                    f"{COUNTS_BY_KIND} has no {command}: {by_kind}"
                )
    if mutation.kind is Kind.CLEAN:
        counted = {c: _count(summary, c) for c in ERROR_COUNTERS.values() if _count(summary, c)}
        if counted:
            problems.append(f"the unchanged game counted errors: {counted}")
    return problems


def read_before_the_end(trace: Trace) -> list[Item]:
    """The messages delivered up to the game's end (SMR, OFF): the client reads no further."""
    read: list[Item] = []
    for item in trace.delivered:
        read.append(item)
        if isinstance(item.message, Smr | Off) and item.expect in (Expect.ACCEPT, Expect.ANY):
            break
    return read


def _count(summary: dict[str, Any], counter: str) -> int:
    value = summary.get(counter, 0)
    return value if isinstance(value, int) else 0


# --- running cases --------------------------------------------------------------------------


async def run_case(
    stream: GameStream, case: int, seed: int, worker: ClientWorker, strategy: str
) -> CaseResult:
    """Replay case ``case`` of ``seed`` to the client in ``worker``; its checked result."""
    started = time.monotonic()
    mutation = mutate(stream, case, seed)
    server = ReplayServer(stream, mutation.script)
    await server.start()
    replay = asyncio.create_task(server.run())
    playing = asyncio.create_task(
        worker.play(server.port, seed * 100_003 + case, strategy, CLIENT_TIMEOUT)
    )
    try:
        await asyncio.wait({replay, playing}, return_when=asyncio.FIRST_COMPLETED)
        if not replay.done():  # the client ended first: the server has nobody to talk to
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(replay), STOP_GRACE)
            replay.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await replay
        await server.stop()  # a client still waiting for more now loses the server
        client = await playing
    finally:
        for task in (replay, playing):
            task.cancel()
        await server.stop()
    result = check(mutation, server.trace, client)
    result.seconds = time.monotonic() - started
    return result


@dataclass
class KindFigures:
    """How the cases of one kind went: how many, and each invariant held or violated."""

    cases: int = 0
    held: dict[Invariant, int] = field(default_factory=lambda: dict.fromkeys(Invariant, 0))
    violated: dict[Invariant, int] = field(default_factory=lambda: dict.fromkeys(Invariant, 0))


@dataclass
class FuzzReport:
    """A run's results: every case, figures per kind, wall time."""

    seed: int
    strategy: str
    results: list[CaseResult] = field(default_factory=list)
    wall_seconds: float = 0.0

    @property
    def failures(self) -> list[CaseResult]:
        """The cases in which an invariant was violated."""
        return [r for r in self.results if not r.passed]

    def by_kind(self) -> dict[Kind, KindFigures]:
        """Figures per mutation kind, in the kinds' order."""
        figures = {kind: KindFigures() for kind in KINDS}
        for result in self.results:
            f = figures[result.kind]
            f.cases += 1
            for invariant, held in result.held.items():
                if held is True:
                    f.held[invariant] += 1
                elif held is False:
                    f.violated[invariant] += 1
        return {k: f for k, f in figures.items() if f.cases}

    def totals(self) -> KindFigures:
        """Figures over every case."""
        total = KindFigures()
        for f in self.by_kind().values():
            total.cases += f.cases
            for invariant in Invariant:
                total.held[invariant] += f.held[invariant]
                total.violated[invariant] += f.violated[invariant]
        return total

    def table(self) -> str:
        """The figures as a Markdown table: held/violated per invariant, per kind."""
        head = "| kind | cases | " + " | ".join(str(i) for i in Invariant) + " |"
        rule = "|" + "---|" * (2 + len(Invariant))
        rows = [head, rule]
        figures = [*self.by_kind().items(), ("all", self.totals())]
        for kind, f in figures:
            cells = [f"{f.held[i]}/{f.violated[i]}" for i in Invariant]
            rows.append(f"| {kind} | {f.cases} | " + " | ".join(cells) + " |")
        return "\n".join(rows)

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready dictionary."""
        total = self.totals()
        return {
            "seed": self.seed,
            "strategy": self.strategy,
            "cases": total.cases,
            "failed_cases": len(self.failures),
            "held": {str(k): v for k, v in total.held.items()},
            "violated": {str(k): v for k, v in total.violated.items()},
            "wall_seconds": round(self.wall_seconds, 1),
            "results": [r.as_dict() for r in self.results],
        }


async def run_fuzz(
    cases: Sequence[int],
    seed: int = 0,
    *,
    parallel: int = 2,
    strategy: str = DEFAULT_STRATEGY,
    stream: GameStream | None = None,
    on_case: Callable[[CaseResult], None] | None = None,
) -> FuzzReport:
    """Run ``cases`` of ``seed`` on ``parallel`` client workers; the report, cases in order."""
    stream = stream or recorded_game()
    report = FuzzReport(seed, strategy)
    started = time.monotonic()
    queue: asyncio.Queue[int] = asyncio.Queue()
    for case in cases:
        queue.put_nowait(case)
    results: dict[int, CaseResult] = {}

    async def drain() -> None:
        worker = ClientWorker()
        await worker.start()
        played = 0
        try:
            while not queue.empty():
                case = queue.get_nowait()
                if not worker.alive or played >= CASES_PER_WORKER:
                    await worker.close()
                    worker = ClientWorker()
                    await worker.start()
                    played = 0
                played += 1
                result = await run_case(stream, case, seed, worker, strategy)
                results[case] = result
                if on_case is not None:
                    on_case(result)
        finally:
            await worker.close()

    await asyncio.gather(*(drain() for _ in range(max(1, min(parallel, len(cases))))))
    report.results = [results[c] for c in cases if c in results]
    report.wall_seconds = time.monotonic() - started
    return report
