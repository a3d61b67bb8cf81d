"""Joining a game: the server's map (MAP, MDF) and the greeting that seats us (HLO).

What the core must do with each: agree to a map it can play on and hand it to
the search, refuse one it cannot and give up, keep the map a game began on;
take one HLO per game (or the one a rejoin asked for), for our power only,
and play each phase kind within HLO's limits.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from adjudicator.maps import GameMap
from adjudicator.position import Position
from adjudicator.rule_errors import MapError
from adjudicator.standard import standard_definition
from bot.client.core import notes
from bot.client.core.effects import Effect, GiveUp, UseMap
from protocol.messages import Hlo, Iam, Map, Mdf, Nme, Rej, Yes
from protocol.values import MapDefinition
from protocol.variant import Variant
from tests.bot.client.core.driver import PASSCODE, Driver, noted, of, opening, sent
from tests.bot.client.core.test_core_messages import RETREAT, WINTER

STANDARD = standard_definition()

NO_CENTRES = replace(STANDARD, supply_centres=())
"""A map that parses but cannot be played: no supply centres."""

SHARED_BELGIUM = replace(
    STANDARD, supply_centres=(*STANDARD.supply_centres, (("FRA", "GER"), ("BEL",)))
)
"""A map a server plays though the rules do not expect it: Belgium a home of two powers."""


LIMITS = Variant.of(move_time_limit=10, retreat_time_limit=20, build_time_limit=30)


def greeted() -> Driver:
    """A driver whose NME the server took: the map comes next."""
    d = Driver()
    d.open()
    d.say(Yes(Nme("test", "1")))
    return d


def map_error(definition: MapDefinition) -> str:
    """What the rules find wrong with ``definition``."""
    with pytest.raises(MapError) as error:
        GameMap.from_definition(definition, "any")
    return str(error.value)


def deadlines(d: Driver, *positions: Position) -> list[float | None]:
    """The seconds to the deadline each of ``positions`` is started with."""
    found = []
    for pos in positions:
        (started,) = noted(d.show(pos), notes.PhaseStarted)
        found.append(started.deadline_in)
    return found


def ignored(actions: list[Effect]) -> list[tuple[str, str]]:
    """The reason and kind of each message the core ignored."""
    return [(n.reason, n.kind) for n in noted(actions, notes.MessageIgnored)]


# --- the map -------------------------------------------------------------------------------


def test_the_named_map_is_agreed_to_and_given_to_the_search_under_its_name() -> None:
    d = greeted()
    assert sent(d.say(Map("STANDARD"))) == [Mdf()]
    out = d.say(Mdf(STANDARD))
    assert sent(out) == [Yes(Map("STANDARD"))]
    assert of(out, UseMap) == [UseMap(STANDARD, "STANDARD")]
    assert not noted(out, notes.MapOddities) and not noted(out, notes.HandlerError)
    game_map = d.core.mirror.game_map
    assert game_map is not None and game_map.name == "STANDARD"  # a later worker's map


def test_a_map_the_server_did_not_name_is_the_standard_one() -> None:
    d = greeted()
    out = d.say(Mdf(STANDARD))
    assert sent(out) == [Yes(Map("standard"))]
    assert of(out, UseMap) == [UseMap(STANDARD, "standard")]
    out = d.say(Hlo("FRA", PASSCODE, LIMITS))
    (joined,) = noted(out, notes.Joined)
    assert joined.map == "standard"


def test_an_unusable_map_is_refused_by_name_and_the_bot_gives_up_saying_why() -> None:
    d = greeted()
    d.say(Map("EMPTY"))
    out = d.say(Mdf(NO_CENTRES))
    error = map_error(NO_CENTRES)
    assert "no supply centres" in error
    assert noted(out, notes.BadMap) == [notes.BadMap("EMPTY", error)]
    assert sent(out) == [Rej(Map("EMPTY"))]
    assert of(out, GiveUp) == [GiveUp(f"the server's map EMPTY is not usable: {error}")]
    assert not of(out, UseMap) and d.core.mirror.game_map is None


def test_a_map_with_oddities_is_played_and_its_oddities_noted() -> None:
    d = greeted()
    d.say(Map("SHARED"))
    out = d.say(Mdf(SHARED_BELGIUM))
    oddities = GameMap.from_definition(SHARED_BELGIUM, "SHARED").oddities
    assert any("BEL" in line for line in oddities)
    assert noted(out, notes.MapOddities) == [notes.MapOddities("SHARED", oddities)]
    assert sent(out) == [Yes(Map("SHARED"))]
    assert of(out, UseMap) == [UseMap(SHARED_BELGIUM, "SHARED")]


def test_before_the_first_position_a_new_map_replaces_the_first() -> None:
    d = greeted()
    d.say(Map("STANDARD"), Mdf(STANDARD))
    out = d.say(Mdf(SHARED_BELGIUM))
    assert of(out, UseMap) == [UseMap(SHARED_BELGIUM, "STANDARD")]
    assert sent(out) == [Yes(Map("STANDARD"))]
    assert not ignored(out)


def test_in_the_middle_of_the_game_the_same_map_is_agreed_to_and_another_ignored() -> None:
    d = Driver()
    d.join()
    d.show(opening())
    out = d.say(Mdf(STANDARD))
    assert sent(out) == [Yes(Map("STANDARD"))]
    assert not of(out, UseMap) and not ignored(out)
    out = d.say(Mdf(SHARED_BELGIUM))
    assert ignored(out) == [("a new map in the middle of the game", "MDF")]
    assert not sent(out) and not of(out, UseMap) and not noted(out, notes.MapOddities)
    game_map = d.core.mirror.game_map
    assert game_map is not None and game_map.definition == STANDARD


# --- HLO -------------------------------------------------------------------------------------


def test_hlo_seats_us_and_notes_the_power_passcode_map_and_limits() -> None:
    d = Driver()
    out = d.join(LIMITS, power="ENG")
    assert noted(out, notes.Joined) == [notes.Joined("ENG", PASSCODE, "STANDARD", 10, 20, 30)]
    assert d.core.joined and d.core.power == "ENG" and d.core.passcode == PASSCODE


def test_each_phase_kind_has_its_own_limit_from_hlo() -> None:
    d = Driver()
    d.join(LIMITS)
    assert deadlines(d, opening(), RETREAT, WINTER) == [10, 20, 30]


def test_without_limits_in_hlo_no_phase_has_a_deadline() -> None:
    d = Driver()
    d.join(Variant.of())
    assert deadlines(d, opening(), RETREAT, WINTER) == [None, None, None]


def test_a_second_hlo_we_did_not_ask_for_is_ignored() -> None:
    d = Driver()
    d.join(LIMITS)
    for again in (Hlo("FRA", PASSCODE, Variant.of()), Hlo("ENG", 1, Variant.of())):
        out = d.say(again)
        assert ignored(out) == [("a second HLO (we play FRA); we did not ask for one", "HLO")]
        assert not noted(out, notes.Joined)
    assert d.core.power == "FRA" and d.core.passcode == PASSCODE
    assert deadlines(d, opening()) == [10]


def test_a_bare_hlo_is_ignored_as_a_request() -> None:
    d = greeted()
    d.say(Map("STANDARD"), Mdf(STANDARD))
    out = d.say(Hlo())
    reason = "HLO without a power (a request: servers do not send it)"
    assert ignored(out) == [(reason, "HLO")]
    assert not d.core.joined and d.core.power is None


def rejoined() -> Driver:
    """A driver that played as France, lost its connection and was let back in (HLO asked)."""
    d = Driver()
    d.join(LIMITS)
    d.show(opening())
    d.later(1).lose()
    d.open()
    assert sent(d.say(Yes(Iam("FRA", PASSCODE))))[0] == Hlo()
    return d


def test_the_hlo_a_rejoin_asked_for_is_taken_with_its_new_limits() -> None:
    d = rejoined()
    out = d.say(Hlo("FRA", PASSCODE, Variant.of(move_time_limit=40)))
    assert not ignored(out)
    assert noted(out, notes.Joined) == [notes.Joined("FRA", PASSCODE, "STANDARD", 40, None, None)]
    assert deadlines(d, RETREAT) == [None]
    # Asked once, taken once: another is a second HLO.
    out = d.say(Hlo("FRA", PASSCODE, LIMITS))
    assert ignored(out) == [("a second HLO (we play FRA); we did not ask for one", "HLO")]


@pytest.mark.parametrize("other", [Hlo("ENG", PASSCODE, LIMITS), Hlo("FRA", PASSCODE + 1, LIMITS)])
def test_an_hlo_for_another_seat_is_ignored_even_when_asked_for(other: Hlo) -> None:
    d = rejoined()
    out = d.say(other)
    reason = f"HLO for {other.power} ({other.passcode}) while we play FRA"
    assert ignored(out) == [(reason, "HLO")]
    assert not noted(out, notes.Joined)
    assert d.core.power == "FRA" and d.core.passcode == PASSCODE
