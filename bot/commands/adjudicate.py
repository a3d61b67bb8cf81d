"""daide-mcts adjudicate: adjudicate phases given as JSON lines in DAIDE notation.

Each input line is {"now": "...", "sco": "...", "orders": ["...", ...]}
(NOW and SCO as whole messages or bodies; orders as SUB writes them; "orders"
may be left out).  Each output line is {"thx": [[order, note], ...], "ord":
[...], "now": "...", "sco": "...", "slo": null} ("slo" is the SLO message
when the phase ends the game with a solo).  A line that cannot be adjudicated gets
{"error": "...", "error_type": "...", "line": N} instead, where
error_type is one of LineTooLong (more than 1 MiB: the rest of the
line is skipped unread), EncodingError (not UTF-8), JSONError (not
JSON, or numbers JSON does not allow: NaN, infinities, beyond 2**63),
RequestError (JSON of the wrong shape), NotationError (DAIDE text that
does not parse or does not fit the map) or RangeError (the next phase
cannot be written in DAIDE: its year would pass 8191), and N is the input
line number.  InternalError would be a bug of ours: please report the
line.  The command carries on with the next line in every case, and exits
with status 1 if any line failed.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from typing import BinaryIO, TextIO

from adjudicator.daide import adjudicate_text
from adjudicator.rule_errors import AdjudicatorError
from bot.toolkit.jsonfiles import CorruptJSON, json_value
from protocol.daide_errors import EncodeError

MAX_LINE_BYTES = 1024 * 1024
"""The longest input line read (a whole standard position with its orders is a few KiB)."""

SKIP_CHUNK = 64 * 1024
"""Bytes read at a time while skipping the rest of a line that is too long."""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
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
        type=argparse.FileType("rb"),
        default=sys.stdin.buffer,
        help="JSON-lines file (default: standard input)",
    )
    p.set_defaults(handler=run)


def _error(kind: str, message: str, number: int | None) -> dict[str, object]:
    answer: dict[str, object] = {"error": message, "error_type": kind}
    if number is not None:
        answer["line"] = number
    return answer


def adjudicate_line(line: str | bytes, number: int | None = None) -> dict[str, object]:
    """Adjudicate one JSON line; bad input becomes a typed ``{"error": ...}`` answer.

    ``number`` (the line number, if known) is echoed in error answers.
    """
    if isinstance(line, bytes):
        try:
            line = line.decode("utf-8")
        except UnicodeDecodeError as exc:
            return _error("EncodingError", f"not UTF-8: {exc}", number)
    try:
        request = json_value(line)
    except CorruptJSON as exc:
        message = str(exc)
        return _error("JSONError", message if "JSON" in message else f"not JSON: {message}", number)
    if not isinstance(request, dict):
        return _error("RequestError", "each line must be a JSON object", number)
    now, sco, orders = request.get("now"), request.get("sco"), request.get("orders", [])
    if not isinstance(now, str) or not isinstance(sco, str):
        return _error("RequestError", 'each line needs "now" and "sco" strings', number)
    if not isinstance(orders, list) or not all(isinstance(o, str) for o in orders):
        return _error("RequestError", '"orders" must be a list of strings', number)
    try:
        return adjudicate_text(now, sco, orders).as_dict()
    except AdjudicatorError as exc:
        return _error(type(exc).__name__, str(exc), number)
    except EncodeError as exc:
        return _error("RangeError", f"the next phase cannot be written in DAIDE: {exc}", number)
    except Exception as exc:  # the stream goes on; the answer says it is ours to fix
        return _error("InternalError", f"please report this line: {exc!r}", number)


def input_lines(source: BinaryIO, limit: int = MAX_LINE_BYTES) -> Iterator[bytes | None]:
    """Each line of ``source``; None for a line longer than ``limit``, whose rest is skipped.

    A line is never held in memory beyond ``limit`` bytes.
    """
    while True:
        line = source.readline(limit + 1)
        if not line:
            return
        if len(line) <= limit or line.endswith(b"\n"):
            yield line
            continue
        while True:
            rest = source.readline(SKIP_CHUNK)
            if not rest or rest.endswith(b"\n"):
                break
        yield None


def run(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Read lines, write one answer per non-empty line (to stdout by default).

    Returns the exit status: 1 if any line failed, else 0.
    """
    out = out or sys.stdout
    source: BinaryIO = args.input
    failed = False
    for number, line in enumerate(input_lines(source), 1):
        if line is None:
            answer = _error("LineTooLong", f"longer than {MAX_LINE_BYTES} bytes", number)
        elif not line.strip():
            continue
        else:
            answer = adjudicate_line(line, number)
        failed = failed or "error" in answer
        out.write(json.dumps(answer) + "\n")
        out.flush()
    return 1 if failed else 0
