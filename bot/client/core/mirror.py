"""The bot's mirror of the server's game, and shadow adjudication.

The mirror keeps the map (from MDF), our power and the current position (from
NOW and SCO).  After each phase the server sends ORD lines, maybe SCO, then
NOW; the mirror adjudicates the reported orders with our own engine and
compares its prediction with the server's results and next position.  A
mismatch is reported (both positions, every difference) and counted; play
always goes on from the server's truth.

A phase whose ORD lines do not cover every unit cannot be checked and is only
counted as skipped: MILA's DAIDE server sends each power its own orders only.

What the server sends is validated before it is stored, so that one message
that contradicts the game never poisons the ones after it: a SCO must fit the
map (:meth:`GameMirror.on_sco` raises and keeps the last good one), and
:meth:`GameMirror.now_problem` says why a NOW cannot be the game's current
phase: it names a phase the server has already reported results for (ORD), it
replays a NOW already left behind, or it is more than a year ahead.  Any other
NOW that fits the map is the current phase, even one for the same turn as the
last: the server's latest NOW wins (a wrong one is put right by the next).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field

from adjudicator.daide import adjudicate_phase
from adjudicator.maps import GameMap
from adjudicator.position import SEASON_INDEX, Position
from adjudicator.rule_errors import AdjudicatorError
from adjudicator.rules import DEFAULT_CIVIL_DISORDER, CivilDisorderRule
from protocol.values import (
    Build,
    Convoy,
    MapDefinition,
    OrderResult,
    Season,
    SupportHold,
    SupportMove,
    Turn,
    UnitPosition,
    order_power,
)

Centres = tuple[tuple[str, tuple[str, ...]], ...]

MAX_YEARS_AHEAD = 1
"""How many years past the current phase a NOW may be (one NOW lost in between at most)."""

RECENT_NOWS = 16
"""How many NOWs left behind are remembered, to tell a replay of one from a new phase."""

SCO_CHECK_TURN = Turn(Season.SPRING, 1901)
"""The turn a SCO is checked against the map with (any movement turn would do)."""

NowKey = tuple[Turn, frozenset[UnitPosition]]
"""What identifies a NOW's content: its turn and its units in any order."""


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
    checked: int = 0
    mismatches: int = 0
    skipped: int = 0
    resync: bool = False
    coarse_results: bool = False
    """Compare ORD results only as success or failure, and not at all for supports and
    convoys (MILA reports every failure as NSO, and a support whose supported move
    failed as failed); the positions are still compared in full."""
    rule: CivilDisorderRule = DEFAULT_CIVIL_DISORDER
    """The server's civil-disorder rule (Parlance's or the DATC's)."""
    ended: bool = False
    """The server has ended the game (DRW or SLO): the NOW that follows names the phase
    it stopped in, which may be one the game would have skipped (Parlance stops in a
    winter without builds or removals)."""
    reported: Turn | None = None
    """The latest phase the server reported results for (an ORD line for the phase we
    were in): a NOW for it or an earlier phase is stale."""
    _recent: deque[NowKey] = field(default_factory=lambda: deque(maxlen=RECENT_NOWS))
    _current_key: NowKey | None = None
    _step: _Step | None = None

    def on_map(self, definition: MapDefinition, name: str) -> GameMap:
        """Build the map from MDF."""
        self.game_map = GameMap.from_definition(definition, name)
        return self.game_map

    def on_ord(self, entry: OrderResult) -> str | None:
        """Collect one ORD line of the phase just processed.

        Returns why the line was refused instead (it names another phase, or a
        unit that is not on the board), else None.  A refused line is left out
        of the shadow check: it cannot be about the phase we know.
        """
        pos = self.position
        if pos is not None and not self.resync:
            if entry.turn != pos.turn:
                return f"ORD for {entry.turn} while the phase is {pos.turn}"
            unit = getattr(entry.order, "unit", None)
            if unit is not None and not isinstance(entry.order, Build):
                if pos.is_retreat:
                    present = any(
                        u.unit == unit for u in pos.unit_positions() if u.retreats is not None
                    )
                else:
                    present = any(
                        u.unit == unit for u in pos.unit_positions() if u.retreats is None
                    )
                if not present:
                    return f"ORD for {unit}, which is not on the board"
            self.reported = entry.turn
        self.pending.append(entry)
        return None

    def on_sco(self, centres: Centres) -> None:
        """Record supply-centre ownership (it belongs to the NOW that follows).

        Raises :class:`~adjudicator.rule_errors.PositionError` (and keeps the last
        good ownership) if ``centres`` do not fit the map: an unknown power or
        province, a province that is no supply centre, a centre listed twice.
        """
        if self.game_map is not None:
            Position.from_values(self.game_map, SCO_CHECK_TURN, (), centres)
        self.centres = centres

    def on_game_end(self) -> None:
        """The server ended the game (DRW or SLO); its last NOW may name a phase it stopped in."""
        self.ended = True

    def now_problem(self, turn: Turn, units: tuple[UnitPosition, ...]) -> str | None:
        """Why a NOW for ``turn`` cannot be the current phase, or None if it can.

        After a reconnection (``resync``) any NOW is taken.  Otherwise a NOW is
        refused if the server has already reported results for its phase or a
        later one, if it repeats a NOW already left behind for an earlier phase,
        or if it is more than ``MAX_YEARS_AHEAD`` years after the current one.
        """
        current = self.position
        if current is None or self.resync:
            return None
        if self.reported is not None and _turn_order(turn) <= _turn_order(self.reported):
            return f"NOW for {turn}: the server has reported the results of {self.reported}"
        if _turn_order(turn) < _turn_order(current.turn) and _now_key(turn, units) in self._recent:
            return f"NOW for {turn} repeats one left behind (the phase is {current.turn})"
        if turn.year > current.year + MAX_YEARS_AHEAD:
            return f"NOW for {turn}, more than {MAX_YEARS_AHEAD} year after {current.turn}"
        return None

    def on_now(self, turn: Turn, units: tuple[UnitPosition, ...]) -> ShadowReport | None:
        """Take the server's new position; shadow-check the phase just processed, if any.

        The new position is taken whatever the shadow check finds, even when
        our engine fails on the phase (that counts as a mismatch).  Raises
        :class:`~adjudicator.rule_errors.AdjudicatorError` (and changes nothing) if
        the NOW does not fit the map.  A NOW for the current turn with the same
        position changes nothing; one with another position replaces it, and
        the shadow check of the step into it is done again against the new one.
        """
        if self.game_map is None or self.centres is None:
            self.pending.clear()
            return None
        actual = Position.from_values(self.game_map, turn, units, self.centres)
        current = self.position
        if current is not None and current.turn == turn:
            if actual == current:
                self.resync = False  # the server confirmed where the game stands
                return None
            if self._step is not None:
                self._undo(self._step)
        elif self._current_key is not None:
            self._recent.append(self._current_key)
        self._current_key = _now_key(turn, units)
        previous, pending, resync = self.position, self.pending, self.resync
        step = self._step = _Step(previous, pending, resync)
        self.position = actual
        self.pending = []
        self.resync = False
        if previous is None or not pending or resync:
            return None
        if not self._complete(previous, pending):
            self.skipped += 1
            step.skipped = True
            return None
        try:
            report = self._check(previous, actual, pending)
        except Exception as exc:  # our engine's failure must never cost the phase
            self.mismatches += 1
            report = ShadowReport(
                previous.turn,
                (f"shadow adjudication failed: {type(exc).__name__}: {exc}",),
                "",
                _describe(actual),
            )
        step.report = report
        return report

    def _undo(self, step: _Step) -> None:
        """Take back the step into a position that a NOW for the same turn replaces."""
        self.position = step.previous
        self.pending = list(step.pending) + self.pending
        self.resync = step.resync
        if step.skipped:
            self.skipped -= 1
        if step.report is not None:
            self.checked -= 1
            if not step.report.ok:
                self.mismatches -= 1

    def mark_resync(self) -> None:
        """After a reconnection some results may be lost: skip the next shadow check."""
        self.resync = True
        self.pending.clear()

    def _complete(self, previous: Position, pending: list[OrderResult]) -> bool:
        """Whether the ORD lines cover the whole phase (some servers report only our orders).

        Movement: a line for every unit; retreats: for every dislodged unit;
        winter: as many lines per power as it had builds or removals due.
        """
        reported = [getattr(r.order, "unit", None) for r in pending]
        if previous.is_movement:
            units = {u.unit for u in previous.unit_positions() if u.retreats is None}
            return units <= set(reported)
        if previous.is_retreat:
            units = {u.unit for u in previous.unit_positions() if u.retreats is not None}
            return units <= set(reported)
        m = previous.map
        lines = [0] * m.num_powers
        for r in pending:
            power = m.power_index.get(order_power(r.order))
            if power is not None:
                lines[power] += 1
        return all(lines[p] >= abs(due) for p, due in enumerate(previous.adjustments()))

    def _check(
        self, previous: Position, actual: Position, pending: list[OrderResult]
    ) -> ShadowReport:
        self.checked += 1
        differences: list[str] = []
        try:
            outcome = adjudicate_phase(previous, [r.order for r in pending], self.rule)
        except AdjudicatorError as exc:
            self.mismatches += 1
            return ShadowReport(previous.turn, (f"our engine refused the phase: {exc}",), "", "")
        refused = [(o, n) for o, n in outcome.verdicts if n != "MBV"]
        differences.extend(f"we would refuse {o} ({n})" for o, n in refused)
        ours = {order_result_key(r): r.result for r in outcome.results}
        for r in pending:
            mine = ours.get(order_result_key(r))
            if mine is None:
                differences.append(f"no result of ours for {r.order}")
            elif mine != r.result and not (self.coarse_results and _same_effect(r, mine)):
                differences.append(f"{r.order}: server {' '.join(r.result)}, ours {' '.join(mine)}")
        # Some servers (MILA's) skip a retreat phase in which no unit can retreat and a
        # winter without adjustments; a server that ends the game may stop in one.
        predicted = self._past_empty_phases(outcome.position, actual.turn)
        reached = self._past_empty_phases(actual, predicted.turn) if self.ended else actual
        if predicted.turn != reached.turn:
            differences.append(f"next phase: server {actual.turn}, ours {predicted.turn}")
        if predicted.units != actual.units:
            differences.append("units differ")
        # MILA drops a dislodged unit with nowhere to go at once (it could only disband).
        dropped_hopeless = _without_hopeless(predicted) == actual.dislodged
        if predicted.dislodged != actual.dislodged and not dropped_hopeless:
            differences.append("dislodged units or their retreats differ")
        if predicted.owners != actual.owners:
            differences.append("supply-centre owners differ")
        if differences:
            self.mismatches += 1
        return ShadowReport(
            previous.turn, tuple(differences), _describe(predicted), _describe(actual)
        )

    def _past_empty_phases(self, pos: Position, target: Turn) -> Position:
        """``pos`` played on with no orders through phases with nothing to decide, to ``target``."""
        while pos.turn != target and _nothing_to_decide(pos):
            # No removal is due in such a phase: the civil-disorder rule cannot matter.
            pos = adjudicate_phase(pos, [], self.rule).position  # pragma: no mutate
        return pos


@dataclass
class _Step:
    """The mirror's last step to a new position, kept for a NOW that replaces it.

    It holds the position before, the ORD lines the step consumed, and what it counted.
    """

    previous: Position | None
    pending: list[OrderResult]
    resync: bool
    skipped: bool = False
    report: ShadowReport | None = None


def _turn_order(turn: Turn) -> tuple[int, int]:
    """A sortable key for a phase: (year, season in playing order)."""
    return (turn.year, SEASON_INDEX[turn.season])


def _now_key(turn: Turn, units: Sequence[UnitPosition]) -> NowKey:
    return (turn, frozenset(units))


def _same_effect(server: OrderResult, ours: tuple[str, ...]) -> bool:
    """Coarse comparison: supports and convoys always agree; others by success alone."""
    if isinstance(server.order, SupportHold | SupportMove | Convoy):
        return True
    return (server.result[0] == "SUC") == (ours[0] == "SUC")


def _without_hopeless(pos: Position) -> dict[int, object]:
    """The dislodged units that have somewhere to retreat to."""
    return {p: d for p, d in pos.dislodged.items() if d[3]}


def _nothing_to_decide(pos: Position) -> bool:
    """A retreat phase where no unit can retreat, or a winter without builds or removals."""
    if pos.is_retreat:
        return all(not d[3] for d in pos.dislodged.values())
    if pos.is_adjustment:
        return not any(pos.adjustments())
    return False


def order_result_key(result: OrderResult) -> object:
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
