"""daide-mcts train import: games a DAIDE server reported, as training data.

A scripted run folder (our engine's ORD lines for scripted orders, with convoys,
a retreat and builds) checks the import against the orders given, and bad input
against clear errors; a real Parlance tournament of two short games (one MCTS
seat, six DumbBots of ours) is imported and checked against what each of our
bots submitted by its own record, then fitted on and evaluated, one player's
orders at a time.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Sequence
from pathlib import Path

import pytest

from adjudicator.orders import CONVOY_MOVE, HOLD_ORDER, EngineOrder
from adjudicator.position import Position
from adjudicator.standard import standard_start
from adjudicator.validation import MBV, OrderBook
from bot.cli import main
from bot.lab.training.samples import load_samples
from bot.lab.training.servergames import read_server_game
from protocol.messages import Now, Sub, parse_text
from protocol.notation import parse_order
from protocol.values import Order, Season, order_power
from tests.bot.view.scripted_game import FALL_1901, PLAYERS, SPRING_1901, write_run_folder

POWERS = ("AUS", "ENG", "FRA", "GER", "ITA", "RUS", "TUR")
LABELS = {power: "mcts" if power == "ENG" else "dumbbot" for power in POWERS}
"""The scripted game's players: England is ``mcts``, the others ``dumbbot``."""


def scripted_game(folder: Path) -> None:
    """The viewer's scripted game as a run folder of ``daide-mcts game`` writes it."""
    write_run_folder(folder)  # its record names the map (MAP, MDF) as a real one does
    players = [
        {"seat": name, "label": LABELS[power], "kind": "ours", "power": power}
        for power, name in PLAYERS.items()
    ]
    summary = {"settings": {"final_year": 1902}, "players": players}
    (folder / "summary.json").write_text(json.dumps(summary) + "\n")


def engine_orders(
    pos: Position, orders: Sequence[str | Order]
) -> dict[int, dict[int, EngineOrder]]:
    """Each power's orders as the engine reads them; a unit left without one holds."""
    book = OrderBook(pos)
    for given in orders:
        order = parse_order(given) if isinstance(given, str) else given
        assert book.submit(order_power(order), order) == MBV, given
    accepted = book.unit_orders()
    out: dict[int, dict[int, EngineOrder]] = {}
    for prov, unit in pos.units.items():
        out.setdefault(unit[0], {})[prov] = accepted.get(prov, HOLD_ORDER)
    return out


def recorded(game: dict, phase: int) -> dict[int, dict[int, EngineOrder]]:
    """The orders of one phase of a ``games.jsonl`` line, by power and unit."""
    out: dict[int, dict[int, EngineOrder]] = {}
    for power, prov, order in game["phases"][phase]["orders"]:
        out.setdefault(power, {})[prov] = tuple(
            tuple(f) if isinstance(f, list) else f for f in order
        )
    return out


def test_a_server_game_is_imported_with_every_units_order(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run, data = tmp_path / "run", tmp_path / "data"
    scripted_game(run)
    assert main(["train", "import", str(run), "--out", str(data)]) == 0
    out = capsys.readouterr().out
    assert f"1 games, 2 movement phases imported into {data} (players: dumbbot, mcts)" in out
    assert "note:" not in out  # nothing left out; our engine agrees with the ORD lines

    (game,) = [json.loads(line) for line in (data / "games.jsonl").read_text().splitlines()]
    assert game["players"] == [LABELS[p] for p in POWERS]
    assert game["powers"] == [list(PLAYERS).index(p) for p in POWERS]
    assert game["final_year"] == 1902 and game["source"] == str(run)
    assert [(p["season"], p["year"]) for p in game["phases"]] == [(0, 1901), (2, 1901)]

    game_read = read_server_game(run)
    spring, fall = game_read.log[0][0], game_read.log[-1][0]
    turn, units, centres = standard_start()
    assert spring.key() == Position.from_values(spring.map, turn, units, centres).key()
    assert str(fall.turn) == "FAL 1901"
    assert recorded(game, 0) == engine_orders(spring, SPRING_1901)
    assert recorded(game, 1) == engine_orders(fall, FALL_1901)
    # the convoyed army's order is kept as the server reported it, with its route
    m = fall.map
    nth = m.province_index["NTH"]
    by_convoy = (CONVOY_MOVE, m.province_index["NWY"], (nth,))
    assert recorded(game, 1)[m.power_index["ENG"]][m.province_index["YOR"]] == by_convoy

    manifest = json.loads((data / "manifest.json").read_text())
    assert manifest["command"] == f"daide-mcts train import {run} --out {data}"
    assert manifest["players"] == ["dumbbot", "mcts"]
    assert manifest["games"][0]["left_out"] == 0 and manifest["games"][0]["mismatches"] == 0

    every, _ = load_samples([data], seed=0, held_out=0.0)
    england, _ = load_samples([data], seed=0, held_out=0.0, players=["MCTS"])
    others, _ = load_samples([data], seed=0, held_out=0.0, players=["dumbbot"])
    assert 0 < england.units < others.units and england.units + others.units == every.units


def _truncated(folder: Path) -> None:
    messages = folder / "messages.daide"
    text = messages.read_text()
    messages.write_text(text[: text.index(" SMR ") - 40])


def _garbled(folder: Path) -> None:
    messages = folder / "messages.daide"
    lines = messages.read_text().splitlines()
    at = next(i for i, line in enumerate(lines) if " ORD " in line)
    lines[at] = lines[at].replace("MTO", "MTO ( (")
    messages.write_text("\n".join(lines) + "\n")


def _inland_fleet(folder: Path) -> None:
    messages = folder / "messages.daide"
    text = messages.read_text()
    messages.write_text(text.replace("( ENG FLT LON )", "( ENG FLT MOS )", 1))


def _another_map(folder: Path) -> None:
    messages = folder / "messages.daide"
    text = messages.read_text()
    text = text.replace("( LON ( AMY WAL YOR )", "( LON ( AMY YOR )", 1)
    messages.write_text(text.replace("( WAL ( AMY LON LVP YOR )", "( WAL ( AMY LVP YOR )", 1))


@pytest.mark.parametrize(
    ("spoil", "message"),
    [
        (lambda f: shutil.rmtree(f), "is not a folder"),
        (lambda f: (f / "messages.daide").unlink(), "holds no messages.daide"),
        (lambda f: (f / "summary.json").unlink(), "holds no summary.json"),
        (lambda f: (f / "summary.json").write_text("{}\n"), "summary.json"),
        (lambda f: (f / "summary.json").write_text('{"settin'), "summary.json"),
        (_truncated, "stops before the end of the game"),
        (_garbled, "messages.daide:"),
        (_inland_fleet, "messages.daide:"),
        (lambda f: (f / "messages.daide").write_text("1 observer in DRW\n"), "records no game"),
        (_another_map, "not the standard map"),
    ],
    ids=[
        "no-folder",
        "no-messages",
        "no-summary",
        "summary-shape",
        "summary-cut",
        "truncated",
        "garbled",
        "inland-fleet",
        "no-game",
        "another-map",
    ],
)
def test_bad_input_is_one_clear_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], spoil: object, message: str
) -> None:
    run = tmp_path / "run"
    scripted_game(run)
    assert callable(spoil)
    spoil(run)
    assert main(["train", "import", str(run), "--out", str(tmp_path / "data")]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    assert not (tmp_path / "data" / "games.jsonl").exists()


def test_a_tournament_without_finished_games_and_a_used_folder_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tournament = tmp_path / "tournament"
    (tournament / "games" / "game-001").mkdir(parents=True)
    (tournament / "tournament.json").write_text("{}\n")
    data = tmp_path / "data"
    assert main(["train", "import", str(tournament), "--out", str(data)]) == 2
    assert "a tournament without a finished game" in capsys.readouterr().err

    run = tmp_path / "run"
    scripted_game(run)
    assert main(["train", "import", str(run), "--out", str(data)]) == 0
    assert main(["train", "import", str(run), "--out", str(data)]) == 2
    assert "exists: choose a new folder" in capsys.readouterr().err


def test_players_that_the_data_do_not_hold_are_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run, data = tmp_path / "run", tmp_path / "data"
    scripted_game(run)
    assert main(["train", "import", str(run), "--out", str(data)]) == 0
    argv = ["train", "evaluate", str(data), "--model", "policy", "--players", "albert"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "no game of albert" in err and "its players are dumbbot, mcts" in err

    # data recorded before the players were: every player's orders, but no filter
    games = data / "games.jsonl"
    line = json.loads(games.read_text())
    del line["players"]
    games.write_text(json.dumps(line) + "\n")
    assert main(["train", "evaluate", str(data), "--model", "policy"]) == 0
    assert main([*argv[:-1], "mcts"]) == 2
    assert "does not record who played each power" in capsys.readouterr().err


def submitted(record: Path) -> dict[str, list[Order]]:
    """What one of our bots submitted in each movement phase (by name), by its own game record.

    A later SUB in a phase replaces the orders of the units it names.
    """
    out: dict[str, dict[object, Order]] = {}
    turn = None
    for line in record.read_text().splitlines():
        entry = json.loads(line)
        if entry.get("kind") != "msg":
            continue
        message = parse_text(entry["text"])
        if entry["dir"] == "in" and isinstance(message, Now) and message.turn is not None:
            turn = message.turn
        elif entry["dir"] == "out" and isinstance(message, Sub) and message.orders:
            assert turn is not None
            if turn.season not in (Season.SPRING, Season.FALL):
                continue
            for order in message.orders:
                out.setdefault(str(turn), {})[getattr(order, "unit", order)] = order
    return {turn: list(orders.values()) for turn, orders in out.items()}


@pytest.mark.slow
def test_a_parlance_tournament_is_imported_as_our_bots_ordered_and_learned_from(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tournament, data = tmp_path / "tournament", tmp_path / "data"
    argv = [
        "tournament", "--games", "2", "--lineup", "mcts,dumbbot", "--final-year", "1901",
        "--mtl", "2", "--rtl", "1", "--btl", "1", "--seed", "4", "--server", "parlance",
        "--out", str(tournament),
    ]  # fmt: skip
    assert main(argv) == 0, capsys.readouterr().out
    capsys.readouterr()
    assert main(["train", "import", str(tournament), "--out", str(data)]) == 0
    out = capsys.readouterr().out
    assert "2 games, 4 movement phases imported" in out and "(players: dumbbot, mcts)" in out
    assert "note:" not in out  # every unit reported; our engine agrees with Parlance

    games = [json.loads(line) for line in (data / "games.jsonl").read_text().splitlines()]
    checked = 0
    for game in games:
        folder = Path(game["source"])
        summary = json.loads((folder / "summary.json").read_text())
        labels = {p["power"]: p["label"] for p in summary["players"]}
        assert game["players"] == [labels[p] for p in POWERS]
        server_game = read_server_game(folder)
        positions = {str(pos.turn): pos for pos, _, _ in server_game.log}
        assert list(positions) == ["SPR 1901", "FAL 1901"]
        for phase, (turn, pos) in enumerate(positions.items()):
            imported = recorded(game, phase)
            assert sorted(imported) == list(range(len(POWERS)))  # every power, every unit
            for seat in summary["players"]:
                (record,) = (folder / "bots" / seat["seat"]).glob("*.jsonl")
                power = POWERS.index(seat["power"])
                orders = submitted(record)[turn]
                assert imported[power] == engine_orders(pos, orders)[power], (seat, turn)
                checked += 1
    assert checked == 2 * 2 * len(POWERS)

    model = tmp_path / "dumbbot-orders.json"
    fit = ["train", "fit", str(data), "--held-out", "0.5", "--steps", "20", "--out", str(model)]
    assert main([*fit, "--players", "dumbbot"]) == 0
    assert "held out" in capsys.readouterr().out
    provenance = json.loads(model.read_text())["provenance"]
    assert provenance["players"] == ["dumbbot"]
    assert provenance["data"][0]["command"] == f"daide-mcts train import {tournament} --out {data}"
    assert provenance["command"].endswith("--players dumbbot")

    mcts_units = sum(
        1
        for game in games
        for phase in game["phases"]
        for power, _, _ in phase["orders"]
        if game["players"][power] == "mcts"
    )
    assert main(["train", "evaluate", str(data), "--model", str(model), "--players", "mcts"]) == 0
    assert f"on {mcts_units} unit choices" in capsys.readouterr().out
