"""A dropped connection mid-phase: the bot rejoins with IAM and the game completes cleanly.

Our own proxy (:mod:`bot.stress.netproxy`) sits between the bot and a live Parlance;
the test cuts the bot's connection the moment the server starts a movement
phase, before the bot has even seen that phase's NOW.  The server then waits
for our orders with its deadline running (DSD is off), so the bot must
reconnect, rejoin with the passcode from HLO, ask where the game stands and
still submit before the deadline.
"""

from __future__ import annotations

import pytest

from bot.stress.netproxy import Direction, NetProxy
from protocol.messages import Ccd, Hlo, Now, parse_message
from protocol.wire import DiplomacyMessage

pytestmark = pytest.mark.slow


async def test_bot_rejoins_after_its_connection_is_cut(parlance_server, parang_bots, run_bot):
    server = parlance_server(MTL=6, RTL=3, BTL=3, draw=2)
    seen: dict[str, object] = {"power": None, "cut_at": None, "late": []}

    def tap(link_id: int, direction: Direction, message: object, at: float) -> None:
        if direction is not Direction.DOWN or not isinstance(message, DiplomacyMessage):
            return
        parsed = parse_message(message.tokens, message.table)
        if isinstance(parsed, Hlo):
            seen["power"] = parsed.power
        elif isinstance(parsed, Ccd) and parsed.turn is not None and parsed.power == seen["power"]:
            seen["late"].append(str(parsed.turn))  # the server says we missed a deadline
        elif isinstance(parsed, Now) and seen["cut_at"] is None and str(parsed.turn) == "FAL 1901":
            seen["cut_at"] = str(parsed.turn)
            proxy.cut()

    proxy = NetProxy(server.host, server.port, tap=tap)
    async with proxy:
        bot = run_bot(proxy.port, "--final-year", "1902", "--strategy", "dumbbot", "--seed", "3")
        parang_bots(server, 6)
        summary = await bot.wait_async(timeout=300)

    assert seen["cut_at"] == "FAL 1901", "the proxy never saw the phase it was to cut in"
    assert proxy.stats.cuts == 1 and proxy.stats.accepted >= 2, proxy.stats
    assert summary["reconnections"] >= 1, summary
    assert summary["ended_cleanly"], summary
    assert summary["missed_deadlines"] == 0, summary
    assert seen["late"] == [], f"the server reported missed orders for us: {seen['late']}"
    assert summary["refused_orders"] == 0, summary
    assert summary["shadow_mismatches"] == 0, summary
    records = bot.game_log()
    out = [r["text"] for r in records if r["kind"] == "msg" and r["dir"] == "out"]
    assert f"IAM ( {summary['power']} ) ( {summary['passcode']} )" in out, out[:20]
    assert any(r["kind"] == "rejoined" for r in records)
    # After the rejoin the bot played the cut phase: orders for FAL 1901 went out.
    rejoined = next(i for i, r in enumerate(records) if r["kind"] == "rejoined")
    assert any(r["kind"] == "orders" and r["turn"] == "FAL 1901" for r in records[rejoined:]), (
        "no orders for the phase that was cut"
    )
