"""A strict little PNG reader for the tests: chunks, CRCs, IHDR, and the pixels of 8-bit RGB."""

from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass

SIGNATURE = b"\x89PNG\r\n\x1a\n"


@dataclass
class Image:
    width: int
    height: int
    rows: list[bytes]

    def pixel(self, x: int, y: int) -> tuple[int, int, int]:
        row = self.rows[y]
        return (row[3 * x], row[3 * x + 1], row[3 * x + 2])

    def colours(self) -> set[tuple[int, int, int]]:
        found = set()
        for row in self.rows:
            for i in range(0, len(row), 3):
                found.add((row[i], row[i + 1], row[i + 2]))
        return found


def read_png(data: bytes) -> Image:
    """Parse a PNG written as 8-bit RGB, filter 0; AssertionError on anything else."""
    assert data[:8] == SIGNATURE, "not a PNG signature"
    pos = 8
    chunks = []
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind = data[pos + 4 : pos + 8]
        body = data[pos + 8 : pos + 8 + length]
        (crc,) = struct.unpack(">I", data[pos + 8 + length : pos + 12 + length])
        assert zlib.crc32(kind + body) == crc, f"bad CRC in {kind!r}"
        chunks.append((kind, body))
        pos += 12 + length
    assert chunks[0][0] == b"IHDR" and chunks[-1][0] == b"IEND"
    width, height, depth, colour, compression, filtering, interlace = struct.unpack(
        ">IIBBBBB", chunks[0][1]
    )
    assert (depth, colour, compression, filtering, interlace) == (8, 2, 0, 0, 0)
    raw = zlib.decompress(b"".join(body for kind, body in chunks if kind == b"IDAT"))
    stride = 1 + 3 * width
    assert len(raw) == stride * height
    rows = []
    for y in range(height):
        line = raw[y * stride : (y + 1) * stride]
        assert line[0] == 0, "only filter type 0 is expected"
        rows.append(line[1:])
    return Image(width, height, rows)
