"""Agreements as constraints: orders restrained, and the rollouts that value an agreement."""

from __future__ import annotations

import pytest

from adjudicator.maps import standard_map
from adjudicator.orders import HOLD_ORDER, MOVE, SUPPORT_MOVE, EngineOrder
from adjudicator.position import Position, initial_position
from search.constraints import NO_CONSTRAINTS, Constraints, Promise, Zone
from search.negotiation import Budget, agreement_gain

M = standard_map()
FRA, GER, ENG, ITA = (M.power_index[p] for p in ("FRA", "GER", "ENG", "ITA"))


def _p(name: str) -> int:
    return M.province_index[name]


def _move(to: str) -> EngineOrder:
    return (MOVE, M.location(to))


def _opening_with(units: dict[str, tuple[int, str]]) -> Position:
    """The opening with armies added: province -> (power, province)."""
    pos = initial_position(M).copy()
    for name, (power, _) in units.items():
        pos.units[_p(name)] = (power, 0, M.location(name))
    return pos


PEACE_FG = Constraints(FRA, frozenset({GER}))


@pytest.mark.parametrize(
    ("constraints", "power", "unit", "order", "breaks"),
    [
        (PEACE_FG, FRA, "BUR", _move("MUN"), True),  # our move on the partner's centre and unit
        (PEACE_FG, FRA, "BUR", _move("BEL"), False),  # a neutral centre
        (PEACE_FG, GER, "RUH", _move("BUR"), True),  # the partner moving on our unit
        (PEACE_FG, GER, "KIE", _move("HOL"), False),
        (PEACE_FG, FRA, "PIC", (SUPPORT_MOVE, _p("BUR"), _p("MUN")), True),  # support of an attack
        (PEACE_FG, ENG, "LVP", _move("WAL"), False),  # not a partner
        (NO_CONSTRAINTS, FRA, "BUR", _move("MUN"), False),
        (Constraints(FRA, zones=(Zone(frozenset({FRA, ITA}), frozenset({_p("PIE")})),)),
         FRA, "MAR", _move("PIE"), True),  # into a demilitarised zone
        (Constraints(FRA, zones=(Zone(frozenset({ITA}), frozenset({_p("PIE")})),)),
         FRA, "MAR", _move("PIE"), False),  # a zone others keep out of
    ],
)  # fmt: skip
def test_an_order_breaks_an_agreement(
    constraints: Constraints, power: int, unit: str, order: EngineOrder, breaks: bool
) -> None:
    pos = _opening_with({"BUR": (FRA, "BUR"), "RUH": (GER, "RUH"), "PIC": (FRA, "PIC")})
    assert constraints.breaks(pos, power, order) == breaks
    restrained = constraints.restrain(pos, power, {_p(unit): order})
    assert restrained[_p(unit)] == (HOLD_ORDER if breaks else order)


def _promise(power: int, unit: str, order: EngineOrder, pos: Position | None = None) -> Promise:
    pos = pos or initial_position(M)
    return Promise(power, _p(unit), order, pos.season, pos.year)


@pytest.mark.parametrize(
    ("promise", "power", "orders", "expected"),
    [
        # ours: the promised order replaces the unit's own
        (_promise(FRA, "PAR", _move("BUR")), FRA, {"PAR": _move("PIC")}, {"PAR": _move("BUR")}),
        # a partner's, in our model of its orders: taken at its word
        (_promise(GER, "MUN", HOLD_ORDER), GER, {"MUN": _move("BUR")}, {"MUN": HOLD_ORDER}),
        # another power's orders are not touched
        (_promise(FRA, "PAR", _move("BUR")), GER, {"MUN": _move("BUR")}, {"MUN": _move("BUR")}),
        # a promise for a unit that is not the power's binds nothing
        (_promise(GER, "PAR", HOLD_ORDER), GER, {"MUN": _move("RUH")}, {"MUN": _move("RUH")}),
    ],
)  # fmt: skip
def test_a_promised_order_replaces_the_units_own(
    promise: Promise, power: int, orders: dict[str, EngineOrder], expected: dict[str, EngineOrder]
) -> None:
    pos = initial_position(M)
    bound = Constraints(FRA, promised=(promise,))
    restrained = bound.restrain(pos, power, {_p(k): v for k, v in orders.items()})
    assert restrained == {_p(k): v for k, v in expected.items()}


def test_a_promise_binds_its_phase_only() -> None:
    pos = initial_position(M)
    later = pos.copy()
    later.year += 1
    bound = Constraints(FRA, promised=(_promise(GER, "MUN", HOLD_ORDER),))
    assert bound.restrain(pos, GER, {_p("MUN"): _move("RUH")}) == {_p("MUN"): HOLD_ORDER}
    assert bound.restrain(later, GER, {_p("MUN"): _move("RUH")}) == {_p("MUN"): _move("RUH")}


def test_a_partner_s_set_keeps_its_promise_and_out_of_zones() -> None:
    pos = initial_position(M)
    bound = Constraints(
        FRA,
        zones=(Zone(frozenset({FRA, GER}), frozenset({_p("BUR")})),),
        promised=(_promise(GER, "BER", _move("SIL")),),
    )
    orders = {_p("MUN"): _move("BUR"), _p("BER"): _move("KIE"), _p("KIE"): _move("HOL")}
    out = bound.restrain(pos, GER, orders)
    assert out == {_p("MUN"): HOLD_ORDER, _p("BER"): _move("SIL"), _p("KIE"): _move("HOL")}


def test_the_value_of_peace_is_paired_and_deterministic() -> None:
    pos = _opening_with({"BUR": (FRA, "BUR"), "RUH": (FRA, "RUH"), "PIC": (FRA, "PIC")})
    for province in [p for p, u in pos.units.items() if u[0] == GER]:
        del pos.units[province]
    budget = Budget(rollouts=4, years=2)
    far = agreement_gain(pos, FRA, Constraints(FRA, frozenset({M.power_index["TUR"]})), seed=1)
    near = agreement_gain(pos, FRA, PEACE_FG, seed=1, budget=budget)
    assert far == 0.0  # peace with a power out of reach changes nothing in paired rollouts
    assert near < 0  # peace with an undefended neighbour costs us its centres
    assert agreement_gain(pos, FRA, PEACE_FG, seed=1, budget=budget) == near
    with pytest.raises(ValueError):
        Budget(rollouts=0)
