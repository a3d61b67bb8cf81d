"""JSON objects read back from our own files: anything else is a CorruptJSON, never a crash."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.jsonfiles import CorruptJSON, json_object, read_json_object


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
        ("NaN", "a JSON float, not an object"),
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
