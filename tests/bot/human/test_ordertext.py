"""The usual notation: every legal order round-trips; typed variants and bad texts, data-driven."""

from __future__ import annotations

import pytest

from adjudicator.maps import standard_map
from adjudicator.position import Position, initial_position
from bot.client.core.person import PersonOrderError, legal_choices
from bot.human.ordertext import MAX_TEXT, OrderTextError, parse_order_text
from bot.toolkit.order_words import format_order_text
from protocol.notation import parse_centres, parse_order, parse_turn, parse_unit_positions
from protocol.values import Location, Move, Order, Remove, Unit, UnitType

MAP = standard_map()
START = initial_position(MAP)


def _position(turn: str, units: str, centres: str) -> Position:
    return Position.from_values(
        MAP, parse_turn(turn), parse_unit_positions(units), parse_centres(centres)
    )


START_CENTRES = (
    "(AUS BUD TRI VIE) (ENG EDI LON LVP) (FRA BRE MAR PAR) (GER BER KIE MUN) "
    "(ITA NAP ROM VEN) (RUS MOS SEV STP WAR) (TUR ANK CON SMY) "
    "(UNO BEL BUL DEN GRE HOL NWY POR RUM SER SPA SWE TUN)"
)
# England has a fleet in the North Sea and an army in Yorkshire: convoys exist.
CONVOY_SPRING = _position(
    "SPR 1901",
    "(ENG FLT NTH) (ENG AMY YOR) (ENG FLT LON) (FRA AMY PAR) (FRA AMY BUR) (FRA FLT MAO)",
    START_CENTRES,
)
# A French army dislodged from Munich may retreat to Bohemia or Silesia.
RETREATS = _position("SUM 1901", "(GER AMY MUN) (FRA AMY MUN MRT (BOH SIL))", START_CENTRES)
# Winter: Russia owns five centres with three units: two builds; Germany must remove two.
WINTER = _position(
    "WIN 1901",
    "(RUS AMY WAR) (RUS FLT SEV) (RUS AMY UKR) (GER AMY BER) (GER AMY MUN) (GER FLT KIE) "
    "(GER AMY RUH)",
    "(RUS MOS SEV STP WAR RUM) (GER BER KIE) (UNO MUN)",
)

POSITIONS = {
    "start": (START, "FRA"),
    "start-eng": (START, "ENG"),
    "convoy": (CONVOY_SPRING, "ENG"),
    "retreat": (RETREATS, "FRA"),
    "win-build": (WINTER, "RUS"),
    "win-remove": (WINTER, "GER"),
}


@pytest.mark.parametrize("name", POSITIONS)
def test_every_legal_order_round_trips(name: str) -> None:
    pos, power = POSITIONS[name]
    orders = {o for group in legal_choices(pos, power).options.values() for o in group}
    assert orders
    for order in orders:
        text = format_order_text(order)
        assert legal_choices(pos, power).resolve(parse_order_text(text, pos, power)) == order


TYPED = [
    ("start", "A PAR - BUR", "(FRA AMY PAR) MTO BUR"),
    ("start", "a par -> bur", "(FRA AMY PAR) MTO BUR"),
    ("start", "PAR - BUR", "(FRA AMY PAR) MTO BUR"),
    ("start", "A PAR H", "(FRA AMY PAR) HLD"),
    ("start", "A PAR HOLD", "(FRA AMY PAR) HLD"),
    ("start", "A MAR S A PAR - BUR", "(FRA AMY MAR) SUP (FRA AMY PAR) MTO BUR"),
    ("start-eng", "A LVP S F EDI", "(ENG AMY LVP) SUP (ENG FLT EDI)"),
    ("start-eng", "A LVP S F EDI H", "(ENG AMY LVP) SUP (ENG FLT EDI)"),
    ("start", "F BRE - MAO", "(FRA FLT BRE) MTO MAO"),
    ("start-eng", "F EDI - NTH", "(ENG FLT EDI) MTO NTH"),
    ("convoy", "F NTH C A YOR - NWY", "(ENG FLT NTH) CVY (ENG AMY YOR) CTO NWY"),
    ("convoy", "A YOR - NWY", "(ENG AMY YOR) CTO NWY VIA (NTH)"),
    ("convoy", "A YOR - NWY VIA NTH", "(ENG AMY YOR) CTO NWY VIA (NTH)"),
    ("retreat", "A MUN R BOH", "(FRA AMY MUN) RTO BOH"),
    ("retreat", "A MUN - SIL", "(FRA AMY MUN) RTO SIL"),
    ("retreat", "A MUN D", "(FRA AMY MUN) DSB"),
    ("retreat", "A MUN DISBAND", "(FRA AMY MUN) DSB"),
    ("win-build", "BUILD A MOS", "(RUS AMY MOS) BLD"),
    ("win-build", "F STP/NC B", "(RUS FLT (STP NCS)) BLD"),
    ("win-build", "BUILD F STP(SC)", "(RUS FLT (STP SCS)) BLD"),
    ("win-build", "WAIVE", "RUS WVE"),
    ("win-remove", "REMOVE A RUH", "(GER AMY RUH) REM"),
    ("win-remove", "A RUH D", "(GER AMY RUH) REM"),
]


@pytest.mark.parametrize(("name", "text", "daide"), TYPED)
def test_typed_orders(name: str, text: str, daide: str) -> None:
    pos, power = POSITIONS[name]
    order = legal_choices(pos, power).resolve(parse_order_text(text, pos, power))
    assert order == parse_order(daide)


MALFORMED = [
    ("start", "", "empty"),
    ("start", "A PAR", "missing"),
    ("start", "A PAR X BUR", "not an order"),
    ("start", "A PARIS - BUR", "not a province"),
    ("start", "A XYZ - BUR", "not a province of this map"),
    ("start", "A BUR - PAR", "no unit in BUR"),
    ("start", "F PAR - BUR", "is A PAR"),
    ("start", "A BER - KIE", "GER's, not yours"),
    ("start", "A PAR - BUR MAR", "unexpected"),
    ("start", "A PAR - > BUR", "'>' is not a province"),  # only '->' together is an arrow
    ("start", "A MAR S A PAR - ", "expected the form"),
    ("start", "BUILD A PAR", "winter order"),
    ("start", "A PAR - BUR\x00", "plain letters"),
    ("start", "A PAR - BUR " * 20, "at most"),
    ("start", "F BRE - SPA/XX", "not a coast"),
    ("retreat", "A PAR - BUR", "no dislodged unit in PAR"),
    ("retreat", "A MUN H", "a retreat is"),
    ("win-build", "BUILD MOS", "say what to build"),
    ("win-build", "A MOS", "a winter order is"),
]


@pytest.mark.parametrize(("name", "text", "reason"), MALFORMED)
def test_malformed_texts(name: str, text: str, reason: str) -> None:
    pos, power = POSITIONS[name]
    with pytest.raises(OrderTextError, match=reason) as info:
        parse_order_text(text, pos, power)
    assert "\n" not in str(info.value)


ILLEGAL = [
    ("start", ["A PAR - MUN"], "not legal"),
    ("start", ["F BRE - PAR"], "not legal"),
    ("start", ["A MAR S A PAR - PIC"], "not legal"),
    ("start", ["A PAR - BUR", "A PAR H"], "two orders for PAR"),
    ("convoy", ["A YOR - NWY VIA NWG"], "not legal"),
    ("retreat", ["A MUN R BUR"], "not legal"),
    ("win-build", ["BUILD A WAR"], "nothing to order for WAR"),
    ("win-build", ["BUILD A MOS", "BUILD F SEV", "WAIVE"], "nothing to order for SEV"),
    ("win-build", ["BUILD A MOS", "BUILD A STP", "WAIVE"], "3 builds and waives where 2 are due"),
    ("win-remove", ["REMOVE A RUH", "REMOVE A MUN", "A BER D"], "3 removals where 2 are due"),
]


@pytest.mark.parametrize(("name", "texts", "reason"), ILLEGAL)
def test_illegal_orders_and_sets(name: str, texts: list[str], reason: str) -> None:
    pos, power = POSITIONS[name]
    with pytest.raises(PersonOrderError, match=reason):
        legal_choices(pos, power).accept([parse_order_text(t, pos, power) for t in texts])


def test_choices_per_phase() -> None:
    start = legal_choices(START, "FRA")
    assert start.kind == "movement"
    assert sorted(start.options) == ["BRE", "MAR", "PAR"]
    assert legal_choices(RETREATS, "FRA").options.keys() == {"MUN"}
    assert legal_choices(RETREATS, "GER").options == {}
    build = legal_choices(WINTER, "RUS")
    assert (build.kind, build.due) == ("adjustment", 2)
    assert set(build.options) == {"MOS", "STP", "WVE"}
    assert legal_choices(WINTER, "GER").due == -2
    with pytest.raises(ValueError, match="not a power"):
        legal_choices(START, "XXX")


def test_a_move_by_convoy_goes_with_its_route_and_the_core_accepts_it() -> None:
    orders = [
        parse_order_text(t, CONVOY_SPRING, "ENG") for t in ("A YOR - NWY", "F NTH C A YOR - NWY")
    ]
    assert legal_choices(CONVOY_SPRING, "ENG").accept(orders) == [
        parse_order("(ENG AMY YOR) CTO NWY VIA (NTH)"),
        parse_order("(ENG FLT NTH) CVY (ENG AMY YOR) CTO NWY"),
    ]


# Each refusal's whole message: what the person at the page reads.
REFUSALS = [
    ("start", "", "the order is empty"),
    ("start", "   ", "the order is empty"),
    ("start", "A PAR - BUR\x00", "an order is plain letters, '-', '/' and spaces"),
    ("start", "A", "the unit's province is missing"),
    ("start", "A PAR", "what the unit does is missing (H, -, S or C)"),
    ("start", "A PAR H X", "unexpected 'X' after H"),
    ("start", "A PAR -", "where to move to is missing"),
    ("start", "A PAR - XYZ", "XYZ is not a province of this map"),
    ("start", "A PAR - BUR MAR", "unexpected 'MAR' after the move"),
    ("start", "A PAR - BUR MAR PIC", "unexpected 'MAR PIC' after the move"),
    ("start", "A BRE - MAO", "the unit in BRE is F BRE"),
    ("start", "F PAR - BUR", "the unit in PAR is A PAR"),
    ("start", "A PAR S", "a unit is missing (e.g. A PAR)"),
    ("start", "A MAR S A PAR X BUR", "expected the form A BUR S A PAR - MAR"),
    ("start", "A MAR S A PAR -", "expected the form A BUR S A PAR - MAR"),
    ("start", "A MAR S A PAR - BUR PIC", "unexpected 'PIC' after the destination"),
    ("convoy", "F NTH C A YOR", "expected the form F NTH C A LON - NWY"),
    ("convoy", "F NTH C A YOR H", "expected the form F NTH C A LON - NWY"),
    ("convoy", "A YOR - NWY VIA", "VIA needs the convoying fleets' seas"),
    ("start", "BUILD A PAR", "build is a winter order; this is SPR 1901"),
    ("start", "REMOVE A PAR", "remove is a winter order; this is SPR 1901"),
    ("start", "WAIVE", "waive is a winter order; this is SPR 1901"),
    ("retreat", "A MUN H", "a retreat is 'A MUN R BOH' (or - BOH); a disband 'A MUN D'"),
    ("retreat", "A MUN D X", "unexpected 'X' after D"),
    ("retreat", "A MUN R", "where to retreat to is missing"),
    ("retreat", "A MUN R BOH SIL", "unexpected 'SIL' after the retreat"),
    ("win-build", "A MOS", "a winter order is 'BUILD A PAR', 'REMOVE A PAR' or 'WAIVE'"),
    ("win-build", "BUILD MOS", "say what to build: BUILD A PAR or BUILD F BRE"),
    ("win-build", "BUILD", "a unit is missing (e.g. A PAR)"),
    ("win-remove", "REMOVE A RUH X", "unexpected 'X' after the winter order"),
    ("win-remove", "REMOVE A WAR", "the unit in WAR is RUS's, not yours"),
]


@pytest.mark.parametrize(("name", "text", "message"), REFUSALS)
def test_refusals_say_exactly_why(name: str, text: str, message: str) -> None:
    pos, power = POSITIONS[name]
    with pytest.raises(OrderTextError) as info:
        parse_order_text(text, pos, power)
    assert str(info.value) == message


def test_another_powers_dislodged_unit_is_not_the_seats_to_retreat() -> None:
    with pytest.raises(OrderTextError) as info:
        parse_order_text("A MUN R BOH", RETREATS, "GER")
    assert str(info.value) == "the unit in MUN is FRA's, not yours"


ARMY_PAR = Unit("FRA", UnitType.ARMY, Location("PAR"))
ARMY_RUH = Unit("GER", UnitType.ARMY, Location("RUH"))

READ = [
    ("start", "A PAR-BUR", Move(ARMY_PAR, Location("BUR"))),
    ("start", "A PAR - BUR".ljust(MAX_TEXT), Move(ARMY_PAR, Location("BUR"))),
    ("win-remove", "D A RUH", Remove(ARMY_RUH)),
    ("win-remove", "A RUH REMOVE", Remove(ARMY_RUH)),
    ("win-remove", "REMOVE RUH", Remove(ARMY_RUH)),
]


@pytest.mark.parametrize(("name", "text", "order"), READ)
def test_texts_read_as_orders(name: str, text: str, order: Order) -> None:
    pos, power = POSITIONS[name]
    assert parse_order_text(text, pos, power) == order


def test_a_text_one_character_too_long_is_refused() -> None:
    with pytest.raises(OrderTextError) as info:
        parse_order_text("A PAR - BUR".ljust(MAX_TEXT + 1), START, "FRA")
    assert str(info.value) == f"an order is at most {MAX_TEXT} characters"
