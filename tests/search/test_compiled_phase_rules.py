"""The rules the compiled search takes from ``adjudicator/_phaserules.pxd``, held to their
Python twins on boards made for them.

The solo (``solo_winner``: the rollouts' end-of-game test and reward, ``search._rollout``,
and the tree's end-of-game test, ``search._fasttree``) against
:func:`adjudicator.phases.solo_winner` and the domain's terminal test and reward; the
retreats that stand (``bounce_retreats``, a rollout's retreat phase) against
:func:`adjudicator.retreats.adjudicate_retreats`, through a rollout that plays the one
phase.  The varied positions of the other compiled tests reach these rules too, but
seldom at their edges: ties, one centre short, three retreats to one province.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from adjudicator.compiled_rules import pure_python
from adjudicator.maps import ARMY, FLEET, GameMap
from adjudicator.phases import solo_winner
from adjudicator.position import NOBODY, SPRING, Position, initial_position
from search import compiled_search as speedups
from search.generator import SearchRandom
from search.mcts.compiled_tree import compiled_search
from search.mcts.domain import DiplomacyDomain
from search.mcts.variants import get_variant
from search.simulate import play_phase
from search.tables import tables_for
from tests.search.boards import M, loc, position, power, prov

STANDARD_WIN = 18
"""The standard map's centres for a solo (half its 34, and one)."""
US = 2
"""The power the solo cases' domains play (France, with its units of 1901: only a solo
ends the game)."""
DISLODGER = "TUR"
"""The power whose unit stands where each dislodged unit was (the retreat cases' domains
play it: it has units, so the game goes on)."""

SOLOS = [
    pytest.param(STANDARD_WIN, (0, 0, 0, 0, 0, 0, 0), -1, id="no centres owned"),
    pytest.param(STANDARD_WIN, (18, 3, 3, 3, 3, 2, 2), 0, id="the first power"),
    pytest.param(STANDARD_WIN, (2, 3, 3, 3, 3, 2, 18), 6, id="the last power"),
    pytest.param(STANDARD_WIN, (3, 3, 17, 3, 3, 3, 2), -1, id="one centre short"),
    pytest.param(STANDARD_WIN, (0, 34, 0, 0, 0, 0, 0), 1, id="every centre"),
    pytest.param(STANDARD_WIN, (3, 3, 2, 16, 3, 3, 3), -1, id="a lead short of the count"),
    pytest.param(12, (12, 12, 3, 3, 2, 1, 1), -1, id="a tie at the count"),
    pytest.param(12, (12, 13, 3, 3, 2, 1, 0), 1, id="one ahead of a power at the count"),
    pytest.param(12, (4, 4, 4, 4, 4, 4, 4), -1, id="all level below the count"),
    pytest.param(1, (0, 0, 0, 0, 0, 0, 1), 6, id="a count of one"),
    pytest.param(1, (1, 1, 0, 0, 0, 0, 0), -1, id="a tie at a count of one"),
]
"""The solo cases: the centres for a solo, each power's centres, the winner (-1: none)."""

RETREATS = [
    pytest.param(["FRA A BUR > PIC", "GER A BEL > PIC"], [], id="two to one province"),
    pytest.param(
        ["FRA A BUR > PIC", "GER A BEL > HOL"], ["FRA A PIC", "GER A HOL"], id="two apart"
    ),
    pytest.param(
        ["FRA A BUR > RUH", "ENG A BEL > RUH", "GER A HOL > RUH"], [], id="three to one province"
    ),
    pytest.param(
        ["FRA A BUR > PIC", "ENG A BEL > PIC", "GER A TYR > BOH"],
        ["GER A BOH"],
        id="a bounce beside a retreat",
    ),
    pytest.param(["FRA A BUR >", "GER A BEL > PIC"], ["GER A PIC"], id="one with nowhere to go"),
    pytest.param(["FRA F ECH > PIC", "GER A BEL > PIC"], [], id="a fleet and an army"),
    pytest.param(["RUS F GOB > STP/SCS", "ENG A NWY > STP"], [], id="a coast and its province"),
    pytest.param(
        ["FRA A BUR > PIC", "FRA A BEL > PIC"],
        ["FRA A PIC"],
        id="one power's two to one province",  # its second finds it taken: no bounce
    ),
]
"""The retreat cases: each dislodged unit and its retreats (``POWER KIND FROM > TO ...``),
and the units that stand where they retreated to (DumbBot's choice: a unit with one
retreat takes it, unless its own power took it first)."""


def _fastbot() -> Any:
    assert speedups.COMPILED is not None
    return speedups.COMPILED


def _winning_at(centres: int) -> GameMap:
    """The standard map asking ``centres`` for a solo (its count is made from its centres;
    on 34 centres no two powers can tie at 18)."""
    if centres == STANDARD_WIN:
        return M
    changed = copy.copy(M)
    changed.win_centres = centres
    return changed


def _owning(game_map: GameMap, counts: tuple[int, ...]) -> Position:
    """The spring of 1901's units, each power owning ``counts`` of the centres, in order."""
    owners = [NOBODY] * game_map.num_provinces
    centres = iter(game_map.supply_centres)
    for power_id, count in enumerate(counts):
        for _ in range(count):
            owners[next(centres)] = power_id
    start = initial_position(game_map)
    return Position(game_map, SPRING, start.year, start.units, owners, {})


@pytest.mark.parametrize(("centres", "counts", "winner"), SOLOS)
def test_the_compiled_solo_is_the_python_one(
    compiled: None, centres: int, counts: tuple[int, ...], winner: int
) -> None:
    pos = _owning(_winning_at(centres), counts)
    assert solo_winner(pos) == winner  # the twin
    domain = DiplomacyDomain(get_variant("dm"), US, pos.year + 1, pos.map.num_powers)
    ends = domain.terminal(pos)
    assert ends == (winner >= 0)
    cmap = speedups.compiled_map(tables_for(pos.map))
    board = _fastbot().board(cmap, pos, US, domain.final_year, pos.map.win_centres)
    assert board.terminal == ends  # the rollouts' test
    tree = compiled_search(domain, pos, domain.variant, SearchRandom(1))
    assert tree is not None
    assert tree.core.terminal(pos) == ends  # the tree's
    fast_rng, slow_rng = SearchRandom(3), SearchRandom(3)
    reward = domain.rollout(pos, fast_rng)  # the reward of a rollout's end
    with pure_python():
        assert domain.rollout(pos, slow_rng) == reward
    assert fast_rng.getstate() == slow_rng.getstate()
    if ends:
        assert reward == (1.0 if winner == US else 0.0)


def test_an_owner_past_the_powers_is_an_index_error_in_the_tree_as_in_python(
    compiled: None,
) -> None:
    pos = _owning(M, (STANDARD_WIN,))
    domain = DiplomacyDomain(get_variant("dm"), US, pos.year + 1, M.num_powers)
    tree = compiled_search(domain, pos, domain.variant, SearchRandom(1))
    assert tree is not None
    pos.owners[M.supply_centres[-1]] = M.num_powers
    with pytest.raises(IndexError):
        solo_winner(pos)
    with pytest.raises(IndexError):
        tree.core.terminal(pos)


def _unit(text: str) -> tuple[int, tuple[int, int, int]]:
    """A ``POWER KIND WHERE`` unit's province and tuple."""
    name, kind, where = text.split()
    return prov(where.partition("/")[0]), (power(name), ARMY if kind == "A" else FLEET, loc(where))


def _retreat_phase(dislodged: list[str]) -> Position:
    """The autumn of 1901 with ``dislodged`` (``POWER KIND FROM > TO ...``) to retreat, each
    where a unit of DISLODGER's stands."""
    units = [text.partition(">")[0].split() for text in dislodged]
    pos = position("AUT 1901", [f"{DISLODGER} {kind} {where}" for _, kind, where in units], {})
    for text in dislodged:
        unit, _, targets = text.partition(">")
        p, (power_id, kind, at) = _unit(unit)
        pos.dislodged[p] = (power_id, kind, at, tuple(loc(t) for t in targets.split()))
    return pos


@pytest.mark.parametrize(("dislodged", "stand"), RETREATS)
def test_the_compiled_retreats_stand_where_the_python_ones_do(
    compiled: None, dislodged: list[str], stand: list[str]
) -> None:
    pos = _retreat_phase(dislodged)
    domain = DiplomacyDomain(get_variant("dm"), power(DISLODGER), pos.year, M.num_powers)
    for seed in range(3):
        fast_rng, slow_rng, phase_rng = SearchRandom(seed), SearchRandom(seed), SearchRandom(seed)
        fast = domain.play_out(pos, fast_rng)  # the retreats, then the winter's start: the end
        with pure_python():
            slow = domain.play_out(pos, slow_rng)
            played = play_phase(pos, domain.rollout_policies(M.num_powers, phase_rng), phase_rng)
        assert fast == slow == played
        assert fast_rng.getstate() == slow_rng.getstate()
        assert fast.units == {**pos.units, **dict(_unit(text) for text in stand)}
        assert not fast.dislodged
