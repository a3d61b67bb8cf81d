"""The DATC (Diplomacy Adjudicator Test Cases, Lucas B. Kruijswijk, v3.0 of 2024-02-23),
sections 6.A to 6.I, as a table of plain DAIDE text (see ``datc_format.py``).

One row per DATC case, in document order, with the DATC id and title.  Orders
are the DATC's orders spelled as a DAIDE client sends them.  Expectations are
what Parlance 1.4.1 (the reference DAIDE server, default DATC options) reports:
where the DATC offers options, the row follows Parlance's choice and its
``note`` says so; where Parlance is simply wrong w.r.t. the DATC, the row would
keep the DATC's answer and the Parlance test would list the row in
``PARLANCE_DEVIATIONS`` (no DATC row needs that: every one agrees with Parlance).

Spelling conventions used throughout:

* A DATC move needing a convoy (``A London - Holland``) is
  ``(ENG AMY LON) CTO HOL VIA (NTH)``; when several routes matter (6.F.9-13,
  6.F.19, 6.F.20) the path is left out, ``(ENG AMY LON) CTO BEL`` (Parlance's
  option 4.A.6 b: a path may be given but is not required).
* A DATC move to an adjacent province that may go by convoy (6.G) is a plain
  ``MTO``; Parlance divines the intent (4.A.3 d: convoyed only if a fleet of the
  army's own power is ordered to convoy it).  ``via convoy`` is ``CTO ... VIA``.
* ``Hold`` orders the DATC lists are sent as ``HLD``; units the DATC gives no
  order stay unordered.
* Supports name only the province, as DAIDE's syntax has it (Parlance's 4.B.4 d
  lets such a support match a move to either coast); the one exception is
  6.B.9, whose point is a support naming the wrong coast (Parlance accepts a
  coast there as an extension of the syntax).

ORD conventions (Parlance's): a holding or unordered unit, or one whose order
was refused, gets ``SUC`` (``RET`` if dislodged); a move ``SUC``/``BNC``, a
convoyed move whose convoy was disrupted ``DSR``, one without a convoy ``NSO``;
a support ``SUC``/``CUT`` (also when dislodged), ``NSO`` if not matched; a
convoying fleet on the route the army used gets the army's result, otherwise
``NSO``; dislodged units add ``RET``.  In retreats: ``SUC``, ``BNC`` (both
disbanded), a disband or an unordered dislodged unit ``SUC`` (disbanded).
"""

from __future__ import annotations

from tests.adjudicator.datc_format import Case, Step

CASES: tuple[Case, ...] = (
    # ------------------------------------------------------------------
    # 6.A. BASIC CHECKS
    # ------------------------------------------------------------------
    Case(
        id="6.A.1",
        title="MOVING TO AN AREA THAT IS NOT A NEIGHBOUR",
        units=("ENG FLT NTH",),
        steps=(
            Step(
                orders=("(ENG FLT NTH) MTO PIC",),
                rejected={"(ENG FLT NTH) MTO PIC": "FAR"},
                results={"ENG FLT NTH": "SUC"},
                units_after=("ENG FLT NTH",),
            ),
        ),
    ),
    Case(
        id="6.A.2",
        title="MOVE ARMY TO SEA",
        units=("ENG AMY LVP",),
        steps=(
            Step(
                orders=("(ENG AMY LVP) MTO IRI",),
                rejected={"(ENG AMY LVP) MTO IRI": "FAR"},
                results={"ENG AMY LVP": "SUC"},
                units_after=("ENG AMY LVP",),
            ),
        ),
    ),
    Case(
        id="6.A.3",
        title="MOVE FLEET TO LAND",
        units=("GER FLT KIE",),
        steps=(
            Step(
                orders=("(GER FLT KIE) MTO MUN",),
                rejected={"(GER FLT KIE) MTO MUN": "FAR"},
                results={"GER FLT KIE": "SUC"},
                units_after=("GER FLT KIE",),
            ),
        ),
    ),
    Case(
        id="6.A.4",
        title="MOVE TO OWN SECTOR",
        units=("GER FLT KIE",),
        steps=(
            Step(
                orders=("(GER FLT KIE) MTO KIE",),
                rejected={"(GER FLT KIE) MTO KIE": "FAR"},
                results={"GER FLT KIE": "SUC"},
                units_after=("GER FLT KIE",),
            ),
        ),
    ),
    Case(
        id="6.A.5",
        title="MOVE TO OWN SECTOR WITH CONVOY",
        units=("ENG FLT NTH", "ENG AMY YOR", "ENG AMY LVP", "GER FLT LON", "GER AMY WAL"),
        steps=(
            Step(
                orders=(
                    "(ENG FLT NTH) CVY (ENG AMY YOR) CTO YOR",
                    "(ENG AMY YOR) CTO YOR VIA (NTH)",
                    "(ENG AMY LVP) SUP (ENG AMY YOR) MTO YOR",
                    "(GER FLT LON) MTO YOR",
                    "(GER AMY WAL) SUP (GER FLT LON) MTO YOR",
                ),
                rejected={
                    "(ENG FLT NTH) CVY (ENG AMY YOR) CTO YOR": "FAR",
                    "(ENG AMY YOR) CTO YOR VIA (NTH)": "FAR",
                    "(ENG AMY LVP) SUP (ENG AMY YOR) MTO YOR": "FAR",
                },
                results={
                    "ENG FLT NTH": "SUC",
                    "ENG AMY YOR": "RET",
                    "ENG AMY LVP": "SUC",
                    "GER FLT LON": "SUC",
                    "GER AMY WAL": "SUC",
                },
                units_after=(
                    "ENG FLT NTH",
                    "ENG AMY YOR MRT (EDI)",
                    "ENG AMY LVP",
                    "GER FLT YOR",
                    "GER AMY WAL",
                ),
            ),
        ),
    ),
    Case(
        id="6.A.6",
        title="ORDERING A UNIT OF ANOTHER COUNTRY",
        units=("ENG FLT LON",),
        steps=(
            Step(
                orders=("(GER FLT LON) MTO NTH",),
                rejected={"(GER FLT LON) MTO NTH": "NSU"},
                results={"ENG FLT LON": "SUC"},
                units_after=("ENG FLT LON",),
            ),
        ),
        note=(
            "The format submits each order as the power its text names, so Germany's "
            "order for London is spelled (GER FLT LON): Germany has no fleet there, NSU. "
            "(Had Germany sent (ENG FLT LON) MTO NTH, Parlance would answer NYU; the "
            "format cannot say who submits an order.)"
        ),
    ),
    Case(
        id="6.A.7",
        title="ONLY ARMIES CAN BE CONVOYED",
        units=("ENG FLT LON", "ENG FLT NTH"),
        steps=(
            Step(
                orders=(
                    "(ENG FLT LON) MTO BEL",
                    "(ENG FLT NTH) CVY (ENG AMY LON) CTO BEL",
                ),
                rejected={
                    "(ENG FLT LON) MTO BEL": "FAR",
                    "(ENG FLT NTH) CVY (ENG AMY LON) CTO BEL": "NSA",
                },
                results={"ENG FLT LON": "SUC", "ENG FLT NTH": "SUC"},
                units_after=("ENG FLT LON", "ENG FLT NTH"),
            ),
        ),
    ),
    Case(
        id="6.A.8",
        title="SUPPORT TO HOLD YOURSELF IS NOT POSSIBLE",
        units=("ITA AMY VEN", "ITA AMY TYR", "AUS FLT TRI"),
        steps=(
            Step(
                orders=(
                    "(ITA AMY VEN) MTO TRI",
                    "(ITA AMY TYR) SUP (ITA AMY VEN) MTO TRI",
                    "(AUS FLT TRI) SUP (AUS FLT TRI)",
                ),
                rejected={"(AUS FLT TRI) SUP (AUS FLT TRI)": "FAR"},
                results={"ITA AMY VEN": "SUC", "ITA AMY TYR": "SUC", "AUS FLT TRI": "RET"},
                units_after=("ITA AMY TRI", "ITA AMY TYR", "AUS FLT TRI MRT (ADR ALB)"),
            ),
        ),
    ),
    Case(
        id="6.A.9",
        title="FLEETS MUST FOLLOW COAST IF NOT ON SEA",
        units=("ITA FLT ROM",),
        steps=(
            Step(
                orders=("(ITA FLT ROM) MTO VEN",),
                rejected={"(ITA FLT ROM) MTO VEN": "FAR"},
                results={"ITA FLT ROM": "SUC"},
                units_after=("ITA FLT ROM",),
            ),
        ),
    ),
    Case(
        id="6.A.10",
        title="SUPPORT ON UNREACHABLE DESTINATION NOT POSSIBLE",
        units=("AUS AMY VEN", "ITA FLT ROM", "ITA AMY APU"),
        steps=(
            Step(
                orders=(
                    "(AUS AMY VEN) HLD",
                    "(ITA FLT ROM) SUP (ITA AMY APU) MTO VEN",
                    "(ITA AMY APU) MTO VEN",
                ),
                rejected={"(ITA FLT ROM) SUP (ITA AMY APU) MTO VEN": "FAR"},
                results={"AUS AMY VEN": "SUC", "ITA FLT ROM": "SUC", "ITA AMY APU": "BNC"},
                units_after=("AUS AMY VEN", "ITA FLT ROM", "ITA AMY APU"),
            ),
        ),
    ),
    Case(
        id="6.A.11",
        title="SIMPLE BOUNCE",
        units=("AUS AMY VIE", "ITA AMY VEN"),
        steps=(
            Step(
                orders=("(AUS AMY VIE) MTO TYR", "(ITA AMY VEN) MTO TYR"),
                results={"AUS AMY VIE": "BNC", "ITA AMY VEN": "BNC"},
                units_after=("AUS AMY VIE", "ITA AMY VEN"),
            ),
        ),
    ),
    Case(
        id="6.A.12",
        title="BOUNCE OF THREE UNITS",
        units=("AUS AMY VIE", "GER AMY MUN", "ITA AMY VEN"),
        steps=(
            Step(
                orders=(
                    "(AUS AMY VIE) MTO TYR",
                    "(GER AMY MUN) MTO TYR",
                    "(ITA AMY VEN) MTO TYR",
                ),
                results={"AUS AMY VIE": "BNC", "GER AMY MUN": "BNC", "ITA AMY VEN": "BNC"},
                units_after=("AUS AMY VIE", "GER AMY MUN", "ITA AMY VEN"),
            ),
        ),
    ),
    # ------------------------------------------------------------------
    # 6.B. COASTAL ISSUES
    # ------------------------------------------------------------------
    Case(
        id="6.B.1",
        title="MOVING WITH UNSPECIFIED COAST WHEN COAST IS NECESSARY",
        units=("FRA FLT POR",),
        steps=(
            Step(
                orders=("(FRA FLT POR) MTO SPA",),
                rejected={"(FRA FLT POR) MTO SPA": "CST"},
                results={"FRA FLT POR": "SUC"},
                units_after=("FRA FLT POR",),
            ),
        ),
        note="4.B.1 a (DATC and Parlance): the move fails; Parlance refuses it with CST.",
    ),
    Case(
        id="6.B.2",
        title="MOVING WITH UNSPECIFIED COAST WHEN COAST IS NOT NECESSARY",
        units=("FRA FLT GAS",),
        steps=(
            Step(
                orders=("(FRA FLT GAS) MTO SPA",),
                results={"FRA FLT GAS": "SUC"},
                units_after=("FRA FLT (SPA NCS)",),
            ),
        ),
        note="4.B.2 a (DATC preference, Parlance default): moves to the only reachable coast.",
    ),
    Case(
        id="6.B.3",
        title="MOVING WITH WRONG COAST WHEN COAST IS NOT NECESSARY",
        units=("FRA FLT GAS",),
        steps=(
            Step(
                orders=("(FRA FLT GAS) MTO (SPA SCS)",),
                rejected={"(FRA FLT GAS) MTO (SPA SCS)": "FAR"},
                results={"FRA FLT GAS": "SUC"},
                units_after=("FRA FLT GAS",),
            ),
        ),
        note="4.B.3 b (DATC and Parlance): the order is illegal and the fleet holds.",
    ),
    Case(
        id="6.B.4",
        title="SUPPORT TO UNREACHABLE COAST ALLOWED",
        units=("FRA FLT GAS", "FRA FLT MAR", "ITA FLT WES"),
        steps=(
            Step(
                orders=(
                    "(FRA FLT GAS) MTO (SPA NCS)",
                    "(FRA FLT MAR) SUP (FRA FLT GAS) MTO SPA",
                    "(ITA FLT WES) MTO (SPA SCS)",
                ),
                results={"FRA FLT GAS": "SUC", "FRA FLT MAR": "SUC", "ITA FLT WES": "BNC"},
                units_after=("FRA FLT (SPA NCS)", "FRA FLT MAR", "ITA FLT WES"),
            ),
        ),
        note=(
            "DAIDE supports name the province only; with 4.B.4 d (DATC preference, "
            "Parlance default) it matches the move to the north coast."
        ),
    ),
    Case(
        id="6.B.5",
        title="SUPPORT FROM UNREACHABLE COAST NOT ALLOWED",
        units=("FRA FLT MAR", "FRA FLT (SPA NCS)", "ITA FLT GOL"),
        steps=(
            Step(
                orders=(
                    "(FRA FLT MAR) MTO GOL",
                    "(FRA FLT (SPA NCS)) SUP (FRA FLT MAR) MTO GOL",
                    "(ITA FLT GOL) HLD",
                ),
                rejected={"(FRA FLT (SPA NCS)) SUP (FRA FLT MAR) MTO GOL": "FAR"},
                results={"FRA FLT MAR": "BNC", "FRA FLT (SPA NCS)": "SUC", "ITA FLT GOL": "SUC"},
                units_after=("FRA FLT MAR", "FRA FLT (SPA NCS)", "ITA FLT GOL"),
            ),
        ),
    ),
    Case(
        id="6.B.6",
        title="SUPPORT CAN BE CUT WITH OTHER COAST",
        units=("ENG FLT IRI", "ENG FLT NAO", "FRA FLT (SPA NCS)", "FRA FLT MAO", "ITA FLT GOL"),
        steps=(
            Step(
                orders=(
                    "(ENG FLT IRI) SUP (ENG FLT NAO) MTO MAO",
                    "(ENG FLT NAO) MTO MAO",
                    "(FRA FLT (SPA NCS)) SUP (FRA FLT MAO)",
                    "(FRA FLT MAO) HLD",
                    "(ITA FLT GOL) MTO (SPA SCS)",
                ),
                results={
                    "ENG FLT IRI": "SUC",
                    "ENG FLT NAO": "SUC",
                    "FRA FLT (SPA NCS)": "CUT",
                    "FRA FLT MAO": "RET",
                    "ITA FLT GOL": "BNC",
                },
                units_after=(
                    "ENG FLT IRI",
                    "ENG FLT MAO",
                    "FRA FLT (SPA NCS)",
                    "FRA FLT MAO MRT (BRE ECH GAS NAF POR WES)",
                    "ITA FLT GOL",
                ),
            ),
        ),
    ),
    Case(
        id="6.B.7",
        title="SUPPORTING OWN UNIT WITH UNSPECIFIED COAST",
        units=("FRA FLT POR", "FRA FLT MAO", "ITA FLT GOL", "ITA FLT WES"),
        steps=(
            Step(
                orders=(
                    "(FRA FLT POR) SUP (FRA FLT MAO) MTO SPA",
                    "(FRA FLT MAO) MTO (SPA NCS)",
                    "(ITA FLT GOL) SUP (ITA FLT WES) MTO SPA",
                    "(ITA FLT WES) MTO (SPA SCS)",
                ),
                results={
                    "FRA FLT POR": "SUC",
                    "FRA FLT MAO": "BNC",
                    "ITA FLT GOL": "SUC",
                    "ITA FLT WES": "BNC",
                },
                units_after=("FRA FLT POR", "FRA FLT MAO", "ITA FLT GOL", "ITA FLT WES"),
            ),
        ),
        note=(
            "4.B.4 d (DATC preference, Parlance default): a support without coast matches "
            "a move to either coast, so the support succeeds and both fleets bounce."
        ),
    ),
    Case(
        id="6.B.8",
        title="SUPPORTING WITH UNSPECIFIED COAST WHEN ONLY ONE COAST IS POSSIBLE",
        units=("FRA FLT POR", "FRA FLT GAS", "ITA FLT GOL", "ITA FLT WES"),
        steps=(
            Step(
                orders=(
                    "(FRA FLT POR) SUP (FRA FLT GAS) MTO SPA",
                    "(FRA FLT GAS) MTO (SPA NCS)",
                    "(ITA FLT GOL) SUP (ITA FLT WES) MTO SPA",
                    "(ITA FLT WES) MTO (SPA SCS)",
                ),
                results={
                    "FRA FLT POR": "SUC",
                    "FRA FLT GAS": "BNC",
                    "ITA FLT GOL": "SUC",
                    "ITA FLT WES": "BNC",
                },
                units_after=("FRA FLT POR", "FRA FLT GAS", "ITA FLT GOL", "ITA FLT WES"),
            ),
        ),
        note="4.B.4 d: the coastless support is followed; both fleets bounce.",
    ),
    Case(
        id="6.B.9",
        title="SUPPORTING WITH WRONG COAST",
        units=("FRA FLT POR", "FRA FLT MAO", "ITA FLT GOL", "ITA FLT WES"),
        steps=(
            Step(
                orders=(
                    "(FRA FLT POR) SUP (FRA FLT MAO) MTO (SPA NCS)",
                    "(FRA FLT MAO) MTO (SPA SCS)",
                    "(ITA FLT GOL) SUP (ITA FLT WES) MTO SPA",
                    "(ITA FLT WES) MTO (SPA SCS)",
                ),
                results={
                    "FRA FLT POR": "NSO",
                    "FRA FLT MAO": "BNC",
                    "ITA FLT GOL": "SUC",
                    "ITA FLT WES": "SUC",
                },
                units_after=("FRA FLT POR", "FRA FLT MAO", "ITA FLT GOL", "ITA FLT (SPA SCS)"),
            ),
        ),
        note=(
            "4.B.4 d: a support naming a coast must match the move's coast; it does not "
            "(NSO). DAIDE's syntax has no coast in a support (so DAIDE itself is 4.B.4 e); "
            "Parlance accepts one, and this case needs it."
        ),
    ),
    Case(
        id="6.B.10",
        title="UNIT ORDERED WITH WRONG COAST",
        units=("FRA FLT (SPA SCS)",),
        steps=(
            Step(
                orders=("(FRA FLT (SPA NCS)) MTO GOL",),
                rejected={"(FRA FLT (SPA NCS)) MTO GOL": "NSU"},
                results={"FRA FLT (SPA SCS)": "SUC"},
                units_after=("FRA FLT (SPA SCS)",),
            ),
        ),
        note=(
            "4.B.5: the DATC prefers b (coast of the ordered unit ignored, the move is "
            "tried); Parlance uses a (the order names no existing unit: NSU, the fleet holds)."
        ),
    ),
    Case(
        id="6.B.11",
        title="COAST CANNOT BE ORDERED TO CHANGE",
        units=("FRA FLT (SPA NCS)",),
        steps=(
            Step(
                orders=("(FRA FLT (SPA SCS)) MTO GOL",),
                rejected={"(FRA FLT (SPA SCS)) MTO GOL": "NSU"},
                results={"FRA FLT (SPA NCS)": "SUC"},
                units_after=("FRA FLT (SPA NCS)",),
            ),
        ),
        note="The move fails; Parlance (4.B.5 a) refuses the order with NSU.",
    ),
    Case(
        id="6.B.12",
        title="ARMY MOVEMENT WITH COASTAL SPECIFICATION",
        units=("FRA AMY GAS",),
        steps=(
            Step(
                orders=("(FRA AMY GAS) MTO (SPA NCS)",),
                results={"FRA AMY GAS": "SUC"},
                units_after=("FRA AMY SPA",),
            ),
        ),
        note="4.B.6 b (DATC preference, Parlance default): the coast is ignored for an army.",
    ),
    Case(
        id="6.B.13",
        title="COASTAL CRAWL NOT ALLOWED",
        units=("TUR FLT (BUL SCS)", "TUR FLT CON"),
        steps=(
            Step(
                orders=("(TUR FLT (BUL SCS)) MTO CON", "(TUR FLT CON) MTO (BUL ECS)"),
                results={"TUR FLT (BUL SCS)": "BNC", "TUR FLT CON": "BNC"},
                units_after=("TUR FLT (BUL SCS)", "TUR FLT CON"),
            ),
        ),
    ),
    Case(
        id="6.B.14",
        title="BUILDING WITH UNSPECIFIED COAST",
        turn="WIN 1901",
        centres=(
            "(RUS MOS RUM SEV STP WAR) (UNO ANK BEL BER BRE BUD BUL CON DEN EDI GRE HOL "
            "KIE LON LVP MAR MUN NAP NWY PAR POR ROM SER SMY SPA SWE TRI TUN VEN VIE)"
        ),
        units=("RUS AMY MOS", "RUS AMY WAR", "RUS FLT SEV", "RUS FLT RUM"),
        steps=(
            Step(
                orders=("(RUS FLT STP) BLD",),
                rejected={"(RUS FLT STP) BLD": "CST"},
                results={"RUS WVE": "SUC"},
                units_after=("RUS AMY MOS", "RUS AMY WAR", "RUS FLT SEV", "RUS FLT RUM"),
            ),
        ),
        note=(
            "4.B.7 a: the build fails (CST); Russia's unused build is waived by the "
            "server (ORD RUS WVE SUC)."
        ),
    ),
    Case(
        id="6.B.15",
        title="SUPPORTING FOREIGN UNIT WITH UNSPECIFIED COAST",
        units=("FRA FLT POR", "ENG FLT MAO", "ITA FLT GOL", "ITA FLT WES"),
        steps=(
            Step(
                orders=(
                    "(FRA FLT POR) SUP (ENG FLT MAO) MTO SPA",
                    "(ENG FLT MAO) MTO (SPA NCS)",
                    "(ITA FLT GOL) SUP (ITA FLT WES) MTO SPA",
                    "(ITA FLT WES) MTO (SPA SCS)",
                ),
                results={
                    "FRA FLT POR": "SUC",
                    "ENG FLT MAO": "BNC",
                    "ITA FLT GOL": "SUC",
                    "ITA FLT WES": "BNC",
                },
                units_after=("FRA FLT POR", "ENG FLT MAO", "ITA FLT GOL", "ITA FLT WES"),
            ),
        ),
        note="4.B.4 d (DATC preference, Parlance default): the support succeeds; both bounce.",
    ),
    # ------------------------------------------------------------------
    # 6.C. CIRCULAR MOVEMENT
    # ------------------------------------------------------------------
    Case(
        id="6.C.1",
        title="THREE ARMY CIRCULAR MOVEMENT",
        units=("TUR FLT ANK", "TUR AMY CON", "TUR AMY SMY"),
        steps=(
            Step(
                orders=(
                    "(TUR FLT ANK) MTO CON",
                    "(TUR AMY CON) MTO SMY",
                    "(TUR AMY SMY) MTO ANK",
                ),
                results={"TUR FLT ANK": "SUC", "TUR AMY CON": "SUC", "TUR AMY SMY": "SUC"},
                units_after=("TUR FLT CON", "TUR AMY SMY", "TUR AMY ANK"),
            ),
        ),
    ),
    Case(
        id="6.C.2",
        title="THREE ARMY CIRCULAR MOVEMENT WITH SUPPORT",
        units=("TUR FLT ANK", "TUR AMY CON", "TUR AMY SMY", "TUR AMY BUL"),
        steps=(
            Step(
                orders=(
                    "(TUR FLT ANK) MTO CON",
                    "(TUR AMY CON) MTO SMY",
                    "(TUR AMY SMY) MTO ANK",
                    "(TUR AMY BUL) SUP (TUR FLT ANK) MTO CON",
                ),
                results={
                    "TUR FLT ANK": "SUC",
                    "TUR AMY CON": "SUC",
                    "TUR AMY SMY": "SUC",
                    "TUR AMY BUL": "SUC",
                },
                units_after=("TUR FLT CON", "TUR AMY SMY", "TUR AMY ANK", "TUR AMY BUL"),
            ),
        ),
    ),
    Case(
        id="6.C.3",
        title="A DISRUPTED THREE ARMY CIRCULAR MOVEMENT",
        units=("TUR FLT ANK", "TUR AMY CON", "TUR AMY SMY", "TUR AMY BUL"),
        steps=(
            Step(
                orders=(
                    "(TUR FLT ANK) MTO CON",
                    "(TUR AMY CON) MTO SMY",
                    "(TUR AMY SMY) MTO ANK",
                    "(TUR AMY BUL) MTO CON",
                ),
                results={
                    "TUR FLT ANK": "BNC",
                    "TUR AMY CON": "BNC",
                    "TUR AMY SMY": "BNC",
                    "TUR AMY BUL": "BNC",
                },
                units_after=("TUR FLT ANK", "TUR AMY CON", "TUR AMY SMY", "TUR AMY BUL"),
            ),
        ),
    ),
    Case(
        id="6.C.4",
        title="A CIRCULAR MOVEMENT WITH ATTACKED CONVOY",
        units=(
            "AUS AMY TRI", "AUS AMY SER",
            "TUR AMY BUL", "TUR FLT AEG", "TUR FLT ION", "TUR FLT ADR",
            "ITA FLT NAP",
        ),
        steps=(
            Step(
                orders=(
                    "(AUS AMY TRI) MTO SER",
                    "(AUS AMY SER) MTO BUL",
                    "(TUR AMY BUL) CTO TRI VIA (AEG ION ADR)",
                    "(TUR FLT AEG) CVY (TUR AMY BUL) CTO TRI",
                    "(TUR FLT ION) CVY (TUR AMY BUL) CTO TRI",
                    "(TUR FLT ADR) CVY (TUR AMY BUL) CTO TRI",
                    "(ITA FLT NAP) MTO ION",
                ),
                results={
                    "AUS AMY TRI": "SUC",
                    "AUS AMY SER": "SUC",
                    "TUR AMY BUL": "SUC",
                    "TUR FLT AEG": "SUC",
                    "TUR FLT ION": "SUC",
                    "TUR FLT ADR": "SUC",
                    "ITA FLT NAP": "BNC",
                },
                units_after=(
                    "AUS AMY SER", "AUS AMY BUL",
                    "TUR AMY TRI", "TUR FLT AEG", "TUR FLT ION", "TUR FLT ADR",
                    "ITA FLT NAP",
                ),
            ),
        ),
    ),
    Case(
        id="6.C.5",
        title="A DISRUPTED CIRCULAR MOVEMENT DUE TO DISLODGED CONVOY",
        units=(
            "AUS AMY TRI", "AUS AMY SER",
            "TUR AMY BUL", "TUR FLT AEG", "TUR FLT ION", "TUR FLT ADR",
            "ITA FLT NAP", "ITA FLT TUN",
        ),
        steps=(
            Step(
                orders=(
                    "(AUS AMY TRI) MTO SER",
                    "(AUS AMY SER) MTO BUL",
                    "(TUR AMY BUL) CTO TRI VIA (AEG ION ADR)",
                    "(TUR FLT AEG) CVY (TUR AMY BUL) CTO TRI",
                    "(TUR FLT ION) CVY (TUR AMY BUL) CTO TRI",
                    "(TUR FLT ADR) CVY (TUR AMY BUL) CTO TRI",
                    "(ITA FLT NAP) MTO ION",
                    "(ITA FLT TUN) SUP (ITA FLT NAP) MTO ION",
                ),
                results={
                    "AUS AMY TRI": "BNC",
                    "AUS AMY SER": "BNC",
                    "TUR AMY BUL": "DSR",
                    "TUR FLT AEG": "DSR",
                    "TUR FLT ION": "DSR RET",
                    "TUR FLT ADR": "DSR",
                    "ITA FLT NAP": "SUC",
                    "ITA FLT TUN": "SUC",
                },
                units_after=(
                    "AUS AMY TRI", "AUS AMY SER",
                    "TUR AMY BUL", "TUR FLT AEG", "TUR FLT ION MRT (ALB APU EAS GRE TYS)",
                    "TUR FLT ADR",
                    "ITA FLT ION", "ITA FLT TUN",
                ),
            ),
        ),
    ),
    Case(
        id="6.C.6",
        title="TWO ARMIES WITH TWO CONVOYS",
        units=("ENG FLT NTH", "ENG AMY LON", "FRA FLT ECH", "FRA AMY BEL"),
        steps=(
            Step(
                orders=(
                    "(ENG FLT NTH) CVY (ENG AMY LON) CTO BEL",
                    "(ENG AMY LON) CTO BEL VIA (NTH)",
                    "(FRA FLT ECH) CVY (FRA AMY BEL) CTO LON",
                    "(FRA AMY BEL) CTO LON VIA (ECH)",
                ),
                results={
                    "ENG FLT NTH": "SUC",
                    "ENG AMY LON": "SUC",
                    "FRA FLT ECH": "SUC",
                    "FRA AMY BEL": "SUC",
                },
                units_after=("ENG FLT NTH", "ENG AMY BEL", "FRA FLT ECH", "FRA AMY LON"),
            ),
        ),
    ),
    Case(
        id="6.C.7",
        title="DISRUPTED UNIT SWAP",
        units=("ENG FLT NTH", "ENG AMY LON", "FRA FLT ECH", "FRA AMY BEL", "FRA AMY BUR"),
        steps=(
            Step(
                orders=(
                    "(ENG FLT NTH) CVY (ENG AMY LON) CTO BEL",
                    "(ENG AMY LON) CTO BEL VIA (NTH)",
                    "(FRA FLT ECH) CVY (FRA AMY BEL) CTO LON",
                    "(FRA AMY BEL) CTO LON VIA (ECH)",
                    "(FRA AMY BUR) MTO BEL",
                ),
                results={
                    "ENG FLT NTH": "BNC",
                    "ENG AMY LON": "BNC",
                    "FRA FLT ECH": "BNC",
                    "FRA AMY BEL": "BNC",
                    "FRA AMY BUR": "BNC",
                },
                units_after=(
                    "ENG FLT NTH", "ENG AMY LON", "FRA FLT ECH", "FRA AMY BEL", "FRA AMY BUR",
                ),
            ),
        ),
    ),
    Case(
        id="6.C.8",
        title="NO SELF DISLODGEMENT IN DISRUPTED CIRCULAR MOVEMENT",
        units=("TUR FLT CON", "TUR AMY BUL", "TUR AMY SMY", "RUS FLT BLA", "AUS AMY SER"),
        steps=(
            Step(
                orders=(
                    "(TUR FLT CON) MTO BLA",
                    "(TUR AMY BUL) MTO CON",
                    "(TUR AMY SMY) SUP (TUR AMY BUL) MTO CON",
                    "(RUS FLT BLA) MTO (BUL ECS)",
                    "(AUS AMY SER) MTO BUL",
                ),
                results={
                    "TUR FLT CON": "BNC",
                    "TUR AMY BUL": "BNC",
                    "TUR AMY SMY": "SUC",
                    "RUS FLT BLA": "BNC",
                    "AUS AMY SER": "BNC",
                },
                units_after=(
                    "TUR FLT CON", "TUR AMY BUL", "TUR AMY SMY", "RUS FLT BLA", "AUS AMY SER",
                ),
            ),
        ),
    ),
    Case(
        id="6.C.9",
        title="NO HELP IN DISLODGEMENT OF OWN UNIT IN DISRUPTED CIRCULAR MOVEMENT",
        units=("TUR FLT CON", "TUR AMY SMY", "RUS FLT BLA", "AUS AMY SER", "AUS AMY BUL"),
        steps=(
            Step(
                orders=(
                    "(TUR FLT CON) MTO BLA",
                    "(TUR AMY SMY) SUP (AUS AMY BUL) MTO CON",
                    "(RUS FLT BLA) MTO (BUL ECS)",
                    "(AUS AMY SER) MTO BUL",
                    "(AUS AMY BUL) MTO CON",
                ),
                results={
                    "TUR FLT CON": "BNC",
                    "TUR AMY SMY": "SUC",
                    "RUS FLT BLA": "BNC",
                    "AUS AMY SER": "BNC",
                    "AUS AMY BUL": "BNC",
                },
                units_after=(
                    "TUR FLT CON", "TUR AMY SMY", "RUS FLT BLA", "AUS AMY SER", "AUS AMY BUL",
                ),
            ),
        ),
    ),
    # ------------------------------------------------------------------
    # 6.D. SUPPORTS AND DISLODGES
    # ------------------------------------------------------------------
    Case(
        id="6.D.1",
        title="SUPPORTED HOLD CAN PREVENT DISLODGEMENT",
        units=("AUS FLT ADR", "AUS AMY TRI", "ITA AMY VEN", "ITA AMY TYR"),
        steps=(
            Step(
                orders=(
                    "(AUS FLT ADR) SUP (AUS AMY TRI) MTO VEN",
                    "(AUS AMY TRI) MTO VEN",
                    "(ITA AMY VEN) HLD",
                    "(ITA AMY TYR) SUP (ITA AMY VEN)",
                ),
                results={
                    "AUS FLT ADR": "SUC",
                    "AUS AMY TRI": "BNC",
                    "ITA AMY VEN": "SUC",
                    "ITA AMY TYR": "SUC",
                },
                units_after=("AUS FLT ADR", "AUS AMY TRI", "ITA AMY VEN", "ITA AMY TYR"),
            ),
        ),
    ),
    Case(
        id="6.D.2",
        title="A MOVE CUTS SUPPORT ON HOLD",
        units=("AUS FLT ADR", "AUS AMY TRI", "AUS AMY VIE", "ITA AMY VEN", "ITA AMY TYR"),
        steps=(
            Step(
                orders=(
                    "(AUS FLT ADR) SUP (AUS AMY TRI) MTO VEN",
                    "(AUS AMY TRI) MTO VEN",
                    "(AUS AMY VIE) MTO TYR",
                    "(ITA AMY VEN) HLD",
                    "(ITA AMY TYR) SUP (ITA AMY VEN)",
                ),
                results={
                    "AUS FLT ADR": "SUC",
                    "AUS AMY TRI": "SUC",
                    "AUS AMY VIE": "BNC",
                    "ITA AMY VEN": "RET",
                    "ITA AMY TYR": "CUT",
                },
                units_after=(
                    "AUS FLT ADR", "AUS AMY VEN", "AUS AMY VIE",
                    "ITA AMY VEN MRT (APU PIE ROM TUS)", "ITA AMY TYR",
                ),
            ),
        ),
    ),
    Case(
        id="6.D.3",
        title="A MOVE CUTS SUPPORT ON MOVE",
        units=("AUS FLT ADR", "AUS AMY TRI", "ITA AMY VEN", "ITA FLT ION"),
        steps=(
            Step(
                orders=(
                    "(AUS FLT ADR) SUP (AUS AMY TRI) MTO VEN",
                    "(AUS AMY TRI) MTO VEN",
                    "(ITA AMY VEN) HLD",
                    "(ITA FLT ION) MTO ADR",
                ),
                results={
                    "AUS FLT ADR": "CUT",
                    "AUS AMY TRI": "BNC",
                    "ITA AMY VEN": "SUC",
                    "ITA FLT ION": "BNC",
                },
                units_after=("AUS FLT ADR", "AUS AMY TRI", "ITA AMY VEN", "ITA FLT ION"),
            ),
        ),
    ),
    Case(
        id="6.D.4",
        title="SUPPORT TO HOLD ON UNIT SUPPORTING A HOLD ALLOWED",
        units=("GER AMY BER", "GER FLT KIE", "RUS FLT BAL", "RUS AMY PRU"),
        steps=(
            Step(
                orders=(
                    "(GER AMY BER) SUP (GER FLT KIE)",
                    "(GER FLT KIE) SUP (GER AMY BER)",
                    "(RUS FLT BAL) SUP (RUS AMY PRU) MTO BER",
                    "(RUS AMY PRU) MTO BER",
                ),
                results={
                    "GER AMY BER": "CUT",
                    "GER FLT KIE": "SUC",
                    "RUS FLT BAL": "SUC",
                    "RUS AMY PRU": "BNC",
                },
                units_after=("GER AMY BER", "GER FLT KIE", "RUS FLT BAL", "RUS AMY PRU"),
            ),
        ),
    ),
    Case(
        id="6.D.5",
        title="SUPPORT TO HOLD ON UNIT SUPPORTING A MOVE ALLOWED",
        units=("GER AMY BER", "GER FLT KIE", "GER AMY MUN", "RUS FLT BAL", "RUS AMY PRU"),
        steps=(
            Step(
                orders=(
                    "(GER AMY BER) SUP (GER AMY MUN) MTO SIL",
                    "(GER FLT KIE) SUP (GER AMY BER)",
                    "(GER AMY MUN) MTO SIL",
                    "(RUS FLT BAL) SUP (RUS AMY PRU) MTO BER",
                    "(RUS AMY PRU) MTO BER",
                ),
                results={
                    "GER AMY BER": "CUT",
                    "GER FLT KIE": "SUC",
                    "GER AMY MUN": "SUC",
                    "RUS FLT BAL": "SUC",
                    "RUS AMY PRU": "BNC",
                },
                units_after=(
                    "GER AMY BER", "GER FLT KIE", "GER AMY SIL", "RUS FLT BAL", "RUS AMY PRU",
                ),
            ),
        ),
    ),
    Case(
        id="6.D.6",
        title="SUPPORT TO HOLD ON CONVOYING UNIT ALLOWED",
        units=("GER AMY BER", "GER FLT BAL", "GER FLT PRU", "RUS FLT LVN", "RUS FLT GOB"),
        steps=(
            Step(
                orders=(
                    "(GER AMY BER) CTO SWE VIA (BAL)",
                    "(GER FLT BAL) CVY (GER AMY BER) CTO SWE",
                    "(GER FLT PRU) SUP (GER FLT BAL)",
                    "(RUS FLT LVN) MTO BAL",
                    "(RUS FLT GOB) SUP (RUS FLT LVN) MTO BAL",
                ),
                results={
                    "GER AMY BER": "SUC",
                    "GER FLT BAL": "SUC",
                    "GER FLT PRU": "SUC",
                    "RUS FLT LVN": "BNC",
                    "RUS FLT GOB": "SUC",
                },
                units_after=(
                    "GER AMY SWE", "GER FLT BAL", "GER FLT PRU", "RUS FLT LVN", "RUS FLT GOB",
                ),
            ),
        ),
    ),
    Case(
        id="6.D.7",
        title="SUPPORT TO HOLD ON MOVING UNIT NOT ALLOWED",
        units=("GER FLT BAL", "GER FLT PRU", "RUS FLT LVN", "RUS FLT GOB", "RUS AMY FIN"),
        steps=(
            Step(
                orders=(
                    "(GER FLT BAL) MTO SWE",
                    "(GER FLT PRU) SUP (GER FLT BAL)",
                    "(RUS FLT LVN) MTO BAL",
                    "(RUS FLT GOB) SUP (RUS FLT LVN) MTO BAL",
                    "(RUS AMY FIN) MTO SWE",
                ),
                results={
                    "GER FLT BAL": "BNC RET",
                    "GER FLT PRU": "NSO",
                    "RUS FLT LVN": "SUC",
                    "RUS FLT GOB": "SUC",
                    "RUS AMY FIN": "BNC",
                },
                units_after=(
                    "GER FLT BAL MRT (BER DEN KIE)", "GER FLT PRU",
                    "RUS FLT BAL", "RUS FLT GOB", "RUS AMY FIN",
                ),
            ),
        ),
    ),
    Case(
        id="6.D.8",
        title="FAILED CONVOY CANNOT RECEIVE HOLD SUPPORT",
        units=("AUS FLT ION", "AUS AMY SER", "AUS AMY ALB", "TUR AMY GRE", "TUR AMY BUL"),
        steps=(
            Step(
                orders=(
                    "(AUS FLT ION) HLD",
                    "(AUS AMY SER) SUP (AUS AMY ALB) MTO GRE",
                    "(AUS AMY ALB) MTO GRE",
                    "(TUR AMY GRE) CTO NAP VIA (ION)",
                    "(TUR AMY BUL) SUP (TUR AMY GRE)",
                ),
                results={
                    "AUS FLT ION": "SUC",
                    "AUS AMY SER": "SUC",
                    "AUS AMY ALB": "SUC",
                    "TUR AMY GRE": "NSO RET",
                    "TUR AMY BUL": "NSO",
                },
                units_after=(
                    "AUS FLT ION", "AUS AMY SER", "AUS AMY GRE",
                    "TUR AMY GRE MRT ()", "TUR AMY BUL",
                ),
            ),
        ),
        note=(
            "4.E.1 d: the convoy order is legal (a fleet is in the Ionian Sea), so it is "
            "not turned into a hold; the army gets NSO (no convoy) and no hold support."
        ),
    ),
    Case(
        id="6.D.9",
        title="SUPPORT TO MOVE ON HOLDING UNIT NOT ALLOWED",
        units=("ITA AMY VEN", "ITA AMY TYR", "AUS AMY ALB", "AUS AMY TRI"),
        steps=(
            Step(
                orders=(
                    "(ITA AMY VEN) MTO TRI",
                    "(ITA AMY TYR) SUP (ITA AMY VEN) MTO TRI",
                    "(AUS AMY ALB) SUP (AUS AMY TRI) MTO SER",
                    "(AUS AMY TRI) HLD",
                ),
                results={
                    "ITA AMY VEN": "SUC",
                    "ITA AMY TYR": "SUC",
                    "AUS AMY ALB": "NSO",
                    "AUS AMY TRI": "RET",
                },
                units_after=(
                    "ITA AMY TRI", "ITA AMY TYR", "AUS AMY ALB", "AUS AMY TRI MRT (BUD SER VIE)",
                ),
            ),
        ),
    ),
    Case(
        id="6.D.10",
        title="SELF DISLODGMENT PROHIBITED",
        units=("GER AMY BER", "GER FLT KIE", "GER AMY MUN"),
        steps=(
            Step(
                orders=(
                    "(GER AMY BER) HLD",
                    "(GER FLT KIE) MTO BER",
                    "(GER AMY MUN) SUP (GER FLT KIE) MTO BER",
                ),
                results={"GER AMY BER": "SUC", "GER FLT KIE": "BNC", "GER AMY MUN": "SUC"},
                units_after=("GER AMY BER", "GER FLT KIE", "GER AMY MUN"),
            ),
        ),
    ),
    Case(
        id="6.D.11",
        title="NO SELF DISLODGMENT OF RETURNING UNIT",
        units=("GER AMY BER", "GER FLT KIE", "GER AMY MUN", "RUS AMY WAR"),
        steps=(
            Step(
                orders=(
                    "(GER AMY BER) MTO PRU",
                    "(GER FLT KIE) MTO BER",
                    "(GER AMY MUN) SUP (GER FLT KIE) MTO BER",
                    "(RUS AMY WAR) MTO PRU",
                ),
                results={
                    "GER AMY BER": "BNC",
                    "GER FLT KIE": "BNC",
                    "GER AMY MUN": "SUC",
                    "RUS AMY WAR": "BNC",
                },
                units_after=("GER AMY BER", "GER FLT KIE", "GER AMY MUN", "RUS AMY WAR"),
            ),
        ),
    ),
    Case(
        id="6.D.12",
        title="SUPPORTING A FOREIGN UNIT TO DISLODGE OWN UNIT PROHIBITED",
        units=("AUS FLT TRI", "AUS AMY VIE", "ITA AMY VEN"),
        steps=(
            Step(
                orders=(
                    "(AUS FLT TRI) HLD",
                    "(AUS AMY VIE) SUP (ITA AMY VEN) MTO TRI",
                    "(ITA AMY VEN) MTO TRI",
                ),
                results={"AUS FLT TRI": "SUC", "AUS AMY VIE": "SUC", "ITA AMY VEN": "BNC"},
                units_after=("AUS FLT TRI", "AUS AMY VIE", "ITA AMY VEN"),
            ),
        ),
    ),
    Case(
        id="6.D.13",
        title="SUPPORTING A FOREIGN UNIT TO DISLODGE A RETURNING OWN UNIT PROHIBITED",
        units=("AUS FLT TRI", "AUS AMY VIE", "ITA AMY VEN", "ITA FLT APU"),
        steps=(
            Step(
                orders=(
                    "(AUS FLT TRI) MTO ADR",
                    "(AUS AMY VIE) SUP (ITA AMY VEN) MTO TRI",
                    "(ITA AMY VEN) MTO TRI",
                    "(ITA FLT APU) MTO ADR",
                ),
                results={
                    "AUS FLT TRI": "BNC",
                    "AUS AMY VIE": "SUC",
                    "ITA AMY VEN": "BNC",
                    "ITA FLT APU": "BNC",
                },
                units_after=("AUS FLT TRI", "AUS AMY VIE", "ITA AMY VEN", "ITA FLT APU"),
            ),
        ),
    ),
    Case(
        id="6.D.14",
        title="SUPPORTING A FOREIGN UNIT IS NOT ENOUGH TO PREVENT DISLODGEMENT",
        units=("AUS FLT TRI", "AUS AMY VIE", "ITA AMY VEN", "ITA AMY TYR", "ITA FLT ADR"),
        steps=(
            Step(
                orders=(
                    "(AUS FLT TRI) HLD",
                    "(AUS AMY VIE) SUP (ITA AMY VEN) MTO TRI",
                    "(ITA AMY VEN) MTO TRI",
                    "(ITA AMY TYR) SUP (ITA AMY VEN) MTO TRI",
                    "(ITA FLT ADR) SUP (ITA AMY VEN) MTO TRI",
                ),
                results={
                    "AUS FLT TRI": "RET",
                    "AUS AMY VIE": "SUC",
                    "ITA AMY VEN": "SUC",
                    "ITA AMY TYR": "SUC",
                    "ITA FLT ADR": "SUC",
                },
                units_after=(
                    "AUS FLT TRI MRT (ALB)", "AUS AMY VIE",
                    "ITA AMY TRI", "ITA AMY TYR", "ITA FLT ADR",
                ),
            ),
        ),
    ),
    Case(
        id="6.D.15",
        title="DEFENDER CANNOT CUT SUPPORT FOR ATTACK ON ITSELF",
        units=("RUS FLT CON", "RUS FLT BLA", "TUR FLT ANK"),
        steps=(
            Step(
                orders=(
                    "(RUS FLT CON) SUP (RUS FLT BLA) MTO ANK",
                    "(RUS FLT BLA) MTO ANK",
                    "(TUR FLT ANK) MTO CON",
                ),
                results={"RUS FLT CON": "SUC", "RUS FLT BLA": "SUC", "TUR FLT ANK": "BNC RET"},
                units_after=("RUS FLT CON", "RUS FLT ANK", "TUR FLT ANK MRT (ARM)"),
            ),
        ),
    ),
    Case(
        id="6.D.16",
        title="CONVOYING A UNIT DISLODGING A UNIT OF SAME POWER IS ALLOWED",
        units=("ENG AMY LON", "ENG FLT NTH", "FRA FLT ECH", "FRA AMY BEL"),
        steps=(
            Step(
                orders=(
                    "(ENG AMY LON) HLD",
                    "(ENG FLT NTH) CVY (FRA AMY BEL) CTO LON",
                    "(FRA FLT ECH) SUP (FRA AMY BEL) MTO LON",
                    "(FRA AMY BEL) CTO LON VIA (NTH)",
                ),
                results={
                    "ENG AMY LON": "RET",
                    "ENG FLT NTH": "SUC",
                    "FRA FLT ECH": "SUC",
                    "FRA AMY BEL": "SUC",
                },
                units_after=(
                    "ENG AMY LON MRT (WAL YOR)", "ENG FLT NTH", "FRA FLT ECH", "FRA AMY LON",
                ),
            ),
        ),
    ),
    Case(
        id="6.D.17",
        title="DISLODGEMENT CUTS SUPPORTS",
        units=("RUS FLT CON", "RUS FLT BLA", "TUR FLT ANK", "TUR AMY SMY", "TUR AMY ARM"),
        steps=(
            Step(
                orders=(
                    "(RUS FLT CON) SUP (RUS FLT BLA) MTO ANK",
                    "(RUS FLT BLA) MTO ANK",
                    "(TUR FLT ANK) MTO CON",
                    "(TUR AMY SMY) SUP (TUR FLT ANK) MTO CON",
                    "(TUR AMY ARM) MTO ANK",
                ),
                results={
                    "RUS FLT CON": "CUT RET",
                    "RUS FLT BLA": "BNC",
                    "TUR FLT ANK": "SUC",
                    "TUR AMY SMY": "SUC",
                    "TUR AMY ARM": "BNC",
                },
                units_after=(
                    "RUS FLT CON MRT (AEG (BUL ECS) (BUL SCS))", "RUS FLT BLA",
                    "TUR FLT CON", "TUR AMY SMY", "TUR AMY ARM",
                ),
            ),
        ),
    ),
    Case(
        id="6.D.18",
        title="A SURVIVING UNIT WILL SUSTAIN SUPPORT",
        units=(
            "RUS FLT CON", "RUS FLT BLA", "RUS AMY BUL",
            "TUR FLT ANK", "TUR AMY SMY", "TUR AMY ARM",
        ),
        steps=(
            Step(
                orders=(
                    "(RUS FLT CON) SUP (RUS FLT BLA) MTO ANK",
                    "(RUS FLT BLA) MTO ANK",
                    "(RUS AMY BUL) SUP (RUS FLT CON)",
                    "(TUR FLT ANK) MTO CON",
                    "(TUR AMY SMY) SUP (TUR FLT ANK) MTO CON",
                    "(TUR AMY ARM) MTO ANK",
                ),
                results={
                    "RUS FLT CON": "SUC",
                    "RUS FLT BLA": "SUC",
                    "RUS AMY BUL": "SUC",
                    "TUR FLT ANK": "BNC RET",
                    "TUR AMY SMY": "SUC",
                    "TUR AMY ARM": "BNC",
                },
                units_after=(
                    "RUS FLT CON", "RUS FLT ANK", "RUS AMY BUL",
                    "TUR FLT ANK MRT ()", "TUR AMY SMY", "TUR AMY ARM",
                ),
            ),
        ),
    ),
    Case(
        id="6.D.19",
        title="EVEN WHEN SURVIVING IS IN ALTERNATIVE WAY",
        units=("RUS FLT CON", "RUS FLT BLA", "RUS AMY SMY", "TUR FLT ANK"),
        steps=(
            Step(
                orders=(
                    "(RUS FLT CON) SUP (RUS FLT BLA) MTO ANK",
                    "(RUS FLT BLA) MTO ANK",
                    "(RUS AMY SMY) SUP (TUR FLT ANK) MTO CON",
                    "(TUR FLT ANK) MTO CON",
                ),
                results={
                    "RUS FLT CON": "SUC",
                    "RUS FLT BLA": "SUC",
                    "RUS AMY SMY": "SUC",
                    "TUR FLT ANK": "BNC RET",
                },
                units_after=("RUS FLT CON", "RUS FLT ANK", "RUS AMY SMY", "TUR FLT ANK MRT (ARM)"),
            ),
        ),
    ),
    Case(
        id="6.D.20",
        title="UNIT CANNOT CUT SUPPORT OF ITS OWN COUNTRY",
        units=("ENG FLT LON", "ENG FLT NTH", "ENG AMY YOR", "FRA FLT ECH"),
        steps=(
            Step(
                orders=(
                    "(ENG FLT LON) SUP (ENG FLT NTH) MTO ECH",
                    "(ENG FLT NTH) MTO ECH",
                    "(ENG AMY YOR) MTO LON",
                    "(FRA FLT ECH) HLD",
                ),
                results={
                    "ENG FLT LON": "SUC",
                    "ENG FLT NTH": "SUC",
                    "ENG AMY YOR": "BNC",
                    "FRA FLT ECH": "RET",
                },
                units_after=(
                    "ENG FLT LON", "ENG FLT ECH", "ENG AMY YOR",
                    "FRA FLT ECH MRT (BEL BRE IRI MAO PIC WAL)",
                ),
            ),
        ),
    ),
    Case(
        id="6.D.21",
        title="DISLODGING DOES NOT CANCEL A SUPPORT CUT",
        units=(
            "AUS FLT TRI", "ITA AMY VEN", "ITA AMY TYR", "GER AMY MUN",
            "RUS AMY SIL", "RUS AMY BER",
        ),
        steps=(
            Step(
                orders=(
                    "(AUS FLT TRI) HLD",
                    "(ITA AMY VEN) MTO TRI",
                    "(ITA AMY TYR) SUP (ITA AMY VEN) MTO TRI",
                    "(GER AMY MUN) MTO TYR",
                    "(RUS AMY SIL) MTO MUN",
                    "(RUS AMY BER) SUP (RUS AMY SIL) MTO MUN",
                ),
                results={
                    "AUS FLT TRI": "SUC",
                    "ITA AMY VEN": "BNC",
                    "ITA AMY TYR": "CUT",
                    "GER AMY MUN": "BNC RET",
                    "RUS AMY SIL": "SUC",
                    "RUS AMY BER": "SUC",
                },
                units_after=(
                    "AUS FLT TRI", "ITA AMY VEN", "ITA AMY TYR",
                    "GER AMY MUN MRT (BOH BUR KIE RUH)", "RUS AMY MUN", "RUS AMY BER",
                ),
            ),
        ),
    ),
    Case(
        id="6.D.22",
        title="IMPOSSIBLE FLEET MOVE CANNOT BE SUPPORTED",
        units=("GER FLT KIE", "GER AMY BUR", "RUS AMY MUN", "RUS AMY BER"),
        steps=(
            Step(
                orders=(
                    "(GER FLT KIE) MTO MUN",
                    "(GER AMY BUR) SUP (GER FLT KIE) MTO MUN",
                    "(RUS AMY MUN) MTO KIE",
                    "(RUS AMY BER) SUP (RUS AMY MUN) MTO KIE",
                ),
                rejected={
                    "(GER FLT KIE) MTO MUN": "FAR",
                    "(GER AMY BUR) SUP (GER FLT KIE) MTO MUN": "FAR",
                },
                results={
                    "GER FLT KIE": "RET",
                    "GER AMY BUR": "SUC",
                    "RUS AMY MUN": "SUC",
                    "RUS AMY BER": "SUC",
                },
                units_after=(
                    "GER FLT KIE MRT (BAL DEN HEL HOL)", "GER AMY BUR", "RUS AMY KIE",
                    "RUS AMY BER",
                ),
            ),
        ),
    ),
    Case(
        id="6.D.23",
        title="IMPOSSIBLE COAST MOVE CANNOT BE SUPPORTED",
        units=("ITA FLT GOL", "ITA FLT WES", "FRA FLT (SPA NCS)", "FRA FLT MAR"),
        steps=(
            Step(
                orders=(
                    "(ITA FLT GOL) MTO (SPA SCS)",
                    "(ITA FLT WES) SUP (ITA FLT GOL) MTO SPA",
                    "(FRA FLT (SPA NCS)) MTO GOL",
                    "(FRA FLT MAR) SUP (FRA FLT (SPA NCS)) MTO GOL",
                ),
                rejected={
                    "(FRA FLT (SPA NCS)) MTO GOL": "FAR",
                    "(FRA FLT MAR) SUP (FRA FLT (SPA NCS)) MTO GOL": "FAR",
                },
                results={
                    "ITA FLT GOL": "SUC",
                    "ITA FLT WES": "SUC",
                    "FRA FLT (SPA NCS)": "RET",
                    "FRA FLT MAR": "SUC",
                },
                units_after=(
                    "ITA FLT (SPA SCS)", "ITA FLT WES",
                    "FRA FLT (SPA NCS) MRT (GAS MAO POR)", "FRA FLT MAR",
                ),
            ),
        ),
    ),
    Case(
        id="6.D.24",
        title="IMPOSSIBLE ARMY MOVE CANNOT BE SUPPORTED",
        units=("FRA AMY MAR", "FRA FLT (SPA SCS)", "ITA FLT GOL", "TUR FLT TYS", "TUR FLT WES"),
        steps=(
            Step(
                orders=(
                    "(FRA AMY MAR) MTO GOL",
                    "(FRA FLT (SPA SCS)) SUP (FRA AMY MAR) MTO GOL",
                    "(ITA FLT GOL) HLD",
                    "(TUR FLT TYS) SUP (TUR FLT WES) MTO GOL",
                    "(TUR FLT WES) MTO GOL",
                ),
                rejected={
                    "(FRA AMY MAR) MTO GOL": "FAR",
                    "(FRA FLT (SPA SCS)) SUP (FRA AMY MAR) MTO GOL": "FAR",
                },
                results={
                    "FRA AMY MAR": "SUC",
                    "FRA FLT (SPA SCS)": "SUC",
                    "ITA FLT GOL": "RET",
                    "TUR FLT TYS": "SUC",
                    "TUR FLT WES": "SUC",
                },
                units_after=(
                    "FRA AMY MAR", "FRA FLT (SPA SCS)", "ITA FLT GOL MRT (PIE TUS)",
                    "TUR FLT TYS", "TUR FLT GOL",
                ),
            ),
        ),
    ),
    Case(
        id="6.D.25",
        title="FAILING HOLD SUPPORT CAN BE SUPPORTED",
        units=("GER AMY BER", "GER FLT KIE", "RUS FLT BAL", "RUS AMY PRU"),
        steps=(
            Step(
                orders=(
                    "(GER AMY BER) SUP (RUS AMY PRU)",
                    "(GER FLT KIE) SUP (GER AMY BER)",
                    "(RUS FLT BAL) SUP (RUS AMY PRU) MTO BER",
                    "(RUS AMY PRU) MTO BER",
                ),
                results={
                    "GER AMY BER": "NSO",
                    "GER FLT KIE": "SUC",
                    "RUS FLT BAL": "SUC",
                    "RUS AMY PRU": "BNC",
                },
                units_after=("GER AMY BER", "GER FLT KIE", "RUS FLT BAL", "RUS AMY PRU"),
            ),
        ),
    ),
    Case(
        id="6.D.26",
        title="FAILING MOVE SUPPORT CAN BE SUPPORTED",
        units=("GER AMY BER", "GER FLT KIE", "RUS FLT BAL", "RUS AMY PRU"),
        steps=(
            Step(
                orders=(
                    "(GER AMY BER) SUP (RUS AMY PRU) MTO SIL",
                    "(GER FLT KIE) SUP (GER AMY BER)",
                    "(RUS FLT BAL) SUP (RUS AMY PRU) MTO BER",
                    "(RUS AMY PRU) MTO BER",
                ),
                results={
                    "GER AMY BER": "NSO",
                    "GER FLT KIE": "SUC",
                    "RUS FLT BAL": "SUC",
                    "RUS AMY PRU": "BNC",
                },
                units_after=("GER AMY BER", "GER FLT KIE", "RUS FLT BAL", "RUS AMY PRU"),
            ),
        ),
    ),
    Case(
        id="6.D.27",
        title="FAILING CONVOY CAN BE SUPPORTED",
        units=("ENG FLT SWE", "ENG FLT DEN", "GER AMY BER", "RUS FLT BAL", "RUS FLT PRU"),
        steps=(
            Step(
                orders=(
                    "(ENG FLT SWE) MTO BAL",
                    "(ENG FLT DEN) SUP (ENG FLT SWE) MTO BAL",
                    "(GER AMY BER) HLD",
                    "(RUS FLT BAL) CVY (GER AMY BER) CTO LVN",
                    "(RUS FLT PRU) SUP (RUS FLT BAL)",
                ),
                results={
                    "ENG FLT SWE": "BNC",
                    "ENG FLT DEN": "SUC",
                    "GER AMY BER": "SUC",
                    "RUS FLT BAL": "NSO",
                    "RUS FLT PRU": "SUC",
                },
                units_after=(
                    "ENG FLT SWE", "ENG FLT DEN", "GER AMY BER", "RUS FLT BAL", "RUS FLT PRU",
                ),
            ),
        ),
    ),
    Case(
        id="6.D.28",
        title="IMPOSSIBLE MOVE AND SUPPORT",
        units=("AUS AMY BUD", "RUS FLT RUM", "TUR FLT BLA", "TUR AMY BUL"),
        steps=(
            Step(
                orders=(
                    "(AUS AMY BUD) SUP (RUS FLT RUM)",
                    "(RUS FLT RUM) MTO HOL",
                    "(TUR FLT BLA) MTO RUM",
                    "(TUR AMY BUL) SUP (TUR FLT BLA) MTO RUM",
                ),
                rejected={"(RUS FLT RUM) MTO HOL": "FAR"},
                results={
                    "AUS AMY BUD": "SUC",
                    "RUS FLT RUM": "SUC",
                    "TUR FLT BLA": "BNC",
                    "TUR AMY BUL": "SUC",
                },
                units_after=("AUS AMY BUD", "RUS FLT RUM", "TUR FLT BLA", "TUR AMY BUL"),
            ),
        ),
        note="4.E.1 d (DATC and Parlance): the illegal move is refused, Rumania holds.",
    ),
    Case(
        id="6.D.29",
        title="MOVE TO IMPOSSIBLE COAST AND SUPPORT",
        units=("AUS AMY BUD", "RUS FLT RUM", "TUR FLT BLA", "TUR AMY BUL"),
        steps=(
            Step(
                orders=(
                    "(AUS AMY BUD) SUP (RUS FLT RUM)",
                    "(RUS FLT RUM) MTO (BUL SCS)",
                    "(TUR FLT BLA) MTO RUM",
                    "(TUR AMY BUL) SUP (TUR FLT BLA) MTO RUM",
                ),
                rejected={"(RUS FLT RUM) MTO (BUL SCS)": "FAR"},
                results={
                    "AUS AMY BUD": "SUC",
                    "RUS FLT RUM": "SUC",
                    "TUR FLT BLA": "BNC",
                    "TUR AMY BUL": "SUC",
                },
                units_after=("AUS AMY BUD", "RUS FLT RUM", "TUR FLT BLA", "TUR AMY BUL"),
            ),
        ),
        note="4.E.1 d: the move to an unreachable coast is refused, Rumania holds.",
    ),
    Case(
        id="6.D.30",
        title="MOVE WITHOUT COAST AND SUPPORT",
        units=("ITA FLT AEG", "RUS FLT CON", "TUR FLT BLA", "TUR AMY BUL"),
        steps=(
            Step(
                orders=(
                    "(ITA FLT AEG) SUP (RUS FLT CON)",
                    "(RUS FLT CON) MTO BUL",
                    "(TUR FLT BLA) MTO CON",
                    "(TUR AMY BUL) SUP (TUR FLT BLA) MTO CON",
                ),
                rejected={"(RUS FLT CON) MTO BUL": "CST"},
                results={
                    "ITA FLT AEG": "SUC",
                    "RUS FLT CON": "SUC",
                    "TUR FLT BLA": "BNC",
                    "TUR AMY BUL": "SUC",
                },
                units_after=("ITA FLT AEG", "RUS FLT CON", "TUR FLT BLA", "TUR AMY BUL"),
            ),
        ),
        note="4.B.1 a and 4.E.1 d: the coastless move is refused (CST), Constantinople holds.",
    ),
    Case(
        id="6.D.31",
        title="A TRICKY IMPOSSIBLE SUPPORT",
        units=("AUS AMY RUM", "TUR FLT BLA"),
        steps=(
            Step(
                orders=(
                    "(AUS AMY RUM) CTO ARM VIA (BLA)",
                    "(TUR FLT BLA) SUP (AUS AMY RUM) MTO ARM",
                ),
                rejected={"(TUR FLT BLA) SUP (AUS AMY RUM) MTO ARM": "FAR"},
                results={"AUS AMY RUM": "NSO", "TUR FLT BLA": "SUC"},
                units_after=("AUS AMY RUM", "TUR FLT BLA"),
            ),
        ),
        note=(
            "The DATC's 'A Rumania - Armenia' can only go by convoy through the Black "
            "Sea, so it is spelled as a convoyed move; no fleet convoys it (NSO)."
        ),
    ),
    Case(
        id="6.D.32",
        title="A MISSING FLEET",
        units=("ENG FLT EDI", "ENG AMY LVP", "FRA FLT LON", "GER AMY YOR"),
        steps=(
            Step(
                orders=(
                    "(ENG FLT EDI) SUP (ENG AMY LVP) MTO YOR",
                    "(ENG AMY LVP) MTO YOR",
                    "(FRA FLT LON) SUP (GER AMY YOR)",
                    "(GER AMY YOR) MTO HOL",
                ),
                rejected={"(GER AMY YOR) MTO HOL": "FAR"},
                results={
                    "ENG FLT EDI": "SUC",
                    "ENG AMY LVP": "BNC",
                    "FRA FLT LON": "SUC",
                    "GER AMY YOR": "SUC",
                },
                units_after=("ENG FLT EDI", "ENG AMY LVP", "FRA FLT LON", "GER AMY YOR"),
            ),
        ),
        note=(
            "4.E.1 d: with no fleet in the North Sea the move is refused (FAR) and Yorkshire "
            "holds."
        ),
    ),
    Case(
        id="6.D.33",
        title="UNWANTED SUPPORT ALLOWED",
        units=("AUS AMY SER", "AUS AMY VIE", "RUS AMY GAL", "TUR AMY BUL"),
        steps=(
            Step(
                orders=(
                    "(AUS AMY SER) MTO BUD",
                    "(AUS AMY VIE) MTO BUD",
                    "(RUS AMY GAL) SUP (AUS AMY SER) MTO BUD",
                    "(TUR AMY BUL) MTO SER",
                ),
                results={
                    "AUS AMY SER": "SUC",
                    "AUS AMY VIE": "BNC",
                    "RUS AMY GAL": "SUC",
                    "TUR AMY BUL": "SUC",
                },
                units_after=("AUS AMY BUD", "AUS AMY VIE", "RUS AMY GAL", "TUR AMY SER"),
            ),
        ),
    ),
    Case(
        id="6.D.34",
        title="SUPPORT TARGETING OWN AREA NOT ALLOWED",
        units=(
            "GER AMY BER", "GER AMY SIL", "GER FLT BAL", "ITA AMY PRU",
            "RUS AMY WAR", "RUS AMY LVN",
        ),
        steps=(
            Step(
                orders=(
                    "(GER AMY BER) MTO PRU",
                    "(GER AMY SIL) SUP (GER AMY BER) MTO PRU",
                    "(GER FLT BAL) SUP (GER AMY BER) MTO PRU",
                    "(ITA AMY PRU) SUP (RUS AMY LVN) MTO PRU",
                    "(RUS AMY WAR) SUP (RUS AMY LVN) MTO PRU",
                    "(RUS AMY LVN) MTO PRU",
                ),
                rejected={"(ITA AMY PRU) SUP (RUS AMY LVN) MTO PRU": "FAR"},
                results={
                    "GER AMY BER": "SUC",
                    "GER AMY SIL": "SUC",
                    "GER FLT BAL": "SUC",
                    "ITA AMY PRU": "RET",
                    "RUS AMY WAR": "SUC",
                    "RUS AMY LVN": "BNC",
                },
                units_after=(
                    "GER AMY PRU", "GER AMY SIL", "GER FLT BAL", "ITA AMY PRU MRT ()",
                    "RUS AMY WAR", "RUS AMY LVN",
                ),
            ),
        ),
    ),
    # ------------------------------------------------------------------
    # 6.E. HEAD-TO-HEAD BATTLES AND BELEAGUERED GARRISON
    # ------------------------------------------------------------------
    Case(
        id="6.E.1",
        title="DISLODGED UNIT HAS NO EFFECT ON ATTACKER'S AREA",
        units=("GER AMY BER", "GER FLT KIE", "GER AMY SIL", "RUS AMY PRU"),
        steps=(
            Step(
                orders=(
                    "(GER AMY BER) MTO PRU",
                    "(GER FLT KIE) MTO BER",
                    "(GER AMY SIL) SUP (GER AMY BER) MTO PRU",
                    "(RUS AMY PRU) MTO BER",
                ),
                results={
                    "GER AMY BER": "SUC",
                    "GER FLT KIE": "SUC",
                    "GER AMY SIL": "SUC",
                    "RUS AMY PRU": "BNC RET",
                },
                units_after=(
                    "GER AMY PRU", "GER FLT BER", "GER AMY SIL", "RUS AMY PRU MRT (LVN WAR)",
                ),
            ),
        ),
    ),
    Case(
        id="6.E.2",
        title="NO SELF DISLODGEMENT IN HEAD-TO-HEAD BATTLE",
        units=("GER AMY BER", "GER FLT KIE", "GER AMY MUN"),
        steps=(
            Step(
                orders=(
                    "(GER AMY BER) MTO KIE",
                    "(GER FLT KIE) MTO BER",
                    "(GER AMY MUN) SUP (GER AMY BER) MTO KIE",
                ),
                results={"GER AMY BER": "BNC", "GER FLT KIE": "BNC", "GER AMY MUN": "SUC"},
                units_after=("GER AMY BER", "GER FLT KIE", "GER AMY MUN"),
            ),
        ),
    ),
    Case(
        id="6.E.3",
        title="NO HELP IN DISLODGING OWN UNIT",
        units=("GER AMY BER", "GER AMY MUN", "ENG FLT KIE"),
        steps=(
            Step(
                orders=(
                    "(GER AMY BER) MTO KIE",
                    "(GER AMY MUN) SUP (ENG FLT KIE) MTO BER",
                    "(ENG FLT KIE) MTO BER",
                ),
                results={"GER AMY BER": "BNC", "GER AMY MUN": "SUC", "ENG FLT KIE": "BNC"},
                units_after=("GER AMY BER", "GER AMY MUN", "ENG FLT KIE"),
            ),
        ),
    ),
    Case(
        id="6.E.4",
        title="NON-DISLODGED LOSER STILL HAS EFFECT",
        units=(
            "GER FLT HOL", "GER FLT HEL", "GER FLT SKA",
            "FRA FLT NTH", "FRA FLT BEL",
            "ENG FLT EDI", "ENG FLT YOR", "ENG FLT NWG",
            "AUS AMY KIE", "AUS AMY RUH",
        ),
        steps=(
            Step(
                orders=(
                    "(GER FLT HOL) MTO NTH",
                    "(GER FLT HEL) SUP (GER FLT HOL) MTO NTH",
                    "(GER FLT SKA) SUP (GER FLT HOL) MTO NTH",
                    "(FRA FLT NTH) MTO HOL",
                    "(FRA FLT BEL) SUP (FRA FLT NTH) MTO HOL",
                    "(ENG FLT EDI) SUP (ENG FLT NWG) MTO NTH",
                    "(ENG FLT YOR) SUP (ENG FLT NWG) MTO NTH",
                    "(ENG FLT NWG) MTO NTH",
                    "(AUS AMY KIE) SUP (AUS AMY RUH) MTO HOL",
                    "(AUS AMY RUH) MTO HOL",
                ),
                results={
                    "GER FLT HOL": "BNC",
                    "GER FLT HEL": "SUC",
                    "GER FLT SKA": "SUC",
                    "FRA FLT NTH": "BNC",
                    "FRA FLT BEL": "SUC",
                    "ENG FLT EDI": "SUC",
                    "ENG FLT YOR": "SUC",
                    "ENG FLT NWG": "BNC",
                    "AUS AMY KIE": "SUC",
                    "AUS AMY RUH": "BNC",
                },
                units_after=(
                    "GER FLT HOL", "GER FLT HEL", "GER FLT SKA",
                    "FRA FLT NTH", "FRA FLT BEL",
                    "ENG FLT EDI", "ENG FLT YOR", "ENG FLT NWG",
                    "AUS AMY KIE", "AUS AMY RUH",
                ),
            ),
        ),
    ),
    Case(
        id="6.E.5",
        title="LOSER DISLODGED BY ANOTHER ARMY STILL HAS EFFECT",
        units=(
            "GER FLT HOL", "GER FLT HEL", "GER FLT SKA",
            "FRA FLT NTH", "FRA FLT BEL",
            "ENG FLT EDI", "ENG FLT YOR", "ENG FLT NWG", "ENG FLT LON",
            "AUS AMY KIE", "AUS AMY RUH",
        ),
        steps=(
            Step(
                orders=(
                    "(GER FLT HOL) MTO NTH",
                    "(GER FLT HEL) SUP (GER FLT HOL) MTO NTH",
                    "(GER FLT SKA) SUP (GER FLT HOL) MTO NTH",
                    "(FRA FLT NTH) MTO HOL",
                    "(FRA FLT BEL) SUP (FRA FLT NTH) MTO HOL",
                    "(ENG FLT EDI) SUP (ENG FLT NWG) MTO NTH",
                    "(ENG FLT YOR) SUP (ENG FLT NWG) MTO NTH",
                    "(ENG FLT NWG) MTO NTH",
                    "(ENG FLT LON) SUP (ENG FLT NWG) MTO NTH",
                    "(AUS AMY KIE) SUP (AUS AMY RUH) MTO HOL",
                    "(AUS AMY RUH) MTO HOL",
                ),
                results={
                    "GER FLT HOL": "BNC",
                    "GER FLT HEL": "SUC",
                    "GER FLT SKA": "SUC",
                    "FRA FLT NTH": "BNC RET",
                    "FRA FLT BEL": "SUC",
                    "ENG FLT EDI": "SUC",
                    "ENG FLT YOR": "SUC",
                    "ENG FLT NWG": "SUC",
                    "ENG FLT LON": "SUC",
                    "AUS AMY KIE": "SUC",
                    "AUS AMY RUH": "BNC",
                },
                units_after=(
                    "GER FLT HOL", "GER FLT HEL", "GER FLT SKA",
                    "FRA FLT NTH MRT (DEN ECH NWY)", "FRA FLT BEL",
                    "ENG FLT EDI", "ENG FLT YOR", "ENG FLT NTH", "ENG FLT LON",
                    "AUS AMY KIE", "AUS AMY RUH",
                ),
            ),
        ),
    ),
    Case(
        id="6.E.6",
        title="NOT DISLODGE BECAUSE OF OWN SUPPORT STILL HAS EFFECT",
        units=(
            "GER FLT HOL", "GER FLT HEL", "FRA FLT NTH", "FRA FLT BEL", "FRA FLT ECH",
            "AUS AMY KIE", "AUS AMY RUH",
        ),
        steps=(
            Step(
                orders=(
                    "(GER FLT HOL) MTO NTH",
                    "(GER FLT HEL) SUP (GER FLT HOL) MTO NTH",
                    "(FRA FLT NTH) MTO HOL",
                    "(FRA FLT BEL) SUP (FRA FLT NTH) MTO HOL",
                    "(FRA FLT ECH) SUP (GER FLT HOL) MTO NTH",
                    "(AUS AMY KIE) SUP (AUS AMY RUH) MTO HOL",
                    "(AUS AMY RUH) MTO HOL",
                ),
                results={
                    "GER FLT HOL": "BNC",
                    "GER FLT HEL": "SUC",
                    "FRA FLT NTH": "BNC",
                    "FRA FLT BEL": "SUC",
                    "FRA FLT ECH": "SUC",
                    "AUS AMY KIE": "SUC",
                    "AUS AMY RUH": "BNC",
                },
                units_after=(
                    "GER FLT HOL", "GER FLT HEL", "FRA FLT NTH", "FRA FLT BEL", "FRA FLT ECH",
                    "AUS AMY KIE", "AUS AMY RUH",
                ),
            ),
        ),
    ),
    Case(
        id="6.E.7",
        title="NO SELF DISLODGEMENT WITH BELEAGUERED GARRISON",
        units=(
            "ENG FLT NTH", "ENG FLT YOR", "GER FLT HOL", "GER FLT HEL", "RUS FLT SKA",
            "RUS FLT NWY",
        ),
        steps=(
            Step(
                orders=(
                    "(ENG FLT NTH) HLD",
                    "(ENG FLT YOR) SUP (RUS FLT NWY) MTO NTH",
                    "(GER FLT HOL) SUP (GER FLT HEL) MTO NTH",
                    "(GER FLT HEL) MTO NTH",
                    "(RUS FLT SKA) SUP (RUS FLT NWY) MTO NTH",
                    "(RUS FLT NWY) MTO NTH",
                ),
                results={
                    "ENG FLT NTH": "SUC",
                    "ENG FLT YOR": "SUC",
                    "GER FLT HOL": "SUC",
                    "GER FLT HEL": "BNC",
                    "RUS FLT SKA": "SUC",
                    "RUS FLT NWY": "BNC",
                },
                units_after=(
                    "ENG FLT NTH", "ENG FLT YOR", "GER FLT HOL", "GER FLT HEL",
                    "RUS FLT SKA", "RUS FLT NWY",
                ),
            ),
        ),
    ),
    Case(
        id="6.E.8",
        title="NO SELF DISLODGEMENT WITH BELEAGUERED GARRISON AND HEAD-TO-HEAD BATTLE",
        units=(
            "ENG FLT NTH", "ENG FLT YOR", "GER FLT HOL", "GER FLT HEL", "RUS FLT SKA",
            "RUS FLT NWY",
        ),
        steps=(
            Step(
                orders=(
                    "(ENG FLT NTH) MTO NWY",
                    "(ENG FLT YOR) SUP (RUS FLT NWY) MTO NTH",
                    "(GER FLT HOL) SUP (GER FLT HEL) MTO NTH",
                    "(GER FLT HEL) MTO NTH",
                    "(RUS FLT SKA) SUP (RUS FLT NWY) MTO NTH",
                    "(RUS FLT NWY) MTO NTH",
                ),
                results={
                    "ENG FLT NTH": "BNC",
                    "ENG FLT YOR": "SUC",
                    "GER FLT HOL": "SUC",
                    "GER FLT HEL": "BNC",
                    "RUS FLT SKA": "SUC",
                    "RUS FLT NWY": "BNC",
                },
                units_after=(
                    "ENG FLT NTH", "ENG FLT YOR", "GER FLT HOL", "GER FLT HEL",
                    "RUS FLT SKA", "RUS FLT NWY",
                ),
            ),
        ),
    ),
    Case(
        id="6.E.9",
        title="ALMOST SELF DISLODGEMENT WITH BELEAGUERED GARRISON",
        units=(
            "ENG FLT NTH", "ENG FLT YOR", "GER FLT HOL", "GER FLT HEL", "RUS FLT SKA",
            "RUS FLT NWY",
        ),
        steps=(
            Step(
                orders=(
                    "(ENG FLT NTH) MTO NWG",
                    "(ENG FLT YOR) SUP (RUS FLT NWY) MTO NTH",
                    "(GER FLT HOL) SUP (GER FLT HEL) MTO NTH",
                    "(GER FLT HEL) MTO NTH",
                    "(RUS FLT SKA) SUP (RUS FLT NWY) MTO NTH",
                    "(RUS FLT NWY) MTO NTH",
                ),
                results={
                    "ENG FLT NTH": "SUC",
                    "ENG FLT YOR": "SUC",
                    "GER FLT HOL": "SUC",
                    "GER FLT HEL": "BNC",
                    "RUS FLT SKA": "SUC",
                    "RUS FLT NWY": "SUC",
                },
                units_after=(
                    "ENG FLT NWG", "ENG FLT YOR", "GER FLT HOL", "GER FLT HEL",
                    "RUS FLT SKA", "RUS FLT NTH",
                ),
            ),
        ),
    ),
    Case(
        id="6.E.10",
        title="ALMOST CIRCULAR MOVEMENT WITH NO SELF DISLODGEMENT WITH BELEAGUERED GARRISON",
        units=(
            "ENG FLT NTH", "ENG FLT YOR", "GER FLT HOL", "GER FLT HEL", "GER FLT DEN",
            "RUS FLT SKA", "RUS FLT NWY",
        ),
        steps=(
            Step(
                orders=(
                    "(ENG FLT NTH) MTO DEN",
                    "(ENG FLT YOR) SUP (RUS FLT NWY) MTO NTH",
                    "(GER FLT HOL) SUP (GER FLT HEL) MTO NTH",
                    "(GER FLT HEL) MTO NTH",
                    "(GER FLT DEN) MTO HEL",
                    "(RUS FLT SKA) SUP (RUS FLT NWY) MTO NTH",
                    "(RUS FLT NWY) MTO NTH",
                ),
                results={
                    "ENG FLT NTH": "BNC",
                    "ENG FLT YOR": "SUC",
                    "GER FLT HOL": "SUC",
                    "GER FLT HEL": "BNC",
                    "GER FLT DEN": "BNC",
                    "RUS FLT SKA": "SUC",
                    "RUS FLT NWY": "BNC",
                },
                units_after=(
                    "ENG FLT NTH", "ENG FLT YOR", "GER FLT HOL", "GER FLT HEL", "GER FLT DEN",
                    "RUS FLT SKA", "RUS FLT NWY",
                ),
            ),
        ),
    ),
    Case(
        id="6.E.11",
        title=(
            "NO SELF DISLODGEMENT WITH BELEAGUERED GARRISON, UNIT SWAP WITH ADJACENT "
            "CONVOYING AND TWO COASTS"
        ),
        units=(
            "FRA AMY SPA", "FRA FLT MAO", "FRA FLT GOL", "GER AMY MAR", "GER AMY GAS",
            "ITA FLT POR", "ITA FLT WES",
        ),
        steps=(
            Step(
                orders=(
                    "(FRA AMY SPA) CTO POR VIA (MAO)",
                    "(FRA FLT MAO) CVY (FRA AMY SPA) CTO POR",
                    "(FRA FLT GOL) SUP (ITA FLT POR) MTO SPA",
                    "(GER AMY MAR) SUP (GER AMY GAS) MTO SPA",
                    "(GER AMY GAS) MTO SPA",
                    "(ITA FLT POR) MTO (SPA NCS)",
                    "(ITA FLT WES) SUP (ITA FLT POR) MTO SPA",
                ),
                results={
                    "FRA AMY SPA": "SUC",
                    "FRA FLT MAO": "SUC",
                    "FRA FLT GOL": "SUC",
                    "GER AMY MAR": "SUC",
                    "GER AMY GAS": "BNC",
                    "ITA FLT POR": "SUC",
                    "ITA FLT WES": "SUC",
                },
                units_after=(
                    "FRA AMY POR", "FRA FLT MAO", "FRA FLT GOL", "GER AMY MAR", "GER AMY GAS",
                    "ITA FLT (SPA NCS)", "ITA FLT WES",
                ),
            ),
        ),
    ),
    Case(
        id="6.E.12",
        title="SUPPORT ON ATTACK ON OWN UNIT CAN BE USED FOR OTHER MEANS",
        units=("AUS AMY BUD", "AUS AMY SER", "ITA AMY VIE", "RUS AMY GAL", "RUS AMY RUM"),
        steps=(
            Step(
                orders=(
                    "(AUS AMY BUD) MTO RUM",
                    "(AUS AMY SER) SUP (ITA AMY VIE) MTO BUD",
                    "(ITA AMY VIE) MTO BUD",
                    "(RUS AMY GAL) MTO BUD",
                    "(RUS AMY RUM) SUP (RUS AMY GAL) MTO BUD",
                ),
                results={
                    "AUS AMY BUD": "BNC",
                    "AUS AMY SER": "SUC",
                    "ITA AMY VIE": "BNC",
                    "RUS AMY GAL": "BNC",
                    "RUS AMY RUM": "SUC",
                },
                units_after=(
                    "AUS AMY BUD", "AUS AMY SER", "ITA AMY VIE", "RUS AMY GAL", "RUS AMY RUM",
                ),
            ),
        ),
    ),
    Case(
        id="6.E.13",
        title="THREE WAY BELEAGUERED GARRISON",
        units=(
            "ENG FLT EDI", "ENG FLT YOR", "FRA FLT BEL", "FRA FLT ECH", "GER FLT NTH",
            "RUS FLT NWG", "RUS FLT NWY",
        ),
        steps=(
            Step(
                orders=(
                    "(ENG FLT EDI) SUP (ENG FLT YOR) MTO NTH",
                    "(ENG FLT YOR) MTO NTH",
                    "(FRA FLT BEL) MTO NTH",
                    "(FRA FLT ECH) SUP (FRA FLT BEL) MTO NTH",
                    "(GER FLT NTH) HLD",
                    "(RUS FLT NWG) MTO NTH",
                    "(RUS FLT NWY) SUP (RUS FLT NWG) MTO NTH",
                ),
                results={
                    "ENG FLT EDI": "SUC",
                    "ENG FLT YOR": "BNC",
                    "FRA FLT BEL": "BNC",
                    "FRA FLT ECH": "SUC",
                    "GER FLT NTH": "SUC",
                    "RUS FLT NWG": "BNC",
                    "RUS FLT NWY": "SUC",
                },
                units_after=(
                    "ENG FLT EDI", "ENG FLT YOR", "FRA FLT BEL", "FRA FLT ECH", "GER FLT NTH",
                    "RUS FLT NWG", "RUS FLT NWY",
                ),
            ),
        ),
    ),
    Case(
        id="6.E.14",
        title="ILLEGAL HEAD-TO-HEAD BATTLE CAN STILL DEFEND",
        units=("ENG AMY LVP", "RUS FLT EDI"),
        steps=(
            Step(
                orders=("(ENG AMY LVP) MTO EDI", "(RUS FLT EDI) MTO LVP"),
                rejected={"(RUS FLT EDI) MTO LVP": "FAR"},
                results={"ENG AMY LVP": "BNC", "RUS FLT EDI": "SUC"},
                units_after=("ENG AMY LVP", "RUS FLT EDI"),
            ),
        ),
        note="4.E.1 d: the illegal move is refused and the fleet holds, so still defends.",
    ),
    Case(
        id="6.E.15",
        title="THE FRIENDLY HEAD-TO-HEAD BATTLE",
        units=(
            "ENG FLT HOL", "ENG AMY RUH", "FRA AMY KIE", "FRA AMY MUN", "FRA AMY SIL",
            "GER AMY BER", "GER FLT DEN", "GER FLT HEL", "RUS FLT BAL", "RUS AMY PRU",
        ),
        steps=(
            Step(
                orders=(
                    "(ENG FLT HOL) SUP (ENG AMY RUH) MTO KIE",
                    "(ENG AMY RUH) MTO KIE",
                    "(FRA AMY KIE) MTO BER",
                    "(FRA AMY MUN) SUP (FRA AMY KIE) MTO BER",
                    "(FRA AMY SIL) SUP (FRA AMY KIE) MTO BER",
                    "(GER AMY BER) MTO KIE",
                    "(GER FLT DEN) SUP (GER AMY BER) MTO KIE",
                    "(GER FLT HEL) SUP (GER AMY BER) MTO KIE",
                    "(RUS FLT BAL) SUP (RUS AMY PRU) MTO BER",
                    "(RUS AMY PRU) MTO BER",
                ),
                results={
                    "ENG FLT HOL": "SUC",
                    "ENG AMY RUH": "BNC",
                    "FRA AMY KIE": "BNC",
                    "FRA AMY MUN": "SUC",
                    "FRA AMY SIL": "SUC",
                    "GER AMY BER": "BNC",
                    "GER FLT DEN": "SUC",
                    "GER FLT HEL": "SUC",
                    "RUS FLT BAL": "SUC",
                    "RUS AMY PRU": "BNC",
                },
                units_after=(
                    "ENG FLT HOL", "ENG AMY RUH", "FRA AMY KIE", "FRA AMY MUN", "FRA AMY SIL",
                    "GER AMY BER", "GER FLT DEN", "GER FLT HEL", "RUS FLT BAL", "RUS AMY PRU",
                ),
            ),
        ),
    ),
    # ------------------------------------------------------------------
    # 6.F. CONVOYS
    # ------------------------------------------------------------------
    Case(
        id="6.F.1",
        title="NO CONVOY IN COASTAL AREAS",
        units=("TUR AMY GRE", "TUR FLT AEG", "TUR FLT CON", "TUR FLT BLA"),
        steps=(
            Step(
                orders=(
                    "(TUR AMY GRE) CTO SEV VIA (AEG CON BLA)",
                    "(TUR FLT AEG) CVY (TUR AMY GRE) CTO SEV",
                    "(TUR FLT CON) CVY (TUR AMY GRE) CTO SEV",
                    "(TUR FLT BLA) CVY (TUR AMY GRE) CTO SEV",
                ),
                rejected={
                    "(TUR AMY GRE) CTO SEV VIA (AEG CON BLA)": "FAR",
                    "(TUR FLT AEG) CVY (TUR AMY GRE) CTO SEV": "FAR",
                    "(TUR FLT CON) CVY (TUR AMY GRE) CTO SEV": "NAS",
                    "(TUR FLT BLA) CVY (TUR AMY GRE) CTO SEV": "FAR",
                },
                results={
                    "TUR AMY GRE": "SUC",
                    "TUR FLT AEG": "SUC",
                    "TUR FLT CON": "SUC",
                    "TUR FLT BLA": "SUC",
                },
                units_after=("TUR AMY GRE", "TUR FLT AEG", "TUR FLT CON", "TUR FLT BLA"),
            ),
        ),
        note=(
            "Parlance refuses every order: no sea route exists (FAR), Constantinople is not a sea "
            "(NAS)."
        ),
    ),
    Case(
        id="6.F.2",
        title="AN ARMY BEING CONVOYED CAN BOUNCE AS NORMAL",
        units=("ENG FLT ECH", "ENG AMY LON", "FRA AMY PAR"),
        steps=(
            Step(
                orders=(
                    "(ENG FLT ECH) CVY (ENG AMY LON) CTO BRE",
                    "(ENG AMY LON) CTO BRE VIA (ECH)",
                    "(FRA AMY PAR) MTO BRE",
                ),
                results={"ENG FLT ECH": "BNC", "ENG AMY LON": "BNC", "FRA AMY PAR": "BNC"},
                units_after=("ENG FLT ECH", "ENG AMY LON", "FRA AMY PAR"),
            ),
        ),
    ),
    Case(
        id="6.F.3",
        title="AN ARMY BEING CONVOYED CAN RECEIVE SUPPORT",
        units=("ENG FLT ECH", "ENG AMY LON", "ENG FLT MAO", "FRA AMY PAR"),
        steps=(
            Step(
                orders=(
                    "(ENG FLT ECH) CVY (ENG AMY LON) CTO BRE",
                    "(ENG AMY LON) CTO BRE VIA (ECH)",
                    "(ENG FLT MAO) SUP (ENG AMY LON) MTO BRE",
                    "(FRA AMY PAR) MTO BRE",
                ),
                results={
                    "ENG FLT ECH": "SUC",
                    "ENG AMY LON": "SUC",
                    "ENG FLT MAO": "SUC",
                    "FRA AMY PAR": "BNC",
                },
                units_after=("ENG FLT ECH", "ENG AMY BRE", "ENG FLT MAO", "FRA AMY PAR"),
            ),
        ),
    ),
    Case(
        id="6.F.4",
        title="AN ATTACKED CONVOY IS NOT DISRUPTED",
        units=("ENG FLT NTH", "ENG AMY LON", "GER FLT SKA"),
        steps=(
            Step(
                orders=(
                    "(ENG FLT NTH) CVY (ENG AMY LON) CTO HOL",
                    "(ENG AMY LON) CTO HOL VIA (NTH)",
                    "(GER FLT SKA) MTO NTH",
                ),
                results={"ENG FLT NTH": "SUC", "ENG AMY LON": "SUC", "GER FLT SKA": "BNC"},
                units_after=("ENG FLT NTH", "ENG AMY HOL", "GER FLT SKA"),
            ),
        ),
    ),
    Case(
        id="6.F.5",
        title="A BELEAGUERED CONVOY IS NOT DISRUPTED",
        units=(
            "ENG FLT NTH", "ENG AMY LON", "FRA FLT ECH", "FRA FLT BEL", "GER FLT SKA",
            "GER FLT DEN",
        ),
        steps=(
            Step(
                orders=(
                    "(ENG FLT NTH) CVY (ENG AMY LON) CTO HOL",
                    "(ENG AMY LON) CTO HOL VIA (NTH)",
                    "(FRA FLT ECH) MTO NTH",
                    "(FRA FLT BEL) SUP (FRA FLT ECH) MTO NTH",
                    "(GER FLT SKA) MTO NTH",
                    "(GER FLT DEN) SUP (GER FLT SKA) MTO NTH",
                ),
                results={
                    "ENG FLT NTH": "SUC",
                    "ENG AMY LON": "SUC",
                    "FRA FLT ECH": "BNC",
                    "FRA FLT BEL": "SUC",
                    "GER FLT SKA": "BNC",
                    "GER FLT DEN": "SUC",
                },
                units_after=(
                    "ENG FLT NTH", "ENG AMY HOL", "FRA FLT ECH", "FRA FLT BEL",
                    "GER FLT SKA", "GER FLT DEN",
                ),
            ),
        ),
    ),
    Case(
        id="6.F.6",
        title="DISLODGED CONVOY DOES NOT CUT SUPPORT",
        units=(
            "ENG FLT NTH", "ENG AMY LON", "GER AMY HOL", "GER AMY BEL", "GER FLT HEL",
            "GER FLT SKA", "FRA AMY PIC", "FRA AMY BUR",
        ),
        steps=(
            Step(
                orders=(
                    "(ENG FLT NTH) CVY (ENG AMY LON) CTO HOL",
                    "(ENG AMY LON) CTO HOL VIA (NTH)",
                    "(GER AMY HOL) SUP (GER AMY BEL)",
                    "(GER AMY BEL) SUP (GER AMY HOL)",
                    "(GER FLT HEL) SUP (GER FLT SKA) MTO NTH",
                    "(GER FLT SKA) MTO NTH",
                    "(FRA AMY PIC) MTO BEL",
                    "(FRA AMY BUR) SUP (FRA AMY PIC) MTO BEL",
                ),
                results={
                    "ENG FLT NTH": "DSR RET",
                    "ENG AMY LON": "DSR",
                    "GER AMY HOL": "SUC",
                    "GER AMY BEL": "CUT",
                    "GER FLT HEL": "SUC",
                    "GER FLT SKA": "SUC",
                    "FRA AMY PIC": "BNC",
                    "FRA AMY BUR": "SUC",
                },
                units_after=(
                    "ENG FLT NTH MRT (DEN ECH EDI NWG NWY YOR)", "ENG AMY LON",
                    "GER AMY HOL", "GER AMY BEL", "GER FLT HEL", "GER FLT NTH",
                    "FRA AMY PIC", "FRA AMY BUR",
                ),
            ),
        ),
    ),
    Case(
        id="6.F.7",
        title="DISLODGED CONVOY DOES NOT CAUSE CONTESTED AREA",
        units=("ENG FLT NTH", "ENG AMY LON", "GER FLT HEL", "GER FLT SKA"),
        steps=(
            Step(
                orders=(
                    "(ENG FLT NTH) CVY (ENG AMY LON) CTO HOL",
                    "(ENG AMY LON) CTO HOL VIA (NTH)",
                    "(GER FLT HEL) SUP (GER FLT SKA) MTO NTH",
                    "(GER FLT SKA) MTO NTH",
                ),
                results={
                    "ENG FLT NTH": "DSR RET",
                    "ENG AMY LON": "DSR",
                    "GER FLT HEL": "SUC",
                    "GER FLT SKA": "SUC",
                },
                units_after=(
                    "ENG FLT NTH MRT (BEL DEN ECH EDI HOL NWG NWY YOR)", "ENG AMY LON",
                    "GER FLT HEL", "GER FLT NTH",
                ),
            ),
            Step(
                orders=("(ENG FLT NTH) RTO HOL",),
                results={"ENG FLT NTH": "SUC"},
                units_after=("ENG FLT HOL", "ENG AMY LON", "GER FLT HEL", "GER FLT NTH"),
            ),
        ),
    ),
    Case(
        id="6.F.8",
        title="DISLODGED CONVOY DOES NOT CAUSE A BOUNCE",
        units=("ENG FLT NTH", "ENG AMY LON", "GER FLT HEL", "GER FLT SKA", "GER AMY BEL"),
        steps=(
            Step(
                orders=(
                    "(ENG FLT NTH) CVY (ENG AMY LON) CTO HOL",
                    "(ENG AMY LON) CTO HOL VIA (NTH)",
                    "(GER FLT HEL) SUP (GER FLT SKA) MTO NTH",
                    "(GER FLT SKA) MTO NTH",
                    "(GER AMY BEL) MTO HOL",
                ),
                results={
                    "ENG FLT NTH": "DSR RET",
                    "ENG AMY LON": "DSR",
                    "GER FLT HEL": "SUC",
                    "GER FLT SKA": "SUC",
                    "GER AMY BEL": "SUC",
                },
                units_after=(
                    "ENG FLT NTH MRT (BEL DEN ECH EDI NWG NWY YOR)", "ENG AMY LON",
                    "GER FLT HEL", "GER FLT NTH", "GER AMY HOL",
                ),
            ),
        ),
    ),
    Case(
        id="6.F.9",
        title="DISLODGE OF MULTI-ROUTE CONVOY",
        units=("ENG FLT ECH", "ENG FLT NTH", "ENG AMY LON", "FRA FLT BRE", "FRA FLT MAO"),
        steps=(
            Step(
                orders=(
                    "(ENG FLT ECH) CVY (ENG AMY LON) CTO BEL",
                    "(ENG FLT NTH) CVY (ENG AMY LON) CTO BEL",
                    "(ENG AMY LON) CTO BEL",
                    "(FRA FLT BRE) SUP (FRA FLT MAO) MTO ECH",
                    "(FRA FLT MAO) MTO ECH",
                ),
                results={
                    "ENG FLT ECH": "NSO RET",
                    "ENG FLT NTH": "SUC",
                    "ENG AMY LON": "SUC",
                    "FRA FLT BRE": "SUC",
                    "FRA FLT MAO": "SUC",
                },
                units_after=(
                    "ENG FLT ECH MRT (IRI LON PIC WAL)", "ENG FLT NTH", "ENG AMY BEL",
                    "FRA FLT BRE", "FRA FLT ECH",
                ),
            ),
        ),
        note=(
            "4.A.1 b (DATC preference, Parlance default): disrupted only if every route "
            "is. The army's path is left out (4.A.6 b) so both routes count; the "
            "dislodged fleet was not on the route used, so its convoy reports NSO."
        ),
    ),
    Case(
        id="6.F.10",
        title="DISLODGE OF MULTI-ROUTE CONVOY WITH FOREIGN FLEET",
        units=("ENG FLT NTH", "ENG AMY LON", "GER FLT ECH", "FRA FLT BRE", "FRA FLT MAO"),
        steps=(
            Step(
                orders=(
                    "(ENG FLT NTH) CVY (ENG AMY LON) CTO BEL",
                    "(ENG AMY LON) CTO BEL",
                    "(GER FLT ECH) CVY (ENG AMY LON) CTO BEL",
                    "(FRA FLT BRE) SUP (FRA FLT MAO) MTO ECH",
                    "(FRA FLT MAO) MTO ECH",
                ),
                results={
                    "ENG FLT NTH": "SUC",
                    "ENG AMY LON": "SUC",
                    "GER FLT ECH": "NSO RET",
                    "FRA FLT BRE": "SUC",
                    "FRA FLT MAO": "SUC",
                },
                units_after=(
                    "ENG FLT NTH", "ENG AMY BEL", "GER FLT ECH MRT (IRI LON PIC WAL)",
                    "FRA FLT BRE", "FRA FLT ECH",
                ),
            ),
        ),
        note=(
            "4.A.1 b (Parlance default): the convoy goes via the North Sea; path left out (4.A.6 "
            "b)."
        ),
    ),
    Case(
        id="6.F.11",
        title="DISLODGE OF MULTI-ROUTE CONVOY WITH ONLY FOREIGN FLEETS",
        units=("ENG AMY LON", "GER FLT ECH", "RUS FLT NTH", "FRA FLT BRE", "FRA FLT MAO"),
        steps=(
            Step(
                orders=(
                    "(ENG AMY LON) CTO BEL",
                    "(GER FLT ECH) CVY (ENG AMY LON) CTO BEL",
                    "(RUS FLT NTH) CVY (ENG AMY LON) CTO BEL",
                    "(FRA FLT BRE) SUP (FRA FLT MAO) MTO ECH",
                    "(FRA FLT MAO) MTO ECH",
                ),
                results={
                    "ENG AMY LON": "SUC",
                    "GER FLT ECH": "NSO RET",
                    "RUS FLT NTH": "SUC",
                    "FRA FLT BRE": "SUC",
                    "FRA FLT MAO": "SUC",
                },
                units_after=(
                    "ENG AMY BEL", "GER FLT ECH MRT (IRI LON PIC WAL)", "RUS FLT NTH",
                    "FRA FLT BRE", "FRA FLT ECH",
                ),
            ),
        ),
        note=(
            "4.A.1 b (Parlance default): the convoy goes via the North Sea; path left out (4.A.6 "
            "b)."
        ),
    ),
    Case(
        id="6.F.12",
        title="DISLODGED CONVOYING FLEET NOT ON ROUTE",
        units=("ENG FLT ECH", "ENG AMY LON", "ENG FLT IRI", "FRA FLT NAO", "FRA FLT MAO"),
        steps=(
            Step(
                orders=(
                    "(ENG FLT ECH) CVY (ENG AMY LON) CTO BEL",
                    "(ENG AMY LON) CTO BEL VIA (ECH)",
                    "(ENG FLT IRI) CVY (ENG AMY LON) CTO BEL",
                    "(FRA FLT NAO) SUP (FRA FLT MAO) MTO IRI",
                    "(FRA FLT MAO) MTO IRI",
                ),
                rejected={"(ENG FLT IRI) CVY (ENG AMY LON) CTO BEL": "FAR"},
                results={
                    "ENG FLT ECH": "SUC",
                    "ENG AMY LON": "SUC",
                    "ENG FLT IRI": "RET",
                    "FRA FLT NAO": "SUC",
                    "FRA FLT MAO": "SUC",
                },
                units_after=(
                    "ENG FLT ECH", "ENG AMY BEL", "ENG FLT IRI MRT (LVP WAL)",
                    "FRA FLT NAO", "FRA FLT IRI",
                ),
            ),
        ),
        note=(
            "Parlance refuses the Irish Sea convoy (FAR: the fleet is on no route from "
            "London to Belgium), so that fleet holds and is dislodged; the convoy succeeds."
        ),
    ),
    Case(
        id="6.F.13",
        title="THE UNWANTED ALTERNATIVE",
        units=("ENG AMY LON", "ENG FLT NTH", "FRA FLT ECH", "GER FLT HOL", "GER FLT DEN"),
        steps=(
            Step(
                orders=(
                    "(ENG AMY LON) CTO BEL",
                    "(ENG FLT NTH) CVY (ENG AMY LON) CTO BEL",
                    "(FRA FLT ECH) CVY (ENG AMY LON) CTO BEL",
                    "(GER FLT HOL) SUP (GER FLT DEN) MTO NTH",
                    "(GER FLT DEN) MTO NTH",
                ),
                results={
                    "ENG AMY LON": "SUC",
                    "ENG FLT NTH": "NSO RET",
                    "FRA FLT ECH": "SUC",
                    "GER FLT HOL": "SUC",
                    "GER FLT DEN": "SUC",
                },
                units_after=(
                    "ENG AMY BEL", "ENG FLT NTH MRT (EDI HEL LON NWG NWY SKA YOR)",
                    "FRA FLT ECH", "GER FLT HOL", "GER FLT NTH",
                ),
            ),
        ),
        note="4.A.1 b; the army's path is left out (4.A.6 b), so the French route is used.",
    ),
    Case(
        id="6.F.14",
        title="SIMPLE CONVOY PARADOX",
        units=("ENG FLT LON", "ENG FLT WAL", "FRA AMY BRE", "FRA FLT ECH"),
        steps=(
            Step(
                orders=(
                    "(ENG FLT LON) SUP (ENG FLT WAL) MTO ECH",
                    "(ENG FLT WAL) MTO ECH",
                    "(FRA AMY BRE) CTO LON VIA (ECH)",
                    "(FRA FLT ECH) CVY (FRA AMY BRE) CTO LON",
                ),
                results={
                    "ENG FLT LON": "SUC",
                    "ENG FLT WAL": "SUC",
                    "FRA AMY BRE": "DSR",
                    "FRA FLT ECH": "DSR RET",
                },
                units_after=(
                    "ENG FLT LON", "ENG FLT ECH", "FRA AMY BRE",
                    "FRA FLT ECH MRT (BEL IRI MAO NTH PIC)",
                ),
            ),
        ),
        note="4.A.2 d (Szykman; DATC preference and Parlance default).",
    ),
    Case(
        id="6.F.15",
        title="SIMPLE CONVOY PARADOX WITH ADDITIONAL CONVOY",
        units=(
            "ENG FLT LON", "ENG FLT WAL", "FRA AMY BRE", "FRA FLT ECH",
            "ITA FLT IRI", "ITA FLT MAO", "ITA AMY NAF",
        ),
        steps=(
            Step(
                orders=(
                    "(ENG FLT LON) SUP (ENG FLT WAL) MTO ECH",
                    "(ENG FLT WAL) MTO ECH",
                    "(FRA AMY BRE) CTO LON VIA (ECH)",
                    "(FRA FLT ECH) CVY (FRA AMY BRE) CTO LON",
                    "(ITA FLT IRI) CVY (ITA AMY NAF) CTO WAL",
                    "(ITA FLT MAO) CVY (ITA AMY NAF) CTO WAL",
                    "(ITA AMY NAF) CTO WAL VIA (MAO IRI)",
                ),
                results={
                    "ENG FLT LON": "SUC",
                    "ENG FLT WAL": "SUC",
                    "FRA AMY BRE": "DSR",
                    "FRA FLT ECH": "DSR RET",
                    "ITA FLT IRI": "SUC",
                    "ITA FLT MAO": "SUC",
                    "ITA AMY NAF": "SUC",
                },
                units_after=(
                    "ENG FLT LON", "ENG FLT ECH", "FRA AMY BRE", "FRA FLT ECH MRT (BEL NTH PIC)",
                    "ITA FLT IRI", "ITA FLT MAO", "ITA AMY WAL",
                ),
            ),
        ),
        note="4.A.2 d (Szykman).",
    ),
    Case(
        id="6.F.16",
        title="PANDIN'S PARADOX",
        units=(
            "ENG FLT LON", "ENG FLT WAL", "FRA AMY BRE", "FRA FLT ECH", "GER FLT NTH",
            "GER FLT BEL",
        ),
        steps=(
            Step(
                orders=(
                    "(ENG FLT LON) SUP (ENG FLT WAL) MTO ECH",
                    "(ENG FLT WAL) MTO ECH",
                    "(FRA AMY BRE) CTO LON VIA (ECH)",
                    "(FRA FLT ECH) CVY (FRA AMY BRE) CTO LON",
                    "(GER FLT NTH) SUP (GER FLT BEL) MTO ECH",
                    "(GER FLT BEL) MTO ECH",
                ),
                results={
                    "ENG FLT LON": "SUC",
                    "ENG FLT WAL": "BNC",
                    "FRA AMY BRE": "BNC",
                    "FRA FLT ECH": "BNC",
                    "GER FLT NTH": "SUC",
                    "GER FLT BEL": "BNC",
                },
                units_after=(
                    "ENG FLT LON", "ENG FLT WAL", "FRA AMY BRE", "FRA FLT ECH",
                    "GER FLT NTH", "GER FLT BEL",
                ),
            ),
        ),
        note="4.A.2 d (Szykman): the convoyed army does not move (Parlance reports BNC).",
    ),
    Case(
        id="6.F.17",
        title="PANDIN'S EXTENDED PARADOX",
        units=(
            "ENG FLT LON", "ENG FLT WAL", "FRA AMY BRE", "FRA FLT ECH", "FRA FLT YOR",
            "GER FLT NTH", "GER FLT BEL",
        ),
        steps=(
            Step(
                orders=(
                    "(ENG FLT LON) SUP (ENG FLT WAL) MTO ECH",
                    "(ENG FLT WAL) MTO ECH",
                    "(FRA AMY BRE) CTO LON VIA (ECH)",
                    "(FRA FLT ECH) CVY (FRA AMY BRE) CTO LON",
                    "(FRA FLT YOR) SUP (FRA AMY BRE) MTO LON",
                    "(GER FLT NTH) SUP (GER FLT BEL) MTO ECH",
                    "(GER FLT BEL) MTO ECH",
                ),
                results={
                    "ENG FLT LON": "SUC",
                    "ENG FLT WAL": "BNC",
                    "FRA AMY BRE": "BNC",
                    "FRA FLT ECH": "BNC",
                    "FRA FLT YOR": "SUC",
                    "GER FLT NTH": "SUC",
                    "GER FLT BEL": "BNC",
                },
                units_after=(
                    "ENG FLT LON", "ENG FLT WAL", "FRA AMY BRE", "FRA FLT ECH", "FRA FLT YOR",
                    "GER FLT NTH", "GER FLT BEL",
                ),
            ),
        ),
        note="4.A.2 d (Szykman, DATC preference): the convoy fails, nothing is dislodged.",
    ),
    Case(
        id="6.F.18",
        title="BETRAYAL PARADOX",
        units=(
            "ENG FLT NTH", "ENG AMY LON", "ENG FLT ECH", "FRA FLT BEL", "GER FLT HEL",
            "GER FLT SKA",
        ),
        steps=(
            Step(
                orders=(
                    "(ENG FLT NTH) CVY (ENG AMY LON) CTO BEL",
                    "(ENG AMY LON) CTO BEL VIA (NTH)",
                    "(ENG FLT ECH) SUP (ENG AMY LON) MTO BEL",
                    "(FRA FLT BEL) SUP (ENG FLT NTH)",
                    "(GER FLT HEL) SUP (GER FLT SKA) MTO NTH",
                    "(GER FLT SKA) MTO NTH",
                ),
                results={
                    "ENG FLT NTH": "BNC",
                    "ENG AMY LON": "BNC",
                    "ENG FLT ECH": "SUC",
                    "FRA FLT BEL": "SUC",
                    "GER FLT HEL": "SUC",
                    "GER FLT SKA": "BNC",
                },
                units_after=(
                    "ENG FLT NTH", "ENG AMY LON", "ENG FLT ECH", "FRA FLT BEL",
                    "GER FLT HEL", "GER FLT SKA",
                ),
            ),
        ),
        note="4.A.2 d (Szykman): the convoy fails, the support in Belgium is not cut.",
    ),
    Case(
        id="6.F.19",
        title="MULTI-ROUTE CONVOY DISRUPTION PARADOX",
        units=("FRA AMY TUN", "FRA FLT TYS", "FRA FLT ION", "ITA FLT NAP", "ITA FLT ROM"),
        steps=(
            Step(
                orders=(
                    "(FRA AMY TUN) CTO NAP",
                    "(FRA FLT TYS) CVY (FRA AMY TUN) CTO NAP",
                    "(FRA FLT ION) CVY (FRA AMY TUN) CTO NAP",
                    "(ITA FLT NAP) SUP (ITA FLT ROM) MTO TYS",
                    "(ITA FLT ROM) MTO TYS",
                ),
                results={
                    "FRA AMY TUN": "BNC",
                    "ITA FLT NAP": "CUT",
                    "ITA FLT ROM": "BNC",
                },
                units_after=(
                    "FRA AMY TUN", "FRA FLT TYS", "FRA FLT ION", "ITA FLT NAP", "ITA FLT ROM",
                ),
            ),
        ),
        note=(
            "4.A.1 b and 4.A.2 d: no paradox, the support is cut and the Tyrrhenian Sea "
            "holds. Path left out (4.A.6 b). Which of the two equally good routes "
            "Parlance reports as used (its fleet gets BNC, the other NSO) is an "
            "implementation detail, so the two convoying fleets are not checked."
        ),
    ),
    Case(
        id="6.F.20",
        title="UNWANTED MULTI-ROUTE CONVOY PARADOX",
        units=(
            "FRA AMY TUN", "FRA FLT TYS", "ITA FLT NAP", "ITA FLT ION", "TUR FLT AEG",
            "TUR FLT EAS",
        ),
        steps=(
            Step(
                orders=(
                    "(FRA AMY TUN) CTO NAP",
                    "(FRA FLT TYS) CVY (FRA AMY TUN) CTO NAP",
                    "(ITA FLT NAP) SUP (ITA FLT ION)",
                    "(ITA FLT ION) CVY (FRA AMY TUN) CTO NAP",
                    "(TUR FLT AEG) SUP (TUR FLT EAS) MTO ION",
                    "(TUR FLT EAS) MTO ION",
                ),
                results={
                    "FRA AMY TUN": "BNC",
                    "FRA FLT TYS": "BNC",
                    "ITA FLT NAP": "CUT",
                    "ITA FLT ION": "NSO RET",
                    "TUR FLT AEG": "SUC",
                    "TUR FLT EAS": "SUC",
                },
                units_after=(
                    "FRA AMY TUN", "FRA FLT TYS", "ITA FLT NAP",
                    "ITA FLT ION MRT (ADR ALB APU GRE)", "TUR FLT AEG", "TUR FLT ION",
                ),
            ),
        ),
        note=(
            "4.A.1 b and 4.A.2 d (Szykman): no paradox, the support is cut and the Ionian "
            "Sea fleet is dislodged. Path left out (4.A.6 b)."
        ),
    ),
    Case(
        id="6.F.21",
        title="DAD'S ARMY CONVOY",
        units=(
            "RUS AMY EDI", "RUS FLT NWG", "RUS AMY NWY", "FRA FLT IRI", "FRA FLT MAO",
            "ENG AMY LVP", "ENG FLT NAO", "ENG FLT CLY",
        ),
        steps=(
            Step(
                orders=(
                    "(RUS AMY EDI) SUP (RUS AMY NWY) MTO CLY",
                    "(RUS FLT NWG) CVY (RUS AMY NWY) CTO CLY",
                    "(RUS AMY NWY) CTO CLY VIA (NWG)",
                    "(FRA FLT IRI) SUP (FRA FLT MAO) MTO NAO",
                    "(FRA FLT MAO) MTO NAO",
                    "(ENG AMY LVP) CTO CLY VIA (NAO)",
                    "(ENG FLT NAO) CVY (ENG AMY LVP) CTO CLY",
                    "(ENG FLT CLY) SUP (ENG FLT NAO)",
                ),
                results={
                    "RUS AMY EDI": "SUC",
                    "RUS FLT NWG": "SUC",
                    "RUS AMY NWY": "SUC",
                    "FRA FLT IRI": "SUC",
                    "FRA FLT MAO": "SUC",
                    "ENG AMY LVP": "DSR",
                    "ENG FLT NAO": "DSR RET",
                    "ENG FLT CLY": "CUT RET",
                },
                units_after=(
                    "RUS AMY EDI", "RUS FLT NWG", "RUS AMY CLY", "FRA FLT IRI", "FRA FLT NAO",
                    "ENG AMY LVP", "ENG FLT NAO MRT ()", "ENG FLT CLY MRT ()",
                ),
            ),
        ),
        note=(
            "4.A.2 d (Szykman): the support in Clyde is cut and the North Atlantic fleet "
            "dislodged; the Russian army, now unopposed, also dislodges Clyde."
        ),
    ),
    Case(
        id="6.F.22",
        title="SECOND ORDER PARADOX WITH TWO RESOLUTIONS",
        units=(
            "ENG FLT EDI", "ENG FLT LON", "FRA AMY BRE", "FRA FLT ECH", "GER FLT BEL",
            "GER FLT PIC", "RUS AMY NWY", "RUS FLT NTH",
        ),
        steps=(
            Step(
                orders=(
                    "(ENG FLT EDI) MTO NTH",
                    "(ENG FLT LON) SUP (ENG FLT EDI) MTO NTH",
                    "(FRA AMY BRE) CTO LON VIA (ECH)",
                    "(FRA FLT ECH) CVY (FRA AMY BRE) CTO LON",
                    "(GER FLT BEL) SUP (GER FLT PIC) MTO ECH",
                    "(GER FLT PIC) MTO ECH",
                    "(RUS AMY NWY) CTO BEL VIA (NTH)",
                    "(RUS FLT NTH) CVY (RUS AMY NWY) CTO BEL",
                ),
                results={
                    "ENG FLT EDI": "SUC",
                    "ENG FLT LON": "SUC",
                    "FRA AMY BRE": "DSR",
                    "FRA FLT ECH": "DSR RET",
                    "GER FLT BEL": "SUC",
                    "GER FLT PIC": "SUC",
                    "RUS AMY NWY": "DSR",
                    "RUS FLT NTH": "DSR RET",
                },
                units_after=(
                    "ENG FLT NTH", "ENG FLT LON", "FRA AMY BRE", "FRA FLT ECH MRT (IRI MAO WAL)",
                    "GER FLT BEL", "GER FLT ECH", "RUS AMY NWY",
                    "RUS FLT NTH MRT (DEN HEL HOL NWG SKA YOR)",
                ),
            ),
        ),
        note="4.A.2 d (Szykman): supports not cut, both convoying fleets dislodged.",
    ),
    Case(
        id="6.F.23",
        title="SECOND ORDER PARADOX WITH TWO EXCLUSIVE CONVOYS",
        units=(
            "ENG FLT EDI", "ENG FLT YOR", "FRA AMY BRE", "FRA FLT ECH", "GER FLT BEL",
            "GER FLT LON", "ITA FLT MAO", "ITA FLT IRI", "RUS AMY NWY", "RUS FLT NTH",
        ),
        steps=(
            Step(
                orders=(
                    "(ENG FLT EDI) MTO NTH",
                    "(ENG FLT YOR) SUP (ENG FLT EDI) MTO NTH",
                    "(FRA AMY BRE) CTO LON VIA (ECH)",
                    "(FRA FLT ECH) CVY (FRA AMY BRE) CTO LON",
                    "(GER FLT BEL) SUP (FRA FLT ECH)",
                    "(GER FLT LON) SUP (RUS FLT NTH)",
                    "(ITA FLT MAO) MTO ECH",
                    "(ITA FLT IRI) SUP (ITA FLT MAO) MTO ECH",
                    "(RUS AMY NWY) CTO BEL VIA (NTH)",
                    "(RUS FLT NTH) CVY (RUS AMY NWY) CTO BEL",
                ),
                results={
                    "ENG FLT EDI": "BNC",
                    "ENG FLT YOR": "SUC",
                    "FRA AMY BRE": "BNC",
                    "FRA FLT ECH": "BNC",
                    "GER FLT BEL": "SUC",
                    "GER FLT LON": "SUC",
                    "ITA FLT MAO": "BNC",
                    "ITA FLT IRI": "SUC",
                    "RUS AMY NWY": "BNC",
                    "RUS FLT NTH": "BNC",
                },
                units_after=(
                    "ENG FLT EDI", "ENG FLT YOR", "FRA AMY BRE", "FRA FLT ECH", "GER FLT BEL",
                    "GER FLT LON", "ITA FLT MAO", "ITA FLT IRI", "RUS AMY NWY", "RUS FLT NTH",
                ),
            ),
        ),
        note="4.A.2 d (Szykman): the convoyed armies do not move, supports are not cut.",
    ),
    Case(
        id="6.F.24",
        title="SECOND ORDER PARADOX WITH NO RESOLUTION",
        units=(
            "ENG FLT EDI", "ENG FLT LON", "ENG FLT IRI", "ENG FLT MAO", "FRA AMY BRE",
            "FRA FLT ECH", "FRA FLT BEL", "RUS AMY NWY", "RUS FLT NTH",
        ),
        steps=(
            Step(
                orders=(
                    "(ENG FLT EDI) MTO NTH",
                    "(ENG FLT LON) SUP (ENG FLT EDI) MTO NTH",
                    "(ENG FLT IRI) MTO ECH",
                    "(ENG FLT MAO) SUP (ENG FLT IRI) MTO ECH",
                    "(FRA AMY BRE) CTO LON VIA (ECH)",
                    "(FRA FLT ECH) CVY (FRA AMY BRE) CTO LON",
                    "(FRA FLT BEL) SUP (FRA FLT ECH)",
                    "(RUS AMY NWY) CTO BEL VIA (NTH)",
                    "(RUS FLT NTH) CVY (RUS AMY NWY) CTO BEL",
                ),
                results={
                    "ENG FLT EDI": "SUC",
                    "ENG FLT LON": "SUC",
                    "ENG FLT IRI": "BNC",
                    "ENG FLT MAO": "SUC",
                    "FRA AMY BRE": "BNC",
                    "FRA FLT ECH": "BNC",
                    "FRA FLT BEL": "SUC",
                    "RUS AMY NWY": "DSR",
                    "RUS FLT NTH": "DSR RET",
                },
                units_after=(
                    "ENG FLT NTH", "ENG FLT LON", "ENG FLT IRI", "ENG FLT MAO", "FRA AMY BRE",
                    "FRA FLT ECH", "FRA FLT BEL", "RUS AMY NWY",
                    "RUS FLT NTH MRT (DEN HEL HOL NWG SKA YOR)",
                ),
            ),
        ),
        note=(
            "4.A.2 d (Szykman): supports not cut; the English Channel survives, North Sea does "
            "not."
        ),
    ),
    Case(
        id="6.F.25",
        title="CUT SUPPORT LAST",
        units=(
            "GER AMY RUH", "GER AMY HOL", "GER AMY DEN", "GER FLT SKA", "GER AMY FIN",
            "ENG AMY YOR", "ENG FLT NTH", "ENG FLT HEL", "ENG AMY BEL",
            "RUS FLT NWG", "RUS FLT NWY", "RUS FLT SWE",
        ),
        steps=(
            Step(
                orders=(
                    "(GER AMY RUH) MTO BEL",
                    "(GER AMY HOL) SUP (GER AMY RUH) MTO BEL",
                    "(GER AMY DEN) CTO NWY VIA (SKA)",
                    "(GER FLT SKA) CVY (GER AMY DEN) CTO NWY",
                    "(GER AMY FIN) SUP (GER AMY DEN) MTO NWY",
                    "(ENG AMY YOR) CTO HOL VIA (NTH)",
                    "(ENG FLT NTH) CVY (ENG AMY YOR) CTO HOL",
                    "(ENG FLT HEL) SUP (ENG AMY YOR) MTO HOL",
                    "(ENG AMY BEL) HLD",
                    "(RUS FLT NWG) MTO NTH",
                    "(RUS FLT NWY) SUP (RUS FLT NWG) MTO NTH",
                    "(RUS FLT SWE) MTO SKA",
                ),
                results={
                    "GER AMY RUH": "BNC",
                    "GER AMY HOL": "CUT RET",
                    "GER AMY DEN": "SUC",
                    "GER FLT SKA": "SUC",
                    "GER AMY FIN": "SUC",
                    "ENG AMY YOR": "SUC",
                    "ENG FLT NTH": "SUC",
                    "ENG FLT HEL": "SUC",
                    "ENG AMY BEL": "SUC",
                    "RUS FLT NWG": "BNC",
                    "RUS FLT NWY": "CUT RET",
                    "RUS FLT SWE": "BNC",
                },
                units_after=(
                    "GER AMY RUH", "GER AMY HOL MRT (KIE)", "GER AMY NWY", "GER FLT SKA",
                    "GER AMY FIN", "ENG AMY HOL", "ENG FLT NTH", "ENG FLT HEL", "ENG AMY BEL",
                    "RUS FLT NWG", "RUS FLT NWY MRT (BAR (STP NCS))", "RUS FLT SWE",
                ),
            ),
        ),
        note="Both convoyed armies also dislodge the supporting units they attack.",
    ),
    # ------------------------------------------------------------------
    # 6.G. CONVOYING TO ADJACENT PROVINCES
    # ------------------------------------------------------------------
    Case(
        id="6.G.1",
        title="TWO UNITS CAN SWAP PROVINCES BY CONVOY",
        units=("ENG AMY NWY", "ENG FLT SKA", "RUS AMY SWE"),
        steps=(
            Step(
                orders=(
                    "(ENG AMY NWY) MTO SWE",
                    "(ENG FLT SKA) CVY (ENG AMY NWY) CTO SWE",
                    "(RUS AMY SWE) MTO NWY",
                ),
                results={"ENG AMY NWY": "SUC", "ENG FLT SKA": "SUC", "RUS AMY SWE": "SUC"},
                units_after=("ENG AMY SWE", "ENG FLT SKA", "RUS AMY NWY"),
            ),
        ),
        note="4.A.3 d (Parlance default): an own fleet convoying the army shows the intent.",
    ),
    Case(
        id="6.G.2",
        title="KIDNAPPING AN ARMY",
        units=("ENG AMY NWY", "RUS FLT SWE", "GER FLT SKA"),
        steps=(
            Step(
                orders=(
                    "(ENG AMY NWY) MTO SWE",
                    "(RUS FLT SWE) MTO NWY",
                    "(GER FLT SKA) CVY (ENG AMY NWY) CTO SWE",
                ),
                results={"ENG AMY NWY": "BNC", "RUS FLT SWE": "BNC", "GER FLT SKA": "NSO"},
                units_after=("ENG AMY NWY", "RUS FLT SWE", "GER FLT SKA"),
            ),
        ),
        note="4.A.3 d: only a foreign fleet convoys, so no intent: head-to-head, both bounce.",
    ),
    Case(
        id="6.G.3",
        title="AN UNWANTED DISRUPTED CONVOY TO ADJACENT PROVINCE",
        units=("FRA FLT BRE", "FRA AMY PIC", "FRA AMY BUR", "FRA FLT MAO", "ENG FLT ECH"),
        steps=(
            Step(
                orders=(
                    "(FRA FLT BRE) MTO ECH",
                    "(FRA AMY PIC) MTO BEL",
                    "(FRA AMY BUR) SUP (FRA AMY PIC) MTO BEL",
                    "(FRA FLT MAO) SUP (FRA FLT BRE) MTO ECH",
                    "(ENG FLT ECH) CVY (FRA AMY PIC) CTO BEL",
                ),
                results={
                    "FRA FLT BRE": "SUC",
                    "FRA AMY PIC": "SUC",
                    "FRA AMY BUR": "SUC",
                    "FRA FLT MAO": "SUC",
                    "ENG FLT ECH": "NSO RET",
                },
                units_after=(
                    "FRA FLT ECH", "FRA AMY BEL", "FRA AMY BUR", "FRA FLT MAO",
                    "ENG FLT ECH MRT (IRI LON NTH PIC WAL)",
                ),
            ),
        ),
        note="4.A.3 d: no own fleet convoys, so the army goes overland.",
    ),
    Case(
        id="6.G.4",
        title="AN UNWANTED DISRUPTED CONVOY TO ADJACENT PROVINCE AND OPPOSITE MOVE",
        units=(
            "FRA FLT BRE", "FRA AMY PIC", "FRA AMY BUR", "FRA FLT MAO", "ENG FLT ECH",
            "ENG AMY BEL",
        ),
        steps=(
            Step(
                orders=(
                    "(FRA FLT BRE) MTO ECH",
                    "(FRA AMY PIC) MTO BEL",
                    "(FRA AMY BUR) SUP (FRA AMY PIC) MTO BEL",
                    "(FRA FLT MAO) SUP (FRA FLT BRE) MTO ECH",
                    "(ENG FLT ECH) CVY (FRA AMY PIC) CTO BEL",
                    "(ENG AMY BEL) MTO PIC",
                ),
                results={
                    "FRA FLT BRE": "SUC",
                    "FRA AMY PIC": "SUC",
                    "FRA AMY BUR": "SUC",
                    "FRA FLT MAO": "SUC",
                    "ENG FLT ECH": "NSO RET",
                    "ENG AMY BEL": "BNC RET",
                },
                units_after=(
                    "FRA FLT ECH", "FRA AMY BEL", "FRA AMY BUR", "FRA FLT MAO",
                    "ENG FLT ECH MRT (IRI LON NTH PIC WAL)", "ENG AMY BEL MRT (HOL RUH)",
                ),
            ),
        ),
        note="4.A.3 d: no own fleet convoys, so the army goes overland and wins the head-to-head.",
    ),
    Case(
        id="6.G.5",
        title="SWAPPING WITH MULTIPLE FLEETS WITH ONE OWN FLEET",
        units=("ITA AMY ROM", "ITA FLT TYS", "TUR AMY APU", "TUR FLT ION"),
        steps=(
            Step(
                orders=(
                    "(ITA AMY ROM) MTO APU",
                    "(ITA FLT TYS) CVY (TUR AMY APU) CTO ROM",
                    "(TUR AMY APU) MTO ROM",
                    "(TUR FLT ION) CVY (TUR AMY APU) CTO ROM",
                ),
                results={
                    "ITA AMY ROM": "SUC",
                    "ITA FLT TYS": "SUC",
                    "TUR AMY APU": "SUC",
                    "TUR FLT ION": "SUC",
                },
                units_after=("ITA AMY APU", "ITA FLT TYS", "TUR AMY ROM", "TUR FLT ION"),
            ),
        ),
        note="4.A.3 d: one own fleet suffices to show the intent.",
    ),
    Case(
        id="6.G.6",
        title="SWAPPING WITH UNINTENDED INTENT",
        units=(
            "ENG AMY LVP", "ENG FLT ECH", "GER AMY EDI", "FRA FLT IRI", "FRA FLT NTH",
            "RUS FLT NWG", "RUS FLT NAO",
        ),
        steps=(
            Step(
                orders=(
                    "(ENG AMY LVP) MTO EDI",
                    "(ENG FLT ECH) CVY (ENG AMY LVP) CTO EDI",
                    "(GER AMY EDI) MTO LVP",
                    "(FRA FLT IRI) HLD",
                    "(FRA FLT NTH) HLD",
                    "(RUS FLT NWG) CVY (ENG AMY LVP) CTO EDI",
                    "(RUS FLT NAO) CVY (ENG AMY LVP) CTO EDI",
                ),
                results={
                    "ENG AMY LVP": "SUC",
                    "ENG FLT ECH": "NSO",
                    "GER AMY EDI": "SUC",
                    "FRA FLT IRI": "SUC",
                    "FRA FLT NTH": "SUC",
                    "RUS FLT NWG": "SUC",
                    "RUS FLT NAO": "SUC",
                },
                units_after=(
                    "ENG AMY EDI", "ENG FLT ECH", "GER AMY LVP", "FRA FLT IRI", "FRA FLT NTH",
                    "RUS FLT NWG", "RUS FLT NAO",
                ),
            ),
        ),
        note="4.A.3 d: the English fleet's convoy order shows intent; the Russian route is used.",
    ),
    Case(
        id="6.G.7",
        title="SWAPPING WITH ILLEGAL INTENT",
        units=("ENG FLT SKA", "ENG FLT NWY", "RUS AMY SWE", "RUS FLT GOB"),
        steps=(
            Step(
                orders=(
                    "(ENG FLT SKA) CVY (RUS AMY SWE) CTO NWY",
                    "(ENG FLT NWY) MTO SWE",
                    "(RUS AMY SWE) MTO NWY",
                    "(RUS FLT GOB) CVY (RUS AMY SWE) CTO NWY",
                ),
                rejected={"(RUS FLT GOB) CVY (RUS AMY SWE) CTO NWY": "FAR"},
                results={
                    "ENG FLT SKA": "NSO",
                    "ENG FLT NWY": "BNC",
                    "RUS AMY SWE": "BNC",
                    "RUS FLT GOB": "SUC",
                },
                units_after=("ENG FLT SKA", "ENG FLT NWY", "RUS AMY SWE", "RUS FLT GOB"),
            ),
        ),
        note="4.A.3 d and 4.E.1 d: the impossible convoy is refused (FAR), so no intent.",
    ),
    Case(
        id="6.G.8",
        title="EXPLICIT CONVOY THAT ISN'T THERE",
        units=("FRA AMY BEL", "ENG FLT NTH", "ENG AMY HOL"),
        steps=(
            Step(
                orders=(
                    "(FRA AMY BEL) CTO HOL VIA (NTH)",
                    "(ENG FLT NTH) MTO HEL",
                    "(ENG AMY HOL) MTO KIE",
                ),
                results={"FRA AMY BEL": "NSO", "ENG FLT NTH": "SUC", "ENG AMY HOL": "SUC"},
                units_after=("FRA AMY BEL", "ENG FLT HEL", "ENG AMY KIE"),
            ),
        ),
        note="No fallback to the land route (DATC 3.0 preference, Parlance): the move fails (NSO).",
    ),
    Case(
        id="6.G.9",
        title="SWAPPED OR DISLODGED?",
        units=("ENG AMY NWY", "ENG FLT SKA", "ENG FLT FIN", "RUS AMY SWE"),
        steps=(
            Step(
                orders=(
                    "(ENG AMY NWY) MTO SWE",
                    "(ENG FLT SKA) CVY (ENG AMY NWY) CTO SWE",
                    "(ENG FLT FIN) SUP (ENG AMY NWY) MTO SWE",
                    "(RUS AMY SWE) MTO NWY",
                ),
                results={
                    "ENG AMY NWY": "SUC",
                    "ENG FLT SKA": "SUC",
                    "ENG FLT FIN": "SUC",
                    "RUS AMY SWE": "SUC",
                },
                units_after=("ENG AMY SWE", "ENG FLT SKA", "ENG FLT FIN", "RUS AMY NWY"),
            ),
        ),
        note="4.A.3 d: the move goes by convoy and the armies swap.",
    ),
    Case(
        id="6.G.10",
        title="SWAPPED OR AN HEAD-TO-HEAD BATTLE?",
        units=(
            "ENG AMY NWY", "ENG FLT DEN", "ENG FLT FIN", "GER FLT SKA", "RUS AMY SWE",
            "RUS FLT BAR", "FRA FLT NWG", "FRA FLT NTH",
        ),
        steps=(
            Step(
                orders=(
                    "(ENG AMY NWY) CTO SWE VIA (SKA)",
                    "(ENG FLT DEN) SUP (ENG AMY NWY) MTO SWE",
                    "(ENG FLT FIN) SUP (ENG AMY NWY) MTO SWE",
                    "(GER FLT SKA) CVY (ENG AMY NWY) CTO SWE",
                    "(RUS AMY SWE) MTO NWY",
                    "(RUS FLT BAR) SUP (RUS AMY SWE) MTO NWY",
                    "(FRA FLT NWG) MTO NWY",
                    "(FRA FLT NTH) SUP (FRA FLT NWG) MTO NWY",
                ),
                results={
                    "ENG AMY NWY": "SUC",
                    "ENG FLT DEN": "SUC",
                    "ENG FLT FIN": "SUC",
                    "GER FLT SKA": "SUC",
                    "RUS AMY SWE": "BNC RET",
                    "RUS FLT BAR": "SUC",
                    "FRA FLT NWG": "BNC",
                    "FRA FLT NTH": "SUC",
                },
                units_after=(
                    "ENG AMY SWE", "ENG FLT DEN", "ENG FLT FIN", "GER FLT SKA",
                    "RUS AMY SWE MRT ()", "RUS FLT BAR", "FRA FLT NWG", "FRA FLT NTH",
                ),
            ),
        ),
        note="4.A.7 b (DATC preference, the only choice Parlance supports): the fleet bounces.",
    ),
    Case(
        id="6.G.11",
        title="A CONVOY TO AN ADJACENT PROVINCE WITH A PARADOX",
        units=("ENG FLT NWY", "ENG FLT NTH", "RUS AMY SWE", "RUS FLT SKA", "RUS FLT BAR"),
        steps=(
            Step(
                orders=(
                    "(ENG FLT NWY) SUP (ENG FLT NTH) MTO SKA",
                    "(ENG FLT NTH) MTO SKA",
                    "(RUS AMY SWE) MTO NWY",
                    "(RUS FLT SKA) CVY (RUS AMY SWE) CTO NWY",
                    "(RUS FLT BAR) SUP (RUS AMY SWE) MTO NWY",
                ),
                results={
                    "ENG FLT NWY": "SUC",
                    "ENG FLT NTH": "SUC",
                    "RUS AMY SWE": "DSR",
                    "RUS FLT SKA": "DSR RET",
                    "RUS FLT BAR": "SUC",
                },
                units_after=(
                    "ENG FLT NWY", "ENG FLT SKA", "RUS AMY SWE", "RUS FLT SKA MRT (DEN)",
                    "RUS FLT BAR",
                ),
            ),
        ),
        note="4.A.3 d without land fallback and 4.A.2 d (Szykman): the DATC 3.0 preference.",
    ),
    Case(
        id="6.G.12",
        title="SWAPPING TWO UNITS WITH TWO CONVOYS",
        units=(
            "ENG AMY LVP", "ENG FLT NAO", "ENG FLT NWG", "GER AMY EDI", "GER FLT NTH",
            "GER FLT ECH", "GER FLT IRI",
        ),
        steps=(
            Step(
                orders=(
                    "(ENG AMY LVP) CTO EDI VIA (NAO NWG)",
                    "(ENG FLT NAO) CVY (ENG AMY LVP) CTO EDI",
                    "(ENG FLT NWG) CVY (ENG AMY LVP) CTO EDI",
                    "(GER AMY EDI) CTO LVP VIA (NTH ECH IRI)",
                    "(GER FLT NTH) CVY (GER AMY EDI) CTO LVP",
                    "(GER FLT ECH) CVY (GER AMY EDI) CTO LVP",
                    "(GER FLT IRI) CVY (GER AMY EDI) CTO LVP",
                ),
                results={
                    "ENG AMY LVP": "SUC",
                    "ENG FLT NAO": "SUC",
                    "ENG FLT NWG": "SUC",
                    "GER AMY EDI": "SUC",
                    "GER FLT NTH": "SUC",
                    "GER FLT ECH": "SUC",
                    "GER FLT IRI": "SUC",
                },
                units_after=(
                    "ENG AMY EDI", "ENG FLT NAO", "ENG FLT NWG", "GER AMY LVP", "GER FLT NTH",
                    "GER FLT ECH", "GER FLT IRI",
                ),
            ),
        ),
    ),
    Case(
        id="6.G.13",
        title="SUPPORT CUT ON ATTACK ON ITSELF VIA CONVOY",
        units=("AUS FLT ADR", "AUS AMY TRI", "ITA AMY VEN", "ITA FLT ALB"),
        steps=(
            Step(
                orders=(
                    "(AUS FLT ADR) CVY (AUS AMY TRI) CTO VEN",
                    "(AUS AMY TRI) CTO VEN VIA (ADR)",
                    "(ITA AMY VEN) SUP (ITA FLT ALB) MTO TRI",
                    "(ITA FLT ALB) MTO TRI",
                ),
                results={
                    "AUS FLT ADR": "BNC",
                    "AUS AMY TRI": "BNC RET",
                    "ITA AMY VEN": "SUC",
                    "ITA FLT ALB": "SUC",
                },
                units_after=(
                    "AUS FLT ADR", "AUS AMY TRI MRT (BUD SER TYR VIE)", "ITA AMY VEN",
                    "ITA FLT TRI",
                ),
            ),
        ),
        note="4.A.4 a (DATC preference, Parlance default): the support is not cut.",
    ),
    Case(
        id="6.G.14",
        title="BOUNCE BY CONVOY TO ADJACENT PROVINCE",
        units=(
            "ENG AMY NWY", "ENG FLT DEN", "ENG FLT FIN", "FRA FLT NWG", "FRA FLT NTH",
            "GER FLT SKA", "RUS AMY SWE", "RUS FLT BAR",
        ),
        steps=(
            Step(
                orders=(
                    "(ENG AMY NWY) MTO SWE",
                    "(ENG FLT DEN) SUP (ENG AMY NWY) MTO SWE",
                    "(ENG FLT FIN) SUP (ENG AMY NWY) MTO SWE",
                    "(FRA FLT NWG) MTO NWY",
                    "(FRA FLT NTH) SUP (FRA FLT NWG) MTO NWY",
                    "(GER FLT SKA) CVY (RUS AMY SWE) CTO NWY",
                    "(RUS AMY SWE) CTO NWY VIA (SKA)",
                    "(RUS FLT BAR) SUP (RUS AMY SWE) MTO NWY",
                ),
                results={
                    "ENG AMY NWY": "SUC",
                    "ENG FLT DEN": "SUC",
                    "ENG FLT FIN": "SUC",
                    "FRA FLT NWG": "BNC",
                    "FRA FLT NTH": "SUC",
                    "GER FLT SKA": "BNC",
                    "RUS AMY SWE": "BNC RET",
                    "RUS FLT BAR": "SUC",
                },
                units_after=(
                    "ENG AMY SWE", "ENG FLT DEN", "ENG FLT FIN", "FRA FLT NWG", "FRA FLT NTH",
                    "GER FLT SKA", "RUS AMY SWE MRT ()", "RUS FLT BAR",
                ),
            ),
        ),
        note="4.A.7 b (DATC preference, Parlance): the fleet bounces and stays.",
    ),
    Case(
        id="6.G.15",
        title="BOUNCE AND DISLODGE WITH DOUBLE CONVOY",
        units=(
            "ENG FLT NTH", "ENG AMY HOL", "ENG AMY YOR", "ENG AMY LON", "FRA FLT ECH",
            "FRA AMY BEL",
        ),
        steps=(
            Step(
                orders=(
                    "(ENG FLT NTH) CVY (ENG AMY LON) CTO BEL",
                    "(ENG AMY HOL) SUP (ENG AMY LON) MTO BEL",
                    "(ENG AMY YOR) MTO LON",
                    "(ENG AMY LON) CTO BEL VIA (NTH)",
                    "(FRA FLT ECH) CVY (FRA AMY BEL) CTO LON",
                    "(FRA AMY BEL) CTO LON VIA (ECH)",
                ),
                results={
                    "ENG FLT NTH": "SUC",
                    "ENG AMY HOL": "SUC",
                    "ENG AMY YOR": "BNC",
                    "ENG AMY LON": "SUC",
                    "FRA FLT ECH": "BNC",
                    "FRA AMY BEL": "BNC RET",
                },
                units_after=(
                    "ENG FLT NTH", "ENG AMY HOL", "ENG AMY YOR", "ENG AMY BEL", "FRA FLT ECH",
                    "FRA AMY BEL MRT (BUR PIC RUH)",
                ),
            ),
        ),
        note="4.A.7 b (DATC preference, Parlance): the army from Yorkshire bounces.",
    ),
    Case(
        id="6.G.16",
        title="THE TWO UNIT IN ONE AREA BUG, MOVING BY CONVOY",
        units=(
            "ENG AMY NWY", "ENG AMY DEN", "ENG FLT BAL", "ENG FLT NTH",
            "RUS AMY SWE", "RUS FLT SKA", "RUS FLT NWG",
        ),
        steps=(
            Step(
                orders=(
                    "(ENG AMY NWY) MTO SWE",
                    "(ENG AMY DEN) SUP (ENG AMY NWY) MTO SWE",
                    "(ENG FLT BAL) SUP (ENG AMY NWY) MTO SWE",
                    "(ENG FLT NTH) MTO NWY",
                    "(RUS AMY SWE) CTO NWY VIA (SKA)",
                    "(RUS FLT SKA) CVY (RUS AMY SWE) CTO NWY",
                    "(RUS FLT NWG) SUP (RUS AMY SWE) MTO NWY",
                ),
                results={
                    "ENG AMY NWY": "SUC",
                    "ENG AMY DEN": "SUC",
                    "ENG FLT BAL": "SUC",
                    "ENG FLT NTH": "BNC",
                    "RUS AMY SWE": "SUC",
                    "RUS FLT SKA": "SUC",
                    "RUS FLT NWG": "SUC",
                },
                units_after=(
                    "ENG AMY SWE", "ENG AMY DEN", "ENG FLT BAL", "ENG FLT NTH",
                    "RUS AMY NWY", "RUS FLT SKA", "RUS FLT NWG",
                ),
            ),
        ),
    ),
    Case(
        id="6.G.17",
        title="THE TWO UNIT IN ONE AREA BUG, MOVING OVER LAND",
        units=(
            "ENG AMY NWY", "ENG AMY DEN", "ENG FLT BAL", "ENG FLT SKA", "ENG FLT NTH",
            "RUS AMY SWE", "RUS FLT NWG",
        ),
        steps=(
            Step(
                orders=(
                    "(ENG AMY NWY) CTO SWE VIA (SKA)",
                    "(ENG AMY DEN) SUP (ENG AMY NWY) MTO SWE",
                    "(ENG FLT BAL) SUP (ENG AMY NWY) MTO SWE",
                    "(ENG FLT SKA) CVY (ENG AMY NWY) CTO SWE",
                    "(ENG FLT NTH) MTO NWY",
                    "(RUS AMY SWE) MTO NWY",
                    "(RUS FLT NWG) SUP (RUS AMY SWE) MTO NWY",
                ),
                results={
                    "ENG AMY NWY": "SUC",
                    "ENG AMY DEN": "SUC",
                    "ENG FLT BAL": "SUC",
                    "ENG FLT SKA": "SUC",
                    "ENG FLT NTH": "BNC",
                    "RUS AMY SWE": "SUC",
                    "RUS FLT NWG": "SUC",
                },
                units_after=(
                    "ENG AMY SWE", "ENG AMY DEN", "ENG FLT BAL", "ENG FLT SKA", "ENG FLT NTH",
                    "RUS AMY NWY", "RUS FLT NWG",
                ),
            ),
        ),
    ),
    Case(
        id="6.G.18",
        title="THE TWO UNIT IN ONE AREA BUG, WITH DOUBLE CONVOY",
        units=(
            "ENG FLT NTH", "ENG AMY HOL", "ENG AMY YOR", "ENG AMY LON", "ENG AMY RUH",
            "FRA FLT ECH", "FRA AMY BEL", "FRA AMY WAL",
        ),
        steps=(
            Step(
                orders=(
                    "(ENG FLT NTH) CVY (ENG AMY LON) CTO BEL",
                    "(ENG AMY HOL) SUP (ENG AMY LON) MTO BEL",
                    "(ENG AMY YOR) MTO LON",
                    "(ENG AMY LON) CTO BEL VIA (NTH)",
                    "(ENG AMY RUH) SUP (ENG AMY LON) MTO BEL",
                    "(FRA FLT ECH) CVY (FRA AMY BEL) CTO LON",
                    "(FRA AMY BEL) CTO LON VIA (ECH)",
                    "(FRA AMY WAL) SUP (FRA AMY BEL) MTO LON",
                ),
                results={
                    "ENG FLT NTH": "SUC",
                    "ENG AMY HOL": "SUC",
                    "ENG AMY YOR": "BNC",
                    "ENG AMY LON": "SUC",
                    "ENG AMY RUH": "SUC",
                    "FRA FLT ECH": "SUC",
                    "FRA AMY BEL": "SUC",
                    "FRA AMY WAL": "SUC",
                },
                units_after=(
                    "ENG FLT NTH", "ENG AMY HOL", "ENG AMY YOR", "ENG AMY BEL", "ENG AMY RUH",
                    "FRA FLT ECH", "FRA AMY LON", "FRA AMY WAL",
                ),
            ),
        ),
    ),
    Case(
        id="6.G.19",
        title="SWAPPING WITH INTENT OF UNNECESSARY CONVOY",
        units=("FRA AMY MAR", "FRA FLT WES", "ITA FLT GOL", "ITA AMY SPA"),
        steps=(
            Step(
                orders=(
                    "(FRA AMY MAR) MTO SPA",
                    "(FRA FLT WES) CVY (FRA AMY MAR) CTO SPA",
                    "(ITA FLT GOL) CVY (FRA AMY MAR) CTO SPA",
                    "(ITA AMY SPA) MTO MAR",
                ),
                results={
                    "FRA AMY MAR": "SUC",
                    "FRA FLT WES": "NSO",
                    "ITA FLT GOL": "SUC",
                    "ITA AMY SPA": "SUC",
                },
                units_after=("FRA AMY SPA", "FRA FLT WES", "ITA FLT GOL", "ITA AMY MAR"),
            ),
        ),
        note=(
            "DATC options (issues 4.A.3 and 4.E.1): the DATC prefers to call the French "
            "convoy order illegal, because Western Med lies only on a detour "
            "(Marseilles-Gulf of Lyon-Western Med-Spain) and is necessary for no route; "
            "then nothing shows intent and both armies bounce. Parlance, like the 1971 "
            "reading, takes any convoy order on some route as legal (MBV), so France's own "
            "fleet shows the intent to convoy (4.A.3 d): the army goes by convoy through "
            "the Gulf of Lyon and the two armies swap. The row follows Parlance; the "
            "unused French fleet reports NSO."
        ),
    ),
    Case(
        id="6.G.20",
        title="EXPLICIT CONVOY TO ADJACENT PROVINCE DISRUPTED",
        units=("FRA FLT BRE", "FRA AMY PIC", "FRA AMY BUR", "FRA FLT MAO", "ENG FLT ECH"),
        steps=(
            Step(
                orders=(
                    "(FRA FLT BRE) MTO ECH",
                    "(FRA AMY PIC) CTO BEL VIA (ECH)",
                    "(FRA AMY BUR) SUP (FRA AMY PIC) MTO BEL",
                    "(FRA FLT MAO) SUP (FRA FLT BRE) MTO ECH",
                    "(ENG FLT ECH) CVY (FRA AMY PIC) CTO BEL",
                ),
                results={
                    "FRA FLT BRE": "SUC",
                    "FRA AMY PIC": "DSR",
                    "FRA AMY BUR": "SUC",
                    "FRA FLT MAO": "SUC",
                    "ENG FLT ECH": "DSR RET",
                },
                units_after=(
                    "FRA FLT ECH", "FRA AMY PIC", "FRA AMY BUR", "FRA FLT MAO",
                    "ENG FLT ECH MRT (BEL IRI LON NTH WAL)",
                ),
            ),
        ),
        note="No fallback to the land route (DATC 3.0 preference, Parlance): the move fails (DSR).",
    ),
    # ------------------------------------------------------------------
    # 6.H. RETREATING
    # ------------------------------------------------------------------
    Case(
        id="6.H.1",
        title="NO SUPPORTS DURING RETREAT",
        units=(
            "AUS FLT TRI", "AUS AMY SER", "TUR FLT GRE",
            "ITA AMY VEN", "ITA AMY TYR", "ITA FLT ION", "ITA FLT AEG",
        ),
        steps=(
            Step(
                orders=(
                    "(AUS FLT TRI) HLD",
                    "(AUS AMY SER) HLD",
                    "(TUR FLT GRE) HLD",
                    "(ITA AMY VEN) SUP (ITA AMY TYR) MTO TRI",
                    "(ITA AMY TYR) MTO TRI",
                    "(ITA FLT ION) MTO GRE",
                    "(ITA FLT AEG) SUP (ITA FLT ION) MTO GRE",
                ),
                results={
                    "AUS FLT TRI": "RET",
                    "AUS AMY SER": "SUC",
                    "TUR FLT GRE": "RET",
                    "ITA AMY VEN": "SUC",
                    "ITA AMY TYR": "SUC",
                    "ITA FLT ION": "SUC",
                    "ITA FLT AEG": "SUC",
                },
                units_after=(
                    "AUS FLT TRI MRT (ADR ALB)", "AUS AMY SER", "TUR FLT GRE MRT (ALB (BUL SCS))",
                    "ITA AMY VEN", "ITA AMY TRI", "ITA FLT GRE", "ITA FLT AEG",
                ),
            ),
            Step(
                orders=(
                    "(AUS FLT TRI) RTO ALB",
                    "(AUS AMY SER) SUP (AUS FLT TRI) MTO ALB",
                    "(TUR FLT GRE) RTO ALB",
                ),
                rejected={"(AUS AMY SER) SUP (AUS FLT TRI) MTO ALB": "NRS"},
                results={"AUS FLT TRI": "BNC", "TUR FLT GRE": "BNC"},
                units_after=(
                    "AUS AMY SER", "ITA AMY VEN", "ITA AMY TRI", "ITA FLT GRE", "ITA FLT AEG",
                ),
            ),
        ),
        note="The support is refused in the retreat phase (NRS: not the right season).",
    ),
    Case(
        id="6.H.2",
        title="NO SUPPORTS FROM RETREATING UNIT",
        units=(
            "ENG AMY LVP", "ENG FLT YOR", "ENG FLT NWY", "GER AMY KIE", "GER AMY RUH",
            "RUS FLT EDI", "RUS AMY SWE", "RUS AMY FIN", "RUS FLT HOL",
        ),
        steps=(
            Step(
                orders=(
                    "(ENG AMY LVP) MTO EDI",
                    "(ENG FLT YOR) SUP (ENG AMY LVP) MTO EDI",
                    "(ENG FLT NWY) HLD",
                    "(GER AMY KIE) SUP (GER AMY RUH) MTO HOL",
                    "(GER AMY RUH) MTO HOL",
                    "(RUS FLT EDI) HLD",
                    "(RUS AMY SWE) SUP (RUS AMY FIN) MTO NWY",
                    "(RUS AMY FIN) MTO NWY",
                    "(RUS FLT HOL) HLD",
                ),
                results={
                    "ENG AMY LVP": "SUC",
                    "ENG FLT NWY": "RET",
                    "GER AMY RUH": "SUC",
                    "RUS FLT EDI": "RET",
                    "RUS AMY FIN": "SUC",
                    "RUS FLT HOL": "RET",
                },
                units_after=(
                    "ENG AMY EDI", "ENG FLT YOR", "ENG FLT NWY MRT (BAR NTH NWG SKA (STP NCS))",
                    "GER AMY KIE", "GER AMY HOL",
                    "RUS FLT EDI MRT (CLY NTH NWG)", "RUS AMY SWE", "RUS AMY NWY",
                    "RUS FLT HOL MRT (BEL HEL NTH)",
                ),
            ),
            Step(
                orders=(
                    "(ENG FLT NWY) RTO NTH",
                    "(RUS FLT EDI) RTO NTH",
                    "(RUS FLT HOL) SUP (RUS FLT EDI) MTO NTH",
                ),
                rejected={"(RUS FLT HOL) SUP (RUS FLT EDI) MTO NTH": "NRS"},
                results={"ENG FLT NWY": "BNC", "RUS FLT EDI": "BNC", "RUS FLT HOL": "SUC"},
                units_after=(
                    "ENG AMY EDI", "ENG FLT YOR", "GER AMY KIE", "GER AMY HOL",
                    "RUS AMY SWE", "RUS AMY NWY",
                ),
            ),
        ),
        note=(
            "The support is refused (NRS); the Dutch fleet, left without a valid order, "
            "is disbanded (ORD DSB SUC)."
        ),
    ),
    Case(
        id="6.H.3",
        title="NO CONVOY DURING RETREAT",
        units=("ENG FLT NTH", "ENG AMY HOL", "GER FLT KIE", "GER AMY RUH"),
        steps=(
            Step(
                orders=(
                    "(ENG FLT NTH) HLD",
                    "(ENG AMY HOL) HLD",
                    "(GER FLT KIE) SUP (GER AMY RUH) MTO HOL",
                    "(GER AMY RUH) MTO HOL",
                ),
                results={
                    "ENG FLT NTH": "SUC",
                    "ENG AMY HOL": "RET",
                    "GER FLT KIE": "SUC",
                    "GER AMY RUH": "SUC",
                },
                units_after=("ENG FLT NTH", "ENG AMY HOL MRT (BEL)", "GER FLT KIE", "GER AMY HOL"),
            ),
            Step(
                orders=(
                    "(ENG AMY HOL) RTO YOR",
                    "(ENG FLT NTH) CVY (ENG AMY HOL) CTO YOR",
                ),
                rejected={
                    "(ENG AMY HOL) RTO YOR": "NVR",
                    "(ENG FLT NTH) CVY (ENG AMY HOL) CTO YOR": "NRS",
                },
                results={"ENG AMY HOL": "SUC"},
                units_after=("ENG FLT NTH", "GER FLT KIE", "GER AMY HOL"),
            ),
        ),
        note="Both orders are refused; the army, without a valid order, is disbanded (DSB SUC).",
    ),
    Case(
        id="6.H.4",
        title="NO OTHER MOVES DURING RETREAT",
        units=("ENG FLT NTH", "ENG AMY HOL", "GER FLT KIE", "GER AMY RUH"),
        steps=(
            Step(
                orders=(
                    "(ENG FLT NTH) HLD",
                    "(ENG AMY HOL) HLD",
                    "(GER FLT KIE) SUP (GER AMY RUH) MTO HOL",
                    "(GER AMY RUH) MTO HOL",
                ),
                results={
                    "ENG FLT NTH": "SUC",
                    "ENG AMY HOL": "RET",
                    "GER FLT KIE": "SUC",
                    "GER AMY RUH": "SUC",
                },
                units_after=("ENG FLT NTH", "ENG AMY HOL MRT (BEL)", "GER FLT KIE", "GER AMY HOL"),
            ),
            Step(
                orders=("(ENG AMY HOL) RTO BEL", "(ENG FLT NTH) RTO NWG"),
                rejected={"(ENG FLT NTH) RTO NWG": "NRN"},
                results={"ENG AMY HOL": "SUC"},
                units_after=("ENG FLT NTH", "ENG AMY BEL", "GER FLT KIE", "GER AMY HOL"),
            ),
        ),
        note="The fleet needs no retreat (NRN); the army's legal retreat to Belgium succeeds.",
    ),
    Case(
        id="6.H.5",
        title="A UNIT MAY NOT RETREAT TO THE AREA FROM WHICH IT IS ATTACKED",
        units=("RUS FLT CON", "RUS FLT BLA", "TUR FLT ANK"),
        steps=(
            Step(
                orders=(
                    "(RUS FLT CON) SUP (RUS FLT BLA) MTO ANK",
                    "(RUS FLT BLA) MTO ANK",
                    "(TUR FLT ANK) HLD",
                ),
                results={"RUS FLT CON": "SUC", "RUS FLT BLA": "SUC", "TUR FLT ANK": "RET"},
                units_after=("RUS FLT CON", "RUS FLT ANK", "TUR FLT ANK MRT (ARM)"),
            ),
            Step(
                orders=("(TUR FLT ANK) RTO BLA",),
                rejected={"(TUR FLT ANK) RTO BLA": "NVR"},
                results={"TUR FLT ANK": "SUC"},
                units_after=("RUS FLT CON", "RUS FLT ANK"),
            ),
        ),
        note=(
            "A retreat step was added: the retreat to the Black Sea is refused (NVR) and the fleet"
            " disbanded."
        ),
    ),
    Case(
        id="6.H.6",
        title="UNIT MAY NOT RETREAT TO A CONTESTED AREA",
        units=("AUS AMY BUD", "AUS AMY TRI", "GER AMY MUN", "GER AMY SIL", "ITA AMY VIE"),
        steps=(
            Step(
                orders=(
                    "(AUS AMY BUD) SUP (AUS AMY TRI) MTO VIE",
                    "(AUS AMY TRI) MTO VIE",
                    "(GER AMY MUN) MTO BOH",
                    "(GER AMY SIL) MTO BOH",
                    "(ITA AMY VIE) HLD",
                ),
                results={
                    "AUS AMY BUD": "SUC",
                    "AUS AMY TRI": "SUC",
                    "GER AMY MUN": "BNC",
                    "GER AMY SIL": "BNC",
                    "ITA AMY VIE": "RET",
                },
                units_after=(
                    "AUS AMY BUD", "AUS AMY VIE", "GER AMY MUN", "GER AMY SIL",
                    "ITA AMY VIE MRT (GAL TYR)",
                ),
            ),
            Step(
                orders=("(ITA AMY VIE) RTO BOH",),
                rejected={"(ITA AMY VIE) RTO BOH": "NVR"},
                results={"ITA AMY VIE": "SUC"},
                units_after=("AUS AMY BUD", "AUS AMY VIE", "GER AMY MUN", "GER AMY SIL"),
            ),
        ),
        note=(
            "A retreat step was added: the retreat to Bohemia is refused (NVR) and the army "
            "disbanded."
        ),
    ),
    Case(
        id="6.H.7",
        title="MULTIPLE RETREAT TO SAME AREA WILL DISBAND UNITS",
        units=(
            "AUS AMY BUD", "AUS AMY TRI", "GER AMY MUN", "GER AMY SIL",
            "ITA AMY VIE", "ITA AMY BOH",
        ),
        steps=(
            Step(
                orders=(
                    "(AUS AMY BUD) SUP (AUS AMY TRI) MTO VIE",
                    "(AUS AMY TRI) MTO VIE",
                    "(GER AMY MUN) SUP (GER AMY SIL) MTO BOH",
                    "(GER AMY SIL) MTO BOH",
                    "(ITA AMY VIE) HLD",
                    "(ITA AMY BOH) HLD",
                ),
                results={
                    "AUS AMY BUD": "SUC",
                    "AUS AMY TRI": "SUC",
                    "GER AMY MUN": "SUC",
                    "GER AMY SIL": "SUC",
                    "ITA AMY VIE": "RET",
                    "ITA AMY BOH": "RET",
                },
                units_after=(
                    "AUS AMY BUD", "AUS AMY VIE", "GER AMY MUN", "GER AMY BOH",
                    "ITA AMY VIE MRT (GAL TYR)", "ITA AMY BOH MRT (GAL TYR)",
                ),
            ),
            Step(
                orders=("(ITA AMY BOH) RTO TYR", "(ITA AMY VIE) RTO TYR"),
                results={"ITA AMY BOH": "BNC", "ITA AMY VIE": "BNC"},
                units_after=("AUS AMY BUD", "AUS AMY VIE", "GER AMY MUN", "GER AMY BOH"),
            ),
        ),
    ),
    Case(
        id="6.H.8",
        title="TRIPLE RETREAT TO SAME AREA WILL DISBAND UNITS",
        units=(
            "ENG AMY LVP", "ENG FLT YOR", "ENG FLT NWY", "GER AMY KIE", "GER AMY RUH",
            "RUS FLT EDI", "RUS AMY SWE", "RUS AMY FIN", "RUS FLT HOL",
        ),
        steps=(
            Step(
                orders=(
                    "(ENG AMY LVP) MTO EDI",
                    "(ENG FLT YOR) SUP (ENG AMY LVP) MTO EDI",
                    "(ENG FLT NWY) HLD",
                    "(GER AMY KIE) SUP (GER AMY RUH) MTO HOL",
                    "(GER AMY RUH) MTO HOL",
                    "(RUS FLT EDI) HLD",
                    "(RUS AMY SWE) SUP (RUS AMY FIN) MTO NWY",
                    "(RUS AMY FIN) MTO NWY",
                    "(RUS FLT HOL) HLD",
                ),
                results={"ENG FLT NWY": "RET", "RUS FLT EDI": "RET", "RUS FLT HOL": "RET"},
                units_after=(
                    "ENG AMY EDI", "ENG FLT YOR", "ENG FLT NWY MRT (BAR NTH NWG SKA (STP NCS))",
                    "GER AMY KIE", "GER AMY HOL",
                    "RUS FLT EDI MRT (CLY NTH NWG)", "RUS AMY SWE", "RUS AMY NWY",
                    "RUS FLT HOL MRT (BEL HEL NTH)",
                ),
            ),
            Step(
                orders=(
                    "(ENG FLT NWY) RTO NTH",
                    "(RUS FLT EDI) RTO NTH",
                    "(RUS FLT HOL) RTO NTH",
                ),
                results={"ENG FLT NWY": "BNC", "RUS FLT EDI": "BNC", "RUS FLT HOL": "BNC"},
                units_after=(
                    "ENG AMY EDI", "ENG FLT YOR", "GER AMY KIE", "GER AMY HOL",
                    "RUS AMY SWE", "RUS AMY NWY",
                ),
            ),
        ),
    ),
    Case(
        id="6.H.9",
        title="DISLODGED UNIT WILL NOT MAKE ATTACKERS AREA CONTESTED",
        units=(
            "ENG FLT HEL", "ENG FLT DEN", "GER AMY BER", "GER FLT KIE", "GER AMY SIL",
            "RUS AMY PRU",
        ),
        steps=(
            Step(
                orders=(
                    "(ENG FLT HEL) MTO KIE",
                    "(ENG FLT DEN) SUP (ENG FLT HEL) MTO KIE",
                    "(GER AMY BER) MTO PRU",
                    "(GER FLT KIE) HLD",
                    "(GER AMY SIL) SUP (GER AMY BER) MTO PRU",
                    "(RUS AMY PRU) MTO BER",
                ),
                results={
                    "ENG FLT HEL": "SUC",
                    "ENG FLT DEN": "SUC",
                    "GER AMY BER": "SUC",
                    "GER FLT KIE": "RET",
                    "GER AMY SIL": "SUC",
                    "RUS AMY PRU": "BNC RET",
                },
                units_after=(
                    "ENG FLT KIE", "ENG FLT DEN", "GER AMY PRU", "GER FLT KIE MRT (BAL BER HOL)",
                    "GER AMY SIL", "RUS AMY PRU MRT (LVN WAR)",
                ),
            ),
            Step(
                orders=("(GER FLT KIE) RTO BER",),
                results={"GER FLT KIE": "SUC", "RUS AMY PRU": "SUC"},
                units_after=(
                    "ENG FLT KIE", "ENG FLT DEN", "GER AMY PRU", "GER FLT BER", "GER AMY SIL",
                ),
            ),
        ),
        note="The Russian army gets no retreat order and is disbanded (ORD DSB SUC).",
    ),
    Case(
        id="6.H.10",
        title="NOT RETREATING TO ATTACKER DOES NOT MEAN CONTESTED",
        units=(
            "ENG AMY KIE", "GER AMY BER", "GER AMY MUN", "GER AMY PRU", "RUS AMY WAR",
            "RUS AMY SIL",
        ),
        steps=(
            Step(
                orders=(
                    "(ENG AMY KIE) HLD",
                    "(GER AMY BER) MTO KIE",
                    "(GER AMY MUN) SUP (GER AMY BER) MTO KIE",
                    "(GER AMY PRU) HLD",
                    "(RUS AMY WAR) MTO PRU",
                    "(RUS AMY SIL) SUP (RUS AMY WAR) MTO PRU",
                ),
                results={
                    "ENG AMY KIE": "RET",
                    "GER AMY BER": "SUC",
                    "GER AMY MUN": "SUC",
                    "GER AMY PRU": "RET",
                    "RUS AMY WAR": "SUC",
                    "RUS AMY SIL": "SUC",
                },
                units_after=(
                    "ENG AMY KIE MRT (DEN HOL RUH)", "GER AMY KIE", "GER AMY MUN",
                    "GER AMY PRU MRT (BER LVN)", "RUS AMY PRU", "RUS AMY SIL",
                ),
            ),
            Step(
                orders=("(ENG AMY KIE) RTO BER", "(GER AMY PRU) RTO BER"),
                rejected={"(ENG AMY KIE) RTO BER": "NVR"},
                results={"ENG AMY KIE": "SUC", "GER AMY PRU": "SUC"},
                units_after=(
                    "GER AMY KIE", "GER AMY MUN", "GER AMY BER", "RUS AMY PRU", "RUS AMY SIL",
                ),
            ),
        ),
        note="The English retreat is refused (NVR) and the army disbanded (DSB SUC).",
    ),
    Case(
        id="6.H.11",
        title="RETREAT WHEN DISLODGED BY ADJACENT CONVOY",
        units=(
            "FRA AMY GAS", "FRA AMY BUR", "FRA FLT MAO", "FRA FLT WES", "FRA FLT GOL",
            "ITA AMY MAR",
        ),
        steps=(
            Step(
                orders=(
                    "(FRA AMY GAS) CTO MAR VIA (MAO WES GOL)",
                    "(FRA AMY BUR) SUP (FRA AMY GAS) MTO MAR",
                    "(FRA FLT MAO) CVY (FRA AMY GAS) CTO MAR",
                    "(FRA FLT WES) CVY (FRA AMY GAS) CTO MAR",
                    "(FRA FLT GOL) CVY (FRA AMY GAS) CTO MAR",
                    "(ITA AMY MAR) HLD",
                ),
                results={
                    "FRA AMY GAS": "SUC",
                    "FRA AMY BUR": "SUC",
                    "FRA FLT MAO": "SUC",
                    "FRA FLT WES": "SUC",
                    "FRA FLT GOL": "SUC",
                    "ITA AMY MAR": "RET",
                },
                units_after=(
                    "FRA AMY MAR", "FRA AMY BUR", "FRA FLT MAO", "FRA FLT WES", "FRA FLT GOL",
                    "ITA AMY MAR MRT (GAS PIE SPA)",
                ),
            ),
            Step(
                orders=("(ITA AMY MAR) RTO GAS",),
                results={"ITA AMY MAR": "SUC"},
                units_after=(
                    "FRA AMY MAR", "FRA AMY BUR", "FRA FLT MAO", "FRA FLT WES", "FRA FLT GOL",
                    "ITA AMY GAS",
                ),
            ),
        ),
        note=(
            "4.A.5 b (2023 rules, Parlance default): it may retreat to the convoyed attacker's "
            "origin."
        ),
    ),
    Case(
        id="6.H.12",
        title="RETREAT WHEN DISLODGED BY ADJACENT CONVOY WHILE TRYING TO DO THE SAME",
        units=(
            "ENG AMY LVP", "ENG FLT IRI", "ENG FLT ECH", "ENG FLT NTH", "FRA FLT BRE",
            "FRA FLT MAO", "RUS AMY EDI", "RUS FLT NWG", "RUS FLT NAO", "RUS AMY CLY",
        ),
        steps=(
            Step(
                orders=(
                    "(ENG AMY LVP) CTO EDI VIA (IRI ECH NTH)",
                    "(ENG FLT IRI) CVY (ENG AMY LVP) CTO EDI",
                    "(ENG FLT ECH) CVY (ENG AMY LVP) CTO EDI",
                    "(ENG FLT NTH) CVY (ENG AMY LVP) CTO EDI",
                    "(FRA FLT BRE) MTO ECH",
                    "(FRA FLT MAO) SUP (FRA FLT BRE) MTO ECH",
                    "(RUS AMY EDI) CTO LVP VIA (NWG NAO)",
                    "(RUS FLT NWG) CVY (RUS AMY EDI) CTO LVP",
                    "(RUS FLT NAO) CVY (RUS AMY EDI) CTO LVP",
                    "(RUS AMY CLY) SUP (RUS AMY EDI) MTO LVP",
                ),
                results={
                    "ENG AMY LVP": "DSR RET",
                    "ENG FLT IRI": "DSR",
                    "ENG FLT ECH": "DSR RET",
                    "ENG FLT NTH": "DSR",
                    "FRA FLT BRE": "SUC",
                    "FRA FLT MAO": "SUC",
                    "RUS AMY EDI": "SUC",
                    "RUS FLT NWG": "SUC",
                    "RUS FLT NAO": "SUC",
                    "RUS AMY CLY": "SUC",
                },
                units_after=(
                    "ENG AMY LVP MRT (EDI WAL YOR)", "ENG FLT IRI",
                    "ENG FLT ECH MRT (BEL LON PIC WAL)",
                    "ENG FLT NTH", "FRA FLT ECH", "FRA FLT MAO", "RUS AMY LVP", "RUS FLT NWG",
                    "RUS FLT NAO", "RUS AMY CLY",
                ),
            ),
            Step(
                orders=("(ENG AMY LVP) RTO EDI",),
                results={"ENG AMY LVP": "SUC", "ENG FLT ECH": "SUC"},
                units_after=(
                    "ENG AMY EDI", "ENG FLT IRI", "ENG FLT NTH", "FRA FLT ECH", "FRA FLT MAO",
                    "RUS AMY LVP", "RUS FLT NWG", "RUS FLT NAO", "RUS AMY CLY",
                ),
            ),
        ),
        note=(
            "4.A.5 b (2023 rules, Parlance default): Liverpool may retreat to Edinburgh. "
            "The dislodged English Channel fleet gets no order and is disbanded."
        ),
    ),
    Case(
        id="6.H.13",
        title="NO RETREAT WITH CONVOY IN MOVEMENT PHASE",
        units=("ENG AMY PIC", "ENG FLT ECH", "FRA AMY PAR", "FRA AMY BRE"),
        steps=(
            Step(
                orders=(
                    "(ENG AMY PIC) HLD",
                    "(ENG FLT ECH) CVY (ENG AMY PIC) CTO LON",
                    "(FRA AMY PAR) MTO PIC",
                    "(FRA AMY BRE) SUP (FRA AMY PAR) MTO PIC",
                ),
                results={
                    "ENG AMY PIC": "RET",
                    "ENG FLT ECH": "NSO",
                    "FRA AMY PAR": "SUC",
                    "FRA AMY BRE": "SUC",
                },
                units_after=(
                    "ENG AMY PIC MRT (BEL BUR)", "ENG FLT ECH", "FRA AMY PIC", "FRA AMY BRE",
                ),
            ),
            Step(
                orders=("(ENG AMY PIC) RTO LON",),
                rejected={"(ENG AMY PIC) RTO LON": "NVR"},
                results={"ENG AMY PIC": "SUC"},
                units_after=("ENG FLT ECH", "FRA AMY PIC", "FRA AMY BRE"),
            ),
        ),
        note=(
            "A retreat step was added: the retreat to London is refused (NVR) and the army "
            "disbanded."
        ),
    ),
    Case(
        id="6.H.14",
        title="NO RETREAT WITH SUPPORT IN MOVEMENT PHASE",
        units=(
            "ENG AMY PIC", "ENG FLT ECH", "FRA AMY PAR", "FRA AMY BRE", "FRA AMY BUR",
            "GER AMY MUN", "GER AMY MAR",
        ),
        steps=(
            Step(
                orders=(
                    "(ENG AMY PIC) HLD",
                    "(ENG FLT ECH) SUP (ENG AMY PIC) MTO BEL",
                    "(FRA AMY PAR) MTO PIC",
                    "(FRA AMY BRE) SUP (FRA AMY PAR) MTO PIC",
                    "(FRA AMY BUR) HLD",
                    "(GER AMY MUN) SUP (GER AMY MAR) MTO BUR",
                    "(GER AMY MAR) MTO BUR",
                ),
                results={
                    "ENG AMY PIC": "RET",
                    "ENG FLT ECH": "NSO",
                    "FRA AMY PAR": "SUC",
                    "FRA AMY BRE": "SUC",
                    "FRA AMY BUR": "RET",
                    "GER AMY MUN": "SUC",
                    "GER AMY MAR": "SUC",
                },
                units_after=(
                    "ENG AMY PIC MRT (BEL)", "ENG FLT ECH", "FRA AMY PIC", "FRA AMY BRE",
                    "FRA AMY BUR MRT (BEL GAS PAR RUH)", "GER AMY MUN", "GER AMY BUR",
                ),
            ),
            Step(
                orders=("(ENG AMY PIC) RTO BEL", "(FRA AMY BUR) RTO BEL"),
                results={"ENG AMY PIC": "BNC", "FRA AMY BUR": "BNC"},
                units_after=(
                    "ENG FLT ECH", "FRA AMY PIC", "FRA AMY BRE", "GER AMY MUN", "GER AMY BUR",
                ),
            ),
        ),
    ),
    Case(
        id="6.H.15",
        title="NO COASTAL CRAWL IN RETREAT",
        units=("ENG FLT POR", "FRA FLT (SPA SCS)", "FRA FLT MAO"),
        steps=(
            Step(
                orders=(
                    "(ENG FLT POR) HLD",
                    "(FRA FLT (SPA SCS)) MTO POR",
                    "(FRA FLT MAO) SUP (FRA FLT (SPA SCS)) MTO POR",
                ),
                results={"ENG FLT POR": "RET", "FRA FLT (SPA SCS)": "SUC", "FRA FLT MAO": "SUC"},
                units_after=("ENG FLT POR MRT ()", "FRA FLT POR", "FRA FLT MAO"),
            ),
            Step(
                orders=("(ENG FLT POR) RTO (SPA NCS)",),
                rejected={"(ENG FLT POR) RTO (SPA NCS)": "NVR"},
                results={"ENG FLT POR": "SUC"},
                units_after=("FRA FLT POR", "FRA FLT MAO"),
            ),
        ),
        note=(
            "A retreat step was added: the retreat to Spain(nc) is refused (NVR) and the fleet "
            "disbanded."
        ),
    ),
    Case(
        id="6.H.16",
        title="CONTESTED FOR BOTH COASTS",
        units=("FRA FLT MAO", "FRA FLT GAS", "FRA FLT WES", "ITA FLT TUN", "ITA FLT TYS"),
        steps=(
            Step(
                orders=(
                    "(FRA FLT MAO) MTO (SPA NCS)",
                    "(FRA FLT GAS) MTO (SPA NCS)",
                    "(FRA FLT WES) HLD",
                    "(ITA FLT TUN) SUP (ITA FLT TYS) MTO WES",
                    "(ITA FLT TYS) MTO WES",
                ),
                results={
                    "FRA FLT MAO": "BNC",
                    "FRA FLT GAS": "BNC",
                    "FRA FLT WES": "RET",
                    "ITA FLT TUN": "SUC",
                    "ITA FLT TYS": "SUC",
                },
                units_after=(
                    "FRA FLT MAO", "FRA FLT GAS", "FRA FLT WES MRT (GOL NAF)", "ITA FLT TUN",
                    "ITA FLT WES",
                ),
            ),
            Step(
                orders=("(FRA FLT WES) RTO (SPA SCS)",),
                rejected={"(FRA FLT WES) RTO (SPA SCS)": "NVR"},
                results={"FRA FLT WES": "SUC"},
                units_after=("FRA FLT MAO", "FRA FLT GAS", "ITA FLT TUN", "ITA FLT WES"),
            ),
        ),
        note=(
            "A retreat step was added: the retreat to Spain(sc) is refused (NVR) and the fleet "
            "disbanded."
        ),
    ),
    # ------------------------------------------------------------------
    # 6.I. BUILDING
    # ------------------------------------------------------------------
    Case(
        id="6.I.1",
        title="TOO MANY BUILD ORDERS",
        turn="WIN 1901",
        centres=(
            "(GER BER DEN KIE MUN) (UNO ANK BEL BRE BUD BUL CON EDI GRE HOL LON LVP MAR MOS "
            "NAP NWY PAR POR ROM RUM SER SEV SMY SPA STP SWE TRI TUN VEN VIE WAR)"
        ),
        units=("GER AMY BER", "GER FLT DEN", "GER AMY RUH"),
        steps=(
            Step(
                orders=("(GER AMY WAR) BLD", "(GER AMY KIE) BLD", "(GER AMY MUN) BLD"),
                rejected={"(GER AMY WAR) BLD": "YSC", "(GER AMY MUN) BLD": "NMB"},
                results={"(GER AMY KIE) BLD": "SUC"},
                units_after=("GER AMY BER", "GER FLT DEN", "GER AMY RUH", "GER AMY KIE"),
            ),
        ),
        note=(
            "4.D.4 b (DATC preference, Parlance): builds are taken one by one. Warsaw is "
            "not German here (YSC); the build in Munich is one too many (NMB)."
        ),
    ),
    Case(
        id="6.I.2",
        title="FLEETS CANNOT BE BUILD IN LAND AREAS",
        turn="WIN 1901",
        centres=(
            "(RUS MOS RUM SEV STP WAR) (UNO ANK BEL BER BRE BUD BUL CON DEN EDI GRE HOL "
            "KIE LON LVP MAR MUN NAP NWY PAR POR ROM SER SMY SPA SWE TRI TUN VEN VIE)"
        ),
        units=("RUS FLT SEV", "RUS AMY WAR", "RUS FLT (STP SCS)", "RUS FLT RUM"),
        steps=(
            Step(
                orders=("(RUS FLT MOS) BLD",),
                rejected={"(RUS FLT MOS) BLD": "CST"},
                results={"RUS WVE": "SUC"},
                units_after=("RUS FLT SEV", "RUS AMY WAR", "RUS FLT (STP SCS)", "RUS FLT RUM"),
            ),
        ),
        note="4.C.4 a (DATC preference, Parlance): the build fails (CST); the build is waived.",
    ),
    Case(
        id="6.I.3",
        title="SUPPLY CENTER MUST BE EMPTY FOR BUILDING",
        turn="WIN 1901",
        centres=(
            "(GER BER DEN KIE MUN) (UNO ANK BEL BRE BUD BUL CON EDI GRE HOL LON LVP MAR MOS "
            "NAP NWY PAR POR ROM RUM SER SEV SMY SPA STP SWE TRI TUN VEN VIE WAR)"
        ),
        units=("GER AMY BER", "GER FLT DEN", "GER FLT KIE"),
        steps=(
            Step(
                orders=("(GER AMY BER) BLD",),
                rejected={"(GER AMY BER) BLD": "ESC"},
                results={"GER WVE": "SUC"},
                units_after=("GER AMY BER", "GER FLT DEN", "GER FLT KIE"),
            ),
        ),
    ),
    Case(
        id="6.I.4",
        title="BOTH COASTS MUST BE EMPTY FOR BUILDING",
        turn="WIN 1901",
        centres=(
            "(RUS MOS RUM SEV STP WAR) (UNO ANK BEL BER BRE BUD BUL CON DEN EDI GRE HOL "
            "KIE LON LVP MAR MUN NAP NWY PAR POR ROM SER SMY SPA SWE TRI TUN VEN VIE)"
        ),
        units=("RUS FLT (STP SCS)", "RUS AMY MOS", "RUS FLT SEV", "RUS FLT RUM"),
        steps=(
            Step(
                orders=("(RUS FLT (STP NCS)) BLD",),
                rejected={"(RUS FLT (STP NCS)) BLD": "ESC"},
                results={"RUS WVE": "SUC"},
                units_after=("RUS FLT (STP SCS)", "RUS AMY MOS", "RUS FLT SEV", "RUS FLT RUM"),
            ),
        ),
        note=(
            "The DATC's 'Build A St Petersburg(nc)' is spelled as a fleet build on the "
            "north coast (a DAIDE army cannot name a coast); St Petersburg is occupied (ESC)."
        ),
    ),
    Case(
        id="6.I.5",
        title="BUILDING IN HOME SUPPLY CENTER THAT IS NOT OWNED",
        turn="WIN 1901",
        centres=(
            "(GER DEN HOL KIE MUN) (RUS BER MOS SEV STP WAR) (UNO ANK BEL BRE BUD BUL CON "
            "EDI GRE LON LVP MAR NAP NWY PAR POR ROM RUM SER SMY SPA SWE TRI TUN VEN VIE)"
        ),
        units=(
            "GER AMY HOL", "GER FLT DEN", "GER AMY SIL",
            "RUS AMY PRU", "RUS AMY MOS", "RUS FLT SEV", "RUS AMY WAR", "RUS FLT (STP SCS)",
        ),
        steps=(
            Step(
                orders=("(GER AMY BER) BLD",),
                rejected={"(GER AMY BER) BLD": "YSC"},
                results={"GER WVE": "SUC"},
                units_after=(
                    "GER AMY HOL", "GER FLT DEN", "GER AMY SIL",
                    "RUS AMY PRU", "RUS AMY MOS", "RUS FLT SEV", "RUS AMY WAR", "RUS FLT (STP SCS)",
                ),
            ),
        ),
    ),
    Case(
        id="6.I.6",
        title="BUILDING IN OWNED SUPPLY CENTER THAT IS NOT A HOME SUPPLY CENTER",
        turn="WIN 1901",
        centres=(
            "(GER BER KIE MUN WAR) (UNO ANK BEL BRE BUD BUL CON DEN EDI GRE HOL LON LVP MAR "
            "MOS NAP NWY PAR POR ROM RUM SER SEV SMY SPA STP SWE TRI TUN VEN VIE)"
        ),
        units=("GER AMY BER", "GER FLT KIE", "GER AMY MUN"),
        steps=(
            Step(
                orders=("(GER AMY WAR) BLD",),
                rejected={"(GER AMY WAR) BLD": "HSC"},
                results={"GER WVE": "SUC"},
                units_after=("GER AMY BER", "GER FLT KIE", "GER AMY MUN"),
            ),
        ),
    ),
    Case(
        id="6.I.7",
        title="ONLY ONE BUILD IN A HOME SUPPLY CENTER",
        turn="WIN 1901",
        centres=(
            "(RUS MOS RUM SEV STP SWE WAR) (UNO ANK BEL BER BRE BUD BUL CON DEN EDI GRE HOL "
            "KIE LON LVP MAR MUN NAP NWY PAR POR ROM SER SMY SPA TRI TUN VEN VIE)"
        ),
        units=("RUS FLT SEV", "RUS AMY WAR", "RUS AMY RUM", "RUS FLT (STP SCS)"),
        steps=(
            Step(
                orders=("(RUS AMY MOS) BLD", "( RUS AMY MOS ) BLD"),
                rejected={"( RUS AMY MOS ) BLD": "ESC"},
                results={"(RUS AMY MOS) BLD": "SUC", "RUS WVE": "SUC"},
                units_after=(
                    "RUS FLT SEV", "RUS AMY WAR", "RUS AMY RUM", "RUS FLT (STP SCS)", "RUS AMY MOS",
                ),
            ),
        ),
        note=(
            "The second, identical build is refused (ESC) and the second build waived. "
            "'rejected' is keyed by order text, so the second order is spelled with spaces "
            "inside its brackets (same DAIDE) to tell the two apart."
        ),
    ),
)
