"""A local game with people in it: the seat, the person's power, deadlines and the bots' cap."""

from __future__ import annotations

import json
from argparse import Namespace
from pathlib import Path

import pytest

from bot.cli import UserError, main
from bot.commands.game import (
    STAYS_UP,
    bot_time_from_args,
    deadlines_from_args,
    power_slots_from_args,
    seats_from_args,
)
from bot.local.launch import (
    DEFAULT_DEADLINES,
    PERSON_BOT_TIME,
    PERSON_DEADLINES,
    PLAIN_STANDARD,
    seat_argv,
)
from bot.local.lineup import parse_lineup
from bot.local.runner import page_address
from bot.servers.parlance_maps import ServedMap

STANDARD_POWERS = PLAIN_STANDARD.powers
SAILHO = ServedMap("sailho", 1901, ("EST", "NTH", "STH", "WST"))


def _args(**kw: object) -> Namespace:
    base = {"lineup": None, "fill": "dumbbot", "human": None, "seed": 1, "bot_time": None}
    base.update({"mtl": None, "rtl": None, "btl": None})
    base.update(kw)
    return Namespace(**base)


def test_human_seats_in_a_lineup_more_than_one_allowed() -> None:
    seats = parse_lineup("human,mcts,human")
    assert [s.kind for s in seats[:3]] == ["human", "ours", "human"]
    assert [s.name for s in seats if s.kind == "human"] == ["human-1", "human-2"]


def test_dash_dash_human_puts_a_person_first_before_the_lineup() -> None:
    seats = seats_from_args(_args(human="any"), PLAIN_STANDARD)
    assert [s.kind for s in seats] == ["human", "ours", *["ours"] * 5]
    assert seats[1].spec == "mcts"
    seats = seats_from_args(_args(human="any", lineup="mcts,mcts,dumbbot"), PLAIN_STANDARD)
    assert [s.spec for s in seats][:4] == ["human", "mcts", "mcts", "dumbbot"]


@pytest.mark.parametrize("power", STANDARD_POWERS)
def test_the_person_gets_the_power_asked_for_and_every_power_is_dealt_once(power: str) -> None:
    args = _args(human=power.lower())
    seats = seats_from_args(args, PLAIN_STANDARD)
    slots = power_slots_from_args(args, seats, PLAIN_STANDARD)
    assert slots is not None and sorted(slots) == list(range(7))
    person = next(i for i, s in enumerate(seats) if s.kind == "human")
    assert STANDARD_POWERS[slots[person]] == power


def test_no_power_asked_for_means_the_server_deals() -> None:
    args = _args(human="any")
    assert (
        power_slots_from_args(args, seats_from_args(args, PLAIN_STANDARD), PLAIN_STANDARD) is None
    )
    xyz = _args(human="XYZ")
    with pytest.raises(UserError, match="unknown power"):
        power_slots_from_args(xyz, seats_from_args(xyz, PLAIN_STANDARD), PLAIN_STANDARD)


@pytest.mark.parametrize("power", SAILHO.powers)
def test_on_a_variant_the_person_gets_a_power_of_its_map(power: str) -> None:
    args = _args(human=power)
    seats = seats_from_args(args, SAILHO)
    assert [s.kind for s in seats] == ["human", "ours", "ours", "ours"]
    slots = power_slots_from_args(args, seats, SAILHO)
    assert slots is not None and sorted(slots) == [0, 1, 2, 3]
    assert SAILHO.powers[slots[0]] == power
    with pytest.raises(UserError, match="one of EST, NTH, STH, WST"):
        power_slots_from_args(_args(human="FRA"), seats, SAILHO)


def test_a_persons_deadlines_and_the_bots_cap_by_default_the_flags_win() -> None:
    assert deadlines_from_args(_args(), person=True) == PERSON_DEADLINES
    assert deadlines_from_args(_args(), person=False) == DEFAULT_DEADLINES
    assert deadlines_from_args(_args(mtl=60), person=True).move == 60
    assert bot_time_from_args(_args(), person=True) == PERSON_BOT_TIME
    assert bot_time_from_args(_args(), person=False) is None
    assert bot_time_from_args(_args(bot_time=3), person=True) == 3.0
    with pytest.raises(UserError, match="--bot-time"):
        bot_time_from_args(_args(bot_time=0), person=True)


def test_the_seats_command_lines() -> None:
    person, bot = parse_lineup("human,mcts")[:2]
    argv = seat_argv(person, "127.0.0.1", 16713, final_year=1902, parlance=None)
    assert argv[3:10] == ["human", "--host", "127.0.0.1", "--port", "16713", "--name", "human"]
    assert argv[argv.index("--last-year") + 1] == "1902"  # the coach grades as review does
    assert "--press-turn" not in argv
    # on MILA's server the person's SNDs name the turn, as our bots' do
    mila = seat_argv(person, "h", 1, final_year=1902, parlance=None, press_turn=True)
    assert "--press-turn" in mila
    argv = seat_argv(bot, "127.0.0.1", 16713, final_year=1902, parlance=None, max_think=4)
    assert argv[argv.index("--max-think") + 1] == "4"
    assert "--max-think" not in seat_argv(bot, "h", 1, final_year=1902, parlance=None)


def test_the_page_address_is_read_from_the_seats_output(tmp_path: Path) -> None:
    out = tmp_path / "human.out"
    assert page_address(out) is None
    out.write_bytes(b"starting\n")
    assert page_address(out) is None
    out.write_bytes(b"starting\nplay at http://127.0.0.1:8123/?key=abc123 (keep it secret)\n")
    assert page_address(out) == "http://127.0.0.1:8123/?key=abc123"
    out.write_bytes(b"http://evil.example:80/x\n")
    assert page_address(out) is None


def test_a_tournament_refuses_people(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", "--games", "1", "--lineup", "human", "--out", str(tmp_path)]) == 2
    assert "a tournament plays bots only" in capsys.readouterr().err


def _seat_request(url: str, path: str, body: dict | None = None) -> dict:
    """A request to a person's page (``url`` is the address the game printed, key included)."""
    import http.client
    import json
    from urllib.parse import parse_qs, urlsplit

    parts = urlsplit(url)
    key = parse_qs(parts.query)["key"][0]
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
    try:
        headers = {"X-Seat-Key": key, "Content-Type": "application/json"}
        payload = None if body is None else json.dumps(body)
        conn.request("GET" if body is None else "POST", path, payload, headers)
        response = conn.getresponse()
        text = response.read()
        assert response.status == 200, (path, response.status, text)
        return json.loads(text)
    finally:
        conn.close()


def _review_json(folder: Path, power: str, out: Path) -> dict:
    """``daide-mcts review FOLDER --power P --json OUT`` (its defaults), its JSON."""
    assert main(["review", str(folder), "--power", power, "--json", str(out)]) == 0
    return json.loads(out.read_text())


@pytest.mark.parlance
@pytest.mark.slow
def test_a_local_game_with_a_person_as_france(tmp_path: Path) -> None:
    """``game --human FRA``: the page's address is printed, the person orders through it; after
    the game the page stays up with the grades ``review`` gives, until Ctrl-C."""
    import re
    import signal
    import subprocess
    import sys
    import time

    folder = tmp_path / "run"
    argv = [sys.executable, "-m", "bot.cli", "game", "--human", "FRA", "--final-year", "1901",
            "--mtl", "20", "--rtl", "3", "--btl", "3", "--bot-time", "1", "--seed", "3",
            "--out", str(folder)]  # fmt: skip
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert proc.stdout is not None
    out: list[str] = []
    url = None
    until = time.monotonic() + 120
    while url is None and time.monotonic() < until:
        line = proc.stdout.readline()
        if not line:
            break
        out.append(line)
        found = re.search(r"human plays at (http://127\.0\.0\.1:\d+/\?key=\S+)", line)
        url = found.group(1) if found else None
    assert url is not None, "".join(out)
    state: dict = {}
    while time.monotonic() < until:
        state = _seat_request(url, "/api/state")
        if state["phase"] is not None:
            break
        time.sleep(0.3)
    phase = state["phase"]
    assert phase is not None and phase["power"] == "FRA" and phase["turn"] == "SPR 1901"
    _seat_request(url, "/api/submit", {"turn": "SPR 1901", "orders": ["A PAR - BUR"]})
    _seat_request(url, "/api/ready", {"turn": "SPR 1901", "ready": True})
    # The game ends and is reported; the person's page stays up (its review) until Ctrl-C.
    until = time.monotonic() + 300
    while time.monotonic() < until and (not out or STAYS_UP not in out[-1]):
        line = proc.stdout.readline()
        if not line:
            break
        out.append(line)
    assert out and STAYS_UP in out[-1], "".join(out)
    assert "Result: DRW" in "".join(out)
    state = _seat_request(url, "/api/state")
    while not state["coach"]["over"] or state["coach"]["pending"]:
        assert time.monotonic() < until, state["coach"]
        time.sleep(0.3)
        state = _seat_request(url, "/api/state")
    assert state["info"]["over"] and state["coach"]["failed"] == {}
    # ``daide-mcts review`` on the run folder gives the grades the page gave.
    review = _review_json(folder, "FRA", tmp_path / "review.json")
    assert review["final_year"] == 1901
    assert [p["turn"] for p in review["phases"]] == [g["turn"] for g in state["coach"]["grades"]]
    for live, again in zip(state["coach"]["grades"], review["phases"], strict=True):
        g = again["grade"]
        assert (live["label"], live["loss"], live["low"], live["high"]) == (
            g["label"], g["loss"], g["low"], g["high"]
        )  # fmt: skip
        assert (live["played"], live["better"]) == (again["played"], again["better"])
    proc.send_signal(signal.SIGINT)
    rest, _ = proc.communicate(timeout=60)
    out.append(rest)
    text = "".join(out)
    assert proc.returncode == 0, text
    assert "note:" not in (folder / "result.txt").read_text()  # no seat had to be stopped
    summary = json.loads((folder / "summary.json").read_text())
    person = {p["seat"]: p for p in summary["players"]}["human"]
    assert (person["kind"], person["power"]) == ("human", "FRA")
    assert "FRA" in (folder / "result.txt").read_text()
    assert "human" in (folder / "result.txt").read_text()
    messages = (folder / "messages.daide").read_text()
    assert re.search(r"ORD .*\( FRA AMY PAR \) MTO BUR", messages), "the person's move"
