"""A recorded game exported to MILA's saved-game JSON: MILA reads it, replays it to our centres.

Two records: the scripted 1901 of the viewer's tests (supports, a cut, two
convoys, bounces, a dislodgement and its retreat, builds and a removal) and a
real two-year game played on Parlance, one second a move.  Each is exported
with ``daide-mcts export``, loaded with MILA's own readers
(``load_saved_games_from_disk``, ``from_saved_game_format``), replayed by a
fresh MILA game from the saved orders alone, and compared with the run
folder's record phase by phase; then read back into our values.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from diplomacy import Game
from diplomacy.utils.export import from_saved_game_format, load_saved_games_from_disk

from bot.interchange.mila_games import read_saved_games
from bot.view.sources import load_run
from bot.view.timeline import Phase, Timeline
from protocol.values import (
    UNOWNED,
    Convoy,
    Order,
    OrderResult,
    SupportHold,
    SupportMove,
    Waive,
)
from tests.bot.view.scripted_game import write_run_folder

ROOT = Path(__file__).resolve().parents[3]
CLI_TIMEOUT = 120.0
FIRST_YEAR = 1901
GAME_TIMEOUT = 300.0

POWERS = {
    "AUS": "AUSTRIA", "ENG": "ENGLAND", "FRA": "FRANCE", "GER": "GERMANY",
    "ITA": "ITALY", "RUS": "RUSSIA", "TUR": "TURKEY",
}  # fmt: skip
"""MILA's names of the powers, written out here rather than taken from the code under test."""

SEASON_LETTERS = {"SPR": "S1", "SUM": "S2", "FAL": "F1", "AUT": "F2", "WIN": "W3"}
"""A DAIDE season as MILA's season letter, and the order of its phases in the year."""


def cli(*args: str, timeout: float = CLI_TIMEOUT) -> subprocess.CompletedProcess[str]:
    """``daide-mcts ARGS`` as a user runs it."""
    return subprocess.run(
        [sys.executable, "-m", "bot.cli", *args],
        cwd=ROOT,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def mila_name(phase: Phase) -> str:
    """The recorded phase's name as MILA writes it (``S1901M``, ``F1901R``, ``W1901A``)."""
    season = str(phase.turn.season)
    kind = {"SPR": "M", "FAL": "M", "SUM": "R", "AUT": "R", "WIN": "A"}[season]
    return f"{SEASON_LETTERS[season][0]}{phase.turn.year}{kind}"


def recorded_centres(centres: dict[str, tuple[str, ...]]) -> dict[str, set[str]]:
    """The record's centres per MILA power (supply centres are spelled alike in both)."""
    out: dict[str, set[str]] = {name: set() for name in POWERS.values()}
    for power, owned in centres.items():
        if power != UNOWNED:
            out[POWERS[power]] = set(owned)
    return out


def mila_centres(game: Game) -> dict[str, set[str]]:
    return {power: set(owned) for power, owned in game.get_centers().items()}


def is_unplayed_by_mila(phase: Phase) -> bool:
    """A phase MILA has no need for: retreats with nowhere to go, or nothing to adjust."""
    if phase.turn.season.is_retreat:
        return all(not u.retreats for u in phase.units if u.dislodged)
    return phase.turn.season.is_adjustment and all(
        isinstance(r.order, Waive) for r, _ in phase.orders
    )


def check_export(folder: Path) -> dict:
    """Export ``folder``, and check MILA's reading and replay of it against the record."""
    target = folder / "exported.json"
    proc = cli("export", str(folder), "--out", str(target))
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    assert f"written to {target}" in proc.stdout
    timeline = load_run(folder)
    saved = json.loads(target.read_text())
    assert target.read_text().count("\n") == 1  # one game a line, as MILA writes it
    assert saved["map"] == "standard" and saved["id"] == folder.name

    # MILA's own readers take the file
    [loaded] = load_saved_games_from_disk(str(target), on_error="raise")
    assert [p.name for p in loaded.get_phase_history()] == [p["name"] for p in saved["phases"][:-1]]
    assert from_saved_game_format(saved).get_current_phase() == saved["phases"][-1]["name"]

    # MILA replays the saved orders from the start and reaches every recorded position
    replay = Game(map_name="standard")
    reached: dict[str, tuple[dict[str, set[str]], dict[str, set[str]]]] = {}
    for index, phase in enumerate(saved["phases"]):
        assert replay.get_current_phase() == phase["name"]
        units = {p: set(us) for p, us in replay.get_units().items()}
        reached[phase["name"]] = (mila_centres(replay), units)
        assert mila_centres(replay) == {p: set(cs) for p, cs in phase["state"]["centers"].items()}
        if index < len(saved["phases"]) - 1:
            for power, orders in phase["orders"].items():
                replay.set_orders(power, orders or [])
            replay.process()
    compared = 0
    for phase in timeline.phases:
        name = mila_name(phase)
        if name not in reached:
            assert is_unplayed_by_mila(phase), f"{name} is missing from the export"
            continue
        centres, units = reached[name]
        assert centres == recorded_centres(phase.centres), name
        expected: dict[str, set[str]] = {p: set() for p in POWERS.values()}
        for u in phase.units:
            if u.dislodged and not u.retreats:
                continue  # MILA disbands a unit with nowhere to go as it dislodges it
            loc = u.unit.location
            where = {"ECH": "ENG", "GOB": "BOT", "GOL": "LYO"}.get(loc.province, loc.province)
            if loc.coast:
                where += "/" + loc.coast[:2]
            text = f"{'A' if u.unit.kind == 'AMY' else 'F'} {where}"
            expected[POWERS[u.unit.power]].add(("*" if u.dislodged else "") + text)
        assert units == expected, name
        compared += 1
    assert compared >= len(timeline.phases) - 2
    # and the centres at the end of each year, from the record's SCO
    years = 0
    for year, counts in sorted(timeline.sco_by_year.items()):
        names = ["S1901M"] if year < FIRST_YEAR else [f"W{year}A", f"S{year + 1}M"]
        after = next((reached[n][0] for n in names if n in reached), None)
        assert after is not None, f"no phase of MILA's after the SCO of {year}"
        assert {p: len(cs) for p, cs in after.items() if cs} == {
            POWERS[p]: n for p, n in counts.items() if n
        }, year
        years += 1
    assert years == len(timeline.sco_by_year) >= 2
    return saved


def voided_support(entry: OrderResult, recorded: dict[Order, tuple[str, ...]]) -> bool:
    """MILA calls void a support or convoy whose unit did not do what it says; DAIDE's servers
    report it a success (nothing stopped it): the one way the two words differ."""
    return (
        isinstance(entry.order, SupportHold | SupportMove | Convoy)
        and entry.result == ("NSO",)
        and recorded[entry.order] == ("SUC",)
    )


def check_read_back(folder: Path, target: Path) -> None:
    """The exported file read into our values gives the record's phases, units and orders."""
    timeline: Timeline = load_run(folder)
    [game] = read_saved_games(target)
    assert game.game_id == folder.name
    by_turn = {p.turn: p for p in game.phases}
    for phase in timeline.phases:
        back = by_turn.get(phase.turn)
        if back is None:
            assert is_unplayed_by_mila(phase)
            continue
        kept = {u for u in phase.units if not (u.dislodged and not u.retreats)}
        assert set(back.units) == kept, phase.turn
        recorded = {p: set(cs) for p, cs in phase.centres.items() if p != UNOWNED and cs}
        assert {p: set(cs) for p, cs in back.centres.items()} == recorded, phase.turn
        trapped = {u.unit for u in phase.units if u.dislodged and not u.retreats}
        orders = {
            r.order
            for r, _ in phase.orders
            if not isinstance(r.order, Waive) and getattr(r.order, "unit", None) not in trapped
        }
        assert {r.order for r in back.orders} == orders, phase.turn
        results = {r.order: r.result for r, _ in phase.orders}
        differ = [
            (str(entry.order), entry.result, results[entry.order])
            for entry in back.orders
            if entry.result != results[entry.order] and not voided_support(entry, results)
        ]
        assert differ == [], phase.turn


def test_the_scripted_game_exports_replays_and_reads_back(tmp_path: Path) -> None:
    folder = tmp_path / "scripted"
    write_run_folder(folder)
    saved = check_export(folder)
    names = [p["name"] for p in saved["phases"]]
    assert names == ["S1901M", "F1901M", "F1901R", "W1901A", "S1902M"]
    fall = saved["phases"][1]["orders"]
    assert "A YOR - NWY VIA" in fall["ENGLAND"] and "F NTH C A YOR - NWY" in fall["ENGLAND"]
    assert saved["phases"][2]["orders"]["TURKEY"] == ["A BUL R GRE"]
    assert "F BOT D" in saved["phases"][3]["orders"]["RUSSIA"]
    assert saved["phases"][0]["results"]["A VIE"] == ["bounce"]
    check_read_back(folder, folder / "exported.json")


@pytest.mark.slow
def test_a_real_game_on_parlance_exports_replays_and_reads_back(tmp_path: Path) -> None:
    folder = tmp_path / "game"
    proc = cli(
        "game", "--lineup", "dumbbot,random,random", "--final-year", "1902", "--mtl", "1",
        "--rtl", "1", "--btl", "1", "--seed", "6", "--server", "parlance", "--out", str(folder),
        timeout=GAME_TIMEOUT,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stdout + proc.stderr
    saved = check_export(folder)
    assert saved["phases"][0]["name"] == "S1901M"
    check_read_back(folder, folder / "exported.json")
    listing = cli("export", "--read", str(folder / "exported.json"))
    assert listing.returncode == 0, listing.stderr
    lines = listing.stdout.splitlines()
    assert lines[0] == f"game, {len(saved['phases'])} phases"
    assert len(lines) == len(saved["phases"]) + 1
    assert lines[1].startswith("  S1901M  SPR 1901 ")
    assert lines[1].endswith(" orders  AUS 3 ENG 3 FRA 3 GER 3 ITA 3 RUS 4 TUR 3")
