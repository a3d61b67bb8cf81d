"""Who can reach a server: its listening ports, tried from loopback and from the machine's address.

A server bound to 127.0.0.1 accepts connections to 127.0.0.1 and refuses
them on the machine's own non-loopback address; one bound to every interface
(``0.0.0.0``) accepts both.  The non-loopback address is this machine's own,
so the connection attempts never leave it.
"""

from __future__ import annotations

import contextlib
import ipaddress
import socket

import psutil
import pytest

CONNECT_TIMEOUT = 2.0
"""Seconds one connection attempt may take."""


def outward_address() -> str:
    """This machine's first non-loopback IPv4 address; fails the test when it has none.

    Without one, binding to every interface and binding to loopback cannot be
    told apart from here, so the test cannot show anything and says so.
    """
    candidates = [
        address.address
        for addresses in psutil.net_if_addrs().values()
        for address in addresses
        if address.family == socket.AF_INET
    ]
    with contextlib.suppress(OSError):  # a host name that does not resolve
        candidates.append(socket.gethostbyname(socket.gethostname()))
    for candidate in candidates:
        if not ipaddress.ip_address(candidate).is_loopback:
            return candidate
    pytest.fail(
        "this machine has no non-loopback IPv4 address (interfaces: "
        f"{', '.join(sorted(psutil.net_if_addrs()))}), so a server bound to every interface "
        "cannot be told from one bound to loopback; give it one (e.g. a dummy interface)"
    )


def listening_ports(*pids: int) -> dict[int, str]:
    """Port -> bound address of every TCP socket the processes ``pids`` listen on."""
    ports: dict[int, str] = {}
    for pid in pids:
        for conn in psutil.Process(pid).net_connections(kind="inet"):
            if conn.status == psutil.CONN_LISTEN:
                ports[conn.laddr.port] = conn.laddr.ip
    return ports


def accepts(host: str, port: int) -> bool:
    """True when a TCP connection to ``host:port`` is accepted."""
    try:
        with socket.create_connection((host, port), timeout=CONNECT_TIMEOUT):
            return True
    except OSError:
        return False


def assert_loopback_only(ports: dict[int, str], loopback: str = "127.0.0.1") -> None:
    """Every port accepts on ``loopback`` and refuses on the machine's outward address."""
    outward = outward_address()
    assert ports, "the server listens on no port"
    for port, bound in sorted(ports.items()):
        assert accepts(loopback, port), f"port {port} (bound to {bound}) refuses on {loopback}"
        assert not accepts(outward, port), (
            f"port {port} accepts connections on {outward}: bound to {bound}, not {loopback}"
        )
