"""Fixtures of the seat's tests: the seat's web app really served (uvicorn on loopback, in a
thread) with requests written by hand, so the Host header is exactly what a client sends;
``daide-mcts human`` run as a person runs it (a subprocess printing its page's address);
and ``daide-mcts start``, the start page, likewise."""

from __future__ import annotations

import asyncio
import contextlib
import http.client
import json
import re
import socket
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, TypeVar
from urllib.parse import parse_qs, urlsplit

import pytest
import uvicorn
from starlette.types import ASGIApp

from adjudicator.maps import standard_map
from adjudicator.position import initial_position
from bot.human.coaching import SeatCoach
from bot.human.desk import SeatDesk
from bot.human.press_panel import PressLog, PressPanel
from bot.human.webapp import SeatApp
from tests.bot.human.boardseat import BoardSeat
from tests.bot.page_process import PageProcess, page_processes
from tests.bot.view.conftest import browser, chromium_install  # noqa: F401 - shared fixtures

ROOT = Path(__file__).resolve().parents[3]
SECRET = "s3cret-key"
TIMEOUT = 10.0
GRACE = 1
"""Seconds open requests (an event stream) get when the served app stops."""


SEAT_KEY = "X-Seat-Key"
"""The header that carries a seat's key."""

START_KEY = "X-Start-Key"
"""The header that carries the start page's key."""


def request(
    port: int,
    method: str,
    path: str,
    data: bytes,
    headers: dict[str, str],
    *,
    host: str | None = "",
    timeout: float = TIMEOUT,
) -> tuple[int, str]:
    """Status and text of one JSON request to 127.0.0.1:``port``, written by hand.

    ``host`` None sends no Host header, "" the right one, anything else that
    text; ``headers`` are added as they are.
    """
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.putrequest(method, path, skip_host=True)
        if host is not None:
            conn.putheader("Host", host or f"127.0.0.1:{port}")
        for name, value in headers.items():
            conn.putheader(name, value)
        conn.putheader("Content-Type", "application/json")
        conn.putheader("Content-Length", str(len(data)))
        conn.endheaders(data)
        response = conn.getresponse()
        return response.status, response.read().decode("utf-8", "replace")
    finally:
        conn.close()


@dataclass
class Served:
    """A seat's app served on ``port``; :meth:`call` sends one request."""

    port: int
    seat: BoardSeat
    app: SeatApp

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/?key={SECRET}"

    def call(
        self,
        method: str,
        path: str,
        body: object = None,
        *,
        key: str | None = SECRET,
        host: str | None = "",
        raw: bytes | None = None,
    ) -> tuple[int, str]:
        """Status and text of ``method path``; ``host`` None sends no Host, "" the right one."""
        data = raw if raw is not None else (b"" if body is None else json.dumps(body).encode())
        keys = {} if key is None else {SEAT_KEY: key}
        return request(self.port, method, path, data, keys, host=host)


@pytest.fixture
def board_seat() -> BoardSeat:
    """France at the start of the game."""
    return BoardSeat(initial_position(standard_map()))


@contextlib.contextmanager
def serving(make: Callable[[int], ASGIApp]) -> Iterator[int]:
    """The app ``make(port)`` gives, served by uvicorn on a fresh loopback ``port`` (yielded)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(16)
    port = int(sock.getsockname()[1])
    config = uvicorn.Config(
        make(port), log_level="warning", lifespan="off", timeout_graceful_shutdown=GRACE
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=lambda: asyncio.run(server.serve(sockets=[sock])), daemon=True)
    thread.start()
    try:
        yield port
    finally:
        server.should_exit = True
        thread.join(10.0)
        sock.close()


@pytest.fixture
def served(board_seat: BoardSeat) -> Iterator[Served]:
    """The seat's app for ``board_seat``, served on a fresh loopback port."""
    coach = SeatCoach(lambda: board_seat.power)
    apps: list[SeatApp] = []

    def make(port: int) -> ASGIApp:
        app = SeatApp(
            board_seat,
            SeatDesk(),
            SECRET,
            "127.0.0.1",
            port,
            coach=coach,
            press=PressPanel(board_seat, PressLog()),
        )
        apps.append(app)
        return app.app

    with serving(make) as port:
        yield Served(port, board_seat, apps[0])
    coach.close()


REVIEW_TIMEOUT = 300


def review_json(folder: Path, power: str, out: Path) -> dict[str, Any]:
    """``daide-mcts review FOLDER --power P --json OUT`` as a person runs it (its defaults)."""
    argv = ["review", str(folder), "--power", power, "--json", str(out)]
    done = subprocess.run(
        [sys.executable, "-m", "bot.cli", *argv],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=REVIEW_TIMEOUT,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return dict(json.loads(out.read_text()))


QUIET = {"DAIDE_MCTS_LOG_LEVEL": "warning"}
"""The environment the page commands run with: their log at warnings only."""


class KeyedPage(PageProcess):
    """A ``daide-mcts`` command serving a page with a key, running as a subprocess.

    A subclass names the command, the address it prints (``url``, with the
    key), how long it may take to print it and the header requests give the
    key in; :func:`keyed_pages` runs it.
    """

    command: ClassVar[str]
    address: ClassVar[re.Pattern[str]]
    started_within: ClassVar[float]
    """Seconds the command may take to serve its page."""
    key_header: ClassVar[str]

    @property
    def port(self) -> int:
        port = urlsplit(self.url).port
        assert port is not None
        return port

    @property
    def key(self) -> str:
        return parse_qs(urlsplit(self.url).query)["key"][0]

    def call(
        self, method: str, path: str, body: bytes = b"", *, key: str | None = "", host: str = ""
    ) -> tuple[int, str]:
        """Status and text of one request: the page's key, unless ``key`` is another or None."""
        keys = {} if key is None else {self.key_header: key or self.key}
        return request(self.port, method, path, body, keys, host=host, timeout=30)


class HumanProcess(KeyedPage):
    """``daide-mcts human`` running as a subprocess; ``url`` is the page it printed."""

    command = "human"
    address = re.compile(r"(http://127\.0\.0\.1:\d+/\?key=[A-Za-z0-9_-]+)")
    started_within = 60.0
    key_header = SEAT_KEY


class StartProcess(KeyedPage):
    """``daide-mcts start`` running as a subprocess; ``url`` is the page it printed."""

    command = "start"
    address = re.compile(r"choose your game at (http://127\.0\.0\.1:\d+/\?key=[A-Za-z0-9_-]+)")
    started_within = 120.0  # it may install Parlance first
    key_header = START_KEY


K = TypeVar("K", bound=KeyedPage)


def keyed_pages(kind: type[K], argv: Callable[..., list[str]]) -> Iterator[Callable[..., K]]:
    """A fixture's body: a factory of ``kind``'s processes, stopped at the end.

    The factory's arguments become the command's by ``argv``.
    """
    factory = page_processes(kind, kind.command, kind.address, kind.started_within, QUIET)
    start = next(factory)
    yield lambda *args: start(*argv(*args))
    next(factory, None)


@pytest.fixture
def run_start(tmp_path: Path) -> Iterator[Callable[..., StartProcess]]:
    """A factory: ``run_start()`` serves the start page, its games' records under tmp_path."""
    yield from keyed_pages(StartProcess, lambda *args: ["--runs", str(tmp_path / "runs"), *args])


@pytest.fixture
def run_human() -> Iterator[Callable[..., HumanProcess]]:
    """A factory: ``run_human(port, "--name", "Alice")`` takes a seat with ``daide-mcts human``."""
    yield from keyed_pages(HumanProcess, lambda port, *args: ["--port", str(port), *args])
