"""Both local pages guard their API with one key check (:mod:`bot.human.page_key`).

The seat's page and the start page are really served (uvicorn on loopback);
each answers a guarded route only to a request giving its own key, in its
own header or as ``?key=``, and refuses a wrong, missing or other page's key
with 403 and one line.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from starlette.types import ASGIApp

from bot.human.start_form import Catalogue
from bot.human.start_page import StartApp
from bot.local.launch import PLAIN_STANDARD, STANDARD_MAP
from tests.bot.human.conftest import SEAT_KEY, SECRET, START_KEY, Served, request, serving


@dataclass(frozen=True)
class Page:
    """A served page: its port, its key's header and a guarded route to ask."""

    port: int
    header: str
    other_header: str
    route: str

    def call(
        self, path: str, headers: dict[str, str], method: str = "GET", body: bytes = b""
    ) -> tuple[int, str]:
        """Status and text of one request with ``headers`` (and the right Host)."""
        return request(self.port, method, path, body, headers)


@pytest.fixture
def start_page(tmp_path: Path) -> Iterator[Page]:
    """The start page's app (the standard map only), served on a fresh loopback port."""
    catalogue = Catalogue({STANDARD_MAP: PLAIN_STANDARD}, parang=False)

    def make(port: int) -> ASGIApp:
        app = StartApp(catalogue, tmp_path / "runs", SECRET, "127.0.0.1", port, io.StringIO())
        return app.app

    with serving(make) as port:
        yield Page(port, START_KEY, SEAT_KEY, "/api/game")


@pytest.fixture(params=["seat", "start"])
def page(request: pytest.FixtureRequest) -> Page:
    """Each of the two pages in turn."""
    if request.param == "seat":
        served: Served = request.getfixturevalue("served")
        return Page(served.port, SEAT_KEY, START_KEY, "/api/state")
    page: Page = request.getfixturevalue("start_page")
    return page


def _refused(answer: tuple[int, str]) -> bool:
    status, text = answer
    return status == 403 and text.startswith("wrong or missing") and text.count("\n") == 1


def test_the_right_key_is_answered_in_the_header_or_the_address(page: Page) -> None:
    assert page.call(page.route, {page.header: SECRET})[0] == 200
    assert page.call(f"{page.route}?key={SECRET}", {})[0] == 200
    assert page.call(f"{page.route}?key={SECRET}", {page.header: ""})[0] == 200


@pytest.mark.parametrize("key", ["", "wrong", SECRET + "x", SECRET[:-1], SECRET.upper()])
def test_a_wrong_or_missing_key_is_refused(page: Page, key: str) -> None:
    assert _refused(page.call(page.route, {page.header: key}))
    assert _refused(page.call(f"{page.route}?key={key}", {}))


def test_no_key_or_the_other_pages_header_is_refused(page: Page) -> None:
    assert _refused(page.call(page.route, {}))
    assert _refused(page.call(page.route, {page.other_header: SECRET}))


def test_the_header_is_read_before_the_address(page: Page) -> None:
    assert _refused(page.call(f"{page.route}?key={SECRET}", {page.header: "wrong"}))


def test_the_page_is_served_without_the_key(page: Page) -> None:
    assert page.call("/", {})[0] == 200


def test_a_guarded_refusal_keeps_its_status(start_page: Page) -> None:
    """The start page's form errors (no status of their own) are 400, a big body 413."""
    key = {START_KEY: SECRET}  # request() gives the Content-Type
    status, text = start_page.call("/api/start", key, "POST", b'{"opponents": []}')
    assert status == 400 and "opponents" in text and text.count("\n") == 1, text
    assert start_page.call("/api/start", key, "POST", b"x" * 20_000)[0] == 413
    assert start_page.call("/api/start", {START_KEY: "wrong"}, "POST", b"{}")[0] == 403
