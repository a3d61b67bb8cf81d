"""The DAIDE protocol: wire format and message language, sans I/O.

Bytes in, typed messages out, and back; no sockets, no event loop, no rules.

* :mod:`protocol.wire`: the IM/RM/DM/FM/EM structures and their encoders;
* :mod:`protocol.decoder`: :class:`Decoder`, fed bytes, yields wire messages;
* :mod:`protocol.tokens`: token numbers and :class:`TokenTable` (standard or from an RM);
* :mod:`protocol.expression`: tokens <-> nested expressions <-> text;
* :mod:`protocol.notation`: units, orders, turns... as DAIDE text and tokens;
* :mod:`protocol.messages`: one typed class per message (``Hlo``, ``Now``, ``Sub``...);
* :mod:`protocol.press`: the press language of levels 10-30 (``Proposal``, ``Peace``...),
  and :mod:`protocol.press_reader`: reading it at a game's level, and answering press refused;
* :mod:`protocol.data`: the recorded standard MDF and sample game;
* :mod:`protocol.daide_errors`: the error hierarchy and the EM codes;
* :mod:`protocol.values`: the plain values shared with the adjudicator.

``__all__`` below is the package's public API, and its only list of names:
each is importable from ``protocol`` directly and loaded from its submodule
on first use (the first of ``_SUBMODULES`` that has it), so ``import
protocol.values`` stays cheap: the wire layer and ``construct`` load only
when asked for.  Type checkers see these names through ``__getattr__``, i.e.
untyped; the project's own code imports from the submodules.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

__all__ = [
    # errors
    "ErrorCode",
    "ProtocolError",
    "ProtocolViolation",
    "LanguageError",
    "BracketError",
    "NestingError",
    "UnknownTokenError",
    "GrammarError",
    "PressLevelError",
    "UnsupportedPressError",
    "PressLimitError",
    "TextError",
    "EncodeError",
    # tokens
    "Token",
    "TokenTable",
    "STANDARD",
    # text and expressions
    "Expression",
    "MAX_NESTING_DEPTH",
    "tokenize",
    "format_tokens",
    "fold",
    "flatten",
    "parse_expression",
    "format_expression",
    # values as DAIDE text
    "parse_location",
    "parse_unit",
    "parse_unit_position",
    "parse_unit_positions",
    "parse_turn",
    "parse_order",
    "parse_centres",
    "parse_results",
    "format_location",
    "format_unit",
    "format_unit_position",
    "format_turn",
    "format_order",
    "format_centres",
    # variants (HLO's options)
    "Variant",
    "VariantOption",
    # typed messages
    "Message",
    "Nme",
    "Obs",
    "Iam",
    "Map",
    "Mdf",
    "Hlo",
    "Now",
    "Sco",
    "Hst",
    "Sub",
    "Thx",
    "Mis",
    "Ord",
    "Gof",
    "Tme",
    "Drw",
    "Slo",
    "Smr",
    "Off",
    "Snd",
    "Frm",
    "Ccd",
    "Out",
    "Yes",
    "Rej",
    "Not",
    "Huh",
    "Prn",
    "Adm",
    "Sve",
    "Lod",
    "RawMessage",
    "PlayerSummary",
    "MESSAGE_TYPES",
    "parse_message",
    "parse_text",
    "reply_to_bad_message",
    "press_replies",
    # press (levels 10-30)
    "Peace",
    "Alliance",
    "Draw",
    "Solo",
    "Negation",
    "NoArrangement",
    "DoOrder",
    "Demilitarise",
    "AllOf",
    "AnyOf",
    "Proposal",
    "Cancel",
    "Fact",
    "Try",
    "Accept",
    "Reject",
    "Decline",
    "Puzzled",
    "press_level",
    "check_level",
    "press_snd",
    "parse_press",
    "parse_frm_press",
    "parse_press_text",
    "press_answer",
    "spoken_tokens",
    # wire and decoder
    "InitialMessage",
    "RepresentationMessage",
    "DiplomacyMessage",
    "FinalMessage",
    "ErrorMessage",
    "WireMessage",
    "encode",
    "encode_initial",
    "encode_representation",
    "encode_tokens",
    "encode_message",
    "encode_final",
    "encode_error",
    "Decoder",
    "Role",
    "State",
]

_SUBMODULES = (
    "protocol.daide_errors",
    "protocol.tokens",
    "protocol.expression",
    "protocol.notation",
    "protocol.variant",
    "protocol.messages",
    "protocol.press",
    "protocol.press_reader",
    "protocol.wire",
    "protocol.decoder",
)
"""Where the names of ``__all__`` live, in dependency order: a name's first holder defines it."""

_PUBLIC = frozenset(__all__)


def __getattr__(name: str) -> Any:
    if name in _PUBLIC:
        for module in _SUBMODULES:
            value = getattr(import_module(module), name, _PUBLIC)
            if value is not _PUBLIC:
                globals()[name] = value
                return value
    raise AttributeError(f"module 'protocol' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
