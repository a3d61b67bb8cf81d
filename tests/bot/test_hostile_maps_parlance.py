"""A live Parlance game in which the bot is given a map without ANK's army list: it plays on.

Our bot (``daide-mcts play``) plays a live Parlance with six Parang dumbbots
through our proxy (:mod:`bot.stress.netproxy`).  The proxy keeps the bot's
``MDF`` request from Parlance and answers it with the standard MDF less ANK's
army list ``( AMY ARM CON SMY )``, as a hostile or broken server would.  ARM,
CON and SMY still list ANK: one-sided adjacencies, which are legal and read as
directed (an army may move into Ankara, not out of it).  The map used to crash
the client with a segmentation fault in its first movement phase; now the bot
accepts it and plays the two years out without missing an order, and every
order it sends is legal on the real map too (the map given has fewer moves,
never more).
"""

from __future__ import annotations

import pytest

from bot.stress.netproxy import Direction, NetProxy
from protocol.expression import format_tokens
from protocol.messages import Ccd, Hlo, Now, parse_message
from protocol.tokens import MDF
from protocol.wire import DiplomacyMessage, encode_tokens
from tests.adjudicator.mutated_maps import NAMED, reaction

pytestmark = [pytest.mark.slow, pytest.mark.parlance]

ONE_SIDED = NAMED["ANK's army list dropped"]


async def test_bot_plays_on_a_map_with_one_sided_adjacencies(
    parlance_server, parang_bots, run_bot
) -> None:
    game_map = reaction(ONE_SIDED)[1]
    assert game_map is not None and game_map.army_adjacent[game_map.province_index["ANK"]] == ()
    server = parlance_server(MTL=4, RTL=2, BTL=2, draw=2)
    seen: dict[str, list] = {"power": [], "nows": [], "late": [], "requests": []}

    def tap(link_id: int, direction: Direction, message: object, at: float) -> None:
        if direction is not Direction.DOWN or not isinstance(message, DiplomacyMessage):
            return
        parsed = parse_message(message.tokens, message.table)
        if isinstance(parsed, Hlo):
            seen["power"].append(parsed.power)
        elif isinstance(parsed, Ccd) and parsed.turn is not None and parsed.power in seen["power"]:
            seen["late"].append(str(parsed.turn))  # the server says we missed a deadline
        elif isinstance(parsed, Now):
            seen["nows"].append(str(parsed.turn))

    def intercept(link_id: int, message: DiplomacyMessage) -> bool:
        """Answer the bot's MDF request with the mutated map; Parlance never sees it."""
        if tuple(message.tokens) == (MDF,):
            seen["requests"].append(link_id)
            proxy.inject(encode_tokens(ONE_SIDED))
            return True
        return False

    proxy = NetProxy(server.host, server.port, tap=tap, intercept=intercept)
    async with proxy:
        bot = run_bot(proxy.port, "--final-year", "1902", "--seed", "5")
        parang_bots(server, 6)
        summary = await bot.wait_async(timeout=420)

    assert seen["requests"] == [1], seen
    records = bot.game_log()
    texts = [(r["dir"], r["text"]) for r in records if r["kind"] == "msg"]
    assert ("in", format_tokens(ONE_SIDED)) in texts
    assert any(way == "out" and text.startswith("YES ( MAP") for way, text in texts)
    assert not [r for r in records if r["kind"] in ("bad_map", "handler_error")], records
    # The bot played the game out on the map it was given, missing no order.
    assert summary["ended_cleanly"], summary
    assert summary["result"].startswith(("DRW", "SLO")), summary
    assert summary["missed_deadlines"] == 0, summary
    assert seen["late"] == [], f"the server reported missed orders for us: {seen['late']}"
    assert summary["refused_orders"] == 0, summary
    assert summary["phases_played"] >= 5, summary
    assert seen["nows"][-1].endswith("1902"), seen
