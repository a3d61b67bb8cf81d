"""The viewer answers only to its own loopback address, and bad parameters get 400 in one line.

``daide-mcts view`` runs as the user runs it; requests are written by hand
(http.client, or a raw socket) so that the Host header is exactly what a
DNS-rebinding page, or a careless client, would send.
"""

from __future__ import annotations

import http.client
import json
import socket
import time
import urllib.request
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from bot.view.mapfacts import MapFacts
from tests.bot.view.scripted_game import write_run_folder
from tests.bot.view.variant_maps import VariantStart, write_variant_run

TIMEOUT = 10.0
MAP_TIMEOUT = 120.0
"""Seconds a computed map may take the first time on this machine (world3's, on a busy one)."""


def _request(url: str, path: str, host: str | None) -> tuple[int, bytes]:
    """GET ``path`` from the server at ``url`` with exactly ``host`` as its Host header."""
    parts = urlsplit(url)
    assert parts.hostname is not None and parts.port is not None
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=TIMEOUT)
    try:
        conn.putrequest("GET", path, skip_host=True)
        if host is not None:
            conn.putheader("Host", host)
        conn.endheaders()
        response = conn.getresponse()
        status = response.status
        body = response.read(4096) if status != 200 or "events" not in path else b""
        return status, body
    finally:
        conn.close()


def _http10(url: str, path: str) -> bytes:
    """The status line of an HTTP/1.0 request without any Host header."""
    parts = urlsplit(url)
    assert parts.hostname is not None and parts.port is not None
    with socket.create_connection((parts.hostname, parts.port), timeout=TIMEOUT) as sock:
        sock.sendall(f"GET {path} HTTP/1.0\r\n\r\n".encode())
        return sock.recv(4096).split(b"\r\n", 1)[0]


@pytest.fixture
def served(tmp_path: Path, run_view) -> tuple[str, int, object]:
    write_run_folder(tmp_path / "run")
    view = run_view(str(tmp_path / "run"))
    port = urlsplit(view.url).port
    assert port is not None
    return view.url, port, view


@pytest.mark.timeout(120)
def test_only_the_loopback_names_with_the_right_port_are_served(
    served: tuple[str, int, object], tmp_path: Path
) -> None:
    url, port, _ = served
    for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"LOCALHOST:{port}", f"[::1]:{port}"):
        status, _body = _request(url, "/api/game", host)
        assert status == 200, host
    for host in (
        f"attacker.example:{port}",  # a rebinding page sends its own name
        f"127.0.0.1.attacker.example:{port}",
        f"localhost.:{port}",
        f"127.0.0.1:{port + 1}",
        "127.0.0.1",
        f"127.0.0.2:{port}",
        "",
    ):
        for path in ("/api/game", "/api/events?since=0", "/", "/static/app.js"):
            status, body = _request(url, path, host)
            assert status == 421, (host, path, status)
            assert str(tmp_path).encode() not in body and b"phases" not in body
    assert _http10(url, "/api/game").split()[1] == b"400"


@pytest.mark.timeout(120)
def test_bad_parameters_get_400_and_one_line_never_a_traceback(
    served: tuple[str, int, object],
) -> None:
    url, port, view = served
    host = f"127.0.0.1:{port}"
    for since in ("abc", "-1", "1e3", "1.5", "", "%201", "%EF%BC%91", "9" * 5000, "0x10"):
        status, body = _request(url, f"/api/events?since={since}", host)
        assert status == 400, (since, status, body)
        text = body.decode()
        assert text.startswith("since must be a whole number") and text.count("\n") == 1
    assert _request(url, "/api/events?since=0", host)[0] == 200
    assert _request(url, "/api/events?since=123456789", host)[0] == 200
    assert _request(url, "/api/events", host)[0] == 200
    assert _request(url, "/api/game?since=abc&x=%00", host)[0] == 200  # it takes none
    assert _request(url, "/static/../../../etc/passwd", host)[0] == 404
    time.sleep(0.5)  # the server's log, if it had one, would be written by now
    output = "".join(view.lines)  # type: ignore[attr-defined]
    assert "Traceback" not in output and "Exception" not in output, output


@pytest.mark.timeout(60)
def test_a_host_bound_explicitly_is_served_too(tmp_path: Path) -> None:
    """``daide-mcts game --view``'s server, bound to another loopback address by its caller."""
    from bot.view.server import ViewServer
    from bot.view.sources import load_run

    write_run_folder(tmp_path / "run")
    server = ViewServer(load_run(tmp_path / "run"), host="127.0.0.2")
    url = server.start_in_thread()
    try:
        assert url == f"http://127.0.0.2:{server.port}/"
        for host in (f"127.0.0.2:{server.port}", f"localhost:{server.port}"):
            assert _request(url, "/api/game", host)[0] == 200
        assert _request(url, "/api/game", f"127.0.0.3:{server.port}")[0] == 421
    finally:
        server.stop()


def _get_json(url: str, path: str) -> Any:
    with urllib.request.urlopen(url.rstrip("/") + path, timeout=MAP_TIMEOUT) as response:
        assert response.status == 200
        return json.loads(response.read())


@pytest.mark.timeout(180)
def test_the_map_served_is_the_games_standard_or_computed(
    tmp_path: Path, run_view, variant_starts: dict[str, VariantStart]
) -> None:
    write_run_folder(tmp_path / "standard")
    world = variant_starts["world3"]
    write_variant_run(tmp_path / "world3", world)
    for folder, layout, provinces in (
        ("standard", "geographic", 75),
        ("world3", "computed", len(MapFacts.of(world.definition).provinces)),
    ):
        view = run_view(str(tmp_path / folder))
        game = _get_json(view.url, "/api/game")
        drawn = _get_json(view.url, "/api/map")
        assert drawn["name"] == game["meta"]["map"]
        assert drawn["layout"] == layout and len(drawn["provinces"]) == provinces
        units = game["phases"]["0"]["units"]
        assert units and all(u["province"] in drawn["provinces"] for u in units)
