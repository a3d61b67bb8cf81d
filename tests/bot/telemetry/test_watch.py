"""``daide-mcts watch``: its state and table, and the command against a real mosquitto."""

from __future__ import annotations

import asyncio
import io
import json
import subprocess
import sys

import pytest

from bot.client.mqtt_publisher import MqttTelemetry
from bot.client.mqtt_url import parse_mqtt_url
from bot.client.telemetry_events import (
    Centres,
    Connected,
    Event,
    GameOver,
    Joined,
    OrderResult,
    OrdersSubmitted,
    PhaseStarted,
    SearchStats,
)
from bot.commands.watch import Watcher
from bot.servers.ports import free_port
from bot.telemetry.watch_view import WatchState, describe
from protocol.values import Hold, Location, Season, Turn, Unit, UnitType
from tests.bot.conftest import ROOT

SPRING = Turn(Season.SPRING, 1901)
PARIS = Unit("FRA", UnitType.ARMY, Location("PAR"))


def _event(cls: type[Event], seq: int, power: str | None = "FRA", **fields: object) -> Event:
    envelope = {"game": "g1", "power": power, "name": "bot1", "run": "r1", "time": 1.0}
    return cls(seq=seq, **envelope, **fields)


def _words(text: str) -> str:
    return " ".join(text.split())


def _feed(state: WatchState, event: Event) -> Event | None:
    level = event.power or "unassigned"
    return state.apply(f"p/{event.game}/{level}/{event.event}", event.model_dump_json())


def test_a_bots_row_follows_its_events() -> None:
    state = WatchState("p")
    for event in (
        _event(Connected, 1, power=None, host="h", port=1),
        _event(Joined, 2, map="standard", move_time_limit=5),
        _event(Centres, 3, counts={"FRA": 3, "ENG": 3, "UNO": 28}),
        _event(PhaseStarted, 4, turn=SPRING, phase="movement", deadline_in=5.0),
        _event(OrdersSubmitted, 5, turn=SPRING, orders=[Hold(PARIS)], margin=4.5),
        _event(SearchStats, 6, turn=SPRING, final=True, iterations=4321, seconds=3.9),
        _event(OrdersSubmitted, 7, turn=SPRING, orders=[Hold(PARIS)], margin=0.75),
        _event(OrderResult, 9, turn=SPRING, order=Hold(PARIS), result=["SUC"]),
    ):
        assert _feed(state, event) == event
    (row,) = state.rows.values()
    assert (row.power, row.turn, row.centres, row.margin, row.iterations) == (
        "FRA",
        "SPR 1901",
        3,
        0.75,
        4321,
    )
    assert (row.status, row.events, row.missed) == ("playing", 8, 1)  # seq 8 never came
    _feed(state, _event(GameOver, 10, ended_cleanly=True, result="DRW", centres=4))
    _feed(state, _event(GameOver, 10, ended_cleanly=True, result="DRW", centres=4))  # a repeat
    assert (row.status, row.centres, state.game_overs) == ("over: DRW", 4, 1)
    header, line, footer = state.table().splitlines()
    assert _words(header) == "GAME POWER NAME PHASE SC MARGIN ITER STATUS LOST"
    assert _words(line) == "g1 FRA bot1 SPR 1901 4 0.75s 4321 over: DRW 1"
    assert footer == "1 game(s), 1 bot(s), 10 events, 1 game-over(s), 0 invalid message(s)"


def test_invalid_messages_are_counted_not_shown() -> None:
    state = WatchState("p")
    good = _event(Centres, 1, counts={"FRA": 3})
    assert state.apply("p/g1/FRA", good.model_dump_json()) is None  # too few levels
    assert state.apply("other/g1/FRA/centres", good.model_dump_json()) is None
    assert state.apply("p/g1/FRA/joined", good.model_dump_json()) is None  # topic says otherwise
    assert state.apply("p/g2/FRA/centres", good.model_dump_json()) is None  # another game
    assert state.apply("p/g1/FRA/centres", b"\xff not json") is None
    assert (state.invalid, state.events, state.rows) == (5, 0, {})
    assert "Invalid JSON" in (state.last_problem or "")


def test_rows_are_sorted_by_game_then_power() -> None:
    state = WatchState("p")
    for game, power, run in (("g2", "AUS", "a"), ("g1", None, "b"), ("g1", "TUR", "c")):
        event = Connected(
            game=game, power=power, name=run, run=run, seq=1, time=1.0, host="h", port=1
        )
        _feed(state, event)
    assert [(r.game, r.power) for r in state.sorted_rows()] == [
        ("g1", "TUR"),
        ("g1", None),
        ("g2", "AUS"),
    ]


def test_describe_says_what_happened() -> None:
    assert describe(_event(PhaseStarted, 1, turn=SPRING, phase="movement", deadline_in=4.96)) == (
        "g1 FRA bot1: SPR 1901 movement, deadline in 5.0s"
    )
    assert describe(
        _event(OrdersSubmitted, 2, turn=SPRING, orders=[Hold(PARIS)], margin=1.234)
    ) == ("g1 FRA bot1: SPR 1901 submitted 1 order(s), margin 1.23s")
    assert describe(_event(GameOver, 3, ended_cleanly=True, result="DRW", centres=5)) == (
        "g1 FRA bot1: game over cleanly: DRW; centres 5; missed deadlines 0"
    )


def test_on_a_terminal_the_table_is_redrawn() -> None:
    out = io.StringIO()
    watcher = Watcher(parse_mqtt_url("mqtt://h/p"), out, tty=True)
    event = _event(PhaseStarted, 1, turn=SPRING, phase="movement")
    watcher._show("p/g1/FRA/phase_started", event.model_dump_json())
    assert out.getvalue() == ""  # redrawn by the refresh loop, not per event
    watcher.finish()
    screen = out.getvalue()
    assert "\x1b[" in screen  # drawn for a terminal (by rich)
    assert "daide-mcts watch" in screen and "SPR 1901" in screen and "1 bot(s)" in screen


# --- the command against a real broker -----------------------------------------------------------


def _start_watch(url: str, *args: str) -> subprocess.Popen[str]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "bot.cli", "watch", url, *args],
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stderr is not None
    line = proc.stderr.readline()
    if not line.startswith("watch: subscribed"):
        proc.kill()
        pytest.fail(f"watch did not subscribe: {line}{proc.communicate()[1]}")
    return proc


async def _play_two_bots(url: str) -> None:
    """Two publishers go through a tiny game: the events watch shows."""
    bots = []
    for name, power in (("alpha", "ENG"), ("beta", "TUR")):
        telemetry = MqttTelemetry(
            parse_mqtt_url(url), game="demo", name=name, power_of=lambda p=power: p
        )
        telemetry.start()
        bots.append(telemetry)
    for i, telemetry in enumerate(bots):
        telemetry.emit(Joined, map="standard", move_time_limit=5)
        telemetry.emit(PhaseStarted, turn=SPRING, phase="movement", deadline_in=5.0)
        telemetry.emit(SearchStats, turn=SPRING, final=True, iterations=1000 + i)
        telemetry.emit(OrdersSubmitted, turn=SPRING, orders=[Hold(PARIS)], margin=0.5 + i)
        telemetry.emit(OrderResult, turn=SPRING, order=Hold(PARIS), result=["SUC"])
        telemetry.emit(Centres, counts={"ENG": 4, "TUR": 5, "UNO": 25})
        telemetry.emit(GameOver, ended_cleanly=True, result="DRW", centres=4 + i)
    for telemetry in bots:
        await telemetry.close()
        assert telemetry.stats()["published"] == 7


@pytest.mark.mqtt
def test_watch_shows_every_bot_and_exits_after_the_game_overs(mosquitto_broker) -> None:
    broker = mosquitto_broker()
    url = broker.url("w")
    watch = _start_watch(url, "--exit-after", "2", "--timeout", "60")
    asyncio.run(_play_two_bots(url))
    out, err = watch.communicate(timeout=60)
    assert watch.returncode == 0, err
    lines = out.splitlines()
    assert "demo ENG alpha: SPR 1901 search final, 1000 iterations" in lines
    assert "demo TUR beta: SPR 1901 submitted 1 order(s), margin 1.50s" in lines
    assert not any("MTO" in line or "HLD: SUC" in line for line in lines)  # no order results
    rows = lines[lines.index(next(x for x in lines if x.startswith("GAME"))) + 1 :]
    assert _words(rows[0]) == "demo ENG alpha SPR 1901 4 0.50s 1000 over: DRW 0"
    assert _words(rows[1]) == "demo TUR beta SPR 1901 5 1.50s 1001 over: DRW 0"
    assert rows[2] == "1 game(s), 2 bot(s), 14 events, 2 game-over(s), 0 invalid message(s)"


@pytest.mark.mqtt
def test_watch_json_prints_every_event(mosquitto_broker) -> None:
    broker = mosquitto_broker()
    url = broker.url("j")
    watch = _start_watch(url, "--json", "--exit-after", "2", "--timeout", "60")
    asyncio.run(_play_two_bots(url))
    out, _err = watch.communicate(timeout=60)
    assert watch.returncode == 0
    events = [json.loads(line) for line in out.splitlines()]
    assert len(events) == 14
    assert sum(e["event"] == "order_result" for e in events) == 2


@pytest.mark.mqtt
def test_watch_times_out_when_the_game_overs_do_not_come(mosquitto_broker) -> None:
    broker = mosquitto_broker()
    watch = _start_watch(broker.url("quiet"), "--exit-after", "1", "--timeout", "1")
    out, err = watch.communicate(timeout=60)
    assert watch.returncode == 1
    assert "timed out after 1s with 0 of 1 game-overs" in err
    assert out.splitlines()[-1].startswith("0 game(s), 0 bot(s)")
    quiet = _start_watch(broker.url("quiet"), "--timeout", "0.5")
    assert quiet.wait(60) == 0


def test_watch_says_when_the_broker_is_unreachable() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "bot.cli", "watch", f"mqtt://127.0.0.1:{free_port()}/x"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2
    assert proc.stderr.startswith("daide-mcts watch: error: cannot subscribe at mqtt://127.0.0.1:")
    assert "Traceback" not in proc.stderr
