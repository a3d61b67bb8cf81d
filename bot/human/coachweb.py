"""The coach's routes on the seat's page (guarded by the seat's key like every API route).

``GET /api/moment?turn=SPR 1901``  a graded phase to try again (:class:`~bot.human.api.MomentView`)
``POST /api/try``                  :class:`~bot.human.api.TryRequest`: that phase played again
                                   with new orders (:class:`~bot.human.api.TryAnswer`)

The grades themselves reach the page in the seat's state (``coach``), on its event stream.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from bot.human.api import MAX_TURN_TEXT, BadRequest, TryRequest, read_request
from bot.human.coaching import SeatCoach
from bot.human.page_key import Guard

NO_STORE = {"Cache-Control": "no-store"}


class CoachWeb:
    """The coach's routes: ``guard`` checks the key, ``read_body`` reads a bounded body."""

    def __init__(
        self,
        coach: SeatCoach,
        guard: Guard,
        read_body: Callable[[Request], Awaitable[bytes]],
    ) -> None:
        self.coach = coach
        self._guard = guard
        self._read_body = read_body

    def routes(self) -> list[Route]:
        """The routes to add to the seat's app."""
        return [
            Route("/api/moment", self._guard(self._moment)),
            Route("/api/try", self._guard(self._try), methods=["POST"]),
        ]

    async def _moment(self, request: Request) -> Response:
        turn = request.query_params.get("turn", "")
        if not turn or len(turn) > MAX_TURN_TEXT:
            raise BadRequest("turn: give the phase, e.g. ?turn=SPR 1901")
        view = self.coach.moment(turn)
        return Response(view.model_dump_json(), media_type="application/json", headers=NO_STORE)

    async def _try(self, request: Request) -> Response:
        body = read_request(await self._read_body(request), TryRequest)
        answer = self.coach.try_again(body.turn, body.orders)
        return Response(answer.model_dump_json(), media_type="application/json", headers=NO_STORE)
