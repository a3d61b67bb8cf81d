"""The richer hint as the page shows it: the search's best sets and each unit's spread.

The core notes a hint with the search's best sets and, per unit, its orders by
share of the root's visits (:class:`~bot.client.core.notes.HintReady`, DAIDE
text).  :func:`ranked_from_note` puts them in the usual notation for the
seat's desk; :func:`spelled` gives them as the page's menus spell them, each
order drawn and each unit keyed as its menu is (the web app, on each state).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import BaseModel, ConfigDict

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


def spelled(hint: RankedHint, spell: Spell) -> RankedHint:
    """``hint`` as the menus spell its orders, each drawn, each unit keyed as its menu is."""
    sets = []
    for s in hint.sets:
        read = [spell(text) for text in s.orders]
        sets.append(
            s.model_copy(
                update={"orders": [t for t, _, _ in read], "draw": [d for _, d, _ in read]}
            )
        )
    spread = []
    for unit in hint.spread:
        orders = []
        key = None
        for o in unit.orders:
            text, draw, subject = spell(o.text)
            key = key or subject
            orders.append(o.model_copy(update={"text": text, "draw": draw}))
        spread.append(UnitSpreadView(key=key, orders=orders))
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
