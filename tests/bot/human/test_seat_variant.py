"""The seat's page on a variant: the map is world3's picture, computed from its MDF, and playable.

A board seat plays Russia at the start of world3 (17 powers, 195 provinces,
what Parlance sends for parterre's map): the page asks for the picture of
the game's map, draws its provinces and units, and a person clicks a unit,
picks one of its legal orders and sees it drawn.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext

from adjudicator.maps import GameMap
from adjudicator.position import Position
from bot.view.mapfacts import MapFacts, map_key
from bot.view.mappicture import picture_json
from tests.bot.human.boardseat import BoardSeat
from tests.bot.human.conftest import Served
from tests.bot.view.conftest import (  # noqa: F401 - shared fixtures
    artefacts,
    browser,
    chromium_install,
    open_view,
    variant_starts,
)
from tests.bot.view.variant_maps import VariantStart

POWER = "RUS"


@pytest.fixture
def board_seat(variant_starts: dict[str, VariantStart]) -> BoardSeat:  # noqa: F811
    """Russia at the start of world3 (the ``served`` fixture serves it)."""
    world = variant_starts["world3"]
    game_map = GameMap.from_definition(world.definition, "world3")
    now, sco = world.now_message(), world.sco_message()
    assert now.turn is not None and sco.centres is not None
    position = Position.from_values(game_map, now.turn, now.units, sco.centres)
    picture_json(world.definition)  # laid out once on this machine
    return BoardSeat(position, POWER)


def test_the_seat_serves_the_picture_of_the_games_map(
    served: Served,
    variant_starts: dict[str, VariantStart],  # noqa: F811
) -> None:
    world = variant_starts["world3"]
    status, text = served.call("GET", "/api/state")
    assert status == 200
    assert json.loads(text)["map"] == map_key(world.definition)
    assert served.call("GET", "/api/map", key=None)[0] == 403
    status, text = served.call("GET", "/api/map")
    assert status == 200
    drawn = json.loads(text)
    assert drawn["name"] == map_key(world.definition) and drawn["layout"] == "computed"
    assert set(drawn["provinces"]) == set(MapFacts.of(world.definition).provinces)


@pytest.mark.browser
@pytest.mark.timeout(180)
def test_a_person_plays_world3_in_the_browser(
    served: Served,
    browser: BrowserContext,  # noqa: F811
    artefacts: Path,  # noqa: F811
) -> None:
    view = open_view(browser, served.url)
    page = view.page
    page.wait_for_selector("#map[data-layout='computed']", timeout=60_000)
    assert page.locator("#layer-provinces path.province").count() == 195
    assert page.locator("#layer-units g.unit").count() == 51
    mine = page.eval_on_selector_all(
        "#layer-units g.unit.mine", "gs => gs.map(g => g.dataset.province)"
    )
    assert len(mine) == 3
    army = page.eval_on_selector_all(
        "#layer-units g.unit.mine[data-kind='AMY']", "gs => gs.map(g => g.dataset.province)"
    )[0]
    page.click(f"#layer-units g.unit.mine[data-province='{army}']")
    offered = page.eval_on_selector_all("#menu button", "bs => bs.map(b => b.dataset.text)")
    moves = [text for text in offered if text.startswith(f"A {army} - ")]
    assert f"A {army} H" in offered and moves
    page.click(f"#menu button[data-text='{moves[0]}']")
    assert page.locator("#layer-orders path.order.move.mine").count() == 1
    assert page.eval_on_selector_all(
        "#my-orders li:not(.none) .text", "ls => ls.map(l => l.textContent)"
    ) == [moves[0]]
    assert view.errors == []
    page.screenshot(path=str(artefacts / "world3-seat.png"), full_page=True)
