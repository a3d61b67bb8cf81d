"""The start page's form: what a person asks for, read strictly, and the local game it makes.

:class:`StartForm` is the body of ``POST /api/start`` (:mod:`bot.human.start_page`):
pydantic reads it with exact JSON types, bounds and no unknown field.  What
depends on this machine — which maps Parlance serves, whether Parang's bots and
Albert can run — is the :class:`Catalogue`, and :func:`plan_game` checks the
form against it and gives the :class:`~bot.local.outcome.GameConfig` the local
runner plays (the same one ``daide-mcts game --human`` builds), or a
:class:`StartError` saying what is wrong.  Nothing here starts anything.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from bot.human.api import reason
from bot.local.albert_seat import AlbertInstall
from bot.local.launch import (
    PERSON_BOT_TIME,
    PERSON_DEADLINES,
    PRESS_LEVELS,
    STANDARD_MAP,
    Deadlines,
)
from bot.local.lineup import ALBERT_SEAT, HUMAN, PARANG_BOTS, LineupError, build_lineup
from bot.local.outcome import GameConfig
from bot.servers.parlance_maps import ServedMap

ANY_POWER = "any"
"""The power field's value when the server deals the person's power."""

MAX_DEADLINE = 3600
"""The longest deadline of a phase, in seconds (as ``daide-mcts game`` takes)."""

MIN_THINK = 0.5
MAX_THINK = 600.0
"""Bounds of our search's think time per phase, in seconds."""

MAX_YEARS = 200
"""The longest game, in years (as ``daide-mcts game`` takes)."""

DEFAULT_YEARS = 5
"""A game's length unless the person says otherwise: five years (to 1905 on the standard map)."""

MAX_SEATS = 32
"""The most opponents a form may list (the largest of Parterre's maps has 17 powers)."""

MAX_NAME = 40
"""The longest map name taken."""


VALUE_ERROR = "Value error, "
"""What pydantic puts before a validator's own message (dropped: the message says it)."""


class OpponentKind(StrEnum):
    """Who may sit in an opponent's seat."""

    SEARCH = "mcts"
    """Our search (MCTS), thinking the form's think time per phase."""
    DUMBBOT = "dumbbot"
    """Our DumbBot."""
    RANDOM = "random"
    """Our random legal orders."""
    PARANG = "parang"
    """One of Parang's bots (from the local Parlance install)."""
    ALBERT = "albert"
    """Albert 5.5 under Wine, where it is installed."""


class StartError(ValueError):
    """A form that cannot start a game (400): the message says which field and why."""


class FormModel(BaseModel):
    """A part of the form: only the fields named, of exactly their JSON types."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class Opponent(FormModel):
    """One opponent's seat: its kind and, for Parang's bots, which one."""

    kind: OpponentKind
    bot: str | None = None
    """Parang's bot (``dumbbot``, ``peacebot``, ``blabberbot``...), for kind ``parang`` only."""

    @field_validator("kind", mode="before")
    @classmethod
    def _kind(cls, value: Any) -> Any:
        # strict mode takes an enum member only; the JSON gives its value
        if isinstance(value, str) and value in OpponentKind._value2member_map_:
            return OpponentKind(value)
        raise ValueError(f"one of {', '.join(k.value for k in OpponentKind)}")

    @model_validator(mode="after")
    def _bot(self) -> Opponent:
        if self.kind is OpponentKind.PARANG:
            if self.bot not in PARANG_BOTS:
                raise ValueError(f"Parang's bot must be one of {', '.join(PARANG_BOTS)}")
        elif self.bot is not None:
            raise ValueError("only Parang's seats name a bot")
        return self

    def spec(self) -> str:
        """The seat spec of the lineup (``mcts``, ``parang:peacebot``, ``albert``...)."""
        if self.kind is OpponentKind.PARANG:
            return f"parang:{self.bot}"
        return self.kind.value


class StartForm(FormModel):
    """``POST /api/start``: the game the person asks for."""

    map: Annotated[str, Field(min_length=1, max_length=MAX_NAME)] = STANDARD_MAP
    power: Annotated[str, Field(pattern=r"^(any|[A-Z]{3})$")] = ANY_POWER
    """The person's power (``FRA``...), or ``any``: the server deals it."""
    opponents: Annotated[list[Opponent], Field(min_length=1, max_length=MAX_SEATS)]
    """The other seats: with a chosen power, in the map's order of the other powers."""
    think: Annotated[float, Field(ge=MIN_THINK, le=MAX_THINK)] = PERSON_BOT_TIME
    """Seconds our search thinks per phase."""
    move: Annotated[int, Field(ge=1, le=MAX_DEADLINE)] = PERSON_DEADLINES.move
    retreat: Annotated[int, Field(ge=1, le=MAX_DEADLINE)] = PERSON_DEADLINES.retreat
    build: Annotated[int, Field(ge=1, le=MAX_DEADLINE)] = PERSON_DEADLINES.build
    press: int = 0
    """DAIDE's press level (0: no press)."""
    final_year: int | None = None
    """The game ends at this year's winter (None: the map's fifth year)."""

    @field_validator("think", mode="before")
    @classmethod
    def _think(cls, value: Any) -> Any:
        # JSON has one number type: 10 is as good a think time as 10.0
        return float(value) if isinstance(value, int) and not isinstance(value, bool) else value

    @field_validator("press")
    @classmethod
    def _press(cls, value: int) -> int:
        if value not in PRESS_LEVELS:
            raise ValueError(f"one of DAIDE's press levels {', '.join(map(str, PRESS_LEVELS))}")
        return value


def read_form(raw: bytes) -> StartForm:
    """``raw`` (the request's body) as a :class:`StartForm`; StartError saying what is wrong."""
    try:
        return StartForm.model_validate_json(raw or b"{}")
    except ValidationError as exc:
        raise StartError(reason(exc).replace(VALUE_ERROR, "")) from None


@dataclass(frozen=True)
class Catalogue:
    """What this machine can play: the maps served, Parang's bots, Albert."""

    maps: dict[str, ServedMap]
    parang: bool
    """Whether Parang's bots can run (Parlance's Python 2.7 is installed)."""
    albert: AlbertInstall | None = None
    """Albert's install, where there is one."""
    server: str = "parlance"
    """The server the games run on: ``parlance``, or ``mila`` where Parlance cannot run
    (the standard map only; the server deals the powers)."""

    def kinds(self) -> tuple[OpponentKind, ...]:
        """The opponents' kinds a form may choose here."""
        return tuple(
            k
            for k in OpponentKind
            if (k is not OpponentKind.PARANG or self.parang)
            and (k is not OpponentKind.ALBERT or self.albert is not None)
        )

    def as_json(self) -> dict[str, Any]:
        """The choices as the page offers them (``GET /api/options``), with the defaults."""
        return {
            "maps": [
                {
                    "name": m.name,
                    "first_year": m.first_year,
                    "powers": list(m.powers),
                    "description": m.description,
                }
                for m in self.maps.values()
            ],
            "kinds": [k.value for k in self.kinds()],
            "parang_bots": list(PARANG_BOTS),
            "press_levels": list(PRESS_LEVELS),
            "defaults": {
                "map": STANDARD_MAP,
                "think": PERSON_BOT_TIME,
                "move": PERSON_DEADLINES.move,
                "retreat": PERSON_DEADLINES.retreat,
                "build": PERSON_DEADLINES.build,
                "years": DEFAULT_YEARS,
            },
            "bounds": {
                "think": [MIN_THINK, MAX_THINK],
                "deadline": [1, MAX_DEADLINE],
                "years": MAX_YEARS,
            },
        }


def plan_game(form: StartForm, catalogue: Catalogue) -> GameConfig:
    """The local game ``form`` asks for on this machine; StartError if it cannot be played.

    The person sits in the first seat.  With a chosen power the opponents
    take the map's other powers in order (the seats join in that order);
    with ``any`` the server deals every power.
    """
    served = catalogue.maps.get(form.map)
    if served is None:
        raise StartError(f"map: no map called {form.map!r}; one of {', '.join(catalogue.maps)}")
    others = len(served.powers) - 1
    if len(form.opponents) != others:
        raise StartError(
            f"opponents: {served.name} has {len(served.powers)} powers, so {others} opponents "
            f"(got {len(form.opponents)})"
        )
    allowed = catalogue.kinds()
    for i, opponent in enumerate(form.opponents):
        if opponent.kind not in allowed:
            raise StartError(
                f"opponents.{i}: {opponent.kind.value} cannot play here "
                f"(one of {', '.join(k.value for k in allowed)})"
            )
    if form.power != ANY_POWER and form.power not in served.powers:
        raise StartError(
            f"power: {served.name} has no power {form.power}; one of "
            f"{', '.join(served.powers)} or {ANY_POWER}"
        )
    if form.power != ANY_POWER and catalogue.server != "parlance":
        raise StartError(
            f"power: choosing one needs Parlance, which cannot run here; choose {ANY_POWER}"
        )
    final_year = served.year_after(DEFAULT_YEARS) if form.final_year is None else form.final_year
    last = served.year_after(MAX_YEARS)
    if not served.first_year <= final_year <= last:
        raise StartError(
            f"final_year: between {served.first_year} and {last} on {served.name} "
            f"(got {final_year})"
        )
    try:
        seats = build_lineup([HUMAN, *(o.spec() for o in form.opponents)], None, len(served.powers))
    except LineupError as exc:
        raise StartError(f"opponents: {exc}") from None
    slots = None
    if form.power != ANY_POWER:
        mine = served.powers.index(form.power)
        slots = (mine, *(i for i in range(len(served.powers)) if i != mine))
    return GameConfig(
        seats=seats,
        final_year=final_year,
        deadlines=Deadlines(form.move, form.retreat, form.build),
        server=catalogue.server,
        albert=catalogue.albert if any(s.kind == ALBERT_SEAT for s in seats) else None,
        power_slots=slots,
        bot_time=form.think,
        map=served.name,
        first_year=served.first_year,
        press_level=form.press,
    )
