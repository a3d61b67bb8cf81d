"""Every error the protocol package raises, and the DAIDE error codes.

Nothing that comes from the wire (bytes, tokens, text) makes this package raise
anything but one of these::

    ProtocolError                 base class: "the protocol package refused this"
    ├── ProtocolViolation         the peer broke the client-server protocol (wire
    │                             level); ``.code`` is the EM error code to send
    │                             before closing the connection
    ├── LanguageError             a message that is not valid DAIDE language;
    │   │                         ``.index`` is the token index of the culprit
    │   │                         (where ``ERR`` goes in a ``HUH``), if known
    │   ├── BracketError          unbalanced brackets: answer ``PRN (message)``
    │   ├── UnknownTokenError     a token the current token table does not know
    │   ├── NestingError          brackets nested deeper than the parser's limit
    │   │                         (:data:`protocol.expression.MAX_NESTING_DEPTH`)
    │   ├── GrammarError          known tokens in the wrong shape
    │   │   ├── PressLevelError   press above the game's syntax level (``.needed``)
    │   │   └── UnsupportedPressError  press of the game's level that we do not speak
    │   ├── PressLimitError       press nested too deep, or with too many parts
    │   └── TextError             a text form that cannot be read as tokens
    │                             (``.position`` is a character offset)
    └── EncodeError               a value that cannot be written as DAIDE (a name
                                  the token table does not know, an integer out
                                  of range...): a bug on our side, not the peer's

A ``LanguageError`` never closes the connection: the client answers the
offending message with ``HUH (... ERR ...)`` (or ``PRN (...)`` for a
``BracketError``) and carries on; see :func:`protocol.messages.reply_to_bad_message`.
"""

from __future__ import annotations

from enum import IntEnum


class ErrorCode(IntEnum):
    """The error codes of the Error Message (EM), as the client-server protocol numbers them."""

    IM_TIMER_POPPED = 0x01
    IM_NOT_FIRST = 0x02
    IM_WRONG_ENDIAN = 0x03
    IM_WRONG_MAGIC = 0x04
    VERSION_INCOMPATIBLE = 0x05
    IM_REPEATED = 0x06
    IM_FROM_SERVER = 0x07
    UNKNOWN_MESSAGE = 0x08
    MESSAGE_TOO_SHORT = 0x09
    DM_BEFORE_RM = 0x0A
    RM_NOT_FIRST = 0x0B
    RM_UNEXPECTED = 0x0C
    RM_FROM_CLIENT = 0x0D
    INVALID_TOKEN = 0x0E

    @property
    def description(self) -> str:
        """The meaning of the code, in the words of the protocol document."""
        return _DESCRIPTIONS[self]


_DESCRIPTIONS = {
    ErrorCode.IM_TIMER_POPPED: "IM timer popped",
    ErrorCode.IM_NOT_FIRST: "IM was not the first message sent by the client",
    ErrorCode.IM_WRONG_ENDIAN: "IM indicated the wrong endian",
    ErrorCode.IM_WRONG_MAGIC: "IM had an incorrect magic number",
    ErrorCode.VERSION_INCOMPATIBLE: "Version incompatibility",
    ErrorCode.IM_REPEATED: "More than one IM sent",
    ErrorCode.IM_FROM_SERVER: "IM sent by server",
    ErrorCode.UNKNOWN_MESSAGE: "Unknown message received",
    ErrorCode.MESSAGE_TOO_SHORT: "Message shorter than expected",
    ErrorCode.DM_BEFORE_RM: "DM sent before RM",
    ErrorCode.RM_NOT_FIRST: "RM was not the first message sent by the server",
    ErrorCode.RM_UNEXPECTED: "Unexpected RM sent",
    ErrorCode.RM_FROM_CLIENT: "RM sent by client",
    ErrorCode.INVALID_TOKEN: "Invalid token in DM",
}


class ProtocolError(Exception):
    """Base class of everything the protocol package raises on bad input."""


class ProtocolViolation(ProtocolError):
    """The peer broke the client-server protocol; send EM ``code`` and close.

    ``code`` is the DAIDE error code the protocol prescribes; ``detail`` says
    in words what was wrong.
    """

    def __init__(self, code: ErrorCode, detail: str) -> None:
        super().__init__(f"{detail} (EM 0x{int(code):02X}: {code.description})")
        self.code = code
        self.detail = detail


class LanguageError(ProtocolError, ValueError):
    """A message that is not valid DAIDE language; answer it with HUH (or PRN).

    ``index`` is the position, in the message's token sequence, of the first
    offending token (``len(tokens)`` when something is missing at the end),
    or ``None`` when no token position applies.
    """

    def __init__(self, reason: str, index: int | None = None) -> None:
        where = f" at token {index}" if index is not None else ""
        super().__init__(f"{reason}{where}")
        self.reason = reason
        self.index = index


class BracketError(LanguageError):
    """The brackets of a message do not balance; the client answers ``PRN (message)``."""


class UnknownTokenError(LanguageError):
    """A token that the current token table (standard or from the RM) does not define."""


class NestingError(LanguageError):
    """Brackets nested deeper than :data:`protocol.expression.MAX_NESTING_DEPTH`.

    ``index`` is the ``(`` that opens the first level beyond the limit; the
    client answers ``HUH`` with ``ERR`` before it.
    """


class GrammarError(LanguageError):
    """Known tokens in an order the message syntax does not allow."""


class PressLevelError(GrammarError):
    """Press that needs a higher syntax level than the game's (``LVL``).

    ``needed`` is the lowest level that allows the form, ``level`` the game's;
    ``index`` is the token that needs it (where ``ERR`` goes in the ``HUH``).
    """

    def __init__(self, reason: str, index: int | None, *, needed: int, level: int) -> None:
        super().__init__(f"{reason} needs press level {needed}, the game is at {level}", index)
        self.needed = needed
        self.level = level


class UnsupportedPressError(GrammarError):
    """Press the game's level allows but this client does not speak (e.g. ``SCD`` at 40)."""


class PressLimitError(LanguageError):
    """Press nested deeper, or with more parts, than :mod:`protocol.press` reads.

    The caps (:data:`protocol.press.MAX_PRESS_DEPTH` and its neighbours) are far
    above any real negotiation; ``index`` is the token that goes over.
    """


class TextError(LanguageError):
    """A text form that cannot be turned into tokens; ``position`` is a character offset."""

    def __init__(self, reason: str, position: int) -> None:
        super().__init__(f"{reason} at character {position}")
        self.reason = reason
        self.position = position


class EncodeError(ProtocolError, ValueError):
    """A value that cannot be written in DAIDE: an unknown name, an integer out of range."""
