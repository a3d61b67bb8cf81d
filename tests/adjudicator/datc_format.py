"""The row format of the DATC table (``datc_cases.py``): plain DAIDE text, no engine types.

A :class:`Case` is one DATC test case: a starting position and one or more
:class:`Step` s (phases) adjudicated one after another, each step starting from
the position the previous one produced (so a movement step with dislodgements
is followed by its retreat step, and a fall step can be followed by winter).
"""

from __future__ import annotations

from dataclasses import dataclass, field

STANDARD_CENTRES = (
    "(AUS BUD TRI VIE) (ENG EDI LON LVP) (FRA BRE MAR PAR) (GER BER KIE MUN) "
    "(ITA NAP ROM VEN) (RUS MOS SEV STP WAR) (TUR ANK CON SMY) "
    "(UNO BEL BUL DEN GRE HOL NWY POR RUM SER SPA SWE TUN)"
)


@dataclass(frozen=True)
class Step:
    """One adjudicated phase.

    ``orders``: SUB order texts, all powers mixed, e.g. ``"(ENG FLT NTH) MTO PIC"``,
    ``"(ITA AMY TUN) CTO SYR VIA (ION EAS)"``, ``"(ENG FLT NTH) RTO YOR"``,
    ``"(ENG FLT LON) BLD"``, ``"ENG WVE"``.  When two orders name the same unit,
    the later replaces the earlier (as a later SUB does on a server).

    ``rejected``: order text -> THX note for each order the server would refuse
    (``FAR``, ``NSU``, ``NSP``, ``NAS``, ``NSF``, ``NSA``, ``NYU``, ``NRN``,
    ``NVR``, ``YSC``, ``ESC``, ``HSC``, ``NSC``, ``CST``, ``NMB``, ``NMR``...).
    Every other order must get ``MBV``.  A unit whose orders were all refused,
    or that got none, holds (movement) or is disbanded (retreat), as Parlance
    does for missing orders.

    ``results``: what ORD reports, keyed by the unit as NOW spells it
    (``"ENG FLT NTH"``, ``"RUS FLT (STP SCS)"``) for movement and retreat
    steps, or by the order text for adjustment steps (``"(ENG FLT LON) BLD"``,
    ``"ENG WVE"``); the value is the result tokens, space separated:
    ``"SUC"``, ``"BNC"``, ``"CUT"``, ``"DSR"``, ``"NSO"``, ``"SUC RET"``,
    ``"BNC RET"``, ``"CUT RET"``, ``"RET"``...  Units not listed are not checked.

    ``units_after``: optional, the full unit list of the NOW after this step,
    as NOW spells units (with ``MRT (...)`` for dislodged units and their legal
    retreats, in any order inside the MRT list), in any order.

    ``centres_after``: optional, the SCO body after this step.

    ``slo``: the SLO message this step ends the game with (``"SLO ( FRA )"``),
    or None (the default) when the game must go on.
    """

    orders: tuple[str, ...]
    results: dict[str, str] = field(default_factory=dict)
    rejected: dict[str, str] = field(default_factory=dict)
    units_after: tuple[str, ...] | None = None
    centres_after: str | None = None
    slo: str | None = None


@dataclass(frozen=True)
class Case:
    """One DATC case: its id (``"6.A.1"``), title, starting position and steps.

    ``units`` are NOW-style unit texts (``"ENG FLT NTH"``; dislodged units of a
    retreat-phase start carry ``MRT (...)``); ``turn`` is the phase to adjudicate
    first; ``centres`` is the SCO body (default: the standard start).
    ``note`` says, where the DATC offers options or Parlance deviates, what
    this table expects and why.
    """

    id: str
    title: str
    units: tuple[str, ...]
    steps: tuple[Step, ...]
    turn: str = "SPR 1901"
    centres: str = STANDARD_CENTRES
    note: str = ""
