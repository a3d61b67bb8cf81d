"""The press panel in a real browser (the project-local Chromium), at a fixed board.

A person proposes peace from the menus, types DAIDE press (malformed, then above
the game's level: each refused with its one-line reason under the form, nothing
sent), answers a proposal heard with its "yes" button, and sees the press in
English beside its DAIDE text and the agreement in the record.  In a game
without press the panel is hidden.  The panel on a real server, with our bots
answering, is in test_press_games.py.
"""

from __future__ import annotations

import threading

import pytest
from playwright.sync_api import BrowserContext

from bot.client.core import notes
from protocol.press import Accept, Peace, Proposal
from protocol.tokens import STANDARD
from tests.bot.human.conftest import TIMEOUT, Served
from tests.bot.view.conftest import open_view

pytestmark = pytest.mark.browser


def _in_loop(served: Served, note: notes.Note) -> None:
    """The seat's core notes ``note`` (in the app's event loop, as the real seat does)."""
    loop = served.app.bell.loop
    panel = served.app.press
    assert loop is not None and panel is not None
    done = threading.Event()

    def run() -> None:
        try:
            panel.log.noted(note, STANDARD, served.seat.level, None)
        finally:
            done.set()

    loop.call_soon_threadsafe(run)
    assert done.wait(TIMEOUT)


def _sent(served: Served) -> list[object]:
    return [value for kind, value in served.seat.sent if kind == "press"]


@pytest.mark.timeout(120)
def test_propose_type_and_answer_press_on_the_page(served: Served, browser: BrowserContext) -> None:
    view = open_view(browser, served.url)
    page = view.page
    page.wait_for_selector("#press:not([hidden]) #press-form")
    assert "level 10" in page.inner_text("#press-level")
    kinds = page.eval_on_selector_all("#press-kind option", "os => os.map(o => o.value)")
    assert kinds == ["peace", "alliance", "draw", "text"]  # no orders nor zones at level 10

    # Peace with England, from the menus.
    page.check("#press-to input[value='ENG']")
    page.select_option("#press-kind", "peace")
    page.click("#press-send")
    page.wait_for_function("document.querySelector('#press-status').textContent.includes('sent')")
    assert "You propose peace with England" in page.inner_text("#press-status")
    assert _sent(served) == [(("ENG",), Proposal(Peace(("FRA", "ENG"))))]

    # Malformed DAIDE text, then press above the level: one line each, nothing sent.
    page.select_option("#press-kind", "text")
    for text, why in [
        ("PRP (PCE (ENG FRA)", "is never closed"),
        ("PRP (DMZ (ENG FRA) (BUR))", "needs press level 20"),
    ]:
        page.fill("#press-words", text)
        page.click("#press-send")
        page.wait_for_function(
            "w => document.querySelector('#press-problem').textContent.includes(w)", arg=why
        )
        assert not page.is_hidden("#press-problem")
    assert len(_sent(served)) == 1

    # A proposal heard: in English beside its DAIDE text, answered with "yes".
    heard = "FRM ( GER ) ( FRA ) ( PRP ( PCE ( FRA GER ) ) )"
    _in_loop(served, notes.PressIn("GER", heard, "for the person"))
    line = page.wait_for_selector("#press-lines li.in")
    assert line is not None
    assert line.inner_text().startswith("Germany proposes peace with France")
    assert heard in page.inner_text("#press-lines li.in .daide")
    page.click("#press-lines li.in button.yes")
    page.wait_for_function(
        "() => document.querySelector('#press-status').textContent.includes('accept')"
    )
    proposal = Proposal(Peace(("FRA", "GER")))
    assert _sent(served)[-1] == (("GER",), Accept(proposal))
    _in_loop(served, notes.PressOut(("GER",), "SND ( GER ) ( YES ( PRP ( PCE ( FRA GER ) ) ) )"))
    page.wait_for_function(
        "() => document.querySelector('#press-agreements').textContent.includes('Germany')"
    )
    assert "GER: peace with Germany" in page.inner_text("#press-agreements")
    assert page.locator("#press-lines li.in button.yes").count() == 0
    assert [e for e in view.errors if "400 (Bad Request)" not in e] == []


@pytest.mark.timeout(120)
def test_no_press_game_hides_the_panel(served: Served, browser: BrowserContext) -> None:
    served.seat.level = 0
    page = open_view(browser, served.url).page
    assert page.is_hidden("#press")


@pytest.mark.timeout(120)
def test_the_panel_before_the_games_powers_are_known(
    served: Served, browser: BrowserContext
) -> None:
    served.seat.powers = ()
    view = open_view(browser, served.url)
    view.page.wait_for_selector("#press:not([hidden]) #press-form")
    assert view.errors == []
