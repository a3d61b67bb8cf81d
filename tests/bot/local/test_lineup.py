"""Lineups: seat specs, labels, unique DAIDE names, filling, the commands they run, bad specs."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from bot.local.launch import Deadlines, parlance_options, play_arguments, seat_argv
from bot.local.lineup import (
    DEFAULT_LINEUP,
    LineupError,
    Seat,
    build_lineup,
    check_players,
    describe,
    parse_lineup,
    parse_seat,
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("dumbbot", (None, "ours", "dumbbot")),
        ("  MCTS:V8 ", (None, "ours", "mcts:v8")),
        ("random", (None, "ours", "random")),
        ("parang", (None, "parang", "dumbbot")),
        ("parang:evilbot", (None, "parang", "evilbot")),
        ("me=mcts", ("me", "ours", "mcts")),
        ("cmd:/opt/bot -p {port}", (None, "command", "/opt/bot -p {port}")),
        ("x=cmd:bot a=b", ("x", "command", "bot a=b")),
        ("cmd:bot --opt=1", (None, "command", "bot --opt=1")),
    ],
)
def test_seat_specs(text: str, expected: tuple) -> None:
    assert parse_seat(text) == expected


@pytest.mark.parametrize(
    ("text", "complaint"),
    [
        ("dumbot", "unknown player"),
        ("mcts:", "empty variant"),
        ("parang:nobot", "unknown Parang bot"),
        ("cmd:", "needs a command"),
        ("cmd:bot {hostname}", "unknown placeholder {hostname}"),
        ("cmd:bot 'unclosed", "cannot split"),
        ("", "empty seat"),
    ],
)
def test_bad_seat_specs_say_why(text: str, complaint: str) -> None:
    with pytest.raises(LineupError, match=complaint):
        parse_seat(text)


def test_a_short_lineup_is_filled_and_every_seat_gets_a_unique_name() -> None:
    seats = parse_lineup("mcts:v8,random,parang,parang", fill="dumbbot")
    assert [s.name for s in seats] == [
        "mcts-v8",
        "random",
        "parang-1",
        "parang-2",
        "dumbbot-1",
        "dumbbot-2",
        "dumbbot-3",
    ]
    assert [s.label for s in seats][:4] == ["mcts:v8", "random", "parang", "parang"]
    assert describe(seats) == "mcts:v8 + random + 2 x parang + 3 x dumbbot"


def test_command_labels_default_to_the_program_and_fill_placeholders() -> None:
    (seat, *_) = parse_lineup("cmd:/opt/bots/albert -s {host}:{port} -n {name}")
    assert seat.label == "cmd:albert" and seat.name == "cmd-albert"
    assert seat.command_argv("127.0.0.1", 4000) == [
        "/opt/bots/albert",
        "-s",
        "127.0.0.1:4000",
        "-n",
        "cmd-albert",
    ]


def test_lineups_of_the_wrong_size_are_refused() -> None:
    with pytest.raises(LineupError, match="8 seats"):
        parse_lineup(",".join(["dumbbot"] * 8))
    with pytest.raises(LineupError, match="give 7"):
        parse_lineup("dumbbot", fill=None)


def test_the_default_lineup_is_one_mcts_and_six_dumbbots() -> None:
    seats = build_lineup(DEFAULT_LINEUP)
    assert [s.label for s in seats] == ["mcts"] + ["dumbbot"] * 6
    assert seats[0].name == "mcts"


def test_check_players_reports_an_unknown_mcts_variant() -> None:
    with pytest.raises(LineupError, match="no MCTS variant 'v99'"):
        check_players(parse_lineup("mcts:v99"))
    check_players(build_lineup(DEFAULT_LINEUP))
    check_players(parse_lineup("mcts:v8,dumbbot,random,parang"))


def test_play_arguments_are_the_play_command_of_the_seat() -> None:
    seat = Seat("mcts:v8", "ours", "mcts:v8", "mcts-v8")
    args = play_arguments(
        seat,
        "server",
        16713,
        final_year=1903,
        seed=4,
        telemetry="mqtt://broker:1883/d",
        log_dir=Path("/runs/x"),
        summary="/runs/x.json",
    )
    assert args == [
        "play",
        "--host", "server",
        "--port", "16713",
        "--name", "mcts-v8",
        "--strategy", "mcts:v8",
        "--final-year", "1903",
        "--seed", "4",
        "--log-dir", "/runs/x",
        "--summary-json", "/runs/x.json",
        "--telemetry", "mqtt://broker:1883/d",
        "--log-level", "warning",
    ]  # fmt: skip
    argv = seat_argv(seat, "h", 1, final_year=1903, parlance=None)
    assert argv[:3] == [sys.executable, "-m", "bot.cli"] and argv[3] == "play"
    with pytest.raises(ValueError, match="Parlance"):
        parang = Seat("parang", "parang", "dumbbot", "parang")
        seat_argv(parang, "h", 1, final_year=1903, parlance=None)


def test_the_server_ends_the_game_at_the_final_year() -> None:
    options = parlance_options(Deadlines(7, 3, 2), 1905)
    assert options == {"MTL": 7, "RTL": 3, "BTL": 2, "draw": 5, "LVL": 0}
    assert parlance_options(Deadlines(), 1430, first_year=1425)["draw"] == 6
    assert parlance_options(Deadlines(), 1905, press_level=10)["LVL"] == 10
    assert parlance_options(Deadlines(), 1901)["draw"] == 1
