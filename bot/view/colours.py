"""The seven powers' colours, shared by the viewer's map and the run folder's charts."""

from __future__ import annotations

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
