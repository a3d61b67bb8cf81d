"""The compiled ``dm`` rollout (``search/_fastbot.pyx``'s ``play_out``) against the Python loop.

:meth:`DiplomacyDomain.play_out` plays a rollout whose every player is one
DumbBot in C when the compiled code runs; in pure Python it plays phase by
phase with :func:`search.simulate.play_phase`.  From many positions (every
kind of phase of mixed games, to several horizons and final years, as each
power) both must end in the same position with the same reward and leave the
generator in the same state.  The Python replay of each rollout records what
it went through, so the positions are known to reach retreats, builds,
removals, the final year, eliminations and solos.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from random import Random

import pytest

from adjudicator.compiled_rules import pure_python
from adjudicator.legal import movement_orders
from adjudicator.movement import next_position
from adjudicator.orders import MOVE, SUPPORT_MOVE
from adjudicator.phases import solo_winner
from adjudicator.position import WINTER, Position
from search import compiled_search as speedups
from search.dumbbot import DumbBot
from search.generator import SearchRandom
from search.mcts.domain import KEEP_VALUES_FROM, DiplomacyDomain, game_over
from search.mcts.order_sets import Action
from search.mcts.uct import Node
from search.mcts.variants import LIVELY_DUMBBOT, get_variant
from search.randombot import RandomBot
from search.simulate import play_phase
from search.tables import tables_for
from tests.search.test_randombot import positions_of, varied_positions

SEEDS = 1
EVERY = 4
"""The test plays from every EVERY-th of the varied positions."""
LONG_GAME = 12
"""Years past a position that the longest rollouts may play (far enough for solos)."""


def _replay(domain: DiplomacyDomain, state: Position, rng: Random, seen: Counter[str]) -> Position:
    """The pure-Python rollout, phase by phase, noting in ``seen`` what it went through."""
    horizon = domain.final_year
    if domain.variant.rollout_years is not None:
        horizon = min(horizon, state.year + domain.variant.rollout_years - 1)
    policies = domain.rollout_policies(state.map.num_powers, rng)
    pos = state
    while not game_over(pos, horizon) and not domain.terminal(pos):
        if pos.is_retreat:
            seen["retreats"] += 1
        if pos.season == WINTER:
            due = pos.adjustments()
            seen["builds"] += any(d > 0 for d in due)
            seen["removals"] += any(d < 0 for d in due)
        pos = play_phase(pos, policies, rng)
    if game_over(pos, domain.final_year):
        seen["final year"] += 1
    elif not game_over(pos, horizon):
        seen["solo" if solo_winner(pos) >= 0 else "eliminated"] += 1
    return pos


def _domains(pos: Position, power: int) -> list[DiplomacyDomain]:
    n = pos.map.num_powers
    return [
        DiplomacyDomain(get_variant("dm"), power, pos.year + 1, n),
        DiplomacyDomain(get_variant("dm/years=1"), power, pos.year + 3, n),
        DiplomacyDomain(get_variant("dm/years=full"), power, pos.year + LONG_GAME, n),
    ]


STEP_VARIANTS = ("dm", "dm/model=policy:enemies")
"""DumbBot's enemies in the tree, and the shipped learned policy's."""


def test_the_compiled_rollout_ends_where_the_python_one_does(compiled: None) -> None:
    seen: Counter[str] = Counter()
    checked = 0
    for i, pos in enumerate(varied_positions()[::EVERY]):
        power = i % pos.map.num_powers
        for domain in _domains(pos, power):
            for seed in range(SEEDS):
                fast_rng, slow_rng, replay_rng = (
                    SearchRandom(seed),
                    SearchRandom(seed),
                    SearchRandom(seed),
                )
                fast = domain.play_out(pos, fast_rng)
                with pure_python():
                    slow = domain.play_out(pos, slow_rng)
                    replayed = _replay(domain, pos, replay_rng, seen)
                assert replayed == slow
                assert fast == slow, (pos, power, domain.final_year, seed)
                assert fast_rng.getstate() == slow_rng.getstate()
                assert domain.reward(fast) == domain.reward(slow)
                checked += 1
    assert checked > 250
    assert min(seen[k] for k in ("retreats", "builds", "removals", "final year")) > 30, seen
    assert seen["solo"] > 0 and seen["eliminated"] > 0, seen


def test_it_plays_any_one_dumbbot_and_no_mixed_players(compiled: None) -> None:
    """Other weights run compiled too; players with different weights stay in Python."""
    pos = varied_positions()[40]
    n = pos.map.num_powers
    dm = get_variant("dm/years=full")
    lively = replace(dm, rollout_us=LIVELY_DUMBBOT, rollout_enemies=(LIVELY_DUMBBOT,))
    mixed = replace(dm, rollout_us=LIVELY_DUMBBOT, rollout_enemies=(DumbBot(),))
    for variant in (lively, mixed):
        domain = DiplomacyDomain(variant, 3, pos.year + 2, n)
        for seed in range(5):
            fast_rng, slow_rng = SearchRandom(seed), SearchRandom(seed)
            end = domain.play_out(pos, fast_rng)
            with pure_python():
                assert domain.play_out(pos, slow_rng) == end
            assert fast_rng.getstate() == slow_rng.getstate()
    assert speedups.play_out(
        LIVELY_DUMBBOT.weights, pos, SearchRandom(7), 3, pos.year, pos.year + 2
    )
    with pure_python():
        assert (
            speedups.play_out(DumbBot().weights, pos, SearchRandom(7), 3, pos.year, pos.year)
            is None
        )


class CountingRandom(SearchRandom):
    """A generator the compiled code draws from through its methods (not a plain SearchRandom)."""

    def random(self) -> float:
        return super().random()


def test_rollouts_draw_in_c_from_any_point_of_the_generator_and_through_others(
    compiled: None,
) -> None:
    """A plain SearchRandom is drawn from in C on its bit generator, which the compiled
    rollout leaves where Python's draws leave it from any point of its stream; a subclass
    and a plain ``random.Random`` through their methods."""
    assert speedups.COMPILED is not None
    assert speedups.COMPILED.draws_in_c(SearchRandom(1))
    assert not speedups.COMPILED.draws_in_c(CountingRandom(1))
    assert not speedups.COMPILED.draws_in_c(Random(1))
    pos = varied_positions()[40]
    domain = DiplomacyDomain(get_variant("dm/years=1"), 2, pos.year + 3, pos.map.num_powers)
    for advance in (0, 1, 150, 311):
        for kind in (SearchRandom, CountingRandom, Random):
            fast_rng, slow_rng = kind(advance), kind(advance)
            for rng in (fast_rng, slow_rng):
                rng.getrandbits(32 * advance)
            fast = domain.play_out(pos, fast_rng)
            with pure_python():
                slow = domain.play_out(pos, slow_rng)
            assert fast == slow, (advance, kind)
            assert fast_rng.getstate() == slow_rng.getstate(), (advance, kind)
            assert fast_rng.random() == slow_rng.random()


def _actions(pos: Position, power: int, rng: Random) -> list[Action]:
    """Our order sets to try: DumbBot's, a livelier DumbBot's, random legal ones (convoys
    among them when there are any), one naming a coast, and none."""
    players = (DumbBot(), LIVELY_DUMBBOT, RandomBot(support_probability=1.0))
    out = [tuple(p.movement_orders(pos, power, rng).items()) for p in players]
    legal = [(prov, rng.choice(movement_orders(pos, prov))) for prov in pos.units_of(power)]
    coasted = [(prov, (*o, o[2]) if o[0] == SUPPORT_MOVE else o) for prov, o in out[-1]]
    return [*out, tuple(legal), tuple(coasted), ()]


def _replay_step(
    domain: DiplomacyDomain, pos: Position, action: Action, rng: Random, seen: Counter[str]
) -> Position:
    """The pure-Python step, phase by phase, noting in ``seen`` who ordered what."""
    orders = domain.enemy_orders(Node(pos), rng).copy()
    orders.update(action)
    nxt = next_position(pos, orders)
    while not nxt.is_movement and not domain.terminal(nxt):
        if nxt.is_retreat:
            ours = any(d[0] == domain.us for d in nxt.dislodged.values())
            seen["our retreats" if ours else "their retreats"] += 1
        else:
            due = nxt.adjustments()[domain.us]
            seen["our builds" if due > 0 else "our removals" if due < 0 else "their winter"] += 1
        nxt = play_phase(nxt, domain.phase_policies, rng)
    return nxt


@pytest.mark.parametrize("spec", STEP_VARIANTS)
def test_the_compiled_step_goes_where_the_python_one_does(compiled: None, spec: str) -> None:
    seen: Counter[str] = Counter()
    for i, pos in enumerate(positions_of("movement")):
        us = i % pos.map.num_powers
        domain = DiplomacyDomain(get_variant(spec), us, pos.year + i % 3, pos.map.num_powers)
        assert domain.enemy_bot is not None and domain.our_phases is not None
        for k, action in enumerate(_actions(pos, us, SearchRandom(i))):
            fast_rng, slow_rng, replay_rng = SearchRandom(k), SearchRandom(k), SearchRandom(k)
            fast = domain.step(Node(pos), action, fast_rng)
            with pure_python():
                slow = domain.step(Node(pos), action, slow_rng)
                assert _replay_step(domain, pos, action, replay_rng, seen) == slow
            assert fast == slow, (pos, us, action)
            assert fast_rng.getstate() == slow_rng.getstate()
            bot, ours, learned = domain.enemy_bot.weights, domain.our_phases, domain.enemy_policy
            if (
                speedups.step(bot, ours, pos, action, SearchRandom(k), us, pos.year, None, learned)
                is None
            ):
                seen["in Python"] += 1
    assert min(seen.values()) > 10 and len(seen) == 6, seen


@pytest.mark.parametrize("spec", STEP_VARIANTS)
def test_a_node_stepped_again_and_again_keeps_its_enemies_values(compiled: None, spec: str) -> None:
    """From its KEEP_VALUES_FROM-th visit a node keeps the values; the steps stay the same."""
    kept = 0
    for i, pos in enumerate(positions_of("movement")[::6]):
        us = i % pos.map.num_powers
        domain = DiplomacyDomain(get_variant(spec), us, pos.year + 1, pos.map.num_powers)
        node: Node[Position, Action] = Node(pos)
        action = tuple(DumbBot().movement_orders(pos, us, SearchRandom(i)).items())
        for visit in range(KEEP_VALUES_FROM + 3):
            node.visits = visit
            fast_rng, slow_rng = SearchRandom(visit), SearchRandom(visit)
            fast = domain.step(node, action, fast_rng)
            with pure_python():
                assert domain.step(Node(pos), action, slow_rng) == fast
            assert fast_rng.getstate() == slow_rng.getstate()
            assert (node.data is not None) == (visit >= KEEP_VALUES_FROM)
            kept += node.data is not None
    assert kept > 50


def _malformed(pos: Position) -> list[Position]:
    """Copies of ``pos`` with one unit or dislodged unit not shaped as Position says."""
    out = []
    for field in ("units", "dislodged"):
        table = getattr(pos, field)
        if not table:
            continue
        key = next(iter(table))
        fields = table[key]
        for bad in (list(fields), fields[:1], fields[:-1], (*fields, 0)):
            broken = pos.copy()
            getattr(broken, field)[key] = bad
            out.append(broken)
    return out


def test_a_malformed_unit_is_a_value_error_not_a_crash(compiled: None) -> None:
    """The compiled rollout and step read unit tuples' items unchecked: they check them first."""
    weights = LIVELY_DUMBBOT.weights
    positions = varied_positions()
    movement = next(p for p in positions if p.is_movement and p.units)
    retreat = next(p for p in positions if p.is_retreat)
    broken = _malformed(movement) + _malformed(retreat)
    assert len(broken) == 12
    for pos in broken:
        with pytest.raises(ValueError):
            speedups.play_out(weights, pos, SearchRandom(1), 0, pos.year, pos.year + 2)


def test_an_empty_order_in_an_action_is_left_to_python(compiled: None) -> None:
    """An action's order that is an empty tuple is not one the compiled step plays."""
    pos = next(p for p in varied_positions() if p.is_movement and p.units)
    province, unit = next(iter(pos.units.items()))
    action = ((province, ()),)
    weights = LIVELY_DUMBBOT.weights
    assert (
        speedups.step(weights, weights, pos, action, SearchRandom(1), unit[0], pos.year + 2) is None
    )  # type: ignore[arg-type]


def test_values_kept_for_other_tables_are_a_value_error(compiled: None) -> None:
    """A step reads the kept values as sized for its map's tables: others' are refused."""
    pos = next(p for p in varied_positions() if p.is_movement and p.units)
    tables = tables_for(pos.map)
    assert speedups.COMPILED is not None
    other = speedups.COMPILED.NodeValues(speedups.COMPILED.CMap(pos.map, replace(tables)))
    weights = LIVELY_DUMBBOT.weights
    us = next(iter(pos.units.values()))[0]
    kept = speedups.node_values(pos)
    assert speedups.step(weights, weights, pos, (), SearchRandom(1), us, pos.year + 2, kept)
    with pytest.raises(ValueError, match="another map"):
        speedups.step(weights, weights, pos, (), SearchRandom(1), us, pos.year + 2, other)


def test_an_action_given_as_an_iterator_is_played(compiled: None) -> None:
    """The step's action is any iterable of pairs: one read once plays as its tuple does."""
    weights = LIVELY_DUMBBOT.weights
    checked = 0
    for pos in varied_positions()[::EVERY]:
        if not pos.is_movement or not pos.units:
            continue
        province, unit = next(iter(pos.units.items()))
        for order in movement_orders(pos, province):
            if order[0] != MOVE:
                continue
            action = ((province, order),)
            once = speedups.step(
                weights, weights, pos, action, SearchRandom(1), unit[0], pos.year + 2
            )
            again = speedups.step(
                weights, weights, pos, iter(action), SearchRandom(1), unit[0], pos.year + 2
            )
            assert once is not None and again == once
            checked += 1
    assert checked > 10


def test_a_generator_drawing_through_its_own_attribute_is_drawn_from_through_it(
    compiled: None,
) -> None:
    """A plain ``Random`` whose instance replaces a drawing method draws through it, as the
    Python loops do (the C draws would read its state instead)."""
    pos = [p for p in varied_positions() if p.is_movement][3]
    domain = DiplomacyDomain(get_variant("dm"), 0, pos.year + 2, pos.map.num_powers)
    for name, method in (("random", lambda: 0.0), ("_randbelow", lambda n: n - 1)):
        ends = []
        for pure in (False, True):
            rng = SearchRandom(5)
            setattr(rng, name, method)
            if pure:
                with pure_python():
                    ends.append((domain.play_out(pos, rng), rng.getstate()))
            else:
                ends.append((domain.play_out(pos, rng), rng.getstate()))
        assert ends[0] == ends[1], name
