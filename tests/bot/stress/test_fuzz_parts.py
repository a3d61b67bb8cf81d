"""The fuzzer's parts: the recorded stream, the mutations, the replay's judgement, the workers."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

import pytest

from bot.stress.fuzz import Invariant, check
from bot.stress.fuzz_mutations import KINDS, Kind, case_kind, mutate
from bot.stress.fuzz_script import Expect, Item, base_script, item_of
from bot.stress.fuzz_server import ClientMessage, PhaseVerdict, ReplayServer, Trace
from bot.stress.fuzz_stream import (
    GAME_PATH,
    StreamError,
    game_log_lines,
    main,
    parse_stream,
    recorded_game,
)
from bot.stress.fuzz_worker import ClientOutcome, ClientWorker, Outcome
from bot.stress.hostile import RESERVED_TOKEN
from protocol.decoder import Decoder
from protocol.messages import Map, Mdf, Message, Rej, Smr, Sub, Yes, parse_text
from protocol.wire import DiplomacyMessage, encode_initial, encode_message

ROOT = Path(__file__).resolve().parents[3]
DAIDE_MCTS = Path(sys.executable).parent / "daide-mcts"


def test_the_recorded_game_is_a_real_two_year_game_as_russia() -> None:
    stream = recorded_game()
    assert stream.power == "RUS" and stream.greeting.passcode == 373
    assert [str(p.turn) for p in stream.phases] == [
        "SPR 1901", "FAL 1901", "WIN 1901", "SPR 1902", "SUM 1902", "FAL 1902", "WIN 1902",
    ]  # fmt: skip
    # Russia moves, builds and retreats; the judge's draw comes before the last NOW.
    assert [p.needs_orders(stream.power_id) for p in stream.phases] == [True] * 6 + [False]
    assert [p.after_end for p in stream.phases] == [False] * 6 + [True]
    assert [p.seconds for p in stream.phases[:3]] == [3.0, 3.0, 2.0]
    replies = [type(m) for _, ms in stream.handshake for m in ms]
    assert replies == [Yes, Map, Mdf]


@pytest.mark.parametrize(
    ("lines", "error"),
    [
        (["<< NOW ( SPR"], "x line 1: "),
        (["# a comment", "?? HLO"], "x line 2: starts with neither"),
        (['>> NME ( "a" ) ( "b" )', '<< MAP ( "standard" )'], "no complete handshake"),
    ],
)
def test_a_stream_that_cannot_be_replayed_is_one_clear_error(lines, error) -> None:
    with pytest.raises(StreamError, match=error.replace("(", r"\(")):
        parse_stream(lines, "x")


def test_a_bot_game_log_becomes_a_stream_file(tmp_path: Path, capsys) -> None:
    records = []
    for line in GAME_PATH.read_text().splitlines():
        if line.startswith(("<<", ">>")):
            direction = "in" if line.startswith("<<") else "out"
            records.append({"kind": "msg", "dir": direction, "text": line[3:]})
    records.insert(3, {"kind": "search", "final": True})
    log = tmp_path / "bot.jsonl"
    log.write_text("".join(json.dumps(r) + "\n" for r in records) + "not json\n")
    assert main([str(log)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert parse_stream(out, "converted").body == recorded_game().body
    assert game_log_lines(['{"kind": "msg", "dir": "out", "text": "MDF"}']) == [">> MDF"]

    log.write_text(json.dumps({"kind": "msg", "dir": "in", "text": "HLO"}) + "\n")
    assert main([str(log)]) == 1
    assert "no complete handshake" in capsys.readouterr().err


def test_mutations_are_seeded_and_take_every_kind_in_turn() -> None:
    stream = recorded_game()
    cases = range(2 * len(KINDS))
    first = [mutate(stream, c, 7) for c in cases]
    again = [mutate(stream, c, 7) for c in cases]
    assert [m.description for m in first] == [m.description for m in again]
    assert [m.script for m in first] == [m.script for m in again]
    assert [m.kind for m in first] == [case_kind(c) for c in cases] == [*KINDS, *KINDS]
    other = [mutate(stream, c, 8).description for c in cases]
    assert other != [m.description for m in first]
    assert first[0].script == base_script(stream)  # the control is the recorded game


def test_changed_messages_say_what_the_client_should_make_of_them() -> None:
    stream = recorded_game()
    recorded = {step for step in base_script(stream).steps if isinstance(step, Item)}
    seen: set[Expect] = set()
    for case in range(40 * len(KINDS)):
        mutation = mutate(stream, case, 0)
        script = mutation.script
        items = [s for s in script.steps if isinstance(s, Item)]
        items += [i for _, replies in script.handshake for i in replies]
        changed = [i for i in items if i not in recorded and i.recorded is None]
        if mutation.kind in (Kind.CLEAN, Kind.DROP, Kind.REORDER):
            assert not [i for i in changed if i.expect is not Expect.ACCEPT], mutation
        for item in changed:
            seen.add(item.expect)
            if item.expect is Expect.MALFORMED:
                assert item.message is None, mutation.description
            elif item.expect is Expect.VIOLATION:
                assert RESERVED_TOKEN in item.tokens, mutation.description
            elif item.command != "MDF":
                assert item.message is not None, mutation.description
    assert seen == set(Expect)


def _verdict(owed: bool, done: bool) -> PhaseVerdict:
    return PhaseVerdict(0, "SPR 1901", owed, "", True, done, "no SUB", 3.0)


def test_the_checks_of_each_invariant() -> None:
    stream = recorded_game()
    clean = mutate(stream, 0, 0)
    ended = ClientOutcome(Outcome.ENDED, summary={"bad_messages": 0})
    fine = check(clean, Trace(phases=[_verdict(True, True)], finished=True), ended)
    assert fine.passed and all(fine.held.values()), fine

    died = ClientOutcome(Outcome.DIED, "killed by SIGSEGV")
    result = check(clean, Trace(phases=[_verdict(True, True)]), died)
    assert result.held[Invariant.SURVIVES] is False and result.held[Invariant.COUNTERS] is None
    assert "killed by SIGSEGV" in result.problems[0]

    gave_up = ClientOutcome(Outcome.GAVE_UP, "giving up", {"x": 1})
    assert check(clean, Trace(finished=True), gave_up).held[Invariant.SURVIVES] is True
    assert check(clean, Trace(finished=False), gave_up).held[Invariant.SURVIVES] is False
    refused = Rej(Map("standard"))
    said = ClientMessage(0.0, 1, refused.to_text(), refused, True, False)
    left = check(clean, Trace(received=[said], finished=False), gave_up)
    assert left.held[Invariant.SURVIVES] is True  # it refused the map: a clean stop

    missed = check(clean, Trace(phases=[_verdict(True, False)]), ended)
    assert missed.held[Invariant.ORDERS] is False and "SPR 1901" in missed.problems[0]
    assert (
        check(clean, Trace(phases=[_verdict(False, False)]), ended).held[Invariant.ORDERS] is None
    )

    counted = ClientOutcome(Outcome.ENDED, summary={"ignored_messages": 1})
    assert check(clean, Trace(), counted).held[Invariant.COUNTERS] is False
    rej = mutate(stream, 11, 0)
    assert rej.kind is Kind.REJ
    bad = Trace(delivered=[item_of(parse_text("REJ ( DRW )"), Expect.IGNORE)])
    assert check(rej, bad, ended).held[Invariant.COUNTERS] is False
    assert check(rej, bad, counted).held[Invariant.COUNTERS] is True
    # Where the summary counts ignored messages by kind, the REJ must be among them.
    elsewhere = ClientOutcome(
        Outcome.ENDED, summary={"ignored_messages": 1, "ignored_by_kind": {"NOW": 1}}
    )
    result = check(rej, bad, elsewhere)
    assert result.held[Invariant.COUNTERS] is False and "has no REJ" in result.problems[0]
    by_kind = ClientOutcome(
        Outcome.ENDED, summary={"ignored_messages": 1, "ignored_by_kind": {"REJ": 1}}
    )
    assert check(rej, bad, by_kind).held[Invariant.COUNTERS] is True


class _RudeClient:
    """A scripted client that sends orders before it joins and never orders a phase."""

    def __init__(self) -> None:
        self.heard: list[Message] = []

    async def play(self, port: int) -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        decoder = Decoder()
        writer.write(encode_initial())
        early = Sub((parse_text("SUB ( ( RUS AMY MOS ) HLD )").orders[0],))  # type: ignore[attr-defined]
        writer.write(encode_message(parse_text('NME ( "rude" ) ( "1" )')))
        while data := await reader.read(65536):
            for wire in decoder.feed(data):
                if not isinstance(wire, DiplomacyMessage):
                    writer.write(encode_message(early))  # right after the RM
                    continue
                message = wire.parse()
                self.heard.append(message)
                if isinstance(message, Map):
                    writer.write(encode_message(Mdf()))
                elif isinstance(message, Mdf):
                    writer.write(encode_message(Yes(Map("standard"))))
                elif isinstance(message, Smr):
                    writer.close()
                    return


async def test_the_replay_catches_a_client_that_breaks_the_rules() -> None:
    stream = recorded_game()
    clean = mutate(stream, 0, 0)
    rude = _RudeClient()
    async with ReplayServer(stream, clean.script) as server:
        client = asyncio.create_task(rude.play(server.port))
        trace = await asyncio.wait_for(server.run(), 60)
        await asyncio.wait_for(client, 10)
    assert isinstance(rude.heard[-1], Smr) and trace.finished
    result = check(clean, trace, ClientOutcome(Outcome.ENDED, summary={"bad_messages": 0}))
    assert result.held[Invariant.QUIET] is False
    assert "SUB ( ( RUS AMY MOS ) HLD ) before HLO" in result.problems[0]
    assert result.held[Invariant.ORDERS] is False
    missed = [p for p in result.problems if p.startswith("orders")]
    assert missed == ["orders: SPR 1901: no complete legal orders before the deadline (no SUB)"]
    # The first miss waited for the real deadline; the case has failed, so the later
    # phases are given a moment only, and not judged.
    assert trace.phases[0].waited >= 2.9 and not trace.phases[0].hurried
    assert all(p.hurried and p.waited < 1 for p in trace.phases[1:6])


async def test_a_client_process_that_dies_is_reported_with_its_signal() -> None:
    silent = await asyncio.start_server(lambda r, w: None, "127.0.0.1", 0)  # never sends RM
    port = silent.sockets[0].getsockname()[1]
    worker = ClientWorker()
    await worker.start()
    try:
        playing = asyncio.create_task(worker.play(port, 0, "random", 60))
        await asyncio.sleep(3)  # the client is up and waits for the RM
        assert worker.alive and not playing.done()
        worker.kill()
        outcome = await asyncio.wait_for(playing, 10)
    finally:
        await worker.close()
        silent.close()
    assert outcome.outcome == Outcome.DIED and outcome.detail.startswith("killed by SIGKILL")


def _stress(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(DAIDE_MCTS), "stress", "--out", str(tmp_path), *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_stress_fuzz_runs_cases_and_prints_the_table(tmp_path: Path) -> None:
    json_path = tmp_path / "fuzz.json"
    done = _stress(tmp_path, "--fuzz-case", "0", "--fuzz-case", "14", "--json", str(json_path))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "| clean | 2 | 2/0 | 2/0 | 2/0 | 2/0 |" in done.stdout
    assert "2 cases in" in done.stdout and "2 passed, 0 failed" in done.stdout
    document = json.loads(json_path.read_text())
    assert document["cases"] == 2 and document["failed_cases"] == 0
    assert [r["case"] for r in document["results"]] == [0, 14]


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (["--fuzz", "0"], "--fuzz must be between"),
        (["--fuzz", "3", "--short"], "--fuzz runs the fuzzer alone"),
        (["--fuzz-case", "-1"], "--fuzz-case must not be negative"),
        (["--fuzz", "1", "--fuzz-clients", "0"], "--fuzz-clients must be between"),
        (["--fuzz", "1", "--strategy", "nonsense"], "unknown player 'nonsense'"),
    ],
)
def test_bad_fuzz_flags_are_one_line_errors(tmp_path: Path, args, error) -> None:
    done = _stress(tmp_path, *args)
    assert done.returncode == 2 and error in done.stderr, done.stderr
    assert "Traceback" not in done.stderr
