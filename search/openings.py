"""The field's openings: what the other players did in the first year of earlier games.

A search that models every enemy as DumbBot plays its first move against
DumbBot's opening, which is one opening among many.  A bot that plays a
series of games against the same field (a tournament) can do better: the
first year of a game starts from the same position every time, so what each
power's player did there in earlier games is the best guess of what it will
do now.  :class:`FieldBook` counts, for every movement phase of the first
:data:`BOOK_YEARS` years, each power's whole order set keyed by the phase and
that power's own units (where they stand says which situation it was in).
:class:`BookPlayer` plays a power from those counts, smoothed towards its base
player (DumbBot) by :data:`PRIOR_GAMES` pseudo-observations: a key seen once
is played from the book half the time, one seen ten times nearly always.
Where the book knows nothing (later years, an unseen placement, an order set
that is not playable in the searched position) the base player plays.

The book is plain data: :meth:`FieldBook.to_data` and
:meth:`FieldBook.from_data` give and take a JSON-ready dict (the bot keeps it
in a file, see :mod:`bot.bookfile`); :class:`BookError` says what is wrong
with data that is not a book of this map.
"""

from __future__ import annotations

import reprlib
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from random import Random
from typing import Any

from adjudicator.maps import ARMY, FLEET, GameMap
from adjudicator.orders import (
    CONVOY,
    CONVOY_MOVE,
    HOLD,
    HOLD_ORDER,
    MOVE,
    SUPPORT_HOLD,
    SUPPORT_MOVE,
    EngineOrder,
)
from adjudicator.position import MOVEMENT_SEASONS, SPRING, Position
from search.policy import Policy

BOOK_YEARS = 1
"""The years from the game's first that the book records: the opening."""

PRIOR_GAMES = 1.0
"""Pseudo-observations of the base player behind every key of the book."""

_SHORT = reprlib.Repr()
_SHORT.maxlevel, _SHORT.maxstring, _SHORT.maxother = 3, 40, 40

BOOK_FORMAT = 1
"""The version of :meth:`FieldBook.to_data`'s layout."""

Placement = tuple[tuple[int, int, int], ...]
"""One power's units, ``(province, unit type, location)`` in province order."""

BookKey = tuple[int, int, int, Placement]
"""``(season, year, power, placement)``: one power in one movement phase."""

OrderSet = tuple[tuple[int, EngineOrder], ...]
"""One power's orders, ``(province, engine order)`` in province order."""


class BookError(ValueError):
    """Data that is not a field book of the map it is read for."""


def placement(pos: Position, power: int) -> Placement:
    """``power``'s units in ``pos``, in province order."""
    return tuple(
        sorted((prov, unit[1], unit[2]) for prov, unit in pos.units.items() if unit[0] == power)
    )


def is_opening(pos: Position) -> bool:
    """Whether ``pos`` is a game's first phase.

    That is a spring where every owned centre is its owner's home and every
    unit stands on a home centre of its own power.
    """
    m = pos.map
    if pos.season != SPRING:
        return False
    if any(
        owner >= 0 and owner not in m.home_powers[prov] for prov, owner in enumerate(pos.owners)
    ):
        return False
    return all(prov in m.homes[unit[0]] for prov, unit in pos.units.items())


def playable(pos: Position, power: int, orders: OrderSet) -> bool:
    """Whether ``orders`` can be played for ``power`` in ``pos`` as the engine trusts them.

    Each order's unit must be ``power``'s, a move must go to an adjacent
    location, and a support or convoy must name a unit that is there and a
    province the unit can reach (the adjudicator takes engine orders as legal).
    """
    m = pos.map
    units = pos.units
    for prov, order in orders:
        unit = units.get(prov)
        if unit is None or unit[0] != power or not order:
            return False
        _, utype, loc = unit
        kind = order[0]
        size = len(order)
        if kind == HOLD:
            ok = size == 1
        elif kind == MOVE:
            ok = size == 2 and order[1] in m.adjacent(utype, loc)
        elif kind == SUPPORT_HOLD:
            ok = size == 2 and order[1] != prov and order[1] in units
            ok = ok and order[1] in m.reach(utype, loc)
        elif kind == SUPPORT_MOVE:
            ok = size in (3, 4) and _supportable(pos, prov, order)
        elif kind == CONVOY:
            army = units.get(order[1]) if size == 3 else None
            ok = utype == FLEET and army is not None and army[1] == ARMY
            ok = ok and 0 <= order[2] < m.num_provinces
        elif kind == CONVOY_MOVE:
            ok = size == 3 and utype == ARMY and 0 <= order[1] < m.num_provinces
            ok = ok and isinstance(order[2], tuple)
            ok = ok and all(isinstance(q, int) and 0 <= q < m.num_provinces for q in order[2])
        else:
            ok = False
        if not ok:
            return False
    return True


def _supportable(pos: Position, prov: int, order: EngineOrder) -> bool:
    """A support of a move by the unit in ``prov``: mover present, target in both reaches."""
    m = pos.map
    _, utype, loc = pos.units[prov]
    mover_prov, dest = order[1], order[2]
    mover = pos.units.get(mover_prov)
    if mover is None or mover_prov == prov or dest == prov or dest == mover_prov:
        return False
    if not isinstance(dest, int) or dest not in m.reach(utype, loc):
        return False
    if len(order) == 4:
        coast = order[3]
        if not isinstance(coast, int) or not 0 <= coast < len(m.loc_province):
            return False
        if m.loc_province[coast] != dest:
            return False
    return dest in m.reach(mover[1], mover[2]) or mover[1] == ARMY


@dataclass(frozen=True)
class FieldBook:
    """Counts of each power's order sets in the first years of earlier games, on one map.

    ``entries`` maps a :data:`BookKey` to the count of every :data:`OrderSet`
    seen there; ``games`` is the number of games recorded.
    """

    map_name: str
    entries: Mapping[BookKey, Mapping[OrderSet, int]] = field(default_factory=dict)
    games: int = 0

    @classmethod
    def empty(cls, map_name: str) -> FieldBook:
        """A book with nothing in it."""
        return cls(map_name)

    def __len__(self) -> int:
        """The number of keys the book knows."""
        return len(self.entries)

    def __hash__(self) -> int:
        """A hash equal books share: a variant holding a book stays hashable.

        The counts are dicts, so the hash is of the map, the games and the keys' number.
        """
        return hash((self.map_name, self.games, len(self.entries)))

    def choices(self, key: BookKey) -> Mapping[OrderSet, int]:
        """The order sets seen at ``key`` with their counts (empty if none)."""
        return self.entries.get(key, {})

    def with_game(
        self,
        movements: Sequence[tuple[Position, Mapping[int, EngineOrder]]],
        ours: Collection[int] = (),
    ) -> FieldBook:
        """The book with one game's first years added: every power's orders but ``ours``.

        ``movements`` are the game's movement phases in order, each position
        with every unit's order (a unit without one held).  A game not seen
        from its first phase (:func:`is_opening`) adds nothing.
        """
        if not movements or not is_opening(movements[0][0]):
            return self
        last_year = movements[0][0].year + BOOK_YEARS - 1
        counts = _mutable(self.entries)
        for pos, orders in movements:
            if pos.year > last_year:
                break
            for power in sorted({unit[0] for unit in pos.units.values()}):
                if power in ours:
                    continue
                where = placement(pos, power)
                chosen = tuple((prov, tuple(orders.get(prov, HOLD_ORDER))) for prov, _, _ in where)
                seen = counts.setdefault((pos.season, pos.year, power, where), {})
                seen[chosen] = seen.get(chosen, 0) + 1
        return FieldBook(self.map_name, counts, self.games + 1)

    def merged(self, other: FieldBook) -> FieldBook:
        """The counts of both books (of the same map; BookError otherwise)."""
        if other.map_name != self.map_name:
            raise BookError(f"a book of map {other.map_name!r} added to one of {self.map_name!r}")
        counts = _mutable(self.entries)
        for key, seen in other.entries.items():
            mine = counts.setdefault(key, {})
            for orders, count in seen.items():
                mine[orders] = mine.get(orders, 0) + count
        return FieldBook(self.map_name, counts, self.games + other.games)

    def to_data(self, game_map: GameMap) -> dict[str, Any]:
        """The book as JSON-ready data, on ``game_map`` (the book's map).

        Powers are named; provinces, locations and orders are the map's numbers.
        """
        if game_map.name != self.map_name:
            raise BookError(f"a book of map {self.map_name!r} written for {game_map.name!r}")
        return {
            "format": BOOK_FORMAT,
            "map": self.map_name,
            "games": self.games,
            "entries": [
                {
                    "season": season,
                    "year": year,
                    "power": game_map.powers[power],
                    "units": [list(u) for u in where],
                    "orders": [
                        {"set": [[prov, _order_data(o)] for prov, o in orders], "count": count}
                        for orders, count in seen.items()
                    ],
                }
                for (season, year, power, where), seen in self.entries.items()
            ],
        }

    @classmethod
    def from_data(cls, data: object, game_map: GameMap) -> FieldBook:
        """The book ``data`` (from :meth:`to_data`) holds for ``game_map``; BookError if none."""
        if not isinstance(data, dict):
            raise BookError("a field book is a JSON object")
        if data.get("format") != BOOK_FORMAT:
            raise BookError(f"unknown field book format {_show(data.get('format'))}")
        if data.get("map") != game_map.name:
            raise BookError(
                f"the book is of map {_show(data.get('map'))}, not {_show(game_map.name)}"
            )
        games = data.get("games")
        entries = data.get("entries")
        if not _count(games, allow_zero=True) or not isinstance(entries, list):
            raise BookError("a field book needs a game count and a list of entries")
        counts: dict[BookKey, dict[OrderSet, int]] = {}
        for number, entry in enumerate(entries):
            try:
                key, seen = _entry(entry, game_map)
            except (TypeError, ValueError, KeyError, IndexError) as exc:
                raise BookError(f"entry {number} of the field book: {exc}") from None
            mine = counts.setdefault(key, {})
            for orders, count in seen.items():
                mine[orders] = mine.get(orders, 0) + count
        return cls(game_map.name, counts, int(games))  # type: ignore[arg-type]


def _show(value: object) -> str:
    """A short repr of any value, however deep (a message must not recurse without end)."""
    return _SHORT.repr(value)


def _mutable(
    entries: Mapping[BookKey, Mapping[OrderSet, int]],
) -> dict[BookKey, dict[OrderSet, int]]:
    return {key: dict(seen) for key, seen in entries.items()}


def _order_data(order: EngineOrder) -> list[object]:
    return [list(part) if isinstance(part, tuple) else part for part in order]


def _count(value: object, *, allow_zero: bool = False) -> bool:
    return (
        isinstance(value, int)
        and not isinstance(value, bool)
        and (value >= 0 if allow_zero else value > 0)
    )


def _index(value: object, size: int, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < size:
        raise ValueError(f"{what} {_show(value)} is not one of this map's")
    return value


def _entry(entry: object, m: GameMap) -> tuple[BookKey, dict[OrderSet, int]]:
    """One entry of :meth:`FieldBook.to_data`, checked against the map."""
    if not isinstance(entry, dict):
        raise TypeError("not an object")
    season = entry["season"]
    year = entry["year"]
    if season not in MOVEMENT_SEASONS or not _count(year):
        raise ValueError(f"season {_show(season)} of year {_show(year)} is not a movement phase")
    name = entry["power"]
    if name not in m.powers:
        raise ValueError(f"power {_show(name)} is not one of this map's")
    power = m.powers.index(name)
    units: list[tuple[int, int, int]] = []
    for unit in entry["units"]:
        prov, utype, loc = unit
        units.append(
            (
                _index(prov, m.num_provinces, "province"),
                _index(utype, 2, "unit type"),
                _index(loc, len(m.loc_province), "location"),
            )
        )
    where = tuple(sorted(units))
    provinces = [prov for prov, _, _ in where]
    seen: dict[OrderSet, int] = {}
    for item in entry["orders"]:
        count = item["count"]
        if not _count(count):
            raise ValueError(f"count {_show(count)} is not a positive whole number")
        orders = tuple(sorted((int(prov), _order(order)) for prov, order in item["set"]))
        if [prov for prov, _ in orders] != provinces:
            raise ValueError("an order set does not give one order to each of the power's units")
        seen[orders] = seen.get(orders, 0) + count
    return (season, year, power, where), seen


def _order(data: object) -> EngineOrder:
    if not isinstance(data, list) or not data or len(data) > 4:
        raise ValueError(f"order {_show(data)} is not an engine order")
    parts: list[object] = []
    for part in data:
        if isinstance(part, list):
            if not all(_count(q, allow_zero=True) for q in part):
                raise ValueError(f"order {_show(data)} is not an engine order")
            parts.append(tuple(part))
        elif _count(part, allow_zero=True):
            parts.append(part)
        else:
            raise ValueError(f"order {_show(data)} is not an engine order")
    return tuple(parts)  # type: ignore[return-value]


class BookPlayer:
    """Plays each power from the :class:`FieldBook` where it knows the situation, else as ``base``.

    A known key is played from the book with probability n / (n + ``prior``)
    (n its observations), choosing an order set in proportion to its count;
    a set not playable in the position (:func:`playable`) gives way to ``base``.
    Retreats and adjustments are ``base``'s.
    """

    name = "book"

    def __init__(self, base: Policy, book: FieldBook, prior: float = PRIOR_GAMES) -> None:
        self.base = base
        self.book = book
        self.prior = prior
        self.last_year = max((key[1] for key in book.entries), default=-1)
        self._tables: dict[BookKey, tuple[tuple[OrderSet, ...], tuple[int, ...], int]] = {}

    def _table(self, key: BookKey) -> tuple[tuple[OrderSet, ...], tuple[int, ...], int] | None:
        found = self._tables.get(key)
        if found is None:
            seen = self.book.choices(key)
            if not seen:
                return None
            sets = tuple(seen)
            weights = tuple(seen[s] for s in sets)
            found = (sets, weights, sum(weights))
            self._tables[key] = found
        return found

    def book_orders(self, pos: Position, power: int, rng: Random) -> OrderSet | None:
        """An order set from the book for ``power`` in ``pos``, or None to play ``base``."""
        if pos.year > self.last_year:
            return None
        table = self._table((pos.season, pos.year, power, placement(pos, power)))
        if table is None:
            return None
        sets, weights, total = table
        if rng.random() * (total + self.prior) >= total:
            return None
        chosen = rng.choices(sets, weights)[0]
        return chosen if playable(pos, power, chosen) else None

    def movement_orders(self, pos: Position, power: int, rng: Random) -> dict[int, EngineOrder]:
        """The book's order set where it has one, else ``base``'s orders."""
        chosen = self.book_orders(pos, power, rng)
        if chosen is None:
            return self.base.movement_orders(pos, power, rng)
        return dict(chosen)

    def retreat_orders(self, pos: Position, power: int, rng: Random) -> dict[int, EngineOrder]:
        """``base``'s retreats."""
        return self.base.retreat_orders(pos, power, rng)

    def adjustment_orders(self, pos: Position, power: int, rng: Random) -> list[EngineOrder]:
        """``base``'s builds or removals."""
        return self.base.adjustment_orders(pos, power, rng)


def describe(game_map: GameMap, orders: OrderSet) -> str:
    """An order set in short notation: ``LON-ECH, NTH S ECH-BEL, LVP H, ECH C WAL-BEL``.

    Only provinces are named (the book does not keep the other powers' units).
    """
    names = game_map.provinces
    shown: list[str] = []
    for prov, order in orders:
        kind, here = order[0], names[prov]
        if kind == HOLD:
            shown.append(f"{here} H")
        elif kind == MOVE:
            to = game_map.location_name(order[1])
            shown.append(f"{here}-{to.province}" + (f"/{to.coast}" if to.coast else ""))
        elif kind == SUPPORT_HOLD:
            shown.append(f"{here} S {names[order[1]]}")
        elif kind == SUPPORT_MOVE:
            shown.append(f"{here} S {names[order[1]]}-{names[order[2]]}")
        elif kind == CONVOY:
            shown.append(f"{here} C {names[order[1]]}-{names[order[2]]}")
        else:
            via = " ".join(names[q] for q in order[2])
            shown.append(f"{here}-{names[order[1]]} via {via or 'any route'}")
    return ", ".join(shown)
