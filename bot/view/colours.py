"""The powers' colours, shared by the viewer's map and the run folder's charts."""

from __future__ import annotations

from collections.abc import Sequence

POWER_COLOURS: dict[str, str] = {
    "AUS": "#c81e1e",
    "ENG": "#1e3caa",
    "FRA": "#3caae6",
    "GER": "#644628",
    "ITA": "#28a03c",
    "RUS": "#8c46b4",
    "TUR": "#ebaa14",
}
"""The usual map colours of the standard powers, as CSS hex colours."""

NEUTRAL = "#ffffff"
"""The colour of an unowned supply centre."""

PALETTE: tuple[str, ...] = (
    "#c81e1e",
    "#1e3caa",
    "#28a03c",
    "#eb8c14",
    "#8c46b4",
    "#3caae6",
    "#644628",
)
"""Colours for series that are not powers (player labels), in order."""


def colour_of(power: str, index: int = 0) -> str:
    """A power's colour; another power (a variant's) gets one from the palette."""
    return POWER_COLOURS.get(power, PALETTE[index % len(PALETTE)])


VARIANT_PALETTE: tuple[str, ...] = (
    *PALETTE,
    "#e6199b",
    "#7f8c0d",
    "#0f8f8f",
    "#b8860b",
    "#5a5a5a",
    "#ff6f61",
    "#2e4a1e",
    "#9b2d5f",
    "#6b8ed6",
    "#d4a017",
    "#3d2b7a",
    "#a0522d",
    "#00a86b",
)
"""Distinct colours for the powers of a map other than the standard one, in their sorted order."""


def colours_for(powers: Sequence[str]) -> dict[str, str]:
    """Each power's colour: the usual ones on the standard map, the variant palette's otherwise.

    A map whose powers are not all standard ones (a variant may reuse a few
    standard names, as ``world3`` does ``RUS``) colours every power from
    :data:`VARIANT_PALETTE`, so no two share a colour.
    """
    names = sorted(set(powers))
    if all(p in POWER_COLOURS for p in names):
        return {p: POWER_COLOURS[p] for p in names}
    return {p: VARIANT_PALETTE[i % len(VARIANT_PALETTE)] for i, p in enumerate(names)}
