"""Fixtures that start real peers on 127.0.0.1, each on a fresh port: Parlance, MILA,
mosquitto; and the switch between the compiled and the pure-Python hot paths.

If a peer cannot be installed or started, or a compiled extension was not built,
the test fails and says why; it is never skipped.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from adjudicator import compiled_rules as speedups
from bot.servers.mila import MilaServer, MilaUnavailableError
from bot.servers.mosquitto import MosquittoBroker, MosquittoInstall, MosquittoUnavailableError
from bot.servers.mosquitto import install as install_mosquitto
from bot.servers.parlance_install import (
    ParangBots,
    ParlanceInstall,
    ParlanceServer,
    ParlanceUnavailableError,
    install,
)


@pytest.fixture(scope="session")
def parlance_install() -> ParlanceInstall:
    """Parlance + Parang installed in the project-local folder (idempotent)."""
    try:
        return install()
    except ParlanceUnavailableError as exc:
        pytest.fail(f"Parlance is needed for this test and could not be installed: {exc}")


@pytest.fixture
def parlance_server(
    parlance_install: ParlanceInstall,
) -> Iterator[Callable[..., ParlanceServer]]:
    """A factory: ``parlance_server(MTL=5, variant="world3")`` starts a server on a fresh port."""
    started: list[ParlanceServer] = []

    def start(games: int = 1, variant: str = "standard", **options: object) -> ParlanceServer:
        server = ParlanceServer(parlance_install, games=games, variant=variant, options=options)
        try:
            server.start()
        except ParlanceUnavailableError as exc:
            pytest.fail(f"Parlance could not be started: {exc}")
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()


@pytest.fixture
def parang_bots(
    parlance_install: ParlanceInstall,
) -> Iterator[Callable[..., ParangBots]]:
    """A factory: ``parang_bots(server, 6)`` connects six Parang dumbbots to ``server``."""
    started: list[ParangBots] = []

    def start(server: ParlanceServer, count: int, bot: str = "dumbbot") -> ParangBots:
        bots = ParangBots(parlance_install, server.host, server.port, count, bot).start()
        started.append(bots)
        return bots

    yield start
    for bots in started:
        bots.stop()


@pytest.fixture
def mila_server() -> Iterator[Callable[..., MilaServer]]:
    """A factory: ``mila_server(deadline=6)`` starts MILA's DAIDE server on a fresh port."""
    started: list[MilaServer] = []

    def start(**options: object) -> MilaServer:
        server = MilaServer(**options)  # type: ignore[arg-type]
        try:
            server.start(timeout=120)
        except MilaUnavailableError as exc:
            pytest.fail(f"MILA's DAIDE server could not be started: {exc}")
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()


@pytest.fixture(scope="session")
def mosquitto_install() -> MosquittoInstall:
    """Debian's mosquitto installed in the project-local folder (idempotent)."""
    try:
        return install_mosquitto()
    except MosquittoUnavailableError as exc:
        pytest.fail(f"mosquitto is needed for this test and could not be installed: {exc}")


@pytest.fixture
def mosquitto_broker(
    mosquitto_install: MosquittoInstall,
) -> Iterator[Callable[..., MosquittoBroker]]:
    """A factory: ``mosquitto_broker()`` starts a broker on a fresh port (``persistent=True``
    keeps sessions across its ``restart()``); stopped at the end of the test."""
    started: list[MosquittoBroker] = []

    def start(persistent: bool = False) -> MosquittoBroker:
        broker = MosquittoBroker(mosquitto_install, persistent=persistent)
        started.append(broker)
        try:
            broker.start()
        except MosquittoUnavailableError as exc:
            pytest.fail(f"mosquitto could not be started: {exc}")
        return broker

    yield start
    for broker in started:
        broker.stop()


def _require_extensions() -> None:
    """Fail the test unless every compiled extension is built from its current source."""
    for name in speedups.EXTENSIONS:
        try:
            module = speedups.import_build(name)
        except ImportError as exc:
            pytest.fail(f"{name} is not built ({exc}): run make setup (it needs a C compiler)")
        if not speedups.is_current(module):
            pytest.fail(f"{name} was built from an older source: run make setup to rebuild it")


@pytest.fixture(params=["compiled", "pure-python"])
def hot_path(request: pytest.FixtureRequest) -> Iterator[str]:
    """Run the test once on the compiled hot paths and once in pure Python."""
    compiled = request.param == "compiled"
    if compiled:
        _require_extensions()
    saved = speedups.enabled()
    speedups.use_compiled(compiled)
    try:
        yield request.param
    finally:
        speedups.use_compiled(saved)


@pytest.fixture
def compiled() -> Iterator[None]:
    """The compiled hot paths, switched on (the test fails if they were not built)."""
    _require_extensions()
    saved = speedups.enabled()
    speedups.use_compiled(True)
    try:
        yield
    finally:
        speedups.use_compiled(saved)
