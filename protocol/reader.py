"""A cursor over a token sequence, for the typed parsers of units, orders and messages.

:class:`TokenReader` reads tokens left to right and knows where it is, so
every error it raises names the token index where ``ERR`` belongs in a
``HUH``.  It reads the small pieces of the message syntax (powers, provinces,
locations, units, turns, strings, integers, raw groups); the grammars of
orders and messages are built from them in :mod:`protocol.orders` and
:mod:`protocol.messages`.

Brackets are not checked up front: a successful parse implies they balance,
and when a parse fails :meth:`TokenReader.fail` checks them first so that an
unbalanced message is reported as a :class:`BracketError` (answered by PRN).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NoReturn

from protocol.daide_errors import GrammarError, UnknownTokenError
from protocol.expression import Expression, check_brackets, fold
from protocol.tokens import (
    BRA,
    CAT_COAST,
    CAT_PHASE,
    CAT_POWER,
    CAT_PROVINCE_FIRST,
    CAT_PROVINCE_LAST,
    CAT_TEXT,
    KET,
    UNO,
    TokenTable,
)
from protocol.values import Location, Season, Turn, Unit, UnitType

END = -1
"""The sentinel after the last token of a sequence (never a valid token)."""

_SEASONS = {0x4700 + i: season for i, season in enumerate(Season)}
_UNIT_TYPES = {0x4200: UnitType.ARMY, 0x4201: UnitType.FLEET}


class TokenReader:
    """Reads a token sequence from left to right for a typed parser.

    ``tokens`` is the whole message (so error indices are message indices);
    ``table`` names powers, provinces and every other token.
    """

    __slots__ = ("_names", "pos", "table", "tokens")

    def __init__(self, tokens: Sequence[int], table: TokenTable, start: int = 0) -> None:
        self.tokens: list[int] = [*tokens, END]
        self.pos = start
        self.table = table
        self._names = table.names

    # --- errors ------------------------------------------------------------

    def fail(self, reason: str, index: int | None = None) -> NoReturn:
        """Raise the right LanguageError for a failure at ``index`` (default: here).

        Unbalanced brackets anywhere win (BracketError); then an unknown token
        at the failure point (UnknownTokenError); else GrammarError.
        """
        at = self.pos if index is None else index
        body = self.tokens[:-1]
        check_brackets(body)
        number = self.tokens[at] if at < len(body) else END
        if number != END and not self.table.knows(number):
            raise UnknownTokenError(f"unknown token 0x{number:04X}", at)
        raise GrammarError(f"{reason}, found {self.describe(at)}", at)

    def describe(self, index: int) -> str:
        """What stands at ``index``, for error messages."""
        number = self.tokens[index] if index < len(self.tokens) else END
        if number == END:
            return "the end of the message"
        return self.table.display(number)

    # --- single tokens -------------------------------------------------------

    def peek(self) -> int:
        """The next token number, without consuming it (END at the end)."""
        return self.tokens[self.pos]

    def take(self) -> int:
        """Consume and return the next token."""
        number = self.tokens[self.pos]
        self.pos += 1
        return number

    def accept(self, number: int) -> bool:
        """Consume the next token if it is ``number``; say whether it was."""
        if self.tokens[self.pos] == number:
            self.pos += 1
            return True
        return False

    def expect(self, number: int, what: str) -> None:
        """Consume the token ``number`` or fail saying ``what`` was expected."""
        if self.tokens[self.pos] != number:
            self.fail(f"expected {what}")
        self.pos += 1

    def open(self) -> None:
        """Consume ``(``."""
        if self.tokens[self.pos] != BRA:
            self.fail("expected '('")
        self.pos += 1

    def close(self) -> None:
        """Consume ``)``."""
        if self.tokens[self.pos] != KET:
            self.fail("expected ')'")
        self.pos += 1

    def at_close(self) -> bool:
        """True if the next token is ``)`` (the end of the current group)."""
        return self.tokens[self.pos] == KET

    def end(self) -> None:
        """Fail unless the whole sequence has been read."""
        if self.tokens[self.pos] != END:
            self.fail("expected the end of the message")

    def more(self) -> bool:
        """True unless the next token ends the message or the current group."""
        number = self.tokens[self.pos]
        return number != END and number != KET

    def at_end(self) -> bool:
        """True when every token has been read."""
        return self.tokens[self.pos] == END

    # --- categories ----------------------------------------------------------

    def _named(self, category_ok: bool, what: str) -> str:
        number = self.tokens[self.pos]
        name = self._names.get(number) if category_ok else None
        if name is None:
            self.fail(f"expected {what}")
        self.pos += 1
        return name

    def power(self) -> str:
        """A power token's name."""
        number = self.tokens[self.pos]
        return self._named(number >> 8 == CAT_POWER, "a power")

    def power_or_uno(self) -> str:
        """A power, or ``UNO`` (unowned / observer)."""
        number = self.tokens[self.pos]
        return self._named(number >> 8 == CAT_POWER or number == UNO, "a power or UNO")

    def province(self) -> str:
        """A province token's name."""
        number = self.tokens[self.pos]
        ok = CAT_PROVINCE_FIRST <= number >> 8 <= CAT_PROVINCE_LAST
        return self._named(ok, "a province")

    def coast(self) -> str:
        """A coast token's name."""
        number = self.tokens[self.pos]
        return self._named(number >> 8 == CAT_COAST, "a coast")

    def token_of(self, category: int, what: str) -> str:
        """The name of a token of ``category`` (e.g. a result or an order note)."""
        number = self.tokens[self.pos]
        return self._named(number >> 8 == category, what)

    def unit_type(self) -> UnitType:
        """``AMY`` or ``FLT``."""
        kind = _UNIT_TYPES.get(self.tokens[self.pos])
        if kind is None:
            self.fail("expected a unit type (AMY or FLT)")
        self.pos += 1
        return kind

    def season(self) -> Season:
        """A phase token (SPR, SUM, FAL, AUT, WIN)."""
        number = self.tokens[self.pos]
        season = _SEASONS.get(number) if number >> 8 == CAT_PHASE else None
        if season is None:
            self.fail("expected a season")
        self.pos += 1
        return season

    def integer(self) -> int:
        """An integer token's value."""
        number = self.tokens[self.pos]
        if not 0 <= number < 0x4000:
            self.fail("expected a number")
        self.pos += 1
        return number - 0x4000 if number & 0x2000 else number

    def string(self) -> str:
        """A run of text tokens (possibly empty) as a string."""
        tokens = self.tokens
        start = pos = self.pos
        while tokens[pos] >> 8 == CAT_TEXT:
            pos += 1
        self.pos = pos
        return bytes(n & 0xFF for n in tokens[start:pos]).decode("latin-1")

    # --- small structures ------------------------------------------------------

    def location(self) -> Location:
        """``province`` or ``(province coast)``."""
        if self.tokens[self.pos] == BRA:
            self.pos += 1
            province = self.province()
            coast = self.coast()
            self.close()
            return Location(province, coast)
        return Location(self.province())

    def unit_body(self) -> Unit:
        """``power unit_type location`` (the inside of a unit's brackets)."""
        power = self.power()
        kind = self.unit_type()
        return Unit(power, kind, self.location())

    def unit(self) -> Unit:
        """``(power unit_type location)``."""
        self.open()
        unit = self.unit_body()
        self.close()
        return unit

    def turn_body(self) -> Turn:
        """``season year`` (the inside of a turn's brackets)."""
        season = self.season()
        return Turn(season, self.integer())

    def turn(self) -> Turn:
        """``(season year)``."""
        self.open()
        turn = self.turn_body()
        self.close()
        return turn

    def bracketed_string(self) -> str:
        """``('text')``."""
        self.open()
        text = self.string()
        self.close()
        return text

    def bracketed_integer(self) -> int:
        """``(n)``."""
        self.open()
        value = self.integer()
        self.close()
        return value

    def powers_until_close(self) -> tuple[str, ...]:
        """Powers up to (not including) the closing bracket of the current group."""
        powers = []
        while self.tokens[self.pos] != KET:
            powers.append(self.power())
        return tuple(powers)

    def provinces_until_close(self) -> tuple[str, ...]:
        """Provinces up to (not including) the closing bracket of the current group."""
        provinces = []
        while self.tokens[self.pos] != KET:
            provinces.append(self.province())
        return tuple(provinces)

    def group_end(self) -> int:
        """Index of the ``)`` that closes the group whose ``(`` is the next token."""
        tokens = self.tokens
        pos = self.pos
        if tokens[pos] != BRA:
            self.fail("expected '('")
        depth = 0
        while True:
            number = tokens[pos]
            if number == BRA:
                depth += 1
            elif number == KET:
                depth -= 1
                if not depth:
                    return pos
            elif number == END:
                self.fail("'(' is never closed")
            pos += 1

    def raw_group(self) -> Expression:
        """The contents of the next bracketed group, as a nested expression."""
        stop = self.group_end()
        start = self.pos + 1
        self.pos = stop + 1
        return fold(self.tokens[start:stop], self.table)

    def raw_until_close(self) -> Expression:
        """The items up to (not including) the ``)`` closing the current group, as an expression."""
        tokens = self.tokens
        start = pos = self.pos
        depth = 0
        while True:
            number = tokens[pos]
            if number == BRA:
                depth += 1
            elif number == KET:
                if not depth:
                    break
                depth -= 1
            elif number == END:
                self.fail("'(' is never closed", pos)
            pos += 1
        self.pos = pos
        return fold(tokens[start:pos], self.table)

    def raw_rest(self) -> Expression:
        """Everything up to the end of the message, as a nested expression."""
        start = self.pos
        check_brackets(self.tokens[:-1])
        self.pos = len(self.tokens) - 1
        return fold(self.tokens[start:-1], self.table)
