"""The outbox: what the core writes of a message it ignores, in the game's names."""

from __future__ import annotations

from bot.client.core import notes
from bot.client.core.effects import Publish
from bot.client.core.outbox import Outbox
from protocol.messages import Ord
from protocol.tokens import STANDARD
from protocol.values import Hold, Location, OrderResult, Season, Turn, Unit, UnitType

ORD = Ord(
    OrderResult(
        Turn(Season.SPRING, 1901), Hold(Unit("FRA", UnitType.FLEET, Location("NAO"))), ("SUC",)
    )
)


def test_an_ignored_message_is_noted_in_the_games_names() -> None:
    out = Outbox()
    out.table = STANDARD
    out.ignore("stale", ORD)
    assert out.take() == [
        Publish(
            notes.MessageIgnored("stale", "ORD ( SPR 1901 ) ( ( FRA FLT NAO ) HLD ) ( SUC )", "ORD")
        )
    ]


def test_a_message_the_table_cannot_spell_is_written_as_its_repr() -> None:
    out = Outbox()  # no RM yet: no power or province in the table
    assert out.text(ORD) == repr(ORD)
    out.ignore("before the RM", ORD)
    assert out.take() == [Publish(notes.MessageIgnored("before the RM", repr(ORD), "ORD"))]
