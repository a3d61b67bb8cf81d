"""A small RGB raster with lines, rectangles and a 5x7 bitmap font, written out as PNG.

Enough for the run folder's charts, with nothing but the standard library
(``zlib`` does the compression): a plotting library would add over 100 MB
of packages to draw a few lines.  Text is upper case (lower case is drawn as
upper case); characters the font lacks are drawn as ``?``.
"""

from __future__ import annotations

import struct
import zlib

Colour = tuple[int, int, int]

WHITE: Colour = (255, 255, 255)
BLACK: Colour = (0, 0, 0)

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"

GLYPH_WIDTH = 5
GLYPH_HEIGHT = 7

# Each glyph is seven rows of five pixels, top to bottom, '#' for ink.
_FONT_ROWS = {
    "0": ".###. #...# #..## #.#.# ##..# #...# .###.",
    "1": "..#.. .##.. ..#.. ..#.. ..#.. ..#.. .###.",
    "2": ".###. #...# ....# ...#. ..#.. .#... #####",
    "3": "##### ...#. ..#.. ...#. ....# #...# .###.",
    "4": "...#. ..##. .#.#. #..#. ##### ...#. ...#.",
    "5": "##### #.... ####. ....# ....# #...# .###.",
    "6": "..##. .#... #.... ####. #...# #...# .###.",
    "7": "##### ....# ...#. ..#.. .#... .#... .#...",
    "8": ".###. #...# #...# .###. #...# #...# .###.",
    "9": ".###. #...# #...# .#### ....# ...#. .##..",
    "A": ".###. #...# #...# ##### #...# #...# #...#",
    "B": "####. #...# #...# ####. #...# #...# ####.",
    "C": ".###. #...# #.... #.... #.... #...# .###.",
    "D": "###.. #..#. #...# #...# #...# #..#. ###..",
    "E": "##### #.... #.... ####. #.... #.... #####",
    "F": "##### #.... #.... ####. #.... #.... #....",
    "G": ".###. #...# #.... #.### #...# #...# .####",
    "H": "#...# #...# #...# ##### #...# #...# #...#",
    "I": ".###. ..#.. ..#.. ..#.. ..#.. ..#.. .###.",
    "J": "..### ...#. ...#. ...#. ...#. #..#. .##..",
    "K": "#...# #..#. #.#.. ##... #.#.. #..#. #...#",
    "L": "#.... #.... #.... #.... #.... #.... #####",
    "M": "#...# ##.## #.#.# #.#.# #...# #...# #...#",
    "N": "#...# #...# ##..# #.#.# #..## #...# #...#",
    "O": ".###. #...# #...# #...# #...# #...# .###.",
    "P": "####. #...# #...# ####. #.... #.... #....",
    "Q": ".###. #...# #...# #...# #.#.# #..#. .##.#",
    "R": "####. #...# #...# ####. #.#.. #..#. #...#",
    "S": ".#### #.... #.... .###. ....# ....# ####.",
    "T": "##### ..#.. ..#.. ..#.. ..#.. ..#.. ..#..",
    "U": "#...# #...# #...# #...# #...# #...# .###.",
    "V": "#...# #...# #...# #...# #...# .#.#. ..#..",
    "W": "#...# #...# #...# #.#.# #.#.# #.#.# .#.#.",
    "X": "#...# #...# .#.#. ..#.. .#.#. #...# #...#",
    "Y": "#...# #...# .#.#. ..#.. ..#.. ..#.. ..#..",
    "Z": "##### ....# ...#. ..#.. .#... #.... #####",
    " ": "..... ..... ..... ..... ..... ..... .....",
    ".": "..... ..... ..... ..... ..... .##.. .##..",
    ",": "..... ..... ..... ..... .##.. ..#.. .#...",
    ":": "..... .##.. .##.. ..... .##.. .##.. .....",
    "-": "..... ..... ..... ##### ..... ..... .....",
    "_": "..... ..... ..... ..... ..... ..... #####",
    "#": ".#.#. .#.#. ##### .#.#. ##### .#.#. .#.#.",
    "(": "...#. ..#.. .#... .#... .#... ..#.. ...#.",
    ")": ".#... ..#.. ...#. ...#. ...#. ..#.. .#...",
    "/": "..... ....# ...#. ..#.. .#... #.... .....",
    "%": "##... ##..# ...#. ..#.. .#... #..## ...##",
    "+": "..... ..#.. ..#.. ##### ..#.. ..#.. .....",
    "=": "..... ..... ##### ..... ##### ..... .....",
    "?": ".###. #...# ....# ...#. ..#.. ..... ..#..",
    "!": "..#.. ..#.. ..#.. ..#.. ..#.. ..... ..#..",
    "'": "..#.. ..#.. .#... ..... ..... ..... .....",
    "*": "..... ..#.. #.#.# .###. #.#.# ..#.. .....",
    "<": "...#. ..#.. .#... #.... .#... ..#.. ...#.",
    ">": ".#... ..#.. ...#. ....# ...#. ..#.. .#...",
    "[": ".###. .#... .#... .#... .#... .#... .###.",
    "]": ".###. ...#. ...#. ...#. ...#. ...#. .###.",
    "±": "..#.. ..#.. ##### ..#.. ..#.. ..... #####",
}

FONT: dict[str, tuple[tuple[int, ...], ...]] = {
    char: tuple(tuple(x for x, cell in enumerate(row) if cell == "#") for row in rows.split())
    for char, rows in _FONT_ROWS.items()
}
"""For each character, the inked columns of each of its seven rows."""


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def encode_png(width: int, height: int, rgb: bytes) -> bytes:
    """A PNG file of 8-bit RGB pixels (``rgb`` holds the rows top to bottom, no padding)."""
    if len(rgb) != width * height * 3:
        raise ValueError(f"{len(rgb)} bytes for a {width}x{height} RGB image")
    stride = width * 3
    raw = b"".join(b"\x00" + rgb[y * stride : (y + 1) * stride] for y in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        PNG_SIGNATURE
        + _chunk(b"IHDR", header)
        + _chunk(b"IDAT", zlib.compress(raw, 9))
        + _chunk(b"IEND", b"")
    )


class Canvas:
    """An RGB image being drawn on; (0, 0) is the top-left corner."""

    def __init__(self, width: int, height: int, background: Colour = WHITE) -> None:
        if width < 1 or height < 1:
            raise ValueError("a canvas needs at least one pixel")
        self.width = width
        self.height = height
        self.pixels = bytearray(bytes(background) * (width * height))

    def get(self, x: int, y: int) -> Colour:
        """The colour at (x, y)."""
        i = (y * self.width + x) * 3
        return (self.pixels[i], self.pixels[i + 1], self.pixels[i + 2])

    def set(self, x: int, y: int, colour: Colour) -> None:
        """Paint one pixel (outside the canvas: nothing)."""
        if 0 <= x < self.width and 0 <= y < self.height:
            i = (y * self.width + x) * 3
            self.pixels[i : i + 3] = bytes(colour)

    def rect(self, x0: int, y0: int, x1: int, y1: int, colour: Colour) -> None:
        """Fill the rectangle with corners (x0, y0) and (x1, y1), both included."""
        xa, xb = sorted((max(0, x0), min(self.width - 1, x1)))
        ya, yb = sorted((max(0, y0), min(self.height - 1, y1)))
        if xa > xb or ya > yb:
            return
        row = bytes(colour) * (xb - xa + 1)
        for y in range(ya, yb + 1):
            i = (y * self.width + xa) * 3
            self.pixels[i : i + len(row)] = row

    def line(self, x0: int, y0: int, x1: int, y1: int, colour: Colour, width: int = 1) -> None:
        """A straight line (Bresenham), ``width`` pixels thick."""
        half = (width - 1) // 2
        dx, dy = abs(x1 - x0), -abs(y1 - y0)
        sx = 1 if x0 < x1 else -1
        sy = 1 if y0 < y1 else -1
        err = dx + dy
        x, y = x0, y0
        while True:
            self.rect(x - half, y - half, x - half + width - 1, y - half + width - 1, colour)
            if x == x1 and y == y1:
                return
            e2 = 2 * err
            if e2 >= dy:
                err += dy
                x += sx
            if e2 <= dx:
                err += dx
                y += sy

    @staticmethod
    def text_width(text: str, scale: int = 1) -> int:
        """Pixels a text takes across."""
        return max(0, len(text) * (GLYPH_WIDTH + 1) * scale - scale)

    def text(self, x: int, y: int, text: str, colour: Colour = BLACK, scale: int = 1) -> int:
        """Write ``text`` with its top-left corner at (x, y); returns the x after it."""
        for char in text:
            glyph = FONT.get(char.upper(), FONT["?"])
            for row, columns in enumerate(glyph):
                for column in columns:
                    px, py = x + column * scale, y + row * scale
                    self.rect(px, py, px + scale - 1, py + scale - 1, colour)
            x += (GLYPH_WIDTH + 1) * scale
        return x

    def to_png(self) -> bytes:
        """The image as a PNG file."""
        return encode_png(self.width, self.height, bytes(self.pixels))
