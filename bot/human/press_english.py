"""DAIDE press in plain English, as a person's page shows it beside the DAIDE text.

:func:`press_english` says what a typed press value (:mod:`protocol.press`) means,
from its sender's point of view: ``FRM (ENG) (FRA) (PRP (PCE (ENG FRA GER)))`` is
"England proposes peace with France and Germany", and the same proposal sent by
the person at the page (:data:`YOU`) playing England is "You propose peace with
France and Germany" (``press_english(press, YOU, "ENG")``).
:func:`arrangement_english` is the arrangement alone ("peace with France", "a
demilitarised zone in BUR (kept clear by France and Germany)"), as the record of
agreements names them.  Powers are named in full on the standard map
(:data:`POWER_NAMES`) and by their tokens elsewhere; provinces by their tokens;
orders in the usual notation (``F LON - NTH``).
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.toolkit.order_words import format_order_text
from protocol.press import (
    Accept,
    Alliance,
    AllOf,
    AnyOf,
    Arrangement,
    Cancel,
    Decline,
    Demilitarise,
    DoOrder,
    Draw,
    Fact,
    Negation,
    NoArrangement,
    Peace,
    Press,
    PressMessage,
    Proposal,
    Puzzled,
    Reject,
    Solo,
    Try,
)

YOU = "YOU"
"""The sender (or partner) that is the person at the page: "You propose ..."."""

POWER_NAMES = {
    "AUS": "Austria",
    "ENG": "England",
    "FRA": "France",
    "GER": "Germany",
    "ITA": "Italy",
    "RUS": "Russia",
    "TUR": "Turkey",
}
"""The standard map's powers in full (a variant's powers are named by their tokens)."""


def power_name(power: str) -> str:
    """A power's name: ``England`` for ``ENG``, the token itself for a variant's power."""
    return POWER_NAMES.get(power, power)


def listing(words: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c`` (``nobody`` for none)."""
    if not words:
        return "nobody"
    if len(words) == 1:
        return words[0]
    return f"{', '.join(words[:-1])} and {words[-1]}"


def _powers(powers: Sequence[str]) -> str:
    return listing([power_name(p) for p in powers])


def _bound(powers: Sequence[str], speaker: str | None, among: str) -> str:
    """The powers an arrangement binds: "with" the others if ``speaker`` is one of them."""
    if speaker in powers and len(powers) > 1:
        return f"with {_powers([p for p in powers if p != speaker])}"
    return f"{among} {_powers(powers)}"


def _parts(parts: Sequence[Arrangement], speaker: str | None) -> str:
    return "; ".join(arrangement_english(p, speaker) for p in parts)


def arrangement_english(arrangement: Arrangement, speaker: str | None = None) -> str:
    """An arrangement as a noun phrase, from ``speaker``'s point of view (a power, or None)."""
    match arrangement:
        case Peace(powers=powers):
            return f"peace {_bound(powers, speaker, 'between')}"
        case Alliance(allies=allies, enemies=enemies):
            return f"an alliance {_bound(allies, speaker, 'of')} against {_powers(enemies)}"
        case Draw(powers=None):
            return "a draw"
        case Draw(powers=powers):
            return f"a draw between {_powers(powers or ())}"
        case Solo(power=power):
            return f"a solo for {power_name(power)}"
        case Negation(arrangement=inner):
            return f"not {arrangement_english(inner, speaker)}"
        case NoArrangement(arrangement=inner):
            return f"no arrangement on {arrangement_english(inner, speaker)}"
        case DoOrder(order=order):
            return f"the order {format_order_text(order)}"
        case Demilitarise(powers=powers, provinces=provinces):
            zone = listing(list(provinces))
            return f"a demilitarised zone in {zone} (kept clear by {_powers(powers)})"
        case AllOf(arrangements=parts):
            return f"all of: {_parts(parts, speaker)}"
        case AnyOf(arrangements=parts):
            return f"one of: {_parts(parts, speaker)}"
    raise TypeError(f"not an arrangement: {arrangement!r}")


def _about(press: PressMessage | Accept, speaker: str | None) -> str:
    """What a reply or a cancellation is about: the arrangement proposed, or the press."""
    match press:
        case Proposal(arrangement=arrangement):
            return arrangement_english(arrangement, speaker)
        case Fact(arrangement=arrangement):
            return f"the statement of {arrangement_english(arrangement, speaker)}"
        case Accept(press=inner):
            return f"the acceptance of {_about(inner, speaker)}"
        case Cancel(press=inner):
            return f"the withdrawal of {_about(inner, speaker)}"
        case Try():
            return "the press understood"


def _verb(sender: str | None, verb: str) -> str:
    """``England proposes``, ``You propose``, ``Someone proposes``."""
    if sender == YOU:
        return f"You {verb}"
    who = "Someone" if sender is None else power_name(sender)
    return f"{who} {verb}s"


def press_english(press: Press, sender: str | None, you: str | None = None) -> str:
    """``press`` said by ``sender`` (a power, :data:`YOU`, or None) in one English sentence.

    ``you`` is the power :data:`YOU` plays: arrangements are told from its point
    of view ("You propose peace with England").
    """
    speaker = you if sender == YOU else sender
    match press:
        case Proposal(arrangement=arrangement):
            return f"{_verb(sender, 'propose')} {arrangement_english(arrangement, speaker)}"
        case Cancel(press=Proposal(arrangement=arrangement)):
            offer = arrangement_english(arrangement, speaker)
            return f"{_verb(sender, 'withdraw')} the proposal of {offer}"
        case Cancel(press=inner):
            return f"{_verb(sender, 'withdraw')} {_about(inner, speaker)}"
        case Fact(arrangement=arrangement):
            return (
                f"{_verb(sender, 'state')} as a fact: {arrangement_english(arrangement, speaker)}"
            )
        case Try(tokens=()):
            return f"{_verb(sender, 'understand')} no press"
        case Try(tokens=tokens):
            return f"{_verb(sender, 'understand')} press of {listing(list(tokens))}"
        case Accept(press=inner):
            return f"{_verb(sender, 'accept')} {_about(inner, speaker)}"
        case Reject(press=inner):
            return f"{_verb(sender, 'reject')} {_about(inner, speaker)}"
        case Decline(press=inner):
            return f"{_verb(sender, 'decline')} to answer about {_about(inner, speaker)}"
        case Puzzled():
            who = "You" if sender == YOU else power_name(sender or "Someone")
            return f"{who} did not understand a message"
    raise TypeError(f"not press: {press!r}")
