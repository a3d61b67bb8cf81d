"""Generates the viewer's map, ``bot/view/static/standard-map.json``, from the geography facts.

Run ``python -m bot.view.mapgen`` (needs the ``mapgen`` extra: shapely) after
changing the facts; it rewrites the JSON file and prints how the drawn
borders compare with the MDF's adjacencies.  The steps:

1. project every point with a Lambert conformal conic projection (the usual
   one for maps of Europe) onto the page;
2. land is the union of the coastline rings (less the inland seas), clipped
   to the frame; water is the rest of the frame;
3. land is shared out by a Voronoi tessellation of the land provinces'
   places and the impassable places (each bit of land goes to the nearest
   place), water by one of the seas' places within each body of water; a
   province is the union of its places' cells;
4. each province gets a unit anchor (the point farthest inside it), a label
   above it and a supply-centre mark at its main town.

The viewer needs only the JSON; shapely is needed here and in its tests.
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import shapely
from shapely.geometry import MultiPoint, MultiPolygon, Point, Polygon, box
from shapely.geometry.base import BaseGeometry
from shapely.ops import polylabel, unary_union

from adjudicator.maps import COASTAL, INLAND, SEA, GameMap, standard_map
from bot.view.geography import COASTLINES, COASTS, IMPASSABLE, INLAND_SEAS, PROVINCES, LatLon

MAP_PATH = Path(__file__).resolve().parent / "static" / "standard-map.json"

WIDTH = 1200.0
"""Width of the drawing in SVG user units; the height follows from the frame."""

STANDARD_PARALLELS = (40.0, 62.0)
ORIGIN = (50.0, 15.0)
"""Latitude and longitude at the projection's origin (the middle of the map)."""

FRAME: tuple[LatLon, LatLon, LatLon, LatLon] = ((40.0, -14.5), (72.5, 30.0), (35.0, 44.5),
                                                (32.0, 15.0))  # fmt: skip
"""Points the frame must reach: west, north, east and south (the frame is their bounding box)."""

LABEL_RISE = 17.0
"""How far above the unit anchor a province's name is written."""

SC_MIN_GAP = 16.0
"""A supply-centre mark closer than this to the unit anchor is moved away from it."""

PRECISION = 1
"""Decimals kept in the JSON's coordinates."""

KINDS = {INLAND: "land", COASTAL: "coast", SEA: "sea"}


FOCUS: LatLon = (48.5, 10.0)
"""The middle of the magnifier: western and central Europe, where provinces are smallest."""

MAGNIFY_REACH = 0.12
"""The magnifier's reach, in projected units (about 7 degrees of latitude)."""


@dataclass(frozen=True)
class Projection:
    """Lambert conformal conic projection, a magnifier on the middle, then onto the page.

    Like the board game's own map, the magnifier gives the many small
    provinces of western and central Europe more room than Russia's or the
    Atlantic's few large ones: a point at distance *d* from the focus moves
    to distance ``R * log(1 + d / R)`` (R the reach), so that the scale falls
    as ``1 / (1 + d / R)`` away from the middle and every shape keeps its
    topology (the map stays a map).
    """

    n: float
    f: float
    rho0: float
    lon0: float
    focus: tuple[float, float] = (0.0, 0.0)
    scale: float = 1.0
    x0: float = 0.0
    y0: float = 0.0

    @classmethod
    def lambert(cls, parallels: tuple[float, float], origin: LatLon) -> Projection:
        """The projection with these standard parallels and origin (degrees)."""
        p1, p2 = (math.radians(p) for p in parallels)
        n = math.log(math.cos(p1) / math.cos(p2)) / math.log(
            math.tan(math.pi / 4 + p2 / 2) / math.tan(math.pi / 4 + p1 / 2)
        )
        f = math.cos(p1) * math.tan(math.pi / 4 + p1 / 2) ** n / n
        rho0 = f / math.tan(math.pi / 4 + math.radians(origin[0]) / 2) ** n
        plain = cls(n, f, rho0, origin[1])
        return cls(n, f, rho0, origin[1], plain.conic(*FOCUS))

    def conic(self, lat: float, lon: float) -> tuple[float, float]:
        """Lambert's (x, y), y growing northwards."""
        rho = self.f / math.tan(math.pi / 4 + math.radians(lat) / 2) ** self.n
        theta = self.n * math.radians(lon - self.lon0)
        return rho * math.sin(theta), self.rho0 - rho * math.cos(theta)

    def raw(self, lat: float, lon: float) -> tuple[float, float]:
        """Projected and magnified (x, y), y growing northwards, before scaling."""
        x, y = self.conic(lat, lon)
        dx, dy = x - self.focus[0], y - self.focus[1]
        d = math.hypot(dx, dy)
        if d == 0:
            return x, y
        k = MAGNIFY_REACH * math.log1p(d / MAGNIFY_REACH) / d
        return self.focus[0] + dx * k, self.focus[1] + dy * k

    def fitted(self, corners: Iterable[LatLon], width: float) -> Projection:
        """The same projection scaled so that ``corners``' bounding box is ``width`` wide."""
        xs, ys = zip(*(self.raw(*c) for c in corners), strict=True)
        scale = width / (max(xs) - min(xs))
        return Projection(self.n, self.f, self.rho0, self.lon0, self.focus, scale, min(xs), max(ys))

    def __call__(self, point: LatLon) -> tuple[float, float]:
        """Page coordinates (x right, y down) of a (latitude, longitude) point."""
        x, y = self.raw(*point)
        return (x - self.x0) * self.scale, (self.y0 - y) * self.scale


@dataclass
class Drawing:
    """The generated map: province shapes and anchors, impassable land, land outlines."""

    width: float
    height: float
    provinces: dict[str, BaseGeometry]
    impassable: dict[str, BaseGeometry]
    land: BaseGeometry
    units: dict[str, tuple[float, float]]
    coasts: dict[tuple[str, str], tuple[float, float]]
    towns: dict[str, tuple[float, float]]


DENSIFY_STEP = 1.0
"""Degrees: longer edges of a ring are cut into steps that follow parallels and meridians."""


def _densified(points: Sequence[LatLon]) -> list[LatLon]:
    out: list[LatLon] = []
    for (lat0, lon0), (lat1, lon1) in zip(points, [*points[1:], points[0]], strict=True):
        steps = max(1, math.ceil(max(abs(lat1 - lat0), abs(lon1 - lon0)) / DENSIFY_STEP))
        out.extend(
            (lat0 + (lat1 - lat0) * k / steps, lon0 + (lon1 - lon0) * k / steps)
            for k in range(steps)
        )
    return out


def _ring(points: Sequence[LatLon], project: Projection) -> Polygon:
    return Polygon([project(p) for p in _densified(points)])


def _cells(points: list[tuple[float, float]], frame: Polygon) -> list[BaseGeometry]:
    """The Voronoi cell of each point (in the points' order), clipped to ``frame``."""
    if len(points) == 1:
        return [frame]
    diagram = shapely.voronoi_polygons(MultiPoint(points), extend_to=frame, ordered=True)
    return [cell.intersection(frame) for cell in diagram.geoms]


def _share(
    area: BaseGeometry, owners: list[tuple[str, tuple[float, float]]], frame: Polygon
) -> dict[str, BaseGeometry]:
    """Share ``area`` out between the owners of the nearest points."""
    cells = _cells([p for _, p in owners], frame)
    parts: dict[str, list[BaseGeometry]] = {}
    for (owner, _), cell in zip(owners, cells, strict=True):
        piece = cell.intersection(area)
        if not piece.is_empty:
            parts.setdefault(owner, []).append(piece)
    return {owner: unary_union(pieces) for owner, pieces in parts.items()}


def _polygons(geometry: BaseGeometry) -> list[Polygon]:
    if isinstance(geometry, Polygon):
        return [geometry] if not geometry.is_empty else []
    if hasattr(geometry, "geoms"):
        return [p for g in geometry.geoms for p in _polygons(g)]
    return []


def _clean(geometry: BaseGeometry, min_area: float = 1.0) -> BaseGeometry:
    """Only the polygons of ``geometry`` (no slivers, lines or points)."""
    parts = [p for p in _polygons(geometry) if p.area >= min_area]
    return parts[0] if len(parts) == 1 else MultiPolygon(parts)


CRUMB_AREA = 40.0
"""A detached piece of a province smaller than this (square units) joins its neighbour."""


def _merge_crumbs(shapes: dict[str, BaseGeometry]) -> None:
    """Give each small detached piece of a shape to the neighbour it shares most border with.

    Voronoi cells ignore water, so a province's nearest-place cell may
    catch a corner of land across a strait; such crumbs belong next door.
    """
    for owner in list(shapes):
        parts = sorted(_polygons(shapes[owner]), key=lambda p: p.area, reverse=True)
        keep = parts[:1] + [p for p in parts[1:] if p.area >= CRUMB_AREA]
        for crumb in parts[1:]:
            if crumb.area >= CRUMB_AREA:
                continue
            border = {
                other: crumb.buffer(0.5).intersection(shape).area
                for other, shape in shapes.items()
                if other != owner and crumb.distance(shape) < 0.5
            }
            if border:
                taker = max(border, key=lambda o: border[o])
                shapes[taker] = unary_union([shapes[taker], crumb])
            else:
                keep.append(crumb)
        shapes[owner] = unary_union(keep)


def draw(game_map: GameMap | None = None) -> Drawing:
    """Compute the map from the geographic facts."""
    game_map = game_map or standard_map()
    project = Projection.lambert(STANDARD_PARALLELS, ORIGIN).fitted(FRAME, WIDTH)
    corners = [project(c) for c in FRAME]
    height = max(y for _, y in corners) - min(y for _, y in corners)
    frame = box(0.0, 0.0, WIDTH, height)
    land = unary_union([_ring(r, project) for r in COASTLINES.values()])
    land = land.difference(unary_union([_ring(r, project) for r in INLAND_SEAS.values()]))
    land = land.intersection(frame)
    water = frame.difference(land)

    land_owners: list[tuple[str, tuple[float, float]]] = []
    sea_owners: list[tuple[str, tuple[float, float]]] = []
    for code, (_name, places) in PROVINCES.items():
        is_sea = game_map.kind[game_map.province_index[code]] == SEA
        for place in places:
            (sea_owners if is_sea else land_owners).append((code, project(place)))
    for region, places in IMPASSABLE.items():
        land_owners.extend((f"~{region}", project(p)) for p in places)

    shapes = _share(land, land_owners, frame)
    for body in _polygons(water):
        inside = [(o, p) for o, p in sea_owners if body.buffer(1e-6).contains(Point(p))]
        if not inside:  # a corner cut off by the frame: the nearest sea takes it
            inside = sea_owners
        for owner, shape in _share(body, inside, frame).items():
            shapes[owner] = unary_union([shapes[owner], shape]) if owner in shapes else shape

    _merge_crumbs(shapes)
    provinces = {c: _clean(s) for c, s in shapes.items() if not c.startswith("~")}
    impassable = {c[1:]: _clean(s) for c, s in shapes.items() if c.startswith("~")}
    units = {}
    for code, shape in provinces.items():
        largest = max(_polygons(shape), key=lambda p: p.area)
        anchor = polylabel(largest, tolerance=0.5)
        units[code] = (anchor.x, anchor.y)
    coasts = {key: project(point) for key, point in COASTS.items()}
    towns = {code: project(places[0]) for code, (_name, places) in PROVINCES.items()}
    return Drawing(WIDTH, height, provinces, impassable, land, units, coasts, towns)


# --- checking the drawing against the MDF -------------------------------------------------


def touching(drawing: Drawing, tolerance: float = 0.5) -> set[frozenset[str]]:
    """Pairs of provinces whose shapes share a border (more than a point)."""
    codes = sorted(drawing.provinces)
    grown = {c: drawing.provinces[c].buffer(tolerance) for c in codes}
    pairs = set()
    for i, a in enumerate(codes):
        for b in codes[i + 1 :]:
            if not grown[a].intersects(drawing.provinces[b]):
                continue
            overlap = grown[a].intersection(grown[b])
            if overlap.area > 4 * tolerance * tolerance * 4:
                pairs.add(frozenset((a, b)))
    return pairs


def adjacent(game_map: GameMap) -> set[frozenset[str]]:
    """Pairs of provinces the MDF makes neighbours (for any unit)."""
    names = game_map.provinces
    return {
        frozenset((names[p], names[q]))
        for p in range(game_map.num_provinces)
        for q in game_map.neighbours[p]
    }


def compare(drawing: Drawing, game_map: GameMap) -> tuple[list[str], list[str]]:
    """Neighbours in the MDF whose shapes do not touch, and touching shapes that are not."""
    drawn, rules = touching(drawing), adjacent(game_map)
    missing = sorted("-".join(sorted(p)) for p in rules - drawn)
    extra = sorted("-".join(sorted(p)) for p in drawn - rules)
    return missing, extra


def misplaced(drawing: Drawing, game_map: GameMap) -> list[str]:
    """Places on the wrong side of the coast, anchors outside their province."""
    problems = []
    for code, (x, y) in drawing.units.items():
        if not drawing.provinces[code].buffer(0.01).contains(Point(x, y)):
            problems.append(f"{code}: unit anchor outside the province")
    for (code, coast), (x, y) in drawing.coasts.items():
        if not drawing.provinces[code].contains(Point(x, y)):
            problems.append(f"{code}/{coast}: coast anchor outside the province")
    for code, (x, y) in drawing.towns.items():
        if not drawing.provinces[code].contains(Point(x, y)):
            problems.append(f"{code}: main place outside the province")
    return problems


# --- writing ------------------------------------------------------------------------------


def _num(value: float) -> float:
    return round(value, PRECISION)


def path_of(geometry: BaseGeometry) -> str:
    """SVG path data of a (multi)polygon, holes included (draw with ``fill-rule: evenodd``)."""
    parts = []
    for polygon in _polygons(geometry):
        for ring in (polygon.exterior, *polygon.interiors):
            coords = list(ring.coords)[:-1]
            points = " ".join(f"{_num(x):g},{_num(y):g}" for x, y in coords)
            parts.append(f"M{points}Z")
    return "".join(parts)


def _label_point(shape: BaseGeometry, unit: tuple[float, float]) -> tuple[float, float]:
    for rise in (LABEL_RISE, -LABEL_RISE, LABEL_RISE * 0.6):
        candidate = (unit[0], unit[1] - rise)
        if shape.contains(Point(candidate)):
            return candidate
    return (unit[0], unit[1] - LABEL_RISE)


def _sc_point(town: tuple[float, float], unit: tuple[float, float]) -> tuple[float, float]:
    if math.dist(town, unit) >= SC_MIN_GAP:
        return town
    return (unit[0] + SC_MIN_GAP * 0.8, unit[1] + SC_MIN_GAP * 0.6)


def to_json(drawing: Drawing, game_map: GameMap) -> dict[str, Any]:
    """The JSON document the viewer draws from."""
    provinces: dict[str, Any] = {}
    for code in sorted(drawing.provinces):
        index = game_map.province_index[code]
        shape = drawing.provinces[code]
        unit = drawing.units[code]
        entry: dict[str, Any] = {
            "name": PROVINCES[code][0],
            "kind": KINDS[game_map.kind[index]],
            "path": path_of(shape),
            "unit": [_num(v) for v in unit],
            "label": [_num(v) for v in _label_point(shape, unit)],
        }
        if game_map.is_supply[index]:
            entry["sc"] = [_num(v) for v in _sc_point(drawing.towns[code], unit)]
            homes = [game_map.powers[p] for p in game_map.home_powers[index]]
            entry["home"] = homes[0] if homes else None
        coasts = {c: [_num(v) for v in xy] for (p, c), xy in drawing.coasts.items() if p == code}
        if coasts:
            entry["coasts"] = coasts
        provinces[code] = entry
    return {
        "comment": "Generated by python -m bot.view.mapgen from bot/view/geography.py",
        "width": _num(drawing.width),
        "height": _num(drawing.height),
        "land": path_of(drawing.land),
        "impassable": {name: path_of(s) for name, s in sorted(drawing.impassable.items())},
        "provinces": provinces,
    }


def main(argv: Sequence[str] | None = None) -> int:
    """Regenerate the map file and report how it fits the MDF."""
    args = list(sys.argv[1:] if argv is None else argv)
    target = Path(args[0]) if args else MAP_PATH
    game_map = standard_map()
    drawing = draw(game_map)
    missing, extra = compare(drawing, game_map)
    print(f"neighbours in the MDF that do not touch: {', '.join(missing) or 'none'}")
    print(f"touching but not neighbours: {', '.join(extra) or 'none'}")
    for problem in misplaced(drawing, game_map):
        print(problem)
    target.write_text(json.dumps(to_json(drawing, game_map), separators=(",", ":")) + "\n")
    print(f"wrote {target} ({target.stat().st_size // 1024} kB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
