"""A recorded game as MILA's saved game (``to_saved_game_format``), and a saved game read back.

:func:`mila_game` replays a run folder's record (a
:class:`~bot.view.timeline.Timeline`, read by :func:`bot.view.sources.load_run`)
in MILA's own engine: phase by phase, the recorded ORD orders are translated
to MILA's notation (:mod:`bot.interchange.mila_notation`), set and processed,
and before each phase MILA's position (phase, units, dislodged units, supply
centres) is checked against the record; :func:`saved_game` turns that game into
the dictionary ``diplomacy.utils.export.to_saved_game_format`` writes, which
``from_saved_game_format`` and ``load_saved_games_from_disk`` read back (one
JSON object on one line). So an exported game is one MILA itself has played.

:func:`read_saved_games` reads a MILA saved game (a JSON object, or a ``.jsonl``
file of them, one a line) into our values, :class:`MilaGame` and
:class:`MilaPhase`, without MILA's package.

MILA's ``diplomacy`` package is the optional extra ``mila``; it is imported by
the functions that need it.  Only the standard map is known to MILA's engine.
"""

from __future__ import annotations

import contextlib
import io
from collections import defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, Field

from adjudicator.standard import standard_definition
from bot.interchange.exchange_errors import (
    NotAMilaGameError,
    NotStandardMapError,
    ReplayMismatchError,
)
from bot.interchange.mila_notation import (
    WAIVE,
    daide_location,
    daide_order,
    daide_power,
    daide_province,
    daide_results,
    daide_unit,
    mila_order,
    mila_phase,
    mila_power,
    mila_province,
    mila_unit,
    turn_of_phase,
)
from bot.toolkit.jsonfiles import (
    MAX_JSON_BYTES,
    CorruptJSON,
    UnreadableFile,
    check_shape,
    json_value,
    read_text,
)
from bot.view.timeline import Phase, Timeline
from protocol.values import (
    Disband,
    OrderResult,
    Turn,
    Unit,
    UnitPosition,
    Waive,
    order_power,
)

if TYPE_CHECKING:
    from diplomacy import Game

MILA_MAP = "standard"
"""The one map of MILA's we export to: the standard map."""

MILA_RULES = ("NO_PRESS",)
"""The rules an exported game carries: a no-press game (our games have no press)."""

DISLODGED = "*"
"""MILA's mark of a dislodged unit in a retreat phase's units (``*A BUL``)."""

CONVOY_WORDS = 7
"""The words of a convoy order in MILA's notation: ``F NTH C A YOR - NWY``."""

PHASES_NOT_PLAYED = ("FORMING", "COMPLETED")
"""MILA's names of a phase before the game and after it: no position of their own."""


# --- export --------------------------------------------------------------------------------


def mila_game(timeline: Timeline, game_id: str) -> Game:
    """The recorded game replayed by MILA's engine; ExchangeError if it cannot be.

    NotStandardMapError for a game on a variant map; ReplayMismatchError (naming
    the phase) if MILA refuses a recorded order or reaches another position
    than the record's.  Needs MILA's package (ImportError otherwise).
    """
    from diplomacy import Game

    if timeline.definition is not None and timeline.definition != standard_definition():
        raise NotStandardMapError(
            "the game is not on the standard map: MILA's engine plays only its own maps"
        )
    if not timeline.phases:
        raise ReplayMismatchError("the record holds no phase to export")
    game = Game(game_id=game_id, map_name=MILA_MAP, rules=list(MILA_RULES))
    last = timeline.phases[-1]
    unheard: set[str] = set()
    for phase in timeline.phases:
        if game.get_current_phase() != mila_phase(phase.turn) and _has_no_choice(phase):
            continue  # MILA disbands such units itself and has no such phase
        trapped = _trapped(phase)
        units = [u for u in phase.units if u.unit not in trapped]
        try:
            _check_position(game, phase.turn, units, phase.centres)
        except ReplayMismatchError as exc:
            if not unheard:
                raise
            raise ReplayMismatchError(
                f"{exc}; the record lacks the orders of {', '.join(sorted(unheard))} "
                "(a game on MILA's DAIDE server records only one player's)"
            ) from None
        if phase is last and not phase.orders:
            break  # the phase the game ended in, not played
        if phase.turn.season.is_movement:
            unheard |= {u.unit.power for u in units} - {
                order_power(entry.order) for entry, _text in phase.orders
            }
        _set_orders(game, phase, trapped)
        _quietly(game.process, phase.turn)
    if last.orders:  # the record ends with an adjudicated phase: check its outcome
        _check_centres(game, turn_of_phase(game.get_current_phase()), timeline.centres)
    return game


def _trapped(phase: Phase) -> set[Unit]:
    """The dislodged units of a retreat phase with nowhere to go: MILA disbands them itself.

    DAIDE's servers list them (``MRT ( )``) and record their disbands; MILA's engine
    removes them as it dislodges them, and plays no retreat phase for them alone.
    """
    return {u.unit for u in phase.units if u.retreats is not None and not u.retreats}


def _has_no_choice(phase: Phase) -> bool:
    """A phase MILA's engine does not play: nothing in it can change the position.

    A retreat phase whose dislodged units all have nowhere to go, or a winter in
    which nobody builds or removes (the record may show one where the game ended).
    """
    if phase.turn.season.is_retreat:
        return all(not u.retreats for u in phase.units if u.dislodged)
    return phase.turn.season.is_adjustment and all(
        isinstance(entry.order, Waive) for entry, _text in phase.orders
    )


def saved_game(game: Game) -> dict[str, Any]:
    """MILA's saved-game dictionary of ``game`` (``to_saved_game_format``), JSON-ready."""
    from diplomacy.utils.export import to_saved_game_format

    return dict(to_saved_game_format(game))


def _quietly(call: Any, turn: Turn, *args: Any) -> Any:
    """A call into MILA's engine, its printed notes kept off our output; its failure ours."""
    with contextlib.redirect_stdout(io.StringIO()):
        try:
            return call(*args)
        except Exception as exc:  # MILA's engine fails with anything (IndexError, KeyError)
            raise ReplayMismatchError(f"at {turn}: MILA's engine failed: {exc!r}") from None


def _set_orders(game: Game, phase: Phase, trapped: set[Unit]) -> None:
    by_power: dict[str, list[str]] = defaultdict(list)
    for entry, _text in phase.orders:
        if isinstance(entry.order, Disband) and entry.order.unit in trapped:
            continue  # MILA's engine has disbanded it already
        by_power[mila_power(order_power(entry.order))].append(mila_order(entry.order))
    for power, orders in sorted(by_power.items()):
        _quietly(game.set_orders, phase.turn, power, orders)
        taken = set(game.get_orders(power))
        # MILA keeps a waive to itself: its record of a winter's orders never shows one
        refused = [o for o in orders if o not in taken and o != WAIVE]
        if refused:
            raise ReplayMismatchError(
                f"at {phase.turn}: MILA's engine refuses {power}'s order {refused[0]!r}"
            )


def _mila_units(units: Sequence[UnitPosition]) -> dict[str, set[str]]:
    out: dict[str, set[str]] = defaultdict(set)
    for position in units:
        mark = DISLODGED if position.dislodged else ""
        out[mila_power(position.unit.power)].add(mark + mila_unit(position.unit))
    return out


def _check_position(
    game: Game, turn: Turn, units: Sequence[UnitPosition], centres: dict[str, tuple[str, ...]]
) -> None:
    name = mila_phase(turn)
    if game.get_current_phase() != name:
        raise ReplayMismatchError(
            f"the record is at {turn} ({name}) where MILA's engine is at {game.get_current_phase()}"
        )
    expected = _mila_units(units)
    for power, found in sorted(game.get_units().items()):
        if set(found) != expected.get(power, set()):
            missing = sorted(expected.get(power, set()) - set(found))
            extra = sorted(set(found) - expected.get(power, set()))
            raise ReplayMismatchError(
                f"at {turn}: MILA's engine has {power} with {', '.join(extra) or 'no more'} "
                f"where the record has {', '.join(missing) or 'no more'}"
            )
    _check_centres(game, turn, centres)


def _check_centres(game: Game, turn: Turn, centres: dict[str, tuple[str, ...]]) -> None:
    for power, found in sorted(game.get_centers().items()):
        recorded = {mila_province(c) for c in centres.get(daide_power(power), ())}
        if set(found) != recorded:
            raise ReplayMismatchError(
                f"at {turn}: MILA's engine gives {power} the centres "
                f"{' '.join(sorted(found)) or 'none'} where the record has "
                f"{' '.join(sorted(recorded)) or 'none'}"
            )


# --- import --------------------------------------------------------------------------------


@dataclass(frozen=True)
class MilaPhase:
    """One phase of a MILA saved game in our values: the position, and the orders with results.

    ``centres`` maps each power (DAIDE token) with at least one supply centre to
    its centres; ``orders`` hold DAIDE's result tokens as far as MILA's results
    tell them (see :data:`bot.interchange.mila_notation.MILA_RESULTS`).
    """

    name: str
    turn: Turn
    units: tuple[UnitPosition, ...]
    centres: dict[str, tuple[str, ...]]
    orders: tuple[OrderResult, ...]


@dataclass(frozen=True)
class MilaGame:
    """A MILA saved game in our values: its id and its phases in order."""

    game_id: str
    phases: tuple[MilaPhase, ...]


class _State(BaseModel):
    """The part of a MILA phase's state read back: units, retreat options, centres."""

    units: dict[str, list[str]]
    retreats: dict[str, dict[str, list[str]]] = Field(default_factory=dict)
    centers: dict[str, list[str]]


class _Phase(BaseModel):
    """A MILA phase as saved: its name, state, orders per power and results per unit."""

    name: str
    state: _State
    orders: dict[str, list[str] | None] = Field(default_factory=dict)
    results: dict[str, list[str]] = Field(default_factory=dict)


class _SavedGame(BaseModel):
    """MILA's saved game as ``to_saved_game_format`` writes it (the fields read back)."""

    id: str | None = None
    map: str = MILA_MAP
    phases: list[_Phase]


def read_saved_games(path: Path) -> list[MilaGame]:
    """Every game of a MILA saved-game file (one JSON object, or one a line) in our values.

    NotAMilaGameError (naming the file, in one line) if the file is unreadable
    or holds no saved game; NotStandardMapError for a game on another map.
    """
    try:
        text = read_text(path, MAX_JSON_BYTES)
        if not text.strip():
            raise NotAMilaGameError(f"{path}: empty, not a MILA saved game")
        values = list(_json_values(text))
    except UnreadableFile as exc:
        raise NotAMilaGameError(str(exc) if str(path) in str(exc) else f"{path}: {exc}") from None
    games = []
    for number, value in enumerate(values, 1):
        where = f"{path}" if len(values) == 1 else f"{path}: game {number}"
        try:
            games.append(game_values(value))
        except NotStandardMapError as exc:
            raise NotStandardMapError(f"{where}: {exc}") from None
        except NotAMilaGameError as exc:
            raise NotAMilaGameError(f"{where}: {exc}") from None
    return games


def _json_values(text: str) -> Iterator[Any]:
    try:
        yield json_value(text)
        return
    except CorruptJSON:
        lines = [line for line in text.splitlines() if line.strip()]
        if len(lines) < 2:
            raise
    for number, line in enumerate(lines, 1):
        try:
            yield json_value(line)
        except CorruptJSON as exc:
            raise CorruptJSON(f"line {number}: {exc}") from None


def game_values(data: object) -> MilaGame:
    """One saved game (the dictionary ``to_saved_game_format`` gives) in our values.

    NotAMilaGameError if it does not have a saved game's shape or names what the
    standard map does not have; NotStandardMapError for a game on another map.
    """
    try:
        saved = check_shape(data, _SavedGame)
    except CorruptJSON as exc:
        raise NotAMilaGameError(f"not a MILA saved game: {exc}") from None
    if saved.map != MILA_MAP:
        raise NotStandardMapError(
            f"a game on MILA's map {saved.map!r}: only the standard map is read"
        )
    phases = tuple(
        _phase_values(phase) for phase in saved.phases if phase.name not in PHASES_NOT_PLAYED
    )
    if not phases:
        raise NotAMilaGameError("not a MILA saved game: it has no phase")
    return MilaGame(saved.id or "", phases)


def _phase_values(phase: _Phase) -> MilaPhase:
    turn = turn_of_phase(phase.name)
    units: list[UnitPosition] = []
    board: dict[str, Unit] = {}
    for name, texts in sorted(phase.state.units.items()):
        power = daide_power(name)
        options = phase.state.retreats.get(name, {})
        for text in texts:
            dislodged = text.startswith(DISLODGED)
            unit = daide_unit(text.removeprefix(DISLODGED), power)
            if dislodged:
                where = options.get(text.removeprefix(DISLODGED), [])
                units.append(UnitPosition(unit, tuple(daide_location(w) for w in where)))
                board.setdefault(unit.province, unit)
            else:
                units.append(UnitPosition(unit))
                board[unit.province] = unit
    centres = {
        daide_power(name): tuple(daide_province(c) for c in owned)
        for name, owned in sorted(phase.state.centers.items())
        if owned
    }
    convoys: dict[tuple[str, str], list[str]] = defaultdict(list)
    for given in phase.orders.values():
        for text in given or ():
            words = text.split()
            if len(words) == CONVOY_WORDS and words[2] == "C" and words[5] == "-":
                army = daide_location(words[4]).province
                to = daide_location(words[6]).province
                convoys[(army, to)].append(daide_location(words[1]).province)
    paths = {key: tuple(fleets) for key, fleets in convoys.items()}
    orders = []
    for name, given in sorted(phase.orders.items()):
        power = daide_power(name)
        for text in given or ():
            order = daide_order(text, power, turn.season, board, paths)
            key = "" if isinstance(order, Waive) else _unit_key(text)
            orders.append(OrderResult(turn, order, daide_results(phase.results.get(key, []))))
    return MilaPhase(phase.name, turn, tuple(units), centres, tuple(orders))


def _unit_key(text: str) -> str:
    """The unit an order is for, as MILA keys its results (``A PAR``)."""
    return " ".join(text.split()[:2])
