"""The ranked hint as the seat's web app serves it: the orders spelled as the menus spell
them, drawn, each unit keyed as its menu; and the hint's think time asked for."""

from __future__ import annotations

import json

from bot.client.core.notes import HintSet, HintShare
from bot.human.ranked_hint import ranked_from_note
from bot.human.webapp import HINT_SECONDS
from protocol.values import Season, Turn
from tests.bot.human.conftest import Served

TURN = "SPR 1901"
BEST = ("( FRA AMY PAR ) MTO BUR", "( FRA AMY MAR ) HLD", "( FRA FLT BRE ) MTO MAO")
SECOND = ("( FRA AMY PAR ) MTO PIC", "( FRA AMY MAR ) MTO SPA", "( FRA FLT BRE ) HLD")
USUAL = {
    "( FRA AMY PAR ) MTO BUR": "A PAR - BUR",
    "( FRA AMY PAR ) MTO PIC": "a par - pic",  # spelled anew by the web app
    "( FRA AMY MAR ) HLD": "A MAR H",
    "( FRA AMY MAR ) MTO SPA": "A MAR - SPA",
    "( FRA FLT BRE ) MTO MAO": "F BRE - MAO",
    "( FRA FLT BRE ) HLD": "F BRE H",
    "( FRA FLT BRE ) MTO XXX": "F BRE - XXX",  # unreadable: kept, not drawn
}


def _state(served: Served) -> dict[str, object]:
    status, text = served.call("GET", "/api/state")
    assert status == 200, text
    return json.loads(text)


def test_the_ranked_sets_and_each_units_spread_are_spelled_drawn_and_keyed(
    served: Served,
) -> None:
    sets = (HintSet(BEST, 0.41, 60, 0.6), HintSet(SECOND, 0.33, 40, 0.4))
    spread = (
        (HintShare(BEST[0], 0.6, 0.41), HintShare(SECOND[0], 0.4, 0.33)),
        (HintShare(BEST[1], 0.6, 0.41), HintShare(SECOND[1], 0.4, 0.33)),
        (HintShare(BEST[2], 0.6, 0.41), HintShare("( FRA FLT BRE ) MTO XXX", 0.4, 0.2)),
    )
    ranked = ranked_from_note(sets, spread, USUAL.__getitem__)
    assert ranked is not None
    assert ranked_from_note((), (), USUAL.__getitem__) is None
    served.app.desk.hinted(Turn(Season.SPRING, 1901), [USUAL[o] for o in BEST], ranked=ranked)
    hint = _state(served)["phase"]["hint"]  # type: ignore[index]
    assert hint["orders"] == ["A PAR - BUR", "A MAR H", "F BRE - MAO"]
    shown = hint["ranked"]
    assert [s["orders"] for s in shown["sets"]] == [
        ["A PAR - BUR", "A MAR H", "F BRE - MAO"],
        ["A PAR - PIC", "A MAR - SPA", "F BRE H"],
    ]
    assert [(s["value"], s["visits"], s["share"]) for s in shown["sets"]] == [
        (0.41, 60, 0.6),
        (0.33, 40, 0.4),
    ]
    assert all(d is not None for s in shown["sets"] for d in s["draw"])
    assert [u["key"] for u in shown["spread"]] == ["PAR", "MAR", "BRE"]
    par = shown["spread"][0]["orders"]
    assert [(o["text"], o["share"]) for o in par] == [("A PAR - BUR", 0.6), ("A PAR - PIC", 0.4)]
    brest = shown["spread"][2]["orders"]
    assert brest[1]["text"] == "F BRE - XXX" and brest[1]["draw"] is None
    keys = {o["key"] for o in _state(served)["phase"]["choices"]["options"]}  # type: ignore[index]
    assert {u["key"] for u in shown["spread"]} <= keys


def test_the_hint_thinks_as_long_as_asked(served: Served) -> None:
    status, text = served.call("POST", "/api/hint", {"turn": TURN, "seconds": 10})
    assert status == 200, text
    status, text = served.call("POST", "/api/hint", {"turn": TURN, "seconds": 0.5})
    assert status == 200, text
    status, text = served.call("POST", "/api/hint", {"turn": TURN})
    assert status == 200, text
    status, text = served.call("POST", "/api/hint", {"turn": TURN, "seconds": 0.1})
    assert status == 400 and "seconds: Input should be greater than or equal to 0.5" in text
    asked = [seconds for kind, (_, seconds) in served.seat.sent if kind == "hint"]
    assert asked == [10.0, 0.5, HINT_SECONDS]
