"""A live game in which "the server" says things that contradict it: the bot misses no order.

Our bot (``daide-mcts play``) plays a live Parlance with six Parang dumbbots
through our proxy (:mod:`bot.stress.netproxy`).  Mid-game, right after the
server's NOW of a movement phase, the proxy injects as if Parlance had sent it:

* a SCO that gives Paris to France twice, and a MIS for a fleet of ours that
  does not exist (spring 1901);
* ``NOW ( SPR 8000 )`` (fall 1901);
* a REJ for an IAM the bot never sent, an HLO for another power, and a wrong
  NOW for the phase followed by the right one (spring 1902).

The bot must ignore and count each (its summary says how many of each kind),
and play every phase to the end: every movement phase has all our units
ordered and accepted (THX MBV from Parlance itself), the server reports no
missed orders (CCD) and refuses none.
"""

from __future__ import annotations

import pytest

from bot.stress.netproxy import Direction, NetProxy
from protocol.messages import Ccd, Hlo, Iam, Message, Mis, Now, Rej, Sco, Thx, parse_message
from protocol.values import Location, Season, Turn, Unit, UnitPosition, UnitType
from protocol.wire import DiplomacyMessage, encode_message

pytestmark = [pytest.mark.slow, pytest.mark.parlance]

SEAS = ("NAO", "NWG", "BAR", "MAO", "WES", "ION", "EAS", "BLA", "NTH", "HEL", "SKA")


def _wrong(now: Now, power: str) -> Now:
    """``now`` with one of ``power``'s units left out (or one of anyone's, if it has none)."""
    ours = [u for u in now.units if u.unit.power == power] or list(now.units)
    return Now(now.turn, tuple(u for u in now.units if u != ours[0]))


def _ghost(now: Now, power: str) -> Unit:
    """A fleet of ``power`` in a sea where no unit stands."""
    taken = {u.unit.location.province for u in now.units}
    return Unit(power, UnitType.FLEET, Location(next(s for s in SEAS if s not in taken)))


def _injections(turn: str, now: Now, hlo: Hlo) -> list[Message]:
    """What the proxy injects after the server's NOW for ``turn``."""
    power = hlo.power or ""
    if turn == "SPR 1901":
        return [
            Sco((("FRA", ("PAR", "PAR", "BRE", "MAR")), ("UNO", ("ANK",)))),
            Mis((UnitPosition(_ghost(now, power)),)),
        ]
    if turn == "FAL 1901":
        return [Now(Turn(Season.SPRING, 8000), ())]
    if turn == "SPR 1902":
        other = next(p for p in ("ENG", "FRA") if p != power)
        return [
            Rej(Iam(power, 1234)),
            Hlo(other, 1234, hlo.variant),
            _wrong(now, power),
            now,
        ]
    return []


EXPECTED = {"SCO": 1, "MIS": 1, "NOW": 1, "REJ": 1, "HLO": 1}
"""What the bot must count as ignored, by kind (the wrong NOW is no error: the next restates it)."""


async def test_bot_ignores_messages_that_contradict_the_game_and_misses_no_order(
    parlance_server, parang_bots, run_bot
):
    server = parlance_server(MTL=3, RTL=2, BTL=2, draw=2)
    seen: dict[str, list] = {"hlo": [], "late": [], "injected": [], "phases": []}
    accepted: dict[str, set[Unit]] = {}

    def tap(link_id: int, direction: Direction, message: object, at: float) -> None:
        if direction is not Direction.DOWN or not isinstance(message, DiplomacyMessage):
            return
        parsed = parse_message(message.tokens, message.table)
        power = seen["hlo"][0].power if seen["hlo"] else None
        if isinstance(parsed, Hlo):
            seen["hlo"].append(parsed)
        elif isinstance(parsed, Ccd) and parsed.turn is not None and parsed.power == power:
            seen["late"].append(str(parsed.turn))  # the server says we missed a deadline
        elif isinstance(parsed, Thx) and parsed.note == "MBV" and seen["phases"]:
            unit = getattr(parsed.order, "unit", None)
            if unit is not None:
                accepted.setdefault(str(seen["phases"][-1].turn), set()).add(unit)
        elif isinstance(parsed, Now) and parsed.turn is not None and seen["hlo"]:
            seen["phases"].append(parsed)
            turn = str(parsed.turn)
            messages = _injections(turn, parsed, seen["hlo"][0])
            if messages:
                proxy.inject(b"".join(encode_message(m) for m in messages))
                seen["injected"].append(turn)

    proxy = NetProxy(server.host, server.port, tap=tap)
    async with proxy:
        # Our search, held to a second a phase, says GOF only when it is done: the phase
        # is still on when the injected NOWs restate it (a DumbBot seat says GOF at once,
        # and Parlance may end the phase before the restated orders arrive).
        bot = run_bot(
            proxy.port, "--final-year", "1902", "--strategy", "mcts", "--max-think", "1",
            "--seed", "5",
        )  # fmt: skip
        parang_bots(server, 6)
        summary = await bot.wait_async(timeout=240)

    assert seen["injected"] == ["SPR 1901", "FAL 1901", "SPR 1902"], seen["injected"]
    power = seen["hlo"][0].power
    assert len(seen["hlo"]) == 1 and summary["power"] == power, summary
    # Each injected message was ignored and counted by its kind; nothing else was.
    assert summary["ignored_by_kind"] == EXPECTED, summary
    # The bot played on to the end, missing no order.
    assert summary["ended_cleanly"], summary
    assert summary["result"].startswith(("DRW", "SLO")), summary
    assert summary["missed_deadlines"] == 0, summary
    assert seen["late"] == [], f"the server reported missed orders for us: {seen['late']}"
    assert summary["refused_orders"] == 0 and summary["reconnections"] == 0, summary
    assert summary["shadow_mismatches"] == 0, summary
    movements = [n for n in seen["phases"] if n.turn.season in (Season.SPRING, Season.FALL)]
    assert [str(n.turn) for n in movements][:4] == ["SPR 1901", "FAL 1901", "SPR 1902", "FAL 1902"]
    for now in movements:
        ours = {u.unit for u in now.units if u.unit.power == power}
        got = accepted.get(str(now.turn), set())
        assert ours <= got, f"{now.turn}: no accepted order for {ours - got}"
    # The bot never took the other power's HLO or answered the REJ by starting again.
    records = bot.game_log()
    out = [r["text"] for r in records if r["kind"] == "msg" and r["dir"] == "out"]
    assert not [t for t in out if t.startswith(("NME", "IAM"))][1:], out[:10]
    assert [r["kind"] for r in records].count("hlo") == 1
    assert any(r["kind"] == "phase_restated" and r["turn"] == "SPR 1902" for r in records)
