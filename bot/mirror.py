"""The bot's mirror of the server's game, and shadow adjudication.

The mirror keeps the map (from MDF), our power and the current position (from
NOW and SCO).  After each phase the server sends ORD lines, maybe SCO, then
NOW; the mirror adjudicates the reported orders with our own engine and
compares its prediction with the server's results and next position.  A
mismatch is reported (both positions, every difference) and counted; play
always goes on from the server's truth.

A phase whose ORD lines do not cover every unit cannot be checked and is only
counted as skipped: MILA's DAIDE server sends each power its own orders only.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from adjudicator.daide import adjudicate_phase
from adjudicator.errors import AdjudicatorError
from adjudicator.maps import GameMap
from adjudicator.position import Position
from protocol.values import MapDefinition, OrderResult, Turn, UnitPosition, order_power

Centres = tuple[tuple[str, tuple[str, ...]], ...]


@dataclass(frozen=True)
class ShadowReport:
    """The outcome of one shadow adjudication: ``differences`` is empty when we agree."""

    turn: Turn
    differences: tuple[str, ...]
    predicted: str
    actual: str

    @property
    def ok(self) -> bool:
        """True when our engine agreed with the server."""
        return not self.differences


@dataclass
class GameMirror:
    """Our copy of the game: map, position, and the results of the phase in flight."""

    game_map: GameMap | None = None
    position: Position | None = None
    centres: Centres | None = None
    pending: list[OrderResult] = field(default_factory=list)
    pending_centres: Centres | None = None
    checked: int = 0
    mismatches: int = 0
    skipped: int = 0
    resync: bool = False

    def on_map(self, definition: MapDefinition, name: str) -> GameMap:
        """Build the map from MDF."""
        self.game_map = GameMap.from_definition(definition, name)
        return self.game_map

    def on_ord(self, entry: OrderResult) -> None:
        """Collect one ORD line of the phase just processed."""
        self.pending.append(entry)

    def on_sco(self, centres: Centres) -> None:
        """Record supply-centre ownership (it belongs to the NOW that follows)."""
        self.pending_centres = centres
        self.centres = centres

    def on_now(self, turn: Turn, units: tuple[UnitPosition, ...]) -> ShadowReport | None:
        """Take the server's new position; shadow-check the phase just processed, if any.

        Raises :class:`~adjudicator.errors.AdjudicatorError` only if the server's
        own NOW or SCO does not fit the map (the caller logs it and waits).
        """
        if self.game_map is None or self.centres is None:
            self.pending.clear()
            return None
        actual = Position.from_values(self.game_map, turn, units, self.centres)
        report = None
        previous = self.position
        if previous is not None and self.pending and not self.resync:
            if self._complete(previous):
                report = self._check(previous, actual)
            else:
                self.skipped += 1
        self.pending.clear()
        self.pending_centres = None
        self.resync = False
        self.position = actual
        return report

    def mark_resync(self) -> None:
        """After a reconnection some results may be lost: skip the next shadow check."""
        self.resync = True
        self.pending.clear()

    def _complete(self, previous: Position) -> bool:
        """Whether the ORD lines cover the whole phase (some servers report only our orders).

        Movement: a line for every unit; retreats: for every dislodged unit;
        winter: as many lines per power as it had builds or removals due.
        """
        reported = [getattr(r.order, "unit", None) for r in self.pending]
        if previous.season in (0, 2):
            units = {u.unit for u in previous.unit_positions() if u.retreats is None}
            return units <= set(reported)
        if previous.season in (1, 3):
            units = {u.unit for u in previous.unit_positions() if u.retreats is not None}
            return units <= set(reported)
        m = previous.map
        lines = [0] * m.num_powers
        for r in self.pending:
            power = m.power_index.get(order_power(r.order))
            if power is not None:
                lines[power] += 1
        return all(lines[p] >= abs(due) for p, due in enumerate(previous.adjustments()))

    def _check(self, previous: Position, actual: Position) -> ShadowReport:
        self.checked += 1
        differences: list[str] = []
        try:
            outcome = adjudicate_phase(previous, [r.order for r in self.pending])
        except AdjudicatorError as exc:
            self.mismatches += 1
            return ShadowReport(previous.turn, (f"our engine refused the phase: {exc}",), "", "")
        refused = [(o, n) for o, n in outcome.verdicts if n != "MBV"]
        differences.extend(f"we would refuse {o} ({n})" for o, n in refused)
        ours = {_key(r): r.result for r in outcome.results}
        for r in self.pending:
            mine = ours.get(_key(r))
            if mine is None:
                differences.append(f"no result of ours for {r.order}")
            elif mine != r.result:
                differences.append(f"{r.order}: server {' '.join(r.result)}, ours {' '.join(mine)}")
        predicted = outcome.position
        if predicted.turn != actual.turn:
            differences.append(f"next phase: server {actual.turn}, ours {predicted.turn}")
        if predicted.units != actual.units:
            differences.append("units differ")
        if predicted.dislodged != actual.dislodged:
            differences.append("dislodged units or their retreats differ")
        if predicted.owners != actual.owners:
            differences.append("supply-centre owners differ")
        if differences:
            self.mismatches += 1
        return ShadowReport(
            previous.turn, tuple(differences), _describe(predicted), _describe(actual)
        )


def _key(result: OrderResult) -> object:
    """What identifies an ORD line: the unit ordered, or the order itself (waives)."""
    return getattr(result.order, "unit", result.order)


def _describe(pos: Position) -> str:
    units = " ".join(
        f"({u.unit.power} {u.unit.kind} {u.unit.location}"
        + (f" MRT {[str(r) for r in u.retreats]}" if u.retreats is not None else "")
        + ")"
        for u in pos.unit_positions()
    )
    centres = " ".join(f"({p} {' '.join(c)})" for p, c in pos.centres())
    return f"{pos.turn}: {units} | {centres}"
