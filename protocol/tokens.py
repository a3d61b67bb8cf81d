"""The DAIDE token numbers, and the token table that names them for one game.

A token is a 16-bit number: a category in the high octet, a number within the
category in the low octet.  On the wire and in token sequences a token is just
that ``int``; this module gives the numbers of the language tokens as
constants (``MTO``, ``BRA``...), knows the categories, encodes integers
(14-bit two's complement, categories 0x00-0x3F) and text characters
(category 0x4B), and builds :class:`TokenTable` s: the names of every token
valid in one game.  The standard table (:data:`STANDARD`) has the standard
powers and provinces; a table built from a Representation Message replaces
*all* of them with the RM's.

Numbers follow the Parlance Client-Server Protocol document (revision 14 plus
SMR, CHO, BCC, UNT; and NAR, CCL of the later DAIDE syntax, 0x4A25-0x4A26),
plus the tokens Parlance itself knows: the Parlance extras in category 0x4E
and the names of removed tokens (NST, WRT, IOU, PPT, UOM), so that a message
containing them still prints readably.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from protocol.daide_errors import EncodeError

# --- categories --------------------------------------------------------------

CAT_INTEGER_LAST = 0x3F
"""Categories 0x00-0x3F hold integers."""
CAT_MISC = 0x40
CAT_POWER = 0x41
CAT_UNIT_TYPE = 0x42
CAT_ORDER = 0x43
CAT_ORDER_NOTE = 0x44
CAT_RESULT = 0x45
CAT_COAST = 0x46
CAT_PHASE = 0x47
CAT_COMMAND = 0x48
CAT_PARAMETER = 0x49
CAT_PRESS = 0x4A
CAT_TEXT = 0x4B
CAT_PARLANCE = 0x4E
CAT_PROVINCE_FIRST = 0x50
CAT_PROVINCE_LAST = 0x57
CAT_RESERVED_FIRST = 0x58
CAT_RESERVED_LAST = 0x5F

PROVINCE_CATEGORIES = {
    0x50: "Inland non-SC",
    0x51: "Inland SC",
    0x52: "Sea non-SC",
    0x53: "Sea SC",
    0x54: "Coastal non-SC",
    0x55: "Coastal SC",
    0x56: "Bicoastal non-SC",
    0x57: "Bicoastal SC",
}
"""Province category -> its name in the protocol document (low bit: supply centre)."""

INTEGER_MIN = -8192
INTEGER_MAX = 8191
TEXT_BASE = CAT_TEXT << 8

# --- the language tokens (everything but powers and provinces) ---------------


def _numbered(first: int, names: list[str]) -> dict[int, str]:
    """Consecutive token numbers from ``first`` for ``names``."""
    return {first + i: name for i, name in enumerate(names)}


BRA, KET = 0x4000, 0x4001
AMY, FLT = 0x4200, 0x4201
CTO, CVY, HLD, MTO, SUP, VIA = 0x4320, 0x4321, 0x4322, 0x4323, 0x4324, 0x4325
DSB, RTO = 0x4340, 0x4341
BLD, REM, WVE = 0x4380, 0x4381, 0x4382
SPR, SUM, FAL, AUT, WIN = 0x4700, 0x4701, 0x4702, 0x4703, 0x4704
CCD, DRW, FRM, GOF, HLO, HST, HUH, IAM = (0x4800 + i for i in range(8))
LOD, MAP, MDF, MIS, NME, NOT, NOW, OBS = (0x4808 + i for i in range(8))
OFF, ORD, OUT, PRN, REJ, SCO, SLO, SND = (0x4810 + i for i in range(8))
SUB, SVE, THX, TME, YES, ADM, SMR = (0x4818 + i for i in range(7))
AOA, BTL, ERR, LVL, MRT, MTL, NPB, NPR = (0x4900 + i for i in range(8))
PDA, PTL, RTL, UNO = 0x4908, 0x4909, 0x490A, 0x490B
DSD = 0x490D
ALY, AND, BWX, DMZ = 0x4A00, 0x4A01, 0x4A02, 0x4A03
FCT, ORR, PCE, PRP = 0x4A07, 0x4A0F, 0x4A10, 0x4A13
TRY, VSS, XDO, NAR, CCL = 0x4A1A, 0x4A1C, 0x4A1F, 0x4A25, 0x4A26

YIELDING_TOKENS = frozenset({NAR, CCL})
"""Press tokens of the later syntax that Parlance's table lacks, so a map may use their names
(``sailho`` has a province NAR): a table whose RM names one gives the name to the map."""

LANGUAGE_TOKENS: dict[int, str] = {
    BRA: "BRA", KET: "KET",
    AMY: "AMY", FLT: "FLT",
    CTO: "CTO", CVY: "CVY", HLD: "HLD", MTO: "MTO", SUP: "SUP", VIA: "VIA",
    DSB: "DSB", RTO: "RTO", BLD: "BLD", REM: "REM", WVE: "WVE",
    **_numbered(0x4400, [
        "MBV", "BPR", "CST", "ESC", "FAR", "HSC", "NAS", "NMB", "NMR", "NRN", "NRS", "NSA",
        "NSC", "NSF", "NSP", "NST", "NSU", "NVR", "NYU", "YSC"
    ]),
    **_numbered(0x4500, [
        "SUC", "BNC", "CUT", "DSR", "FLD", "NSO", "RET"
    ]),
    0x4600: "NCS", 0x4602: "NEC", 0x4604: "ECS", 0x4606: "SEC",
    0x4608: "SCS", 0x460A: "SWC", 0x460C: "WCS", 0x460E: "NWC",
    **_numbered(0x4700, [
        "SPR", "SUM", "FAL", "AUT", "WIN"
    ]),
    **_numbered(0x4800, [
        "CCD", "DRW", "FRM", "GOF", "HLO", "HST", "HUH", "IAM", "LOD", "MAP", "MDF", "MIS",
        "NME", "NOT", "NOW", "OBS", "OFF", "ORD", "OUT", "PRN", "REJ", "SCO", "SLO", "SND",
        "SUB", "SVE", "THX", "TME", "YES", "ADM", "SMR"
    ]),
    **_numbered(0x4900, [
        "AOA", "BTL", "ERR", "LVL", "MRT", "MTL", "NPB", "NPR", "PDA", "PTL", "RTL", "UNO",
        "WRT", "DSD"
    ]),
    **_numbered(0x4A00, [
        "ALY", "AND", "BWX", "DMZ", "ELS", "EXP", "FWD", "FCT", "FOR", "HOW", "IDK", "IFF",
        "INS", "IOU", "OCC", "ORR", "PCE", "POB", "PPT", "PRP", "QRY", "SCD", "SRY", "SUG",
        "THK", "THN", "TRY", "UOM", "VSS", "WHT", "WHY", "XDO", "XOY", "YDO", "CHO", "BCC",
        "UNT", "NAR", "CCL"
    ]),
    **_numbered(0x4E01, [
        "SET", "LST", "SEL", "PNG", "PRB", "PRF", "VAR"
    ]),
}  # fmt: skip
"""Number -> name of every token that is not a power, a province, an integer or text."""

STANDARD_POWERS: dict[int, str] = {
    0x4100 + i: name for i, name in enumerate(["AUS", "ENG", "FRA", "GER", "ITA", "RUS", "TUR"])
}
"""Number -> name of the powers of the standard map."""

_STANDARD_PROVINCE_LIST = (
    (0x50, "BOH BUR GAL RUH SIL TYR UKR"),
    (0x51, "BUD MOS MUN PAR SER VIE WAR"),
    (0x52, "ADR AEG BAL BAR BLA EAS ECH GOB GOL HEL ION IRI MAO NAO NTH NWG SKA TYS WES"),
    (0x54, "ALB APU ARM CLY FIN GAS LVN NAF PIC PIE PRU SYR TUS WAL YOR"),
    (
        0x55,
        "ANK BEL BER BRE CON DEN EDI GRE HOL KIE LON LVP MAR NAP NWY POR ROM RUM "
        "SEV SMY SWE TRI TUN VEN",
    ),
    (0x57, "BUL SPA STP"),
)


def _standard_provinces() -> dict[int, str]:
    provinces: dict[int, str] = {}
    for category, names in _STANDARD_PROVINCE_LIST:
        for name in names.split():
            provinces[(category << 8) | len(provinces)] = name
    return provinces


STANDARD_PROVINCES: dict[int, str] = _standard_provinces()
"""Number -> name of the 75 provinces of the standard map (low octets 0..74)."""


# --- classifying and converting numbers --------------------------------------


def category(number: int) -> int:
    """The category (high octet) of a token."""
    return number >> 8


def is_integer(number: int) -> bool:
    """True for tokens of the integer categories 0x00-0x3F."""
    return number < 0x4000


def is_text(number: int) -> bool:
    """True for a text (ASCII character) token."""
    return number >> 8 == CAT_TEXT


def is_power(number: int) -> bool:
    """True for a token of the power category."""
    return number >> 8 == CAT_POWER


def is_province(number: int) -> bool:
    """True for a token of one of the eight province categories."""
    return CAT_PROVINCE_FIRST <= number >> 8 <= CAT_PROVINCE_LAST


def is_reserved(number: int) -> bool:
    """True for the private-use categories 0x58-0x5F, which must never be transmitted."""
    return CAT_RESERVED_FIRST <= number >> 8 <= CAT_RESERVED_LAST


def integer_value(number: int) -> int:
    """The value of an integer token (14-bit two's complement)."""
    return number - 0x4000 if number & 0x2000 else number


def integer_token(value: int) -> int:
    """The token for the integer ``value`` (-8192..8191); EncodeError outside that range."""
    if not INTEGER_MIN <= value <= INTEGER_MAX:
        raise EncodeError(f"integer {value} is outside the DAIDE range -8192..8191")
    return value & 0x3FFF


def text_tokens(text: str) -> list[int]:
    """The text tokens of ``text``, one per character (code points 0-255 only)."""
    try:
        return list(map(TEXT_BASE.__or__, text.encode("latin-1")))
    except UnicodeEncodeError as exc:
        raise EncodeError(f"text {text!r} has a character DAIDE cannot carry") from exc


# --- token objects and tables -------------------------------------------------


@dataclass(frozen=True, slots=True)
class Token:
    """A named token (not an integer or a text character) in a nested expression.

    ``name`` is its three-letter name in the table that produced it, or
    ``0xNNNN`` for a number the table does not know.
    """

    number: int
    name: str

    @property
    def category(self) -> int:
        """The token's category (high octet)."""
        return self.number >> 8

    def __str__(self) -> str:
        return self.name


def _unknown_name(number: int) -> str:
    return f"0x{number:04X}"


MAX_CATEGORY_SIZE = 0x100
"""Tokens in one category (the low octet)."""

MAX_PROVINCES = (CAT_PROVINCE_LAST - CAT_PROVINCE_FIRST + 1) * MAX_CATEGORY_SIZE
"""Province tokens a table can hold: eight categories of 256."""


class TokenTable:
    """The names of every token valid in one game: language tokens, its powers and provinces.

    Built from number -> name pairs for the powers and provinces (an RM's
    content); :data:`STANDARD` is the standard map's.  Used to turn text into
    token numbers and back, and to check that powers and provinces are
    defined.  Tables compare equal when they define the same powers and
    provinces.
    """

    __slots__ = ("_names", "_numbers", "_tokens", "entries", "powers", "provinces")

    def __init__(self, powers_and_provinces: Mapping[int, str] | Iterable[tuple[int, str]]) -> None:
        items = (
            powers_and_provinces.items()
            if isinstance(powers_and_provinces, Mapping)
            else powers_and_provinces
        )
        entries = tuple(sorted((int(n), str(name).upper()) for n, name in items))
        names = dict(LANGUAGE_TOKENS)
        numbers = {name: number for number, name in LANGUAGE_TOKENS.items()}
        for number, name in entries:
            if not (is_power(number) or is_province(number)):
                raise EncodeError(f"0x{number:04X} ({name}) is neither a power nor a province")
            if len(name) != 3 or not name.isascii() or not name.isalnum():
                raise EncodeError(f"{name!r} is not a three-character A-Z/0-9 token name")
            if numbers.get(name) in YIELDING_TOKENS and number not in names:
                del names[numbers[name]]  # the map's province (sailho's NAR) wins
            elif number in names or name in numbers:
                raise EncodeError(f"{name} (0x{number:04X}) is defined twice")
            names[number] = name
            numbers[name] = number
        self.entries: tuple[tuple[int, str], ...] = entries
        """The powers and provinces, as (number, name) pairs in numeric order."""
        self.powers: tuple[str, ...] = tuple(name for n, name in entries if is_power(n))
        """Names of the powers, in token order."""
        self.provinces: tuple[str, ...] = tuple(name for n, name in entries if is_province(n))
        """Names of the provinces, in token order."""
        self._names = names
        self._numbers = numbers
        self._tokens = {number: Token(number, name) for number, name in names.items()}

    # lookups -----------------------------------------------------------------

    def name(self, number: int) -> str | None:
        """The name of a named token, or None if this table does not define it."""
        return self._names.get(number)

    def number(self, name: str) -> int:
        """The number of the token called ``name`` (case-insensitive); EncodeError if unknown."""
        number = self._numbers.get(name)
        if number is None:
            number = self._numbers.get(name.upper())
            if number is None:
                raise EncodeError(f"no token called {name!r} in this token table")
        return number

    def lookup(self, name: str) -> int | None:
        """The number of the token called ``name`` (upper case), or None."""
        return self._numbers.get(name)

    def token(self, number: int) -> Token:
        """The :class:`Token` for a named token number (unknown numbers get a ``0xNNNN`` name)."""
        token = self._tokens.get(number)
        return token if token is not None else Token(number, _unknown_name(number))

    def knows(self, number: int) -> bool:
        """True if ``number`` is an integer, a text character or a token this table defines."""
        return number < 0x4000 or number >> 8 == CAT_TEXT or number in self._names

    def display(self, number: int) -> str:
        """How one token prints: its name, its integer value, its character, or ``0xNNNN``."""
        if number < 0x4000:
            return str(integer_value(number))
        if number >> 8 == CAT_TEXT:
            return repr(chr(number & 0xFF))
        if number == BRA:
            return "("
        if number == KET:
            return ")"
        return self._names.get(number) or _unknown_name(number)

    @property
    def names(self) -> Mapping[int, str]:
        """Number -> name of every named token in the table (read-only view)."""
        return self._names

    # constructors and comparison --------------------------------------------

    @classmethod
    def from_representation(cls, entries: Iterable[tuple[int, str]]) -> TokenTable:
        """The table an RM defines: its entries, or the standard table for an empty RM."""
        entries = tuple(sorted(entries))
        return STANDARD if not entries or entries == STANDARD.entries else cls(entries)

    @classmethod
    def of_names(cls, powers: Iterable[str], provinces: Iterable[str]) -> TokenTable:
        """A table defining ``powers`` and ``provinces`` under numbers of their categories.

        For text that names a game's powers and provinces but whose RM was not
        kept (a recorded game's text log): the numbers are made up, in order,
        so the table reads and writes that text, not the server's bytes.
        EncodeError if a name is defined twice or there are too many.
        """
        powers = tuple(dict.fromkeys(powers))
        provinces = tuple(dict.fromkeys(provinces))
        if len(powers) > MAX_CATEGORY_SIZE:
            raise EncodeError(f"{len(powers)} powers: at most {MAX_CATEGORY_SIZE}")
        if len(provinces) > MAX_PROVINCES:
            raise EncodeError(f"{len(provinces)} provinces: at most {MAX_PROVINCES}")
        entries = [((CAT_POWER << 8) + i, name) for i, name in enumerate(powers)]
        entries += [((CAT_PROVINCE_FIRST << 8) + i, name) for i, name in enumerate(provinces)]
        return cls(entries)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TokenTable):
            return NotImplemented
        return self.entries == other.entries

    def __hash__(self) -> int:
        return hash(self.entries)

    def __repr__(self) -> str:
        if self.entries == STANDARD_ENTRIES:
            return "TokenTable(standard)"
        return f"TokenTable({len(self.powers)} powers, {len(self.provinces)} provinces)"


STANDARD_ENTRIES: tuple[tuple[int, str], ...] = tuple(
    sorted({**STANDARD_POWERS, **STANDARD_PROVINCES}.items())
)
"""The (number, name) pairs of the standard powers and provinces, as a full RM lists them."""

STANDARD = TokenTable(STANDARD_ENTRIES)
"""The token table of the standard map: language tokens, the 7 powers and 75 provinces."""

NO_MAP = TokenTable(())
"""The table before a server's RM: the language's own tokens, no power or province."""
