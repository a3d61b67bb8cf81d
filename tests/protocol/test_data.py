"""The recorded data files: every message of the live game and the standard MDF round-trip."""

from __future__ import annotations

from collections import Counter

import pytest

from protocol.data import RECEIVED, SENT, sample_game, standard_mdf_text
from protocol.decoder import Decoder, Role
from protocol.messages import Mdf, parse_message, parse_text
from protocol.tokens import STANDARD
from protocol.values import UNOWNED
from protocol.wire import (
    DiplomacyMessage,
    encode_initial,
    encode_message,
    encode_representation,
    encode_tokens,
)

GAME = sample_game()


def test_sample_game_is_a_realistic_mix() -> None:
    kinds = Counter((direction, text.split(" ", 1)[0]) for direction, text in GAME)
    for kind in ("HLO", "MAP", "MDF", "NOW", "SCO", "ORD", "THX", "MIS", "TME", "YES", "SMR"):
        assert kinds[RECEIVED, kind] > 0, kind
    for kind in ("NME", "MDF", "YES", "SUB", "GOF", "NOT", "DRW", "HST"):
        assert kinds[SENT, kind] > 0, kind
    assert any(" MRT " in text for _, text in GAME)


@pytest.mark.parametrize(("direction", "text"), GAME, ids=[f"{i}" for i in range(len(GAME))])
def test_every_recorded_message_round_trips(direction: str, text: str) -> None:
    message = parse_text(text)
    assert message.to_text() == text
    assert parse_message(message.to_tokens()) == message


def test_whole_game_decodes_in_both_directions() -> None:
    server_bytes = encode_representation(STANDARD) + b"".join(
        encode_tokens(parse_text(text).to_tokens()) for d, text in GAME if d == RECEIVED
    )
    client_bytes = encode_initial() + b"".join(
        encode_message(parse_text(text)) for d, text in GAME if d == SENT
    )
    for role, stream, direction in (
        (Role.CLIENT, server_bytes, RECEIVED),
        (Role.SERVER, client_bytes, SENT),
    ):
        decoder = Decoder(role)
        texts = [m.text for m in decoder.feed(stream) if isinstance(m, DiplomacyMessage)]
        assert texts == [text for d, text in GAME if d == direction]


def test_standard_mdf_file_is_the_standard_map() -> None:
    text = standard_mdf_text()
    message = parse_text(text)
    assert isinstance(message, Mdf) and message.definition is not None
    assert message.to_text() == text
    definition = message.definition
    assert sorted(definition.powers) == sorted(STANDARD.powers)
    centres = [c for _, group in definition.supply_centres for c in group]
    assert len(centres) == 34 and len(set(centres)) == 34
    homes = {owners: group for owners, group in definition.supply_centres}
    assert homes[("ENG",)] == ("EDI", "LON", "LVP")
    assert len(homes[(UNOWNED,)]) == 12
    assert len(centres) + len(definition.non_supply_centres) == 75
    assert len(definition.adjacencies) == 75
    split = {p.province for p in definition.adjacencies if any(e.coast for e in p.entries)}
    assert split == {"BUL", "SPA", "STP"}
