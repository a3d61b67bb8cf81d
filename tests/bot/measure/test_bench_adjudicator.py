"""``daide-mcts bench adjudicator``: it runs, and MILA does the same work on the same corpus.

No figure is checked (machines are noisy).  What is checked is what makes the
ratio meaningful: every order of the corpus, written in MILA's notation, is
accepted by MILA's engine (at most a stray one), and MILA's next position
equals ours on every phase.
"""

from __future__ import annotations

import pytest

from adjudicator.maps import ARMY
from adjudicator.movement import adjudicate_movement
from adjudicator.orders import CONVOY_MOVE, SUPPORT_HOLD, SUPPORT_MOVE
from bot.measure.bench_adjudicator import build_corpus, main, mila_games, mila_location, mila_unit


def test_benchmark_runs_and_prints_its_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--size", "6", "--runs", "1", "--mila-size", "3"]) == 0
    out = capsys.readouterr().out
    lines = (
        "corpus: 6 movement phases",
        "daide-mcts engine:",
        "next position:",
        "full, no convoys:",
        "legal orders:",
    )
    for line in (*lines, "MILA"):
        assert line in out
    assert "x MILA" in out


def test_corpus_is_full_board_and_battle_heavy() -> None:
    corpus = build_corpus(1, 40)
    assert all(22 <= len(pos.units) <= 34 for pos, _ in corpus)
    assert all(set(orders) == set(pos.units) for pos, orders in corpus)
    supports = sum(1 for _, o in corpus for x in o.values() if x[0] in (SUPPORT_HOLD, SUPPORT_MOVE))
    convoyed = sum(1 for _, o in corpus for x in o.values() if x[0] == CONVOY_MOVE)
    assert supports / len(corpus) >= 5 and convoyed >= 5


def test_mila_adjudicates_the_corpus_as_we_do() -> None:
    corpus = build_corpus(1, 40)
    dropped = 0
    for (pos, orders), (game, mila_orders) in zip(corpus, mila_games(corpus), strict=True):
        for power, power_orders in mila_orders.items():
            game.set_orders(power, power_orders)
            dropped += len(power_orders) - len(game.get_orders(power))
        game.process()
        ours = adjudicate_movement(pos, orders).position
        our_units = [mila_unit(ours, p) for p in ours.units]
        our_units += [
            f"*{'A' if utype == ARMY else 'F'} {mila_location(ours, loc)}"
            for _, utype, loc, _ in ours.dislodged.values()
        ]
        theirs = [u for units in game.get_units().values() for u in units]
        assert sorted(theirs) == sorted(our_units), f"{pos}: {set(theirs) ^ set(our_units)}"
    assert dropped <= 2
