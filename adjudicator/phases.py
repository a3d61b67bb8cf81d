"""The order of phases, and the phases a server skips.

Like Parlance, the engine goes straight to the next phase in which someone
must order: a retreat phase only when units were dislodged, a winter phase
only when some power must build or remove (centre ownership is updated on
entering winter, whether or not winter is then skipped).
"""

from __future__ import annotations

from adjudicator.position import AUTUMN, FALL, SPRING, SUMMER, WINTER, Position


def after_movement(pos: Position) -> None:
    """Advance ``pos`` (just moved, season still the movement season) to its next phase."""
    if pos.dislodged:
        pos.season += 1  # SPR -> SUM, FAL -> AUT
    elif pos.season == SPRING:
        pos.season = FALL
    else:
        enter_winter(pos)


def after_retreats(pos: Position) -> None:
    """Advance ``pos`` after its retreat phase."""
    pos.dislodged = {}
    if pos.season == SUMMER:
        pos.season = FALL
    else:
        assert pos.season == AUTUMN
        enter_winter(pos)


def enter_winter(pos: Position) -> None:
    """Update centre ownership; stay in winter only if someone must adjust."""
    owners = pos.owners
    is_supply = pos.map.is_supply
    for prov, unit in pos.units.items():
        if is_supply[prov]:
            owners[prov] = unit[0]
    pos.season = WINTER
    if not any(pos.adjustments()):
        after_adjustments(pos)


def after_adjustments(pos: Position) -> None:
    """Advance ``pos`` from winter to the next spring."""
    pos.season = SPRING
    pos.year += 1


def solo_winner(pos: Position, previous_counts: list[int] | None = None) -> int:
    """The power that has won outright (a strict lead and the map's winning count), or -1.

    ``previous_counts`` are the centre counts before this year's changes;
    Parlance declares a solo only for a power that has just grown.
    """
    counts = pos.centre_counts()
    best = max(counts)
    if best < pos.map.win_centres or counts.count(best) != 1:
        return -1
    power = counts.index(best)
    if previous_counts is not None and previous_counts[power] >= best:
        return -1
    return power
