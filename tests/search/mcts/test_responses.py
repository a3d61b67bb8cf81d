"""Best replies to sampled enemy orders as root candidates (search.mcts.responses)."""

from __future__ import annotations

from random import Random

from adjudicator.legal import movement_orders
from adjudicator.movement import next_position
from adjudicator.orders import HOLD_ORDER, MOVE, SUPPORT_MOVE, EngineOrder
from adjudicator.position import Position
from search.dumbbot import DumbBot
from search.mcts.actions import as_action
from search.mcts.players import EnemyModel
from search.mcts.responses import (
    PROFILES,
    LearnedRepliesDomain,
    RepliesDomain,
    best_reply,
    phase_value,
    unit_options,
)
from search.mcts.uct import Node
from search.mcts.variants import get_variant
from tests.search.boards import loc, position, power, prov


def test_the_phase_value_counts_centres_held_or_stood_on_and_dislodged_units() -> None:
    pos = position(
        "FAL 1902",
        ["GER A MUN", "GER A BEL", "FRA A BUR"],
        {"GER": ["MUN", "KIE", "BER"], "FRA": ["PAR", "BRE", "MAR"]},
    )
    # Germany owns three and stands on Belgium; France holds three.
    assert phase_value(pos, power("GER")) == 4
    after = position("FAL 1902", ["FRA A MUN", "GER A BEL"], {"GER": ["MUN", "KIE", "BER"]})
    assert phase_value(after, power("GER")) == 3  # Munich taken: Kiel, Berlin, Belgium
    dislodged = after.copy()
    dislodged.dislodged = {prov("MUN"): (power("GER"), 0, prov("MUN"), ())}
    assert phase_value(dislodged, power("GER")) == 3 - 0.5


def test_a_unit_is_offered_its_moves_and_supports_of_our_units_only() -> None:
    pos = position(
        "SPR 1902",
        ["GER A MUN", "GER A RUH", "FRA A BUR"],
        {"GER": ["MUN", "KIE", "BER"]},
    )
    germany = power("GER")
    orders = {prov("MUN"): (MOVE, loc("BUR")), prov("RUH"): HOLD_ORDER}
    options = unit_options(pos, prov("RUH"), orders, germany)
    assert (SUPPORT_MOVE, prov("MUN"), prov("BUR")) in options
    assert not [o for o in options if len(o) > 1 and o[0] != MOVE and o[1] == prov("BUR")]
    legal = movement_orders(pos, prov("RUH"))
    assert all(o in legal for o in options)


def test_the_reply_takes_a_defended_centre_with_support_instead_of_bouncing() -> None:
    # England holds Belgium; two German armies next to it hold.  Alone, an
    # attack bounces; with the other's support it takes Belgium.  Every other
    # centre in reach is Germany's already.
    pos = position(
        "FAL 1902",
        ["GER A BUR", "GER A RUH", "ENG A BEL"],
        {"GER": ["MUN", "KIE", "BER", "HOL", "PAR", "MAR"], "ENG": ["BEL", "LON"]},
    )
    germany = power("GER")
    profiles = [{prov("BEL"): HOLD_ORDER}]
    start = {prov("BUR"): HOLD_ORDER, prov("RUH"): HOLD_ORDER}
    reply = best_reply(pos, germany, start, profiles, Random(1))
    movers = [p for p, o in reply.items() if o[0] == MOVE]
    assert len(movers) == 1 and reply[movers[0]] == (MOVE, loc("BEL"))
    supporter = next(p for p in reply if p != movers[0])
    assert reply[supporter] == (SUPPORT_MOVE, movers[0], prov("BEL"))


def test_the_reply_holds_a_threatened_centre_the_start_would_leave() -> None:
    pos = position(
        "FAL 1902",
        ["GER A MUN", "FRA A BUR"],
        {"GER": ["MUN", "KIE", "BER"], "FRA": ["PAR"]},
    )
    germany = power("GER")
    profiles = [{prov("BUR"): (MOVE, loc("MUN"))}]
    start = {prov("MUN"): (MOVE, loc("BOH"))}
    reply = best_reply(pos, germany, start, profiles, Random(2))
    assert reply[prov("MUN")] in (HOLD_ORDER, (MOVE, loc("BUR")))  # stays or bounces it out

    def after(ours: dict) -> float:
        return phase_value(next_position(pos, {**profiles[0], **ours}), germany)

    assert after(start) == 2  # Munich lost
    assert after(reply) == 3


def test_the_root_hands_out_replies_first_and_the_rest_of_the_tree_is_the_variant() -> None:
    variant = get_variant("dr")
    pos = position(
        "SPR 1901",
        ["GER A MUN", "GER F KIE", "GER A BER", "FRA A BUR"],
        {"GER": ["MUN", "KIE", "BER"], "FRA": ["PAR"]},
    )
    germany = power("GER")
    domain = variant.domain(variant, germany, 1905, pos.map.num_powers)
    assert isinstance(domain, RepliesDomain)
    root = domain.actions(pos, Random(3))
    first = root.next(Random(3))
    assert first is not None
    assert {p for p, _ in first} == set(pos.units_of(germany))
    other = pos.copy()
    other.year = 1902
    plain = domain.actions(other, Random(3))
    dm = get_variant("dm")
    assert plain.next(Random(4)) == dm.actions.source(other, germany, Random(3)).next(Random(4))
    assert as_action(DumbBot().movement_orders(pos, germany, Random(5)))  # a full set of ours


class _Recording(DumbBot):
    """DumbBot that counts the movement phases it is asked to play."""

    def __init__(self) -> None:
        super().__init__()
        self.asked = 0

    def movement_orders(self, pos: Position, power: int, rng: Random) -> dict[int, EngineOrder]:
        """DumbBot's orders, counted."""
        self.asked += 1
        return super().movement_orders(pos, power, rng)


def test_dlr_replies_to_the_learned_enemies_and_plays_them_in_the_tree() -> None:
    variant = get_variant("dlr")
    assert variant.observes
    pos = position(
        "SPR 1902",
        ["GER A MUN", "GER A BER", "FRA A BUR"],
        {"GER": ["MUN", "KIE", "BER"], "FRA": ["PAR"]},
    )
    germany = power("GER")
    domain = variant.domain(variant, germany, 1905, pos.map.num_powers)
    assert isinstance(domain, LearnedRepliesDomain)
    # Without statistics, the enemies are the variant's model, as in dr.
    assert domain.enemy_model() is variant.enemies
    learned = _Recording()
    domain.learned = learned  # type: ignore[assignment]
    domain.learned_enemies = EnemyModel("learned", learned, fixed=False)
    reply = domain.actions(pos, Random(3)).next(Random(3))
    assert reply is not None and {p for p, _ in reply} == set(pos.units_of(germany))
    assert learned.asked == PROFILES  # France, once per profile
    domain.step(Node(pos), reply, Random(4))
    assert learned.asked == PROFILES + 1  # the tree's own descent asks the learned model


def test_dlr_takes_the_learned_variants_rollout_setting() -> None:
    variant = get_variant("dlr/lroll=off")
    domain = variant.domain(variant, power("GER"), 1905, 7)
    assert isinstance(domain, LearnedRepliesDomain) and not domain.in_rollouts
    default = get_variant("dlr")
    assert default.domain(default, power("GER"), 1905, 7).in_rollouts
