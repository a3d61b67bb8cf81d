"""Adjudicating one phase written in DAIDE notation: the engine's public entry point.

Give it what a server would have — the bodies of NOW and SCO, and the orders
of SUB — and it returns what the server would answer: a THX note for every
order, the ORD results, and the next NOW and SCO.  This is how anyone can
check the engine against a server's judgement, phase by phase::

    >>> out = adjudicate_text(
    ...     now="NOW ( SPR 1901 ) ( ENG FLT LON ) ( FRA FLT BRE )",
    ...     sco="SCO ( ENG LON ) ( FRA BRE )",
    ...     orders=["( ENG FLT LON ) MTO ECH", "( FRA FLT BRE ) MTO ECH"],
    ... )
    >>> out.thx
    [('( ENG FLT LON ) MTO ECH', 'MBV'), ('( FRA FLT BRE ) MTO ECH', 'MBV')]
    >>> out.ord[0]
    'ORD ( SPR 1901 ) ( ( ENG FLT LON ) MTO ECH ) ( BNC )'
    >>> out.now
    'NOW ( FAL 1901 ) ( ENG FLT LON ) ( FRA FLT BRE )'

Each order is submitted by the power of the unit it names (a waive by its
power), as that power's player would.  Units without a valid order hold (or
disband, in a retreat phase); a winter with missing builds waives them and
missing removals are made by the civil-disorder rule.

A phase that ends the game with a solo says so (``winner``, ``slo``): as on
Parlance, centres are counted on entering winter, and a power wins when it has
just grown to the map's winning count (18 on the standard map) with a strict
lead; the game then ends in that winter, which is the last NOW.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from adjudicator.adjustments import FAILED, adjudicate_adjustments
from adjudicator.convert import adjustment_value, movement_value, retreat_value
from adjudicator.maps import GameMap, standard_map
from adjudicator.movement import MovementResult, adjudicate_movement
from adjudicator.orders import (
    HOLD,
    RESULT_TOKENS,
)
from adjudicator.phases import solo_winner
from adjudicator.position import AUTUMN, FALL, WINTER, Position
from adjudicator.retreats import adjudicate_retreats
from adjudicator.rule_errors import NotationError, PositionError
from adjudicator.rules import DEFAULT_CIVIL_DISORDER, CivilDisorderRule
from adjudicator.validation import OrderBook
from protocol.daide_errors import ProtocolError
from protocol.expression import format_expression, parse_expression
from protocol.notation import (
    format_centres,
    format_order,
    format_turn,
    format_unit_position,
    parse_centres,
    parse_order,
    parse_turn,
    parse_unit_positions,
)
from protocol.tokens import TokenTable
from protocol.values import (
    Order,
    OrderResult,
    Turn,
    UnitPosition,
    order_power,
)

Centres = tuple[tuple[str, tuple[str, ...]], ...]


@dataclass(frozen=True)
class PhaseOutcome:
    """A phase adjudicated, in value types.

    ``verdicts`` pairs every submitted order with its THX note; ``results``
    are the ORD lines; ``turn``, ``units`` and ``centres`` are the next NOW
    and SCO; ``position`` is the same next phase in engine form; ``winner``
    is the power that has just won the game outright (the SLO), if any.
    """

    verdicts: tuple[tuple[Order, str], ...]
    results: tuple[OrderResult, ...]
    turn: Turn
    units: tuple[UnitPosition, ...]
    centres: Centres
    position: Position
    winner: str | None = None


@dataclass(frozen=True)
class TextOutcome:
    """A phase adjudicated, in DAIDE text: THX notes, ORD messages, the next NOW and SCO.

    ``slo`` is the SLO message (``SLO ( FRA )``) when the phase ends the game
    with a solo, else None.
    """

    thx: list[tuple[str, str]]
    ord: list[str]
    now: str
    sco: str
    slo: str | None = None

    def as_dict(self) -> dict[str, object]:
        """A JSON-ready dictionary (``slo`` is null unless the game was won)."""
        return {
            "thx": [list(t) for t in self.thx],
            "ord": self.ord,
            "now": self.now,
            "sco": self.sco,
            "slo": self.slo,
        }


def adjudicate_phase(
    position: Position,
    orders: Sequence[Order],
    rule: CivilDisorderRule = DEFAULT_CIVIL_DISORDER,
) -> PhaseOutcome:
    """Submit ``orders`` (each by its own power) to ``position`` and adjudicate the phase.

    ``rule`` is the server's way of choosing civil-disorder removals.
    """
    book = OrderBook(position)
    verdicts = tuple((order, book.submit(order_power(order), order)) for order in orders)
    turn = position.turn
    if position.is_movement:
        moved = adjudicate_movement(position, book.unit_orders())
        results = _movement_results(position, turn, moved)
        nxt = moved.position
    elif position.is_retreat:
        retreated = adjudicate_retreats(position, book.unit_orders())
        results = tuple(
            OrderResult(
                turn,
                retreat_value(position, p, retreated.orders[p]),
                (RESULT_TOKENS[retreated.results[p]],),
            )
            for p in sorted(retreated.orders)
        )
        nxt = retreated.position
    else:
        adjusted = adjudicate_adjustments(position, book.adjustment_orders(), rule)
        results = tuple(
            OrderResult(
                turn,
                adjustment_value(position, power, order),
                ("FLD",) if result == FAILED else (RESULT_TOKENS[result],),
            )
            for power, order, result in adjusted.outcomes
        )
        nxt = adjusted.position
    winner = None
    if position.season in (FALL, AUTUMN) and (nxt.season == WINTER or nxt.year > position.year):
        # Centres changed hands on entering winter: has someone just won?
        power = solo_winner(nxt, position.centre_counts())
        if power >= 0:
            winner = nxt.map.powers[power]
            nxt.season, nxt.year = WINTER, position.year  # the game ends in this winter
    return PhaseOutcome(
        verdicts, results, nxt.turn, nxt.unit_positions(), nxt.centres(), nxt, winner
    )


def _movement_results(pos: Position, turn: Turn, moved: MovementResult) -> tuple[OrderResult, ...]:
    m = pos.map
    out = []
    for p in sorted(pos.units, key=lambda p: (pos.units[p][0], m.provinces[p])):
        order = moved.orders[p]
        value = movement_value(pos, p, order, moved.routes.get(p))
        if p in moved.dislodged:
            tokens = ("RET",) if order[0] == HOLD else (RESULT_TOKENS[moved.results[p]], "RET")
        else:
            tokens = (RESULT_TOKENS[moved.results[p]],)
        out.append(OrderResult(turn, value, tokens))
    return tuple(out)


# --- text -------------------------------------------------------------------------------


def _body(text: str, command: str) -> str:
    """``text`` without a leading ``command`` token, so a whole message or its body both work."""
    stripped = text.strip()
    if stripped[:3].upper() == command and (len(stripped) == 3 or not stripped[3].isalnum()):
        return stripped[3:]
    return stripped


def load_position(now: str, sco: str, game_map: GameMap | None = None) -> Position:
    """A position from NOW and SCO text (whole messages or their bodies), on ``game_map``.

    The text names the map's powers and provinces (the standard map's when no
    map is given).  Raises :class:`NotationError` if the text does not parse or
    does not fit the map.
    """
    game_map = game_map or standard_map()
    table = text_table(game_map)
    try:
        expression = parse_expression(_body(now, "NOW"), table)
        if not expression or not isinstance(expression[0], tuple):
            raise NotationError("NOW must start with the turn, e.g. ( SPR 1901 )")
        turn = parse_turn(format_expression((expression[0],)), table)
        units = parse_unit_positions(format_expression(expression[1:]), table)
    except ProtocolError as exc:
        raise NotationError(f"NOW: {exc}") from exc
    try:
        centres = parse_centres(_body(sco, "SCO"), table)
    except ProtocolError as exc:
        raise NotationError(f"SCO: {exc}") from exc
    try:
        return Position.from_values(game_map, turn, units, centres)
    except PositionError as exc:
        raise NotationError(str(exc)) from exc


def text_table(game_map: GameMap) -> TokenTable:
    """A token table that reads and writes the text of ``game_map``'s powers and provinces."""
    return TokenTable.of_names(game_map.powers, game_map.provinces)


def adjudicate_text(
    now: str, sco: str, orders: Sequence[str], game_map: GameMap | None = None
) -> TextOutcome:
    """Adjudicate one phase given in DAIDE text; see the module docstring for an example."""
    position = load_position(now, sco, game_map)
    table = text_table(position.map)
    parsed = []
    for text in orders:
        try:
            parsed.append(parse_order(_body(text, "SUB"), table))
        except ProtocolError as exc:
            raise NotationError(f"order {text!r}: {exc}") from exc
    outcome = adjudicate_phase(position, parsed)
    thx = [(format_order(order, table), note) for order, note in outcome.verdicts]
    turn = format_turn(outcome.turn, table)
    ords = [
        f"ORD ( {format_turn(r.turn, table)} ) ( {format_order(r.order, table)} ) "
        f"( {' '.join(r.result)} )"
        for r in outcome.results
    ]
    units = " ".join(f"( {format_unit_position(u, table)} )" for u in outcome.units)
    now_text = f"NOW ( {turn} ) {units}".rstrip()
    sco_text = f"SCO {format_centres(outcome.centres, table)}"
    slo = None if outcome.winner is None else f"SLO ( {outcome.winner} )"
    return TextOutcome(thx, ords, now_text, sco_text, slo)


__all__ = [
    "PhaseOutcome",
    "TextOutcome",
    "adjudicate_phase",
    "adjudicate_text",
    "load_position",
]
