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

from collections.abc import Sequence
from typing import Annotated, Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from bot.client.core.person import PersonChoices, PersonOrderError
from bot.human.ordertext import MAX_TEXT, OrderTextError, parse_order_text
from bot.human.ranked_hint import HintView
from protocol.values import Order

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

QUOTED = 40
"""Characters of a refused text quoted in the refusal's line."""

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


class TryRequest(OrdersRequest):
    """``POST /api/try``: a graded phase played again with these orders."""


class DrawRequest(SeatRequest):
    """``POST /api/draw``: an empty object (or no body)."""


# --- press (the press panel: bot.human.press_panel) ---

MAX_PRESS_TEXT = 2_000
"""The longest DAIDE press text taken (a real proposal is well under 200 characters)."""
MAX_NAMES = 40
"""The most powers or provinces one press form may name."""

Name = Annotated[str, Field(min_length=1, max_length=8)]
Names = Annotated[list[Name], Field(max_length=MAX_NAMES)]


class PeaceForm(SeatRequest):
    """Peace between ``powers`` (``PCE``)."""

    kind: Literal["peace"]
    powers: Names


class AllianceForm(SeatRequest):
    """An alliance of ``allies`` against ``enemies`` (``ALY ... VSS ...``)."""

    kind: Literal["alliance"]
    allies: Names
    enemies: Names


class DrawForm(SeatRequest):
    """A draw (``DRW``)."""

    kind: Literal["draw"]


class OrdersForm(SeatRequest):
    """Orders in the usual notation (each one ``XDO``; several: ``AND``), level 20."""

    kind: Literal["orders"]
    orders: Annotated[list[OrderText], Field(min_length=1, max_length=MAX_ORDERS)]


class ZoneForm(SeatRequest):
    """A demilitarised zone: ``powers`` keep out of ``provinces`` (``DMZ``), level 20."""

    kind: Literal["dmz"]
    powers: Names
    provinces: Names


class TextForm(SeatRequest):
    """Press typed as DAIDE text, e.g. ``PRP (PCE (ENG FRA))``."""

    kind: Literal["text"]
    text: Annotated[str, Field(max_length=MAX_PRESS_TEXT)]


PressForm = Annotated[
    PeaceForm | AllianceForm | DrawForm | OrdersForm | ZoneForm | TextForm,
    Field(discriminator="kind"),
]


class PressRequest(SeatRequest):
    """``POST /api/press``: press to ``to``; a menu's proposal, or DAIDE text."""

    to: Names
    press: PressForm


class PressAnswerRequest(SeatRequest):
    """``POST /api/press/answer``: YES (``yes``) or REJ to the proposal heard as line ``line``."""

    line: Annotated[int, Field(ge=0)]
    yes: bool


R = TypeVar("R", bound=SeatRequest)


def read_request(raw: bytes, model: type[R]) -> R:
    """``raw`` (a request's body; empty reads as ``{}``) as a ``model``; BadRequest otherwise."""
    if len(raw) > MAX_BODY:
        raise TooLarge(f"the request is larger than {MAX_BODY} bytes")
    try:
        return model.model_validate_json(raw or b"{}")
    except ValidationError as exc:
        raise BadRequest(reason(exc)) from None


def quoted(text: str, most: int = QUOTED) -> str:
    """``text`` quoted in a refusal's line: its first ``most`` characters ("..." if cut)."""
    return repr(text[:most] + ("..." if len(text) > most else ""))


def read_orders(texts: Sequence[str], choices: PersonChoices) -> list[Order]:
    """A request's typed orders as the set sent in the phase of ``choices``.

    Each text is read for the seat (:func:`~bot.human.ordertext.parse_order_text`)
    and the set is checked as the core checks it
    (:meth:`~bot.client.core.person.PersonChoices.accept`): a text that is no
    order of the seat's, or a set that is not legal, is a :class:`BadRequest`.
    """
    orders = []
    for text in texts:
        try:
            orders.append(parse_order_text(text, choices.position, choices.power))
        except OrderTextError as exc:
            raise BadRequest(f"{quoted(text)}: {exc}") from None
    try:
        return choices.accept(orders)
    except PersonOrderError as exc:
        raise BadRequest(str(exc)) from None


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


class PressSent(Done):
    """``POST /api/press`` and ``/api/press/answer``: the press sent, its text and its meaning."""

    text: str
    english: str


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


class PressLine(Answer):
    """One press message heard or sent: DAIDE text, plain English, and what became of it.

    ``way`` is ``in`` (heard) or ``out`` (sent); ``answerable`` marks a proposal
    heard that the person has not answered; ``answer`` is the person's answer to
    a proposal heard, ``answers`` each recipient's to one sent; ``note`` what
    the seat or the server did with it (not understood, refused).
    """

    line: int
    turn: str | None
    way: Literal["in", "out"]
    sender: str
    recipients: list[str]
    text: str
    english: str
    answerable: bool = False
    answer: str | None = None
    answers: dict[str, str] = Field(default_factory=dict)
    note: str | None = None


class AgreementLine(Answer):
    """An arrangement agreed with ``partner`` since ``since``."""

    partner: str
    text: str
    english: str
    since: str | None


class PressView(Answer):
    """The press panel: the game's level, whom one may write to, the messages, the agreements.

    ``kinds`` are the menus' proposals the level allows; ``refused`` the last
    reason a press of the person's was not sent.
    """

    level: int
    power: str | None
    powers: list[str]
    kinds: list[str]
    lines: list[PressLine]
    agreements: list[AgreementLine]
    refused: str | None = None


class GradeView(Answer):
    """One phase the person played, graded against the bot's choice (:mod:`search.grading`).

    ``played_centres`` and ``bot_centres`` are the centres each set is expected to
    lead to by the winter of ``horizon``; ``loss`` is their difference (the bot's
    minus the person's), ``low`` to ``high`` its 95% interval; ``label`` is good,
    inaccuracy, mistake or blunder.  ``better_draw`` draws the bot's set.
    """

    turn: str
    kind: str
    label: str
    played_centres: float
    bot_centres: float
    loss: float
    low: float
    high: float
    rollouts: int
    horizon: int
    centres: int
    played: list[str]
    better: list[str]
    better_draw: list[Json]
    same: bool


class CoachView(Answer):
    """The coach's grades so far (as ``daide-mcts review`` grades: seed and budget given).

    ``pending`` are the phases being graded, ``failed`` those that could not be
    (with why), ``costly`` the (at most three) phases that cost most, worst first.
    """

    power: str | None
    seed: int
    rollouts: int
    iterations: int
    years: int
    grades: list[GradeView]
    pending: list[str]
    failed: dict[str, str]
    costly: list[str]
    over: bool
    problem: str | None = None


class MomentView(Answer):
    """``GET /api/moment?turn=``: a graded phase to try again: its legal orders, what was played."""

    turn: str
    kind: str
    due: int
    options: dict[str, list[str]]
    played: list[str]


class ResultView(Answer):
    """One order of a phase with its result, as text and drawn."""

    text: str
    power: str
    outcome: str
    ok: bool
    draw: Json


class OutcomeView(Answer):
    """A phase's orders and results, and the person's centres, units, dislodged units after it."""

    results: list[ResultView]
    turn: str
    centres: int
    units: int
    dislodged: int


class TryAnswer(Answer):
    """``POST /api/try``: the phase with the person's new orders, beside what happened."""

    turn: str
    tried: OutcomeView
    happened: OutcomeView | None


class SeatState(Answer):
    """Everything the page shows (``GET /api/state``, the stream's first event)."""

    version: int
    map: str
    info: SeatInfo
    seconds_left: float | None
    game: Json
    summary: list[ResultRow]
    phase: PhaseView | None
    press: PressView | None = None
    coach: CoachView | None = None


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
    press: PressView | None = None
    coach: CoachView | None = None
