"""The variant options of an HLO message: ``((LVL 0) (MTL 300) (DSD) ...)``.

:class:`Variant` keeps the options exactly as received (so a message
round-trips), checks the shape of the ones the syntax defines (LVL, MTL, RTL,
BTL, DSD, AOA, PDA, NPR, NPB, PTL), keeps any other option raw, and answers
the questions a client asks: the syntax level, the deadlines in seconds, the
flags.
"""

from __future__ import annotations

from dataclasses import dataclass

from protocol.expression import Expression, flatten
from protocol.reader import TokenReader
from protocol.tokens import BRA, KET, TokenTable

_NUMBERED = frozenset({"LVL", "MTL", "RTL", "BTL", "PTL"})
_FLAGS = frozenset({"DSD", "AOA", "PDA", "NPR", "NPB"})
_CANONICAL_ORDER = ("LVL", "MTL", "RTL", "BTL", "DSD", "AOA", "PDA", "NPR", "NPB", "PTL")


@dataclass(frozen=True, slots=True)
class VariantOption:
    """One ``(NAME args...)`` group of HLO's variant: the option's token name and the rest.

    For the options the syntax defines, ``args`` is ``(n,)`` for LVL and the
    time limits (a time limit may also be ``(seconds, hours)``, or a negative
    number of hours, as Parlance writes long deadlines) and ``()`` for flags.
    """

    name: str
    args: Expression = ()


@dataclass(frozen=True, slots=True)
class Variant:
    """The variant options of a game, in the order the server listed them."""

    options: tuple[VariantOption, ...] = ()

    @classmethod
    def of(
        cls,
        level: int = 0,
        *,
        move_time_limit: int | None = None,
        retreat_time_limit: int | None = None,
        build_time_limit: int | None = None,
        deadline_stops: bool = False,
        any_orders_accepted: bool = False,
        partial_draws_allowed: bool = False,
        no_press_retreats: bool = False,
        no_press_builds: bool = False,
        press_time_limit: int | None = None,
    ) -> Variant:
        """Options in the order the syntax document lists them (limits in seconds)."""
        values: dict[str, int | bool | None] = {
            "LVL": level,
            "MTL": move_time_limit,
            "RTL": retreat_time_limit,
            "BTL": build_time_limit,
            "DSD": deadline_stops,
            "AOA": any_orders_accepted,
            "PDA": partial_draws_allowed,
            "NPR": no_press_retreats,
            "NPB": no_press_builds,
            "PTL": press_time_limit,
        }
        options = []
        for name in _CANONICAL_ORDER:
            value = values[name]
            if value is True:
                options.append(VariantOption(name))
            elif value is not None and value is not False:
                options.append(VariantOption(name, (int(value),)))
        return cls(tuple(options))

    def get(self, name: str) -> VariantOption | None:
        """The option called ``name`` (e.g. ``"MTL"``), if present."""
        for option in self.options:
            if option.name == name:
                return option
        return None

    def has(self, name: str) -> bool:
        """True if the option ``name`` is present (for flags such as ``DSD``)."""
        return self.get(name) is not None

    def _seconds(self, name: str) -> int | None:
        option = self.get(name)
        if option is None:
            return None
        args = option.args
        if len(args) == 2:
            return int(args[0]) + 3600 * int(args[1])  # type: ignore[arg-type]
        value = int(args[0])  # type: ignore[arg-type]
        return value if value >= 0 else -3600 * value

    @property
    def level(self) -> int | None:
        """The press level (LVL); 0 is no press."""
        option = self.get("LVL")
        return None if option is None else int(option.args[0])  # type: ignore[arg-type]

    @property
    def move_time_limit(self) -> int | None:
        """Seconds for movement phases (MTL), or None for no deadline."""
        return self._seconds("MTL")

    @property
    def retreat_time_limit(self) -> int | None:
        """Seconds for retreat phases (RTL), or None for no deadline."""
        return self._seconds("RTL")

    @property
    def build_time_limit(self) -> int | None:
        """Seconds for adjustment phases (BTL), or None for no deadline."""
        return self._seconds("BTL")

    @property
    def press_time_limit(self) -> int | None:
        """Seconds before the movement deadline when press stops (PTL), or None."""
        return self._seconds("PTL")

    @property
    def deadline_stops(self) -> bool:
        """DSD: the deadline timer stops while a player with orders due is disconnected."""
        return self.has("DSD")

    @property
    def any_orders_accepted(self) -> bool:
        """AOA: the server accepts any syntactically valid order."""
        return self.has("AOA")

    @property
    def partial_draws_allowed(self) -> bool:
        """PDA: draws between some of the surviving powers are allowed."""
        return self.has("PDA")

    @property
    def no_press_retreats(self) -> bool:
        """NPR: no press during retreat phases."""
        return self.has("NPR")

    @property
    def no_press_builds(self) -> bool:
        """NPB: no press during adjustment phases."""
        return self.has("NPB")


NO_OPTIONS = Variant()
"""A variant with no options (the default of a bare HLO)."""


def read_variant(r: TokenReader) -> Variant:
    """``( (NAME args...) ... )``: the third group of HLO."""
    r.open()
    options = []
    while not r.at_close():
        r.open()
        name_index = r.pos
        number = r.take()
        name = r.table.name(number) if number >= 0x4000 and number != BRA else None
        if name is None or number == KET:
            r.fail("expected a variant option name", name_index)
        if name in _NUMBERED:
            first = r.integer()
            if name != "LVL" and not r.at_close():
                args: Expression = (first, r.integer())
            else:
                args = (first,)
            r.close()
        elif name in _FLAGS:
            r.close()
            args = ()
        else:
            args = r.raw_until_close()
            r.close()
        options.append(VariantOption(name, args))
    r.close()
    return Variant(tuple(options))


def write_variant(out: list[int], variant: Variant, table: TokenTable) -> None:
    """Append ``( (NAME args...) ... )``."""
    out.append(BRA)
    for option in variant.options:
        out.append(BRA)
        out.append(table.number(option.name))
        out.extend(flatten(option.args))
        out.append(KET)
    out.append(KET)
