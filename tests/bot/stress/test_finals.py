"""Counting submitted final answers in game logs of both formats."""

from __future__ import annotations

import json
from pathlib import Path

from bot.stress.finals import figures, main

STATS = {"iterations": 10}
NEW = [
    {"kind": "hlo"},
    {"kind": "submit", "margin": 4.9},
    {"kind": "search", "final": False, "stats": {"iterations": 3, "elapsed": 0.5}},
    {"kind": "search", "final": True, "stats": {"iterations": 400, "elapsed": 4.0}},
    {"kind": "submit", "margin": 0.8},
    {"kind": "final_answer", "submitted": True},
    {"kind": "orders"},
    {"kind": "submit", "margin": 0.6},
    {"kind": "final_answer", "submitted": False},
    {"kind": "orders"},
    {"kind": "msg", "dir": "in", "text": "CCD ( ITA )"},
    {"kind": "msg", "dir": "out", "text": "CCD ( ITA )"},  # not from the server
    {"kind": "search", "final": True, "stats": {"iterations": 900, "elapsed": 3.0}},
    {"kind": "submit", "margin": "soon"},  # a corrupt record is skipped
    {"kind": "submit", "margin": 2.0},  # a retreat: no movement phase
    {"kind": "summary", "missed_deadlines": 2},
]
OLD = [
    {"kind": "hlo"},
    {"kind": "search", "final": False, "stats": STATS},
    {"kind": "submit", "margin": 0.5},
    {"kind": "orders"},  # stopped waiting before the final answer came
    {"kind": "search", "final": False, "stats": STATS},
    {"kind": "search", "final": True, "stats": STATS},
    {"kind": "orders"},
]
HEURISTIC = [{"kind": "hlo"}, {"kind": "search", "final": True, "stats": {"seconds": 0.1}}]


def _write(folder: Path, records: list[dict]) -> None:
    folder.mkdir()
    (folder / "bot.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records) + "garbage\n")


def test_both_log_formats(tmp_path: Path, capsys) -> None:
    _write(tmp_path / "new", NEW)
    _write(tmp_path / "old", OLD)
    _write(tmp_path / "heuristic", HEURISTIC)
    (_, n), (_, o), (_, h) = figures([tmp_path / x for x in ("new", "old", "heuristic")])
    assert h.logs == 0
    assert (n.logs, n.searched, n.submitted, n.share) == (1, 2, 1, 0.5)
    assert (o.logs, o.searched, o.submitted, o.share) == (1, 2, 1, 0.5)
    assert n.margins == [0.8, 0.6] and o.margins == [0.5, 0.5]
    assert (n.missed, n.disorders, n.rates) == (2, 1, [100.0, 300.0])
    assert (o.missed, o.disorders) == (0, 0)
    assert main([str(tmp_path / "new")]) == 0
    assert "| 1 | 2 | 1 | 50.0% | 0.600 / 0.700 | 2 | 1 | 200 |" in capsys.readouterr().out
