"""The start page: a person sets a local game up in the browser, then plays it at their seat.

Routes (all but the page and its static files need the page's secret, given
as the ``X-Start-Key`` header or the ``key`` query parameter; a wrong or
missing one is 403):

``GET /``               the page (``static/start.html``)
``GET /static/...``     its script and style
``GET /api/options``    what this machine can play (:meth:`Catalogue.as_json`)
``POST /api/start``     a :class:`~bot.human.start_form.StartForm`: start that game
                        (400 with one line if the form is wrong, 409 while a game is on)
``GET /api/game``       the game's :class:`GameStatus`: starting, playing (with the
                        person's seat page), over or failed

The game is the local runner's (:func:`bot.local.runner.play_game`, the one
``daide-mcts game --human`` plays), run as a task of this page's event loop:
Parlance on loopback, one process per seat, the person's seat a
``daide-mcts human`` process whose page address it prints.  One game at a
time; once it is over another may start.  The person's seat stays up after its
game (the result, the review, "try again"), until another game starts or this
page stops.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from enum import StrEnum
from pathlib import Path
from typing import TextIO

from pydantic import BaseModel, ConfigDict
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from bot.human.api import BadRequest
from bot.human.page_key import key_guard
from bot.human.start_form import Catalogue, StartError, plan_game, read_form
from bot.human.webapp import NO_STORE, STATIC, read_body
from bot.local.albert_seat import AlbertInstall, AlbertUnavailableError, albert_dir_from
from bot.local.launch import PLAIN_STANDARD, STANDARD_MAP
from bot.local.outcome import GameConfig
from bot.local.record import LiveState
from bot.local.runner import GameError, PersonPages, page_address, play_game
from bot.toolkit.paths import dated_folder
from bot.view.server import STATIC as VIEW_STATIC
from bot.view.server import HostCheck, allowed_hosts

KEY_HEADER = "x-start-key"

NOTES_KEPT = 20
"""The runner's latest notes the status carries."""


class GameState(StrEnum):
    """Where the page's game stands."""

    NONE = "none"
    STARTING = "starting"
    PLAYING = "playing"
    OVER = "over"
    FAILED = "failed"


class GameStatus(BaseModel):
    """``GET /api/game``: the game's state, the person's seat page once it listens, the notes."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    state: GameState
    seat: str | None = None
    """The person's seat page (its address with its secret), once the seat printed it."""
    turn: str | None = None
    folder: str | None = None
    notes: list[str] = []
    result: str | None = None
    error: str | None = None


def load_catalogue(albert_dir: Path | None, notes: Callable[[str], None]) -> Catalogue:
    """What this machine can play: Parlance's maps (installed once), Parang's bots, Albert."""
    from bot.servers.parlance_install import (
        ParlanceUnavailableError,
        install,
        is_installed,
    )
    from bot.servers.parlance_maps import served_maps

    albert: AlbertInstall | None = None
    with contextlib.suppress(AlbertUnavailableError):
        albert = AlbertInstall.locate(albert_dir_from(albert_dir))
    try:
        if not is_installed():
            notes("Installing Parlance into .local (once)...")
        maps = served_maps(install())
    except ParlanceUnavailableError as exc:
        notes(f"Parlance cannot run here ({str(exc).splitlines()[0]}): the standard map only")
        return Catalogue({STANDARD_MAP: PLAIN_STANDARD}, parang=False, albert=albert, server="auto")
    return Catalogue(maps, parang=True, albert=albert)


class NotesView:
    """The runner's view of the page's game: its notes kept (and printed), its last state."""

    def __init__(self, out: TextIO) -> None:
        self.stream = out
        self.notes: list[str] = []
        self.state: LiveState | None = None

    def note(self, text: str) -> None:
        """A one-off message of the runner."""
        self.notes = [*self.notes[-(NOTES_KEPT - 1) :], text]
        self.stream.write(f"{text}\n")
        self.stream.flush()

    def update(self, state: LiveState) -> None:
        """The game's state now."""
        self.state = state

    def close(self, state: LiveState | None) -> None:
        """The game is over."""
        if state is not None:
            self.state = state


class PageGame:
    """The page's game: its task, its record's folder and what the page shows of it."""

    def __init__(self, config: GameConfig, folder: Path, out: TextIO) -> None:
        self.config = config
        self.folder = folder
        self.view = NotesView(out)
        self.result: str | None = None
        self.error: str | None = None
        self.seat_url: str | None = None
        self.people = PersonPages()
        self.task = asyncio.create_task(self._play())

    async def _play(self) -> None:
        try:
            albert = self.config.albert
            if albert is not None:
                await asyncio.to_thread(albert.prepare, self.view.note)
            outcome = await play_game(self.config, self.folder, self.view, people=self.people)
            self.result = outcome.result or "no result"
            if outcome.problems:
                self.result += " (" + "; ".join(outcome.problems) + ")"
        except (GameError, AlbertUnavailableError, OSError) as exc:
            self.error = str(exc)
            self.view.note(f"the game could not be played: {exc}")

    def person(self) -> str:
        """The person's seat's name."""
        return next(s.name for s in self.config.seats if s.kind == "human")

    def status(self) -> GameStatus:
        """What the page shows of the game now."""
        if self.seat_url is None:
            self.seat_url = page_address(self.folder / "bots" / f"{self.person()}.out")
        if self.task.done():
            state = GameState.FAILED if self.error is not None else GameState.OVER
        else:
            state = GameState.STARTING if self.seat_url is None else GameState.PLAYING
        live = self.view.state
        return GameStatus(
            state=state,
            seat=self.seat_url,
            turn=None if live is None or live.turn is None else str(live.turn),
            folder=str(self.folder),
            notes=list(self.view.notes),
            result=self.result,
            error=self.error,
        )

    async def stop(self) -> None:
        """End the game (its server and seats) if it is still on, and the person's page."""
        if not self.task.done():
            self.task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self.task
        await self.people.stop()


class StartApp:
    """The start page's web app: ``catalogue`` is what may be chosen, ``runs`` where games go."""

    def __init__(
        self,
        catalogue: Catalogue,
        runs: Path,
        secret: str,
        host: str,
        port: int,
        out: TextIO,
    ) -> None:
        self.catalogue = catalogue
        self.runs = runs
        self.secret = secret
        self.stream = out
        self.game: PageGame | None = None
        self._guard = key_guard(secret, KEY_HEADER, "page", (BadRequest, StartError))
        self.app = Starlette(
            routes=[
                Route("/", self._page),
                Route("/api/options", self._guard(self._options)),
                Route("/api/start", self._guard(self._start), methods=["POST"]),
                Route("/api/game", self._guard(self._status)),
                Mount("/static", StaticFiles(directory=STATIC), name="static"),
                Mount("/view", StaticFiles(directory=VIEW_STATIC), name="view"),
            ],
            middleware=[Middleware(HostCheck, allowed=allowed_hosts(host, port))],
        )

    async def _page(self, request: Request) -> Response:
        return FileResponse(STATIC / "start.html", headers=NO_STORE)

    async def _options(self, request: Request) -> Response:
        return JSONResponse(self.catalogue.as_json(), headers=NO_STORE)

    async def _start(self, request: Request) -> Response:
        form = read_form(await read_body(request))
        config = plan_game(form, self.catalogue)
        if self.game is not None and not self.game.task.done():
            return PlainTextResponse(
                "a game is already being played: finish it first\n", status_code=409
            )
        last, self.game = self.game, PageGame(config, dated_folder(self.runs, "start"), self.stream)
        if last is not None:
            await last.stop()  # the last game's person's page, kept for its review
        return _status(self.game.status())

    async def _status(self, request: Request) -> Response:
        if self.game is None:
            return _status(GameStatus(state=GameState.NONE))
        return _status(self.game.status())

    async def stop(self) -> None:
        """End the page's game, if one is on."""
        if self.game is not None:
            await self.game.stop()


def _status(status: GameStatus) -> Response:
    return Response(status.model_dump_json(), media_type="application/json", headers=NO_STORE)
