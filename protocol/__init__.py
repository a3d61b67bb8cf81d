"""The DAIDE protocol: wire format and message language, sans I/O.

Bytes in, typed messages out, and back; no sockets, no event loop, no rules.

* :mod:`protocol.wire`: the IM/RM/DM/FM/EM structures and their encoders;
* :mod:`protocol.decoder`: :class:`Decoder`, fed bytes, yields wire messages;
* :mod:`protocol.tokens`: token numbers and :class:`TokenTable` (standard or from an RM);
* :mod:`protocol.expression`: tokens <-> nested expressions <-> text;
* :mod:`protocol.notation`: units, orders, turns... as DAIDE text and tokens;
* :mod:`protocol.messages`: one typed class per message (``Hlo``, ``Now``, ``Sub``...);
* :mod:`protocol.data`: the recorded standard MDF and sample game;
* :mod:`protocol.errors`: the error hierarchy and the EM codes;
* :mod:`protocol.values`: the plain values shared with the adjudicator.

The names below are importable from ``protocol`` directly; they are loaded
on first use, so ``import protocol.values`` stays cheap.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

_EXPORTS = {
    # errors
    "ErrorCode": "protocol.errors",
    "ProtocolError": "protocol.errors",
    "ProtocolViolation": "protocol.errors",
    "LanguageError": "protocol.errors",
    "BracketError": "protocol.errors",
    "UnknownTokenError": "protocol.errors",
    "GrammarError": "protocol.errors",
    "TextError": "protocol.errors",
    "EncodeError": "protocol.errors",
    # tokens
    "Token": "protocol.tokens",
    "TokenTable": "protocol.tokens",
    "STANDARD": "protocol.tokens",
    # text and expressions
    "Expression": "protocol.expression",
    "tokenize": "protocol.expression",
    "format_tokens": "protocol.expression",
    "fold": "protocol.expression",
    "flatten": "protocol.expression",
    "parse_expression": "protocol.expression",
    "format_expression": "protocol.expression",
    # values as DAIDE text
    "parse_location": "protocol.notation",
    "parse_unit": "protocol.notation",
    "parse_unit_position": "protocol.notation",
    "parse_unit_positions": "protocol.notation",
    "parse_turn": "protocol.notation",
    "parse_order": "protocol.notation",
    "parse_centres": "protocol.notation",
    "parse_results": "protocol.notation",
    "format_location": "protocol.notation",
    "format_unit": "protocol.notation",
    "format_unit_position": "protocol.notation",
    "format_turn": "protocol.notation",
    "format_order": "protocol.notation",
    "format_centres": "protocol.notation",
    # typed messages
    "Message": "protocol.messages",
    "Nme": "protocol.messages",
    "Obs": "protocol.messages",
    "Iam": "protocol.messages",
    "Map": "protocol.messages",
    "Mdf": "protocol.messages",
    "Hlo": "protocol.messages",
    "Now": "protocol.messages",
    "Sco": "protocol.messages",
    "Hst": "protocol.messages",
    "Sub": "protocol.messages",
    "Thx": "protocol.messages",
    "Mis": "protocol.messages",
    "Ord": "protocol.messages",
    "Gof": "protocol.messages",
    "Tme": "protocol.messages",
    "Drw": "protocol.messages",
    "Slo": "protocol.messages",
    "Smr": "protocol.messages",
    "Off": "protocol.messages",
    "Snd": "protocol.messages",
    "Frm": "protocol.messages",
    "Ccd": "protocol.messages",
    "Out": "protocol.messages",
    "Yes": "protocol.messages",
    "Rej": "protocol.messages",
    "Not": "protocol.messages",
    "Huh": "protocol.messages",
    "Prn": "protocol.messages",
    "Adm": "protocol.messages",
    "Sve": "protocol.messages",
    "Lod": "protocol.messages",
    "RawMessage": "protocol.messages",
    "PlayerSummary": "protocol.messages",
    "MESSAGE_TYPES": "protocol.messages",
    "parse_message": "protocol.messages",
    "parse_text": "protocol.messages",
    "to_text": "protocol.messages",
    "reply_to_bad_message": "protocol.messages",
    "huh_for": "protocol.messages",
    "press_replies": "protocol.messages",
    "Variant": "protocol.variant",
    "VariantOption": "protocol.variant",
    # wire and decoder
    "Decoder": "protocol.decoder",
    "Role": "protocol.decoder",
    "State": "protocol.decoder",
    "InitialMessage": "protocol.wire",
    "RepresentationMessage": "protocol.wire",
    "DiplomacyMessage": "protocol.wire",
    "FinalMessage": "protocol.wire",
    "ErrorMessage": "protocol.wire",
    "WireMessage": "protocol.wire",
    "encode": "protocol.wire",
    "encode_initial": "protocol.wire",
    "encode_representation": "protocol.wire",
    "encode_tokens": "protocol.wire",
    "encode_message": "protocol.wire",
    "encode_final": "protocol.wire",
    "encode_error": "protocol.wire",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'protocol' has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_EXPORTS])


if TYPE_CHECKING:  # pragma: no cover - for type checkers and IDEs only
    from protocol.decoder import Decoder as Decoder
    from protocol.decoder import Role as Role
    from protocol.decoder import State as State
    from protocol.errors import (
        BracketError as BracketError,
    )
    from protocol.errors import (
        EncodeError as EncodeError,
    )
    from protocol.errors import (
        ErrorCode as ErrorCode,
    )
    from protocol.errors import (
        GrammarError as GrammarError,
    )
    from protocol.errors import (
        LanguageError as LanguageError,
    )
    from protocol.errors import (
        ProtocolError as ProtocolError,
    )
    from protocol.errors import (
        ProtocolViolation as ProtocolViolation,
    )
    from protocol.errors import (
        TextError as TextError,
    )
    from protocol.errors import (
        UnknownTokenError as UnknownTokenError,
    )
    from protocol.expression import (
        Expression as Expression,
    )
    from protocol.expression import (
        flatten as flatten,
    )
    from protocol.expression import (
        fold as fold,
    )
    from protocol.expression import (
        format_expression as format_expression,
    )
    from protocol.expression import (
        format_tokens as format_tokens,
    )
    from protocol.expression import (
        parse_expression as parse_expression,
    )
    from protocol.expression import (
        tokenize as tokenize,
    )
    from protocol.messages import (
        MESSAGE_TYPES as MESSAGE_TYPES,
    )
    from protocol.messages import (
        Adm as Adm,
    )
    from protocol.messages import (
        Ccd as Ccd,
    )
    from protocol.messages import (
        Drw as Drw,
    )
    from protocol.messages import (
        Frm as Frm,
    )
    from protocol.messages import (
        Gof as Gof,
    )
    from protocol.messages import (
        Hlo as Hlo,
    )
    from protocol.messages import (
        Hst as Hst,
    )
    from protocol.messages import (
        Huh as Huh,
    )
    from protocol.messages import (
        Iam as Iam,
    )
    from protocol.messages import (
        Lod as Lod,
    )
    from protocol.messages import (
        Map as Map,
    )
    from protocol.messages import (
        Mdf as Mdf,
    )
    from protocol.messages import (
        Message as Message,
    )
    from protocol.messages import (
        Mis as Mis,
    )
    from protocol.messages import (
        Nme as Nme,
    )
    from protocol.messages import (
        Not as Not,
    )
    from protocol.messages import (
        Now as Now,
    )
    from protocol.messages import (
        Obs as Obs,
    )
    from protocol.messages import (
        Off as Off,
    )
    from protocol.messages import (
        Ord as Ord,
    )
    from protocol.messages import (
        Out as Out,
    )
    from protocol.messages import (
        PlayerSummary as PlayerSummary,
    )
    from protocol.messages import (
        Prn as Prn,
    )
    from protocol.messages import (
        RawMessage as RawMessage,
    )
    from protocol.messages import (
        Rej as Rej,
    )
    from protocol.messages import (
        Sco as Sco,
    )
    from protocol.messages import (
        Slo as Slo,
    )
    from protocol.messages import (
        Smr as Smr,
    )
    from protocol.messages import (
        Snd as Snd,
    )
    from protocol.messages import (
        Sub as Sub,
    )
    from protocol.messages import (
        Sve as Sve,
    )
    from protocol.messages import (
        Thx as Thx,
    )
    from protocol.messages import (
        Tme as Tme,
    )
    from protocol.messages import (
        Yes as Yes,
    )
    from protocol.messages import (
        huh_for as huh_for,
    )
    from protocol.messages import (
        parse_message as parse_message,
    )
    from protocol.messages import (
        parse_text as parse_text,
    )
    from protocol.messages import (
        press_replies as press_replies,
    )
    from protocol.messages import (
        reply_to_bad_message as reply_to_bad_message,
    )
    from protocol.messages import (
        to_text as to_text,
    )
    from protocol.notation import (
        format_centres as format_centres,
    )
    from protocol.notation import (
        format_location as format_location,
    )
    from protocol.notation import (
        format_order as format_order,
    )
    from protocol.notation import (
        format_turn as format_turn,
    )
    from protocol.notation import (
        format_unit as format_unit,
    )
    from protocol.notation import (
        format_unit_position as format_unit_position,
    )
    from protocol.notation import (
        parse_centres as parse_centres,
    )
    from protocol.notation import (
        parse_location as parse_location,
    )
    from protocol.notation import (
        parse_order as parse_order,
    )
    from protocol.notation import (
        parse_results as parse_results,
    )
    from protocol.notation import (
        parse_turn as parse_turn,
    )
    from protocol.notation import (
        parse_unit as parse_unit,
    )
    from protocol.notation import (
        parse_unit_position as parse_unit_position,
    )
    from protocol.notation import (
        parse_unit_positions as parse_unit_positions,
    )
    from protocol.tokens import STANDARD as STANDARD
    from protocol.tokens import Token as Token
    from protocol.tokens import TokenTable as TokenTable
    from protocol.variant import Variant as Variant
    from protocol.variant import VariantOption as VariantOption
    from protocol.wire import (
        DiplomacyMessage as DiplomacyMessage,
    )
    from protocol.wire import (
        ErrorMessage as ErrorMessage,
    )
    from protocol.wire import (
        FinalMessage as FinalMessage,
    )
    from protocol.wire import (
        InitialMessage as InitialMessage,
    )
    from protocol.wire import (
        RepresentationMessage as RepresentationMessage,
    )
    from protocol.wire import (
        WireMessage as WireMessage,
    )
    from protocol.wire import (
        encode as encode,
    )
    from protocol.wire import (
        encode_error as encode_error,
    )
    from protocol.wire import (
        encode_final as encode_final,
    )
    from protocol.wire import (
        encode_initial as encode_initial,
    )
    from protocol.wire import (
        encode_message as encode_message,
    )
    from protocol.wire import (
        encode_representation as encode_representation,
    )
    from protocol.wire import (
        encode_tokens as encode_tokens,
    )
