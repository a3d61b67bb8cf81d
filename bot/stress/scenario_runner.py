"""Running the stress scenarios: real servers, real bot processes, a tap on every link.

Each bot is a ``daide-mcts play`` process, exactly as a user starts it; its
summary (``--summary-json``) gives the bot's own view (missed deadlines it
was told of, refused orders, shadow checks, CPU seconds and peak memory of
its client and search worker).  Between each bot and Parlance runs a
:class:`~bot.stress.netproxy.NetProxy` whose tap (:class:`LinkRecorder`) gives the
server's view: when each phase's deadline falls (NOW, then TME), when the
bot's last SUB of the phase reached the server, and every civil-disorder
notice ``CCD (power) (turn)`` the server broadcast for a missed deadline.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.servers.parlance_install import ParlanceInstall, ParlanceServer
from bot.stress.hostile import ALL_FAULTS, HostileServer
from bot.stress.netproxy import Direction, NetProxy
from bot.stress.report import BotFigures, ScenarioResult
from bot.stress.scenarios import Scenario
from bot.toolkit.jsonfiles import CorruptJSON, read_json_object
from protocol.daide_errors import ProtocolError
from protocol.messages import Ccd, Hlo, Now, Tme, parse_message
from protocol.tokens import CCD, HLO, NOW, SUB, TME
from protocol.wire import DiplomacyMessage, WireMessage

ROOT = Path(__file__).resolve().parents[2]

LONG_GAME_GROWTH_LIMIT = 0.15
"""The long game fails if its last years' peak memory exceeds its early years' by more."""


@dataclass
class PhaseTiming:
    """One phase on one link, on the server's clock."""

    start: float
    deadline: float | None = None
    last_sub: float | None = None
    late_subs: int = 0


class LinkRecorder:
    """The tap of one bot's proxy: phases, deadlines, SUB arrivals, civil-disorder notices."""

    def __init__(self, on_movement_phase: Callable[[int], None] | None = None) -> None:
        self.power: str | None = None
        self.phases: dict[str, PhaseTiming] = {}
        self.missed: set[tuple[str, str]] = set()
        self._current: str | None = None
        self._movement_phases = 0
        self._on_movement_phase = on_movement_phase

    def tap(self, link_id: int, direction: Direction, message: WireMessage, at: float) -> None:
        """Called by the proxy for every message (see :data:`bot.stress.netproxy.Tap`)."""
        if not isinstance(message, DiplomacyMessage) or not message.tokens:
            return
        head = message.tokens[0]
        if direction is Direction.UP:
            if head == SUB and self._current is not None:
                phase = self.phases[self._current]
                phase.last_sub = at
                if phase.deadline is not None and at > phase.deadline:
                    phase.late_subs += 1
            return
        if head not in (HLO, NOW, TME, CCD):
            return
        try:
            parsed = parse_message(message.tokens, message.table)
        except ProtocolError:
            return
        if isinstance(parsed, Hlo) and parsed.power:
            self.power = parsed.power
        elif isinstance(parsed, Now) and parsed.turn is not None:
            turn = str(parsed.turn)
            self._current = turn
            if turn not in self.phases:
                self.phases[turn] = PhaseTiming(at)
                if parsed.turn.season.is_movement:
                    if self._on_movement_phase is not None:
                        self._on_movement_phase(self._movement_phases)
                    self._movement_phases += 1
        elif isinstance(parsed, Tme) and parsed.seconds is not None and self._current:
            phase = self.phases[self._current]
            if phase.deadline is None:  # the first TME of a phase starts its clock
                phase.deadline = at + parsed.seconds
        elif isinstance(parsed, Ccd) and parsed.turn is not None:
            self.missed.add((parsed.power, str(parsed.turn)))

    def margins(self) -> list[float]:
        """Deadline minus last SUB, for every phase in which the bot submitted."""
        return [
            round(p.deadline - p.last_sub, 4)
            for p in self.phases.values()
            if p.deadline is not None and p.last_sub is not None
        ]

    @property
    def late_subs(self) -> int:
        """SUB messages that reached the server after the deadline of the phase in force."""
        return sum(p.late_subs for p in self.phases.values())


@dataclass
class BotProcess:
    """One ``daide-mcts play`` subprocess of a scenario."""

    index: int
    folder: Path
    proc: asyncio.subprocess.Process | None = None
    exit_code: int | None = None
    summary: dict[str, Any] = field(default_factory=dict)

    @property
    def summary_path(self) -> Path:
        """Where the bot writes its summary."""
        return self.folder / "summary.json"

    async def start(self, port: int, strategy: str, final_year: int | None, seed: int) -> None:
        """Launch the bot against ``127.0.0.1:port``."""
        self.folder.mkdir(parents=True, exist_ok=True)
        argv = [
            sys.executable, "-m", "bot.cli", "play",
            "--host", "127.0.0.1", "--port", str(port),
            "--name", f"stress{self.index}", "--strategy", strategy, "--seed", str(seed),
            "--log-dir", str(self.folder), "--summary-json", str(self.summary_path),
            "--log-level", "warning",
        ]  # fmt: skip
        if final_year is not None:
            argv += ["--final-year", str(final_year)]
        with open(self.folder / "stderr.txt", "wb") as err:
            self.proc = await asyncio.create_subprocess_exec(
                *argv, cwd=ROOT, stdin=asyncio.subprocess.DEVNULL,
                stdout=asyncio.subprocess.DEVNULL, stderr=err,
            )  # fmt: skip

    async def wait(self, timeout: float) -> None:
        """Wait for the bot to exit (killing it after ``timeout``) and read its summary."""
        if self.proc is None:
            return
        try:
            self.exit_code = await asyncio.wait_for(self.proc.wait(), timeout)
        except TimeoutError:
            self.kill()
            self.exit_code = await self.proc.wait()
        with contextlib.suppress(CorruptJSON):
            self.summary = read_json_object(self.summary_path)

    def kill(self) -> None:
        """Stop the bot now (it is our own child process)."""
        if self.proc is not None and self.proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self.proc.kill()

    def figures(self, recorder: LinkRecorder | None, missed_by_server: int) -> BotFigures:
        """The figures of the bot, from its summary and (if any) its link's tap."""
        s = self.summary
        wall = s.get("wall_seconds") or 0.0
        cpu = (s.get("cpu_seconds") or 0.0) + (s.get("worker_cpu_seconds") or 0.0)
        return BotFigures(
            index=self.index,
            power=s.get("power"),
            ended_cleanly=bool(s.get("ended_cleanly")) and self.exit_code == 0,
            missed_reported_to_bot=int(s.get("missed_deadlines", 0)),
            missed_seen_by_harness=missed_by_server,
            refused_orders=int(s.get("refused_orders", 0)),
            shadow_mismatches=int(s.get("shadow_mismatches", 0)),
            reconnections=int(s.get("reconnections", 0)),
            server_margins=recorder.margins() if recorder else [],
            bot_margins=list(s.get("phase_margins", [])),
            cpu_share=round(cpu / wall, 4) if wall else None,
            peak_kb=int(s.get("peak_rss_kb", 0)) + int(s.get("worker_peak_rss_kb", 0)),
            yearly_peak_kb=dict(s.get("yearly_peak_kb", {})),
            exit_code=self.exit_code,
            late_submissions=recorder.late_subs if recorder else 0,
        )


def time_budget(scenario: Scenario) -> float:
    """Seconds after which a scenario's bots are given up on (generous: the machine is shared)."""
    per_year = 2 * scenario.move_time + 2 * scenario.retreat_time + scenario.build_time
    return 1.5 * per_year * (scenario.years + 1) + 180


async def run_scenario(
    scenario: Scenario, strategy: str, folder: Path, install: ParlanceInstall, seed: int = 0
) -> ScenarioResult:
    """Run one scenario to the end and return its checked figures."""
    settings = {
        "move_time": scenario.move_time,
        "retreat_time": scenario.retreat_time,
        "build_time": scenario.build_time,
        "final_year": scenario.final_year,
        "bots": scenario.bots,
        "strategy": strategy,
        "link": scenario.link.__dict__ if scenario.link else None,
        "cut_at_movement_phases": list(scenario.cut_at_movement_phases),
        "bots_propose_draw": scenario.bots_propose_draw,
    }
    result = ScenarioResult(scenario.name, scenario.description, settings)
    started = time.monotonic()
    if scenario.hostile:
        await _run_hostile(scenario, strategy, folder, seed, result)
    else:
        await _run_parlance(scenario, strategy, folder, install, seed, result)
    result.wall_seconds = time.monotonic() - started
    result.check()
    if scenario.name == "long-game":
        _judge_growth(result)
    return result


async def _run_parlance(
    scenario: Scenario,
    strategy: str,
    folder: Path,
    install: ParlanceInstall,
    seed: int,
    result: ScenarioResult,
) -> None:
    final_year = scenario.final_year if scenario.bots_propose_draw else None
    server = ParlanceServer(
        install, options=_parlance_options(scenario), log_path=folder / "parlance.log"
    )
    folder.mkdir(parents=True, exist_ok=True)
    await asyncio.to_thread(server.start)
    proxies: list[NetProxy] = []
    bots = [BotProcess(i, folder / f"bot{i}") for i in range(scenario.bots)]
    recorders: list[LinkRecorder] = []
    try:
        for i in range(scenario.bots):
            proxy, recorder = await _start_link(scenario, server, i, seed)
            proxies.append(proxy)
            recorders.append(recorder)
        for bot, proxy in zip(bots, proxies, strict=True):
            await bot.start(proxy.port, strategy, final_year, seed * 100 + bot.index)
        budget = time_budget(scenario)
        await asyncio.gather(*(bot.wait(budget) for bot in bots))
    finally:
        for bot in bots:
            bot.kill()
        for proxy in proxies:
            await proxy.stop()
        await asyncio.to_thread(server.stop)
    _add_figures(scenario, bots, recorders, proxies, result)


def _parlance_options(scenario: Scenario) -> dict[str, int]:
    """The server's deadlines and its judge's draw for ``scenario``."""
    return {
        "MTL": scenario.move_time,
        "RTL": scenario.retreat_time,
        "BTL": scenario.build_time,
        # Parlance's judge declares a draw after this many years: a safety net a year after
        # the bots propose theirs, or the end of the game when they do not.
        "draw": scenario.years + (1 if scenario.bots_propose_draw else 0),
    }


async def _start_link(
    scenario: Scenario, server: ParlanceServer, i: int, seed: int
) -> tuple[NetProxy, LinkRecorder]:
    """Bot ``i``'s started proxy to ``server`` and the recorder of what passes through it.

    The recorder cuts bot 0's link at the scenario's movement phases.
    """
    cut = scenario.cut_at_movement_phases if i == 0 else ()
    proxy_box: list[NetProxy] = []

    def on_movement(index: int, cut: tuple[int, ...] = cut, box: list = proxy_box) -> None:
        if index in cut and box:
            box[0].cut()

    recorder = LinkRecorder(on_movement)
    proxy = NetProxy(
        server.host,
        server.port,
        upstream=scenario.link,
        downstream=scenario.link,
        seed=seed * 100 + i,
        tap=recorder.tap,
    )
    proxy_box.append(proxy)
    await proxy.start()
    return proxy, recorder


def _add_figures(
    scenario: Scenario,
    bots: list[BotProcess],
    recorders: list[LinkRecorder],
    proxies: list[NetProxy],
    result: ScenarioResult,
) -> None:
    """Each bot's figures, the links' cuts and stalls into ``result``.

    A cut the scenario asks for that did not happen is a problem.
    """
    missed = set().union(*(r.missed for r in recorders)) if recorders else set()
    for bot, recorder in zip(bots, recorders, strict=True):
        power = bot.summary.get("power") or recorder.power
        by_server = sum(1 for p, _turn in missed if p == power)
        result.bots.append(bot.figures(recorder, by_server))
    result.extra["cuts"] = sum(p.stats.cuts for p in proxies)
    result.extra["stalls"] = sum(p.stats.stalls for p in proxies)
    if scenario.cut_at_movement_phases and result.extra["cuts"] < len(
        scenario.cut_at_movement_phases
    ):
        result.problems.append(
            f"only {result.extra['cuts']} of {len(scenario.cut_at_movement_phases)} cuts happened"
        )


async def _run_hostile(
    scenario: Scenario, strategy: str, folder: Path, seed: int, result: ScenarioResult
) -> None:
    bot = BotProcess(0, folder / "bot0")
    async with HostileServer(ALL_FAULTS, deadline=scenario.move_time, seed=seed) as server:
        try:
            await bot.start(server.port, strategy, None, seed)
            report = await asyncio.wait_for(server.run(), time_budget(scenario))
            await bot.wait(60)
        except TimeoutError:
            result.problems.append("the hostile game did not finish in time")
            report = server.report
        finally:
            bot.kill()
    figures = bot.figures(None, report.missed)
    figures.server_margins = [p.margin for p in report.phases if p.margin is not None]
    result.bots.append(figures)
    result.extra["faults"] = report.as_dict()["faults"]
    for fault in report.faults:
        if not fault.passed:
            result.problems.append(f"fault {fault.fault} ({fault.turn}): {fault.detail}")


def _judge_growth(result: ScenarioResult) -> None:
    """Compare the long game's last years' peak memory with its early years'."""
    years = sorted({int(y) for b in result.bots for y in b.yearly_peak_kb})
    per_year = {y: max(b.yearly_peak_kb.get(str(y), 0) for b in result.bots) for y in years}
    result.extra["yearly_peak_mb"] = {str(y): round(v / 1024, 1) for y, v in per_year.items()}
    if len(years) < 4:
        return
    window = max(1, min(5, (len(years) - 1) // 2))
    early = max(per_year[y] for y in years[1 : 1 + window])  # 1901 is the warm-up
    late = max(per_year[y] for y in years[-window:])
    growth = late / early - 1 if early else 0.0
    result.extra["memory_growth"] = round(growth, 4)
    if growth > LONG_GAME_GROWTH_LIMIT:
        result.problems.append(
            f"peak memory grew {100 * growth:.1f}% from the early years to the last ones"
        )
