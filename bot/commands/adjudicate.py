"""``daide-mcts adjudicate``: adjudicate phases given as JSON lines in DAIDE notation.

Each input line is ``{"now": "...", "sco": "...", "orders": ["...", ...]}``
(NOW and SCO as whole messages or bodies; orders as SUB writes them).  Each
output line is ``{"thx": [[order, note], ...], "ord": [...], "now": "...",
"sco": "..."}``, or ``{"error": "..."}`` for a line that cannot be read; the
command carries on with the next line either way.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TextIO

from adjudicator.daide import adjudicate_text
from adjudicator.errors import AdjudicatorError


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add the ``adjudicate`` subcommand."""
    p = subparsers.add_parser(
        "adjudicate",
        help="adjudicate DAIDE-notation phases read as JSON lines",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "input",
        nargs="?",
        type=argparse.FileType("r"),
        default=sys.stdin,
        help="JSON-lines file (default: standard input)",
    )
    p.set_defaults(handler=run)


def adjudicate_line(line: str) -> dict[str, object]:
    """Adjudicate one JSON line; errors become ``{"error": ...}``."""
    try:
        request = json.loads(line)
    except json.JSONDecodeError as exc:
        return {"error": f"not JSON: {exc}"}
    if not isinstance(request, dict):
        return {"error": "each line must be a JSON object"}
    now, sco, orders = request.get("now"), request.get("sco"), request.get("orders", [])
    if not isinstance(now, str) or not isinstance(sco, str):
        return {"error": 'each line needs "now" and "sco" strings'}
    if not isinstance(orders, list) or not all(isinstance(o, str) for o in orders):
        return {"error": '"orders" must be a list of strings'}
    try:
        return adjudicate_text(now, sco, orders).as_dict()
    except AdjudicatorError as exc:
        return {"error": str(exc)}


def run(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Read lines, write one answer per non-empty line; exit 1 if any line failed."""
    out = out or sys.stdout  # looked up now: the default would pin the stream of import time
    failed = False
    for line in args.input:
        if not line.strip():
            continue
        answer = adjudicate_line(line)
        failed = failed or "error" in answer
        out.write(json.dumps(answer) + "\n")
        out.flush()
    return 1 if failed else 0
