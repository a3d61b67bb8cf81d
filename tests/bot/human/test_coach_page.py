"""The coach on the seat's page, in a real browser, in a real game on Parlance against DumbBots.

A person plays 1901 (holds: they cost something against the search's choice), sees
the grade of the spring appear once the spring is over, asks for the bot's set,
browses the game's history with the ←/→ keys (every power's orders drawn), clicks
the centre graph to jump to a phase, and at the game's end opens the review and
plays one of the costliest moments again.  The seat records the game
(``--record``); ``daide-mcts review`` on that record gives the grades the page gave.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page

from search.grading import LABELS
from tests.bot.human.conftest import ROOT
from tests.bot.human.seatpage import SeatPage, options
from tests.bot.human.test_human_games import (
    PHASE_WAIT,
    _bots,
    _check_end,
    _finish,
    _holds,
)
from tests.bot.view.conftest import open_view

MTL = 120
"""Seconds of a movement phase: long enough for the person to wait for a grade and browse
the story before ordering (the phases end as soon as everyone is ready)."""

GRADE_WAIT = 180_000
"""Milliseconds a grade may take to reach the page (a worker process starts, then grades)."""

REVIEW_TIMEOUT = 600


def _story(page: Page) -> tuple[str, str]:
    """The phase index and turn the story shows ("" and "": the phase being played)."""
    shown = page.evaluate("[document.body.dataset.storyIndex, document.body.dataset.storyTurn]")
    return shown[0], shown[1]


def _key(page: Page, key: str, index: str) -> None:
    """Press ``key`` on the page (no field focused); the story then shows phase ``index``."""
    page.locator("#story-title").click()
    page.keyboard.press(key)
    page.wait_for_function("i => document.body.dataset.storyIndex === i", arg=index)


def _browse(page: Page, game: dict[str, Any]) -> None:
    """←/→ through every past phase: each is drawn with every power's orders and results."""
    count = game["count"]
    for index in range(count - 2, -1, -1):
        _key(page, "ArrowLeft", str(index))
        phase = game["phases"][str(index)]
        assert _story(page) == (str(index), phase["turn"])
        assert page.locator("#layer-units g.unit").count() == len(phase["units"])
        assert page.locator("#layer-units g.unit.mine").count() == 0  # a past phase: no menus
        listed = page.locator("#story-orders .order-result").count()
        assert listed == len(phase["orders"]) > 0
        assert page.locator("#layer-orders .order, #layer-crosses .cross").count() >= 1
        powers = {o.get("unit", {}).get("power", o.get("power")) for o in phase["orders"]}
        if phase["turn"] == "SPR 1901":
            assert len(powers) == 7  # every power's orders
    for index in range(1, count - 1):
        _key(page, "ArrowRight", str(index))
    _key(page, "ArrowRight", "")  # back to the phase being played
    assert page.locator("#layer-units g.unit.mine").count() >= 1


def _review(record: Path, power: str, out: Path) -> dict[str, Any]:
    """``daide-mcts review RECORD --power P --json OUT`` as a person runs it (its defaults)."""
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "bot.cli",
            "review",
            str(record),
            "--power",
            power,
            "--json",
            str(out),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=REVIEW_TIMEOUT,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return json.loads(out.read_text())


@pytest.mark.parlance
@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.timeout(900)
def test_a_person_is_graded_browses_the_story_reviews_and_tries_again(
    parlance_server, run_bot, run_human, browser: BrowserContext, tmp_path: Path
) -> None:
    server = parlance_server(MTL=MTL, RTL=15, BTL=15)
    record = tmp_path / "run"
    human = run_human(server.port, "--name", "Alice", "--record", str(record))
    bots = _bots(run_bot, server.port, 6, 1901)
    view = open_view(browser, human.url)
    seat = SeatPage(human, view.page)
    page = view.page
    state = seat.wait_for(lambda s: s["phase"] is not None, 90, "the game's first phase")
    phase = state["phase"]
    assert phase["turn"] == "SPR 1901"
    power = phase["power"]
    assert page.inner_text("#grade-now") == "no phase graded yet"

    # Spring 1901: every unit holds.
    count = _holds(seat, phase)
    assert set(seat.submit_and_wait_thx(count)) == {"THX MBV"}
    seat.ready()
    state = seat.wait_turn_after("SPR 1901", PHASE_WAIT)

    # The spring's grade reaches the page by itself: label, both sets' centres, the difference.
    line = page.wait_for_selector(
        "#grade-now .grade-line[data-turn='SPR 1901']", timeout=GRADE_WAIT
    )
    assert line is not None
    label = line.get_attribute("data-label")
    assert label in LABELS
    text = line.inner_text()
    assert "your orders" in text and "the bot's" in text and "\u00b1" in text
    grade = seat.state()["coach"]["grades"][0]
    assert grade["turn"] == "SPR 1901" and grade["label"] == label
    assert sorted(grade["played"]) == sorted(t for ts in options(phase).values() for t in ts
                                             if t.endswith(" H"))  # fmt: skip
    # The bot's set, drawn on demand in the spring's board (the holds were not its choice).
    assert not grade["same"]
    page.click("#show-bot-set")
    page.wait_for_function("document.body.dataset.storyTurn === 'SPR 1901'")
    assert page.locator("#layer-orders .order.hint").count() >= 1
    page.uncheck("#show-better")
    assert page.locator("#layer-orders .order.hint").count() == 0

    # The history with the keys: every past phase, every power's orders drawn.
    page.click("#story-now")
    page.wait_for_function("document.body.dataset.storyIndex === ''")
    _browse(page, seat.state()["game"])

    # The rest of the game (holds, what retreats and winters need, the draw).
    state = _finish(seat, seat.in_step(), 1901)
    _check_end(seat, human, "DRW")
    for bot in bots:
        bot.wait(timeout=60)
    state = seat.wait_for(
        lambda s: s["coach"]["over"] and not s["coach"]["pending"], 300, "every phase graded"
    )
    coach = state["coach"]
    assert coach["failed"] == {} and coach["problem"] is None
    graded = [g["turn"] for g in coach["grades"]]
    assert graded[0] == "SPR 1901" and "FAL 1901" in graded
    page.wait_for_function(
        "n => document.querySelectorAll('#story-chart circle.grade-mark').length === n",
        arg=len(graded),
    )

    # A click on the graph shows that phase.
    page.click("#story-chart circle.grade-mark[data-turn='SPR 1901']")
    page.wait_for_function("document.body.dataset.storyTurn === 'SPR 1901'")
    page.click("#story-chart circle.grade-mark[data-turn='FAL 1901']")
    page.wait_for_function("document.body.dataset.storyTurn === 'FAL 1901'")

    # The review: every phase graded, the moments that cost most, one tried again.
    page.click("#open-review")
    page.wait_for_selector("#review:not([hidden])")
    assert page.locator("#review-table tbody tr").count() == len(graded)
    assert page.locator("#evaluation path").count() == 2
    costly = coach["costly"]
    assert costly, coach["grades"]  # holds cost something against the search's choice
    assert page.locator("#costly li").count() == len(costly)
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

    # daide-mcts review on the game's record gives the grades the page gave.
    reviewed = _review(record, power, tmp_path / "review.json")
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
    assert [e for e in view.errors if "400 (Bad Request)" not in e] == []
