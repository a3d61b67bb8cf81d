"""The coach on the seat's page: a person's whole short game from the start page, in a real
browser, on Parlance against Parlance's DumbBots and our random bot, to the end of 1902.

The person starts the game on the start page (a wrong field first: refused in one line)
and lands at France's seat, its press panel open.  In the spring of 1901 they ask for
the ranked hint (its sets, a unit's spread on hover, a set previewed) and take one
unit's advice, holding the rest; in the fall they see the spring's grade, draw the
bot's set, and browse the game's history with the ←/→ keys.  They play on to the end,
click the centre graph to show a phase, open the review and play one of the costliest
moments again.  Then ``daide-mcts review`` on the game's run folder gives the grades the
page gave (the runner told the seat the game's last year, as the folder's summary tells
review).  ``DAIDE_MCTS_COACH_SHOTS=FOLDER`` keeps screenshots of the page on the way.
"""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from search.grading import LABELS
from tests.bot.human.conftest import HumanProcess, StartProcess, review_json
from tests.bot.human.seatpage import POLL, SeatPage, options
from tests.bot.human.test_human_games import PHASE_WAIT, _holds, _retreats_or_adjustments

SEAT_URL = re.compile(r"^http://127\.0\.0\.1:\d+/\?key=[A-Za-z0-9_-]+$")
FINAL_YEAR = 1902
OPPONENTS = "parang:dumbbot"
"""Parlance's own DumbBot: it starts in a moment (the seats join one at a time)."""
PRESS_LEVEL = 10
"""The game's press level: the press panel stands beside the coach (the bots never wait
for press)."""
MOVE_DEADLINE = 60
"""Seconds of a movement phase: the phases end as soon as the person is ready (the bots
order at once), so this only bounds a phase the person forgets."""
SEATED_WITHIN = 240_000
"""Milliseconds until the person is at the seat page: Parlance and seven seats start, one
at a time (the powers are given in turn), on a busy machine."""
HINT_WITHIN = 60_000
"""Milliseconds until the ranked hint shows (the search thinks 1 s, on a busy machine)."""
GRADE_WAIT = 120_000
"""Milliseconds a grade may take to reach the page (a worker process starts, then grades)."""
GRADED_WAIT = 180.0
SHOTS = "DAIDE_MCTS_COACH_SHOTS"
"""A folder to leave the page's screenshots in (grade, story, hint, review), when set."""
SEASONS = {
    "SPR": "Spring",
    "SUM": "Summer retreats",
    "FAL": "Fall",
    "AUT": "Fall retreats",
    "WIN": "Winter adjustments",
}
"""The story's names of the seasons."""
OVER_WAIT = 60.0
"""Seconds from the game's end until the start page says it is over (the record written)."""


def _shot(page: Page, name: str) -> None:
    """A full-page screenshot into ``$DAIDE_MCTS_COACH_SHOTS`` when it is set."""
    folder = os.environ.get(SHOTS)
    if folder:
        page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=True)


def _start_the_game(start: StartProcess, page: Page, runs: Path) -> None:
    """France, five DumbBots and a random bot, to 1902, press level 10; a wrong field first."""
    page.goto(start.url)
    page.wait_for_selector("body[data-ready='1']", timeout=15_000)
    page.select_option("#map", "standard")
    page.select_option("#power", "FRA")
    labels = page.eval_on_selector_all("#seats td.power", "tds => tds.map(td => td.textContent)")
    assert labels == ["AUS", "ENG", "GER", "ITA", "RUS", "TUR"]
    page.select_option("#all-seats", OPPONENTS)
    page.select_option("select[data-seat='5']", "random")
    page.fill("#final-year", str(FINAL_YEAR))
    page.select_option("#press", str(PRESS_LEVEL))
    page.fill("#retreat", "30")
    page.fill("#build", "30")
    page.fill("#think", "1")
    page.fill("#move", "0")
    page.click("#play")
    expect(page.locator("#problem")).to_contain_text(
        "move: Input should be greater", timeout=15_000
    )
    assert not runs.exists()
    page.fill("#move", str(MOVE_DEADLINE))
    page.click("#play")
    page.wait_for_url(
        lambda url: bool(SEAT_URL.match(url)) and urlsplit(url).port != start.port,
        timeout=SEATED_WITHIN,
    )


def _ranked_hint(seat: SeatPage, phase: dict[str, Any]) -> str:
    """Ask for the ranked hint; hover a unit, preview a set, take one unit's advice: its order."""
    page = seat.page
    page.select_option("#hint-seconds", "1")
    page.click("#hint")
    sets = page.locator("#ranked-hint tr[data-set]")
    expect(sets.nth(1)).to_be_visible(timeout=HINT_WITHIN)
    hint = seat.state()["phase"]["hint"]["ranked"]
    assert len(hint["sets"]) >= 2
    shares = [s["share"] for s in hint["sets"]]
    assert all(0 < share <= 1 for share in shares) and sum(shares) <= 1 + 1e-6
    units = {u["key"]: u for u in hint["spread"]}
    assert set(units) == set(options(phase)) == {"PAR", "MAR", "BRE"}
    page.hover("#layer-units g.unit.mine[data-province='PAR']")
    spread = page.locator("#unit-spread")
    expect(spread).to_be_visible()
    expect(spread).to_contain_text("PAR")
    assert spread.locator("tr").count() == len(units["PAR"]["orders"])
    sets.nth(1).locator("button.preview").click()
    expect(sets.nth(1)).to_have_class(re.compile("previewed"))
    assert page.locator("#layer-orders .order.hint").count() > 0
    page.hover("#layer-units g.unit.mine[data-province='MAR']")
    expect(spread).to_contain_text("MAR")
    _shot(page, "1-ranked-hint")
    page.mouse.move(0, 0)
    page.locator("#ranked-hint tr[data-key='MAR'] button.take-unit").click()
    advice = units["MAR"]["orders"][0]["text"]
    page.wait_for_selector(f"#my-orders li[data-key='MAR'] .text:text-is('{advice}')")
    assert seat.drafted() == [advice]  # that unit's order only
    return str(advice)


def _key(page: Page, key: str, index: str) -> None:
    """Press ``key`` on the page (no field focused); the story then shows phase ``index``."""
    page.locator("#story-title").click()
    page.keyboard.press(key)
    page.wait_for_function("i => document.body.dataset.storyIndex === i", arg=index)


def _title(phase: dict[str, Any], index: int, count: int) -> str:
    """The story's title of phase ``index`` of ``count``: ``Spring 1901 (1/3)``."""
    return f"{SEASONS[phase['turn'][:3]]} {phase['year']} ({index + 1}/{count})"


def _browse(page: Page, game: dict[str, Any]) -> None:
    """←/→ through every past phase: each is named, drawn with every power's orders, listed."""
    count = game["count"]
    for index in range(count - 2, -1, -1):
        _key(page, "ArrowLeft", str(index))
        phase = game["phases"][str(index)]
        assert page.inner_text("#story-title") == _title(phase, index, count)
        assert page.locator("#layer-units g.unit").count() == len(phase["units"])
        assert page.locator("#layer-units g.unit.mine").count() == 0  # a past phase: no menus
        assert page.locator("#story-orders .order-result").count() == len(phase["orders"]) > 0
        assert page.locator("#layer-orders .order, #layer-crosses .cross").count() >= 1
        powers = {o.get("unit", {}).get("power", o.get("power")) for o in phase["orders"]}
        if phase["turn"] == "SPR 1901":
            assert len(powers) == 7  # every power's orders
    for index in range(1, count - 1):
        _key(page, "ArrowRight", str(index))
    _key(page, "ArrowRight", "")  # back to the phase being played
    assert page.inner_text("#story-title") == "now"
    assert page.locator("#layer-units g.unit.mine").count() >= 1


def _spring_graded(seat: SeatPage) -> dict[str, Any]:
    """The spring's grade shows by itself: its label, both sets' centres, the difference."""
    page = seat.page
    line = page.wait_for_selector(
        "#grade-now .grade-line[data-turn='SPR 1901']", timeout=GRADE_WAIT
    )
    assert line is not None
    grade = next(g for g in seat.state()["coach"]["grades"] if g["turn"] == "SPR 1901")
    assert grade["label"] in LABELS
    assert page.inner_text("#grade-now .grade-label") == grade["label"]
    text = line.inner_text()
    assert "your orders" in text and "the bot's" in text and "\u00b1" in text
    assert f"{grade['played_centres']:.2f}" in text and f"{grade['bot_centres']:.2f}" in text
    return grade


def _play_to_the_end(seat: SeatPage, state: dict[str, Any]) -> dict[str, Any]:
    """Holds, and what retreats and winters need, until the server declares the draw."""
    while not state["info"]["over"]:
        phase = state["phase"]
        assert phase is not None
        turn = phase["turn"]
        if phase["choices"]["kind"] == "movement":
            count = _holds(seat, phase)
            assert set(seat.submit_and_wait_thx(count)) == {"THX MBV"}
            seat.ready()
        elif phase["choices"]["options"] and _retreats_or_adjustments(seat, phase):
            seat.page.click("#submit")
        state = seat.wait_turn_after(turn, PHASE_WAIT)
    return state


def _over(start: StartProcess) -> dict[str, Any]:
    """The start page's game status once it is over (the run folder written)."""
    deadline = time.monotonic() + OVER_WAIT
    while True:
        status = json.loads(start.call("GET", "/api/game")[1])
        if status["state"] != "playing" or time.monotonic() > deadline:
            assert status["state"] == "over", status
            return dict(status)
        time.sleep(POLL)


@pytest.mark.parlance
@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.timeout(600)
def test_a_person_plays_to_1902_is_graded_browses_takes_advice_reviews_and_tries_again(
    run_start: Callable[..., StartProcess], browser: BrowserContext, tmp_path: Path
) -> None:
    start = run_start()
    runs = tmp_path / "runs"
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    _start_the_game(start, page, runs)
    seat = SeatPage(HumanProcess(start.proc, page.url, start.lines), page)
    seat.wait_for(lambda s: s["info"]["power"] == "FRA", 120.0, "France's seat")
    expect(page.locator("#who")).to_contain_text("FRA", timeout=30_000)
    expect(page.locator("#press-level")).to_contain_text(f"level {PRESS_LEVEL}")
    (folder,) = runs.iterdir()
    assert folder.name.startswith("start-")
    argv = {p.stem: json.loads(p.read_text()) for p in (folder / "bots").glob("*.argv")}
    assert {"human", "random"} <= set(argv)
    assert sorted(argv) == ["human", *(f"parang-{i}" for i in range(1, 6)), "random"]
    assert all(argv[f"parang-{i}"][1].endswith("/dumbbot") for i in range(1, 6))
    person = argv["human"]
    assert person[person.index("--last-year") + 1] == str(FINAL_YEAR)
    another = json.dumps({"opponents": [{"kind": "dumbbot"}] * 6}).encode()
    assert start.call("POST", "/api/start", another)[0] == 409

    # Spring 1901: the ranked hint, one unit's advice taken; the other units hold.
    state = seat.wait_for(lambda s: (s["phase"] or {}).get("turn") == "SPR 1901", 120.0, "spring")
    seat.in_step()
    phase = state["phase"]
    assert page.inner_text("#grade-now") == "no phase graded yet"
    advice = _ranked_hint(seat, phase)
    for key in ("PAR", "BRE"):
        seat.click_order(key, next(t for t in options(phase)[key] if t.endswith(" H")))
    played = sorted(seat.drafted())
    assert advice in played and len(played) == 3
    assert set(seat.submit_and_wait_thx(3)) == {"THX MBV"}
    seat.ready()
    state = seat.wait_turn_after("SPR 1901", PHASE_WAIT)

    # The spring's grade, by itself; the bot's set drawn on the spring's board on demand.
    grade = _spring_graded(seat)
    assert sorted(grade["played"]) == played
    assert not grade["same"]  # two holds in the spring are not the search's choice
    page.click("#show-bot-set")
    page.wait_for_function("document.body.dataset.storyTurn === 'SPR 1901'")
    assert page.locator("#layer-orders .order.hint").count() >= 1
    assert page.inner_text("#story-grade .grade-label") == grade["label"]
    _shot(page, "2-grade-and-bot-set")
    page.uncheck("#show-better")
    assert page.locator("#layer-orders .order.hint").count() == 0

    # The history with the keys: every past phase named, drawn and listed.
    page.click("#story-now")
    page.wait_for_function("document.body.dataset.storyIndex === ''")
    _browse(page, seat.state()["game"])

    # The rest of the game: the server declares the draw after the fall of 1902.
    state = _play_to_the_end(seat, seat.in_step())
    page.wait_for_selector("#result:not([hidden])", timeout=20_000)
    assert "DRW" in page.inner_text("#result")
    expect(page.locator("#my-orders")).to_be_hidden()  # nothing left to order
    state = seat.wait_for(
        lambda s: s["coach"]["over"] and not s["coach"]["pending"], GRADED_WAIT, "every grade"
    )
    coach = state["coach"]
    assert coach["failed"] == {} and coach["problem"] is None
    graded = [g["turn"] for g in coach["grades"]]
    assert graded[:2] == ["SPR 1901", "FAL 1901"] and "FAL 1902" in graded
    page.wait_for_function(
        "n => document.querySelectorAll('#story-chart circle.grade-mark').length === n",
        arg=len(graded),
    )

    # A click on the graph shows that phase.
    game = state["game"]
    index = next(i for i in range(game["count"]) if game["phases"][str(i)]["turn"] == "FAL 1901")
    page.click("#story-chart circle.grade-mark[data-turn='FAL 1901']")
    page.wait_for_function("document.body.dataset.storyTurn === 'FAL 1901'")
    expected = _title(game["phases"][str(index)], index, game["count"])
    assert page.inner_text("#story-title") == expected
    assert page.inner_text("#story-grade .grade-label") == coach["grades"][1]["label"]

    # The review: every phase graded, the moments that cost most, one tried again.
    page.click("#open-review")
    page.wait_for_selector("#review:not([hidden])")
    rows = page.locator("#review-table tbody tr")
    assert rows.count() == len(graded)
    shown = page.eval_on_selector_all(
        "#review-table tbody tr", "rs => rs.map(r => [r.dataset.turn, r.cells[1].innerText])"
    )
    assert shown == [[g["turn"], g["label"]] for g in coach["grades"]]
    assert page.locator("#evaluation path").count() == 2
    costly = coach["costly"]
    assert costly, coach["grades"]  # holds cost something against the search's choice
    assert page.eval_on_selector_all("#costly li", "ls => ls.map(l => l.dataset.turn)") == costly
    _shot(page, "3-review")
    moment = costly[0]
    page.click("#costly li:first-child button.try-again")
    page.wait_for_selector(f"#try[data-turn='{moment}'] select")
    page.wait_for_function("t => document.body.dataset.storyTurn === t", arg=moment)
    select = page.locator("#try select").first
    values = select.evaluate("s => [...s.options].map(o => o.value)")
    chosen = next((v for v in values if " - " in v), values[-1])
    select.select_option(chosen)
    page.click("#try-play")
    page.wait_for_selector("#try-result[data-centres]")
    result = page.inner_text("#try-result")
    assert "your new orders" in result and "what happened" in result and chosen in result
    page.wait_for_selector("#story-orders .note")
    assert chosen in page.inner_text("#story-orders")
    _shot(page, "4-try-again")

    # daide-mcts review on the game's run folder gives the grades the page gave.
    status = _over(start)
    assert status["folder"] == str(folder) and "DRW" in status["result"], status
    # The runner is done (the bots left, the record written); the person's page stays up.
    assert "note:" not in (folder / "result.txt").read_text()  # no seat had to be stopped
    assert seat.state()["info"]["over"]
    reviewed = review_json(folder, "FRA", tmp_path / "review.json")
    assert reviewed["final_year"] == FINAL_YEAR
    by_turn = {p["turn"]: p for p in reviewed["phases"]}
    assert list(by_turn) == graded
    for live in coach["grades"]:
        again = by_turn[live["turn"]]
        g = again["grade"]
        assert (live["label"], live["loss"], live["low"], live["high"]) == (
            g["label"], g["loss"], g["low"], g["high"]
        )  # fmt: skip
        assert (live["played_centres"], live["bot_centres"]) == (g["submitted"], g["reference"])
        assert (live["played"], live["better"]) == (again["played"], again["better"])
    assert reviewed["costly"] == costly
    assert errors == []
