"""A scripted player for press games: it joins, talks at and above the game's level, and waits.

``python -m tests.bot.press_peer --host H --port P --name N`` is a ``cmd:`` seat
of ``daide-mcts game``.  Once the game starts (the first ``NOW``) it sends every
other power two proposals: one at the game's level that we read (an ``AND`` of a
peace and a draw, level 30) and one above it (a ``CHO``, level 50), each
naming the recipient and itself.  It orders the least the rules ask (MILA's
server stops a game whose power gives no orders): its units hold, its
dislodged units disband, a surplus of units is removed and builds waived.  It
votes for the draw in every phase (so the game ends when ours propose it), and
exits at ``SMR`` or ``OFF``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
from collections.abc import Sequence

from bot.client.connection import Connection, ConnectionLost
from protocol.daide_errors import LanguageError
from protocol.messages import (
    Drw,
    Hlo,
    Map,
    Mdf,
    Message,
    Nme,
    Now,
    Off,
    Sco,
    Smr,
    Sub,
    Yes,
    parse_message,
    parse_text,
)
from protocol.tokens import TokenTable
from protocol.values import Disband, Hold, Order, Remove, Season, Turn, UnitPosition, Waive
from protocol.wire import DiplomacyMessage, FinalMessage, RepresentationMessage
from tests.bot.scripted import Inbox

VERSION = "press-peer 1"
"""The version our peer gives in its NME."""

POWERS = ("AUS", "ENG", "FRA", "GER", "ITA", "RUS", "TUR")
"""The standard map's powers (the peer plays the standard map only)."""

READ_AT_LEVEL = "PRP ( AND ( PCE ( {us} {them} ) ) ( DRW ) )"
"""A level-30 proposal: read, and refused (we agree to no ``AND``)."""

ABOVE_LEVEL = "PRP ( CHO ( 1 1 ) ( PCE ( {us} {them} ) ) )"
"""A level-50 proposal: above level 30, answered ``HUH`` and ``TRY``."""

CONNECT_TIMEOUT = 30.0
"""Seconds to reach the server."""

JOIN_TIMEOUT = 600.0
"""Seconds the server may take to take the peer in (MILA's loads slowly on a busy machine)."""

GAME_TIMEOUT = 600.0
"""Seconds the peer waits for the server's next message before it gives up."""


def press_for(us: str, them: str, turn: Turn, table: TokenTable) -> list[Message]:
    """The two SNDs the peer sends ``them`` (naming the turn: MILA's server needs it)."""
    return [
        parse_text(f"SND ( {turn} ) ( {them} ) ( {form.format(us=us, them=them)} )", table)
        for form in (READ_AT_LEVEL, ABOVE_LEVEL)
    ]


def least_orders(us: str, turn: Turn, units: Sequence[UnitPosition], centres: int) -> list[Order]:
    """The orders the rules ask of ``us`` in ``turn``: holds, disbands, removals or waives."""
    ours = [u for u in units if u.unit.power == us]
    if turn.season.is_movement:
        return [Hold(u.unit) for u in ours]
    if turn.season == Season.WINTER:
        surplus = len(ours) - centres
        if surplus > 0:
            return [Remove(u.unit) for u in ours[:surplus]]
        return [Waive(us) for _ in range(-surplus)]
    return [Disband(u.unit) for u in ours if u.dislodged]


async def listen(conn: Connection, inbox: Inbox, name: str) -> None:
    """Put every message the server sends into ``inbox`` (the RM is answered with NME)."""
    try:
        while not isinstance(wire := await conn.receive(), FinalMessage):
            if isinstance(wire, RepresentationMessage):
                conn.send(Nme(name, VERSION))
            elif isinstance(wire, DiplomacyMessage):
                with contextlib.suppress(LanguageError):  # press of ours it cannot read
                    inbox.heard(parse_message(wire.tokens, wire.table))
    except ConnectionLost:
        pass
    finally:
        inbox.hung_up()


async def play(host: str, port: int, name: str) -> int:
    """Play the scripted seat until the game ends; the exit code."""
    conn = await Connection.open(host, port, CONNECT_TIMEOUT)
    inbox = Inbox()
    listening = asyncio.create_task(listen(conn, inbox, name))
    try:
        offered = await inbox.expect(Map, JOIN_TIMEOUT, lambda m: bool(m.name))
        conn.send(Mdf())
        await inbox.expect(Mdf, JOIN_TIMEOUT, lambda m: m.definition is not None)
        conn.send(Yes(Map(offered.name)))
        us = (await inbox.expect(Hlo, JOIN_TIMEOUT, lambda m: m.power in POWERS)).power or ""
        spoken = False
        centres = 0
        while (message := await inbox.next(GAME_TIMEOUT)) is not None:
            if isinstance(message, Now) and message.turn is not None:
                if not spoken:
                    spoken = True
                    for them in (p for p in POWERS if p != us):
                        for snd in press_for(us, them, message.turn, conn.table):
                            conn.send(snd)
                orders = least_orders(us, message.turn, message.units, centres)
                if orders:
                    conn.send(Sub(tuple(orders)))
                conn.send(Drw())
            elif isinstance(message, Sco) and message.centres is not None:
                centres = sum(len(owned) for power, owned in message.centres if power == us)
            elif isinstance(message, Smr | Off):
                break
        return 0
    finally:
        listening.cancel()
        await conn.close()


def main(argv: Sequence[str] | None = None) -> int:
    """Command line of the peer."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", required=True)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--name", required=True)
    args = parser.parse_args(argv)
    return asyncio.run(play(args.host, args.port, args.name))


if __name__ == "__main__":
    raise SystemExit(main())
