"""The key that guards a local page's API: the seat's page and the start page use it alike.

A request gives the page's secret in the page's key header or as the ``key``
query parameter; a wrong or missing one is 403 with one line (compared in
constant time).  What a guarded route refuses (a
:class:`~bot.human.api.BadRequest`, or another error its page names) is
answered with the error's ``status`` (400 if it has none) and its one line.
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable

from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response

from bot.human.api import BadRequest

Handler = Callable[[Request], Awaitable[Response]]
"""A route's handler."""

Guard = Callable[[Handler], Handler]
"""What makes a handler answer only the holder of the page's key."""

KEY_PARAMETER = "key"
"""The query parameter that may carry the key (the page's address gives it so)."""

FORBIDDEN = 403
REFUSED = 400
"""The status of a refusal whose error names none."""


def given_key(request: Request, header: str) -> str:
    """The key ``request`` gives: its ``header``, else its ``key`` parameter ("" if neither)."""
    return request.headers.get(header) or request.query_params.get(KEY_PARAMETER) or ""


def key_guard(
    secret: str,
    header: str,
    page: str,
    refusals: tuple[type[Exception], ...] = (BadRequest,),
) -> Guard:
    """The guard of a page whose key is ``secret``, given in ``header`` (or ``?key=``).

    ``page`` names the key in the 403's line ("wrong or missing seat key");
    ``refusals`` are the errors a handler may raise to refuse a request.
    """
    expected = secret.encode()

    def guard(handler: Handler) -> Handler:
        async def guarded(request: Request) -> Response:
            if not secrets.compare_digest(given_key(request, header).encode(), expected):
                return PlainTextResponse(f"wrong or missing {page} key\n", status_code=FORBIDDEN)
            try:
                return await handler(request)
            except refusals as exc:
                status = getattr(exc, "status", REFUSED)
                return PlainTextResponse(f"{exc}\n", status_code=status)

        return guarded

    return guard
