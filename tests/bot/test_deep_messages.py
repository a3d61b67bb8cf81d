"""A server that sends messages nested hundreds deep mid-game: the bot answers and plays on.

Our bot (``daide-mcts play``, MCTS) plays a live Parlance with six Parang
dumbbots through our proxy (:mod:`bot.stress.netproxy`).  At the bot's second,
third and fourth ``NOW`` the proxy injects hostile messages as if Parlance had
sent them: ``YES ( YES ( ... ) )`` 600 deep (3.6 KB), press 600 deep, a ``HUH``
600 deep, a bad message of the longest length a HUH can still quote, a good
one at the 32767-token length cap (the wire's own limit), and a ``YES`` chain
10922 deep filling the cap.  The bot must answer each as DAIDE says (HUH with
ERR before the first bad token; nothing to a HUH; nothing to the good one;
nothing to a bad one too long to quote back in one message), which the proxy
keeps from Parlance, as Parlance never sent those messages, and play every
phase to the end without missing an order.
"""

from __future__ import annotations

import pytest

from bot.stress.netproxy import Direction, NetProxy
from protocol.decoder import DEFAULT_MAX_LENGTH
from protocol.expression import MAX_NESTING_DEPTH, format_tokens, tokenize
from protocol.messages import QUOTE_TOKENS, Ccd, Hlo, Now, parse_message
from protocol.tokens import ERR, HUH, PRN, SND, TEXT_BASE
from protocol.wire import DiplomacyMessage, encode_tokens

pytestmark = [pytest.mark.slow, pytest.mark.parlance]

CAP = DEFAULT_MAX_LENGTH // 2
"""Tokens in the longest DM a client accepts (the longest one the wire can carry)."""
QUOTABLE = CAP - QUOTE_TOKENS
"""Tokens in the longest bad message a HUH can quote back."""


def _chain(command: str, levels: int, inner: str = "GOF") -> tuple[int, ...]:
    return tokenize(f"{command} ( " * levels + inner + " )" * levels)


def _adm_at_cap(tail: str, length: int = CAP) -> tuple[int, ...]:
    head, end = tokenize('ADM ( "server" ) ('), tokenize(") " + tail)
    text = tuple(TEXT_BASE | ord("x") for _ in range(length - len(head) - len(end)))
    return (*head, *text, *end)


FRM_HEAD = tokenize("FRM ( ENG ) ( FRA )")
YES_600 = _chain("YES", 600)
FRM_600 = (*FRM_HEAD, *tokenize("( " * 600 + "PRP ( PCE ( ENG FRA ) )" + " )" * 600))
HUH_600 = _chain("HUH", 600, "ERR GOF")
BAD_QUOTABLE = _adm_at_cap("ERR", QUOTABLE)  # one token too many after a valid ADM
ADM_AT_CAP = _adm_at_cap("")
YES_AT_CAP = _chain("YES", (CAP - 1) // 3)
TOO_DEEP = 2 * MAX_NESTING_DEPTH + 1  # in a YES chain: the ( that opens level 65

INJECTIONS = [[YES_600, HUH_600], [FRM_600, BAD_QUOTABLE], [ADM_AT_CAP, YES_AT_CAP]]
"""What the proxy injects at the bot's 2nd, 3rd and 4th NOW."""

ANSWERS = {
    YES_600: TOO_DEEP,
    FRM_600: len(FRM_HEAD) + MAX_NESTING_DEPTH,  # FRM's group is level 1
    BAD_QUOTABLE: QUOTABLE - 1,
}
"""Each bad message the bot must answer, and where ERR goes.

HUH_600 gets no answer (a HUH is never answered), nor YES_AT_CAP (no HUH
quoting it could be sent: it would be longer than any message).
"""


def _huh(tokens: tuple[int, ...], at: int) -> tuple[int, ...]:
    return (HUH, *tokenize("("), *tokens[:at], ERR, *tokens[at:], *tokenize(")"))


async def test_bot_answers_deep_messages_and_plays_on(parlance_server, parang_bots, run_bot):
    assert len(YES_600) * 2 + 4 == 3606 and len(ADM_AT_CAP) == len(YES_AT_CAP) == CAP
    assert len(BAD_QUOTABLE) == QUOTABLE
    server = parlance_server(MTL=4, RTL=2, BTL=2, draw=2)
    seen: dict[str, list] = {"power": [], "nows": [], "late": [], "injected_at": []}
    answers: list[tuple[int, ...]] = []

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
            group = len(seen["nows"]) - 2
            if 0 <= group < len(INJECTIONS):
                proxy.inject(b"".join(encode_tokens(tokens) for tokens in INJECTIONS[group]))
                seen["injected_at"].append(str(parsed.turn))

    def intercept(link_id: int, message: DiplomacyMessage) -> bool:
        """Keep the bot's answers to what Parlance never sent (HUH, PRN, press) from Parlance."""
        if message.tokens[0] in (HUH, PRN, SND):
            answers.append(message.tokens)
            return True
        return False

    proxy = NetProxy(server.host, server.port, tap=tap, intercept=intercept)
    async with proxy:
        bot = run_bot(proxy.port, "--final-year", "1902", "--seed", "5")
        parang_bots(server, 6)
        summary = await bot.wait_async(timeout=420)

    assert len(seen["injected_at"]) == len(INJECTIONS), seen
    # Answered as DAIDE says, in order: HUH with ERR at the culprit, nothing to the HUH
    # or to the good ADM; and nothing else that Parlance must not see.
    expected = [_huh(t, ANSWERS[t]) for group in INJECTIONS for t in group if t in ANSWERS]
    assert [format_tokens(a)[:200] for a in answers] == [format_tokens(e)[:200] for e in expected]
    assert answers == expected
    # The bot played on to the end, missing no order.
    assert summary["ended_cleanly"], summary
    assert summary["result"].startswith(("DRW", "SLO")), summary
    assert summary["missed_deadlines"] == 0, summary
    assert seen["late"] == [], f"the server reported missed orders for us: {seen['late']}"
    assert summary["bad_messages"] == len(ANSWERS) + 2, summary  # + the deep HUH, YES_AT_CAP
    assert summary["refused_orders"] == 0 and summary["shadow_mismatches"] == 0, summary
    assert summary["reconnections"] == 0, summary
    # Its game log holds what came in and what it answered; orders went out after it all.
    records = bot.game_log()
    texts = [(r["dir"], r["text"]) for r in records if r["kind"] == "msg"]
    for group in INJECTIONS:
        for tokens in group:
            assert ("in", format_tokens(tokens)) in texts
    for answer in expected:
        assert ("out", format_tokens(answer)) in texts
    last_injected = max(texts.index(("in", format_tokens(t))) for t in INJECTIONS[-1])
    later_subs = [text for way, text in texts[last_injected:] if way == "out" and text[:3] == "SUB"]
    assert later_subs, "no orders after the last injection"
    assert len(seen["nows"]) > len(INJECTIONS) + 1 and seen["nows"][-1].endswith("1902"), seen
