"""A person at a seat's page, as the game tests drive it: clicks, typing, the seat's state.

The page is driven by clicks and keys only; what the seat holds (its
choices, the answers) is read from its JSON API with the seat's key, to
decide what to click and to check what the page shows.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

from playwright.sync_api import Page

from tests.bot.human.conftest import HumanProcess

POLL = 0.3


@dataclass
class SeatApi:
    """A seat started with ``daide-mcts human``, driven through its JSON API with its key."""

    human: HumanProcess

    def state(self) -> dict[str, Any]:
        status, text = self.human.call("GET", "/api/state")
        assert status == 200, text
        return json.loads(text)

    def post(self, path: str, body: object) -> tuple[int, str]:
        """Status and text of ``POST path`` with ``body`` as JSON (and the seat's key)."""
        return self.human.call("POST", path, json.dumps(body).encode())

    def phase(self) -> dict[str, Any] | None:
        return self.state()["phase"]

    def wait_for(self, test: Any, timeout: float, what: str) -> dict[str, Any]:
        """Poll the seat's state until ``test(state)`` holds; fails after ``timeout``."""
        deadline = time.monotonic() + timeout
        state = self.state()
        while not test(state):
            if time.monotonic() > deadline or self.human.proc.poll() is not None:
                raise AssertionError(
                    f"{what}: not within {timeout:.0f}s; last state phase "
                    f"{(state['phase'] or {}).get('turn')} info {state['info']}\n"
                    f"{self.human.output()}"
                )
            time.sleep(POLL)
            state = self.state()
        return state


@dataclass
class SeatPage(SeatApi):
    """One person's page of a seat started with ``daide-mcts human``."""

    page: Page

    def wait_turn_after(self, turn: str | None, timeout: float) -> dict[str, Any]:
        """The next phase the seat plays, or the game's end (phase None, over)."""

        def moved(state: dict[str, Any]) -> bool:
            phase = state["phase"]
            if state["info"]["over"]:
                return True
            return phase is not None and phase["turn"] != turn

        self.wait_for(moved, timeout, f"a phase after {turn}")
        return self.in_step()

    def in_step(self, timeout: float = 15.0) -> dict[str, Any]:
        """The seat's state once the page shows the phase the seat is in (phases may fly by)."""
        deadline = time.monotonic() + timeout
        while True:
            state = self.state()
            shown = self.page.evaluate("document.body.dataset.turn")
            if shown == (state["phase"]["turn"] if state["phase"] else ""):
                return state
            if time.monotonic() > deadline:
                raise AssertionError(f"the page shows {shown!r}, the seat is at {state['phase']}")
            time.sleep(POLL)

    # --- a person's hands ----------------------------------------------------------------

    def click_order(self, key: str, text: str) -> None:
        """Click the unit (or build site) ``key`` and pick ``text`` from its menu."""
        unit = f"#layer-units g.unit.mine[data-province='{key}']"
        site = f"#layer-sites circle[data-site='{key}']"
        target = self.page.locator(f"{unit}, {site}").first
        target.click()
        self.page.click(f"#menu button[data-text='{text}']")
        self.page.wait_for_selector(f"#my-orders li[data-key='{key}'] .text:text-is('{text}')")

    def type_order(self, text: str) -> None:
        self.page.fill("#order-text", text)
        self.page.press("#order-text", "Enter")
        self.page.wait_for_function(
            "t => [...document.querySelectorAll('#my-orders li .text')]"
            ".some(e => e.textContent.toUpperCase() === t.toUpperCase())",
            arg=text,
        )

    def drafted(self) -> list[str]:
        return self.page.eval_on_selector_all(
            "#my-orders li:not(.none) .text", "ls => ls.map(l => l.textContent)"
        )

    def submit_and_wait_thx(self, count: int) -> list[str]:
        """Submit; wait until the page shows a THX beside each of ``count`` orders."""
        self.page.click("#submit")
        # Read the answers in the same look that finds them: the page re-renders as the
        # game moves on (the phase may end as soon as every player is ready).
        shown = self.page.wait_for_function(
            """n => {
                const answers = [...document.querySelectorAll('#my-orders li .answer')];
                return answers.length >= n ? answers.map((a) => a.textContent) : null;
            }""",
            arg=count,
            timeout=20_000,
        )
        return list(shown.json_value())

    def ready(self) -> None:
        if not self.page.is_checked("#ready"):
            # A click, not check(): once the server hears GOF the phase may end at once, and
            # the next phase's box is clear before a check() could see this one ticked.
            self.page.click("#ready")


def options(phase: dict[str, Any]) -> dict[str, list[str]]:
    """The legal order texts per unit (or site) the seat offers."""
    return {o["key"]: [c["text"] for c in o["orders"]] for o in phase["choices"]["options"]}


def move_and_support(phase: dict[str, Any]) -> tuple[str, str, str, str] | None:
    """A move of one unit and a support of it by another: (key, move, key, support)."""
    offered = options(phase)
    for key, texts in offered.items():
        for move in (t for t in texts if " - " in t and " S " not in t and " C " not in t):
            dest = move.split(" - ")[1].split("/")[0].split(" ")[0]
            for other, other_texts in offered.items():
                for support in other_texts:
                    if other != key and support.endswith(f" S {move.split(' - ')[0]} - {dest}"):
                        return key, move, other, support
    return None
