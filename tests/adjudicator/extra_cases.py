"""Cases beyond DATC 6.A-6.I: retreats, adjustments, civil disorder, supply-centre
ownership, a solo, and a few order-handling conventions, in the row format of
``datc_format.py``.

Every expectation is what Parlance 1.4.1 (default options) does; where that is a
Parlance bug rather than a choice, the row says what a correct judge does and
the Parlance test lists it in ``PARLANCE_DEVIATIONS``.

Parlance's civil-disorder removal rule (``Power.farthest_units``): a power that
orders too few removals loses its units farthest from its *home* centres
(distance counted in province steps over land and sea alike, whatever the unit
type), fleets before armies on equal distance, then alphabetically by province.
This is the pre-2023 rule (DATC 4.D.8); the 2023 rules count distance to
*owned* centres (DATC 6.J.6, 6.J.10, 6.J.11 differ for that reason).  Missing
builds are waived (ORD ``(P WVE) SUC``).  Centre ownership changes only when
the game enters winter, i.e. after the fall retreats.
"""

from __future__ import annotations

from tests.adjudicator.datc_format import Case, Step

FRANCE_17 = (
    "(AUS BUD TRI VIE) (FRA BEL BER BRE EDI HOL KIE LON LVP MAR MUN NAP PAR POR ROM "
    "SPA TUN VEN) (RUS MOS SEV STP WAR) (TUR ANK CON SMY) (UNO BUL DEN GRE NWY RUM "
    "SER SWE)"
)
FRANCE_18 = (
    "(AUS BUD TRI VIE) (FRA BEL BER BRE EDI HOL KIE LON LVP MAR MUN NAP NWY "
    "PAR POR ROM SPA TUN VEN) (RUS MOS SEV STP WAR) (TUR ANK CON SMY) "
    "(UNO BUL DEN GRE RUM SER SWE)"
)

EXTRA_CASES: tuple[Case, ...] = (
    # ------------------------------------------------------------------
    # Retreats
    # ------------------------------------------------------------------
    Case(
        id="X.RET.1",
        title="Two units retreating to the same province are both disbanded",
        units=(
            "ENG FLT ECH", "FRA FLT BRE", "FRA FLT MAO", "GER FLT NTH", "RUS FLT NWG",
            "RUS FLT NWY",
        ),
        steps=(
            Step(
                orders=(
                    "(ENG FLT ECH) HLD",
                    "(FRA FLT BRE) MTO ECH",
                    "(FRA FLT MAO) SUP (FRA FLT BRE) MTO ECH",
                    "(GER FLT NTH) HLD",
                    "(RUS FLT NWG) MTO NTH",
                    "(RUS FLT NWY) SUP (RUS FLT NWG) MTO NTH",
                ),
                results={"ENG FLT ECH": "RET", "GER FLT NTH": "RET"},
                units_after=(
                    "ENG FLT ECH MRT (BEL IRI LON PIC WAL)", "FRA FLT ECH", "FRA FLT MAO",
                    "GER FLT NTH MRT (BEL DEN EDI HEL HOL LON SKA YOR)", "RUS FLT NTH",
                    "RUS FLT NWY",
                ),
            ),
            Step(
                orders=("(ENG FLT ECH) RTO BEL", "(GER FLT NTH) RTO BEL"),
                results={"ENG FLT ECH": "BNC", "GER FLT NTH": "BNC"},
                units_after=("FRA FLT ECH", "FRA FLT MAO", "RUS FLT NTH", "RUS FLT NWY"),
            ),
        ),
    ),
    Case(
        id="X.RET.2",
        title="No retreat to the province the attacker came from",
        units=("FRA AMY BUR", "GER AMY MUN", "GER AMY RUH"),
        steps=(
            Step(
                orders=(
                    "(FRA AMY BUR) HLD",
                    "(GER AMY MUN) MTO BUR",
                    "(GER AMY RUH) SUP (GER AMY MUN) MTO BUR",
                ),
                results={"FRA AMY BUR": "RET", "GER AMY MUN": "SUC", "GER AMY RUH": "SUC"},
                units_after=("FRA AMY BUR MRT (BEL GAS MAR PAR PIC)", "GER AMY BUR", "GER AMY RUH"),
            ),
            Step(
                orders=("(FRA AMY BUR) RTO MUN",),
                rejected={"(FRA AMY BUR) RTO MUN": "NVR"},
                results={"FRA AMY BUR": "SUC"},
                units_after=("GER AMY BUR", "GER AMY RUH"),
            ),
        ),
        note="The refused retreat leaves the unit without an order: it is disbanded (DSB SUC).",
    ),
    Case(
        id="X.RET.3",
        title="No retreat to a province left empty by a standoff",
        units=(
            "GER AMY MUN", "GER AMY RUH", "FRA AMY BUR", "FRA AMY BEL", "FRA AMY HOL",
            "ITA AMY TYR",
        ),
        steps=(
            Step(
                orders=(
                    "(GER AMY MUN) MTO BOH",
                    "(GER AMY RUH) HLD",
                    "(FRA AMY BUR) MTO MUN",
                    "(FRA AMY BEL) MTO RUH",
                    "(FRA AMY HOL) SUP (FRA AMY BEL) MTO RUH",
                    "(ITA AMY TYR) MTO MUN",
                ),
                results={
                    "GER AMY MUN": "SUC",
                    "GER AMY RUH": "RET",
                    "FRA AMY BUR": "BNC",
                    "FRA AMY BEL": "SUC",
                    "FRA AMY HOL": "SUC",
                    "ITA AMY TYR": "BNC",
                },
                units_after=(
                    "GER AMY BOH", "GER AMY RUH MRT (KIE)", "FRA AMY BUR", "FRA AMY RUH",
                    "FRA AMY HOL", "ITA AMY TYR",
                ),
            ),
            Step(
                orders=("(GER AMY RUH) RTO MUN",),
                rejected={"(GER AMY RUH) RTO MUN": "NVR"},
                results={"GER AMY RUH": "SUC"},
                units_after=(
                    "GER AMY BOH", "FRA AMY BUR", "FRA AMY RUH", "FRA AMY HOL", "ITA AMY TYR",
                ),
            ),
        ),
    ),
    Case(
        id="X.RET.4",
        title="A dislodged unit with no retreat is disbanded",
        units=("TUR FLT ANK", "RUS FLT BLA", "RUS AMY ARM", "RUS FLT CON"),
        steps=(
            Step(
                orders=(
                    "(RUS FLT BLA) MTO ANK",
                    "(RUS AMY ARM) SUP (RUS FLT BLA) MTO ANK",
                    "(RUS FLT CON) HLD",
                ),
                results={"TUR FLT ANK": "RET", "RUS FLT BLA": "SUC"},
                units_after=("TUR FLT ANK MRT ()", "RUS FLT ANK", "RUS AMY ARM", "RUS FLT CON"),
            ),
            Step(
                orders=(),
                results={"TUR FLT ANK": "SUC"},
                units_after=("RUS FLT ANK", "RUS AMY ARM", "RUS FLT CON"),
            ),
        ),
        note=(
            "Parlance still holds a retreat phase for a unit with no retreat; the unordered "
            "unit is disbanded (ORD (TUR FLT ANK) DSB SUC). The unordered Turkish fleet "
            "held in the movement phase (SUC, then RET)."
        ),
    ),
    Case(
        id="X.RET.5",
        title="Retreat to a named coast of a split-coast province",
        units=("FRA FLT MAO", "ENG FLT NAO", "ENG FLT IRI"),
        steps=(
            Step(
                orders=(
                    "(FRA FLT MAO) HLD",
                    "(ENG FLT NAO) MTO MAO",
                    "(ENG FLT IRI) SUP (ENG FLT NAO) MTO MAO",
                ),
                results={"FRA FLT MAO": "RET", "ENG FLT NAO": "SUC", "ENG FLT IRI": "SUC"},
                units_after=(
                    "FRA FLT MAO MRT (BRE ECH GAS NAF POR (SPA NCS) (SPA SCS) WES)",
                    "ENG FLT MAO", "ENG FLT IRI",
                ),
            ),
            Step(
                orders=("(FRA FLT MAO) RTO (SPA SCS)",),
                results={"FRA FLT MAO": "SUC"},
                units_after=("FRA FLT (SPA SCS)", "ENG FLT MAO", "ENG FLT IRI"),
            ),
        ),
    ),
    Case(
        id="X.RET.6",
        title="Retreat to a split-coast province without a coast when both are reachable",
        units=("FRA FLT MAO", "ENG FLT NAO", "ENG FLT IRI"),
        steps=(
            Step(
                orders=(
                    "(FRA FLT MAO) HLD",
                    "(ENG FLT NAO) MTO MAO",
                    "(ENG FLT IRI) SUP (ENG FLT NAO) MTO MAO",
                ),
                results={"FRA FLT MAO": "RET"},
                units_after=(
                    "FRA FLT MAO MRT (BRE ECH GAS NAF POR (SPA NCS) (SPA SCS) WES)",
                    "ENG FLT MAO", "ENG FLT IRI",
                ),
            ),
            Step(
                orders=("(FRA FLT MAO) RTO SPA",),
                rejected={"(FRA FLT MAO) RTO SPA": "NVR"},
                results={"FRA FLT MAO": "SUC"},
                units_after=("ENG FLT MAO", "ENG FLT IRI"),
            ),
        ),
        note=(
            "As for moves (4.B.1 a) the coast is required; the retreat is refused and the fleet "
            "disbanded."
        ),
    ),
    Case(
        id="X.RET.7",
        title="Retreat to a split-coast province without a coast when one is reachable",
        units=("FRA FLT GAS", "ENG FLT BRE", "ENG FLT MAO"),
        steps=(
            Step(
                orders=(
                    "(FRA FLT GAS) HLD",
                    "(ENG FLT BRE) MTO GAS",
                    "(ENG FLT MAO) SUP (ENG FLT BRE) MTO GAS",
                ),
                results={"FRA FLT GAS": "RET", "ENG FLT BRE": "SUC", "ENG FLT MAO": "SUC"},
                units_after=("FRA FLT GAS MRT ((SPA NCS))", "ENG FLT GAS", "ENG FLT MAO"),
            ),
            Step(
                orders=("(FRA FLT GAS) RTO SPA",),
                results={"FRA FLT GAS": "SUC"},
                units_after=("FRA FLT (SPA NCS)", "ENG FLT GAS", "ENG FLT MAO"),
            ),
        ),
        note="As for moves (4.B.2 a) the only reachable coast is used.",
    ),
    Case(
        id="X.RET.8",
        title="A dislodged unit ordered to disband",
        units=("FRA FLT MAO", "ENG FLT NAO", "ENG FLT IRI"),
        steps=(
            Step(
                orders=(
                    "(FRA FLT MAO) HLD",
                    "(ENG FLT NAO) MTO MAO",
                    "(ENG FLT IRI) SUP (ENG FLT NAO) MTO MAO",
                ),
                results={"FRA FLT MAO": "RET"},
            ),
            Step(
                orders=("(FRA FLT MAO) DSB",),
                results={"FRA FLT MAO": "SUC"},
                units_after=("ENG FLT MAO", "ENG FLT IRI"),
            ),
        ),
    ),
    Case(
        id="X.RET.9",
        title="The later of two retreat orders for one unit is used",
        units=("FRA FLT MAO", "ENG FLT NAO", "ENG FLT IRI"),
        steps=(
            Step(
                orders=(
                    "(FRA FLT MAO) HLD",
                    "(ENG FLT NAO) MTO MAO",
                    "(ENG FLT IRI) SUP (ENG FLT NAO) MTO MAO",
                ),
                results={"FRA FLT MAO": "RET"},
            ),
            Step(
                orders=("(FRA FLT MAO) RTO BRE", "(FRA FLT MAO) RTO GAS"),
                results={"FRA FLT MAO": "SUC"},
                units_after=("FRA FLT GAS", "ENG FLT MAO", "ENG FLT IRI"),
            ),
        ),
        note=(
            "4.D.3: the DATC prefers c (conflicting orders: the unit holds); Parlance, like "
            "DAIDE, uses b (the last order given to a unit replaces the earlier ones)."
        ),
    ),
    # ------------------------------------------------------------------
    # Adjustments
    # ------------------------------------------------------------------
    Case(
        id="X.ADJ.1",
        title="Builds in owned, unoccupied home centres, a fleet on a named coast",
        turn="WIN 1901",
        centres=(
            "(RUS MOS RUM SEV STP SWE WAR) (UNO ANK BEL BER BRE BUD BUL CON DEN EDI GRE HOL "
            "KIE LON LVP MAR MUN NAP NWY PAR POR ROM SER SMY SPA TRI TUN VEN VIE)"
        ),
        units=("RUS FLT SEV", "RUS AMY WAR", "RUS AMY RUM", "RUS AMY SWE"),
        steps=(
            Step(
                orders=("(RUS FLT (STP NCS)) BLD", "(RUS AMY MOS) BLD"),
                results={"(RUS FLT (STP NCS)) BLD": "SUC", "(RUS AMY MOS) BLD": "SUC"},
                units_after=(
                    "RUS FLT SEV", "RUS AMY WAR", "RUS AMY RUM", "RUS AMY SWE",
                    "RUS FLT (STP NCS)", "RUS AMY MOS",
                ),
                centres_after=(
                    "(RUS MOS RUM SEV STP SWE WAR) (UNO ANK BEL BER BRE BUD BUL CON DEN EDI GRE "
                    "HOL KIE LON LVP MAR MUN NAP NWY PAR POR ROM SER SMY SPA TRI TUN VEN VIE)"
                ),
            ),
        ),
    ),
    Case(
        id="X.ADJ.2",
        title="Refused builds: not a centre, not owned, not a home centre, no such place",
        turn="WIN 1901",
        centres=(
            "(RUS MOS RUM SEV STP WAR) (UNO ANK BEL BER BRE BUD BUL CON DEN EDI GRE HOL "
            "KIE LON LVP MAR MUN NAP NWY PAR POR ROM SER SMY SPA SWE TRI TUN VEN VIE)"
        ),
        units=("RUS FLT SEV", "RUS AMY WAR", "RUS FLT (STP SCS)", "RUS AMY GAL"),
        steps=(
            Step(
                orders=(
                    "(RUS AMY UKR) BLD",
                    "(RUS AMY SWE) BLD",
                    "(RUS AMY RUM) BLD",
                    "(RUS FLT MOS) BLD",
                    "(RUS AMY BLA) BLD",
                    "(RUS AMY MOS) BLD",
                ),
                rejected={
                    "(RUS AMY UKR) BLD": "NSC",
                    "(RUS AMY SWE) BLD": "YSC",
                    "(RUS AMY RUM) BLD": "HSC",
                    "(RUS FLT MOS) BLD": "CST",
                    "(RUS AMY BLA) BLD": "CST",
                },
                results={"(RUS AMY MOS) BLD": "SUC"},
                units_after=(
                    "RUS FLT SEV", "RUS AMY WAR", "RUS FLT (STP SCS)", "RUS AMY GAL", "RUS AMY MOS",
                ),
            ),
        ),
    ),
    Case(
        id="X.ADJ.3",
        title="A waive uses up a build; a further build is refused",
        turn="WIN 1901",
        centres=(
            "(ENG EDI LON LVP NWY) (UNO ANK BEL BER BRE BUD BUL CON DEN GRE HOL KIE MAR MOS "
            "MUN NAP PAR POR ROM RUM SER SEV SMY SPA STP SWE TRI TUN VEN VIE WAR)"
        ),
        units=("ENG FLT NWY", "ENG FLT NTH", "ENG AMY YOR"),
        steps=(
            Step(
                orders=("ENG WVE", "(ENG FLT LON) BLD"),
                rejected={"(ENG FLT LON) BLD": "NMB"},
                results={"ENG WVE": "SUC"},
                units_after=("ENG FLT NWY", "ENG FLT NTH", "ENG AMY YOR"),
            ),
        ),
    ),
    Case(
        id="X.ADJ.4",
        title="Adjustments that are not due are refused",
        turn="WIN 1901",
        centres=(
            "(ENG EDI LON LVP) (GER BER DEN KIE MUN) (UNO ANK BEL BRE BUD BUL CON GRE HOL "
            "MAR MOS NAP NWY PAR POR ROM RUM SER SEV SMY SPA STP SWE TRI TUN VEN VIE WAR)"
        ),
        units=(
            "ENG FLT NTH", "ENG AMY YOR", "ENG FLT EDI", "GER FLT DEN", "GER AMY MUN",
            "GER AMY BER",
        ),
        steps=(
            Step(
                orders=(
                    "(ENG FLT LON) BLD",
                    "ENG WVE",
                    "(ENG FLT NTH) REM",
                    "(GER FLT KIE) BLD",
                ),
                rejected={
                    "(ENG FLT LON) BLD": "NMB",
                    "ENG WVE": "NMB",
                    "(ENG FLT NTH) REM": "NMR",
                },
                results={"(GER FLT KIE) BLD": "SUC"},
                units_after=(
                    "ENG FLT NTH", "ENG AMY YOR", "ENG FLT EDI",
                    "GER FLT DEN", "GER AMY MUN", "GER AMY BER", "GER FLT KIE",
                ),
            ),
        ),
        note="England has as many units as centres; Germany's build makes the phase happen.",
    ),
    Case(
        id="X.ADJ.5",
        title="Too many removal orders: the first legal ones are used",
        turn="WIN 1901",
        centres=(
            "(FRA BRE PAR) (UNO ANK BEL BER BUD BUL CON DEN EDI GRE HOL KIE LON LVP MAR MOS "
            "MUN NAP NWY POR ROM RUM SER SEV SMY SPA STP SWE TRI TUN VEN VIE WAR)"
        ),
        units=("FRA AMY PAR", "FRA AMY PIC", "FRA FLT BRE"),
        steps=(
            Step(
                orders=("(FRA FLT GOL) REM", "(FRA AMY PIC) REM", "(FRA AMY PAR) REM"),
                rejected={"(FRA FLT GOL) REM": "NSU", "(FRA AMY PAR) REM": "NMR"},
                results={"(FRA AMY PIC) REM": "SUC"},
                units_after=("FRA AMY PAR", "FRA FLT BRE"),
            ),
        ),
        note="DATC 6.J.1 and 4.D.6 b (DATC preference, Parlance).",
    ),
    Case(
        id="X.ADJ.6",
        title="Missing builds are waived",
        turn="WIN 1901",
        centres=(
            "(ENG EDI LON LVP NWY SWE) (UNO ANK BEL BER BRE BUD BUL CON DEN GRE HOL KIE MAR "
            "MOS MUN NAP PAR POR ROM RUM SER SEV SMY SPA STP TRI TUN VEN VIE WAR)"
        ),
        units=("ENG FLT NWY", "ENG AMY SWE", "ENG FLT NTH"),
        steps=(
            Step(
                orders=(),
                results={"ENG WVE": "SUC"},
                units_after=("ENG FLT NWY", "ENG AMY SWE", "ENG FLT NTH"),
            ),
        ),
        note="England has two builds and orders none: the server reports two (ENG WVE) SUC.",
    ),
    # ------------------------------------------------------------------
    # Civil disorder removals (Parlance: distance to home centres)
    # ------------------------------------------------------------------
    Case(
        id="X.CD.1",
        title="Civil disorder: the unit farther from home is removed",
        turn="WIN 1901",
        centres=(
            "(RUS STP) (UNO ANK BEL BER BRE BUD BUL CON DEN EDI GRE HOL KIE LON LVP MAR MOS "
            "MUN NAP NWY PAR POR ROM RUM SER SEV SMY SPA SWE TRI TUN VEN VIE WAR)"
        ),
        units=("RUS AMY LVN", "RUS AMY SWE"),
        steps=(
            Step(
                orders=(),
                results={"(RUS AMY SWE) REM": "SUC"},
                units_after=("RUS AMY LVN",),
            ),
        ),
        note="DATC 6.J.3: Livonia is 1 from home, Sweden 2.",
    ),
    Case(
        id="X.CD.2",
        title="Civil disorder: equal distance, alphabetical order",
        turn="WIN 1901",
        centres=(
            "(RUS MOS) (UNO ANK BEL BER BRE BUD BUL CON DEN EDI GRE HOL KIE LON LVP MAR MUN "
            "NAP NWY PAR POR ROM RUM SER SEV SMY SPA STP SWE TRI TUN VEN VIE WAR)"
        ),
        units=("RUS AMY LVN", "RUS AMY UKR"),
        steps=(
            Step(
                orders=(),
                results={"(RUS AMY LVN) REM": "SUC"},
                units_after=("RUS AMY UKR",),
            ),
        ),
        note="DATC 6.J.4: both are 1 from home; Livonia comes first alphabetically.",
    ),
    Case(
        id="X.CD.3",
        title="Civil disorder: fleets before armies at equal distance",
        turn="WIN 1901",
        centres=(
            "(RUS STP WAR) (UNO ANK BEL BER BRE BUD BUL CON DEN EDI GRE HOL KIE LON LVP MAR "
            "MOS MUN NAP NWY PAR POR ROM RUM SER SEV SMY SPA SWE TRI TUN VEN VIE)"
        ),
        units=("RUS AMY BOH", "RUS FLT SKA", "RUS FLT NTH"),
        steps=(
            Step(
                orders=(),
                results={"(RUS FLT NTH) REM": "SUC"},
                units_after=("RUS AMY BOH", "RUS FLT SKA"),
            ),
        ),
        note=(
            "DATC 6.J.7: all three are 2 from home; a fleet goes first, North Sea before "
            "Skagerrak."
        ),
    ),
    Case(
        id="X.CD.4",
        title="Civil disorder: an army farther than a fleet is removed",
        turn="WIN 1901",
        centres=(
            "(RUS WAR) (UNO ANK BEL BER BRE BUD BUL CON DEN EDI GRE HOL KIE LON LVP MAR MOS "
            "MUN NAP NWY PAR POR ROM RUM SER SEV SMY SPA STP SWE TRI TUN VEN VIE)"
        ),
        units=("RUS AMY TYR", "RUS FLT BAL"),
        steps=(
            Step(
                orders=(),
                results={"(RUS AMY TYR) REM": "SUC"},
                units_after=("RUS FLT BAL",),
            ),
        ),
        note="DATC 6.J.8: Tyrolia is 3 from home, the Baltic Sea 2.",
    ),
    Case(
        id="X.CD.5",
        title="Civil disorder: distance to home centres, not owned ones",
        turn="WIN 1901",
        centres=(
            "(ITA WAR) (UNO ANK BEL BER BRE BUD BUL CON DEN EDI GRE HOL KIE LON LVP MAR MOS "
            "MUN NAP NWY PAR POR ROM RUM SER SEV SMY SPA STP SWE TRI TUN VEN VIE)"
        ),
        units=("ITA AMY WAR", "ITA AMY TUS"),
        steps=(
            Step(
                orders=(),
                results={"(ITA AMY WAR) REM": "SUC"},
                units_after=("ITA AMY TUS",),
            ),
        ),
        note=(
            "DATC 6.J.11 expects Tuscany removed (2023 rules: distance to owned centres); "
            "Parlance measures distance to home centres (4.D.8, older rulebooks), so the "
            "army in Warsaw goes."
        ),
    ),
    Case(
        id="X.CD.6",
        title="Civil disorder: an army's distance is counted across the sea",
        turn="WIN 1901",
        centres=(
            "(ITA NAP) (UNO ANK BEL BER BRE BUD BUL CON DEN EDI GRE HOL KIE LON LVP MAR MOS "
            "MUN NWY PAR POR ROM RUM SER SEV SMY SPA STP SWE TRI TUN VEN VIE WAR)"
        ),
        units=("ITA AMY SYR", "ITA AMY UKR"),
        steps=(
            Step(
                orders=(),
                results={"(ITA AMY UKR) REM": "SUC"},
                units_after=("ITA AMY SYR",),
            ),
        ),
        note=(
            "Syria is 3 from Naples across the sea (6 over land), Ukraine 4 from Venice: "
            "Ukraine goes (compare DATC 6.J.10)."
        ),
    ),
    Case(
        id="X.CD.7",
        title="Civil disorder completes a partial set of removals",
        turn="WIN 1901",
        centres=(
            "(FRA PAR) (UNO ANK BEL BER BRE BUD BUL CON DEN EDI GRE HOL KIE LON LVP MAR MOS "
            "MUN NAP NWY POR ROM RUM SER SEV SMY SPA STP SWE TRI TUN VEN VIE WAR)"
        ),
        units=("FRA AMY PAR", "FRA AMY PIC", "FRA FLT MAO"),
        steps=(
            Step(
                orders=("(FRA AMY PIC) REM",),
                results={"(FRA AMY PIC) REM": "SUC", "(FRA FLT MAO) REM": "SUC"},
                units_after=("FRA AMY PAR",),
            ),
        ),
    ),
    Case(
        id="X.CD.8",
        title="Removing the same unit twice",
        turn="WIN 1901",
        centres=(
            "(FRA PAR) (UNO ANK BEL BER BRE BUD BUL CON DEN EDI GRE HOL KIE LON LVP MAR MOS "
            "MUN NAP NWY POR ROM RUM SER SEV SMY SPA STP SWE TRI TUN VEN VIE WAR)"
        ),
        units=("FRA AMY PAR", "FRA AMY PIC", "FRA AMY BUR"),
        steps=(
            Step(
                orders=("(FRA AMY PAR) REM", "(FRA AMY PAR) REM"),
                results={"(FRA AMY BUR) REM": "SUC"},
                units_after=("FRA AMY PIC",),
            ),
        ),
        note=(
            "DATC 6.J.2. Parlance accepts both orders (MBV); the first removes Paris (SUC), "
            "the second reports ORD ... REM (NSU) and the missing removal is made by civil "
            "disorder: Burgundy (1 from Paris, before Picardy alphabetically). The two ORD "
            "lines share one order text, so only the civil-disorder one is checked."
        ),
    ),
    # ------------------------------------------------------------------
    # Supply-centre ownership
    # ------------------------------------------------------------------
    Case(
        id="X.SC.1",
        title="A retreat in autumn captures a supply centre",
        turn="FAL 1901",
        centres=(
            "(ENG EDI LON LVP) (GER BER KIE MUN) (UNO ANK BEL BRE BUD BUL CON DEN GRE HOL MAR "
            "MOS NAP NWY PAR POR ROM RUM SER SEV SMY SPA STP SWE TRI TUN VEN VIE WAR)"
        ),
        units=("ENG FLT NTH", "ENG AMY LVP", "GER FLT HEL", "GER FLT DEN"),
        steps=(
            Step(
                orders=(
                    "(ENG FLT NTH) HLD",
                    "(ENG AMY LVP) HLD",
                    "(GER FLT HEL) MTO NTH",
                    "(GER FLT DEN) SUP (GER FLT HEL) MTO NTH",
                ),
                results={"ENG FLT NTH": "RET", "GER FLT HEL": "SUC", "GER FLT DEN": "SUC"},
                units_after=(
                    "ENG FLT NTH MRT (BEL ECH EDI HOL LON NWG NWY SKA YOR)", "ENG AMY LVP",
                    "GER FLT NTH", "GER FLT DEN",
                ),
                centres_after=(
                    "(ENG EDI LON LVP) (GER BER KIE MUN) (UNO ANK BEL BRE BUD BUL CON DEN GRE "
                    "HOL MAR MOS NAP NWY PAR POR ROM RUM SER SEV SMY SPA STP SWE TRI TUN VEN "
                    "VIE WAR)"
                ),
            ),
            Step(
                orders=("(ENG FLT NTH) RTO HOL",),
                results={"ENG FLT NTH": "SUC"},
                units_after=("ENG FLT HOL", "ENG AMY LVP", "GER FLT NTH", "GER FLT DEN"),
                centres_after=(
                    "(ENG EDI HOL LON LVP) (GER BER DEN KIE MUN) (UNO ANK BEL BRE BUD BUL CON "
                    "GRE MAR MOS NAP NWY PAR POR ROM RUM SER SEV SMY SPA STP SWE TRI TUN VEN "
                    "VIE WAR)"
                ),
            ),
            Step(
                orders=(
                    "(ENG FLT LON) BLD",
                    "ENG WVE",
                    "(GER AMY BER) BLD",
                    "(GER FLT KIE) BLD",
                    "(GER AMY MUN) BLD",
                ),
                rejected={"(GER AMY MUN) BLD": "NMB"},
                results={
                    "(ENG FLT LON) BLD": "SUC",
                    "ENG WVE": "SUC",
                    "(GER AMY BER) BLD": "SUC",
                    "(GER FLT KIE) BLD": "SUC",
                },
                units_after=(
                    "ENG FLT HOL", "ENG AMY LVP", "ENG FLT LON",
                    "GER FLT NTH", "GER FLT DEN", "GER AMY BER", "GER FLT KIE",
                ),
            ),
        ),
        note=(
            "Ownership is updated on entering winter, after the autumn retreats: England "
            "takes Holland by retreating there, Germany takes Denmark (occupied all year)."
        ),
    ),
    Case(
        id="X.SC.2",
        title="Only the position after the fall turn counts for centres",
        centres=(
            "(GER BER KIE MUN) (UNO ANK BEL BRE BUD BUL CON DEN EDI GRE HOL LON LVP MAR MOS "
            "NAP NWY PAR POR ROM RUM SER SEV SMY SPA STP SWE TRI TUN VEN VIE WAR)"
        ),
        units=("GER AMY KIE", "GER AMY BER", "GER AMY MUN"),
        steps=(
            Step(
                orders=("(GER AMY KIE) MTO HOL",),
                results={"GER AMY KIE": "SUC", "GER AMY BER": "SUC", "GER AMY MUN": "SUC"},
                units_after=("GER AMY HOL", "GER AMY BER", "GER AMY MUN"),
                centres_after=(
                    "(GER BER KIE MUN) (UNO ANK BEL BRE BUD BUL CON DEN EDI GRE HOL LON LVP "
                    "MAR MOS NAP NWY PAR POR ROM RUM SER SEV SMY SPA STP SWE TRI TUN VEN VIE "
                    "WAR)"
                ),
            ),
            Step(
                orders=("(GER AMY HOL) MTO BEL", "(GER AMY MUN) MTO BUR"),
                results={"GER AMY HOL": "SUC", "GER AMY MUN": "SUC"},
                units_after=("GER AMY BEL", "GER AMY BER", "GER AMY BUR"),
                centres_after=(
                    "(GER BEL BER KIE MUN) (UNO ANK BRE BUD BUL CON DEN EDI GRE HOL LON LVP "
                    "MAR MOS NAP NWY PAR POR ROM RUM SER SEV SMY SPA STP SWE TRI TUN VEN VIE "
                    "WAR)"
                ),
            ),
            Step(
                orders=("(GER FLT KIE) BLD",),
                results={"(GER FLT KIE) BLD": "SUC"},
                units_after=("GER AMY BEL", "GER AMY BER", "GER AMY BUR", "GER FLT KIE"),
            ),
        ),
        note=(
            "Holland, held only in spring, stays neutral; Belgium, held after the fall "
            "turn, becomes German; Kiel and Munich, left empty, stay German."
        ),
    ),
    Case(
        id="X.SC.3",
        title="A power without centres loses all its units",
        turn="FAL 1901",
        centres=(
            "(AUS TRI) (ITA NAP ROM VEN) (UNO ANK BEL BER BRE BUD BUL CON DEN EDI GRE HOL KIE "
            "LON LVP MAR MOS MUN NWY PAR POR RUM SER SEV SMY SPA STP SWE TUN VIE WAR)"
        ),
        units=("AUS AMY TRI", "AUS AMY GAL", "ITA AMY VEN", "ITA AMY TYR"),
        steps=(
            Step(
                orders=(
                    "(AUS AMY TRI) HLD",
                    "(AUS AMY GAL) HLD",
                    "(ITA AMY VEN) MTO TRI",
                    "(ITA AMY TYR) SUP (ITA AMY VEN) MTO TRI",
                ),
                results={"AUS AMY TRI": "RET", "ITA AMY VEN": "SUC"},
                units_after=(
                    "AUS AMY TRI MRT (ALB BUD SER VIE)", "AUS AMY GAL", "ITA AMY TRI",
                    "ITA AMY TYR",
                ),
            ),
            Step(
                orders=("(AUS AMY TRI) RTO ALB",),
                results={"AUS AMY TRI": "SUC"},
                units_after=("AUS AMY ALB", "AUS AMY GAL", "ITA AMY TRI", "ITA AMY TYR"),
                centres_after=(
                    "(ITA NAP ROM TRI VEN) (UNO ANK BEL BER BRE BUD BUL CON DEN EDI GRE HOL KIE "
                    "LON LVP MAR MOS MUN NWY PAR POR RUM SER SEV SMY SPA STP SWE TUN VIE WAR)"
                ),
            ),
            Step(
                orders=("(ITA AMY VEN) BLD", "(ITA FLT NAP) BLD"),
                results={
                    "(AUS AMY ALB) REM": "SUC",
                    "(AUS AMY GAL) REM": "SUC",
                    "(ITA AMY VEN) BLD": "SUC",
                    "(ITA FLT NAP) BLD": "SUC",
                },
                units_after=("ITA AMY TRI", "ITA AMY TYR", "ITA AMY VEN", "ITA FLT NAP"),
            ),
        ),
    ),
    Case(
        id="X.SOLO.1",
        title="Taking an 18th centre in the fall wins the game",
        turn="FAL 1901",
        centres=FRANCE_17,
        units=("FRA FLT NTH", "FRA AMY PAR"),
        steps=(
            Step(
                orders=("(FRA FLT NTH) MTO NWY",),
                results={"FRA FLT NTH": "SUC", "FRA AMY PAR": "SUC"},
                units_after=("FRA FLT NWY", "FRA AMY PAR"),
                centres_after=FRANCE_18,
                slo="SLO ( FRA )",
            ),
        ),
        note=(
            "France has 17 centres and takes Norway: on entering winter Parlance sends "
            "SCO with 18 French centres, then SLO (FRA), and the game ends in that winter "
            "(its last NOW is WIN 1901)."
        ),
    ),
    Case(
        id="X.SOLO.2",
        title="Retreating into an 18th centre in the autumn wins the game",
        turn="AUT 1901",
        centres=FRANCE_17,
        units=("ENG FLT NTH", "FRA FLT NTH MRT (NWY EDI)", "FRA AMY PAR"),
        steps=(
            Step(
                orders=("(FRA FLT NTH) RTO NWY",),
                results={"FRA FLT NTH": "SUC"},
                units_after=("ENG FLT NTH", "FRA FLT NWY", "FRA AMY PAR"),
                centres_after=FRANCE_18,
                slo="SLO ( FRA )",
            ),
        ),
    ),
    Case(
        id="X.SOLO.3",
        title="Holding 18 centres without gaining one this year is no solo",
        turn="FAL 1901",
        centres=FRANCE_18,
        units=("FRA FLT NWY", "FRA AMY PAR", "RUS AMY UKR"),
        steps=(
            Step(
                orders=("(FRA FLT NWY) HLD", "(FRA AMY PAR) HLD", "(RUS AMY UKR) MTO RUM"),
                results={"FRA FLT NWY": "SUC", "FRA AMY PAR": "SUC", "RUS AMY UKR": "SUC"},
                units_after=("FRA FLT NWY", "FRA AMY PAR", "RUS AMY RUM"),
            ),
        ),
        note=(
            "Parlance declares a solo only for the strict leader among the powers that "
            "gained centres this year; France holds 18 but gained none (Russia did), so "
            "the game goes on to winter."
        ),
    ),
    # ------------------------------------------------------------------
    # Order handling
    # ------------------------------------------------------------------
    Case(
        id="X.ORD.1",
        title="The later of two valid orders to one unit is used",
        units=("ENG FLT NTH",),
        steps=(
            Step(
                orders=("(ENG FLT NTH) MTO NWG", "(ENG FLT NTH) MTO HEL"),
                results={"ENG FLT NTH": "SUC"},
                units_after=("ENG FLT HEL",),
            ),
        ),
        note=(
            "4.D.3: the DATC prefers c (conflicting orders: the unit holds); Parlance, like "
            "DAIDE, uses b (the last order is used)."
        ),
    ),
    Case(
        id="X.ORD.2",
        title="A refused order does not replace a valid earlier one",
        units=("ENG FLT NTH",),
        steps=(
            Step(
                orders=("(ENG FLT NTH) MTO NWG", "(ENG FLT NTH) MTO PIC"),
                rejected={"(ENG FLT NTH) MTO PIC": "FAR"},
                results={"ENG FLT NTH": "SUC"},
                units_after=("ENG FLT NWG",),
            ),
        ),
    ),
    Case(
        id="X.ORD.3",
        title="An unordered unit holds and can receive hold support",
        units=("AUS AMY VIE", "RUS AMY GAL", "ITA AMY TYR", "ITA AMY BOH"),
        steps=(
            Step(
                orders=(
                    "(RUS AMY GAL) SUP (AUS AMY VIE)",
                    "(ITA AMY TYR) MTO VIE",
                    "(ITA AMY BOH) SUP (ITA AMY TYR) MTO VIE",
                ),
                results={
                    "AUS AMY VIE": "SUC",
                    "RUS AMY GAL": "SUC",
                    "ITA AMY TYR": "BNC",
                    "ITA AMY BOH": "SUC",
                },
                units_after=("AUS AMY VIE", "RUS AMY GAL", "ITA AMY TYR", "ITA AMY BOH"),
            ),
        ),
        note="4.D.9 b (DATC preference, Parlance): a unit in civil disorder can be supported.",
    ),
    Case(
        id="X.ORD.4",
        title="Support for the move of a unit that has no order",
        units=("ENG FLT NTH", "ENG AMY YOR", "GER FLT HEL"),
        steps=(
            Step(
                orders=("(ENG FLT NTH) SUP (ENG AMY YOR) MTO EDI",),
                results={"ENG FLT NTH": "NSO", "ENG AMY YOR": "SUC", "GER FLT HEL": "SUC"},
                units_after=("ENG FLT NTH", "ENG AMY YOR", "GER FLT HEL"),
            ),
        ),
        note=(
            "The supported army holds, so the support is unmatched (NSO). Parlance's judge "
            "raises instead (see PARLANCE_DEVIATIONS)."
        ),
    ),
    Case(
        id="X.ORD.6",
        title="A convoy path through a sea without a fleet is refused",
        units=("ENG AMY LON", "ENG FLT ECH"),
        steps=(
            Step(
                orders=(
                    "(ENG AMY LON) CTO BEL VIA (NTH)",
                    "(ENG FLT ECH) CVY (ENG AMY LON) CTO BEL",
                ),
                rejected={"(ENG AMY LON) CTO BEL VIA (NTH)": "NSF"},
                results={"ENG AMY LON": "SUC", "ENG FLT ECH": "NSO"},
                units_after=("ENG AMY LON", "ENG FLT ECH"),
            ),
        ),
        note="The army's refused order leaves it holding; the convoy is then unmatched.",
    ),
    Case(
        id="X.ORD.5",
        title="Orders for another phase are refused",
        units=("ENG FLT NTH",),
        steps=(
            Step(
                orders=(
                    "(ENG FLT NTH) RTO NWG",
                    "(ENG FLT NTH) DSB",
                    "(ENG FLT LON) BLD",
                    "ENG WVE",
                    "(ENG FLT NTH) REM",
                ),
                rejected={
                    "(ENG FLT NTH) RTO NWG": "NRS",
                    "(ENG FLT NTH) DSB": "NRS",
                    "(ENG FLT LON) BLD": "NRS",
                    "ENG WVE": "NRS",
                    "(ENG FLT NTH) REM": "NRS",
                },
                results={"ENG FLT NTH": "SUC"},
                units_after=("ENG FLT NTH",),
            ),
        ),
    ),
)
