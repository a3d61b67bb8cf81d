"""Fixtures of the viewer's tests: the project-local Chromium driven by playwright, and
``daide-mcts view`` run as the user runs it (a subprocess serving on a fresh port).

Chromium is Debian's headless shell unpacked into ``.local/chromium`` by
``make setup`` (:mod:`bot.servers.chromium`); if it cannot be installed or
started the tests fail and say why.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext, ConsoleMessage, Page, sync_playwright

from bot.servers.chromium import LAUNCH_FLAGS, ChromiumInstall, ChromiumUnavailableError, install
from bot.toolkit.paths import local_dir

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


@dataclass
class ViewProcess:
    """``daide-mcts view`` running as a subprocess; ``url`` is the page it printed."""

    proc: subprocess.Popen[str]
    url: str
    lines: list[str]


@pytest.fixture
def run_view() -> Iterator[Callable[..., ViewProcess]]:
    """A factory: ``run_view("FOLDER")`` or ``run_view("--host", h, "--port", p)``."""
    started: list[ViewProcess] = []

    def start(*args: str) -> ViewProcess:
        proc = subprocess.Popen(
            [sys.executable, "-m", "bot.cli", "view", *args],
            cwd=ROOT,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        lines: list[str] = []
        found = threading.Event()
        url: list[str] = []

        def read() -> None:
            assert proc.stdout is not None
            for line in proc.stdout:
                lines.append(line)
                match = URL.search(line)
                if match and not url:
                    url.append(match.group(1))
                    found.set()

        threading.Thread(target=read, daemon=True).start()
        if not found.wait(30.0):
            proc.kill()
            pytest.fail(f"daide-mcts view printed no URL:\n{''.join(lines)}")
        view = ViewProcess(proc, url[0], lines)
        started.append(view)
        return view

    yield start
    for view in started:
        if view.proc.poll() is None:
            view.proc.terminate()
            try:
                view.proc.wait(10)
            except subprocess.TimeoutExpired:
                view.proc.kill()
                view.proc.wait()


@pytest.fixture(scope="session")
def artefacts() -> Path:
    """Where the viewer's tests leave their screenshots (printed, and kept after the run)."""
    folder = local_dir() / "test-artefacts" / "view"
    folder.mkdir(parents=True, exist_ok=True)
    print(f"\nviewer screenshots go to {folder}")
    return folder
