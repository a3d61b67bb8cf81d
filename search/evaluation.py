"""A static value of a position for every power: its centres, and the centres in reach.

A rollout of DumbBot's play is the search's usual way to value a leaf; it
costs six times an expansion.  :func:`position_values` values a position at
once instead: each power's supply centres, plus :data:`GAIN_WEIGHT` for every
centre it does not own where it has more *pressure* than anyone else, minus
:data:`THREAT_WEIGHT` for every centre it owns where some other power has
more.  A power's pressure on a province is the number of its units that
stand there or could move or support into it.  Gains are capped at the
power's number of units (one unit takes one centre).  Values are over the
map's winning count and clipped to [0, 1]; after a solo the winner has 1 and
everyone else 0, as the search's reward.
"""

from __future__ import annotations

from adjudicator.phases import solo_winner
from adjudicator.position import Position

GAIN_WEIGHT = 0.5
"""Centres' worth of a centre we do not own but press hardest."""

THREAT_WEIGHT = 0.5
"""Centres' worth lost for an own centre someone else presses harder."""


def pressure(pos: Position) -> list[list[int]]:
    """``pressure[province][power]``: the power's units standing there or reaching it."""
    m = pos.map
    n = m.num_powers
    out = [[0] * n for _ in range(m.num_provinces)]
    for prov, (power, utype, loc) in pos.units.items():
        out[prov][power] += 1
        for q in m.reach(utype, loc):
            out[q][power] += 1
    return out


def position_values(
    pos: Position, gain: float = GAIN_WEIGHT, threat: float = THREAT_WEIGHT
) -> list[float]:
    """Every power's static value of ``pos`` (see the module docstring), in [0, 1]."""
    m = pos.map
    n = m.num_powers
    winner = solo_winner(pos)
    if winner >= 0:
        return [1.0 if p == winner else 0.0 for p in range(n)]
    counts = pos.centre_counts()
    press = pressure(pos)
    gains = [0] * n
    threats = [0] * n
    owners = pos.owners
    for sc in m.supply_centres:
        row = press[sc]
        top = max(row)
        if top == 0:
            continue
        leaders = [p for p in range(n) if row[p] == top]
        owner = owners[sc]
        if len(leaders) == 1 and leaders[0] != owner:
            gains[leaders[0]] += 1
        if owner >= 0 and row[owner] < top:
            threats[owner] += 1
    units = pos.unit_counts()
    win = m.win_centres
    return [
        max(0.0, min(1.0, (counts[p] + gain * min(gains[p], units[p]) - threat * threats[p]) / win))
        for p in range(n)
    ]
