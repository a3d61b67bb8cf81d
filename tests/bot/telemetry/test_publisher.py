"""The telemetry publisher, its URL and its schemas; publishing tested against a real mosquitto."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys

import aiomqtt
import pytest

from bot.client.mqtt_publisher import MqttTelemetry, Telemetry, search_fields
from bot.client.mqtt_url import MqttTarget, MqttUrlError, parse_mqtt_url, topic_level
from bot.client.settings import SettingsError, load_settings, make_telemetry
from bot.client.telemetry_events import (
    EVENT_TYPES,
    BadEventError,
    Centres,
    GameOver,
    OrdersSubmitted,
    PhaseStarted,
    SearchStats,
    event_schemas,
    parse_event,
    phase_of,
)
from bot.lab.bench.bench_telemetry import main as benchmark
from bot.servers.ports import free_port
from protocol.values import Build, Hold, Location, Season, Turn, Unit, UnitType
from tests.bot.conftest import ROOT
from tests.bot.mqtt_recorder import MqttRecorder

SPRING = Turn(Season.SPRING, 1901)
LONDON = Unit("ENG", UnitType.FLEET, Location("LON"))


# --- the URL --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("mqtt://broker", MqttTarget("broker", 1883, "daide-mcts")),
        ("mqtt://127.0.0.1:1884/games", MqttTarget("127.0.0.1", 1884, "games")),
        ("MQTT://host:1/a/b/", MqttTarget("host", 1, "a/b")),
        ("mqtt://u:p%40ss@h:2/x", MqttTarget("h", 2, "x", "u", "p@ss")),
        ("mqtt://[::1]:1883/v6", MqttTarget("::1", 1883, "v6")),
    ],
)
def test_good_urls(url: str, expected: MqttTarget) -> None:
    assert parse_mqtt_url(url) == expected


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("", "empty"),
        ("broker:1883", "no scheme"),
        ("http://broker/x", "scheme must be mqtt"),
        ("mqtts://broker/x", "TLS is not supported"),
        ("mqtt://:1883/x", "no broker host"),
        ("mqtt://broker:99999/x", "out of range"),
        ("mqtt://broker:abc/x", "expected mqtt://"),
        ("mqtt://broker:0/x", "port 0"),
        ("mqtt://broker/x?q=1", "no query"),
        ("mqtt://broker/a/+/b", "'+', '#'"),
        ("mqtt://broker/a//b", "empty level"),
    ],
)
def test_bad_urls_say_why(url: str, says: str) -> None:
    with pytest.raises(MqttUrlError) as info:
        parse_mqtt_url(url)
    assert says in str(info.value)


def test_the_password_is_never_shown() -> None:
    assert str(parse_mqtt_url("mqtt://me:secret@h/x")) == "mqtt://me@h:1883/x"


def test_topic_levels_are_made_safe() -> None:
    assert topic_level("127.0.0.1:16713") == "127.0.0.1:16713"
    assert topic_level("a/b+c#") == "a_b_c_"
    assert topic_level("") == "_"


# --- settings and the command line ----------------------------------------------------------


def test_settings_refuse_a_bad_telemetry_url_with_a_clear_message() -> None:
    with pytest.raises(SettingsError, match=r"^telemetry: 'tcp://h': the scheme must be mqtt"):
        load_settings(telemetry="tcp://h")
    with pytest.raises(SettingsError, match="game_id"):
        load_settings(game_id="a/b")
    assert load_settings(telemetry=" mqtt://h/p ").telemetry == "mqtt://h/p"


def test_play_reports_a_bad_telemetry_url_without_a_traceback() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "bot.cli", "play", "--telemetry", "mqtt://h:70000/x"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2
    assert proc.stderr.startswith("daide-mcts play: error: telemetry: ")
    assert "out of range" in proc.stderr and "Traceback" not in proc.stderr


def test_telemetry_is_off_by_default() -> None:
    telemetry = make_telemetry(load_settings())
    assert type(telemetry) is Telemetry and not telemetry.enabled
    telemetry.emit(PhaseStarted, turn=SPRING, phase="movement")  # does nothing, raises nothing
    assert telemetry.stats() == {"enabled": False}


def test_the_game_defaults_to_the_servers_address() -> None:
    on = load_settings(host="10.0.0.5", port=16714, telemetry="mqtt://b/p")
    telemetry = make_telemetry(on)
    assert isinstance(telemetry, MqttTelemetry) and telemetry.game == "10.0.0.5:16714"
    named = make_telemetry(load_settings(telemetry="mqtt://b/p", game_id="final-7"))
    assert isinstance(named, MqttTelemetry) and named.game == "final-7"


# --- schemas ---------------------------------------------------------------------------------


def test_every_event_type_has_a_schema_and_a_distinct_name() -> None:
    schemas = event_schemas()
    assert set(schemas) == set(EVENT_TYPES) and len(EVENT_TYPES) == 9
    for name, schema in schemas.items():
        assert schema["properties"]["event"]["const"] == name


def test_parse_event_refuses_what_is_not_an_event() -> None:
    for payload in (b"not json", b"{}", b'{"event": "nonsense"}', b'{"event": "centres"}'):
        with pytest.raises(BadEventError):
            parse_event(payload)


def test_events_round_trip_and_ignore_unknown_fields() -> None:
    envelope = {"game": "g", "power": "ENG", "name": "n", "run": "r", "seq": 1, "time": 1.0}
    event = OrdersSubmitted(turn=SPRING, orders=[Hold(LONDON), Build(LONDON)], **envelope)
    assert event.turn == "SPR 1901"
    assert event.orders == ["( ENG FLT LON ) HLD", "( ENG FLT LON ) BLD"]
    data = json.loads(event.model_dump_json())
    data["added_in_a_later_version"] = 1
    assert parse_event(json.dumps(data)) == event


def test_phase_kinds() -> None:
    assert [phase_of(s) for s in ("SPR", "SUM", "FAL", "AUT", "WIN")] == [
        "movement",
        "retreat",
        "movement",
        "retreat",
        "adjustment",
    ]


def test_search_statistics_are_split_into_fields() -> None:
    fields = search_fields(
        {"strategy": "mcts:v8", "iterations": 1234, "seconds": 1.5, "depth": 3, "best": (1, 2)}
    )
    assert fields == {
        "strategy": "mcts:v8",
        "iterations": 1234,
        "seconds": 1.5,
        "stats": {"depth": 3, "best": "(1, 2)"},
    }
    assert search_fields({"iterations": 2.5})["stats"] == {"iterations": 2.5}


# --- the publisher's queue --------------------------------------------------------------------


def _publisher(port: int, maxsize: int = 1000, prefix: str = "t") -> MqttTelemetry:
    return MqttTelemetry(
        parse_mqtt_url(f"mqtt://127.0.0.1:{port}/{prefix}"),
        game="g1",
        name="bot",
        power_of=lambda: "ENG",
        maxsize=maxsize,
    )


def test_a_full_queue_drops_the_oldest_events_and_counts_them() -> None:
    telemetry = _publisher(free_port(), maxsize=5)
    for _ in range(12):
        telemetry.emit(PhaseStarted, turn=SPRING, phase="movement")
    stats = telemetry.stats()
    assert (stats["emitted"], stats["dropped"], stats["queued"]) == (12, 7, 5)
    assert [event.seq for _topic, event in telemetry._queue] == [8, 9, 10, 11, 12]


def test_emit_never_raises() -> None:
    telemetry = _publisher(free_port())
    telemetry.emit(PhaseStarted, turn=SPRING, phase="not a phase")
    telemetry.emit(Centres, counts="not a mapping")

    def broken_power() -> str:
        raise RuntimeError("boom")

    telemetry.power_of = broken_power
    telemetry.emit(Centres, counts={"ENG": 3})
    stats = telemetry.stats()
    assert (stats["invalid"], stats["emitted"], stats["queued"]) == (3, 0, 0)
    telemetry.power_of = lambda: None
    telemetry.emit(Centres, counts={"ENG": 3})
    ((topic, event),) = telemetry._queue
    assert topic == "t/g1/unassigned/centres" and event.seq == 1  # invalid ones took no number


async def _collect(port: int, topic: str, count: int, publish) -> list[tuple[str, bytes]]:
    """Subscribe, run ``publish()``, and return the first ``count`` messages."""
    received: list[tuple[str, bytes]] = []
    async with aiomqtt.Client("127.0.0.1", port, timeout=10) as sub:
        await sub.subscribe(topic, qos=1)
        await publish()

        async def read() -> None:
            async for message in sub.messages:
                assert isinstance(message.payload, bytes)
                received.append((message.topic.value, message.payload))
                if len(received) == count:
                    return

        await asyncio.wait_for(read(), 30)
    return received


async def test_queued_events_reach_the_broker_in_order_with_the_drop_count(
    mosquitto_broker,
) -> None:
    broker = mosquitto_broker()
    telemetry = _publisher(broker.port, maxsize=5)
    for i in range(12):
        telemetry.emit(SearchStats, turn=SPRING, final=False, iterations=i)

    async def publish() -> None:
        telemetry.start()
        await telemetry.close()

    messages = await _collect(broker.port, "t/#", 5, publish)
    events = [parse_event(payload) for _topic, payload in messages]
    assert [e.seq for e in events] == [8, 9, 10, 11, 12]
    assert all(e.dropped == 7 for e in events)  # the count as of sending
    assert {topic for topic, _ in messages} == {"t/g1/ENG/search_stats"}
    stats = telemetry.stats()
    assert (stats["published"], stats["undelivered"], stats["connections"]) == (5, 0, 1)


async def test_close_gives_up_on_an_unreachable_broker() -> None:
    telemetry = _publisher(free_port())
    telemetry.start()
    telemetry.emit(GameOver, ended_cleanly=True)
    await asyncio.sleep(0.3)  # a few failed attempts
    await telemetry.close()
    stats = telemetry.stats()
    assert (stats["connections"], stats["published"], stats["undelivered"]) == (0, 0, 1)


async def test_close_without_start_or_events_is_harmless() -> None:
    telemetry = _publisher(free_port())
    await telemetry.close()
    assert telemetry.stats()["undelivered"] == 0


@pytest.mark.mqtt
def test_a_broker_restart_while_publishing_loses_nothing(mosquitto_broker) -> None:
    """Events in flight when the broker goes are published again once it is back."""
    broker = mosquitto_broker(persistent=True)
    total = 3000
    with MqttRecorder(broker.port, "t/#", persistent=True) as recorder:

        async def publish() -> MqttTelemetry:
            telemetry = _publisher(broker.port, maxsize=total)
            telemetry.flush_timeout = 120  # this test waits for delivery, however slow
            telemetry.start()
            for i in range(total):
                telemetry.emit(SearchStats, turn=SPRING, final=False, iterations=i)
            while telemetry.published < 200:
                await asyncio.sleep(0.001)
            await asyncio.to_thread(broker.restart)
            await telemetry.close()
            return telemetry

        telemetry = asyncio.run(publish())
        assert recorder.wait_for(
            lambda messages: len({parse_event(p).seq for _t, p in messages}) >= total, 60
        ), len(recorder.messages)
    stats = telemetry.stats()
    assert stats["connections"] >= 2, stats
    assert (stats["dropped"], stats["undelivered"]) == (0, 0), stats
    seqs = {parse_event(payload).seq for _topic, payload in recorder.messages}
    assert seqs == set(range(1, total + 1))


@pytest.mark.mqtt
def test_the_benchmark_prints_its_figures(mosquitto_install, capsys) -> None:
    assert benchmark(["--events", "300", "--repeat", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in lines] == [
        "emit(), room in the queue",
        "emit(), queue full (drop)",
        "publishing 300 events to a local mosquitto (QoS 1)",
        "event-loop lag while publishing",
        "event-loop lag, nothing to publish",
    ]
