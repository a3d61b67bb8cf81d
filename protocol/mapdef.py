"""The body of an MDF message (a whole map) <-> :class:`~protocol.values.MapDefinition`.

``MDF (powers) (provinces) (adjacencies)`` where::

    provinces   = ( (supply_centres) (non_supply_centres) )
    supply      = ( owner centre centre ... )      owner: power | UNO | (power power ...)
    adjacencies = ( (province (AMY adj ...) (FLT adj ...) ((FLT coast) adj ...)) ... )
    adj         = province | (province coast)

A centre group owned by one power is written with the bare power token, one
shared by several with the bracketed list, as the syntax document shows.
"""

from __future__ import annotations

from protocol.daide_errors import GrammarError, ProtocolError
from protocol.notation import write_location
from protocol.reader import TokenReader
from protocol.tokens import AMY, BRA, FLT, KET, LANGUAGE_TOKENS, YIELDING_TOKENS, TokenTable
from protocol.values import Adjacency, Location, MapDefinition, ProvinceAdjacencies, UnitType


def read_map_definition(r: TokenReader) -> MapDefinition:
    """The three groups after ``MDF``."""
    r.open()
    powers = r.powers_until_close()
    r.close()

    r.open()
    r.open()
    centres = []
    while not r.at_close():
        r.open()
        if r.accept(BRA):
            owners = r.powers_until_close()
            if not owners:
                r.fail("expected a power")
            r.close()
        else:
            owners = (r.power_or_uno(),)
        centres.append((owners, r.provinces_until_close()))
        r.close()
    r.close()
    r.open()
    non_centres = r.provinces_until_close()
    r.close()
    r.close()

    r.open()
    adjacencies = []
    while not r.at_close():
        r.open()
        province = r.province()
        entries = []
        while not r.at_close():
            entries.append(_read_adjacency(r))
        adjacencies.append(ProvinceAdjacencies(province, tuple(entries)))
        r.close()
    r.close()
    return MapDefinition(powers, tuple(centres), non_centres, tuple(adjacencies))


def _read_adjacency(r: TokenReader) -> Adjacency:
    r.open()
    coast = None
    if r.accept(BRA):
        r.expect(FLT, "FLT before a coast")
        kind = UnitType.FLEET
        coast = r.coast()
        r.close()
    else:
        kind = r.unit_type()
    destinations: list[Location] = []
    while not r.at_close():
        destinations.append(r.location())
    r.close()
    return Adjacency(kind, coast, tuple(destinations))


def write_map_definition(out: list[int], definition: MapDefinition, table: TokenTable) -> None:
    """Append the three groups that follow ``MDF``."""
    number = table.number
    out.append(BRA)
    out.extend(number(power) for power in definition.powers)
    out += (KET, BRA, BRA)
    for owners, centres in definition.supply_centres:
        out.append(BRA)
        if len(owners) == 1:
            out.append(number(owners[0]))
        else:
            out.append(BRA)
            out.extend(number(owner) for owner in owners)
            out.append(KET)
        out.extend(number(centre) for centre in centres)
        out.append(KET)
    out += (KET, BRA)
    out.extend(number(province) for province in definition.non_supply_centres)
    out += (KET, KET, BRA)
    for province in definition.adjacencies:
        out.append(BRA)
        out.append(number(province.province))
        for entry in province.entries:
            out.append(BRA)
            if entry.coast is not None:
                out += (BRA, FLT, number(entry.coast), KET)
            else:
                out.append(AMY if entry.kind is UnitType.ARMY else FLT)
            for destination in entry.destinations:
                write_location(out, destination, table)
            out.append(KET)
        out.append(KET)
    out.append(KET)


_LANGUAGE_NAMES = frozenset(LANGUAGE_TOKENS.values()) - {
    LANGUAGE_TOKENS[number] for number in YIELDING_TOKENS
}
"""Names that are never a province: a map may take the yielding press tokens' names."""


def table_from_mdf_text(text: str) -> TokenTable:
    """The powers and provinces an ``MDF`` message's text names, as a :class:`TokenTable`.

    For a recorded game kept as text without its RM: the first group names the
    powers, every other name that is not a language token is a province (the
    numbers are made up: see :meth:`TokenTable.of_names`).  GrammarError if the
    text is not an MDF or names something that is no token name.
    """
    words = text.replace("(", " ( ").replace(")", " ) ").split()
    if len(words) < 3 or words[0] != "MDF" or words[1] != "(":
        raise GrammarError("not an MDF message")
    try:
        close = words.index(")", 2)
    except ValueError:
        raise GrammarError("the MDF's powers are not closed") from None
    powers = words[2:close]
    named = set(powers) | _LANGUAGE_NAMES | {"(", ")"}
    provinces = [w for w in words[close + 1 :] if w not in named]
    try:
        return TokenTable.of_names(powers, provinces)
    except ProtocolError as exc:
        raise GrammarError(f"the MDF names a bad token: {exc}") from None
