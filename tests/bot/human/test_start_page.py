"""The start page, run as a person runs it (``daide-mcts start``), in a real browser.

A person chooses a short game (the standard map, short deadlines, 1901 only,
France, DumbBots) and clicks "play": the page's command starts Parlance and
the seats with the local runner, and the browser lands on the person's seat
page, playing France.  Malformed forms are refused with one line and start
nothing.
"""

from __future__ import annotations

import http.client
import json
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import BrowserContext, expect

from tests.bot.human.conftest import ROOT, HumanProcess
from tests.bot.human.seatpage import SeatPage
from tests.bot.page_process import PageProcess, page_processes

START_URL = re.compile(r"choose your game at (http://127\.0\.0\.1:\d+/\?key=[A-Za-z0-9_-]+)")
SEAT_URL = re.compile(r"^http://127\.0\.0\.1:\d+/\?key=[A-Za-z0-9_-]+$")
STARTED_WITHIN = 120.0
"""Seconds the command may take to serve its page (it may install Parlance first)."""
MOVE_DEADLINE = 60
"""Seconds of a movement phase: the person asks for a hint and takes its advice in it."""
HINT_WITHIN = 60_000
"""Milliseconds until the ranked hint shows (the search thinks 3 s, on a busy machine)."""
SEATED_WITHIN = 240_000
"""Milliseconds until the person is at the seat page: Parlance and seven seats start, one
at a time (the powers are given in turn), on a busy machine."""


class StartProcess(PageProcess):
    """``daide-mcts start`` running as a subprocess; ``url`` is the page it printed."""

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
        """Status and text of one request (the page's key unless ``key`` says otherwise)."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            conn.putrequest(method, path, skip_host=True)
            conn.putheader("Host", host or f"127.0.0.1:{self.port}")
            if key is not None:
                conn.putheader("X-Start-Key", key or self.key)
            conn.putheader("Content-Type", "application/json")
            conn.putheader("Content-Length", str(len(body)))
            conn.endheaders(body)
            response = conn.getresponse()
            return response.status, response.read().decode("utf-8", "replace")
        finally:
            conn.close()


@pytest.fixture
def run_start(tmp_path: Path) -> Iterator[Callable[..., StartProcess]]:
    """A factory: ``run_start()`` serves the start page, its games' records under tmp_path."""
    factory = page_processes(
        StartProcess, "start", START_URL, STARTED_WITHIN, {"DAIDE_MCTS_LOG_LEVEL": "warning"}
    )
    start = next(factory)
    yield lambda *args: start("--runs", str(tmp_path / "runs"), *args)
    next(factory, None)


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


def test_the_start_page_seats_the_person_who_asks_for_the_ranked_hint(
    run_start: Callable[..., StartProcess], browser: BrowserContext, tmp_path: Path
) -> None:
    """The start page starts a short game and the person lands at France's seat; there the
    ranked hint shows several sets, a unit's spread on hover, and one unit's advice taken
    fills that unit's order only."""
    start = run_start()
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(start.url)
    page.wait_for_selector("body[data-ready='1']", timeout=15_000)
    page.select_option("#map", "standard")
    page.select_option("#power", "FRA")
    labels = page.eval_on_selector_all("#seats td.power", "tds => tds.map(td => td.textContent)")
    assert labels == ["AUS", "ENG", "GER", "ITA", "RUS", "TUR"]
    page.select_option("#all-seats", "dumbbot")
    page.select_option("select[data-seat='5']", "random")
    page.fill("#final-year", "1901")
    page.fill("#retreat", "3")
    page.fill("#build", "3")
    page.fill("#think", "1")
    # a wrong field first: the page says why and no game starts
    page.fill("#move", "0")
    page.click("#play")
    expect(page.locator("#problem")).to_contain_text(
        "move: Input should be greater", timeout=15_000
    )
    assert not (tmp_path / "runs").exists()
    page.fill("#move", str(MOVE_DEADLINE))
    page.click("#play")
    page.wait_for_url(
        lambda url: bool(SEAT_URL.match(url)) and urlsplit(url).port != start.port,
        timeout=SEATED_WITHIN,
    )
    seat = SeatPage(HumanProcess(start.proc, page.url, start.lines), page)
    seat.wait_for(lambda s: s["info"]["power"] == "FRA", 120.0, "France's seat")
    expect(page.locator("#who")).to_contain_text("FRA", timeout=30_000)
    folders = list((tmp_path / "runs").iterdir())
    assert len(folders) == 1 and folders[0].name.startswith("start-")
    argv = {p.stem: json.loads(p.read_text()) for p in (folders[0] / "bots").glob("*.argv")}
    assert "human" in argv and "random" in argv
    assert sum(1 for name in argv if name.startswith("dumbbot")) == 5
    another = json.dumps({"opponents": [{"kind": "dumbbot"}] * 6}).encode()
    assert start.call("POST", "/api/start", another)[0] == 409

    # the ranked hint, in the first movement phase
    state = seat.wait_for(lambda s: (s["phase"] or {}).get("turn") == "SPR 1901", 120.0, "spring")
    seat.in_step()
    page.select_option("#hint-seconds", "3")
    page.click("#hint")
    sets = page.locator("#ranked-hint tr[data-set]")
    expect(sets.nth(1)).to_be_visible(timeout=HINT_WITHIN)
    hint = seat.state()["phase"]["hint"]["ranked"]
    assert len(hint["sets"]) >= 2
    shares = [s["share"] for s in hint["sets"]]
    assert all(0 < share <= 1 for share in shares) and sum(shares) <= 1 + 1e-6
    units = {u["key"]: u for u in hint["spread"]}
    assert set(units) == {"PAR", "MAR", "BRE"}
    assert len(state["phase"]["choices"]["options"]) == 3
    page.hover("#layer-units g.unit.mine[data-province='PAR']")
    spread = page.locator("#unit-spread")
    expect(spread).to_be_visible()
    expect(spread).to_contain_text("PAR")
    assert spread.locator("tr").count() == len(units["PAR"]["orders"])
    # preview the second set on the map, then take one unit's advice only
    sets.nth(1).locator("button.preview").click()
    expect(sets.nth(1)).to_have_class(re.compile("previewed"))
    assert page.locator("#layer-orders .order.hint").count() > 0
    page.mouse.move(0, 0)
    page.locator("#ranked-hint tr[data-key='MAR'] button.take-unit").click()
    advice = units["MAR"]["orders"][0]["text"]
    page.wait_for_selector(f"#my-orders li[data-key='MAR'] .text:text-is('{advice}')")
    assert seat.drafted() == [advice]
    assert errors == []


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
