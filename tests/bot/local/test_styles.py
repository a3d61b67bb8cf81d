"""The report of how each player of recorded games played (bot.local.styles)."""

from __future__ import annotations

import json
from pathlib import Path
from random import Random

import pytest

from adjudicator.convert import movement_value
from adjudicator.daide import adjudicate_phase
from adjudicator.position import Position, initial_position
from adjudicator.standard import standard_definition
from bot.local.styles import StylesError, main, styles
from protocol.messages import Map, Mdf, Now, Ord, Sco
from search.behaviour import LIBRARY_NAMES
from search.dumbbot import DumbBot
from search.policy import Policy
from search.randombot import RandomBot
from tests.search.boards import M, power

RANDOM = LIBRARY_NAMES.index("random")


def _record(folder: Path, players: list[Policy], labels: list[str], years: int, seed: int) -> None:
    """A run folder of a game of movement phases only (everyone holds its retreats and builds).

    Its ``messages.daide`` holds what an observer hears: MAP, MDF, then per phase
    SCO, NOW and every unit's ORD line; ``summary.json`` names each power's player.
    """
    rng = Random(seed)
    pos: Position = initial_position(M)
    lines = [Map("standard").to_text(), Mdf(standard_definition()).to_text()]
    lines += [Sco(pos.centres()).to_text(), Now(pos.turn, pos.unit_positions()).to_text()]
    while pos.year < 1901 + years:
        orders = []
        if pos.is_movement:
            for p in range(M.num_powers):
                for prov, order in players[p].movement_orders(pos, p, rng).items():
                    orders.append(movement_value(pos, prov, order))
        outcome = adjudicate_phase(pos, orders)
        lines += [Ord(r).to_text() for r in outcome.results]
        lines += [Sco(outcome.centres).to_text(), Now(outcome.turn, outcome.units).to_text()]
        pos = Position.from_values(M, outcome.turn, outcome.units, outcome.centres)
    folder.mkdir(parents=True)
    (folder / "messages.daide").write_text(
        "".join(f"{i}.0 observer in {text}\n" for i, text in enumerate(lines))
    )
    summary = {"players": [{"power": M.powers[p], "label": labels[p]} for p in range(M.num_powers)]}
    (folder / "summary.json").write_text(json.dumps(summary))


def test_each_label_is_described_by_its_orders_and_fitted_mixture(tmp_path: Path) -> None:
    players: list[Policy] = [DumbBot() for _ in range(M.num_powers)]
    labels = ["dumbbot"] * M.num_powers
    players[power("ITA")], labels[power("ITA")] = RandomBot(), "random"
    for k in range(2):
        _record(tmp_path / "t" / "games" / f"game-00{k + 1}", players, labels, 2, seed=k)
    # A game still being played (no summary yet) is left out of a tournament's report.
    _record(tmp_path / "t" / "games" / "game-003", players, labels, 1, seed=5)
    (tmp_path / "t" / "games" / "game-003" / "summary.json").unlink()
    found = styles([tmp_path / "t"])
    assert set(found) == {"dumbbot", "random"}
    assert found["random"].games == 2 and found["dumbbot"].games == 12
    dumbbot, rand = found["dumbbot"], found["random"]
    assert dumbbot.likeness / dumbbot.games > 0.8 > rand.likeness / rand.games
    assert rand.mixture[RANDOM] / rand.games > dumbbot.mixture[RANDOM] / dumbbot.games
    assert dumbbot.holds + dumbbot.moves + dumbbot.supports == dumbbot.units


def test_a_folder_without_a_game_is_a_one_line_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(StylesError, match=r"no messages\.daide"):
        styles([tmp_path])
    assert main([str(tmp_path)]) == 2
    assert capsys.readouterr().err.startswith("error: ")
    game = tmp_path / "g"
    _record(game, [DumbBot()] * M.num_powers, ["d"] * M.num_powers, 1, seed=1)
    (game / "summary.json").write_text("{")
    with pytest.raises(StylesError, match=r"summary\.json"):
        styles([game])


def test_the_report_has_a_row_per_label(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _record(tmp_path / "g", [DumbBot()] * M.num_powers, ["dumbbot"] * M.num_powers, 1, seed=2)
    assert main([str(tmp_path / "g")]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].split()[:3] == ["player", "games", "orders"]
    assert out[1].split()[:2] == ["dumbbot", "7"]
