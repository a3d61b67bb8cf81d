"""The telemetry events a bot publishes, as pydantic models: the MQTT payload schemas.

Each event is one JSON object published to ``<prefix>/<game>/<power>/<event>``.
Every event carries the envelope of :class:`Event`; the event-specific fields
follow.  The events of one game, in the order a bot sends them::

    connected        TCP connection to the DAIDE server opened (again after a loss)
    joined           HLO: our power, the map, the deadlines
    phase_started    NOW: a new phase, and how long until its deadline
    orders_submitted SUB sent: the orders and the margin left to the deadline
    search_stats     the search reported an order set (anytime improvements, then final)
    order_result     ORD: one adjudicated order of the phase just played
    centres          SCO: supply-centre ownership
    disconnected     the DAIDE connection was lost; the bot will reconnect
    game_over        the game ended (DRW/SLO, SMR, OFF): the bot's summary

``<game>`` is the ``--game-id`` given to the bot (``DAIDE_MCTS_GAME_ID``), or
else the DAIDE server's ``host:port``, so that the bots of one game agree on
it without being told.  ``<power>`` is the power's token (``ENG``...), or
``unassigned`` before HLO.  Unknown fields are ignored when
reading, so an older watcher can read a newer bot's events.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, TypeAdapter, ValidationError

from adjudicator.position import SEASON_INDEX
from protocol.daide_errors import ProtocolError
from protocol.notation import order_text
from protocol.values import Season

Phase = Literal["movement", "retreat", "adjustment"]

UNASSIGNED = "unassigned"
"""The ``<power>`` topic level before the server has told us our power."""

JsonScalar = str | int | float | bool | None


def _as_text(value: object) -> object:
    return value if value is None or isinstance(value, str) else str(value)


TurnText = Annotated[str, BeforeValidator(_as_text)]
"""A turn as text, e.g. ``SPR 1901`` (a :class:`~protocol.values.Turn` is converted)."""


def _order_as_text(value: object) -> object:
    """An order value in DAIDE text with its own names; text as it is; the rest left to refuse."""
    if isinstance(value, str):
        return value
    try:
        return order_text(value)  # type: ignore[arg-type]
    except (ProtocolError, ValueError, TypeError, AttributeError):
        return value


OrderText = Annotated[str, BeforeValidator(_order_as_text)]
"""An order as DAIDE text (an order value is written with the names it holds)."""


class Event(BaseModel):
    """The envelope every event carries."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    event: str
    game: str = Field(description="the game: --game-id, or the DAIDE server's host:port")
    power: str | None = Field(description="our power's token; None before HLO")
    name: str = Field(description="the bot's name (as sent in NME)")
    run: str = Field(description="identifies one bot process (random hex)")
    seq: int = Field(ge=1, description="this run's event number: 1, 2, 3... (gaps mean drops)")
    time: float = Field(description="when the event happened, Unix seconds")
    dropped: int = Field(0, ge=0, description="events this run has dropped so far (queue full)")


class Connected(Event):
    """The bot opened a TCP connection to the DAIDE server (``rejoin``: after a loss)."""

    event: Literal["connected"] = "connected"
    host: str
    port: int
    rejoin: bool = False


class Joined(Event):
    """HLO arrived: the game started for us (or we rejoined it)."""

    event: Literal["joined"] = "joined"
    map: str
    move_time_limit: int | None = Field(None, description="seconds, None when unlimited")
    retreat_time_limit: int | None = None
    build_time_limit: int | None = None


class PhaseStarted(Event):
    """NOW arrived: a new phase to play."""

    event: Literal["phase_started"] = "phase_started"
    turn: TurnText = Field(description="e.g. 'SPR 1901'")
    phase: Phase
    deadline_in: float | None = Field(
        None, description="seconds until the deadline as the bot reckons it; None without one"
    )


class OrdersSubmitted(Event):
    """The bot sent SUB."""

    event: Literal["orders_submitted"] = "orders_submitted"
    turn: TurnText | None
    orders: list[OrderText] = Field(description="the orders in DAIDE text")
    margin: float | None = Field(
        None, description="seconds left before the deadline when sent; None without a deadline"
    )


class SearchStats(Event):
    """The search reported an order set for a movement phase."""

    event: Literal["search_stats"] = "search_stats"
    turn: TurnText
    final: bool = Field(description="True for the search's last report of the phase")
    strategy: str | None = None
    iterations: int | None = Field(None, description="search iterations so far (MCTS)")
    seconds: float | None = Field(None, description="seconds the search has run")
    stats: dict[str, JsonScalar] = Field(
        default_factory=dict, description="everything else the search reported"
    )


class OrderResult(Event):
    """One ORD line: an order of the phase just adjudicated and its result."""

    event: Literal["order_result"] = "order_result"
    turn: TurnText
    order: OrderText
    result: list[str] = Field(description="DAIDE result tokens, e.g. ['SUC'] or ['BNC', 'RET']")


class Centres(Event):
    """SCO arrived: how many supply centres each power owns (``UNO``: neutral)."""

    event: Literal["centres"] = "centres"
    counts: dict[str, int]


class Disconnected(Event):
    """The DAIDE connection was lost; the bot retries after ``retry_in`` seconds."""

    event: Literal["disconnected"] = "disconnected"
    reason: str
    retry_in: float


class GameOver(Event):
    """The game ended; the bot's summary of it (what ``daide-mcts play`` prints)."""

    event: Literal["game_over"] = "game_over"
    result: str | None = Field(None, description="the DRW or SLO message, if one came")
    smr: str | None = None
    centres: int | None = Field(None, description="our centres at the end (from SMR)")
    ended_cleanly: bool
    phases_played: int = 0
    submissions: int = 0
    refused_orders: int = 0
    missed_deadlines: int = 0
    reconnections: int = 0
    bad_messages: int = 0
    shadow_checked: int = 0
    shadow_mismatches: int = 0
    margins: list[float] = Field(default_factory=list, description="every submission's margin")


AnyEvent = Annotated[
    Connected
    | Joined
    | PhaseStarted
    | OrdersSubmitted
    | SearchStats
    | OrderResult
    | Centres
    | Disconnected
    | GameOver,
    Field(discriminator="event"),
]
"""Any one event, told apart by its ``event`` field."""

EVENT_TYPES: dict[str, type[Event]] = {
    cls.model_fields["event"].default: cls
    for cls in (
        Connected,
        Joined,
        PhaseStarted,
        OrdersSubmitted,
        SearchStats,
        OrderResult,
        Centres,
        Disconnected,
        GameOver,
    )
}
"""Every event class by its name (the last topic level)."""

_ADAPTER: TypeAdapter[Any] = TypeAdapter(AnyEvent)


class BadEventError(ValueError):
    """A payload that is not a valid telemetry event; the message says why."""


def parse_event(payload: bytes | str) -> Event:
    """The event a JSON payload holds; :class:`BadEventError` if it is not a valid one."""
    try:
        event: Event = _ADAPTER.validate_json(payload)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc']) or 'payload'}: {err['msg']}"
            for err in exc.errors()[:5]
        )
        raise BadEventError(problems) from None
    return event


def phase_of(season: str) -> Phase:
    """The kind of phase a DAIDE season token names (SPR/FAL movement, SUM/AUT retreat, WIN)."""
    return SEASON_INDEX[Season(season)].kind.value


def event_schemas() -> dict[str, Any]:
    """The JSON Schema of every event, by event name (for documentation and other tools)."""
    return {name: cls.model_json_schema() for name, cls in EVENT_TYPES.items()}
