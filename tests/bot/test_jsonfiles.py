"""Files read back: anything but what was expected is one UnreadableFile naming the file."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from bot.toolkit.jsonfiles import (
    MAX_JSON_BYTES,
    CorruptJSON,
    UnreadableFile,
    json_object,
    read_bytes,
    read_json_model,
    read_json_object,
    read_lines,
)


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("", "not JSON"),
        ('{"kind": "msg", "te', "not JSON"),  # a line cut by a crash
        ("[1, 2]", "a JSON list, not an object"),
        ('"hlo"', "a JSON str, not an object"),
        ("null", "a JSON NoneType, not an object"),
        ("[" * 100_000, "not JSON"),  # deeper than the parser recurses
        ('{"a": ' * 50_000, "not JSON"),
        ("NaN", "NaN is not a number JSON allows"),
        ('{"final_year": Infinity}', "Infinity is not a number JSON allows"),
        ('{"seed": -Infinity}', "-Infinity is not a number JSON allows"),
        ('{"seconds": 1e400}', "1e400 is too large"),
        ('{"seconds": -1e300}', "too large"),
        ('{"games": 1' + "0" * 400 + "}", "too large"),
        ('{"games": 1' + "0" * 5000 + "}", "too large"),
        ('{"games": 99999999999999999999}', "too large"),
        ("[" + "[]," * 1_000_001 + "[]]", "more than 1000000 JSON arrays and objects"),
    ],
)
def test_anything_but_an_object_is_corrupt(text: str, error: str) -> None:
    with pytest.raises(CorruptJSON, match=error):
        json_object(text)


def test_an_object_comes_back_as_it_was_written(tmp_path: Path) -> None:
    record = {"t": 1.5, "kind": "hlo", "power": "FRA", "nested": [{"a": None}]}
    assert json_object(json.dumps(record)) == record
    path = tmp_path / "summary.json"
    path.write_text(json.dumps(record))
    assert read_json_object(path) == record


def test_unreadable_files_name_themselves(tmp_path: Path) -> None:
    with pytest.raises(CorruptJSON, match=r"missing\.json"):
        read_json_object(tmp_path / "missing.json")
    (tmp_path / "folder").mkdir()
    with pytest.raises(CorruptJSON, match="folder"):
        read_json_object(tmp_path / "folder")
    bad = tmp_path / "bad.json"
    bad.write_bytes(b'{"a": "\xff\xfe"}')
    with pytest.raises(CorruptJSON, match=r"bad\.json"):
        read_json_object(bad)
    assert isinstance(CorruptJSON("x"), ValueError)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=4000))
def test_any_bytes_are_an_object_or_corrupt(data: bytes) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "any.json"
        path.write_bytes(data)
        try:
            value = read_json_object(path)
        except CorruptJSON:
            return
        assert isinstance(value, dict)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet='[]{}":,0123456789 atrufnl\\', max_size=3000))
def test_any_json_like_text_is_an_object_or_corrupt(text: str) -> None:
    try:
        value = json_object(text)
    except CorruptJSON:
        return
    assert isinstance(value, dict)


def test_numbers_we_compute_with_come_back() -> None:
    data = {"seed": 2**63, "low": -(2**63), "seconds": 12.5, "tiny": 1e-300, "year": 1901}
    assert json_object(json.dumps(data)) == data


@pytest.mark.timeout(20)
def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path: Path) -> None:
    fifo = tmp_path / "summary.json"
    os.mkfifo(fifo)
    with pytest.raises(CorruptJSON, match=r"summary\.json is a FIFO, not a regular file"):
        read_json_object(fifo)
    with pytest.raises(UnreadableFile, match="FIFO"):
        list(read_lines(fifo, max_line=100, limit=1000))


def test_a_device_is_refused() -> None:
    with pytest.raises(UnreadableFile, match="is a device, not a regular file"):
        read_bytes(Path("/dev/zero"))
    with pytest.raises(CorruptJSON, match="device"):
        read_json_object(Path("/dev/null"))


def test_a_file_beyond_the_limit_is_refused_before_it_is_read(tmp_path: Path) -> None:
    big = tmp_path / "game.json"
    with open(big, "wb") as fh:
        fh.truncate(MAX_JSON_BYTES + 1)  # sparse: no disk is spent
    with pytest.raises(CorruptJSON, match=rf"game\.json: {MAX_JSON_BYTES + 1} bytes, more than"):
        read_json_object(big)
    small = tmp_path / "small.json"
    small.write_text('{"a": "' + "x" * 100 + '"}')
    with pytest.raises(UnreadableFile, match="more than the 50 bytes read back"):
        read_bytes(small, limit=50)


def test_lines_longer_than_their_limit_are_refused_unread(tmp_path: Path) -> None:
    path = tmp_path / "messages.daide"
    path.write_bytes(b"one\n" + b"x" * 50 + b"\nthree\n")
    lines = read_lines(path, max_line=20, limit=1000)
    assert next(lines) == "one"
    with pytest.raises(UnreadableFile, match=r"messages\.daide: line 2 is longer than 20 bytes"):
        next(lines)
    path.write_bytes(b"a" * 20 + b"\n" + b"b" * 20 + b"\n\xff end")  # exactly the limit: fine
    assert list(read_lines(path, max_line=20, limit=1000)) == ["a" * 20, "b" * 20, "\ufffd end"]
    with pytest.raises(UnreadableFile, match="more than the 30 bytes read back"):
        list(read_lines(path, max_line=20, limit=30))


class Shape(BaseModel):
    name: str
    count: int


def test_a_file_of_the_wrong_shape_says_where(tmp_path: Path) -> None:
    path = tmp_path / "run.json"
    path.write_text('{"name": "x", "count": 3}')
    assert read_json_model(path, Shape) == Shape(name="x", count=3)
    path.write_text('{"name": ["x"]}')
    with pytest.raises(CorruptJSON, match=r"run\.json: name: Input should be a valid string \("):
        read_json_model(path, Shape)
