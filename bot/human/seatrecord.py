"""A person's game recorded as a run folder, so ``daide-mcts review`` (and the viewer) can read it.

``messages.daide`` gets every message the server sent the seat, one per line
(``<unix time> <name> in <DAIDE text>``, as :class:`bot.local.record.GameRecorder`
writes them), and ``summary.json`` the settings a review needs: the game's last
year, if the seat was told it.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import IO

from bot.coach.recorded_game import SUMMARY_FILE
from bot.toolkit.jsonfiles import write_json_object
from bot.toolkit.messagelog import MESSAGES_FILE


class SeatRecord:
    """The run folder ``folder`` of the seat named ``name``: opened (created) at once."""

    def __init__(self, folder: Path, name: str, final_year: int | None) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.folder = folder
        self.name = name
        write_json_object(folder / SUMMARY_FILE, {"settings": {"final_year": final_year}})
        self._file: IO[str] | None = open(folder / MESSAGES_FILE, "a", encoding="utf-8")  # noqa: SIM115

    def heard(self, text: str) -> None:
        """One message the server sent the seat."""
        if self._file is not None:
            self._file.write(f"{time.time():.3f} {self.name} in {text}\n")
            self._file.flush()

    def close(self) -> None:
        """Close the record (later messages are not written)."""
        if self._file is not None:
            self._file.close()
            self._file = None
