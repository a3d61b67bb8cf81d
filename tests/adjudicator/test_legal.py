"""Legal order generation, held to the order checker, and a perft-like table of order counts.

Two kinds of test:

* *oracle*: for every unit of a position, the generator's orders must be
  exactly the orders :class:`~adjudicator.validation.OrderBook` (the THX
  checker the DATC table and the Parlance cross-check hold to the server's
  verdicts) accepts among a brute-force list of candidates: every hold, every
  move to every location, every move by convoy, every support of every unit
  to every province next to the supporter, every convoy of every army to
  every coastal province, every retreat, build, removal and waive;
* *perft*: the number of legal orders for known positions (per unit, per
  power, and the number of whole order sets per power, the product), so a
  change in move generation shows up as a changed count.  The counts were
  taken from the generator once it matched the oracle; a few are checked by
  hand in the comments.
"""

from __future__ import annotations

import math

import pytest

from adjudicator.convert import adjustment_value, movement_value, retreat_value
from adjudicator.daide import adjudicate_text, load_position
from adjudicator.legal import (
    adjustment_options,
    complete_with_disbands,
    complete_with_holds,
    movement_orders,
    retreat_orders,
)
from adjudicator.maps import ARMY, COASTAL, FLEET, INLAND, SEA, standard_map
from adjudicator.orders import DISBAND_ORDER, HOLD_ORDER, MOVE, RETREAT, EngineOrder
from adjudicator.position import SUMMER, Position, initial_position
from adjudicator.validation import MBV, OrderBook
from protocol.notation import format_order
from protocol.values import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    MoveByConvoy,
    Order,
    Remove,
    Retreat,
    SupportHold,
    SupportMove,
    Unit,
    UnitType,
    Waive,
)

M = standard_map()


def _unit(pos: Position, prov: int) -> Unit:
    return pos.unit_value(pos.units[prov])


def _candidates(pos: Position, prov: int) -> list[Order]:
    """Every movement order worth asking the checker about for the unit in ``prov``."""
    m = pos.map
    me = _unit(pos, prov)
    locations = [m.location_name(loc) for loc in range(len(m.loc_province))]
    out: list[Order] = [Hold(me)]
    out += [Move(me, loc) for loc in locations]
    out += [MoveByConvoy(me, m.provinces[p], ()) for p in range(m.num_provinces)]
    near = [m.provinces[p] for p in m.neighbours[prov]]
    for other in pos.units:
        if other == prov:
            continue
        them = _unit(pos, other)
        out.append(SupportHold(me, them))
        out += [SupportMove(me, them, name) for name in near]
        if m.kind[other] == COASTAL and pos.units[other][1] == ARMY:
            out += [
                Convoy(me, them, m.provinces[p])
                for p in range(m.num_provinces)
                if m.kind[p] == COASTAL
            ]
    return out


def _accepted(pos: Position, prov: int, orders: list[Order]) -> set[EngineOrder]:
    """The engine form of each of ``orders`` the checker accepts (each in a fresh book)."""
    owner = pos.dislodged[prov] if pos.dislodged else pos.units[prov]
    power = pos.map.powers[owner[0]]
    out = set()
    for order in orders:
        book = OrderBook(pos)
        if book.submit(power, order) == MBV:
            out.add(book.unit_orders()[prov])
    return out


def assert_movement_generation_is_exact(pos: Position) -> None:
    for prov in sorted(pos.units):
        generated = movement_orders(pos, prov)
        assert len(set(generated)) == len(generated), f"{M.provinces[prov]}: duplicates"
        values = [movement_value(pos, prov, o) for o in generated]
        assert _accepted(pos, prov, values) == set(generated), f"{M.provinces[prov]}: round trip"
        assert _accepted(pos, prov, _candidates(pos, prov)) == set(generated), (
            f"{M.provinces[prov]}: generated orders differ from what the checker accepts"
        )


def counts(pos: Position) -> dict[str, int]:
    """Legal movement orders per unit, keyed by province name."""
    return {pos.map.provinces[p]: len(movement_orders(pos, p)) for p in sorted(pos.units)}


def per_power(pos: Position) -> dict[str, tuple[int, int]]:
    """Per power: (sum of its units' order counts, number of whole order sets)."""
    out: dict[str, tuple[int, int]] = {}
    for power in range(pos.map.num_powers):
        sizes = [len(movement_orders(pos, p)) for p in pos.units_of(power)]
        if sizes:
            out[pos.map.powers[power]] = (sum(sizes), math.prod(sizes))
    return out


# --- the opening ------------------------------------------------------------------------------

OPENING_COUNTS = {
    "ANK": 9, "BER": 11, "BRE": 9, "BUD": 13, "CON": 7, "EDI": 9, "KIE": 8, "LON": 10,
    "LVP": 10, "MAR": 10, "MOS": 12, "MUN": 19, "NAP": 9, "PAR": 11, "ROM": 11, "SEV": 8,
    "SMY": 11, "STP": 6, "TRI": 6, "VEN": 18, "VIE": 15, "WAR": 16,
}  # fmt: skip
# By hand: F LON holds, moves to ECH, NTH, WAL, YOR, supports F EDI to NTH or YOR, A LVP to
# WAL or YOR and F BRE to ECH: 10.  F STP(SC) holds, moves to BOT, FIN, LVN, supports A MOS
# and A WAR to LVN: 6.


def test_opening_order_counts() -> None:
    pos = initial_position(M)
    assert counts(pos) == OPENING_COUNTS
    assert sum(OPENING_COUNTS.values()) == 238
    assert per_power(pos) == {
        "AUS": (34, 1170), "ENG": (29, 900), "FRA": (30, 990), "GER": (38, 1672),
        "ITA": (38, 1782), "RUS": (42, 9216), "TUR": (27, 693),
    }  # fmt: skip


def test_opening_generation_is_exact() -> None:
    assert_movement_generation_is_exact(initial_position(M))


# --- convoys: a crowded sea, and a fleet only on a detour (DATC 6.G.19) ---------------------

CONVOY_NOW = (
    "NOW ( FAL 1902 ) ( ENG FLT NTH ) ( ENG FLT ECH ) ( ENG AMY LON ) ( ENG AMY BEL ) "
    "( ENG FLT NWG ) ( FRA FLT MAO ) ( FRA AMY BRE ) ( FRA FLT WES ) ( FRA AMY MAR ) "
    "( ITA FLT GOL ) ( ITA AMY SPA ) ( ITA FLT TYS ) ( ITA AMY TUN ) ( GER AMY HOL ) "
    "( GER FLT HEL ) ( RUS FLT ( STP NCS ) ) ( RUS AMY NWY )"
)
CONVOY_SCO = (
    "SCO ( ENG LON EDI LVP BEL ) ( FRA BRE MAR PAR ) ( ITA ROM NAP VEN SPA TUN ) "
    "( GER HOL BER KIE MUN ) ( RUS STP NWY MOS SEV WAR ) "
    "( UNO VIE BUD TRI ANK CON SMY DEN SWE POR GRE SER BUL RUM )"
)
CONVOY_COUNTS = {
    "BEL": 45, "BRE": 41, "ECH": 162, "GOL": 131, "HEL": 69, "HOL": 43, "LON": 40, "MAO": 155,
    "MAR": 53, "NTH": 162, "NWG": 73, "NWY": 26, "SPA": 49, "STP": 14, "TUN": 32, "TYS": 128,
    "WES": 137,
}  # fmt: skip


def test_convoy_position_order_counts() -> None:
    pos = load_position(CONVOY_NOW, CONVOY_SCO)
    assert counts(pos) == CONVOY_COUNTS
    assert per_power(pos) == {
        "ENG": (482, 3_448_461_600), "FRA": (386, 46_143_655), "GER": (112, 2967),
        "ITA": (340, 26_292_224), "RUS": (40, 364),
    }  # fmt: skip


def test_convoy_position_generation_is_exact() -> None:
    assert_movement_generation_is_exact(load_position(CONVOY_NOW, CONVOY_SCO))


def test_a_fleet_on_a_detour_may_convoy() -> None:
    """DATC 6.G.19 as Parlance reads it: Western Med lies only on a detour, yet may convoy."""
    pos = load_position(
        "NOW ( SPR 1901 ) ( FRA AMY MAR ) ( FRA FLT WES ) ( ITA FLT GOL ) ( ITA AMY SPA )",
        "SCO ( FRA MAR ) ( ITA SPA )",
    )
    wes = M.province_index["WES"]
    texts = {format_order(movement_value(pos, wes, o)) for o in movement_orders(pos, wes)}
    assert "( FRA FLT WES ) CVY ( FRA AMY MAR ) CTO SPA" in texts
    # By hand, A MAR: hold; moves to SPA, GAS, BUR, PIE; by convoy to SPA, PIE, TUS, NAF, TUN;
    # supports A SPA to hold, to GAS, to PIE (by convoy through GOL), F GOL to SPA and PIE,
    # F WES to SPA: 16.
    assert counts(pos) == {"GOL": 25, "MAR": 16, "SPA": 12, "WES": 20}
    assert_movement_generation_is_exact(pos)


# --- retreats --------------------------------------------------------------------------------


def _after(now: str, sco: str, orders: list[str]) -> Position:
    out = adjudicate_text(now, sco, orders)
    return load_position(out.now, out.sco)


RETREAT_POSITION = (
    "NOW ( SPR 1901 ) ( AUS AMY BUD ) ( AUS AMY TRI ) ( ITA AMY VIE ) ( GER AMY MUN ) "
    "( GER AMY SIL ) ( RUS FLT SEV ) ( TUR FLT BLA ) ( TUR FLT CON ) ( RUS FLT ANK )",
    "SCO ( AUS BUD TRI ) ( ITA VIE ) ( GER MUN ) ( RUS SEV ANK ) ( TUR CON )",
    [
        "( AUS AMY BUD ) SUP ( AUS AMY TRI ) MTO VIE", "( AUS AMY TRI ) MTO VIE",
        "( GER AMY MUN ) MTO BOH", "( GER AMY SIL ) MTO BOH",
        "( TUR FLT CON ) SUP ( TUR FLT BLA ) MTO ANK", "( TUR FLT BLA ) MTO ANK",
    ],
)  # fmt: skip


def test_retreat_orders() -> None:
    pos = _after(*RETREAT_POSITION)
    assert pos.season == SUMMER
    by_name = {
        M.provinces[p]: sorted(
            format_order(retreat_value(pos, p, o)) for o in retreat_orders(pos, p)
        )
        for p in pos.dislodged
    }
    # Vienna: not Bohemia (standoff), not Trieste (the attacker's origin), not Budapest
    # (occupied); Ankara: not the Black Sea (attacker), not Constantinople (occupied).
    assert by_name == {
        "VIE": sorted([
            "( ITA AMY VIE ) RTO GAL", "( ITA AMY VIE ) RTO TYR", "( ITA AMY VIE ) DSB",
        ]),
        "ANK": sorted(["( RUS FLT ANK ) RTO ARM", "( RUS FLT ANK ) DSB"]),
    }  # fmt: skip
    for prov in pos.dislodged:
        unit = pos.unit_value(pos.dislodged[prov][:3])
        candidates: list[Order] = [Disband(unit)]
        candidates += [Retreat(unit, M.location_name(loc)) for loc in range(len(M.loc_province))]
        assert _accepted(pos, prov, candidates) == set(retreat_orders(pos, prov))


def test_complete_with_disbands_fills_only_the_powers_dislodged_units() -> None:
    pos = _after(*RETREAT_POSITION)
    ita, rus = M.powers.index("ITA"), M.powers.index("RUS")
    vie, ank, gal = (M.provinces.index(name) for name in ("VIE", "ANK", "GAL"))
    retreat = (RETREAT, gal)
    assert complete_with_disbands(pos, ita, {}) == {vie: DISBAND_ORDER}
    assert complete_with_disbands(pos, ita, {vie: retreat}) == {vie: retreat}
    # An order for another power's unit is dropped, not passed on.
    assert complete_with_disbands(pos, ita, {vie: retreat, ank: DISBAND_ORDER}) == {vie: retreat}
    assert complete_with_disbands(pos, rus, {vie: retreat}) == {ank: DISBAND_ORDER}


def test_complete_with_holds_fills_only_the_powers_units() -> None:
    pos = initial_position(M)
    fra = M.powers.index("FRA")
    par, bur, lon = (M.provinces.index(name) for name in ("PAR", "BUR", "LON"))
    ours = {p for p, u in pos.units.items() if u[0] == fra}
    move = (MOVE, bur)
    completed = complete_with_holds(pos, fra, {par: move, lon: HOLD_ORDER})
    assert set(completed) == ours
    assert completed[par] == move
    assert all(order == HOLD_ORDER for p, order in completed.items() if p != par)
    assert complete_with_holds(pos, fra, {}) == dict.fromkeys(ours, HOLD_ORDER)


# --- adjustments -----------------------------------------------------------------------------

WINTER = (
    "NOW ( WIN 1901 ) ( RUS FLT SEV ) ( RUS AMY UKR ) ( GER AMY KIE ) ( GER AMY BER ) "
    "( GER AMY MUN ) ( GER AMY DEN ) ( GER FLT HOL ) ( FRA AMY PAR )",
    "SCO ( RUS STP MOS WAR SEV RUM ) ( GER BER KIE ) ( FRA PAR MAR BRE ) "
    "( UNO VIE BUD TRI LON EDI LVP ROM NAP VEN ANK CON SMY MUN BEL BUL DEN GRE HOL NWY "
    "POR SER SPA SWE TUN )",
)


def test_adjustment_options() -> None:
    pos = load_position(*WINTER)
    names = {
        M.powers[power]: sorted(
            format_order(adjustment_value(pos, power, o)) for o in adjustment_options(pos, power)
        )
        for power in range(M.num_powers)
    }
    # Russia: 5 centres, 2 units: builds in STP (army, either coast), MOS, WAR; not SEV
    # (occupied).  Germany: 2 centres, 5 units: any of its units may go.  France: 3 centres,
    # 1 unit: MAR (army, fleet), BRE (army, fleet); PAR is occupied.  Others: nothing due.
    assert names["RUS"] == sorted([
        "( RUS AMY STP ) BLD", "( RUS FLT ( STP NCS ) ) BLD", "( RUS FLT ( STP SCS ) ) BLD",
        "( RUS AMY MOS ) BLD", "( RUS AMY WAR ) BLD", "RUS WVE",
    ])  # fmt: skip
    assert len(names["GER"]) == 5 and all(t.endswith(" REM") for t in names["GER"])
    assert names["FRA"] == sorted([
        "( FRA AMY MAR ) BLD", "( FRA FLT MAR ) BLD", "( FRA AMY BRE ) BLD",
        "( FRA FLT BRE ) BLD", "FRA WVE",
    ])  # fmt: skip
    assert all(not names[p] for p in ("AUS", "ENG", "ITA", "TUR"))

    for power in range(M.num_powers):
        name = M.powers[power]
        candidates: list[Order] = [Waive(name)]
        for loc in range(len(M.loc_province)):
            for kind in (UnitType.ARMY, UnitType.FLEET):
                candidates.append(Build(Unit(name, kind, M.location_name(loc))))
        candidates += [Remove(pos.unit_value(u)) for u in pos.units.values()]
        accepted = set()
        for order in candidates:
            book = OrderBook(pos)
            if book.submit(name, order) == MBV:
                accepted.update(book.adjustment_orders()[power])
        assert accepted == set(adjustment_options(pos, power)), name


@pytest.mark.parametrize("kind", [ARMY, FLEET])
def test_armies_stay_on_land_and_fleets_off_inland_provinces(kind: int) -> None:
    pos = load_position(CONVOY_NOW, CONVOY_SCO)
    forbidden = SEA if kind == ARMY else INLAND
    for prov, unit in pos.units.items():
        if unit[1] == kind:
            for order in movement_orders(pos, prov):
                if order[0] == MOVE:
                    assert M.kind[M.loc_province[order[1]]] != forbidden, order
