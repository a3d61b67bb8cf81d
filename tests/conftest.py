"""Fixtures that start real peers on 127.0.0.1, each on a fresh port: Parlance, MILA,
mosquitto.

If a peer cannot be installed or started, the test fails and says why; it is
never skipped.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from bot.servers.mila import MilaServer, MilaUnavailableError
from bot.servers.mosquitto import MosquittoBroker, MosquittoInstall, MosquittoUnavailableError
from bot.servers.mosquitto import install as install_mosquitto
from bot.servers.parlance import (
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
    """A factory: ``parlance_server(MTL=5, ...)`` starts a server on a fresh port."""
    started: list[ParlanceServer] = []

    def start(games: int = 1, **options: object) -> ParlanceServer:
        server = ParlanceServer(parlance_install, games=games, options=options)
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
