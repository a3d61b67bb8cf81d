"""Counting submitted final answers in game logs of both formats."""

from __future__ import annotations

import json
from pathlib import Path

from bot.stress.finals import figures, main

NEW = [
    {"kind": "hlo"},
    {"kind": "search", "final": True},
    {"kind": "final_answer", "submitted": True},
    {"kind": "orders"},
    {"kind": "final_answer", "submitted": False},
    {"kind": "orders"},
    {"kind": "summary", "phase_margins": [0.6, 0.8, 2.0]},
]
OLD = [
    {"kind": "hlo"},
    {"kind": "search", "final": False},
    {"kind": "orders"},  # stopped waiting before the final answer came
    {"kind": "search", "final": False},
    {"kind": "search", "final": True},
    {"kind": "orders"},
    {"kind": "summary", "phase_margins": [0.5]},
]


def _write(folder: Path, records: list[dict]) -> None:
    folder.mkdir()
    (folder / "bot.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records) + "garbage\n")


def test_both_log_formats(tmp_path: Path, capsys) -> None:
    _write(tmp_path / "new", NEW)
    _write(tmp_path / "old", OLD)
    (_, n), (_, o) = figures([tmp_path / "new", tmp_path / "old"])
    assert (n.logs, n.searched, n.submitted, n.share) == (1, 2, 1, 0.5)
    assert (o.logs, o.searched, o.submitted, o.share) == (1, 2, 1, 0.5)
    assert n.margins == [0.6, 0.8, 2.0] and o.margins == [0.5]
    assert main([str(tmp_path / "new")]) == 0
    assert "| 1 | 2 | 1 | 50.0% | 0.600 / 0.800 |" in capsys.readouterr().out
