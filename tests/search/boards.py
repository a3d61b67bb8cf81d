"""Hand-made boards for the search tests: positions written as short strings."""

from __future__ import annotations

from random import Random

from adjudicator.maps import ARMY, FLEET, standard_map
from adjudicator.orders import EngineOrder
from adjudicator.position import NOBODY, SEASONS, Position, initial_position
from search.dumbbot import DumbBot
from search.simulate import play_phase

M = standard_map()


def position(turn: str, units: list[str], owners: dict[str, list[str]]) -> Position:
    """A hand-made position: ``"FAL 1901"``, units like ``"RUS F STP/SC"``, centre owners."""
    season_name, year = turn.split()
    season = [s.value for s in SEASONS].index(season_name)
    own = [NOBODY] * M.num_provinces
    for power, provs in owners.items():
        for prov in provs:
            own[M.province_index[prov]] = M.power_index[power]
    placed = {}
    for text in units:
        power, kind, where = text.split()
        prov, _, coast = where.partition("/")
        loc = M.location(prov, coast or None)
        placed[M.loc_province[loc]] = (M.power_index[power], ARMY if kind == "A" else FLEET, loc)
    return Position(M, season, int(year), placed, own, {})


def power(name: str) -> int:
    """A power's id on the standard map."""
    return M.power_index[name]


def prov(name: str) -> int:
    """A province's id on the standard map."""
    return M.province_index[name]


def loc(name: str) -> int:
    """A location's id: ``"STP/SC"`` or ``"PAR"``."""
    province, _, coast = name.partition("/")
    return M.location(province, coast or None)


Movements = list[tuple[Position, dict[int, EngineOrder]]]
"""A game's movement phases, each position with every order played."""


def dumbbot_game(seed: int, years: int) -> Movements:
    """Every movement phase of a game of seven DumbBots from the start, with all orders."""
    rng = Random(seed)
    bots = [DumbBot()] * M.num_powers
    pos = initial_position(M)
    out: Movements = []
    while pos.year < 1901 + years:
        if pos.is_movement:
            played: dict[int, EngineOrder] = {}
            before = pos
            pos = play_phase(pos, bots, rng, played)
            out.append((before, played))
        else:
            pos = play_phase(pos, bots, rng)
    return out
