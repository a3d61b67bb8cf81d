"""The seat's state as server-sent events: the whole state first, then only what changed.

A client reads ``/api/events`` of a really served seat app over a plain HTTP
connection (as the page's EventSource does): the first event is the whole
state; a change (a draft saved, a phase heard, the phase over) brings one
``change`` event holding only the parts that changed, with a greater version;
with no change no event comes; a new connection starts with the whole state
again (the page's fall-back after a lost connection); no key, no stream.
"""

from __future__ import annotations

import http.client
import json
import queue
import socket
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bot.client.core import notes
from bot.toolkit.messagelog import MESSAGES_FILE, received_texts
from protocol.messages import parse_text
from protocol.tokens import STANDARD
from search.grading import LABELS
from tests.bot.human.conftest import SECRET, TIMEOUT, Served
from tests.bot.view.scripted_game import write_run_folder

TURN = "SPR 1901"
QUIET = 1.0
"""Seconds without a change in which no event may come (the stream looks every few ms)."""

STATE_PARTS = {
    *("version", "map", "info", "seconds_left", "game", "summary", "phase", "press", "coach")
}
ALWAYS = {"version", "seconds_left"}
"""What every change event carries besides the parts that changed."""

NOW = "NOW ( SPR 1901 ) ( FRA AMY PAR ) ( FRA AMY MAR ) ( FRA FLT BRE )"


@dataclass
class Stream:
    """One open event stream; :meth:`next` is its next event (name, data)."""

    conn: http.client.HTTPConnection
    events: queue.Queue[tuple[str, dict[str, Any]]]
    reader: threading.Thread

    def next(self, timeout: float = TIMEOUT) -> tuple[str, dict[str, Any]]:
        return self.events.get(timeout=timeout)

    def silent(self, seconds: float = QUIET) -> bool:
        try:
            self.events.get(timeout=seconds)
        except queue.Empty:
            return True
        return False


def _read(response: http.client.HTTPResponse, out: queue.Queue[tuple[str, Any]]) -> None:
    name, data = "message", ""
    try:
        for raw in response:
            line = raw.decode().rstrip("\r\n")
            if not line:
                if data:
                    out.put((name, json.loads(data)))
                name, data = "message", ""
            elif line.startswith("event:"):
                name = line.partition(":")[2].strip()
            elif line.startswith("data:"):
                data += line.partition(":")[2].strip()
    except (OSError, ValueError, http.client.HTTPException):
        return  # the test closed the connection


@pytest.fixture
def open_stream(served: Served) -> Iterator[Callable[[], Stream]]:
    """A factory of event streams of ``served``, closed after the test."""
    opened: list[Stream] = []

    def start() -> Stream:
        conn = http.client.HTTPConnection("127.0.0.1", served.port, timeout=TIMEOUT * 3)
        conn.request("GET", "/api/events", headers={"X-Seat-Key": SECRET})
        response = conn.getresponse()
        assert response.status == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        events: queue.Queue[tuple[str, dict[str, Any]]] = queue.Queue()
        reader = threading.Thread(target=_read, args=(response, events), daemon=True)
        reader.start()
        stream = Stream(conn, events, reader)
        opened.append(stream)
        return stream

    yield start
    for stream in opened:
        if stream.conn.sock is not None:
            stream.conn.sock.shutdown(socket.SHUT_RDWR)
        stream.reader.join(TIMEOUT)
        stream.conn.close()


def _in_loop(served: Served, action: Callable[[], None]) -> None:
    """Run ``action`` in the app's event loop (where the real seat changes things)."""
    loop = served.app.bell.loop
    assert loop is not None
    done = threading.Event()

    def run() -> None:
        try:
            action()
        finally:
            done.set()

    loop.call_soon_threadsafe(run)
    assert done.wait(TIMEOUT)


def test_first_the_whole_state_then_only_changes(
    served: Served, open_stream: Callable[[], Stream]
) -> None:
    stream = open_stream()
    name, first = stream.next()
    assert name == "state" and set(first) == STATE_PARTS
    assert first["phase"]["turn"] == TURN and first["phase"]["draft"] == []
    assert stream.silent()

    # The person saves a draft: only the phase changed.
    assert served.call("POST", "/api/draft", {"turn": TURN, "orders": ["A PAR - PIC"]})[0] == 200
    name, change = stream.next()
    assert name == "change" and set(change) == ALWAYS | {"phase"}
    assert change["version"] > first["version"]
    assert change["phase"]["draft"] == ["A PAR - PIC"]
    assert change["phase"]["choices"] == first["phase"]["choices"]
    assert stream.silent()

    # A phase is heard: the game changed, given as its new phase (and its count and meta).
    _in_loop(served, lambda: served.app.desk.heard(parse_text(NOW), NOW))
    name, game = stream.next()
    assert name == "change" and set(game) == ALWAYS | {"game"}
    assert game["version"] > change["version"]
    assert game["game"]["count"] == 1 and set(game["game"]["phases"]) == {"0"}
    assert game["game"]["phases"]["0"]["turn"] == TURN
    assert stream.silent()

    # The phase is over (the seat says so): the phase is given as null.
    def phase_over() -> None:
        served.seat.position = None
        served.app.changed()

    _in_loop(served, phase_over)
    name, over = stream.next()
    assert name == "change" and set(over) == ALWAYS | {"phase"} and over["phase"] is None
    assert over["version"] > game["version"]

    # Waking the stream without a change sends nothing.
    _in_loop(served, served.app.changed)
    assert stream.silent()

    # A new connection (the page's fall-back) starts with the whole state, at the same version.
    again = open_stream()
    name, whole = again.next()
    assert name == "state" and set(whole) == STATE_PARTS
    assert whole["version"] == over["version"] and whole["phase"] is None
    assert whole["game"]["count"] == 1


def test_press_heard_is_a_change_of_the_press_panel_only(
    served: Served, open_stream: Callable[[], Stream]
) -> None:
    stream = open_stream()
    _, first = stream.next()
    assert first["press"]["lines"] == [] and first["press"]["level"] == 10
    panel = served.app.press
    assert panel is not None
    heard = notes.PressIn("ENG", "FRM ( ENG ) ( FRA ) ( PRP ( PCE ( ENG FRA ) ) )")
    _in_loop(served, lambda: panel.log.noted(heard, STANDARD, 10, None))
    name, change = stream.next()
    assert name == "change" and set(change) == ALWAYS | {"press"}
    (line,) = change["press"]["lines"]
    assert line["english"] == "England proposes peace with France" and line["answerable"]
    assert stream.silent()


def test_the_state_polled_and_streamed_share_the_version(
    served: Served, open_stream: Callable[[], Stream]
) -> None:
    _, first = open_stream().next()
    polled = json.loads(served.call("GET", "/api/state")[1])
    assert polled["version"] == first["version"]
    assert served.call("GET", f"/api/state?since={first['version']}")[0] == 204


@pytest.mark.parametrize("key", [None, "", "wrong", SECRET + "x"])
def test_no_key_no_stream(served: Served, key: str | None) -> None:
    status, text = served.call("GET", "/api/events", key=key)
    assert status == 403 and text == "wrong or missing seat key\n"
    status, _ = served.call("GET", f"/api/events?key={key or ''}", key=None)
    assert status == 403


GRADE_TIMEOUT = 120.0
"""Seconds a grade may take to come back (a worker process starts, then grades)."""


@pytest.mark.timeout(300)
def test_a_grade_comes_on_the_stream_as_a_change_of_the_coach_only(
    served: Served,
    open_stream: Callable[[], Stream],
    tmp_path: Path,
) -> None:
    """The coach hears the spring of the scripted game: its grade arrives as a change."""
    stream = open_stream()
    name, first = stream.next()
    assert name == "state" and first["coach"]["grades"] == []
    write_run_folder(tmp_path)
    texts = list(received_texts(tmp_path / MESSAGES_FILE))
    nows = [i for i, t in enumerate(texts) if t.startswith("NOW")]
    coach = served.app.coach
    assert coach is not None
    _in_loop(served, lambda: [coach.heard(t) for t in texts[: nows[1] + 1]])
    name, change = stream.next()
    assert name == "change" and set(change) == ALWAYS | {"coach"}
    assert change["coach"]["pending"] == ["SPR 1901"]
    name, change = stream.next(GRADE_TIMEOUT)
    assert name == "change" and set(change) == ALWAYS | {"coach"}
    coach_view = change["coach"]
    assert coach_view["pending"] == [] and coach_view["failed"] == {}
    (grade,) = coach_view["grades"]
    assert grade["turn"] == "SPR 1901" and grade["label"] in LABELS
    assert grade["played"] == ["A MAR S A PAR - BUR", "A PAR - BUR", "F BRE - MAO"]
    assert len(grade["better_draw"]) == 3
    assert stream.silent()
