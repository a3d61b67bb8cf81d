"""JSON objects read back from files and lines we wrote, which a crash or a hand may have broken.

A truncated line, a full disk, an edited file or a runaway nesting depth all
come back as :class:`CorruptJSON` (a ValueError), never as a parser's
RecursionError or as a list where a mapping was expected.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


class CorruptJSON(ValueError):
    """Text or a file that does not hold the JSON object expected."""


def json_object(text: str) -> dict[str, Any]:
    """The JSON object ``text`` holds; CorruptJSON if it holds anything else or nothing."""
    try:
        value = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise CorruptJSON(f"not JSON: {exc!r}") from None
    if not isinstance(value, dict):
        raise CorruptJSON(f"a JSON {type(value).__name__}, not an object")
    return value


def read_json_object(path: Path) -> dict[str, Any]:
    """The JSON object saved in ``path``; CorruptJSON (naming the file) if it cannot be read."""
    try:
        return json_object(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise CorruptJSON(f"{path}: {exc}") from None


def write_json_object(path: Path, data: dict[str, Any], *, indent: int | None = 1) -> None:
    """Save ``data`` in ``path`` whole or not at all (a temporary file renamed over it)."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data, indent=indent) + "\n", encoding="utf-8")
    tmp.replace(path)
