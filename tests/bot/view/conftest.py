"""Fixtures of the viewer's tests: the project-local Chromium driven by playwright,
``daide-mcts view`` run as the user runs it (a subprocess serving on a fresh port), and
what Parlance sends on three variant maps (:mod:`tests.bot.view.variant_maps`).

Chromium is Debian's headless shell unpacked into ``.local/chromium`` by
``make setup`` (:mod:`bot.servers.chromium`); if it cannot be installed or
started the tests fail and say why.
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext, ConsoleMessage, Page, sync_playwright

from bot.servers.chromium import LAUNCH_FLAGS, ChromiumInstall, ChromiumUnavailableError, install
from bot.servers.parlance_install import ParlanceInstall
from bot.toolkit.paths import local_dir
from tests.bot.page_process import PageProcess, page_processes
from tests.bot.view.variant_maps import VARIANTS, VariantStart, variant_start

ROOT = Path(__file__).resolve().parents[3]
URL = re.compile(r"(http://127\.0\.0\.1:\d+/)")
VIEWPORT = {"width": 1600, "height": 1100}


@pytest.fixture(scope="session")
def chromium_install() -> ChromiumInstall:
    """Debian's Chromium in the project-local folder (idempotent)."""
    try:
        return install()
    except ChromiumUnavailableError as exc:
        pytest.fail(f"Chromium is needed for this test and could not be installed: {exc}")


@pytest.fixture(scope="module")
def browser(chromium_install: ChromiumInstall) -> Iterator[BrowserContext]:
    """Headless Chromium with a fresh profile (``--user-data-dir``), for one module's tests."""
    profile_dir = tempfile.TemporaryDirectory(prefix="chromium-profile-")
    with profile_dir as profile, sync_playwright() as pw:
        try:
            context = pw.chromium.launch_persistent_context(
                profile,
                executable_path=str(chromium_install.binary),
                headless=True,
                args=list(LAUNCH_FLAGS),
                env=chromium_install.env(),
                viewport=VIEWPORT,
            )
        except Exception as exc:  # playwright's errors carry the browser's own output
            pytest.fail(f"Chromium could not be started: {exc}")
        yield context
        context.close()


@dataclass
class WatchedPage:
    """A page of the viewer, with what it logged."""

    page: Page
    errors: list[str] = field(default_factory=list)

    def units(self) -> set[tuple[str, str, str, bool]]:
        """Each unit glyph's power, province, kind and whether it is drawn dislodged."""
        found = self.page.eval_on_selector_all(
            "#layer-units g.unit:not(.ghost)",
            "gs => gs.map(g => [g.dataset.power, g.dataset.province, g.dataset.kind,"
            " g.dataset.dislodged === '1'])",
        )
        return {(p, prov, kind, dis) for p, prov, kind, dis in found}

    def unit_count(self) -> int:
        return self.page.locator("#layer-units g.unit:not(.ghost)").count()

    def centre_colours(self) -> dict[str, str]:
        """Supply centre → the fill of its mark."""
        return dict(
            self.page.eval_on_selector_all(
                "circle.sc", "cs => cs.map(c => [c.dataset.province, c.getAttribute('fill')])"
            )
        )

    def phase_index(self) -> int:
        return int(self.page.evaluate("Number(document.body.dataset.phaseIndex)"))


def open_view(browser: BrowserContext, url: str) -> WatchedPage:
    """Open the viewer at ``url`` and wait until it has drawn; console errors are collected."""
    page = browser.new_page()
    watched = WatchedPage(page)

    def on_console(message: ConsoleMessage) -> None:
        if message.type == "error":
            watched.errors.append(message.text)

    page.on("console", on_console)
    page.on("pageerror", lambda exc: watched.errors.append(f"uncaught: {exc}"))
    page.goto(url)
    page.wait_for_selector("body[data-ready='1']", timeout=15_000)
    return watched


class ViewProcess(PageProcess):
    """``daide-mcts view`` running as a subprocess; ``url`` is the page it printed."""


@pytest.fixture
def run_view() -> Iterator[Callable[..., ViewProcess]]:
    """A factory: ``run_view("FOLDER")`` or ``run_view("--host", h, "--port", p)``."""
    yield from page_processes(ViewProcess, "view", URL, 30.0, {})


@pytest.fixture(scope="session")
def artefacts() -> Path:
    """Where the viewer's tests leave their screenshots (printed, and kept after the run)."""
    folder = local_dir() / "test-artefacts" / "view"
    folder.mkdir(parents=True, exist_ok=True)
    print(f"\nviewer screenshots go to {folder}")
    return folder


@pytest.fixture(scope="session")
def variant_starts(parlance_install: ParlanceInstall) -> dict[str, VariantStart]:
    """What Parlance sends at the start of a game on each of the test variants."""
    return {name: variant_start(parlance_install, name) for name in VARIANTS}
