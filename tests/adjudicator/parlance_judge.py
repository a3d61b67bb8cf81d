#!/usr/bin/env python2.7
"""Run DATC-table rows through Parlance's own judge (Python 2.7, no network).

Reads JSON lines on stdin, one case each::

    {"id": "6.A.1", "variant": "standard", "turn": "SPR 1901",
     "units": ["ENG FLT NTH"], "centres": "(AUS BUD TRI VIE) ...",
     "steps": [{"orders": ["(ENG FLT NTH) MTO PIC"]}]}

and writes one JSON line per case::

    {"id": "6.A.1", "error": null, "steps": [
        {"phase": "SPR 1901",
         "thx": [["(ENG FLT NTH) MTO PIC", "FAR"]],
         "ord": [{"order": "( ENG FLT NTH ) HLD", "unit": "ENG FLT NTH",
                  "result": "SUC"}],
         "messages": ["ORD ...", "NOW ...", ...],
         "now": "NOW ( FAL 1901 ) ...", "sco": "SCO ...",
         "units": ["ENG FLT NTH"], "result": null, "ccd": ["ENG"]}]}

``result`` is the SLO or DRW message if the game ended; ``ccd`` lists the
powers the server reports in civil disorder (missing orders).

The judge is set up exactly as a parlance-server game sets it up
(``variant.new_judge(GameOptions())``, default DATC options), the position is
loaded with its own SCO and NOW handlers, and every order is submitted as its
own SUB message by the power named first in the order text, through the
server's syntax validator (level 0) and the judge's ``handle_SUB``, so the THX
note is Parlance's.  A syntax error gets the note ``HUH``; a SUB the judge
rejects outright (no power named, or the game is over) gets ``REJ``.  ``judge.run()``
then adjudicates and advances to the next phase that needs orders, as the
server does.

Run with PYTHONPATH pointing at the folder Parlance is installed in and a
private HOME (no user configuration file may leak in).
"""

import json
import sys
import traceback

from parlance.config import GameOptions, variants
from parlance.language import Message, Token
from parlance.tokens import CCD, DRW, ORD, SLO, THX
from parlance.validation import Validator


def text(message):
    return str(Message(message))


class FakeClient(object):  # noqa: UP004 - a new-style class under Python 2
    """Stands in for a connected player: records what the judge sends it."""

    def __init__(self, country):
        self.country = country
        self.sent = []

    def send(self, message):
        self.sent.append(message)

    def send_list(self, messages):
        self.sent.extend(messages)

    def reject(self, message):
        self.sent.append(("REJ", message))

    def accept(self, message):
        self.sent.append(("YES", message))


def submitter(rep, order_text):
    for token in rep.translate(order_text):
        if isinstance(token, Token) and token.is_power():
            return token
    return None


def unit_text(item):
    """The unit of a folded ORD order, as NOW spells it (None for WVE)."""
    if isinstance(item, list):
        return text(item)
    return None


def snapshot(judge):
    now = judge.map.create_NOW()
    units = [text(unit) for unit in now.fold()[2:]]
    return text(now), text(judge.map.create_SCO()), units


def run_step(judge, rep, validator, step):
    phase = str(Message(judge.map.current_turn)) if judge.phase else None
    thx = []
    for order_text in step["orders"]:
        sub = rep.translate("SUB ( " + order_text + " )")
        complaint = validator.validate_client_message(sub)
        if complaint:
            thx.append([order_text, "HUH"])
            continue
        client = FakeClient(submitter(rep, order_text))
        judge.handle_SUB(client, sub)
        notes = [m for m in client.sent if isinstance(m, Message) and m[0] is THX]
        if notes:
            thx.append([order_text, notes[-1].fold()[2][0].text])
        elif any(isinstance(m, tuple) and m[0] == "REJ" for m in client.sent):
            thx.append([order_text, "REJ"])
        else:
            thx.append([order_text, "?"])
    messages = judge.run()
    ords = []
    disorder = []
    result = None
    for message in messages:
        folded = message.fold()
        if message[0] is ORD:
            order = folded[2]
            ords.append(
                {
                    "order": text(order),
                    "unit": unit_text(order[0]),
                    "result": " ".join(t.text for t in folded[3]),
                }
            )
        elif message[0] in (SLO, DRW):
            result = text(message)
        elif message[0] is CCD:
            disorder.append(folded[1][0].text)
    now, sco, units = snapshot(judge)
    return {
        "phase": phase,
        "thx": thx,
        "ord": ords,
        "messages": [text(m) for m in messages],
        "now": now,
        "sco": sco,
        "units": units,
        "result": result,
        "ccd": disorder,
    }


def coasts_as_tuples(judge):
    """Retreat options loaded from NOW, in the form Parlance's own judge gives them.

    handle_NOW keeps a coast option such as ``(STP NCS)`` as the list it was
    parsed into, while the judge checks a retreat against (province, coast)
    tuples, so every retreat to a coast would be refused (NVR).  In a served
    game the judge computes the options itself and never reads them from NOW.
    """
    for power in judge.map.powers.values():
        for unit in power.units:
            if unit.retreats:
                unit.retreats = [tuple(r) if isinstance(r, list) else r for r in unit.retreats]


def run_case(case):
    variant = variants[case.get("variant") or "standard"]
    rep = variant.rep
    judge = variant.new_judge(GameOptions())
    validator = Validator(0)
    judge.map.handle_SCO(rep.translate("SCO " + case["centres"]))
    units = " ".join("( " + unit + " )" for unit in case["units"])
    judge.map.handle_NOW(rep.translate("NOW ( " + case["turn"] + " ) " + units))
    coasts_as_tuples(judge)
    judge.start()
    return [run_step(judge, rep, validator, step) for step in case["steps"]]


def main():
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        case = json.loads(line)
        try:
            out = {"id": case.get("id"), "error": None, "steps": run_case(case)}
        except Exception:
            out = {"id": case.get("id"), "error": traceback.format_exc(), "steps": []}
        sys.stdout.write(json.dumps(out) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
