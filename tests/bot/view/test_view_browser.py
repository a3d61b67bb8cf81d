"""``daide-mcts view`` in a real browser (Debian's Chromium, headless, driven by playwright).

A recorded game (scripted orders adjudicated by our engine: supports, a cut,
two convoys, a dislodgement and its retreat, builds) and a live game on
Parlance between Parang's bots.  The page must load without console errors,
draw one glyph per unit of the phase's NOW and colour every supply centre as
the SCO says, change both when stepped, and follow a live game within two
seconds of each NOW without being reloaded.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext

from bot.toolkit.observer import Observer
from bot.view.colours import NEUTRAL, POWER_COLOURS, colours_for
from bot.view.mapfacts import MapFacts, map_key
from bot.view.mappicture import picture_json
from protocol.messages import Message, Now, Sco, parse_text
from tests.bot.view.conftest import ROOT, URL, WatchedPage, open_view
from tests.bot.view.scripted_game import ScriptedPhase, write_run_folder
from tests.bot.view.variant_maps import VariantStart, write_variant_run

pytestmark = pytest.mark.browser

LIVE_LAG = 2.0
"""Seconds within which the live page must show a phase the server has announced."""


def _now(phase: ScriptedPhase) -> Now:
    message = parse_text(phase.now)
    assert isinstance(message, Now)
    return message


def _expected_units(phase: ScriptedPhase) -> set[tuple[str, str, str, bool]]:
    return {
        (u.unit.power, u.unit.province, str(u.unit.kind), u.dislodged) for u in _now(phase).units
    }


def _expected_colours(phase: ScriptedPhase) -> dict[str, str]:
    message = parse_text(phase.sco)
    assert isinstance(message, Sco) and message.centres is not None
    return {
        centre: POWER_COLOURS.get(power, NEUTRAL)
        for power, centres in message.centres
        for centre in centres
    }


def _check_phase(view: WatchedPage, phase: ScriptedPhase) -> None:
    assert view.unit_count() == len(_now(phase).units)
    assert view.units() == _expected_units(phase)
    assert view.centre_colours() == _expected_colours(phase)


def test_a_recorded_game_steps_phase_by_phase(
    tmp_path: Path, browser: BrowserContext, run_view, artefacts: Path
) -> None:
    phases = write_run_folder(tmp_path / "run")
    served = run_view(str(tmp_path / "run"))
    view = open_view(browser, served.url)
    page = view.page

    assert page.evaluate("document.body.dataset.phaseCount") == str(len(phases))
    assert view.phase_index() == 0
    _check_phase(view, phases[0])

    # The arrow keys, the buttons and the slider all step; each phase matches its NOW and SCO.
    page.keyboard.press("ArrowRight")
    assert view.phase_index() == 1
    _check_phase(view, phases[1])
    assert view.units() != _expected_units(phases[0])
    page.click("#next")
    _check_phase(view, phases[2])
    page.locator("#slider").fill("3")
    assert view.phase_index() == 3
    _check_phase(view, phases[3])
    assert view.centre_colours() != _expected_colours(phases[2])  # the SCO of winter
    page.click("#prev")
    page.keyboard.press("ArrowLeft")
    assert view.phase_index() == 1

    # Fall 1901: supports (one cut), two convoys, bounces and a dislodgement.
    orders = page.locator("#layer-orders")
    assert orders.locator("path.order.support").count() == 3
    assert orders.locator("path.order.support.failed").count() == 1  # France's, cut
    assert orders.locator("circle.order.convoy").count() == 2
    assert orders.locator("path.order.move.failed").count() == 5  # the bounces
    assert page.locator("#layer-crosses .cross").count() >= 5
    page.hover("#layer-provinces [data-province='BUL']")
    info = page.locator("#info").inner_text()
    assert "Bulgaria (BUL)" in info and "A SER - BUL" in info and "dislodged" in info
    shot = artefacts / "fall-1901-supports-convoys-dislodgement.png"
    page.screenshot(path=str(shot), full_page=True)

    # Autumn 1901: the dislodged Turkish army, its two retreat options and its retreat.
    page.keyboard.press("ArrowRight")
    dislodged = page.locator("#layer-units g.unit[data-dislodged='1']")
    assert dislodged.count() == 1 and dislodged.get_attribute("data-province") == "BUL"
    assert orders.locator(".order.option").count() == 2
    assert orders.locator(".order.retreat").count() == 1
    page.mouse.move(5, 5)
    page.screenshot(path=str(artefacts / "autumn-1901-retreat.png"), full_page=True)

    # The play button moves on by itself; the side panel has the players and the result.
    page.click("#play")
    page.wait_for_function("Number(document.body.dataset.phaseIndex) === 3", timeout=5_000)
    page.click("#play")
    assert "austria-bot" in page.locator("#centres").inner_text()
    assert "DRW" in page.locator("#result").inner_text()
    assert page.locator("#chart path[data-power]").count() == len(POWER_COLOURS)
    assert view.errors == []


def _observe_in_background(host: str, port: int) -> tuple[dict[str, float], threading.Thread]:
    """Our own observer, timing when the server sends each NOW."""
    seen: dict[str, float] = {}

    def hear(direction: str, text: str, message: Message | None) -> None:
        if isinstance(message, Now) and message.turn is not None:
            seen.setdefault(str(message.turn), time.time())

    def run() -> None:
        asyncio.run(Observer(host, port, hear, name="test-timer").run())

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return seen, thread


@pytest.mark.parlance
def test_a_live_game_follows_every_now_without_reloading(
    parlance_server, parang_bots, browser: BrowserContext, run_view, artefacts: Path
) -> None:
    server = parlance_server(MTL=5, RTL=2, BTL=2)
    served = run_view("--host", server.host, "--port", str(server.port))
    view = open_view(browser, served.url)
    page = view.page
    assert page.evaluate("document.body.dataset.phaseCount") == "0"
    page.evaluate("window.loadedOnce = true")
    seen, _thread = _observe_in_background(server.host, server.port)
    time.sleep(0.5)  # both observers are in before the players
    parang_bots(server, 7)

    page.wait_for_function("Number(document.body.dataset.phaseCount) >= 4", timeout=90_000)
    log = page.evaluate("window.viewLog")
    shown = {turn: entry["at"] / 1000 for entry in log for turn in entry["turns"]}
    first_turns = [t for t in seen if t in shown][:4]
    assert len(first_turns) >= 3, (seen, shown)
    for turn in first_turns:
        assert shown[turn] - seen[turn] <= LIVE_LAG, (turn, shown[turn] - seen[turn])

    assert page.evaluate("window.loadedOnce") is True  # never reloaded
    assert page.evaluate("performance.getEntriesByType('navigation').length") == 1
    count = int(page.evaluate("document.body.dataset.phaseCount"))
    page.keyboard.press("End")
    page.wait_for_function(
        f"Number(document.body.dataset.phaseIndex) >= {count - 1}", timeout=5_000
    )
    turn = page.evaluate("document.body.dataset.turn")
    units = page.evaluate(
        "(turn) => document.querySelectorAll('#layer-units g.unit:not(.ghost)').length", turn
    )
    assert units > 0
    page.screenshot(path=str(artefacts / "live-game.png"), full_page=True)
    assert view.errors == []


@pytest.mark.slow
@pytest.mark.parlance
def test_game_view_shows_a_local_game_live(
    tmp_path: Path, parlance_install, browser: BrowserContext
) -> None:
    flags = [
        "--lineup",
        "dumbbot",
        "--final-year",
        "1901",
        "--mtl",
        "3",
        "--out",
        str(tmp_path / "game"),
    ]
    proc = subprocess.Popen(
        [sys.executable, "-m", "bot.cli", "game", "--view", *flags],
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline()
        match = URL.search(first)
        assert match, first
        view = open_view(browser, match.group(1))
        view.page.wait_for_function("Number(document.body.dataset.phaseCount) >= 2", timeout=60_000)
        assert view.unit_count() > 0
        rest = proc.communicate(timeout=120)[0]
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 0, rest
    assert f"daide-mcts view {tmp_path / 'game'}" in rest
    assert view.errors == []


@pytest.mark.timeout(240)
def test_a_variant_is_drawn_from_its_adjacencies(
    tmp_path: Path,
    browser: BrowserContext,
    run_view,
    artefacts: Path,
    variant_starts: dict[str, VariantStart],
) -> None:
    world = variant_starts["world3"]
    facts = MapFacts.of(world.definition)
    picture_json(world.definition)  # laid out once on this machine (the server reads it back)
    write_variant_run(tmp_path / "run", world)
    served = run_view(str(tmp_path / "run"))
    view = open_view(browser, served.url)
    page = view.page
    page.wait_for_selector("#map[data-layout='computed']", timeout=60_000)
    assert page.get_attribute("#map", "data-map") == map_key(world.definition)

    # Every province has its shape and name, every adjacency its faint line.
    assert page.locator("#layer-provinces path.province").count() == len(facts.provinces)
    assert page.locator("#layer-provinces path.province.sea").count() == sum(
        kind == "sea" for _, kind in facts.kinds
    )
    assert page.locator("#layer-edges line.edge").count() == len(facts.edges)
    labels = page.eval_on_selector_all("#layer-labels text", "ts => ts.map(t => t.textContent)")
    assert set(facts.provinces) <= set(labels)

    # The units of the NOW, the centres coloured by their owners, the homes ringed in theirs.
    expected = {
        (u.unit.power, u.unit.province, str(u.unit.kind), False) for u in world.now_message().units
    }
    assert view.units() == expected and view.unit_count() == len(expected) == 51
    colours = page.evaluate(
        "Object.fromEntries([...document.querySelectorAll('circle.sc')]"
        ".map(c => [c.dataset.province, c.getAttribute('fill')]))"
    )
    owned = world.sco_message().centres
    assert owned is not None
    meta_colours = colours_for(world.definition.powers)
    for power, centres in owned:
        for centre in centres:
            assert colours[centre] == meta_colours.get(power, NEUTRAL)
    rings = page.eval_on_selector_all(
        "circle.home-ring", "rs => rs.map(r => [r.dataset.province, r.getAttribute('stroke')])"
    )
    homes = {c: hs for c, hs in facts.centres if hs}
    assert {c for c, _ in rings} == set(homes)
    assert all(stroke == meta_colours[homes[c][0]] for c, stroke in rings)
    assert view.errors == []
    shot = artefacts / "world3.png"
    page.screenshot(path=str(shot), full_page=True)
    print(f"world3's computed map: {shot}")
