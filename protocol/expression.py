r"""Token sequences <-> nested expressions <-> the text form people read and write.

Three views of one DAIDE message:

* a **token sequence**: a tuple of 16-bit token numbers, as on the wire;
* a **nested expression** (:data:`Expression`): a tuple whose items are a
  :class:`~protocol.tokens.Token` (a named token), an ``int`` (an integer
  token), a ``str`` (a run of text tokens) or a nested tuple (a bracketed
  group), as in ``(Token(NME), ("daide-mcts",), ("0.1",))``;
* the **text form**: ``NME ( "daide-mcts" ) ( "0.1" )``.

Text output is canonical, in Parlance's style: tokens and brackets separated
by single spaces, upper-case names, strings in double quotes with ``\"`` and
``\\`` escaped by a backslash, integers in decimal, tokens the table does not
know as ``0xNNNN``.  Text input is liberal: any spacing, names in any case,
strings in double or single quotes, ``BRA``/``KET`` for brackets, ``0xNNNN``
for a raw token.  Text <-> tokens works on unbalanced messages too (a PRN
carries one); folding into an expression needs balanced brackets.

Nesting depth
-------------
Nothing in this module recurses: folding, flattening and formatting work at
any depth a message of the wire's length cap can reach (32767 tokens, 16383
levels).  The typed parser (:func:`protocol.messages.parse_message`) does
recurse, though, for a message inside a message (``YES``, ``REJ``, ``NOT``),
and CPython compares, hashes and prints nested tuples by recursion.  So a
message whose brackets nest deeper than :data:`MAX_NESTING_DEPTH` (64) is
refused before the parser sees it (:func:`check_nesting`, a
:class:`~protocol.daide_errors.NestingError`, answered with ``HUH`` and ``ERR``
before the ``(`` that goes one level too deep).

No real DAIDE message comes near the limit.  The deepest ones a server sends
are an ``MDF`` (4 levels: adjacencies, province, unit type, coast), ``ORD``
(3), ``NOW``/``SMR``/``THX`` (2) at press level 0; with press, a conditional
proposal ``FRM (ENG) (FRA) (PRP (IFF (AND (XDO ((FRA FLT (STP NCS)) MTO NWY))
...) THN (...)))`` is 7, and each ``YES``/``REJ``/``HUH`` quoting a message
adds one, so about a dozen levels covers every message of the syntax document
as used.  64 leaves five times that, and keeps the parser's recursion (four
Python frames per nested message) near 260 frames, a quarter of Python's
default limit, however deep the caller already is.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Union

from protocol.daide_errors import (
    BracketError,
    EncodeError,
    NestingError,
    TextError,
    UnknownTokenError,
)
from protocol.tokens import (
    BRA,
    CAT_TEXT,
    INTEGER_MAX,
    INTEGER_MIN,
    KET,
    STANDARD,
    TEXT_BASE,
    Token,
    TokenTable,
    integer_value,
)

Item = Union[Token, int, str, "Expression"]
"""One item of a nested expression: a named token, an integer, a string or a group."""

Expression = tuple[Item, ...]
"""A nested expression: the items of a message, or of one bracketed group."""

MAX_NESTING_DEPTH = 64
"""The deepest bracket nesting a message may have to be parsed (see the module docstring)."""

MAX_MESSAGE_OCTETS = 0xFFFF
"""The longest message body the wire's 16-bit length field can announce (65,535 octets)."""
MAX_MESSAGE_TOKENS = MAX_MESSAGE_OCTETS // 2
"""The most tokens one message can carry (32,767): a reply longer than this cannot be sent."""

_SCANNER = re.compile(
    r"""
    \s*
    (?:
        (?P<open>\()
      | (?P<close>\))
      | "(?P<dq>(?:[^"\\]|\\.)*)"
      | '(?P<sq>(?:[^'\\]|\\.)*)'
      | (?P<hex>0[xX][0-9A-Fa-f]{4})(?![A-Za-z0-9_])
      | (?P<int>[-+]?[0-9]+)(?![A-Za-z0-9_])
      | (?P<word>[A-Za-z0-9_]+)
      | (?P<quote>["'])
      | (?P<bad>\S)
    )
    """,
    re.VERBOSE | re.DOTALL,
)
_UNESCAPE = re.compile(r"\\(.)", re.DOTALL)
_ESCAPE = re.compile(r'(["\\])')


# --- text <-> tokens ----------------------------------------------------------


def tokenize(text: str, table: TokenTable = STANDARD) -> tuple[int, ...]:
    """The token sequence a text form spells (brackets need not balance).

    Raises TextError (unterminated string, stray character, integer out of
    range) or, for a name ``table`` does not define, a TextError too: text
    that cannot be tokenized has no token index to point at.
    """
    out: list[int] = []
    append = out.append
    pos = 0
    end = len(text)
    match = _SCANNER.match
    lookup = table.lookup
    while pos < end:
        m = match(text, pos)
        if m is None:  # only trailing whitespace is left
            break
        kind = m.lastgroup
        start = m.start(kind) if kind else pos
        pos = m.end()
        if kind == "open":
            append(BRA)
        elif kind == "close":
            append(KET)
        elif kind == "word":
            word = m.group("word").upper()
            number = lookup(word)
            if number is None:
                raise TextError(f"unknown token {m.group('word')!r}", start)
            append(number)
        elif kind == "int":
            value = int(m.group("int"))
            if not INTEGER_MIN <= value <= INTEGER_MAX:
                raise TextError(f"integer {value} outside -8192..8191", start)
            append(value & 0x3FFF)
        elif kind in ("dq", "sq"):
            raw = _UNESCAPE.sub(r"\1", m.group(kind))
            try:
                out.extend(TEXT_BASE | byte for byte in raw.encode("latin-1"))
            except UnicodeEncodeError:
                raise TextError("a character DAIDE text cannot carry", start - 1) from None
        elif kind == "hex":
            append(int(m.group("hex"), 16))
        elif kind == "quote":
            raise TextError("unterminated string", start)
        elif kind == "bad":
            raise TextError(f"unexpected character {m.group('bad')!r}", start)
        else:  # nothing but whitespace matched
            break
    return tuple(out)


def format_tokens(tokens: Sequence[int], table: TokenTable = STANDARD) -> str:
    """The canonical text form of a token sequence (balanced or not)."""
    parts: list[str] = []
    append = parts.append
    names = table.names
    text: list[str] | None = None
    for number in tokens:
        if number >> 8 == CAT_TEXT:
            if text is None:
                text = []
            text.append(chr(number & 0xFF))
            continue
        if text is not None:
            append(_quote("".join(text)))
            text = None
        if number == BRA:
            append("(")
        elif number == KET:
            append(")")
        elif number < 0x4000:
            append(str(integer_value(number)))
        else:
            append(names.get(number) or f"0x{number:04X}")
    if text is not None:
        append(_quote("".join(text)))
    return " ".join(parts)


def _quote(text: str) -> str:
    return '"' + _ESCAPE.sub(r"\\\1", text) + '"'


# --- tokens <-> nested expression -----------------------------------------------


def check_brackets(tokens: Sequence[int]) -> None:
    """Raise BracketError (at the first unmatched bracket) unless the brackets balance."""
    depth = 0
    opened: list[int] = []
    for index, number in enumerate(tokens):
        if number == BRA:
            opened.append(index)
            depth += 1
        elif number == KET:
            if not depth:
                raise BracketError("')' closes no bracket", index)
            opened.pop()
            depth -= 1
    if depth:
        raise BracketError("'(' is never closed", opened[-1])


def check_nesting(tokens: Sequence[int], limit: int = MAX_NESTING_DEPTH) -> None:
    """Raise unless the brackets balance and nest at most ``limit`` deep.

    BracketError (at the first unmatched bracket) if they do not balance, else
    NestingError at the ``(`` that opens level ``limit + 1``.  Unbalanced
    brackets win, as DAIDE answers them with ``PRN`` whatever else is wrong.
    A message with ``limit`` brackets or fewer passes at once (its brackets
    are left to the parser).
    """
    if tokens.count(BRA) <= limit:
        return
    depth = 0
    too_deep: int | None = None
    for index, number in enumerate(tokens):
        if number == BRA:
            depth += 1
            if depth > limit and too_deep is None:
                too_deep = index
        elif number == KET:
            depth -= 1
            if depth < 0:
                break
    if depth:
        check_brackets(tokens)  # raises, naming the unmatched bracket
    if too_deep is not None:
        raise NestingError(f"brackets nest deeper than {limit} levels", too_deep)


def fold(tokens: Sequence[int], table: TokenTable = STANDARD) -> Expression:
    """The nested expression of a token sequence; BracketError if brackets do not balance.

    Tokens the table does not know become ``Token(n, "0xNNNN")``; the typed
    layer reports them, the expression keeps them.
    """
    stack: list[list[Item]] = []
    current: list[Item] = []
    text: list[str] | None = None
    token = table.token
    for index, number in enumerate(tokens):
        if number >> 8 == CAT_TEXT:
            if text is None:
                text = []
            text.append(chr(number & 0xFF))
            continue
        if text is not None:
            current.append("".join(text))
            text = None
        if number == BRA:
            stack.append(current)
            current = []
        elif number == KET:
            if not stack:
                raise BracketError("')' closes no bracket", index)
            group = tuple(current)
            current = stack.pop()
            current.append(group)
        elif number < 0x4000:
            current.append(number - 0x4000 if number & 0x2000 else number)
        else:
            current.append(token(number))
    if text is not None:
        current.append("".join(text))
    if stack:
        check_brackets(tokens)  # names the unclosed bracket
    return tuple(current)


def flatten(expression: Expression) -> tuple[int, ...]:
    """The token sequence of a nested expression (the inverse of :func:`fold`), at any depth."""
    out: list[int] = []
    append = out.append
    # One iterator per open group; the loop never recurses, so depth costs no stack.
    stack = [iter(expression)]
    while stack:
        for item in stack[-1]:
            if isinstance(item, Token):
                append(item.number)
            elif isinstance(item, tuple):
                append(BRA)
                stack.append(iter(item))
                break
            elif isinstance(item, str):
                try:
                    out.extend(TEXT_BASE | byte for byte in item.encode("latin-1"))
                except UnicodeEncodeError as exc:
                    raise EncodeError(f"text {item!r} has a character DAIDE cannot carry") from exc
            elif isinstance(item, int) and not isinstance(item, bool):
                if not INTEGER_MIN <= item <= INTEGER_MAX:
                    raise EncodeError(f"integer {item} is outside the DAIDE range -8192..8191")
                append(item & 0x3FFF)
            else:
                raise EncodeError(f"{item!r} is not an expression item")
        else:
            stack.pop()
            if stack:
                append(KET)
    return tuple(out)


# --- text <-> nested expression -------------------------------------------------


def parse_expression(text: str, table: TokenTable = STANDARD) -> Expression:
    """The nested expression a text form spells; TextError or BracketError if it cannot."""
    return fold(tokenize(text, table), table)


def format_expression(expression: Expression) -> str:
    """The canonical text form of a nested expression, at any depth."""
    parts: list[str] = []
    append = parts.append
    stack = [iter(expression)]
    while stack:
        for item in stack[-1]:
            if isinstance(item, Token):
                append(item.name)
            elif isinstance(item, tuple):
                append("(")
                stack.append(iter(item))
                break
            elif isinstance(item, str):
                append(_quote(item))
            else:
                append(str(item))
        else:
            stack.pop()
            if stack:
                append(")")
    return " ".join(parts)


def require_known(tokens: Sequence[int], table: TokenTable) -> None:
    """Raise UnknownTokenError at the first token ``table`` does not define."""
    for index, number in enumerate(tokens):
        if not table.knows(number):
            raise UnknownTokenError(f"unknown token 0x{number:04X}", index)
