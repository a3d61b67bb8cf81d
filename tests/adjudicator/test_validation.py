"""The order checker beyond the table rows: verdicts a row cannot reach, and fuzzing.

The DATC table and the extra rows submit every order as the power it names,
so ``NYU`` (someone else's unit) and ``NSP`` (a province the map lacks, which
only a variant can produce) are checked here, on :class:`OrderBook` directly.
The fuzz test submits arbitrary orders, in every kind of phase, and requires
a known THX note every time and never an exception.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator.daide import adjudicate_phase, adjudicate_text, load_position
from adjudicator.maps import standard_map
from adjudicator.position import Position, initial_position
from adjudicator.validation import OrderBook
from protocol.tokens import STANDARD
from protocol.values import (
    Build,
    Convoy,
    Disband,
    Hold,
    Location,
    Move,
    MoveByConvoy,
    Order,
    Remove,
    Retreat,
    Season,
    SupportHold,
    SupportMove,
    Turn,
    Unit,
    UnitPosition,
    UnitType,
    Waive,
)
from tests.adjudicator.test_maps import variant_map
from tests.examples import examples

NOTES = {"MBV", "FAR", "NSP", "NSU", "NAS", "NSF", "NSA", "NYU", "NRN", "NVR", "YSC", "ESC",
         "HSC", "NSC", "CST", "NMB", "NMR", "NRS"}  # fmt: skip
M = standard_map()
LON_FLEET = Unit("ENG", UnitType.FLEET, Location("LON"))


def test_ordering_someone_elses_unit_is_nyu() -> None:
    pos = initial_position(M)
    book = OrderBook(pos)
    assert book.submit("FRA", Move(LON_FLEET, Location("NTH"))) == "NYU"
    assert book.submit("FRA", Hold(LON_FLEET)) == "NYU"
    assert book.unit_orders() == {}
    assert book.submit("ENG", Move(LON_FLEET, Location("NTH"))) == "MBV"


def test_waiving_for_another_power_is_nyu() -> None:
    pos = load_position("NOW ( WIN 1901 ) ( RUS FLT SEV )", "SCO ( RUS MOS SEV ) ( FRA PAR )")
    book = OrderBook(pos)
    assert book.submit("FRA", Waive("RUS")) == "NYU"
    assert book.submit("RUS", Waive("RUS")) == "MBV"
    assert book.submit("RUS", Waive("RUS")) == "NMB"


def test_a_province_the_map_lacks_is_nsp() -> None:
    m = variant_map()
    army = Unit("ONE", UnitType.ARMY, Location("AAA"))
    pos = Position.from_values(m, Turn(Season.SPRING, 2000), [UnitPosition(army)], [])
    book = OrderBook(pos)
    assert book.submit("ONE", Move(army, Location("LON"))) == "NSP"
    assert book.submit("ONE", Hold(Unit("ONE", UnitType.ARMY, Location("LON")))) == "NSP"
    assert book.submit("ONE", Move(army, Location("BBB"))) == "MBV"


# --- fuzzing -----------------------------------------------------------------------------------

POWERS = [*STANDARD.powers, "UNO"]
PROVINCES = sorted(STANDARD.provinces)
location = st.builds(
    Location, st.sampled_from(PROVINCES), st.sampled_from([None, None, "NCS", "SCS", "ECS", "WCS"])
)
unit = st.builds(Unit, st.sampled_from(POWERS), st.sampled_from(list(UnitType)), location)
province = st.sampled_from(PROVINCES)
order: st.SearchStrategy[Order] = st.one_of(
    st.builds(Hold, unit),
    st.builds(Move, unit, location),
    st.builds(SupportHold, unit, unit),
    st.builds(SupportMove, unit, unit, province),
    st.builds(Convoy, unit, unit, province),
    st.builds(MoveByConvoy, unit, province, st.lists(province, max_size=3).map(tuple)),
    st.builds(Retreat, unit, location),
    st.builds(Disband, unit),
    st.builds(Build, unit),
    st.builds(Remove, unit),
    st.builds(Waive, st.sampled_from(POWERS)),
)

SUMMER = adjudicate_text(
    "NOW ( SPR 1901 ) ( AUS AMY BUD ) ( AUS AMY TRI ) ( ITA AMY VIE ) ( RUS FLT SEV )",
    "SCO ( AUS BUD TRI ) ( ITA VIE ) ( RUS SEV )",
    ["( AUS AMY BUD ) SUP ( AUS AMY TRI ) MTO VIE", "( AUS AMY TRI ) MTO VIE"],
)
PHASES = [
    initial_position(M),
    load_position(SUMMER.now, SUMMER.sco),
    load_position(
        "NOW ( WIN 1901 ) ( RUS FLT SEV ) ( GER AMY KIE ) ( GER AMY BER ) ( GER AMY MUN )",
        "SCO ( RUS STP MOS WAR SEV ) ( GER BER KIE )",
    ),
]


@settings(max_examples=examples(400), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(range(len(PHASES))), st.lists(st.tuples(st.sampled_from(POWERS), order),
                                                    max_size=12))  # fmt: skip
def test_any_order_gets_a_note_and_never_an_exception(
    phase: int, submissions: list[tuple[str, Order]]
) -> None:
    pos = PHASES[phase]
    book = OrderBook(pos)
    for power, submitted in submissions:
        assert book.submit(power, submitted) in NOTES
    # what was accepted can be adjudicated
    adjudicate_phase(pos, [o for _, o in submissions])
