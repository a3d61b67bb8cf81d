"""Files read back: ours, which a crash or a hand may have broken, and files a user hands over.

Every file the project reads back goes through this module:

* only a regular file is read: a FIFO, a device or a folder is refused after a
  ``stat``, before anything opens it (opening a FIFO blocks until a writer comes;
  the open itself is non-blocking, and checked again, in case the path changed);
* at most a size limit is read (:data:`MAX_JSON_BYTES` for a JSON file), and a
  file read line by line (:func:`read_lines`) refuses a line longer than its limit,
  so a file cannot cost memory out of proportion with what it should hold;
* JSON is parsed strictly (:func:`json_object`): ``NaN``, ``Infinity``, numbers
  beyond :data:`MAX_NUMBER` (``1e400``, a 400-digit integer), nesting deeper than
  the parser recurses and more than :data:`MAX_JSON_CONTAINERS` arrays and objects
  are refused;
* a file's shape is checked with a pydantic model (:func:`read_json_model`).

Every failure is one :class:`UnreadableFile` (a ValueError) with a one-line
message naming the file; JSON that does not hold what was expected is its
subclass :class:`CorruptJSON`.  Callers turn it into their own error or, where
they promise it, set the file aside.
"""

from __future__ import annotations

import itertools
import json
import math
import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO, TypeVar

from pydantic import BaseModel, ValidationError

MAX_JSON_BYTES = 16 * 1024 * 1024
"""The largest JSON file read back (a thousand-game arena run is about 2 MB)."""

MAX_JSON_CONTAINERS = 1_000_000
"""The most arrays and objects one JSON text may open (each costs ~100 bytes of memory)."""

MAX_NUMBER = 2**63
"""The largest magnitude of a number in a JSON file read back: beyond it, arithmetic overflows."""

MAX_INT_DIGITS = len(str(MAX_NUMBER))
"""Integers with more digits than this are refused before they are converted."""

MAX_REASON = 200
"""Characters of a parser's message kept in an error (it may quote the input)."""

Model = TypeVar("Model", bound=BaseModel)


class UnreadableFile(ValueError):
    """A file that cannot be read back: missing, not a regular file, too big, not UTF-8..."""


class CorruptJSON(UnreadableFile):
    """Text or a file that does not hold the JSON object expected."""


class _RefusedNumber(ValueError):
    """A JSON number we do not read (NaN, an infinity, or one too large to compute with)."""


def _int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise _RefusedNumber(f"the number {text[:20]}... is too large")
    value = int(text)
    if abs(value) > MAX_NUMBER:
        raise _RefusedNumber(f"the number {text} is too large")
    return value


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value) or abs(value) > MAX_NUMBER:
        raise _RefusedNumber(f"the number {text[:40]} is too large")
    return value


def _constant(name: str) -> float:
    raise _RefusedNumber(f"{name} is not a number JSON allows")


def _short(text: str) -> str:
    line = " ".join(text.split())
    return line if len(line) <= MAX_REASON else line[: MAX_REASON - 3] + "..."


def json_value(text: str) -> Any:
    """The JSON value ``text`` holds, parsed strictly; CorruptJSON if there is none.

    NaN, infinities, numbers beyond :data:`MAX_NUMBER`, nesting deeper than the
    parser recurses and more than :data:`MAX_JSON_CONTAINERS` arrays and objects
    are refused.
    """
    if text.count("[") + text.count("{") > MAX_JSON_CONTAINERS:
        raise CorruptJSON(f"more than {MAX_JSON_CONTAINERS} JSON arrays and objects")
    try:
        return json.loads(text, parse_int=_int, parse_float=_float, parse_constant=_constant)
    except _RefusedNumber as exc:
        raise CorruptJSON(str(exc)) from None
    except RecursionError:
        raise CorruptJSON("not JSON: nested too deeply") from None
    except ValueError as exc:
        raise CorruptJSON(f"not JSON: {_short(str(exc))}") from None


def json_object(text: str) -> dict[str, Any]:
    """The JSON object ``text`` holds; CorruptJSON if it holds anything else or nothing."""
    value = json_value(text)
    if not isinstance(value, dict):
        raise CorruptJSON(f"a JSON {type(value).__name__}, not an object")
    return value


# --- files ------------------------------------------------------------------------------------


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "something else"


def _check(path: Path, info: os.stat_result, limit: int) -> None:
    if not stat.S_ISREG(info.st_mode):
        raise UnreadableFile(f"{path} is {_kind(info.st_mode)}, not a regular file")
    if info.st_size > limit:
        raise UnreadableFile(f"{path}: {info.st_size} bytes, more than the {limit} bytes read back")


def _why(exc: OSError) -> str:
    return exc.strerror or type(exc).__name__


def open_regular(path: Path, limit: int) -> BinaryIO:
    """``path`` open for reading in binary, if it is a regular file of at most ``limit`` bytes.

    UnreadableFile (naming the file) otherwise: missing, a folder, a FIFO, a
    device, too big, not allowed.  Nothing but a regular file is ever opened
    in blocking mode.
    """
    try:
        _check(path, os.stat(path), limit)
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | os.O_NOCTTY)
    except OSError as exc:
        raise UnreadableFile(f"{path}: {_why(exc)}") from None
    try:
        _check(path, os.fstat(fd), limit)  # the path may have been replaced since the stat
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_bytes(path: Path, limit: int = MAX_JSON_BYTES) -> bytes:
    """The bytes of the regular file ``path``; UnreadableFile if it is not one or has more."""
    with open_regular(path, limit) as fh:
        try:
            data = fh.read(limit + 1)
        except OSError as exc:
            raise UnreadableFile(f"{path}: {_why(exc)}") from None
    if len(data) > limit:  # it grew after the size was checked
        raise UnreadableFile(f"{path}: more than the {limit} bytes read back")
    return data


def read_text(path: Path, limit: int = MAX_JSON_BYTES) -> str:
    """The UTF-8 text of the regular file ``path``; UnreadableFile as :func:`read_bytes`."""
    try:
        return read_bytes(path, limit).decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UnreadableFile(f"{path}: not UTF-8 (byte {exc.start})") from None


def read_lines(path: Path, *, max_line: int, limit: int) -> Iterator[str]:
    """Each line of the regular file ``path``, without its newline (bad UTF-8 replaced).

    UnreadableFile (naming the file, and the line) if the file is not a
    regular file, holds more than ``limit`` bytes, or a line longer than
    ``max_line`` bytes: such a line is never read into memory whole.
    """
    with open_regular(path, limit) as fh:
        total = 0
        for number in itertools.count(1):
            try:
                raw = fh.readline(max_line + 1)
            except OSError as exc:
                raise UnreadableFile(f"{path}: {_why(exc)}") from None
            if not raw:
                return
            total += len(raw)
            if total > limit:
                raise UnreadableFile(f"{path}: more than the {limit} bytes read back")
            if len(raw) > max_line and not raw.endswith(b"\n"):
                raise UnreadableFile(f"{path}: line {number} is longer than {max_line} bytes")
            yield raw.rstrip(b"\n").decode("utf-8", errors="replace")


def read_json_object(path: Path, limit: int = MAX_JSON_BYTES) -> dict[str, Any]:
    """The JSON object saved in ``path``; CorruptJSON (naming the file) if it cannot be read."""
    try:
        text = read_text(path, limit)
    except UnreadableFile as exc:
        raise CorruptJSON(str(exc)) from None
    try:
        return json_object(text)
    except CorruptJSON as exc:
        raise CorruptJSON(f"{path}: {exc}") from None


def _first_problem(error: ValidationError) -> str:
    problems = error.errors(include_url=False, include_input=False)
    first = problems[0]
    where = ".".join(str(part) for part in first["loc"]) or "the top level"
    more = f" (and {len(problems) - 1} more problems)" if len(problems) > 1 else ""
    return f"{where}: {_short(first['msg'])}{more}"


def check_shape(data: object, model: type[Model]) -> Model:
    """``data`` validated as ``model``; CorruptJSON saying where it is wrong if it is not."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise CorruptJSON(_first_problem(exc)) from None


def read_json_model(path: Path, model: type[Model], limit: int = MAX_JSON_BYTES) -> Model:
    """The JSON file ``path`` read as ``model``; CorruptJSON (naming the file) if it is not one."""
    data = read_json_object(path, limit)
    try:
        return check_shape(data, model)
    except CorruptJSON as exc:
        raise CorruptJSON(f"{path}: {exc}") from None


def write_json_object(path: Path, data: dict[str, Any], *, indent: int | None = 1) -> None:
    """Save ``data`` in ``path`` whole or not at all (a temporary file renamed over it)."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data, indent=indent) + "\n", encoding="utf-8")
    tmp.replace(path)
