"""The seat's own record of a game: its settings and every message it heard, in order."""

from __future__ import annotations

import json
from pathlib import Path

from bot.coach.recorded_game import SUMMARY_FILE
from bot.human.seatrecord import SeatRecord
from bot.toolkit.messagelog import MESSAGES_FILE


def test_the_record_makes_its_folder_and_notes_the_final_year(tmp_path: Path) -> None:
    folder = tmp_path / "runs" / "game" / "seat"
    record = SeatRecord(folder, "Alice", 1905)
    record.close()
    summary = json.loads((folder / SUMMARY_FILE).read_text(encoding="utf-8"))
    assert summary == {"settings": {"final_year": 1905}}


def test_messages_heard_are_appended_until_the_record_is_closed(tmp_path: Path) -> None:
    (tmp_path / MESSAGES_FILE).write_text("1.000 Alice in HLO ( FRA )\n", encoding="utf-8")
    record = SeatRecord(tmp_path, "Alice", None)
    record.heard("NOW ( SPR 1901 ) ( ... ) — é")
    record.close()
    record.heard("OFF ( )")
    lines = (tmp_path / MESSAGES_FILE).read_text(encoding="utf-8").splitlines()
    assert lines[0] == "1.000 Alice in HLO ( FRA )"
    assert len(lines) == 2 and lines[1].endswith(" Alice in NOW ( SPR 1901 ) ( ... ) — é")
