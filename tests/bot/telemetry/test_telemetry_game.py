"""Telemetry in whole games: a live Parlance, a real mosquitto, ``daide-mcts play`` processes."""

from __future__ import annotations

import subprocess
import sys
from collections import defaultdict

import pytest

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
    parse_event,
)
from bot.servers.ports import free_port
from tests.bot.conftest import ROOT
from tests.bot.mqtt_recorder import MqttRecorder

pytestmark = [pytest.mark.slow, pytest.mark.parlance, pytest.mark.mqtt]

GAME_OPTIONS = {"MTL": 5, "RTL": 2, "BTL": 2, "draw": 2}
STANDARD_CENTRES = 34


def _check_clean(summary: dict) -> None:
    assert summary["ended_cleanly"], summary
    assert summary["missed_deadlines"] == 0, summary
    assert summary["refused_orders"] == 0, summary
    assert summary["result"].startswith(("DRW", "SLO")), summary


def _events_by_run(messages: list[tuple[str, bytes]], prefix: str) -> dict[str, list[Event]]:
    """Every message validated against the schemas, its topic checked, grouped by bot run."""
    runs: dict[str, list[Event]] = defaultdict(list)
    for topic, payload in messages:
        event = parse_event(payload)  # BadEventError fails the test
        expected_power = event.power or "unassigned"
        assert topic == f"{prefix}/{event.game}/{expected_power}/{event.event}", (topic, event)
        runs[event.run].append(event)
    return runs


def _telemetry_record(bot) -> dict:
    records = [r for r in bot.game_log() if r["kind"] == "telemetry"]
    assert len(records) == 1, records
    return records[0]


def test_every_event_of_a_game_arrives_and_validates(
    parlance_server, parang_bots, run_bot, mosquitto_broker
) -> None:
    """Two of our MCTS bots and five Parang dumbbots; a subscriber and ``watch`` get every event."""
    broker = mosquitto_broker()
    url = broker.url("tele/test")
    server = parlance_server(**GAME_OPTIONS)
    with MqttRecorder(broker.port, "tele/test/#") as recorder:
        watch = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "bot.cli",
                "watch",
                url,
                "--exit-after",
                "2",
                "--timeout",
                "240",
            ],
            cwd=ROOT,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            assert watch.stderr is not None
            first = watch.stderr.readline()
            assert first.startswith("watch: subscribed to tele/test/#"), first
            # Our search (2 s a phase at most) reports its statistics; a DumbBot seat has none.
            common = ("--strategy", "mcts", "--max-think", "2", "--final-year", "1902")
            common = (*common, "--telemetry", url)
            bots = [
                run_bot(server.port, *common, "--seed", str(i), name=f"tele{i}") for i in range(2)
            ]
            parang_bots(server, 5)
            summaries = [bot.wait(timeout=240) for bot in bots]
            out, err = watch.communicate(timeout=120)
        finally:
            if watch.poll() is None:
                watch.kill()
                watch.communicate()
        messages = recorder.messages

    for summary in summaries:
        _check_clean(summary)
    runs = _events_by_run(messages, "tele/test")
    assert len(runs) == 2, runs.keys()
    by_name = {events[0].name: events for events in runs.values()}
    assert set(by_name) == {"tele0", "tele1"}
    game = f"127.0.0.1:{server.port}"
    turns_with_results: list[set[str]] = []
    for name, bot, summary in zip(("tele0", "tele1"), bots, summaries, strict=True):
        events = by_name[name]
        # In order, none lost, none dropped, all of this game and this power.
        assert [e.seq for e in events] == list(range(1, len(events) + 1))
        assert all(e.dropped == 0 for e in events)
        assert {e.game for e in events} == {game}
        assert {e.power for e in events[1:]} == {summary["power"]}
        kinds = [type(e) for e in events]
        assert kinds[0] is Connected and events[0].power is None
        assert kinds[1] is Joined and events[1].move_time_limit == GAME_OPTIONS["MTL"]
        assert kinds[-1] is GameOver
        assert {PhaseStarted, OrdersSubmitted, SearchStats, OrderResult, Centres} <= set(kinds)

        phases = [e for e in events if isinstance(e, PhaseStarted)]
        assert phases[0].turn == "SPR 1901" and phases[0].phase == "movement"
        assert {"FAL 1901", "WIN 1901", "SPR 1902"} <= {p.turn for p in phases}
        assert all(p.deadline_in is not None and 0 < p.deadline_in <= 5 for p in phases)

        submitted = [e for e in events if isinstance(e, OrdersSubmitted)]
        assert len(submitted) == summary["submissions"]
        assert [e.margin for e in submitted if e.margin is not None] == summary["margins"]
        assert all(e.orders for e in submitted)
        assert all(e.margin is not None and e.margin > 0 for e in submitted)

        searches = [e for e in events if isinstance(e, SearchStats)]
        assert searches and all(s.iterations is not None and s.iterations > 0 for s in searches)
        assert any(s.final for s in searches)

        results = [e for e in events if isinstance(e, OrderResult)]
        spring = [r for r in results if r.turn == "SPR 1901"]
        assert len(spring) == 22, spring  # every unit of every power, as Parlance reports
        assert all(r.result for r in spring)
        turns_with_results.append({r.turn for r in results})

        centres = [e for e in events if isinstance(e, Centres)]
        assert all(sum(c.counts.values()) == STANDARD_CENTRES for c in centres)

        over = events[-1]
        assert isinstance(over, GameOver)
        assert over.ended_cleanly and over.missed_deadlines == 0
        assert (over.result, over.smr, over.centres) == (
            summary["result"],
            summary["smr"],
            summary["centres"],
        )
        record = _telemetry_record(bot)
        assert record["connections"] == 1, record
        assert record["emitted"] == record["published"] == len(events), record
        assert record["dropped"] == record["undelivered"] == record["invalid"] == 0, record
    assert turns_with_results[0] == turns_with_results[1]  # both saw the same phases' results

    # watch saw the same game: exit 0 after both game-overs; a line per event; the final table.
    assert watch.returncode == 0, err
    lines = out.splitlines()
    assert any(f"{game} " in line and "tele0: joined" in line for line in lines), out
    assert sum("game over cleanly" in line for line in lines) == 2, out
    table = lines[lines.index(next(line for line in lines if line.startswith("GAME"))) :]
    for summary in summaries:
        row = next(line for line in table if f" {summary['power']} " in line)
        assert "over: " + summary["result"].split(" ")[0] in row, row
    assert table[-1].startswith("1 game(s), 2 bot(s)"), table[-1]


def test_the_game_is_unaffected_when_the_broker_is_unreachable(
    parlance_server, parang_bots, run_bot
) -> None:
    """--telemetry at a closed port: the game ends cleanly, nothing is missed or refused."""
    closed = free_port()  # nothing listens there
    server = parlance_server(**GAME_OPTIONS)
    bot = run_bot(
        server.port,
        "--strategy",
        "dumbbot",
        "--final-year",
        "1902",
        "--seed",
        "3",
        "--telemetry",
        f"mqtt://127.0.0.1:{closed}/nowhere",
    )
    parang_bots(server, 6)
    summary = bot.wait(timeout=240)
    _check_clean(summary)
    assert summary["margins"] and min(summary["margins"]) > 0, summary["margins"]
    assert summary["shadow_mismatches"] == 0 and summary["bad_messages"] == 0, summary
    record = _telemetry_record(bot)
    # The publisher really tried: events were queued, never published, and left undelivered.
    assert record["connections"] == 0 and record["published"] == 0, record
    assert record["emitted"] > 0 and record["undelivered"] == record["emitted"], record
    assert record["dropped"] == 0, record


def test_broker_lost_mid_game_and_back(
    parlance_server, parang_bots, run_bot, mosquitto_broker
) -> None:
    """The broker restarts mid-game: the bot reconnects and every event still arrives."""
    broker = mosquitto_broker(persistent=True)  # keeps the recorder's session over the restart
    server = parlance_server(**GAME_OPTIONS)
    with MqttRecorder(broker.port, "lost/#", persistent=True) as recorder:
        bot = run_bot(
            server.port,
            "--strategy",
            "dumbbot",
            "--final-year",
            "1902",
            "--seed",
            "5",
            "--game-id",
            "lost-and-back",
            "--telemetry",
            broker.url("lost"),
        )

        def seen(kind: str):
            return lambda messages: any(t.endswith("/" + kind) for t, _ in messages)

        assert recorder.wait_for(seen("connected"), 60), recorder.errors
        parang_bots(server, 6)
        assert recorder.wait_for(seen("phase_started"), 120), recorder.messages
        broker.restart()
        summary = bot.wait(timeout=240)
        assert recorder.wait_for(seen("game_over"), 60), broker.output()[-2000:]
        messages = recorder.messages
    _check_clean(summary)
    record = _telemetry_record(bot)
    assert record["connections"] >= 2, record  # it really lost the broker and came back
    assert record["dropped"] == record["undelivered"] == record["invalid"] == 0, record
    (events,) = _events_by_run(messages, "lost").values()
    assert {e.game for e in events} == {"lost-and-back"}
    # At least once: after the loss an event may come twice, but none is missing.
    assert sorted({e.seq for e in events}) == list(range(1, record["emitted"] + 1))
    assert isinstance(max(events, key=lambda e: e.seq), GameOver)
    assert recorder.subscriptions >= 2
