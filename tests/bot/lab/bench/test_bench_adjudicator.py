"""``daide-mcts bench adjudicator``: it runs, and MILA does the same work on the same corpus.

No figure is checked (machines are noisy).  What is checked is what makes the
ratio meaningful: every order of the corpus, written in MILA's notation, is
accepted by MILA's engine (at most a stray one), and MILA's next position
equals ours on every phase; and the search's path in C (``MovementPhases``)
gives pure Python's next position on every phase it times.
"""

from __future__ import annotations

import pytest

from adjudicator.compiled_rules import pure_python
from adjudicator.maps import ARMY
from adjudicator.movement import adjudicate_movement, next_position
from adjudicator.orders import CONVOY, CONVOY_MOVE, SUPPORT_HOLD, SUPPORT_MOVE
from bot.lab.bench.bench_adjudicator import build_corpus, main, mila_games, mila_location, mila_unit
from search.compiled_search import movement_phases


def test_benchmark_runs_and_prints_its_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--size", "6", "--runs", "1", "--mila-size", "3"]) == 0
    out = capsys.readouterr().out
    lines = (
        "corpus: 6 movement phases",
        "daide-mcts engine:",
        "resolve + apply:",
        "next_position:",
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


def test_the_search_path_in_c_gives_the_next_positions_of_pure_python() -> None:
    corpus = build_corpus(1, 400)
    convoying = (CONVOY, CONVOY_MOVE)
    plain = [(p, o) for p, o in corpus if all(x[0] not in convoying for x in o.values())]
    phases = movement_phases(plain)
    assert phases is not None and len(phases) == len(plain)
    phases.run()  # the boards are restored before each phase: the runs leave no trace
    dislodging = 0
    for i in reversed(range(len(plain))):
        pos, orders = plain[i]
        with pure_python():
            want = next_position(pos, orders)
        got = phases.next_position(i)
        assert (got.season, got.year) == (want.season, want.year), i
        assert got.units == want.units and got.owners == want.owners, i
        assert got.dislodged == want.dislodged, i
        dislodging += bool(want.dislodged)
    assert len(plain) >= 150 and dislodging >= 50


def test_the_search_path_in_c_takes_the_orders_a_step_takes() -> None:
    corpus = build_corpus(1, 40)
    convoying = next((p, o) for p, o in corpus if any(x[0] == CONVOY for x in o.values()))
    with pytest.raises(ValueError, match="convoy"):
        movement_phases([convoying])
    retreat = next(r.position for r in (adjudicate_movement(*x) for x in corpus) if r.dislodged)
    with pytest.raises(ValueError, match="not a movement phase"):
        movement_phases([(retreat, {})])
