"""A small recorded game written from scripted orders, adjudicated by our own engine.

1901 in four phases, with what the viewer must draw: supports (one cut),
two convoys, bounces, a dislodgement and its retreat, builds and a removal;
then the spring of 1902 and a draw.  :func:`write_run_folder` writes it as
``daide-mcts game`` would (``messages.daide``, ``summary.json``) and returns
the phases (NOW and SCO text) for the tests to compare with the page.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from adjudicator.daide import adjudicate_text
from adjudicator.standard import standard_start
from protocol.data import standard_mdf_text
from protocol.messages import Sco, parse_text
from protocol.notation import format_centres, format_turn, format_unit_position

SPRING_1901 = [
    "( ENG FLT LON ) MTO NTH",
    "( ENG FLT EDI ) MTO NWG",
    "( ENG AMY LVP ) MTO YOR",
    "( FRA AMY PAR ) MTO BUR",
    "( FRA AMY MAR ) SUP ( FRA AMY PAR ) MTO BUR",
    "( FRA FLT BRE ) MTO MAO",
    "( GER AMY MUN ) HLD",
    "( GER FLT KIE ) MTO HOL",
    "( GER AMY BER ) MTO KIE",
    "( AUS AMY VIE ) MTO GAL",
    "( AUS AMY BUD ) MTO SER",
    "( AUS FLT TRI ) MTO ALB",
    "( ITA AMY VEN ) MTO PIE",
    "( ITA AMY ROM ) MTO APU",
    "( ITA FLT NAP ) MTO ION",
    "( RUS AMY WAR ) MTO GAL",
    "( RUS FLT SEV ) MTO BLA",
    "( RUS AMY MOS ) MTO UKR",
    "( RUS FLT ( STP SCS ) ) MTO GOB",
    "( TUR FLT ANK ) MTO ARM",
    "( TUR AMY CON ) MTO BUL",
    "( TUR AMY SMY ) MTO CON",
]

FALL_1901 = [
    # England convoys an army to Norway, with a support.
    "( ENG AMY YOR ) CTO NWY VIA ( NTH )",
    "( ENG FLT NTH ) CVY ( ENG AMY YOR ) CTO NWY",
    "( ENG FLT NWG ) SUP ( ENG AMY YOR ) MTO NWY",
    # France's support is cut by Italy; Germany's attack on Burgundy bounces.
    "( FRA AMY BUR ) HLD",
    "( FRA AMY MAR ) SUP ( FRA AMY BUR )",
    "( ITA AMY PIE ) MTO MAR",
    "( GER AMY MUN ) MTO BUR",
    "( GER AMY KIE ) MTO MUN",
    "( FRA FLT MAO ) MTO POR",
    # Italy convoys an army to Tunis.
    "( ITA AMY APU ) CTO TUN VIA ( ION )",
    "( ITA FLT ION ) CVY ( ITA AMY APU ) CTO TUN",
    # Austria, supported by Russia, dislodges Turkey from Bulgaria.
    "( AUS AMY SER ) MTO BUL",
    "( RUS FLT BLA ) SUP ( AUS AMY SER ) MTO BUL",
    "( TUR AMY BUL ) HLD",
    "( TUR FLT ARM ) MTO SEV",
    "( RUS AMY WAR ) MTO GAL",
    "( AUS AMY VIE ) MTO GAL",
]

AUTUMN_1901 = ["( TUR AMY BUL ) RTO GRE"]

WINTER_1901 = [
    "( ENG FLT LON ) BLD",
    "( FRA AMY PAR ) BLD",
    "( GER AMY BER ) BLD",
    "( AUS AMY BUD ) BLD",
    "( ITA AMY VEN ) BLD",
    "( RUS FLT GOB ) REM",
    "( TUR FLT ANK ) BLD",
    "( TUR AMY SMY ) BLD",
]

PLAYERS = {
    "AUS": "austria-bot",
    "ENG": "england-bot",
    "FRA": "france-bot",
    "GER": "germany-bot",
    "ITA": "italy-bot",
    "RUS": "russia-bot",
    "TUR": "turkey-bot",
}


@dataclass(frozen=True)
class ScriptedPhase:
    """One phase as the server announced it, and the ORD lines that ended it."""

    now: str
    sco: str
    ords: tuple[str, ...]


def play() -> list[ScriptedPhase]:
    """The phases of the scripted game, adjudicated phase after phase."""
    turn, units, centres = standard_start()
    now = f"NOW ( {format_turn(turn)} ) " + " ".join(
        f"( {format_unit_position(u)} )" for u in units
    )
    sco = f"SCO {format_centres(centres)}"
    phases = []
    for orders in (SPRING_1901, FALL_1901, AUTUMN_1901, WINTER_1901):
        out = adjudicate_text(now, sco, orders)
        refused = [(o, note) for o, note in out.thx if note != "MBV"]
        assert not refused, f"the script has orders the engine refuses: {refused}"
        phases.append(ScriptedPhase(now, sco, tuple(out.ord)))
        now, sco = out.now, out.sco
    phases.append(ScriptedPhase(now, sco, ()))
    return phases


def write_run_folder(folder: Path) -> list[ScriptedPhase]:
    """Write the game into ``folder`` as a run folder; its phases."""
    folder.mkdir(parents=True, exist_ok=True)
    phases = play()
    lines = []
    clock = 1_800_000_000.0

    def hear(text: str) -> None:
        nonlocal clock
        clock += 0.01
        lines.append(f"{clock:.3f} observer in {text}")

    hear('MAP ( "standard" )')
    hear(standard_mdf_text())  # a record names its map: its texts read with the map's names
    hear("HLO ( UNO ) ( 0 ) ( ( LVL 0 ) ( MTL 5 ) )")
    last_sco = None
    for phase in phases:
        if phase.sco != last_sco:
            hear(phase.sco)
            last_sco = phase.sco
        hear(phase.now)
        for line in phase.ords:
            hear(line)
    hear("DRW")
    final = parse_text(phases[-1].sco)
    assert isinstance(final, Sco) and final.centres is not None
    counts = {p: len(cs) for p, cs in final.centres}
    smr = " ".join(f'( {p} ( "{name}" ) ( "0.1" ) {counts[p]} )' for p, name in PLAYERS.items())
    hear(f"SMR ( SPR 1902 ) {smr}")
    (folder / "messages.daide").write_text("\n".join(lines) + "\n")
    players = [
        {"seat": name, "label": "scripted", "power": power} for power, name in PLAYERS.items()
    ]
    (folder / "summary.json").write_text(json.dumps({"players": players}, indent=1) + "\n")
    return phases
