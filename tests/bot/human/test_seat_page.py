"""The seat's page in a real browser (the project-local Chromium), at a fixed board.

A person clicks a unit and picks one of its legal orders, types another,
sees them drawn, reloads the page without losing them, and submits: the
seat receives exactly that set.  The games on real servers are in
test_human_games.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext

from protocol.notation import parse_order
from tests.bot.human.conftest import Served
from tests.bot.view.conftest import open_view

pytestmark = pytest.mark.browser


def _my_orders(page) -> list[str]:  # type: ignore[no-untyped-def]
    return page.eval_on_selector_all(
        "#my-orders li:not(.none) .text", "ls => ls.map(l => l.textContent)"
    )


@pytest.mark.timeout(120)
def test_clicks_typing_reload_and_submit(served: Served, browser: BrowserContext) -> None:
    view = open_view(browser, served.url)
    page = view.page
    assert page.locator("#layer-units g.unit").count() == 22
    assert page.locator("#layer-units g.unit.mine").count() == 3
    page.click("#layer-units g.unit.mine[data-province='PAR']")
    offered = page.eval_on_selector_all("#menu button", "bs => bs.map(b => b.dataset.text)")
    assert "A PAR - BUR" in offered and "A PAR H" in offered and "A PAR - MUN" not in offered
    page.click("#menu button[data-text='A PAR - BUR']")
    assert page.locator("#layer-orders path.order.move.mine").count() == 1
    page.fill("#order-text", "a mar s a par - bur")
    page.press("#order-text", "Enter")
    page.wait_for_function("document.querySelectorAll('#my-orders li:not(.none)').length == 2")
    page.fill("#order-text", "A MAR - MUN")
    page.press("#order-text", "Enter")
    page.wait_for_selector("#problem:not([hidden])")
    assert "not legal" in page.inner_text("#problem")
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    assert sorted(_my_orders(page)) == ["A MAR S A PAR - BUR", "A PAR - BUR"]
    page.click("#submit")
    page.wait_for_function("document.querySelector('#status').textContent.includes('sent')")
    turn = served.seat.position.turn  # type: ignore[union-attr]
    assert served.seat.sent == [
        (
            "submit",
            (
                turn,
                [
                    parse_order("(FRA AMY PAR) MTO BUR"),
                    parse_order("(FRA AMY MAR) SUP (FRA AMY PAR) MTO BUR"),
                ],
            ),
        )
    ]
    page.screenshot(path=str(Path("/tmp/human-board.png")))
    # The one refused request is the illegal order typed above; nothing else went wrong.
    assert [e for e in view.errors if "400 (Bad Request)" not in e] == []
