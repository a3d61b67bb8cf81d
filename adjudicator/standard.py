"""The built-in standard map: the MDF Parlance sends for ``standard``, parsed once."""

from __future__ import annotations

from pathlib import Path

from protocol.values import Location, MapDefinition, Season, Turn, Unit, UnitPosition, UnitType

MDF_PATH = Path(__file__).resolve().parent.parent / "protocol" / "data" / "standard_mdf.txt"


def standard_definition() -> MapDefinition:
    """The standard map's definition, parsed from the MDF text Parlance sends."""
    from protocol.messages import Mdf, parse_text

    message = parse_text(MDF_PATH.read_text())
    assert isinstance(message, Mdf) and message.definition is not None
    return message.definition


_START_UNITS = (
    "AUS AMY BUD", "AUS AMY VIE", "AUS FLT TRI",
    "ENG FLT EDI", "ENG FLT LON", "ENG AMY LVP",
    "FRA FLT BRE", "FRA AMY MAR", "FRA AMY PAR",
    "GER FLT KIE", "GER AMY BER", "GER AMY MUN",
    "ITA FLT NAP", "ITA AMY ROM", "ITA AMY VEN",
    "RUS AMY MOS", "RUS FLT SEV", "RUS FLT STP SCS", "RUS AMY WAR",
    "TUR FLT ANK", "TUR AMY CON", "TUR AMY SMY",
)  # fmt: skip


def standard_start() -> tuple[
    Turn, tuple[UnitPosition, ...], tuple[tuple[str, tuple[str, ...]], ...]
]:
    """The standard game's first NOW and SCO: Spring 1901, 22 units, home centres owned."""
    units = []
    for text in _START_UNITS:
        power, kind, prov, *coast = text.split()
        units.append(
            UnitPosition(Unit(power, UnitType(kind), Location(prov, coast[0] if coast else None)))
        )
    definition = standard_definition()
    centres = tuple((owners[0], provs) for owners, provs in definition.supply_centres)
    return Turn(Season.SPRING, 1901), tuple(units), centres
