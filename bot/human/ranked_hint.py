"""The hint as the page shows it: the search's orders, its best sets and each unit's spread.

The core notes a hint with the search's orders, its best sets and, per unit,
its orders by share of the root's visits (:class:`~bot.client.core.notes.HintReady`,
DAIDE text).  The seat puts them in the usual notation (:func:`ranked_from_note`
for the sets and spread) and its desk keeps them as a :class:`HintView`;
:meth:`HintView.spelled` gives the whole hint as the page's menus spell it, each
order drawn and each unit keyed as its menu is (the web app, on each state).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from bot.client.core.notes import HintSet, HintShare
from bot.client.core.person import PersonChoices, PersonOrderError, order_subject
from bot.human.ordertext import OrderTextError, chosen_order
from bot.toolkit.order_words import format_order_text
from bot.view.timeline import order_json

Json = dict[str, Any]
"""A JSON object of the viewer's drawing (an order)."""

Spell = Callable[[str], tuple[str, Json | None, str | None]]
"""An order's text → as the menus spell it, its drawing and its unit's key (None: unreadable)."""

DIGITS = 4
"""Decimals kept of a value or a share."""


class HintPart(BaseModel):
    """A part of the ranked hint."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class RankedSetView(HintPart):
    """One of the search's best sets: its orders (drawn), mean value, visits and visit share."""

    orders: list[str]
    draw: list[Json | None] = []
    value: float
    visits: int
    share: float


class OrderShareView(HintPart):
    """One order of a unit: its text (drawn), its share of the root's visits, their mean value."""

    text: str
    draw: Json | None = None
    share: float
    value: float


class UnitSpreadView(HintPart):
    """A unit's orders by share of the search's visits (most visited first); ``key`` its menu's."""

    key: str | None = None
    orders: list[OrderShareView]


class RankedHint(HintPart):
    """The search's best sets (best first) and each unit's spread over its orders."""

    sets: list[RankedSetView]
    spread: list[UnitSpreadView]


def ranked_from_note(
    sets: tuple[HintSet, ...],
    spread: tuple[tuple[HintShare, ...], ...],
    usual: Callable[[str], str],
) -> RankedHint | None:
    """The note's sets and spread with each order in the usual notation (None if there are none)."""
    if not sets:
        return None
    return RankedHint(
        sets=[
            RankedSetView(
                orders=[usual(o) for o in s.orders],
                value=round(s.value, DIGITS),
                visits=s.visits,
                share=round(s.share, DIGITS),
            )
            for s in sets
        ],
        spread=[
            UnitSpreadView(
                orders=[
                    OrderShareView(
                        text=usual(o.order),
                        share=round(o.share, DIGITS),
                        value=round(o.value, DIGITS),
                    )
                    for o in shares
                ]
            )
            for shares in spread
            if shares
        ],
    )


class HintView(HintPart):
    """The bot's hint for the phase: its orders (as the menus spell them), drawn; or why none."""

    orders: list[str]
    draw: list[Json | None] = Field(default_factory=list)
    error: str | None = None
    pending: bool = True
    ranked: RankedHint | None = None
    """The search's best sets and each unit's spread (movement phases)."""

    def spelled(self, choices: PersonChoices) -> HintView:
        """The whole hint as the phase's menus (``choices``) spell it: orders, sets and spread."""
        spell = speller(choices)
        orders, draw = spelled_orders(self.orders, spell)
        ranked = None if self.ranked is None else spelled(self.ranked, spell)
        return self.model_copy(update={"orders": orders, "draw": draw, "ranked": ranked})


def spelled_orders(texts: list[str], spell: Spell) -> tuple[list[str], list[Json | None]]:
    """``texts`` as the menus spell them, and their drawings (None: an order not read)."""
    read = [spell(text) for text in texts]
    return [t for t, _, _ in read], [d for _, d, _ in read]


def spelled(hint: RankedHint, spell: Spell) -> RankedHint:
    """``hint`` as the menus spell its orders, each drawn, each unit keyed as its menu is."""
    sets = []
    for s in hint.sets:
        orders, draw = spelled_orders(s.orders, spell)
        sets.append(s.model_copy(update={"orders": orders, "draw": draw}))
    spread = []
    for unit in hint.spread:
        shares = []
        key = None
        for o in unit.orders:
            text, drawing, subject = spell(o.text)
            key = key or subject
            shares.append(o.model_copy(update={"text": text, "draw": drawing}))
        spread.append(UnitSpreadView(key=key, orders=shares))
    return RankedHint(sets=sets, spread=spread)


def speller(choices: PersonChoices) -> Spell:
    """How the phase's menus (``choices``) spell an order, draw it and key its unit."""

    def spell(text: str) -> tuple[str, Json | None, str | None]:
        try:
            order = chosen_order(text, choices)
        except (OrderTextError, PersonOrderError):
            return text, None, None
        return format_order_text(order), order_json(order), order_subject(order)

    return spell
