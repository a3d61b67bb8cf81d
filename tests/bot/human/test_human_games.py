"""A person plays whole games in a real browser, against our bots, on Parlance and on MILA.

The person is headless Chromium driven as a person would drive it: clicks on
units and on the orders their menus offer, typed orders, the submit and
ready buttons, a reload, the hint.  The seats are ``daide-mcts human``
processes and the bots ``daide-mcts play --strategy dumbbot`` processes, on a
server started for the test with short deadlines; the person says "ready"
(GOF) so that phases end as soon as everyone has ordered.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import BrowserContext

from tests.bot.human.conftest import ROOT, HumanProcess, review_json
from tests.bot.human.seatpage import SeatPage, move_and_support, options
from tests.bot.view.conftest import open_view

MTL = 25
"""Seconds of a movement phase on the test's server (phases end earlier when all are ready)."""

PHASE_WAIT = MTL + 40
SCREENSHOT = ROOT / "docs" / "images" / "human-seat.png"
"""The README's picture of the seat: rewritten from this test's game when
``DAIDE_MCTS_SCREENSHOTS`` is set (the test always takes it, into its own folder)."""


def _bots(run_bot, port: int, count: int, final_year: int) -> list[Any]:
    return [
        run_bot(
            port,
            "--strategy",
            "dumbbot",
            "--final-year",
            str(final_year),
            "--seed",
            str(i),
            name=f"bot{i}",
        )
        for i in range(count)
    ]


def _call(
    human: HumanProcess, path: str, body: object, *, key: str | None, host: str = ""
) -> tuple[int, str]:
    return human.call("POST", path, json.dumps(body).encode(), key=key, host=host)


def _holds(seat: SeatPage, phase: dict[str, Any]) -> int:
    """Click a hold for each unit; how many orders that makes."""
    count = 0
    for key, texts in options(phase).items():
        hold = next(t for t in texts if t.endswith(" H"))
        seat.click_order(key, hold)
        count += 1
    return count


def _retreats_or_adjustments(seat: SeatPage, phase: dict[str, Any]) -> int:
    """Order every retreat, or every build/removal due, by clicks; how many orders."""
    offered = options(phase)
    kind, due = phase["choices"]["kind"], phase["choices"]["due"]
    count = 0
    if kind == "retreat":
        for key, texts in offered.items():
            seat.click_order(key, texts[0])
            count += 1
    elif due > 0:
        for key in [k for k in offered if k != "WAIVE"][:due]:
            seat.click_order(key, offered[key][0])
            count += 1
        if count < due:
            seat.type_order("WAIVE")
            count += 1
    elif due < 0:
        for key in list(offered)[:-due]:
            seat.click_order(key, offered[key][0])
            count += 1
    return count


def _finish(seat: SeatPage, state: dict[str, Any], final_year: int) -> dict[str, Any]:
    """Play holds (and what retreats and winters need) and propose the draw from ``final_year``'s
    winter on, until the game is over; the last state."""
    offered_draw: set[str] = set()
    while not state["info"]["over"]:
        phase = state["phase"]
        assert phase is not None
        turn = phase["turn"]
        if _from_winter(turn, final_year) and turn not in offered_draw:
            seat.page.click("#draw")
            offered_draw.add(turn)
        if phase["choices"]["kind"] == "movement":
            count = _holds(seat, phase)
            assert set(seat.submit_and_wait_thx(count)) == {"THX MBV"}
            seat.ready()
        elif phase["choices"]["options"] and _retreats_or_adjustments(seat, phase):
            seat.page.click("#submit")
        state = seat.wait_turn_after(turn, PHASE_WAIT)
    return state


def _from_winter(turn: str, final_year: int) -> bool:
    """True from the winter of ``final_year`` on (when the bots propose the draw)."""
    year = int(turn[4:])
    return year > final_year or (year == final_year and turn.startswith("WIN"))


def _summary(human: HumanProcess) -> dict[str, Any]:
    """The seat's game summary, printed as the game ends (the page stays up after it)."""
    deadline = time.monotonic() + 30
    while not any(line.startswith("{") for line in human.lines):
        assert time.monotonic() < deadline, human.output()
        time.sleep(0.2)
    return json.loads(next(line for line in human.lines if line.startswith("{")))


def _check_end(seat: SeatPage, human: HumanProcess, result: str) -> None:
    page = seat.page
    page.wait_for_selector("#result:not([hidden])", timeout=20_000)
    assert result in page.inner_text("#result")
    assert page.locator("#result table tbody tr").count() == 7
    summary = _summary(human)
    assert summary["ended_cleanly"], summary
    assert summary["refused_orders"] == 0, summary
    assert summary["bad_messages"] == 0, summary


@pytest.mark.parlance
@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.timeout(600)
def test_a_person_plays_six_bots_to_the_winter_of_1902(
    parlance_server,
    run_bot,
    run_human,
    browser: BrowserContext,
    tmp_path: Path,
) -> None:
    server = parlance_server(MTL=MTL, RTL=15, BTL=15)
    human = run_human(server.port, "--name", "Alice")
    bots = _bots(run_bot, server.port, 6, 1902)
    view = open_view(browser, human.url)
    seat = SeatPage(human, view.page)
    page = view.page
    state = seat.wait_for(lambda s: s["phase"] is not None, 90, "the game's first phase")
    phase = state["phase"]
    assert phase["turn"] == "SPR 1901"
    power = phase["power"]
    page.wait_for_selector("body[data-turn='SPR 1901']")
    assert page.locator("#layer-units g.unit").count() == 22
    assert page.locator("#layer-units g.unit.mine").count() == len(phase["choices"]["options"])

    # Spring 1901: a move and its support by clicks, a third order typed; a reload keeps them.
    plan = move_and_support(phase)
    assert plan is not None, options(phase)
    mover, move, supporter, support = plan
    seat.click_order(mover, move)
    seat.click_order(supporter, support)
    assert page.locator("#layer-orders path.order.move.mine").count() == 1
    assert page.locator("#layer-orders path.order.support.mine").count() == 1
    third = next(k for k in options(phase) if k not in (mover, supporter))
    typed = (
        next(t for t in options(phase)[third] if " - " in t)
        if any(" - " in t for t in options(phase)[third])
        else options(phase)[third][0]
    )
    seat.type_order(typed.lower())
    expected = sorted([move, support, typed])
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    page.wait_for_selector("#my-orders li")
    assert sorted(seat.drafted()) == expected

    # Bad requests to the real seat: refused in one line, nothing reaches the server.
    turn = phase["turn"]
    assert _call(human, "/api/submit", {"turn": turn, "orders": [move]}, key="wrong")[0] == 403
    assert _call(human, "/api/submit", {"turn": turn, "orders": [move]}, key=None)[0] == 403
    foreign = _call(
        human, "/api/submit", {"turn": turn, "orders": [move]}, key=human.key, host="evil.test"
    )
    assert foreign[0] == 421
    illegal = _call(
        human,
        "/api/submit",
        {"turn": turn, "orders": [f"{move.split(' - ')[0]} - MOS"]},
        key=human.key,
    )
    assert illegal[0] == 400 and illegal[1].count("\n") == 1
    other = "A BER" if power != "GER" else "A PAR"
    assert (
        _call(human, "/api/submit", {"turn": turn, "orders": [f"{other} H"]}, key=human.key)[0]
        == 400
    )
    assert (
        _call(human, "/api/submit", {"turn": turn, "orders": ["A PAR -- "]}, key=human.key)[0]
        == 400
    )
    assert _call(human, "/api/submit", {"turn": "WIN 1900", "orders": []}, key=human.key)[0] == 400
    assert seat.phase()["submitted"] is None  # nothing was sent

    answers = seat.submit_and_wait_thx(3)
    assert answers == ["THX MBV"] * 3
    seat.ready()
    state = seat.wait_turn_after(turn, PHASE_WAIT)
    page.wait_for_function("document.querySelectorAll('#results div.order-result').length >= 22")
    results = page.inner_text("#results")
    assert move.split(" - ")[0] in results
    assert page.locator("#centres tbody tr").count() == 7

    hinted = passed = False
    builds: list[str] = []
    while not (hinted and passed) and not state["info"]["over"]:
        phase = state["phase"]
        turn = phase["turn"]
        kind = phase["choices"]["kind"]
        if kind == "movement" and not hinted:
            # What would the bot play?  Its orders are drawn dashed; the person takes them.
            page.click("#hint")
            page.wait_for_selector("#take-hint:not([hidden])", timeout=30_000)
            assert page.locator("#layer-orders .order.hint").count() >= 1
            page.click("#show-results")  # the last results drawn, then back to the orders
            assert page.locator("#layer-orders path.order").count() >= 1
            page.click("#show-results")
            page.click("#take-hint")
            drafted = len(seat.drafted())
            assert drafted == len(options(phase))
            page.evaluate("window.scrollTo(0, 0)")
            shot = tmp_path / SCREENSHOT.name
            page.screenshot(path=str(shot))
            assert shot.read_bytes().startswith(b"\x89PNG")
            if os.environ.get("DAIDE_MCTS_SCREENSHOTS"):
                shutil.copyfile(shot, SCREENSHOT)
            assert set(seat.submit_and_wait_thx(drafted)) == {"THX MBV"}
            seat.ready()
            hinted = True
        elif kind == "movement":
            # No orders at all: a warning as the deadline nears; it passes, the seat plays on,
            # its units held.
            assert "left" in page.inner_text("#countdown")
            page.wait_for_selector("#warning:not([hidden])", timeout=(MTL + 5) * 1000)
            assert "no order" in page.inner_text("#warning")
            state = seat.wait_turn_after(turn, PHASE_WAIT)
            ours = [line for line in page.inner_text("#results").splitlines() if line]
            game = seat.state()["game"]
            # the phase that passed (a retreat phase may have followed it and ended too)
            (last,) = [p for p in game["phases"].values() if p["turn"] == turn]
            units = [u for u in last["units"] if u["power"] == power]
            held = [o for o in last["orders"] if o.get("unit", {}).get("power") == power]
            # one result per unit of ours, each a hold: none missing, none else
            assert units and len(held) == len(units), (units, held)
            assert all(o["type"] == "hold" for o in held), held
            assert ours
            passed = True
            continue
        elif phase["choices"]["options"]:
            count = _retreats_or_adjustments(seat, phase)
            if kind == "adjustment" and phase["choices"]["due"] > 0:
                builds.append(turn)
            if count:
                seat.page.click("#submit")  # the phase ends at once: its THX go with it
        state = seat.wait_turn_after(turn, PHASE_WAIT)

    # Each build ordered by a click on a home centre was adjudicated as one.
    game = seat.state()["game"]
    for turn in builds:
        built = [
            o
            for p in game["phases"].values()
            if p["turn"] == turn
            for o in p["orders"]
            if o["type"] == "build" and o["unit"]["power"] == power
        ]
        assert built, turn

    state = _finish(seat, state, 1902)
    _check_end(seat, human, "DRW")
    for bot in bots:
        assert bot.wait(timeout=60)["ended_cleanly"]
    assert [e for e in view.errors if "400 (Bad Request)" not in e] == []


@pytest.mark.parlance
@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.timeout(400)
def test_two_people_in_one_game(
    parlance_server, run_bot, run_human, browser: BrowserContext, tmp_path: Path
) -> None:
    server = parlance_server(MTL=MTL, RTL=15, BTL=15)
    record = tmp_path / "alice"
    humans = [
        run_human(server.port, "--name", "Alice", "--record", str(record)),
        run_human(server.port, "--name", "Bob"),
    ]
    assert humans[0].port != humans[1].port and humans[0].key != humans[1].key
    bots = _bots(run_bot, server.port, 5, 1901)
    seats = [SeatPage(h, open_view(browser, h.url).page) for h in humans]
    states = [s.wait_for(lambda st: st["phase"] is not None, 90, "the first phase") for s in seats]
    powers = {st["phase"]["power"] for st in states}
    assert len(powers) == 2
    alice = states[0]["phase"]["power"]
    # Each page holds only its own seat: the other's key is refused.
    status, _ = _call(humans[0], "/api/draw", {}, key=humans[1].key)
    assert status == 403
    # Both play the game out, phase by phase, each on their own page.
    turn = "SPR 1901"
    while True:
        for seat, state in zip(seats, states, strict=True):
            phase = state["phase"]
            if (
                phase is not None
                and phase["turn"] == turn
                and phase["choices"]["kind"] == "movement"
            ):
                count = _holds(seat, phase)
                assert set(seat.submit_and_wait_thx(count)) == {"THX MBV"}
                seat.ready()
            elif (
                phase is not None
                and phase["choices"]["options"]
                and _retreats_or_adjustments(seat, phase)
            ):
                seat.page.click("#submit")
            if phase is not None and _from_winter(phase["turn"], 1901):
                seat.page.click("#draw")
        states = [s.wait_turn_after(turn, PHASE_WAIT) for s in seats]
        if all(st["info"]["over"] for st in states):
            break
        turn = next(st["phase"]["turn"] for st in states if st["phase"] is not None)
    for seat, human in zip(seats, humans, strict=True):
        _check_end(seat, human, "DRW")
    for bot in bots:
        bot.wait(timeout=60)
    # Alice's record (--record): daide-mcts review on it gives the grades her page gave.
    coach = seats[0].wait_for(
        lambda s: s["coach"]["over"] and not s["coach"]["pending"], 120, "Alice's grades"
    )["coach"]
    assert coach["grades"] and coach["failed"] == {}
    reviewed = review_json(record, alice, tmp_path / "review.json")
    assert [p["turn"] for p in reviewed["phases"]] == [g["turn"] for g in coach["grades"]]
    for live, again in zip(coach["grades"], reviewed["phases"], strict=True):
        g = again["grade"]
        assert (live["label"], live["loss"], live["low"], live["high"]) == (
            g["label"], g["loss"], g["low"], g["high"]
        )  # fmt: skip
        assert (live["played"], live["better"]) == (again["played"], again["better"])
    assert reviewed["costly"] == coach["costly"]


@pytest.mark.mila
@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.timeout(400)
def test_a_person_plays_on_mila(mila_server, run_bot, run_human, browser: BrowserContext) -> None:
    server = mila_server(deadline=20)
    human = run_human(server.port, "--name", "Alice", "--rules", "datc")
    _bots(run_bot, server.port, 6, 1901)
    seat = SeatPage(human, open_view(browser, human.url).page)
    state = seat.wait_for(lambda s: s["phase"] is not None, 120, "the game's first phase")
    phase = state["phase"]
    assert phase["turn"] == "SPR 1901"
    plan = move_and_support(phase)
    assert plan is not None
    seat.click_order(plan[0], plan[1])
    seat.click_order(plan[2], plan[3])
    assert seat.submit_and_wait_thx(2) == ["THX MBV"] * 2
    seat.ready()
    seat.wait_turn_after("SPR 1901", 60)
    seat.page.wait_for_function(
        "document.querySelectorAll('#results div.order-result').length >= 1"
    )
    assert plan[1] in seat.page.inner_text("#results")
