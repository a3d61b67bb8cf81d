"""The person's page and its JSON API: a starlette app that only its holder of the secret may use.

Routes (all but the page and its static files need the seat's secret, given
as the ``X-Seat-Key`` header or the ``key`` query parameter; a wrong or
missing one is 403):

``GET /``                   the page (``static/human.html``)
``GET /static/...``         its script and style
``GET /view/...``           the viewer's drawing (``mapdraw.js``) and style
``GET /api/map``            the picture of the game's map (:mod:`bot.view.mappicture`)
``GET /api/state?since=V``  the seat's state, a :class:`~bot.human.api.SeatState`
                            (204 if nothing changed after version V)
``GET /api/events``         the state as server-sent events: a ``state`` event (the
                            whole :class:`~bot.human.api.SeatState`) first, then a
                            ``change`` event (:class:`~bot.human.api.SeatChange`: the
                            parts that changed) each time the state changes
``POST /api/check``         :class:`~bot.human.api.CheckRequest`: one typed order read and checked
``POST /api/draft``         :class:`~bot.human.api.OrdersRequest`: the draft kept for a reload
``POST /api/submit``        :class:`~bot.human.api.OrdersRequest`: the set sent (SUB)
``POST /api/ready``         :class:`~bot.human.api.ReadyRequest`: GOF or NOT (GOF)
``POST /api/hint``          :class:`~bot.human.api.HintRequest`: ask what the bot would play
``POST /api/draw``          :class:`~bot.human.api.DrawRequest` (``{}``): propose a draw (DRW)
``POST /api/press``         :class:`~bot.human.api.PressRequest`: send press (SND), see
                            :mod:`bot.human.press_panel`
``POST /api/press/answer``  :class:`~bot.human.api.PressAnswerRequest`: YES or REJ to a proposal
``GET /api/moment``, ``POST /api/try``  the coach's "try again" (:mod:`bot.human.coachweb`)

Every request body is read as its model (:func:`bot.human.api.read_request`):
bad JSON, a wrong type, an unknown field, a list or string over its bound is
a 400 with one line (a body over the limit, 413).  Requests whose ``Host`` is
not this server's loopback address are refused by the viewer's
:class:`~bot.view.server.HostCheck` (400/421).  An order that does not parse,
is not the seat's, is illegal, or is for a phase other than the one being
played is a 400 with one line, and nothing is sent.

The state's version counts the changes the web app has seen: it grows when
what the page shows (all but the clock) differs from what it was.  The
stream wakes when the seat's desk changes or the seat says something changed
(:meth:`SeatApp.changed`), and every :data:`KEEPALIVE` seconds besides.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, Protocol

from sse_starlette.sse import EventSourceResponse
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from bot.client.core.person import PersonChoices, PersonOrderError, order_subject
from bot.human.api import (
    MAX_BODY,
    BadRequest,
    CheckAnswer,
    CheckRequest,
    ChoicesView,
    ChoiceView,
    Done,
    DrawRequest,
    GameChange,
    HintRequest,
    OptionView,
    OrdersRequest,
    PhaseView,
    R,
    ReadyRequest,
    SeatChange,
    SeatInfo,
    SeatState,
    Sent,
    TooLarge,
    quoted,
    read_orders,
    read_request,
)
from bot.human.coaching import SeatCoach
from bot.human.coachweb import CoachWeb
from bot.human.desk import SeatDesk
from bot.human.ordertext import OrderTextError, chosen_order
from bot.human.page_key import key_guard
from bot.human.press_panel import PressPanel
from bot.toolkit.order_words import format_order_text
from bot.view.mapfacts import PictureError, map_key
from bot.view.mappicture import picture_json
from bot.view.server import STATIC as VIEW_STATIC
from bot.view.server import (
    BadParameter,
    HostCheck,
    StreamBell,
    allowed_hosts,
    version_parameter,
    wait_rung,
)
from bot.view.timeline import order_json, unit_json
from protocol.values import MapDefinition, Order, Turn

STATIC = Path(__file__).resolve().parent / "static"

KEY_HEADER = "x-seat-key"

HINT_SECONDS = 3.0
"""How long the search thinks for a hint."""

KEEPALIVE = 15.0
"""Seconds between two looks at the state (and keep-alive comments) on an idle stream."""

SETTLE = 0.05
"""Seconds a woken stream waits for a burst of changes to end before it looks."""

VOLATILE = frozenset({"version", "seconds_left"})
"""Parts of the state that are not a change of it (the clock runs on by itself)."""

NO_STORE = {"Cache-Control": "no-store"}

Snapshot = dict[str, Any]
"""A state dumped to JSON values, as the page receives it."""


class SeatControl(Protocol):
    """What the web app asks of the seat (the client's core, in the same event loop)."""

    def current(self) -> PersonChoices | None:
        """The phase being played: the seat's legal orders in it, its position and power.

        None between phases.
        """

    def seconds_left(self) -> float | None:
        """Seconds to the phase's deadline, if the server set one."""

    def info(self) -> SeatInfo:
        """What else the page shows: the power, the server, the deadlines, the connection."""

    def submit(self, turn: Turn, orders: list[Order]) -> None:
        """Send ``orders`` as the seat's set for ``turn``."""

    def ready(self, turn: Turn, ready: bool) -> None:
        """Say whether the person is done with ``turn``."""

    def draw(self) -> None:
        """Propose a draw."""

    def hint(self, turn: Turn, seconds: float) -> None:
        """Ask the search what it would play in ``turn``."""


def new_secret() -> str:
    """A fresh random secret for a seat's page."""
    return secrets.token_urlsafe(18)


def choices_view(choices: PersonChoices) -> ChoicesView:
    """The legal orders per unit (or site) as the page offers them: text and drawing."""
    units = {u.unit.location.province: u for u in choices.position.unit_positions()}
    options = []
    for key, orders in choices.options.items():
        unit = units.get(key)
        options.append(
            OptionView(
                key=key,
                unit=None if unit is None else unit_json(unit),
                orders=[ChoiceView(text=format_order_text(o), draw=order_json(o)) for o in orders],
            )
        )
    return ChoicesView(kind=choices.kind, due=choices.due, options=options)


def change_between(old: Snapshot, new: Snapshot) -> SeatChange:
    """What the page holding ``old`` needs to hold ``new``: the parts that differ.

    The game is given as its phases that differ (with its count and meta),
    the other parts whole.
    """
    parts: dict[str, Any] = {"version": new["version"], "seconds_left": new["seconds_left"]}
    for name, value in new.items():
        if name in VOLATILE or old.get(name) == value:
            continue
        if name == "game":
            before = old["game"]["phases"]
            value = GameChange(
                version=value["version"],
                count=value["count"],
                phases={i: p for i, p in value["phases"].items() if before.get(i) != p},
                meta=value["meta"],
            )
        parts[name] = value
    return SeatChange.model_validate(parts)


async def read_body(request: Request) -> bytes:
    """The request's body, read no further than :data:`~bot.human.api.MAX_BODY` bytes."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_BODY:
        raise TooLarge(f"the request is larger than {MAX_BODY} bytes")
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise TooLarge(f"the request is larger than {MAX_BODY} bytes")
        chunks.append(chunk)
    return b"".join(chunks)


def _json(answer: SeatState | CheckAnswer | Done) -> Response:
    return Response(answer.model_dump_json(), media_type="application/json", headers=NO_STORE)


class SeatApp:
    """The web app of one seat: ``control`` is the seat, ``desk`` its record, ``secret`` its key.

    ``press`` is the seat's press panel (None: the page has none).
    """

    def __init__(
        self,
        control: SeatControl,
        desk: SeatDesk,
        secret: str,
        host: str,
        port: int,
        press: PressPanel | None = None,
        coach: SeatCoach | None = None,
    ) -> None:
        self.control = control
        self.desk = desk
        self.coach = coach
        self.secret = secret
        self._guard = key_guard(secret, KEY_HEADER, "seat")
        self.press = press
        self.version = 0
        """The state's version: how many changes of it the app has seen."""
        self._seen: Snapshot | None = None
        self.bell = StreamBell()
        """Wakes the open event streams when the state may have changed."""
        desk.listeners.append(self.changed)
        if press is not None:
            press.log.listeners.append(self.changed)
        coaching = []
        if coach is not None:
            coach.listeners.append(self.changed)
            coaching = CoachWeb(coach, self._guard, read_body).routes()
        self.app = Starlette(
            routes=[
                Route("/", self._page),
                Route("/api/state", self._guard(self._state)),
                Route("/api/events", self._guard(self._events)),
                Route("/api/map", self._guard(self._map)),
                Route("/api/check", self._guard(self._check), methods=["POST"]),
                Route("/api/draft", self._guard(self._draft), methods=["POST"]),
                Route("/api/submit", self._guard(self._submit), methods=["POST"]),
                Route("/api/ready", self._guard(self._ready), methods=["POST"]),
                Route("/api/hint", self._guard(self._hint), methods=["POST"]),
                Route("/api/draw", self._guard(self._draw), methods=["POST"]),
                Route("/api/press", self._guard(self._press_send), methods=["POST"]),
                Route("/api/press/answer", self._guard(self._press_answer), methods=["POST"]),
                *coaching,
                Mount("/static", StaticFiles(directory=STATIC), name="static"),
                Mount("/view", StaticFiles(directory=VIEW_STATIC), name="view"),
            ],
            middleware=[Middleware(HostCheck, allowed=allowed_hosts(host, port))],
        )

    async def _body(self, request: Request, model: type[R]) -> R:
        return read_request(await read_body(request), model)

    def _phase(self, asked: str) -> PersonChoices:
        """The phase a request is for, which must be the one being played (its choices)."""
        current = self.control.current()
        if current is None:
            raise BadRequest(f"no phase is being played (the request is for {quoted(asked)})")
        turn = current.position.turn
        if str(turn) != asked:
            raise BadRequest(f"the phase {quoted(asked)} is not the one being played ({turn})")
        return current

    # --- the state and its changes --------------------------------------------------------

    def _definition(self) -> MapDefinition | None:
        """The game's map: the MDF heard, else the map of the phase played (None: standard)."""
        if self.desk.timeline.definition is not None:
            return self.desk.timeline.definition
        current = self.control.current()
        return None if current is None else current.position.map.definition

    def state(self) -> SeatState:
        """Everything the page shows now, with the version of what it shows."""
        return self.snapshot()[0]

    def snapshot(self) -> tuple[SeatState, Snapshot]:
        """The state now and its JSON values; the version grows if it changed since last seen."""
        state = SeatState(
            version=self.version,
            map=map_key(self._definition()),
            info=self.control.info(),
            seconds_left=self.control.seconds_left(),
            game=self.desk.timeline.to_json(),
            summary=list(self.desk.summary),
            phase=self._phase_view(),
            press=None if self.press is None else self.press.view(),
            coach=None if self.coach is None else self.coach.view(),
        )
        values = state.model_dump(mode="json")
        seen = {k: v for k, v in values.items() if k not in VOLATILE}
        if seen != self._seen:
            self._seen = seen
            self.version += 1
            state = state.model_copy(update={"version": self.version})
            values["version"] = self.version
        return state, values

    def _phase_view(self) -> PhaseView | None:
        choices = self.control.current()
        if choices is None:
            return None
        pos = choices.position
        desk = self.desk.phase_view(pos.turn)
        hint = None if desk.hint is None else desk.hint.spelled(choices)
        return PhaseView(
            turn=str(pos.turn),
            power=choices.power,
            units=[unit_json(u) for u in pos.unit_positions()],
            choices=choices_view(choices),
            **{**dict(desk), "hint": hint},
        )

    def changed(self) -> None:
        """Something the page shows may have changed: wake the open streams (from any thread)."""
        self.bell.ring()

    # --- the routes -----------------------------------------------------------------------

    async def _page(self, request: Request) -> Response:
        return FileResponse(STATIC / "human.html", headers=NO_STORE)

    async def _map(self, request: Request) -> Response:
        try:
            text = await asyncio.to_thread(picture_json, self._definition())
        except PictureError as exc:
            raise BadRequest(f"the map cannot be drawn: {exc}") from None
        return Response(text, media_type="application/json", headers=NO_STORE)

    async def _state(self, request: Request) -> Response:
        try:
            since = version_parameter(request, "since")
        except BadParameter as exc:
            raise BadRequest(str(exc)) from None
        state = self.state()
        if state.version == since:
            return Response(status_code=204, headers=NO_STORE)
        return _json(state)

    async def _events(self, request: Request) -> Response:
        self.bell.loop = asyncio.get_running_loop()
        return EventSourceResponse(self._stream(request), ping=KEEPALIVE, headers=NO_STORE)

    async def _stream(self, request: Request) -> AsyncIterator[dict[str, str]]:
        """The whole state first, then each change (the parts that changed) as it happens."""
        sent: Snapshot | None = None
        while True:
            wake = self.bell.waiter()
            state, values = self.snapshot()
            if sent is None:
                yield {"event": "state", "data": state.model_dump_json()}
                sent = values
            elif values["version"] != sent["version"]:
                change = change_between(sent, values)
                yield {"event": "change", "data": change.model_dump_json(exclude_unset=True)}
                sent = values
            if await request.is_disconnected():
                return
            await wait_rung(wake, KEEPALIVE)
            await asyncio.sleep(SETTLE)

    async def _check(self, request: Request) -> Response:
        body = await self._body(request, CheckRequest)
        choices = self._phase(body.turn)
        try:
            order = chosen_order(body.text, choices)
        except (OrderTextError, PersonOrderError) as exc:
            raise BadRequest(f"{quoted(body.text)}: {exc}") from None
        text = format_order_text(order)
        return _json(CheckAnswer(key=order_subject(order), text=text, draw=order_json(order)))

    async def _draft(self, request: Request) -> Response:
        body = await self._body(request, OrdersRequest)
        choices = self._phase(body.turn)
        orders = read_orders(body.orders, choices)
        self.desk.draft(choices.position.turn, [format_order_text(o) for o in orders])
        return _json(Done())

    async def _submit(self, request: Request) -> Response:
        body = await self._body(request, OrdersRequest)
        choices = self._phase(body.turn)
        orders = read_orders(body.orders, choices)
        texts = [format_order_text(o) for o in orders]
        turn = choices.position.turn
        self.desk.submit(turn, texts)
        self.control.submit(turn, orders)
        return _json(Sent(orders=texts))

    async def _ready(self, request: Request) -> Response:
        body = await self._body(request, ReadyRequest)
        pos = self._phase(body.turn).position
        if not pos.is_movement:
            raise BadRequest("ready (GOF) is for movement phases")
        self.desk.set_ready(pos.turn, body.ready)
        self.control.ready(pos.turn, body.ready)
        return _json(Done())

    async def _hint(self, request: Request) -> Response:
        body = await self._body(request, HintRequest)
        pos = self._phase(body.turn).position
        self.desk.asked_hint(pos.turn)
        self.control.hint(pos.turn, HINT_SECONDS if body.seconds is None else body.seconds)
        return _json(Done())

    async def _draw(self, request: Request) -> Response:
        await self._body(request, DrawRequest)
        current = self.control.current()
        if current is None:
            raise BadRequest("no phase is being played")
        self.desk.offered_draw(current.position.turn)
        self.control.draw()
        return _json(Done())

    def _panel(self) -> PressPanel:
        if self.press is None:
            raise BadRequest("this seat has no press panel")
        return self.press

    async def _press_send(self, request: Request) -> Response:
        return _json(self._panel().send(await read_body(request)))

    async def _press_answer(self, request: Request) -> Response:
        return _json(self._panel().answer(await read_body(request)))
