"""A game as the viewer shows it: every phase's units, centres and adjudicated orders.

:class:`Timeline` is fed the public DAIDE messages of one game, parsed with
:mod:`protocol.messages` (from a run folder's ``messages.daide`` or live from
an observer) and keeps, per phase, the units of its ``NOW`` (with the
retreat options of dislodged units), the supply-centre owners in force (the
last ``SCO``), and the ``ORD`` lines of its orders with their results; also
who plays each power, the centres per power at the end of each year, and
the result.  No I/O here: :mod:`bot.view.sources` reads files and servers.

Each phase carries the version at which it last changed, so a live page can
be sent only what changed since it last heard (:meth:`Timeline.changes`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.toolkit.messagelog import player_from_admin
from bot.toolkit.order_words import format_order_text
from bot.view.colours import NEUTRAL, colours_for
from bot.view.mapfacts import PictureError, map_key
from protocol.messages import Adm, Drw, Mdf, Message, Now, Ord, Sco, Slo, Smr
from protocol.values import (
    UNOWNED,
    Build,
    Convoy,
    Disband,
    Hold,
    Location,
    MapDefinition,
    Move,
    MoveByConvoy,
    Order,
    OrderResult,
    Remove,
    Retreat,
    Season,
    SupportHold,
    SupportMove,
    Turn,
    Unit,
    UnitPosition,
    Waive,
)

FIRST_YEAR = 1901


def _location(location: Location) -> dict[str, Any]:
    return {"province": location.province, "coast": location.coast}


def _unit(unit: Unit) -> dict[str, Any]:
    return {"power": unit.power, "kind": str(unit.kind), **_location(unit.location)}


def unit_json(position: UnitPosition) -> dict[str, Any]:
    """A unit of a NOW, with its retreat options (None unless dislodged)."""
    out = _unit(position.unit)
    out["retreats"] = (
        None if position.retreats is None else [_location(r) for r in position.retreats]
    )
    return out


def order_json(order: Order) -> dict[str, Any]:
    """An order as the page draws it: its type, the unit, and where it points."""
    if isinstance(order, Waive):
        return {"type": "waive", "power": order.power}
    out: dict[str, Any] = {"unit": _unit(order.unit)}
    if isinstance(order, Hold):
        out["type"] = "hold"
    elif isinstance(order, Move | Retreat):
        out["type"] = "move" if isinstance(order, Move) else "retreat"
        out["to"] = _location(order.destination)
    elif isinstance(order, MoveByConvoy):
        out.update(type="move", to={"province": order.destination, "coast": None})
        out["via"] = list(order.path)
    elif isinstance(order, SupportHold):
        out.update(type="support", supported=_unit(order.supported))
    elif isinstance(order, SupportMove):
        out.update(type="support", supported=_unit(order.supported), to=order.destination)
    elif isinstance(order, Convoy):
        out.update(type="convoy", supported=_unit(order.army), to=order.destination)
    elif isinstance(order, Disband):
        out["type"] = "disband"
    elif isinstance(order, Build):
        out["type"] = "build"
    elif isinstance(order, Remove):
        out["type"] = "remove"
    return out


RESULT_WORDS = {
    "SUC": "",
    "BNC": "bounced",
    "CUT": "cut",
    "DSR": "convoy disrupted",
    "NSO": "void",
    "RET": "dislodged",
}
"""How the page words each ORD result token (success says nothing)."""


def describe_result(result: tuple[str, ...]) -> str:
    """The result tokens in words, e.g. ``bounced, dislodged`` (empty for a plain success)."""
    return ", ".join(w for w in (RESULT_WORDS.get(r, r) for r in result) if w)


@dataclass
class Phase:
    """One phase of the game: its NOW, the centres in force, its adjudicated orders."""

    turn: Turn
    units: tuple[UnitPosition, ...]
    centres: dict[str, tuple[str, ...]]
    orders: list[tuple[OrderResult, str]] = field(default_factory=list)
    version: int = 0

    def to_json(self) -> dict[str, Any]:
        """JSON-ready, as the page reads it."""
        return {
            "turn": str(self.turn),
            "season": str(self.turn.season),
            "year": self.turn.year,
            "units": [unit_json(u) for u in self.units],
            "centres": {p: list(cs) for p, cs in sorted(self.centres.items())},
            "orders": [
                {
                    **order_json(r.order),
                    "result": list(r.result),
                    "text": format_order_text(r.order),
                    "outcome": describe_result(r.result),
                    "daide": text,
                }
                for r, text in self.orders
            ],
        }


@dataclass
class Timeline:
    """Every phase of one game so far, and what is known about its players and result."""

    source: str = ""
    live: bool = False
    phases: list[Phase] = field(default_factory=list)
    centres: dict[str, tuple[str, ...]] = field(default_factory=dict)
    sco_by_year: dict[int, dict[str, int]] = field(default_factory=dict)
    players: dict[str, str] = field(default_factory=dict)
    result: str | None = None
    over: bool = False
    problem: str | None = None
    version: int = 0
    meta_version: int = 0
    definition: MapDefinition | None = None
    """The game's map (its MDF), None until the server sends it (the standard map is drawn)."""
    map_name: str = "standard"
    """The key of the map's picture (:func:`bot.view.mapfacts.map_key`)."""

    # --- hearing the game ---------------------------------------------------------------

    def feed(self, message: Message | None, text: str = "") -> bool:
        """Take one message the server sent; True if the game as shown changed."""
        if isinstance(message, Now) and message.turn is not None:
            return self._on_now(message.turn, message.units)
        if isinstance(message, Sco) and message.centres is not None:
            return self._on_sco({p: tuple(cs) for p, cs in message.centres})
        if isinstance(message, Ord) and message.entry is not None:
            return self._on_ord(message.entry, text or str(message))
        if isinstance(message, Drw | Slo):
            self.result = text or str(message)
            return self._meta_changed()
        if isinstance(message, Smr):
            for player in message.players:
                self.players.setdefault(player.power, player.name)
            self.over = True
            if self.result is None:
                self.result = "SMR"
            return self._meta_changed()
        if isinstance(message, Adm):
            found = player_from_admin(message.text)
            if found is not None and found[0] not in self.players:
                self.players[found[0]] = found[1]
                return self._meta_changed()
        if isinstance(message, Mdf) and message.definition is not None:
            if message.definition == self.definition:
                return False
            try:
                self.map_name = map_key(message.definition)
            except PictureError as exc:
                self.problem = f"the map cannot be drawn: {exc}"
                return self._meta_changed()
            self.definition = message.definition
            return self._meta_changed()
        return False

    def _bump(self) -> int:
        self.version += 1
        return self.version

    def _meta_changed(self) -> bool:
        self.meta_version = self._bump()
        return True

    def _on_now(self, turn: Turn, units: tuple[UnitPosition, ...]) -> bool:
        if self.phases and self.phases[-1].turn == turn:
            phase = self.phases[-1]
            if phase.units == units:
                return False
            phase.units = units
        else:
            phase = Phase(turn, units, dict(self.centres))
            self.phases.append(phase)
        phase.version = self._bump()
        return True

    def _on_sco(self, owned: dict[str, tuple[str, ...]]) -> bool:
        self.centres = owned
        last = self.phases[-1] if self.phases else None
        if last is None:
            year = FIRST_YEAR - 1
        elif last.turn.season in (Season.SPRING, Season.SUMMER):
            year = last.turn.year - 1
        else:
            year = last.turn.year
        self.sco_by_year[year] = {p: len(cs) for p, cs in owned.items() if p != UNOWNED}
        self.meta_version = self._bump()
        if last is not None and not last.orders:
            last.centres = dict(owned)  # the SCO came with this phase's NOW
            last.version = self.version
        return True

    def _on_ord(self, entry: OrderResult, text: str) -> bool:
        for phase in reversed(self.phases):
            if phase.turn == entry.turn:
                phase.orders.append((entry, text))
                phase.version = self._bump()
                return True
        return False

    # --- what the page reads ------------------------------------------------------------

    def meta_json(self) -> dict[str, Any]:
        """Everything but the phases: players, result, centres per year, the source."""
        powers = sorted({p for counts in self.sco_by_year.values() for p in counts})
        years = sorted(self.sco_by_year)
        named = self.definition.powers if self.definition is not None else ()
        colours = colours_for([*powers, *named])
        return {
            "source": self.source,
            "map": self.map_name,
            "colours": {**colours, UNOWNED: NEUTRAL},
            "live": self.live,
            "players": dict(sorted(self.players.items())),
            "result": self.result,
            "over": self.over,
            "problem": self.problem,
            "chart": {
                "years": years,
                "powers": {p: [self.sco_by_year[y].get(p, 0) for y in years] for p in powers},
            },
        }

    def to_json(self) -> dict[str, Any]:
        """The whole game so far."""
        return {
            "version": self.version,
            "count": len(self.phases),
            "phases": {str(i): p.to_json() for i, p in enumerate(self.phases)},
            "meta": self.meta_json(),
        }

    def changes(self, since: int) -> dict[str, Any] | None:
        """What changed after version ``since`` (None if nothing): the phases, and the rest."""
        if self.version <= since:
            return None
        phases = {str(i): p.to_json() for i, p in enumerate(self.phases) if p.version > since}
        return {
            "version": self.version,
            "count": len(self.phases),
            "phases": phases,
            "meta": self.meta_json(),
        }
