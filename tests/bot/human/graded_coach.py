"""A seat's coach that heard a recorded game and graded every phase (tiny settings)."""

from __future__ import annotations

import threading
from pathlib import Path

from bot.human.coaching import SeatCoach
from bot.toolkit.messagelog import MESSAGES_FILE, received_texts
from search.grading import GradingSettings

TINY = GradingSettings(rollouts=8, iterations=40)
"""Grading settings small enough for a test: a phase graded in well under a second."""
SEED = 3
WAIT = 120.0
"""Seconds to wait for one more grade."""


def coach_hearing(folder: Path, power: str) -> SeatCoach:
    """A coach of ``power`` that heard the whole record in run folder ``folder``, every
    grade back."""
    coach = SeatCoach(lambda: power, None, SEED, TINY)
    heard = threading.Event()
    coach.listeners.append(heard.set)
    for text in received_texts(folder / MESSAGES_FILE):
        coach.heard(text)
    while coach.view().pending:
        heard.wait(WAIT)
        heard.clear()
    return coach
