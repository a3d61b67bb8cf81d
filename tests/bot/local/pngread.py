"""Reading the charts back: the PNG decoded by Pillow (installed with matplotlib)."""

from __future__ import annotations

from pathlib import Path

from PIL import Image


def hex_colour(rgb: tuple[int, int, int]) -> str:
    return "#{:02x}{:02x}{:02x}".format(*rgb)


def png_size_and_colours(path: Path) -> tuple[tuple[int, int], set[str]]:
    """The image's size and every colour in it (CSS hex), failing if it is not a PNG."""
    with Image.open(path) as image:
        assert image.format == "PNG"
        rgb = image.convert("RGB")
        colours = rgb.getcolors(maxcolors=1 << 24) or []
        return rgb.size, {hex_colour(c) for _, c in colours}
