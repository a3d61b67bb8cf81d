"""Our encoder and decoder against a live Parlance server, over a plain blocking socket.

Joins a game as a player: sends IM, receives the RM, sends NME, receives MAP,
asks for and receives MDF, answers YES (MAP), and once six Parang dumbbots fill
the other seats receives HLO and the first NOW and SCO.  Everything the server
sends must decode and parse with no error (``LiveClient`` raises otherwise),
the server must never answer HUH, PRN or REJ to what we send, and the MDF must
equal the recorded ``protocol/data/standard_mdf.txt``.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest

from bot.servers.parlance_install import ParangBots, ParlanceServer
from protocol.data import standard_mdf_text
from protocol.messages import Hlo, Map, Mdf, Message, Nme, Now, Sco, Yes
from protocol.tokens import STANDARD
from protocol.values import Season, Turn
from tests.protocol.live_client import LiveClient

pytestmark = [pytest.mark.parlance, pytest.mark.timeout(120)]


def test_join_a_live_game_and_decode_its_start(
    parlance_server: Callable[..., ParlanceServer], parang_bots: Callable[..., ParangBots]
) -> None:
    server = parlance_server(MTL=5, RTL=2, BTL=2)
    deadline = time.monotonic() + 60
    client = LiveClient(server.host, server.port)
    try:
        client.send(Nme("daide-mcts", "0.1"))
        assert client.wait_for(Yes, deadline) == Yes(Nme("daide-mcts", "0.1"))
        assert client.representation is not None
        assert client.table is STANDARD  # Parlance sends the full standard RM

        assert client.wait_for(Map, deadline) == Map("standard")
        client.send(Mdf())
        mdf = client.wait_for(Mdf, deadline)
        assert isinstance(mdf, Mdf) and mdf.definition is not None
        assert mdf.to_text() == standard_mdf_text()
        client.send(Yes(Map("standard")))

        parang_bots(server, 6)
        hlo = client.wait_for(Hlo, deadline)
        assert isinstance(hlo, Hlo)
        assert hlo.power in STANDARD.powers
        assert hlo.variant.level == 0
        assert hlo.variant.move_time_limit == 5
        assert hlo.variant.retreat_time_limit == 2
        assert hlo.variant.build_time_limit == 2

        seen: dict[type[Message], Message] = {}
        while Now not in seen or Sco not in seen:
            message = client.receive(deadline)
            seen.setdefault(type(message), message)
        now, sco = seen[Now], seen[Sco]
        assert isinstance(now, Now) and now.turn == Turn(Season.SPRING, 1901)
        assert len(now.units) == 22
        assert any(p.unit.location.coast == "SCS" for p in now.units)  # RUS FLT ( STP SCS )
        assert isinstance(sco, Sco) and sco.centres is not None
        assert sum(len(owned) for _, owned in sco.centres) == 34
    finally:
        client.close()
    # every DM was decoded and parsed on the way (LiveClient raises otherwise)
    received = [line[3:] for line in client.transcript if line.startswith("<< ")]
    assert len(received) >= 7
    complaints = [text for text in received if text.split(" ", 1)[0] in ("HUH", "PRN", "REJ")]
    assert complaints == [], "the server did not accept what we sent"
