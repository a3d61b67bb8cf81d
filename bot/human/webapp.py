"""The person's page and its JSON API: a starlette app that only its holder of the secret may use.

Routes (all but the page and its static files need the seat's secret, given
as the ``X-Seat-Key`` header or the ``key`` query parameter; a wrong or
missing one is 403):

``GET /``                   the page (``static/human.html``)
``GET /static/...``         its script and style
``GET /view/...``           the viewer's drawing (``mapdraw.js``) and style
``GET /api/map``            the picture of the game's map (:mod:`bot.view.mappicture`)
``GET /api/state?since=V``  the seat's state (204 if nothing changed after version V)
``POST /api/check``         ``{"turn", "text"}``: one typed order read and checked
``POST /api/draft``         ``{"turn", "orders": [text...]}``: the draft kept for a reload
``POST /api/submit``        ``{"turn", "orders": [text...]}``: the set sent (SUB)
``POST /api/ready``         ``{"turn", "ready": bool}``: GOF or NOT (GOF)
``POST /api/hint``          ``{"turn"}``: ask what the bot would play
``POST /api/draw``          ``{}``: propose a draw (DRW)

Requests whose ``Host`` is not this server's loopback address are refused by
the viewer's :class:`~bot.view.server.HostCheck` (400/421).  An order that
does not parse, is not the seat's, is illegal, or is for a phase other than
the one being played is a 400 with one line, and nothing is sent.
"""

from __future__ import annotations

import asyncio
import json
import secrets
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, Protocol

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from adjudicator.position import Position
from bot.client.core.person import PersonChoices, PersonOrderError, legal_choices, order_subject
from bot.human.desk import SeatDesk
from bot.human.ordertext import OrderTextError, parse_order_text
from bot.toolkit.order_words import format_order_text
from bot.view.mapfacts import PictureError, map_key
from bot.view.mappicture import picture_json
from bot.view.server import STATIC as VIEW_STATIC
from bot.view.server import HostCheck, allowed_hosts
from bot.view.timeline import order_json, unit_json
from protocol.values import MapDefinition, Order, Turn

STATIC = Path(__file__).resolve().parent / "static"

KEY_HEADER = "x-seat-key"
MAX_BODY = 16_384
"""The largest request body read (a full set of orders is well under 2 kB)."""

MAX_ORDERS = 40
"""The most orders one request may carry (a power has at most 17 units on the standard map)."""

HINT_SECONDS = 3.0
"""How long the search thinks for a hint."""

QUOTED = 40
"""Characters of a refused order text quoted in the answer."""

NO_STORE = {"Cache-Control": "no-store"}


class BadRequest(ValueError):
    """A request the seat refuses (400), with a one-line reason."""


class SeatControl(Protocol):
    """What the web app asks of the seat (the client's core, in the same event loop)."""

    def current(self) -> tuple[Position, str] | None:
        """The position of the phase being played and the seat's power (None between phases)."""

    def seconds_left(self) -> float | None:
        """Seconds to the phase's deadline, if the server set one."""

    def info(self) -> dict[str, Any]:
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


def choices_json(choices: PersonChoices, pos: Position) -> dict[str, Any]:
    """The legal orders per unit (or site) as the page offers them: text and drawing."""
    units = {u.unit.location.province: u for u in pos.unit_positions()}
    options = []
    for key, orders in choices.options.items():
        unit = units.get(key)
        options.append(
            {
                "key": key,
                "unit": None if unit is None else unit_json(unit),
                "orders": [{"text": format_order_text(o), "draw": order_json(o)} for o in orders],
            }
        )
    return {"kind": choices.kind, "due": choices.due, "options": options}


class SeatApp:
    """The web app of one seat: ``control`` is the seat, ``desk`` its record, ``secret`` its key."""

    def __init__(
        self, control: SeatControl, desk: SeatDesk, secret: str, host: str, port: int
    ) -> None:
        self.control = control
        self.desk = desk
        self.secret = secret
        self.app = Starlette(
            routes=[
                Route("/", self._page),
                Route("/api/state", self._guard(self._state)),
                Route("/api/map", self._guard(self._map)),
                Route("/api/check", self._guard(self._check), methods=["POST"]),
                Route("/api/draft", self._guard(self._draft), methods=["POST"]),
                Route("/api/submit", self._guard(self._submit), methods=["POST"]),
                Route("/api/ready", self._guard(self._ready), methods=["POST"]),
                Route("/api/hint", self._guard(self._hint), methods=["POST"]),
                Route("/api/draw", self._guard(self._draw), methods=["POST"]),
                Mount("/static", StaticFiles(directory=STATIC), name="static"),
                Mount("/view", StaticFiles(directory=VIEW_STATIC), name="view"),
            ],
            middleware=[Middleware(HostCheck, allowed=allowed_hosts(host, port))],
        )

    # --- the guard ------------------------------------------------------------------------

    def _guard(
        self, handler: Callable[[Request], Awaitable[Response]]
    ) -> Callable[[Request], Awaitable[Response]]:
        async def guarded(request: Request) -> Response:
            given = request.headers.get(KEY_HEADER) or request.query_params.get("key") or ""
            if not secrets.compare_digest(given.encode(), self.secret.encode()):
                return PlainTextResponse("wrong or missing seat key\n", status_code=403)
            try:
                return await handler(request)
            except BadRequest as exc:
                return PlainTextResponse(f"{exc}\n", status_code=400)

        return guarded

    async def _body(self, request: Request) -> dict[str, Any]:
        raw = await request.body()
        if len(raw) > MAX_BODY:
            raise BadRequest(f"the request is larger than {MAX_BODY} bytes")
        try:
            body = json.loads(raw or b"{}")
        except (ValueError, UnicodeDecodeError):
            raise BadRequest("the request is not JSON") from None
        if not isinstance(body, dict):
            raise BadRequest("the request is not a JSON object")
        return body

    def _phase(self, body: dict[str, Any]) -> tuple[Position, str, PersonChoices]:
        """The phase the request is for, which must be the one being played."""
        current = self.control.current()
        asked = body.get("turn")
        if not isinstance(asked, str):
            raise BadRequest("the request names no phase ('turn')")
        if current is None:
            raise BadRequest(f"no phase is being played (the request is for {asked})")
        pos, power = current
        if str(pos.turn) != asked:
            raise BadRequest(f"the phase {asked} is not the one being played ({pos.turn})")
        return pos, power, legal_choices(pos, power)

    def _orders(self, body: dict[str, Any], choices: PersonChoices) -> list[Order]:
        texts = body.get("orders")
        if not isinstance(texts, list) or not all(isinstance(t, str) for t in texts):
            raise BadRequest("'orders' must be a list of order texts")
        if len(texts) > MAX_ORDERS:
            raise BadRequest(f"at most {MAX_ORDERS} orders")
        orders = []
        for text in texts:
            try:
                orders.append(parse_order_text(text, choices.position, choices.power))
            except OrderTextError as exc:
                raise BadRequest(f"{_quote(text)}: {exc}") from None
        try:
            return choices.accept(orders)
        except PersonOrderError as exc:
            raise BadRequest(str(exc)) from None

    # --- the routes -----------------------------------------------------------------------

    async def _page(self, request: Request) -> Response:
        return FileResponse(STATIC / "human.html", headers=NO_STORE)

    def _definition(self) -> MapDefinition | None:
        """The game's map: the MDF heard, else the map of the phase played (None: standard)."""
        if self.desk.timeline.definition is not None:
            return self.desk.timeline.definition
        current = self.control.current()
        return None if current is None else current[0].map.definition

    async def _map(self, request: Request) -> Response:
        try:
            text = await asyncio.to_thread(picture_json, self._definition())
        except PictureError as exc:
            raise BadRequest(f"the map cannot be drawn: {exc}") from None
        return Response(text, media_type="application/json", headers=NO_STORE)

    async def _state(self, request: Request) -> Response:
        since = request.query_params.get("since", "")
        if since.isdigit() and len(since) < 19 and int(since) == self._version():
            return Response(status_code=204, headers=NO_STORE)
        return JSONResponse(self.state_json(), headers=NO_STORE)

    def _version(self) -> int:
        return self.desk.version

    def state_json(self) -> dict[str, Any]:
        """Everything the page shows."""
        current = self.control.current()
        out: dict[str, Any] = {
            "version": self._version(),
            "map": map_key(self._definition()),
            "info": self.control.info(),
            "seconds_left": self.control.seconds_left(),
            "game": self.desk.timeline.to_json(),
            "summary": self.desk.summary,
            "phase": None,
        }
        if current is not None:
            pos, power = current
            turn = pos.turn
            out["phase"] = {
                "turn": str(turn),
                "power": power,
                "units": [unit_json(u) for u in pos.unit_positions()],
                "choices": choices_json(legal_choices(pos, power), pos),
                **self.desk.phase_json(turn),
            }
            hint = out["phase"]["hint"]
            if hint is not None:
                choices = legal_choices(pos, power)
                read = [self._canonical(t, choices) for t in hint["orders"]]
                hint["orders"] = [text for text, _ in read]
                hint["draw"] = [draw for _, draw in read]
        return out

    def _canonical(self, text: str, choices: PersonChoices) -> tuple[str, dict[str, Any] | None]:
        """A hint's order as the page's menus spell it, and its drawing (None if unreadable)."""
        try:
            order = choices.resolve(parse_order_text(text, choices.position, choices.power))
        except (OrderTextError, PersonOrderError):
            return text, None
        return format_order_text(order), order_json(order)

    async def _check(self, request: Request) -> Response:
        body = await self._body(request)
        pos, power, choices = self._phase(body)
        text = body.get("text")
        if not isinstance(text, str):
            raise BadRequest("'text' must be an order text")
        try:
            order = choices.resolve(parse_order_text(text, pos, power))
        except (OrderTextError, PersonOrderError) as exc:
            raise BadRequest(f"{_quote(text)}: {exc}") from None
        return JSONResponse(
            {
                "key": order_subject(order),
                "text": format_order_text(order),
                "draw": order_json(order),
            }
        )

    async def _draft(self, request: Request) -> Response:
        body = await self._body(request)
        pos, _, choices = self._phase(body)
        orders = self._orders(body, choices)
        self.desk.draft(pos.turn, [format_order_text(o) for o in orders])
        return JSONResponse({"ok": True})

    async def _submit(self, request: Request) -> Response:
        body = await self._body(request)
        pos, _, choices = self._phase(body)
        orders = self._orders(body, choices)
        self.desk.submit(pos.turn, [format_order_text(o) for o in orders])
        self.control.submit(pos.turn, orders)
        return JSONResponse({"ok": True, "orders": [format_order_text(o) for o in orders]})

    async def _ready(self, request: Request) -> Response:
        body = await self._body(request)
        pos, _, _ = self._phase(body)
        ready = body.get("ready")
        if not isinstance(ready, bool):
            raise BadRequest("'ready' must be true or false")
        if not pos.is_movement:
            raise BadRequest("ready (GOF) is for movement phases")
        self.desk.set_ready(pos.turn, ready)
        self.control.ready(pos.turn, ready)
        return JSONResponse({"ok": True})

    async def _hint(self, request: Request) -> Response:
        body = await self._body(request)
        pos, _, _ = self._phase(body)
        self.desk.asked_hint(pos.turn)
        self.control.hint(pos.turn, HINT_SECONDS)
        return JSONResponse({"ok": True})

    async def _draw(self, request: Request) -> Response:
        await self._body(request)
        current = self.control.current()
        if current is None:
            raise BadRequest("no phase is being played")
        self.desk.offered_draw(current[0].turn)
        self.control.draw()
        return JSONResponse({"ok": True})


def _quote(text: str) -> str:
    return repr(text[:QUOTED] + ("..." if len(text) > QUOTED else ""))
