"""What a picture shows of a map, read from its MDF: provinces, kinds, centres, coasts, adjacencies.

Pure (no drawing library): :class:`MapFacts` is the part of an MDF a picture
depends on, and :func:`map_key` names a map's picture, so that a page can
tell when the map it draws changes.  :mod:`bot.view.mappicture` draws them.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import lru_cache

from adjudicator.standard import standard_definition
from protocol.values import UNOWNED, MapDefinition, UnitType

KEY_DIGITS = 16
"""Hex digits of the digest in a map's key."""

CACHED_KEYS = 8
"""Maps whose keys are kept (a page asks for its map's key every second)."""


class PictureError(ValueError):
    """A map with nothing to draw (no province)."""


@dataclass(frozen=True)
class MapFacts:
    """What a picture shows of a map, from its MDF: provinces, kinds, centres, coasts, edges."""

    provinces: tuple[str, ...]
    kinds: tuple[tuple[str, str], ...]
    centres: tuple[tuple[str, tuple[str, ...]], ...]
    coasts: tuple[tuple[str, str, tuple[str, ...]], ...]
    edges: tuple[tuple[str, str], ...]

    @classmethod
    def of(cls, definition: MapDefinition) -> MapFacts:
        """The facts of an MDF's map (tolerant: self-adjacencies and repeats are dropped)."""
        provinces: set[str] = set(definition.non_supply_centres)
        homes: dict[str, list[str]] = {}
        for owners, centres in definition.supply_centres:
            for centre in centres:
                provinces.add(centre)
                listed = homes.setdefault(centre, [])
                listed.extend(o for o in owners if o != UNOWNED and o not in listed)
        army: set[str] = set()
        fleet: set[str] = set()
        edges: set[tuple[str, str]] = set()
        coasts: dict[tuple[str, str], set[str]] = {}
        for entry in definition.adjacencies:
            here = entry.province
            provinces.add(here)
            for adjacency in entry.entries:
                (army if adjacency.kind == UnitType.ARMY else fleet).add(here)
                for dest in adjacency.destinations:
                    if dest.province != here:
                        provinces.add(dest.province)
                        a, b = sorted((here, dest.province))
                        edges.add((a, b))
                    if adjacency.coast is not None:
                        coasts.setdefault((here, adjacency.coast), set()).add(dest.province)
        if not provinces:
            raise PictureError("the map has no province to draw")

        def kind(p: str) -> str:
            if p in army and p in fleet:
                return "coast"
            return "sea" if p in fleet else "land"

        names = tuple(sorted(provinces))
        return cls(
            provinces=names,
            kinds=tuple((p, kind(p)) for p in names),
            centres=tuple((c, tuple(sorted(hs))) for c, hs in sorted(homes.items())),
            coasts=tuple((p, c, tuple(sorted(ds))) for (p, c), ds in sorted(coasts.items())),
            edges=tuple(sorted(edges)),
        )


@lru_cache(maxsize=CACHED_KEYS)
def map_key(definition: MapDefinition | None) -> str:
    """A short name for a map's picture: ``standard``, or a digest of the map's facts."""
    if definition is None:
        return "standard"
    return key_of(MapFacts.of(definition))


@lru_cache(maxsize=1)
def standard_facts() -> MapFacts:
    """The standard map's facts."""
    return MapFacts.of(standard_definition())


def same_geography(facts: MapFacts, other: MapFacts) -> bool:
    """Whether two maps have the same provinces, kinds, coasts and adjacencies (not homes)."""
    return (facts.kinds, facts.coasts, facts.edges) == (other.kinds, other.coasts, other.edges)


def key_of(facts: MapFacts) -> str:
    """The key of a map's picture: ``standard`` for the standard map, else a digest."""
    if facts == standard_facts():
        return "standard"
    text = json.dumps([list(facts.kinds), list(facts.centres), list(facts.coasts), facts.edges])
    return "map-" + hashlib.sha256(text.encode()).hexdigest()[:KEY_DIGITS]
