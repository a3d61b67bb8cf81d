"""The field book's file (``play --openings FILE``): the field's openings kept across games.

The bot reads the file once it knows the game's map and gives the book to its
search (:mod:`search.openings`); once the game's first years are played
(:data:`~search.openings.BOOK_YEARS`) it adds what the other powers did in
them.  Several bots may share one file (the seats of a tournament, games run
in parallel): each addition takes an exclusive lock on ``FILE.lock``, reads
the file again, adds its own game's counts and replaces the file whole.

A file that is not a book of this map (truncated, edited, of another map) is
never lost: it is renamed ``FILE.corrupt-<time>`` (``FILE.other-<time>``
for another map's) and a new book starts.
"""

from __future__ import annotations

import contextlib
import fcntl
import time
from collections.abc import Iterator
from pathlib import Path

import structlog

from adjudicator.maps import GameMap
from adjudicator.position import Position
from bot.jsonfiles import CorruptJSON, read_json_object, write_json_object
from bot.mirror import GameMirror
from search.openings import BOOK_YEARS, BookError, FieldBook

log = structlog.get_logger(__name__)

LOCK_SUFFIX = ".lock"
"""The lock file beside the book: ``FILE.lock``."""

LOCK_WAIT = 2.0
"""Seconds to wait for another bot's lock before giving up this read or addition."""

LOCK_POLL = 0.02
"""Seconds between two tries of a lock another bot holds."""


class FieldBookFile:
    """The book in ``path``, read and added to as the module says."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def read(self, game_map: GameMap) -> FieldBook:
        """The book in the file (empty if there is none yet, or it had to be set aside)."""
        with self._locked():
            return self._read(game_map)

    def add(self, game_map: GameMap, game: FieldBook) -> FieldBook:
        """Add one game's counts (``game``, a book of that game alone); the whole book after."""
        with self._locked():
            book = self._read(game_map).merged(game)
            write_json_object(self.path, book.to_data(game_map), indent=None)
            return book

    def _read(self, game_map: GameMap) -> FieldBook:
        if not self.path.exists():
            return FieldBook.empty(game_map.name)
        try:
            return FieldBook.from_data(read_json_object(self.path), game_map)
        except (CorruptJSON, BookError) as exc:
            kind = "other" if _other_map(self.path, game_map) else "corrupt"
            aside = _unused(
                self.path.with_name(f"{self.path.name}.{kind}-{time.strftime('%Y%m%d-%H%M%S')}")
            )
            with contextlib.suppress(OSError):
                self.path.replace(aside)
            log.warning("field book set aside; starting a new one", path=str(aside), error=str(exc))
            return FieldBook.empty(game_map.name)

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        """Hold the book's lock; TimeoutError (an OSError) after :data:`LOCK_WAIT` seconds."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with open(self.path.with_name(self.path.name + LOCK_SUFFIX), "a") as lock:
            give_up = time.monotonic() + LOCK_WAIT
            while True:
                try:
                    fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() >= give_up:
                        raise TimeoutError(f"{self.path} stayed locked {LOCK_WAIT:.0f} s") from None
                    time.sleep(LOCK_POLL)
            try:
                yield
            finally:
                fcntl.flock(lock, fcntl.LOCK_UN)


def _unused(path: Path) -> Path:
    """``path``, or ``path-2``, ``path-3``… the first name no file has."""
    found, k = path, 1
    while found.exists():
        k += 1
        found = path.with_name(f"{path.name}-{k}")
    return found


def _other_map(path: Path, game_map: GameMap) -> bool:
    """Whether ``path`` holds a readable book of another map."""
    try:
        name = read_json_object(path).get("map")
    except CorruptJSON:
        return False
    return isinstance(name, str) and name != game_map.name


class GameOpenings:
    """One game's use of the field book: read once for the search, the game added once.

    :meth:`record` adds the game once the mirror's position is past the book's
    years (or, with ``final``, at the game's end): every power's orders but the
    bot's own.  A game the bot did not see from its first phase adds nothing.
    A file that cannot be read or written costs the book, never the game.
    """

    def __init__(self, path: Path) -> None:
        self.file = FieldBookFile(path)
        self.book: FieldBook | None = None
        self.recorded = False

    def book_for(self, game_map: GameMap) -> FieldBook | None:
        """The book to search with on ``game_map`` (read on the first call); None if unreadable."""
        if self.book is None or self.book.map_name != game_map.name:
            try:
                self.book = self.file.read(game_map)
            except OSError as exc:
                log.error("cannot read the field book", path=str(self.file.path), error=str(exc))
                return None
        return self.book

    def record(self, mirror: GameMirror, power: str | None, *, final: bool = False) -> bool:
        """Add the game's first years to the file if it is time; True once they were added."""
        m, current = mirror.game_map, mirror.position
        if self.recorded or m is None or current is None or not mirror.movements:
            return False
        first_year = Position.from_data(m, mirror.movements[0][0]).year
        if not final and current.year < first_year + BOOK_YEARS:
            return False
        self.recorded = True
        moves = [(Position.from_data(m, data), orders) for data, orders in mirror.movements]
        ours = {m.powers.index(power)} if power in m.powers else set()
        game = FieldBook.empty(m.name).with_game(moves, ours)
        if not game.games:
            return False
        try:
            self.book = self.file.add(m, game)
        except OSError as exc:
            log.error("cannot add to the field book", path=str(self.file.path), error=str(exc))
            return False
        log.info("field book updated", path=str(self.file.path), games=self.book.games)
        return True
