"""The start page, run as a person runs it (``daide-mcts start``): malformed forms are
refused with one line and start nothing; a bad port is one line.  A person's whole game
from the start page, in a real browser, is tests/bot/human/test_coach_page.py's.
The app's status and refusals are also checked in process (no socket, no game started).
"""

from __future__ import annotations

import asyncio
import io
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from starlette.types import Message

from bot.human.start_form import Catalogue
from bot.human.start_page import KEY_HEADER, StartApp
from bot.servers.parlance_maps import ServedMap
from tests.bot.human.conftest import ROOT, StartProcess


def test_a_malformed_form_is_refused_and_starts_nothing(
    run_start: Callable[..., StartProcess], tmp_path: Path
) -> None:
    page = run_start()
    status, text = page.call("GET", "/api/options")
    assert status == 200, text
    options = json.loads(text)
    assert options["maps"][0]["name"] == "standard"
    assert len(options["maps"]) > 1  # Parterre's variants
    assert {"mcts", "dumbbot", "random", "parang"} <= set(options["kinds"])
    six = [{"kind": "dumbbot"}] * 6
    refused = [
        (json.dumps({"opponents": six, "power": "XYZ"}), "power: standard has no power XYZ"),
        (json.dumps({"opponents": six[:2]}), "so 6 opponents (got 2)"),
        (json.dumps({"opponents": six, "move": 0}), "move: Input should be greater than"),
        (json.dumps({"opponents": six, "map": "atlantis"}), "map: no map called 'atlantis'"),
        (json.dumps({"opponents": six, "final_year": 1899}), "final_year: between 1901"),
        ("{", "the request: Invalid JSON"),
    ]
    for body, expected in refused:
        status, text = page.call("POST", "/api/start", body.encode())
        assert status == 400 and expected in text, (body, status, text)
        assert len(text.strip().splitlines()) == 1
    status, text = page.call("POST", "/api/start", b"x" * 20_000)
    assert status == 413, text
    assert (
        page.call("POST", "/api/start", json.dumps({"opponents": six}).encode(), key=None)[0] == 403
    )
    assert page.call("GET", "/api/game", key="wrong")[0] == 403
    assert page.call("GET", "/api/options", host="evil.example:80")[0] == 421
    status, text = page.call("GET", "/api/game")
    assert status == 200 and json.loads(text)["state"] == "none"
    assert not (tmp_path / "runs").exists()
    assert page.proc.poll() is None


def test_a_bad_port_is_one_line_and_exit_code_2() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "bot.cli", "start", "--http-port", "70000"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 2
    assert proc.stderr.strip() == (
        "daide-mcts start: error: --http-port must be between 0 and 65535 (got 70000)"
    )


SECRET = "s3cret"
PORT = 8765
STANDARD = ServedMap("standard", 1901, ("AUS", "ENG", "FRA", "GER", "ITA", "RUS", "TUR"))


def call(
    app: StartApp, method: str, path: str, body: bytes = b""
) -> tuple[int, dict[str, str], bytes]:
    """The status, headers and body ``app`` answers a request with."""
    sent: list[Message] = []
    pending = [body]

    async def receive() -> Message:
        return {
            "type": "http.request",
            "body": pending.pop(0) if pending else b"",
            "more_body": False,
        }

    async def send(message: Message) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "method": method,
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "scheme": "http",
        "server": ("127.0.0.1", PORT),
        "headers": [
            (b"host", f"127.0.0.1:{PORT}".encode()),
            (KEY_HEADER.encode(), SECRET.encode()),
            (b"content-length", str(len(body)).encode()),
        ],
    }
    asyncio.run(app.app(scope, receive, send))
    start = next(m for m in sent if m["type"] == "http.response.start")
    headers = {k.decode().lower(): v.decode() for k, v in start["headers"]}
    content = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return start["status"], headers, content


def app(runs: Path) -> StartApp:
    catalogue = Catalogue({"standard": STANDARD}, parang=False)
    return StartApp(catalogue, runs, SECRET, "127.0.0.1", PORT, io.StringIO())


def test_before_a_start_the_game_is_none_as_uncached_json(tmp_path: Path) -> None:
    status, headers, content = call(app(tmp_path), "GET", "/api/game")
    assert status == 200
    assert headers["content-type"] == "application/json"
    assert headers["cache-control"] == "no-store"
    assert json.loads(content)["state"] == "none"


def test_a_form_this_machine_cannot_play_starts_nothing(tmp_path: Path) -> None:
    start = app(tmp_path)
    form = {"opponents": [{"kind": "parang", "bot": "dumbbot"}] * 6}
    status, _, content = call(start, "POST", "/api/start", json.dumps(form).encode())
    assert status == 400
    assert "opponents.0: parang cannot play here" in content.decode()
    assert json.loads(call(start, "GET", "/api/game")[2])["state"] == "none"
    assert start.game is None and list(tmp_path.iterdir()) == []
