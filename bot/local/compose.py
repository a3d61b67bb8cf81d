"""One seven-bot game in containers (docker-compose.yml), followed and scored on the host.

``python -m bot.local.compose`` (``make compose``) builds the images
(:mod:`bot.local.images`: offline, from local stand-ins of the base images
where Docker Hub cannot be reached), starts the server and the broker, joins
the server from the host as an observer (its port is published on loopback),
starts the seven bots, waits for the end of the game, collects the bots'
records and outputs, tears down every container, network and volume of the
game, and writes the run folder ``runs/compose-<date>-<time>/`` with the same
record, result table and scoring as ``daide-mcts game`` (:mod:`bot.local.runner`).

Settings come from the environment (``make compose FINAL_YEAR=1901 BOT2=mcts:v8``):
``FINAL_YEAR``, ``MTL``, ``RTL``, ``BTL``, ``BOT1`` .. ``BOT7`` (players of
ours: ``mcts``, ``mcts:<variant>``, ``dumbbot``, ``random``), ``SERVER_PORT``
and ``MQTT_PORT`` (the server's and the broker's ports on the host's
loopback; the server's is a free one unless set), ``COMPOSE_PROJECT_NAME``.
Works with ``docker compose`` (v2) or ``docker-compose`` (v1).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from bot.local.images import (
    BOT_IMAGE,
    ROOT,
    SERVER_IMAGE,
    ImageError,
    ensure_bases,
    image_size,
    prepare_sdists,
    prepare_wheelhouse,
)
from bot.local.launch import DEFAULT_DEADLINES, DEFAULT_FINAL_YEAR, FIRST_YEAR, Deadlines
from bot.local.lineup import DEFAULT_LINEUP, SEATS, LineupError, Seat, describe, parse_seat
from bot.local.outcome import GameConfig, GameOutcome
from bot.local.record import GameRecorder
from bot.local.runner import STOP_GRACE, recorded_outcome, result_table, run_until_done
from bot.local.terminal_view import View, make_view
from bot.servers.parlance_install import PARLANCE_VERSION
from bot.toolkit.jsonfiles import CorruptJSON, json_object
from bot.toolkit.observer import Observer
from bot.toolkit.paths import STAMP, dated_folder

DEFAULT_MQTT_PORT = 1883
TELEMETRY_TOPIC = "daide-mcts"
COMPOSE_FILE = ROOT / "docker-compose.yml"
BOT_SERVICES = tuple(f"bot{k}" for k in range(1, SEATS + 1))
HEALTH_TIMEOUT = 90.0
"""Seconds the server container may take to accept connections."""
POLL = 1.0
"""Seconds between two looks at the containers."""
COMMAND_TIMEOUT = 600.0
BUILD_TIMEOUT = 1800.0
DOWN_TIMEOUT = 5
"""Seconds each container gets to stop when the game is torn down."""


class ComposeError(RuntimeError):
    """The game in containers could not be played; the message says why."""


class SettingsError(ValueError):
    """A setting from the environment cannot be used; the message names it."""


@dataclass(frozen=True)
class ComposeSettings:
    """What ``make compose`` plays: the lineup, the final year, the deadlines and the ports."""

    seats: tuple[Seat, ...]
    final_year: int
    deadlines: Deadlines
    server_port: int
    mqtt_port: int
    project: str

    def environment(self) -> dict[str, str]:
        """The variables docker-compose.yml reads."""
        env = {
            "FINAL_YEAR": str(self.final_year),
            "MTL": str(self.deadlines.move),
            "RTL": str(self.deadlines.retreat),
            "BTL": str(self.deadlines.build),
            "SERVER_PORT": str(self.server_port),
            "MQTT_PORT": str(self.mqtt_port),
            "COMPOSE_PROJECT_NAME": self.project,
        }
        for k, seat in enumerate(self.seats, start=1):
            env[f"BOT{k}"] = seat.spec if seat.label == seat.spec else f"{seat.label}={seat.spec}"
        return env

    def config(self) -> GameConfig:
        """The game's settings as the local runner's record keeps them."""
        return GameConfig(
            seats=self.seats,
            final_year=self.final_year,
            deadlines=self.deadlines,
            server="parlance",
            telemetry=f"mqtt://broker:1883/{TELEMETRY_TOPIC}",
        )


def _int_setting(env: Mapping[str, str], name: str, default: int, low: int, high: int) -> int:
    text = env.get(name, "").strip()
    if not text:
        return default
    try:
        value = int(text)
    except ValueError:
        raise SettingsError(f"{name}={text!r} is not a whole number") from None
    if not low <= value <= high:
        raise SettingsError(f"{name}={value} must be between {low} and {high}")
    return value


def free_port() -> int:
    """A TCP port free on the host's loopback now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def settings_from(env: Mapping[str, str]) -> ComposeSettings:
    """The game's settings from environment variables; SettingsError naming a bad one."""
    seats = []
    for k in range(1, SEATS + 1):
        text = env.get(f"BOT{k}", "").strip() or DEFAULT_LINEUP[k - 1]
        try:
            label, kind, spec = parse_seat(text)
        except LineupError as exc:
            raise SettingsError(f"BOT{k}: {exc}") from None
        if kind != "ours":
            raise SettingsError(
                f"BOT{k}={text!r}: containers play players of ours only (mcts, dumbbot, random)"
            )
        if label is not None:
            raise SettingsError(f"BOT{k}={text!r}: a label cannot be given to a container seat")
        seats.append(Seat(label=spec, kind=kind, spec=spec, name=f"bot{k}"))
    deadlines = Deadlines(
        _int_setting(env, "MTL", DEFAULT_DEADLINES.move, 1, 3600),
        _int_setting(env, "RTL", DEFAULT_DEADLINES.retreat, 1, 3600),
        _int_setting(env, "BTL", DEFAULT_DEADLINES.build, 1, 3600),
    )
    project = env.get("COMPOSE_PROJECT_NAME", "").strip() or (f"daide-mcts-{time.strftime(STAMP)}")
    return ComposeSettings(
        seats=tuple(seats),
        final_year=_int_setting(env, "FINAL_YEAR", DEFAULT_FINAL_YEAR, FIRST_YEAR, 2100),
        deadlines=deadlines,
        server_port=_int_setting(env, "SERVER_PORT", 0, 1, 65535) or free_port(),
        mqtt_port=_int_setting(env, "MQTT_PORT", DEFAULT_MQTT_PORT, 1, 65535),
        project=project,
    )


# --- the tools -------------------------------------------------------------------------------


def compose_command() -> list[str]:
    """``docker compose`` (v2) if the machine has it, else ``docker-compose`` (v1)."""
    with contextlib.suppress(OSError, subprocess.TimeoutExpired):
        probe = subprocess.run(
            ["docker", "compose", "version"], capture_output=True, timeout=60, check=False
        )
        if probe.returncode == 0:
            return ["docker", "compose"]
    if shutil.which("docker-compose"):
        return ["docker-compose"]
    raise ComposeError(
        "neither `docker compose` nor `docker-compose` is installed (make setup installs "
        "docker-compose as root on Debian/Ubuntu)"
    )


def check_engine() -> None:
    """ComposeError saying why when no Docker engine answers."""
    if shutil.which("docker") is None:
        raise ComposeError("docker is not installed (make setup installs it as root on Debian)")
    proc = subprocess.run(["docker", "info"], capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        lines = [line for line in proc.stderr.splitlines() if line.strip()]
        why = lines[-1] if lines else f"docker info exited with {proc.returncode}"
        raise ComposeError(f"no Docker engine answers ({why}); make setup starts one as root")


class Compose:
    """The compose file's services for one project, driven by the compose command."""

    def __init__(self, settings: ComposeSettings) -> None:
        self.settings = settings
        self.base = [*compose_command(), "-f", str(COMPOSE_FILE), "-p", settings.project]
        self.env = {**os.environ, **settings.environment()}

    def run(self, *args: str, timeout: float = COMMAND_TIMEOUT) -> str:
        """Run one compose command; its output, or ComposeError with the output's tail."""
        try:
            proc = subprocess.run(
                [*self.base, *args],
                capture_output=True,
                text=True,
                env=self.env,
                cwd=ROOT,
                timeout=timeout,
                check=False,
            )
        except subprocess.TimeoutExpired as exc:
            raise ComposeError(f"`{' '.join(args)}` took over {timeout:.0f}s") from exc
        if proc.returncode != 0:
            raise ComposeError(f"`{' '.join(args)}` failed:\n{(proc.stdout + proc.stderr)[-2000:]}")
        return proc.stdout

    def container(self, service: str) -> str | None:
        """The id of ``service``'s container, None if it has none."""
        ids = self.run("ps", "-q", service).split()
        return ids[0] if ids else None

    def down(self) -> None:
        """Remove every container, network and volume of the project."""
        self.run("down", "--volumes", "--remove-orphans", "--timeout", str(DOWN_TIMEOUT))


def container_state(container: str) -> tuple[str, int]:
    """``(status, exit code)`` of a container (``running``, ``exited`` ...)."""
    out = subprocess.run(
        ["docker", "inspect", "-f", "{{.State.Status}} {{.State.ExitCode}}", container],
        capture_output=True,
        text=True,
        check=False,
    ).stdout.split()
    if len(out) != 2:
        return "gone", -1
    return out[0], int(out[1])


def health(container: str) -> str:
    """The container's health (``starting``, ``healthy``, ``unhealthy``)."""
    return subprocess.run(
        ["docker", "inspect", "-f", "{{.State.Health.Status}}", container],
        capture_output=True,
        text=True,
        check=False,
    ).stdout.strip()


# --- building ---------------------------------------------------------------------------------


def build(settings: ComposeSettings, note: View | None = None) -> dict[str, str]:
    """Build the server and bot images (bases first); what each base was, and the image sizes."""
    say = note.note if note is not None else print
    try:
        prepare_wheelhouse(say)
        prepare_sdists(say)
        how = ensure_bases(say)
    except ImageError as exc:
        raise ComposeError(str(exc)) from exc
    say("Building the images: " + ", ".join(f"{tag} ({w})" for tag, w in how.items()))
    Compose(settings).run("build", "server", "bot1", timeout=BUILD_TIMEOUT)
    sizes = {tag: f"{image_size(tag) / 1e6:.0f} MB" for tag in (SERVER_IMAGE, BOT_IMAGE)}
    say("Images: " + ", ".join(f"{tag} {size}" for tag, size in sizes.items()))
    return how


# --- playing ----------------------------------------------------------------------------------


class _Containers:
    """One game's containers while it runs."""

    def __init__(self, settings: ComposeSettings, folder: Path, view: View) -> None:
        self.settings = settings
        self.folder = folder
        self.view = view
        self.compose = Compose(settings)
        self.bots: dict[str, str] = {}
        self.server: str | None = None
        self.problems: list[str] = []
        self.recorder = GameRecorder(settings.seats, settings.final_year, folder / "messages.daide")

    async def start_server(self) -> None:
        await asyncio.to_thread(self.compose.run, "up", "-d", "--no-build", "server", "broker")
        self.server = await asyncio.to_thread(self.compose.container, "server")
        if self.server is None:
            raise ComposeError("the server's container did not start")
        until = time.monotonic() + HEALTH_TIMEOUT
        while (state := await asyncio.to_thread(health, self.server)) != "healthy":
            if state == "unhealthy" or time.monotonic() > until:
                raise ComposeError(f"the server's container is {state or 'not running'}")
            await asyncio.sleep(POLL / 2)

    async def start_bots(self) -> None:
        await asyncio.to_thread(self.compose.run, "up", "-d", "--no-build", *BOT_SERVICES)
        for service in BOT_SERVICES:
            found = await asyncio.to_thread(self.compose.container, service)
            if found is None:
                raise ComposeError(f"{service}'s container did not start")
            self.bots[service] = found

    async def wait(self) -> None:
        """Until the bots have left, or the game is over (and a grace), or the time limit."""
        limit = time.monotonic() + self.settings.config().time_limit()
        over_since: float | None = None
        reported: set[str] = set()
        while True:
            self.view.update(self.recorder.snapshot())
            states = {s: await asyncio.to_thread(container_state, c) for s, c in self.bots.items()}
            for service, (status, code) in states.items():
                if status != "running" and code != 0 and service not in reported:
                    reported.add(service)
                    when = "after" if self.recorder.over else "before"
                    self.problems.append(
                        f"{service}'s container stopped {when} the end of the game "
                        f"(exit status {code})"
                    )
                    self.view.note(self.problems[-1])
            if all(status != "running" for status, _ in states.values()):
                return
            now = time.monotonic()
            if self.recorder.over:
                over_since = over_since or now
                if now - over_since > STOP_GRACE:
                    self.problems.append("some bots did not leave after the game; stopped")
                    return
            if now > limit:
                self.problems.append(f"the game did not end within {limit:.0f}s; stopped")
                return
            await asyncio.sleep(POLL)

    def collect(self) -> None:
        """Copy the bots' records and every container's output into the run folder."""
        bots_dir = self.folder / "bots"
        bots_dir.mkdir(parents=True, exist_ok=True)
        for service, container in self.bots.items():
            with open(bots_dir / f"{service}.out", "wb") as out:
                subprocess.run(
                    ["docker", "logs", container], stdout=out, stderr=subprocess.STDOUT, check=False
                )
        if self.bots:
            source = next(iter(self.bots.values()))
            copied = subprocess.run(
                ["docker", "cp", f"{source}:/runs/bots/.", str(bots_dir)],
                capture_output=True,
                text=True,
                check=False,
            )
            if copied.returncode != 0:
                self.problems.append(f"the bots' records could not be copied: {copied.stderr}")
        if self.server is not None:
            with open(self.folder / "server.log", "wb") as out:
                subprocess.run(
                    ["docker", "logs", self.server],
                    stdout=out,
                    stderr=subprocess.STDOUT,
                    check=False,
                )
        for seat in self.settings.seats:
            for path in sorted((bots_dir / seat.name).glob("*.jsonl"))[:1]:
                power = _reported_power(path)
                if power is not None:
                    self.recorder.on_bot_power(seat.name, power)


def _reported_power(path: Path) -> str | None:
    """The power a bot's game record says it played (its ``hlo`` line), if any."""
    with contextlib.suppress(OSError), open(path, encoding="utf-8") as lines:
        for line in lines:
            try:
                record = json_object(line)
            except CorruptJSON:
                continue
            if record.get("kind") == "hlo" and isinstance(record.get("power"), str):
                return str(record["power"])
    return None


async def play(settings: ComposeSettings, folder: Path, view: View) -> GameOutcome:
    """Play one game in containers into ``folder``; everything is torn down afterwards."""
    folder.mkdir(parents=True, exist_ok=True)
    began = time.monotonic()
    game = _Containers(settings, folder, view)
    observer_task: asyncio.Task[str] | None = None
    try:
        await game.start_server()
        view.note(
            f"Parlance {PARLANCE_VERSION} in a container on 127.0.0.1:{settings.server_port}; "
            f"{describe(settings.seats)}; to WIN {settings.final_year}; {settings.deadlines}; "
            f"watch it: daide-mcts watch mqtt://localhost:{settings.mqtt_port}/{TELEMETRY_TOPIC}"
        )
        observer = Observer(
            "127.0.0.1",
            settings.server_port,
            lambda d, t, m: game.recorder.on_message("observer", d, t, m),
        )
        observer_task = asyncio.create_task(observer.run())
        for _ in range(200):  # join before the players, so nothing is missed
            if game.recorder.messages or observer_task.done():
                break
            await asyncio.sleep(0.05)
        await game.start_bots()
        await game.wait()
    finally:
        with contextlib.suppress(Exception):
            await asyncio.to_thread(game.collect)
        if observer_task is not None and not observer_task.done():
            observer_task.cancel()
        if observer_task is not None:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await observer_task
        await asyncio.to_thread(game.compose.down)
        game.recorder.close()
        view.close(game.recorder.snapshot())
    return _finish(game, settings, folder, time.monotonic() - began)


def _finish(
    game: _Containers, settings: ComposeSettings, folder: Path, seconds: float
) -> GameOutcome:
    return recorded_outcome(
        game.recorder,
        settings.config(),
        folder,
        f"Parlance {PARLANCE_VERSION} in containers",
        game.problems,
        seconds,
        bots_dir=folder / "bots",
    )


def run_folder(runs: Path) -> Path:
    """A new ``compose-<date>-<time>`` folder under ``runs``."""
    path = dated_folder(runs, "compose")
    path.mkdir(parents=True)
    return path


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """``make compose``: build, play, report; 0 if the game ended cleanly with a result."""
    out = out or sys.stdout
    parser = argparse.ArgumentParser(
        prog="python -m bot.local.compose",
        description="A seven-bot game in containers; settings from the environment.",
    )
    parser.add_argument("--runs", type=Path, default=Path("runs"), help="where the run folder goes")
    parser.add_argument("--build-only", action="store_true", help="build the images, play nothing")
    args = parser.parse_args(argv)
    view = make_view(out)
    try:
        settings = settings_from(os.environ)
        check_engine()
        started = time.monotonic()
        build(settings, view)
        view.note(f"Images ready in {time.monotonic() - started:.0f}s")
        if args.build_only:
            return 0
        folder = run_folder(args.runs)
        outcome = run_until_done(play(settings, folder, view))
    except (ComposeError, SettingsError) as exc:
        out.write(f"make compose: {exc}\n")
        return 2
    out.write("\n" + result_table(outcome) + "\n")
    files = [f.name for f in sorted(folder.iterdir()) if f.is_file()]
    out.write(f"\nrecord: {folder}/ ({', '.join(files)}, bots/)\n")
    out.write(f"replay it in the browser: daide-mcts view {folder}\n")
    out.flush()
    return 0 if outcome.ended_cleanly else 1


if __name__ == "__main__":
    sys.exit(main())
