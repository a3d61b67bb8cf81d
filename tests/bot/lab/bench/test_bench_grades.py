"""Do the coach's grades mean something: bot.lab.bench.bench_grades on tiny runs."""

from __future__ import annotations

import json
from pathlib import Path
from random import Random

import pytest

from adjudicator.maps import standard_map
from adjudicator.orders import Orders
from adjudicator.position import Position
from bot.cli import main
from bot.lab.arena.arena_games import play_game
from bot.lab.bench.bench_grades import GradedSet, record_phases, report
from search.dumbbot import DumbBot
from search.grading import LABELS


def test_a_game_tells_every_movement_phase_and_its_orders() -> None:
    heard: list[tuple[str, Orders]] = []

    def keep(pos: Position, orders: Orders) -> None:
        heard.append((str(pos.turn), dict(orders)))

    m = standard_map()
    play_game([DumbBot()] * 7, list(range(7)), 1902, Random(1), game_map=m, on_orders=keep)
    assert [t for t, _ in heard] == ["SPR 1901", "FAL 1901", "SPR 1902", "FAL 1902"]
    assert len(heard[0][1]) == 22  # every unit of the opening has an order


def test_phases_are_recorded_with_who_played_each_power() -> None:
    phases = record_phases(2, 1901, 1, 30, seed=4)
    assert [(g, str(p.turn)) for g, p, _, _ in phases] == [
        (0, "SPR 1901"), (0, "FAL 1901"), (1, "SPR 1901"), (1, "FAL 1901"),
    ]  # fmt: skip
    players = phases[0][3]
    assert sorted(players.values()) == ["dumbbot"] * 6 + ["search"]


def test_the_report_sorts_sets_by_label_and_bin() -> None:
    def graded(label: str, estimated: float, replay: float) -> GradedSet:
        return GradedSet(
            0, "SPR 1901", "FRA", "dumbbot", label, estimated, 0, 0, replay, 0.1, False
        )

    text = report(
        [graded("good", 0.0, 0.0), graded("good", 0.05, 0.1), graded("blunder", 2.5, 1.5)]
    )
    lines = text.splitlines()
    good = next(x for x in lines if x.startswith("good "))
    assert good.split()[1] == "2" and "+0.050 ±" in good
    blunder = next(x for x in lines if x.startswith("blunder "))
    assert blunder.split()[1:] == ["1", "+2.500", "+1.500"]
    assert next(x for x in lines if x.startswith("[2.00, 9.00)")).split()[2] == "1"


@pytest.mark.slow
def test_the_benchmark_runs_and_writes_every_set(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "sets.json"
    args = ["--games", "1", "--final-year", "1901", "--rollouts", "8", "--iterations", "20",
            "--search-iterations", "20", "--replays", "2", "--json", str(target)]  # fmt: skip
    assert main(["bench", "grades", *args]) == 0
    out = capsys.readouterr().out
    sets = json.loads(target.read_text())
    assert len(sets) == 14  # seven powers, two movement phases
    assert {s["label"] for s in sets} <= set(LABELS)
    assert f"{len(sets)} graded sets" in out and "grading time per phase" in out
