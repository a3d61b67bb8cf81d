"""Did the search's final answer reach the server?  Figures from bots' game logs.

``python -m bot.stress.finals DIR...`` reads every game log (``*.jsonl``) under
each folder — a stress run, a local game's ``bots/``, a tournament — and
prints, per folder: movement phases searched, how many had the search's final
answer submitted, the margin of each movement phase's last submission
before the deadline (the bot's own estimate: minimum and median), the
deadlines the bots missed (their end-of-game summaries), the civil disorders
(``CCD``) they were told of, and the median speed of their final searches
(iterations per second).  Only the logs of searching bots count (MCTS: their
search reports iterations).

Logs of this version say it directly (``final_answer`` records).  Older logs
(before the time budget) are read too, so that before and after can be
compared: there a phase's final answer counts as submitted when a final
``search`` record came before the phase's ``orders`` record, since the old
client submitted whatever it had received when it stopped waiting.
"""

from __future__ import annotations

import argparse
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from bot.toolkit.jsonfiles import CorruptJSON, json_object


@dataclass
class FinalFigures:
    """Counts and margins over some game logs."""

    logs: int = 0
    searched: int = 0
    submitted: int = 0
    margins: list[float] = field(default_factory=list)
    missed: int = 0
    """Deadlines the bots missed, as their summaries say."""
    disorders: int = 0
    """``CCD`` messages the bots received (each bot hears every civil disorder)."""
    rates: list[float] = field(default_factory=list)
    """Iterations per second of every final search."""

    @property
    def share(self) -> float | None:
        """Submitted final answers per searched phase."""
        return self.submitted / self.searched if self.searched else None

    def line(self, label: str) -> str:
        """One table row."""
        share = "-" if self.share is None else f"{100 * self.share:.1f}%"
        if self.margins:
            low, mid = min(self.margins), statistics.median(self.margins)
            margins = f"{low:.3f} / {mid:.3f}"
        else:
            margins = "-"
        rate = f"{statistics.median(self.rates):.0f}" if self.rates else "-"
        return (
            f"| {label} | {self.logs} | {self.searched} | {self.submitted} | {share} | {margins} "
            f"| {self.missed} | {self.disorders} | {rate} |"
        )


def read_log(path: Path) -> list[dict]:
    """The records of one JSON-lines game log (unreadable lines skipped)."""
    records = []
    for line in path.read_text(errors="replace").splitlines():
        try:
            records.append(json_object(line))
        except CorruptJSON:
            continue
    return records


def count(records: Sequence[dict], into: FinalFigures) -> None:
    """Add one game log's phases to ``into``."""
    into.logs += 1
    if any(r.get("kind") == "final_answer" for r in records):
        finals = [r for r in records if r.get("kind") == "final_answer"]
        into.searched += len(finals)
        into.submitted += sum(1 for r in finals if r.get("submitted"))
    else:
        final_seen = False
        for r in records:
            kind = r.get("kind")
            if kind == "search" and r.get("final"):
                final_seen = True
            elif kind == "orders":
                into.searched += 1
                into.submitted += final_seen
                final_seen = False
    margin = None
    for r in records:
        kind = r.get("kind")
        if kind == "submit":
            value = r.get("margin")
            margin = float(value) if isinstance(value, int | float) else None
        elif kind == "orders" and margin is not None:
            into.margins.append(margin)  # the movement phase's last submission
        elif kind == "summary":
            into.missed += _count(r.get("missed_deadlines"))
        elif kind == "msg" and r.get("dir") == "in" and str(r.get("text", "")).startswith("CCD"):
            into.disorders += 1
        elif _searched(r) and r.get("final"):
            stats = r["stats"]
            elapsed = stats.get("elapsed")
            if isinstance(elapsed, int | float) and elapsed > 0:
                into.rates.append(_count(stats.get("iterations")) / elapsed)


def _count(value: object) -> int:
    """A count from a log record (0 if the record has none or a bad one)."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


def _searched(record: dict) -> bool:
    """A search report of MCTS (heuristic players answer without iterating)."""
    return record.get("kind") == "search" and "iterations" in (record.get("stats") or {})


def figures(folders: Iterable[Path]) -> list[tuple[Path, FinalFigures]]:
    """The figures of every folder's game logs."""
    out = []
    for folder in folders:
        result = FinalFigures()
        for path in sorted(folder.rglob("*.jsonl")):
            records = read_log(path)
            if any(_searched(r) for r in records):
                count(records, result)
        out.append((folder, result))
    return out


def main(argv: Sequence[str] | None = None) -> int:
    """Print the table for the folders given."""
    parser = argparse.ArgumentParser(prog="python -m bot.stress.finals", description=__doc__)
    parser.add_argument("folders", nargs="+", type=Path)
    args = parser.parse_args(argv)
    print("| run | game logs | phases searched | final answers submitted | share | "
          "last-SUB margin min / median (s) | missed deadlines | CCD heard | "
          "final searches (iterations/s, median) |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|---|")
    for folder, result in figures(args.folders):
        print(result.line(str(folder)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
