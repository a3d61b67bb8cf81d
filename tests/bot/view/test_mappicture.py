"""The picture of a map: the standard map keeps its geometry, any other gets a computed layout.

The variants are what Parlance sends for three of parterre's maps (4, 3 and
17 powers; a planar map, one whose adjacencies cross, one of 195 provinces):
every province is placed, apart from the others, with its own shape, its
centre, its homes and its coasts; the layout is the same in every process;
a planar map is drawn with hardly any crossing adjacencies.
"""

from __future__ import annotations

import functools
import itertools
import json
import math
import os
import re
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from shapely.geometry import Point
from shapely.geometry import Polygon as ShapelyPolygon
from shapely.geometry.base import BaseGeometry

from adjudicator.standard import standard_definition
from bot.view import mappicture
from bot.view.mapfacts import MapFacts, PictureError, map_key
from bot.view.mappicture import (
    COMPUTED,
    GEOGRAPHIC,
    STANDARD_PICTURE,
    computed_picture,
    picture,
)
from protocol.messages import parse_text
from protocol.values import MapDefinition
from tests.bot.view.conftest import ROOT
from tests.bot.view.variant_maps import VARIANTS, VariantStart

UNIT_RADIUS = 8.5
"""The radius of a unit's glyph on the page (mapdraw.js): two units must not touch."""

ROUNDING_SHARE = 0.01
"""Shapes share at most this part of the smaller one's area (coordinates are rounded)."""

CROSSING_SHARE = 0.01
"""At most this share of a planar map's adjacencies may cross another in its picture."""

PLANAR = ("sailho", "world3")
"""The test variants whose adjacency graphs are planar (hundred3's is not)."""


def _parse_path(path: str) -> BaseGeometry:
    """The shape of a picture's path (``Mx,y x,y ...Z`` rings; a ring inside another is a hole)."""
    shape: BaseGeometry = ShapelyPolygon()
    for ring in re.findall(r"M([^Z]*)Z", path):
        points = [tuple(float(v) for v in point.split(",")) for point in ring.split()]
        shape = shape.symmetric_difference(ShapelyPolygon(points))
    return shape


@functools.cache
def _computed(facts: MapFacts) -> str:
    return json.dumps(computed_picture(facts))


def _drawn(start: VariantStart) -> dict[str, Any]:
    """The variant's picture, computed here (not read from the disk's cache), once per test run."""
    loaded: dict[str, Any] = json.loads(_computed(MapFacts.of(start.definition)))
    return loaded


@pytest.mark.parametrize("name", VARIANTS)
def test_every_province_is_placed_apart_with_its_shape_centre_homes_and_coasts(
    name: str, variant_starts: dict[str, VariantStart]
) -> None:
    start = variant_starts[name]
    definition = start.definition
    drawn = _drawn(start)
    provinces = drawn["provinces"]
    named = {p for _, cs in definition.supply_centres for p in cs}
    named |= set(definition.non_supply_centres)
    assert set(provinces) == named
    assert drawn["layout"] == COMPUTED

    # Units stand apart (two glyphs never touch); shapes hold their unit and do not overlap.
    shapes = {code: _parse_path(p["path"]) for code, p in provinces.items()}
    for a, b in itertools.combinations(sorted(provinces), 2):
        assert math.dist(provinces[a]["unit"], provinces[b]["unit"]) > 2 * UNIT_RADIUS, (a, b)
        overlap = shapes[a].intersection(shapes[b]).area
        assert overlap < ROUNDING_SHARE * min(shapes[a].area, shapes[b].area), (a, b)
    for code, entry in provinces.items():
        assert shapes[code].buffer(0.1).contains(Point(entry["unit"])), code
        assert 0 <= entry["unit"][0] <= drawn["width"] and 0 <= entry["unit"][1] <= drawn["height"]

    # Centres, homes (every power sharing one), kinds and coasts are the MDF's.
    homes: dict[str, set[str]] = {}
    for owners, centres in definition.supply_centres:
        for centre in centres:
            homes.setdefault(centre, set()).update(o for o in owners if o != "UNO")
    assert {c for c, p in provinces.items() if "sc" in p} == set(homes)
    for centre, powers in homes.items():
        assert set(provinces[centre]["homes"]) == powers
        assert shapes[centre].buffer(0.1).contains(Point(provinces[centre]["sc"]))
    for entry in definition.adjacencies:
        coasts = {a.coast for a in entry.entries if a.coast is not None}
        drawn_coasts = provinces[entry.province].get("coasts", {})
        assert set(drawn_coasts) == (coasts if len(coasts) > 1 else set())
        for xy in drawn_coasts.values():
            assert shapes[entry.province].buffer(0.1).contains(Point(xy))
        armies = any(a.kind.value == "AMY" for a in entry.entries)
        fleets = any(a.kind.value == "FLT" for a in entry.entries)
        expected = "coast" if armies and fleets else ("sea" if fleets else "land")
        assert provinces[entry.province]["kind"] == expected

    # The adjacencies drawn are the MDF's, each pair once.
    pairs = {
        tuple(sorted((entry.province, d.province)))
        for entry in definition.adjacencies
        for a in entry.entries
        for d in a.destinations
        if d.province != entry.province
    }
    assert {tuple(e) for e in drawn["edges"]} == pairs


def _crossings(drawn: dict[str, Any]) -> int:
    def orient(p: list[float], q: list[float], r: list[float]) -> float:
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])

    at = {code: p["unit"] for code, p in drawn["provinces"].items()}
    count = 0
    for (a, b), (c, d) in itertools.combinations(drawn["edges"], 2):
        if len({a, b, c, d}) < 4:
            continue
        pa, pb, pc, pd = at[a], at[b], at[c], at[d]
        if (
            orient(pa, pb, pc) * orient(pa, pb, pd) < 0
            and orient(pc, pd, pa) * orient(pc, pd, pb) < 0
        ):
            count += 1
    return count


@pytest.mark.parametrize("name", PLANAR)
def test_a_planar_map_is_drawn_with_hardly_any_crossing_adjacencies(
    name: str, variant_starts: dict[str, VariantStart]
) -> None:
    # A force-directed layout crosses hundreds of world3's 577 adjacencies; this one a few.
    drawn = _drawn(variant_starts[name])
    assert _crossings(drawn) <= CROSSING_SHARE * len(drawn["edges"])


_IN_ANOTHER_PROCESS = """
import json, sys
from bot.view.mapfacts import MapFacts
from bot.view.mappicture import computed_picture
from protocol.messages import parse_text
from protocol.tokens import TokenTable
entries, mdf = json.loads(sys.stdin.read())
table = TokenTable({int(n): name for n, name in entries})
print(json.dumps(computed_picture(MapFacts.of(parse_text(mdf, table).definition))))
"""


@pytest.mark.parametrize("name", ["sailho", "hundred3"])
def test_the_layout_is_the_same_every_time_and_in_every_process(
    name: str, variant_starts: dict[str, VariantStart]
) -> None:
    start = variant_starts[name]
    here = computed_picture(MapFacts.of(start.definition))
    assert computed_picture(MapFacts.of(start.definition)) == here
    given = json.dumps([[list(e) for e in start.table.entries], start.mdf])
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONHASHSEED": "12345"}
    proc = subprocess.run(
        [sys.executable, "-c", _IN_ANOTHER_PROCESS],
        input=given,
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=120,
        check=True,
    )
    assert json.loads(proc.stdout) == here


def test_the_standard_map_keeps_its_geometry() -> None:
    geometry = json.loads(STANDARD_PICTURE.read_text())
    for drawn in (picture(None), picture(standard_definition())):
        assert drawn["layout"] == GEOGRAPHIC and drawn["name"] == "standard"
        assert drawn["width"] == geometry["width"] and drawn["land"] == geometry["land"]
        for code, entry in geometry["provinces"].items():
            assert drawn["provinces"][code]["path"] == entry["path"]
            assert drawn["provinces"][code]["unit"] == entry["unit"]
        assert drawn["provinces"]["PAR"]["homes"] == ["FRA"]
        assert drawn["provinces"]["BEL"]["homes"] == [] and "sc" in drawn["provinces"]["BEL"]
        assert "sc" not in drawn["provinces"]["BUR"] and "homes" not in drawn["provinces"]["BUR"]
        assert ["BUR", "PAR"] in drawn["edges"] and len(drawn["edges"]) > 100
    assert map_key(None) == map_key(standard_definition()) == "standard"


def test_the_standard_board_with_other_homes_keeps_the_geometry_and_shows_the_homes() -> None:
    standard = standard_definition()
    # France's centres become neutral, Belgium a French home: the board is the same.
    others = [(o, cs) for o, cs in standard.supply_centres if o not in (("FRA",), ("UNO",))]
    french = next(cs for o, cs in standard.supply_centres if o == ("FRA",))
    neutral = next(cs for o, cs in standard.supply_centres if o == ("UNO",))
    centres = (
        *others,
        (("FRA",), ("BEL",)),
        (("UNO",), tuple(c for c in neutral if c != "BEL") + french),
    )
    shifted = replace(standard, supply_centres=centres)
    drawn = picture(shifted)
    assert drawn["layout"] == GEOGRAPHIC and drawn["name"] != "standard"
    assert drawn["name"] == map_key(shifted)
    assert drawn["provinces"]["BEL"]["homes"] == ["FRA"]
    assert drawn["provinces"]["PAR"]["homes"] == []


def test_a_map_without_provinces_cannot_be_drawn() -> None:
    with pytest.raises(PictureError):
        picture(MapDefinition(("ENG",), (), (), ()))


def test_the_key_names_the_map(variant_starts: dict[str, VariantStart]) -> None:
    keys = {map_key(start.definition) for start in variant_starts.values()}
    assert len(keys) == len(VARIANTS) and "standard" not in keys
    for start in variant_starts.values():
        assert picture(start.definition)["name"] == map_key(start.definition)
    tiny = parse_text("MDF ( ENG ) ( ( ( ENG LON ) ) ( ) ) ( ( LON ( AMY ) ) )")
    assert map_key(tiny.definition) not in keys  # type: ignore[attr-defined]


def test_a_computed_picture_is_kept_on_disk_and_read_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, variant_starts: dict[str, VariantStart]
) -> None:
    definition = variant_starts["sailho"].definition
    monkeypatch.setenv("DAIDE_MCTS_LOCAL", str(tmp_path))
    mappicture._picture_text.cache_clear()
    first = picture(definition)
    (kept,) = (tmp_path / mappicture.CACHE_FOLDER).glob(f"{first['name']}-*.json")
    assert json.loads(kept.read_text()) == first
    # The next run reads it back rather than laying the map out again.
    kept.write_text(json.dumps({**first, "width": 1.0}))
    mappicture._picture_text.cache_clear()
    assert picture(definition)["width"] == 1.0
    kept.write_text("not json")
    mappicture._picture_text.cache_clear()
    assert picture(definition) == first
    mappicture._picture_text.cache_clear()
