"""One local game, start to finish: server, observer, seven bot processes, record, result.

:func:`play_game` (async) and :func:`run_game` (blocking) provision and start
a DAIDE server on loopback — Parlance, or MILA's server when Parlance cannot
run here (no Python 2.7), saying so — join it as an observer, launch one
process per seat, follow the game in the live view, stop everything when the
game is over (or when something goes wrong; a person's seat may stay up after the
game, serving its page: :class:`PersonPages`), and write the run folder.  The
server and the seats also end when the runner itself is killed
(:mod:`bot.servers.lifeline`).  The run folder:

``messages.daide``
    every message the observer sent and received (on MILA's server, which
    takes no observers: every message of the first bot of ours), one per line:
    ``<unix time> <source> <in|out> <DAIDE text>``;
``sco.txt``
    the SCO of each year (the opening's is labelled with the year before);
``summary.json``
    settings, lineup, who played which power, result, the thesis's metrics,
    each bot's own summary;
``result.txt``, ``centres.png``
    the result table and the chart of supply centres per power per year;
``server.log``, ``bots/``
    the server's output; each bot's output, and for our bots their game
    records (every message in and out) and summaries.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
import threading
import time
import webbrowser
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from adjudicator.rules import CivilDisorderRule
from bot.local.chart import centres_chart
from bot.local.launch import STANDARD_MAP, parlance_options, seat_argv
from bot.local.lineup import describe
from bot.local.outcome import GameConfig, GameOutcome
from bot.local.record import GameRecorder, MessageListener
from bot.local.terminal_view import LineView, View, format_elapsed
from bot.measure.metrics import GameRecord
from bot.servers.lifeline import SEAT_SIGNAL, tied
from bot.servers.mila import MilaServer, MilaUnavailableError
from bot.servers.parlance_install import (
    PARLANCE_VERSION,
    ParlanceInstall,
    ParlanceServer,
    ParlanceUnavailableError,
    install,
    is_installed,
)
from bot.toolkit.jsonfiles import CorruptJSON, json_object, read_json_object
from bot.toolkit.messagelog import RecordedText
from bot.toolkit.observer import Observer, ObserverRefusedError
from bot.toolkit.paths import local_dir

MILA_PRESS_LEVEL = 30
"""The press level MILA's DAIDE server announces."""

SERVER_CHOICES = ("auto", "parlance", "mila")
"""``auto``: Parlance if it can run here, else MILA's server."""

STOP_GRACE = 15.0
"""Seconds the bots get to leave by themselves once the game is over."""

T = TypeVar("T")

POLL = 0.25
"""Seconds between two looks at the processes (and redraws of the view)."""


class GameError(Exception):
    """The game could not be played (no server, bad lineup for this server...); says why."""


@dataclass
class RunningServer:
    """A started DAIDE server of either kind, seen through what the runner needs."""

    kind: str
    host: str
    port: int
    stop: Callable[[], None]
    running: Callable[[], bool]
    log_path: Callable[[], Path | None]
    parlance: ParlanceInstall | None = None
    takes_observers: bool = True
    rules: str = CivilDisorderRule.PARLANCE.value
    """The server's civil-disorder rule, passed to our bots (``daide-mcts play --rules``)."""
    press_turn: bool = False
    """Our bots name the turn in every SND (``daide-mcts play --press-turn``: MILA's server)."""


# --- the server ---------------------------------------------------------------------------

_install_lock = threading.Lock()

JOIN_TIMEOUT = 60.0
"""Seconds one seat may take to join when the seats join one at a time (power slots)."""

JOIN_POLL = 0.05
"""Seconds between looks at the server's player count while a seat joins."""

PAGE_TIMEOUT = 30.0
"""Seconds the runner waits for a person's seat to print its page's address."""

PAGE_ADDRESS = re.compile(rb"https?://(?:127\.0\.0\.1|localhost|\[::1\]):\d+/\S*")
"""A person's page as the ``human`` seat prints it (on loopback, with its secret)."""


def page_address(output: Path) -> str | None:
    """The first page address a ``human`` seat printed into ``output``, or None (yet)."""
    try:
        with output.open("rb") as f:
            found = PAGE_ADDRESS.search(f.read(1 << 16))
    except OSError:
        return None
    return None if found is None else found.group().decode("ascii", "replace")


def start_server(config: GameConfig, folder: Path, notes: Callable[[str], None]) -> RunningServer:
    """Provision and start the server ``config.server`` asks for; GameError if none can run."""
    reason = ""
    if config.server in ("auto", "parlance"):
        try:
            return _start_parlance(config, folder, notes)
        except ParlanceUnavailableError as exc:
            if config.server == "parlance":
                raise GameError(str(exc)) from exc
            reason = str(exc).splitlines()[0]
    _check_without_parlance(config, reason)
    if reason:
        notes(f"Parlance cannot run here ({reason}); falling back to MILA's DAIDE server.")
    if not any(s.kind == "ours" for s in config.seats):
        raise GameError(
            "MILA's server takes no observers, so the game is followed through a bot of ours: "
            "the lineup needs at least one"
        )
    mila = MilaServer(
        deadline=config.deadlines.move,
        host=config.host,
        press=config.press_level == MILA_PRESS_LEVEL,
    )
    try:
        mila.start()
    except MilaUnavailableError as exc:
        raise GameError(str(exc)) from exc
    notes(
        f"MILA's server has one deadline for every phase: {config.deadlines.move}s "
        f"(the retreat and build deadlines do not apply)."
    )
    return RunningServer(
        kind="MILA diplomacy 1.1.2",
        host=config.host,
        port=mila.port,
        stop=mila.stop,
        running=mila.running,
        log_path=lambda: mila.log_path,
        takes_observers=False,
        rules=CivilDisorderRule.DATC.value,
        press_turn=True,
    )


def _start_parlance(
    config: GameConfig, folder: Path, notes: Callable[[str], None]
) -> RunningServer:
    """Parlance, installed first if need be; ParlanceUnavailableError if it cannot run here."""
    with _install_lock:  # tournament games start their servers side by side
        if not is_installed():
            notes(f"Installing Parlance {PARLANCE_VERSION} into {local_dir()} (once)...")
        inst = install()
    server = ParlanceServer(
        inst,
        host=config.host,
        variant=config.map,
        options=parlance_options(
            config.deadlines,
            config.final_year,
            shuffle=config.power_slots is None,
            first_year=config.first_year,
            press_level=config.press_level,
        ),
        log_path=folder / "server.log",
    )
    server.start()
    return RunningServer(
        kind=f"Parlance {PARLANCE_VERSION}",
        host=config.host,
        port=server.port,
        stop=server.stop,
        running=server.running,
        log_path=lambda: server.log_path,
        parlance=inst,
    )


def _check_without_parlance(config: GameConfig, reason: str) -> None:
    """GameError if ``config`` asks for what only Parlance offers; ``reason`` is why it cannot run.

    ``reason`` is empty when Parlance was not tried.
    """
    why = f": {reason}" if reason else ""
    if config.press_level not in (0, MILA_PRESS_LEVEL):
        raise GameError(
            f"press level {config.press_level} needs Parlance (MILA's server allows level "
            f"{MILA_PRESS_LEVEL} or none){why}"
        )
    if config.map != STANDARD_MAP:
        raise GameError(
            f"the map {config.map} needs Parlance (MILA's server plays the standard map only){why}"
        )
    if config.power_slots is not None:
        raise GameError(
            "giving each seat its power needs Parlance (MILA's server deals the powers itself)"
            f"{why}"
        )
    parang = [s.name for s in config.seats if s.kind == "parang"]
    if parang:
        raise GameError(
            f"Parang's bots ({', '.join(parang)}) need Parlance's Python 2.7, which cannot run "
            f"here{why}"
        )


# --- one game -------------------------------------------------------------------------------

PERSON = "human"
"""The kind of a person's seat (``daide-mcts human``)."""


class PersonPages:
    """The people's seats kept up after their game, each serving its page (the review).

    The result, the review and "try again" stay on the page for the person.
    :func:`play_game`, given one, hands it the person seats still running when the game
    is over instead of stopping them; :meth:`wait` waits until they leave by themselves,
    :meth:`stop` ends them.
    """

    def __init__(self) -> None:
        self.procs: dict[str, asyncio.subprocess.Process] = {}

    def running(self) -> list[str]:
        """The seats still serving their page."""
        return [name for name, proc in self.procs.items() if proc.returncode is None]

    async def wait(self) -> None:
        """Until every seat kept has ended."""
        for proc in self.procs.values():
            await proc.wait()

    async def stop(self) -> list[str]:
        """End every seat kept; the names of those that had to be killed."""
        killed = await end_processes(self.procs)
        self.procs = {}
        return killed


async def end_processes(procs: dict[str, asyncio.subprocess.Process]) -> list[str]:
    """Terminate each process still running, kill those that do not end; who had to be killed."""
    for proc in procs.values():
        if proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                proc.terminate()
    killed = []
    for name, proc in procs.items():
        try:
            await asyncio.wait_for(proc.wait(), 5.0)
        except TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                proc.kill()
            await proc.wait()
            killed.append(name)
    return killed


class _Game:
    """The moving parts of one game while it runs."""

    def __init__(
        self,
        config: GameConfig,
        folder: Path,
        view: View,
        index: int,
        listener: MessageListener | None = None,
    ) -> None:
        self.config = config
        self.folder = folder
        self.view = view
        self.index = index
        self.bots_dir = folder / "bots"
        self.recorder = GameRecorder(
            config.seats,
            config.final_year,
            folder / "messages.daide",
            listener=listener,
            first_year=config.first_year,
        )
        self.procs: dict[str, asyncio.subprocess.Process] = {}
        self.outputs: list[Any] = []
        self.homes: list[Path] = []
        self.problems: list[str] = []
        self.observer: Observer | None = None
        self.feed_seat: str | None = None
        self._texts = RecordedText()
        self._offsets: dict[str, int] = {}
        self._partial: dict[str, str] = {}

    # --- launching ----------------------------------------------------------------------

    async def launch(self, server: RunningServer) -> None:
        """Start every seat's process; with power slots, one at a time in slot order.

        The server then gives each its slot's power (Parlance, unshuffled,
        assigns the powers in order as the players join), so each seat waits
        until the server has counted it before the next one starts.
        """
        self.bots_dir.mkdir(parents=True, exist_ok=True)
        order = list(range(len(self.config.seats)))
        slots = self.config.power_slots
        if slots is not None:
            order.sort(key=lambda i: slots[i])
        for joined, i in enumerate(order):
            await self._start_seat(server, i)
            if slots is not None:
                await self._wait_until_joined(joined + 1, self.config.seats[i].name)
        await self._announce_pages()

    async def _announce_pages(self) -> None:
        """Say where each person plays (the page each ``human`` seat prints), and open it."""
        people = [s for s in self.config.seats if s.kind == PERSON]
        until = time.monotonic() + PAGE_TIMEOUT
        for seat in people:
            url = None
            proc = self.procs[seat.name]
            while url is None and proc.returncode is None and time.monotonic() < until:
                url = page_address(self.bots_dir / f"{seat.name}.out")
                if url is None:
                    await asyncio.sleep(JOIN_POLL)
            if url is None:
                self.view.note(f"{seat.name}: no page address yet (see bots/{seat.name}.out)")
                continue
            self.view.note(f"{seat.name} plays at {url}")
            if os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"):
                with contextlib.suppress(webbrowser.Error):
                    webbrowser.open(url)

    async def _wait_until_joined(self, players: int, seat: str) -> None:
        """Wait until the server counts ``players`` players; GameError if ``seat`` never joins."""
        until = time.monotonic() + JOIN_TIMEOUT
        proc = self.procs[seat]
        while self.recorder.players_connected < players:
            if proc.returncode is not None:
                raise GameError(f"seat {seat} exited before joining the game")
            if time.monotonic() > until:
                raise GameError(
                    f"seat {seat} did not join within {JOIN_TIMEOUT:.0f}s "
                    "(needed to give each seat its power in turn)"
                )
            await asyncio.sleep(JOIN_POLL)

    async def _start_seat(self, server: RunningServer, i: int) -> None:
        """Start seat ``i``'s process (its output, argv and record in the run folder)."""
        seat = self.config.seats[i]
        seed = None if self.config.seed is None else self.config.seed + i
        argv = seat_argv(
            seat,
            server.host,
            server.port,
            final_year=self.config.final_year,
            parlance=server.parlance,
            seed=seed,
            telemetry=self.config.telemetry,
            log_dir=self.bots_dir / seat.name,
            summary=self.bots_dir / f"{seat.name}.json",
            rules=server.rules,
            press_turn=server.press_turn,
            bandana=self.config.bandana,
            albert=self.config.albert,
            max_think=self.config.bot_time,
        )
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        cwd: Path | None = None
        if seat.kind == "parang" and server.parlance is not None:
            home = Path(tempfile.mkdtemp(prefix="parang-"))
            self.homes.append(home)
            env, cwd = server.parlance.env(home), home
        elif seat.kind in ("bandana", "albert"):
            cwd = self.bots_dir / seat.name  # BANDANA's bots and Albert write beside them too
            cwd.mkdir(parents=True, exist_ok=True)
        out = open(self.bots_dir / f"{seat.name}.out", "wb")  # noqa: SIM115 - closed in stop()
        self.outputs.append(out)
        (self.bots_dir / f"{seat.name}.argv").write_text(json.dumps(argv) + "\n")
        try:
            self.procs[seat.name] = await asyncio.create_subprocess_exec(
                *tied(argv, SEAT_SIGNAL),  # a killed runner takes them along
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                cwd=cwd,
                env=env,
                start_new_session=True,  # Ctrl-C reaches the runner, which stops them in order
            )
        except OSError as exc:
            raise GameError(f"cannot start seat {seat.name} ({argv[0]}): {exc}") from exc

    # --- following the bots' records --------------------------------------------------------

    def read_bot_records(self) -> None:
        """Read what our bots have added to their game records since the last look."""
        for seat in self.config.seats:
            if seat.kind != "ours":
                continue
            files = sorted((self.bots_dir / seat.name).glob("*.jsonl"))
            if not files:
                continue
            path = files[0]
            key = str(path)
            try:
                with open(path, encoding="utf-8") as fh:
                    fh.seek(self._offsets.get(key, 0))
                    chunk = fh.read()
                    self._offsets[key] = fh.tell()
            except OSError:
                continue
            text = self._partial.pop(key, "") + chunk
            lines = text.split("\n")
            if lines and lines[-1]:
                self._partial[key] = lines[-1]
            for line in lines[:-1]:
                self._on_bot_line(seat.name, line)

    def _on_bot_line(self, seat_name: str, line: str) -> None:
        try:
            record = json_object(line)
        except CorruptJSON:
            return
        kind = record.get("kind")
        if kind == "hlo" and isinstance(record.get("power"), str):
            self.recorder.on_bot_power(seat_name, record["power"])
        elif kind == "msg" and seat_name == self.feed_seat:
            text = str(record.get("text", ""))
            message = self._texts.read(text)
            self.recorder.on_message(seat_name, str(record.get("dir", "in")), text, message)

    # --- waiting -----------------------------------------------------------------------------

    async def wait(self, server: RunningServer, observer_task: asyncio.Task[str] | None) -> None:
        limit = time.monotonic() + self.config.time_limit()
        over_since: float | None = None
        server_gone_since: float | None = None
        while True:
            self.read_bot_records()
            self.view.update(self.recorder.snapshot())
            if all(p.returncode is not None for p in self.procs.values()):
                return
            now = time.monotonic()
            if self.recorder.game_started is None:
                gone = [name for name, p in self.procs.items() if p.returncode is not None]
                if gone:
                    self.problems.append(
                        f"{gone[0]} left before the game started (see bots/{gone[0]}.out)"
                    )
                    return
            if (
                observer_task is not None
                and observer_task.done()
                and not self.recorder.over
                and self.feed_seat is None
            ):
                self._follow_a_bot(observer_task)
            if self.recorder.over:
                bots = [p for name, p in self.procs.items() if name not in self._people()]
                if all(p.returncode is not None for p in bots):
                    return  # a person's seat may stay up after the game: see stop()
                over_since = over_since or now
                if now - over_since > STOP_GRACE:
                    self.problems.append("some bots did not leave after the game; stopped")
                    return
            elif not server.running():
                server_gone_since = server_gone_since or now
                if now - server_gone_since > STOP_GRACE:
                    self.problems.append("the server stopped before the game ended")
                    return
            if now > limit:
                self.problems.append(
                    f"the game did not end within {self.config.time_limit():.0f}s; stopped"
                )
                return
            await asyncio.sleep(POLL)

    def _people(self) -> list[str]:
        """The names of the people's seats (``daide-mcts human``)."""
        return [s.name for s in self.config.seats if s.kind == PERSON]

    def _follow_a_bot(self, observer_task: asyncio.Task[str]) -> None:
        """The observer left early: follow the game through a bot of ours from now on."""
        if observer_task.cancelled():
            reason = "cancelled"
        elif observer_task.exception() is not None:
            reason = str(observer_task.exception())
        else:
            reason = observer_task.result()
        ours = [s.name for s in self.config.seats if s.kind == "ours"]
        if ours:
            self.feed_seat = ours[0]
            self.problems.append(f"the observer left ({reason}); following {ours[0]}'s record")
        else:
            self.feed_seat = ""
            self.problems.append(f"the observer left ({reason}) and no bot of ours plays")

    async def stop(self, people: PersonPages | None = None) -> None:
        """Stop every seat; once the game is over, ``people`` (if given) keeps the persons'."""
        procs = dict(self.procs)
        if people is not None and self.recorder.over:
            for name in self._people():
                proc = procs.get(name)
                if proc is not None and proc.returncode is None:
                    people.procs[name] = procs.pop(name)
        for name in await end_processes(procs):
            self.problems.append(f"{name} had to be killed")
        for out in self.outputs:
            out.close()
        for home in self.homes:
            shutil.rmtree(home, ignore_errors=True)
        self.read_bot_records()


async def play_game(
    config: GameConfig,
    folder: Path,
    view: View | None = None,
    *,
    index: int = 0,
    listener: MessageListener | None = None,
    people: PersonPages | None = None,
) -> GameOutcome:
    """Play one game into ``folder`` (created); GameError if it cannot even start.

    ``listener`` hears every message of the game as it is recorded (the browser view).
    Once the game is over, the people's seats go to ``people`` if given (their pages stay
    up for the review; the caller ends them), else they are stopped with the bots.
    """
    if config.bandana is None and any(s.kind == "bandana" for s in config.seats):
        raise GameError("BANDANA's bots need the folder of their jars (--bandana-dir)")
    if config.albert is None and any(s.kind == "albert" for s in config.seats):
        raise GameError("Albert needs the folder of its files (--albert-dir)")
    view = view or LineView(open(os.devnull, "w"))  # noqa: SIM115
    folder.mkdir(parents=True, exist_ok=True)
    began = time.monotonic()
    game = _Game(config, folder, view, index, listener)
    server = await _start_server(config, folder, view.note)
    view.note(
        f"{server.kind} on {server.host}:{server.port}; {describe(config.seats)}; "
        f"to WIN {config.final_year}; {config.deadlines}; record in {folder}"
    )
    observer_task: asyncio.Task[str] | None = None
    try:
        if server.takes_observers:
            game.observer = Observer(
                server.host,
                server.port,
                lambda d, t, m: game.recorder.on_message("observer", d, t, m),
            )
            observer_task = asyncio.create_task(game.observer.run())
            for _ in range(100):  # join before the players, so nothing is missed
                if game.recorder.messages or observer_task.done():
                    break
                await asyncio.sleep(0.05)
        else:
            game.feed_seat = next(s.name for s in config.seats if s.kind == "ours")
        await game.launch(server)
        await game.wait(server, observer_task)
    finally:
        await game.stop(people)
        if observer_task is not None:
            if not observer_task.done():
                observer_task.cancel()
            with contextlib.suppress(asyncio.CancelledError, ObserverRefusedError, Exception):
                await observer_task
        await asyncio.to_thread(server.stop)
        game.recorder.close()
        view.close(game.recorder.snapshot())
        _keep_server_log(server, folder)
    return _finish(game, server, time.monotonic() - began)


async def _start_server(
    config: GameConfig, folder: Path, notes: Callable[[str], None]
) -> RunningServer:
    """:func:`start_server` in a thread, stopped again if we are cancelled meanwhile.

    A cancellation (Ctrl-C, SIGTERM) cannot stop the thread: the server it
    starts is stopped before the cancellation goes on, so none is left behind.
    """
    starting = asyncio.ensure_future(asyncio.to_thread(start_server, config, folder, notes))
    try:
        return await asyncio.shield(starting)
    except asyncio.CancelledError:
        with contextlib.suppress(Exception):
            started = await starting
            await asyncio.to_thread(started.stop)
        raise


def _keep_server_log(server: RunningServer, folder: Path) -> None:
    path = server.log_path()
    target = folder / "server.log"
    if path is not None and path.exists() and path.resolve() != target.resolve():
        with contextlib.suppress(OSError):
            shutil.copyfile(path, target)


def _finish(game: _Game, server: RunningServer, seconds: float) -> GameOutcome:
    return recorded_outcome(
        game.recorder,
        game.config,
        game.folder,
        server.kind,
        game.problems,
        seconds,
        index=game.index,
        bots_dir=game.bots_dir,
    )


def recorded_outcome(
    recorder: GameRecorder,
    config: GameConfig,
    folder: Path,
    server: str,
    problems: list[str],
    seconds: float,
    *,
    index: int = 0,
    bots_dir: Path,
) -> GameOutcome:
    """The game's outcome as ``recorder`` heard it, its record written in ``folder``.

    What went wrong with the record (no game, no summary) is added to ``problems``.
    """
    record: GameRecord | None = None
    try:
        record = recorder.game_record(index)
    except ValueError as exc:
        problems.append(str(exc))
    result = recorder.result
    if result is None and recorder.over:
        result = "SMR (the server sent neither DRW nor SLO)"
    if not recorder.over:
        problems.append("the server never summed the game up (no SMR)")
    outcome = GameOutcome(
        folder=folder,
        config=config,
        server=server,
        record=record,
        result=result,
        end=recorder.end_turn(),
        ended_cleanly=recorder.over and record is not None,
        problems=problems,
        seat_powers=recorder.assignment()[0],
        seconds=seconds,
    )
    write_record(outcome, recorder, bots_dir)
    return outcome


def write_record(outcome: GameOutcome, recorder: GameRecorder, bots_dir: Path) -> None:
    """Write ``sco.txt``, ``summary.json``, ``result.txt`` and ``centres.png``."""
    folder = outcome.folder
    (folder / "sco.txt").write_text("".join(line + "\n" for line in recorder.sco_lines()))
    summary = outcome.summary()
    summary["sco"] = {
        str(year): {p: list(cs) for p, cs in owned.items()}
        for year, owned in sorted(recorder.sco_by_year.items())
    }
    summary["assignment"] = recorder.assignment()[1]
    bots: dict[str, Any] = {}
    for seat in outcome.config.seats:
        path = bots_dir / f"{seat.name}.json"
        if path.exists():
            with contextlib.suppress(CorruptJSON):
                bots[seat.name] = read_json_object(path)
    summary["bots"] = bots
    (folder / "summary.json").write_text(json.dumps(summary, indent=1) + "\n")
    (folder / "result.txt").write_text(result_table(outcome) + "\n")
    if outcome.record is not None:
        centres_chart(outcome, folder / "centres.png")


def result_table(outcome: GameOutcome) -> str:
    """The result in words and a table: seat, player, power, centres, solo, points, rank."""
    lines = [
        f"Result: {outcome.result or 'no result'} at {outcome.end}"
        f" ({format_elapsed(outcome.seconds)} on {outcome.server})"
    ]
    for problem in outcome.problems:
        lines.append(f"  note: {problem}")
    record = outcome.record
    if record is None:
        return "\n".join(lines)
    seats = outcome.config.seats
    w_seat = max(4, *(len(s.name) for s in seats))
    w_label = max(6, *(len(s.label) for s in seats))
    lines.append("")
    lines.append(f"{'seat':<{w_seat}}  {'player':<{w_label}}  power  centres  solo  points  rank")
    order = sorted(range(len(seats)), key=lambda i: (record.ranks[i], i))
    for i in order:
        lines.append(
            f"{seats[i].name:<{w_seat}}  {seats[i].label:<{w_label}}  {record.powers[i]:<5}"
            f"  {record.centres[i]:7d}  {'yes' if record.solo == i else '-':>4}"
            f"  {record.points[i]:6.0f}  {record.ranks[i]:4.1f}"
        )
    return "\n".join(lines)


async def stop_on_sigterm() -> None:
    """Make SIGTERM cancel the current task (like Ctrl-C), so every process started is stopped."""
    task = asyncio.current_task()
    if task is None:
        return
    with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, task.cancel)


def run_until_done(main: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run`` where Ctrl-C and SIGTERM both end in KeyboardInterrupt after clean-up."""

    async def guarded() -> T:
        await stop_on_sigterm()
        return await main

    try:
        return asyncio.run(guarded())
    except asyncio.CancelledError:
        raise KeyboardInterrupt from None


def run_game(
    config: GameConfig,
    folder: Path,
    view: View | None = None,
    *,
    index: int = 0,
    listener: MessageListener | None = None,
) -> GameOutcome:
    """Blocking :func:`play_game` (KeyboardInterrupt on Ctrl-C or SIGTERM, after clean-up)."""
    return run_until_done(play_game(config, folder, view, index=index, listener=listener))
