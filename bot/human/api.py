"""The seat's JSON API as typed models: every request the page sends and every answer it gets.

Requests (:class:`CheckRequest`, :class:`OrdersRequest`, :class:`ReadyRequest`,
:class:`TurnRequest`, :class:`DrawRequest`) are strict: the fields each
names and no others, of exactly their JSON types, strings and lists bounded.
:func:`read_request` turns a request body into one of them or a
:class:`BadRequest` (400) whose message is one line naming the first field at
fault; a body over :data:`MAX_BODY` bytes is :class:`TooLarge` (413).

Answers are :class:`CheckAnswer`, :class:`Done` and :class:`Sent`; what the page
shows is one :class:`SeatState`, and the event stream's later events are
:class:`SeatChange` (the top-level parts that changed, the game's phases that
changed).  The drawings of units and orders (``unit_json``/``order_json`` of
:mod:`bot.view.timeline`) and the game (:meth:`bot.view.timeline.Timeline.to_json`)
are the viewer's JSON, which its page and this one draw alike: they are carried
as plain JSON objects here.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from bot.human.ordertext import MAX_TEXT
from bot.human.ranked_hint import RankedHint

MAX_BODY = 16_384
"""The largest request body read (a full set of orders is well under 2 kB)."""

MAX_ORDERS = 40
"""The most orders one request may carry (a power has at most 17 units on the standard map)."""

MAX_ORDER_TEXT = MAX_TEXT
"""The longest order text taken (as :mod:`bot.human.ordertext` reads; a real order is shorter)."""

MAX_TURN_TEXT = 16
"""The longest phase name taken (``SPR 1901`` is 8 characters)."""

MAX_REASON = 200
"""The most characters of a refusal's one line."""

Json = dict[str, Any]
"""A JSON object of the viewer's drawing (a unit, an order, the game)."""

TurnText = Annotated[str, Field(min_length=1, max_length=MAX_TURN_TEXT)]
OrderText = Annotated[str, Field(max_length=MAX_ORDER_TEXT)]


class BadRequest(ValueError):
    """A request the seat refuses (400), with a one-line reason."""

    status = 400


class TooLarge(BadRequest):
    """A request body over :data:`MAX_BODY` bytes (413)."""

    status = 413


# --- requests -------------------------------------------------------------------------------


class SeatRequest(BaseModel):
    """A request's body: only the fields named, of exactly their JSON types."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class TurnRequest(SeatRequest):
    """A request for one phase (``POST /api/hint``): it must be the one being played."""

    turn: TurnText


MIN_HINT_SECONDS = 0.5
MAX_HINT_SECONDS = 30.0
"""Bounds of the think time a person may ask a hint for."""


class HintRequest(TurnRequest):
    """``POST /api/hint``: ask what the bot would play, thinking ``seconds`` (None: the default)."""

    seconds: Annotated[float, Field(ge=MIN_HINT_SECONDS, le=MAX_HINT_SECONDS)] | None = None


class CheckRequest(TurnRequest):
    """``POST /api/check``: one typed order, read and checked."""

    text: OrderText


class OrdersRequest(TurnRequest):
    """``POST /api/draft`` and ``POST /api/submit``: a set of order texts."""

    orders: Annotated[list[OrderText], Field(max_length=MAX_ORDERS)]


class ReadyRequest(TurnRequest):
    """``POST /api/ready``: done (GOF) or not (NOT (GOF))."""

    ready: bool


class DrawRequest(SeatRequest):
    """``POST /api/draw``: an empty object (or no body)."""


R = TypeVar("R", bound=SeatRequest)


def read_request(raw: bytes, model: type[R]) -> R:
    """``raw`` (a request's body; empty reads as ``{}``) as a ``model``; BadRequest otherwise."""
    if len(raw) > MAX_BODY:
        raise TooLarge(f"the request is larger than {MAX_BODY} bytes")
    try:
        return model.model_validate_json(raw or b"{}")
    except ValidationError as exc:
        raise BadRequest(reason(exc)) from None


def reason(exc: ValidationError) -> str:
    """The first error of ``exc`` in one line: where (the field) and what is wrong."""
    first = exc.errors(include_url=False, include_input=False)[0]
    where = ".".join(str(part) for part in first["loc"])
    message = first["msg"]
    if first["type"] == "extra_forbidden":
        message = "this request takes no such field"
    elif first["type"] == "missing":
        message = "missing"
    line = f"{where}: {message}" if where else f"the request: {message}"
    line = " ".join(line.split())
    return line if len(line) <= MAX_REASON else line[: MAX_REASON - 3] + "..."


# --- answers --------------------------------------------------------------------------------


class Answer(BaseModel):
    """Something the seat says to the page."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class Done(Answer):
    """A request carried out."""

    ok: Literal[True] = True


class Sent(Done):
    """``POST /api/submit``: the set sent, in the usual notation."""

    orders: list[str]


class CheckAnswer(Answer):
    """``POST /api/check``: the order read, its unit's key, its text as the menus spell it."""

    key: str
    text: str
    draw: Json


# --- the state ------------------------------------------------------------------------------


class Limits(Answer):
    """The game's time limits in seconds, from HLO (None: no limit)."""

    move: int | None
    retreat: int | None
    build: int | None


class SeatInfo(Answer):
    """Who the seat is and how the game stands: power, name, server, joined, over, result."""

    power: str | None
    name: str
    server: str
    joined: bool = False
    over: bool = False
    result: str | None = None
    limits: Limits | None = None


class ResultRow(Answer):
    """One power's line of the result table (as ``daide-mcts game`` prints it)."""

    power: str
    name: str
    version: str
    centres: int
    eliminated: int | None
    solo: bool
    points: float
    rank: float


class HintView(Answer):
    """The bot's hint for the phase: its orders (as the menus spell them), drawn; or why none."""

    orders: list[str]
    draw: list[Json | None] = Field(default_factory=list)
    error: str | None = None
    pending: bool = True
    ranked: RankedHint | None = None
    """The search's best sets and each unit's spread (movement phases)."""


class DeskView(Answer):
    """What the seat's desk holds for the phase: the person's orders and the server's answers."""

    draft: list[str]
    submitted: list[str] | None
    answers: dict[str, str]
    missing: str | None
    refused: str | None
    ready: bool
    draw: bool
    hint: HintView | None


class ChoiceView(Answer):
    """One legal order: its text and its drawing."""

    text: str
    draw: Json


class OptionView(Answer):
    """A unit's (or a build site's, or ``WVE``'s) legal orders."""

    key: str
    unit: Json | None
    orders: list[ChoiceView]


class ChoicesView(Answer):
    """The phase's legal orders per unit: the kind of phase and the builds due (<0: removals)."""

    kind: str
    due: int
    options: list[OptionView]


class PhaseView(DeskView):
    """The phase being played as the page shows it."""

    turn: str
    power: str
    units: list[Json]
    choices: ChoicesView


class SeatState(Answer):
    """Everything the page shows (``GET /api/state``, the stream's first event)."""

    version: int
    map: str
    info: SeatInfo
    seconds_left: float | None
    game: Json
    summary: list[ResultRow]
    phase: PhaseView | None


class GameChange(Answer):
    """The game's change: its version, its phase count, the phases that changed, its meta."""

    version: int
    count: int
    phases: dict[str, Json]
    meta: Json


class SeatChange(Answer):
    """A later event of the stream: the version, the clock, and only the parts that changed.

    Dumped with ``exclude_unset``: a part not in the event did not change
    (``phase`` given as null means the phase is over).
    """

    version: int
    seconds_left: float | None
    map: str | None = None
    info: SeatInfo | None = None
    game: GameChange | None = None
    summary: list[ResultRow] | None = None
    phase: PhaseView | None = None
