"""A person talks to our bots from the page, on a real Parlance server at press level 10,
and through the seat's API on MILA's DAIDE server at press level 30.

A person (headless Chromium driving ``daide-mcts human``'s page) proposes
peace to one of five ``daide-mcts play`` bots from the press panel's menus; the
bot's negotiator judges it by its rollouts and answers, and its YES or REJ
appears in the panel beside the proposal within seconds.  Malformed press
typed as DAIDE text is refused on the page with its reason, and never
reaches the server.  A second person at the table, proposed peace too,
accepts it with the "yes" button on their own page: both panels record the
agreement.  On MILA's server (``daide-mcts human --press-turn``, every SND naming
the turn, as the server needs) the same proposals reach a bot and a second person
as FRM, and their answers come back.
"""

from __future__ import annotations

import time
from typing import Any

import pytest
from playwright.sync_api import BrowserContext

from bot.human.press_english import power_name
from tests.bot.human.seatpage import SeatApi, SeatPage
from tests.bot.view.conftest import open_view

MTL = 90
"""Seconds of a movement phase: far more than an answer takes (the person never says ready)."""
ANSWER_WITHIN = 20
"""Seconds a bot's answer may take to show (it answers in well under a second when idle)."""
MILA_DEADLINE = 180
"""Seconds of every phase on MILA's server: the press goes and comes back in the first one."""
MILA_START = 300
"""Seconds MILA's server may take to start the game (it loads slowly on a busy machine)."""


def _out_lines(state: dict[str, Any]) -> list[dict[str, Any]]:
    return [line for line in state["press"]["lines"] if line["way"] == "out"]


@pytest.mark.parlance
@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.timeout(400)
def test_a_person_proposes_peace_to_a_bot_and_sees_its_answer(
    parlance_server, run_bot, run_human, browser: BrowserContext
) -> None:
    server = parlance_server(MTL=MTL, RTL=15, BTL=15, LVL=10)
    human = run_human(server.port, "--name", "Alice")
    person = run_human(server.port, "--name", "Bob")
    for i in range(5):
        run_bot(server.port, "--strategy", "dumbbot", "--seed", str(i), name=f"bot{i}")
    view = open_view(browser, human.url)
    seat = SeatPage(human, view.page)
    page = view.page
    bob = SeatPage(person, open_view(browser, person.url).page)
    state = seat.wait_for(lambda s: s["phase"] is not None, 90, "the game's first phase")
    assert state["phase"]["turn"] == "SPR 1901"
    power = state["phase"]["power"]
    bobs = bob.wait_for(lambda s: s["phase"] is not None, 30, "Bob's first phase")["phase"]["power"]
    press = state["press"]
    assert press["level"] == 10 and press["power"] == power
    assert power not in press["powers"] and len(press["powers"]) == 6
    page.wait_for_selector("#press:not([hidden]) #press-form")
    assert "level 10" in page.inner_text("#press-level")

    # Malformed press typed as DAIDE text: its reason on the page, nothing sent.
    other = next(p for p in press["powers"] if p != bobs)  # a bot's
    page.check(f"#press-to input[value='{other}']")
    page.select_option("#press-kind", "text")
    page.fill("#press-words", f"PRP (PCE ({power} {other})")
    page.click("#press-send")
    page.wait_for_selector("#press-problem:not([hidden])")
    assert "is never closed" in page.inner_text("#press-problem")
    page.fill("#press-words", f"PRP (DMZ ({power} {other}) (BUR))")
    page.click("#press-send")
    page.wait_for_function(
        "() => document.querySelector('#press-problem').textContent.includes('level 20')"
    )
    assert _out_lines(seat.state()) == []

    # Peace with that bot, from the menus: its answer appears beside the proposal.
    page.select_option("#press-kind", "peace")
    started = time.monotonic()
    page.click("#press-send")
    page.wait_for_function(
        "() => document.querySelector('#press-status').textContent.includes('sent')"
    )
    answered = seat.wait_for(
        lambda s: any(other in line["answers"] for line in _out_lines(s)),
        ANSWER_WITHIN,
        f"{other}'s answer to peace",
    )
    took = time.monotonic() - started
    (ours,) = _out_lines(answered)  # nothing malformed was sent
    assert ours["text"] == f"SND ( {other} ) ( PRP ( PCE ( {power} {other} ) ) )"
    answer = ours["answers"][other]
    assert answer in ("YES", "REJ")
    verb = "accepts" if answer == "YES" else "rejects"
    page.wait_for_selector(f"#press-lines li.out .answers:text('{other}: {answer}')")
    reply = page.locator("#press-lines li.in", has_text=f"{verb} peace with").first
    assert reply.inner_text().startswith(f"{power_name(other)} {verb} peace with")
    agreed = [a["partner"] for a in answered["press"]["agreements"]]
    assert agreed == ([other] if answer == "YES" else [])
    assert took < ANSWER_WITHIN

    # Peace with Bob, the other person: he sees it in English and says yes on his page.
    page.uncheck(f"#press-to input[value='{other}']")
    page.check(f"#press-to input[value='{bobs}']")
    page.click("#press-send")
    heard = bob.page.wait_for_selector(
        f"#press-lines li.in:has-text('{power_name(power)} proposes peace with')",
        timeout=ANSWER_WITHIN * 1000,
    )
    assert heard is not None
    assert f"PRP ( PCE ( {power} {bobs} ) )" in heard.inner_text()
    heard.query_selector("button.yes").click()  # type: ignore[union-attr]
    both = seat.wait_for(
        lambda s: bobs in [a["partner"] for a in s["press"]["agreements"]],
        ANSWER_WITHIN,
        "the agreement with Bob",
    )
    assert bob.state()["press"]["agreements"][0]["partner"] == power
    assert [line["answers"] for line in _out_lines(both)][-1] == {bobs: "YES"}
    assert [e for e in view.errors if "400 (Bad Request)" not in e] == []


def _power_of(records: list[dict[str, Any]]) -> str | None:
    return next((r["power"] for r in records if r["kind"] == "hlo"), None)


@pytest.mark.mila
@pytest.mark.slow
@pytest.mark.timeout(900)
def test_a_persons_press_on_mila_reaches_the_others_and_is_answered(
    mila_server, run_bot, run_human
) -> None:
    """Alice proposes peace to a bot and to Bob through ``/api/press``; both answers come back."""
    server = mila_server(deadline=MILA_DEADLINE, press=True)
    mila = ("--rules", "datc", "--press-turn")
    alice = SeatApi(run_human(server.port, "--name", "Alice", *mila))
    bob = SeatApi(run_human(server.port, "--name", "Bob", *mila))
    bots = [
        run_bot(server.port, "--strategy", "dumbbot", "--final-year", "1901", "--seed", str(i),
                *mila, name=f"bot{i}")
        for i in range(5)
    ]  # fmt: skip
    state = alice.wait_for(lambda s: s["phase"] is not None, MILA_START, "the first phase")
    turn, power = state["phase"]["turn"], state["phase"]["power"]
    assert turn == "SPR 1901" and state["press"]["level"] == 30
    bobs = bob.wait_for(lambda s: s["phase"] is not None, 30, "Bob's phase")["phase"]["power"]
    other = next(p for p in state["press"]["powers"] if p != bobs)  # a bot's power

    # Alice proposes peace to the bot: it hears FRM and answers; the answer is on her panel.
    status, text = alice.post(
        "/api/press", {"to": [other], "press": {"kind": "peace", "powers": [power, other]}}
    )
    assert status == 200, text
    answered = alice.wait_for(
        lambda s: any(other in line["answers"] for line in _out_lines(s)),
        ANSWER_WITHIN,
        f"{other}'s answer",
    )
    answer = _out_lines(answered)[0]["answers"][other]
    assert answer in ("YES", "REJ")
    sent = _out_lines(answered)[0]["text"]  # her panel shows the SND as sent, turn included
    assert sent.startswith(f"SND ( {turn} ) ( {other} ) ( PRP ( PCE"), sent
    logs = {_power_of(records): records for records in (b.game_log() for b in bots)}
    heard = [
        r["text"] for r in logs[other] if r["kind"] == "msg" and r["dir"] == "in"
        and r["text"].startswith(f"FRM ( {power} ) ( {other} ) ( PRP ( PCE")
    ]  # fmt: skip
    assert len(heard) == 1, logs[other]
    said = [r["text"] for r in logs[other] if r["kind"] == "msg" and r["dir"] == "out"]
    assert f"SND ( {turn} ) ( {power} ) ( {answer} ( PRP ( PCE" in " ".join(said), said

    # Alice proposes peace to Bob: he hears it, says yes through /api/press/answer, she sees it.
    status, text = alice.post(
        "/api/press", {"to": [bobs], "press": {"kind": "peace", "powers": [power, bobs]}}
    )
    assert status == 200, text

    def alices(state: dict[str, Any]) -> list[dict[str, Any]]:
        return [line for line in state["press"]["lines"] if line["sender"] == power]

    (line,) = alices(bob.wait_for(alices, ANSWER_WITHIN, "Alice's proposal at Bob's seat"))
    assert line["answerable"] and line["text"].startswith(f"FRM ( {power} ) ( {bobs} ) ( PRP")
    status, text = bob.post("/api/press/answer", {"line": line["line"], "yes": True})
    assert status == 200, text
    agreed = alice.wait_for(
        lambda s: bobs in [a["partner"] for a in s["press"]["agreements"]],
        ANSWER_WITHIN,
        "Bob's YES at Alice's seat",
    )
    assert [line["answers"] for line in _out_lines(agreed)][-1] == {bobs: "YES"}
    assert agreed["phase"]["turn"] == turn  # all within the first phase
