"""Every server we start listens on 127.0.0.1 only; MILA's default accounts are locked.

Each real server is started by its fixture; every port its process listens on
(MILA's hidden web port too) must accept connections on 127.0.0.1 and refuse
them on this machine's own non-loopback address.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest

from bot.servers.mila import MilaServer
from bot.servers.mosquitto import MosquittoBroker
from bot.servers.parlance_install import ParlanceServer
from bot.view.server import ViewServer
from bot.view.timeline import Timeline
from tests.bot.servers.reach import assert_loopback_only, listening_ports

SIGN_IN_TIMEOUT = 30.0
"""Seconds a sign-in on MILA's web port may take."""


def _pid(server: MilaServer | ParlanceServer | MosquittoBroker) -> int:
    assert server._proc is not None
    return server._proc.pid


@pytest.mark.mila
def test_milas_server_listens_on_loopback_only(mila_server: Callable[..., MilaServer]) -> None:
    server = mila_server()
    ports = listening_ports(_pid(server))
    assert server.port in ports
    assert len(ports) == 2, f"the DAIDE port and the web port, found {ports}"
    assert_loopback_only(ports)


@pytest.mark.parlance
def test_parlance_listens_on_loopback_only(parlance_server: Callable[..., ParlanceServer]) -> None:
    server = parlance_server()
    ports = listening_ports(_pid(server))
    assert server.port in ports
    assert_loopback_only(ports)


@pytest.mark.mqtt
def test_mosquitto_listens_on_loopback_only(
    mosquitto_broker: Callable[..., MosquittoBroker],
) -> None:
    broker = mosquitto_broker()
    ports = listening_ports(_pid(broker))
    assert broker.port in ports
    assert_loopback_only(ports)


def test_the_viewer_listens_on_loopback_only() -> None:
    server = ViewServer(Timeline(live=True))
    try:
        server.start_in_thread()
        assert_loopback_only({server.port: server.host})
    finally:
        server.stop()


async def _sign_in(port: int, username: str, password: str) -> None:
    """Sign in to MILA's web port with MILA's own client (raises if refused)."""
    from diplomacy.client.connection import connect

    connection = await asyncio.wait_for(connect("127.0.0.1", port), SIGN_IN_TIMEOUT)
    try:
        await asyncio.wait_for(connection.authenticate(username, password), SIGN_IN_TIMEOUT)
    finally:
        connection.connection.close()


@pytest.mark.mila
def test_milas_admin_account_has_no_known_password(
    mila_server: Callable[..., MilaServer],
) -> None:
    from diplomacy.utils import constants
    from diplomacy.utils.exceptions import DiplomacyException

    server = mila_server()
    (web_port,) = set(listening_ports(_pid(server))) - {server.port}
    asyncio.run(_sign_in(web_port, "someone", "a password"))  # the web port does sign people in
    for username, password in (
        ("admin", "password"),
        (constants.PRIVATE_BOT_USERNAME, constants.PRIVATE_BOT_PASSWORD),
    ):
        with pytest.raises(DiplomacyException):
            asyncio.run(_sign_in(web_port, username, password))
