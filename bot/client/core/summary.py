"""The game's summary, kept by a listener on the stream of notes."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.client.core import notes


@dataclass
class GameSummary:
    """How a game went for the bot: what the tests and the game runner check.

    ``margins`` holds the deadline margin (seconds) of every submission and
    ``phase_margins`` that of the last submission of each phase; a margin is
    measured against the bot's own estimate of the deadline.
    ``searched_phases`` counts movement phases with a search job and
    ``final_answers`` those whose final search answer was submitted.
    ``bad_messages`` counts messages that did not parse or that the server
    did not understand (HUH/PRN); ``ignored_messages`` those that parsed but
    did not fit the game (a stale NOW, an ORD for a unit that does not exist,
    a THX for an order we never sent), and ``ignored_by_kind`` counts them by
    message (``{"NOW": 2, "REJ": 1}``); ``wire_errors`` the protocol
    violations by the server (answered with EM, then a reconnection);
    ``held_back`` game actions not sent because the session had not joined;
    ``stale_worker_messages`` and ``stale_helper_answers`` search messages
    dropped because they belonged to an earlier job.
    CPU seconds and peak resident memory cover the client process and its
    search worker separately; ``yearly_peak_kb`` maps each game year to the
    peak of both processes together during that year.  ``stopped_by`` names
    the signal that ended the bot before the game did.
    """

    power: str | None = None
    passcode: int | None = None
    result: str | None = None
    centres: int | None = None
    phases_played: int = 0
    submissions: int = 0
    refused_orders: int = 0
    missed_deadlines: int = 0
    shadow_checked: int = 0
    shadow_mismatches: int = 0
    shadow_skipped: int = 0
    reconnections: int = 0
    bad_messages: int = 0
    ignored_messages: int = 0
    ignored_by_kind: dict[str, int] = field(default_factory=dict)
    wire_errors: int = 0
    held_back: int = 0
    searched_phases: int = 0
    final_answers: int = 0
    stale_worker_messages: int = 0
    stale_helper_answers: int = 0
    margins: list[float] = field(default_factory=list)
    phase_margins: list[float] = field(default_factory=list)
    smr: str | None = None
    ended_cleanly: bool = False
    stopped_by: str | None = None
    wall_seconds: float = 0.0
    cpu_seconds: float = 0.0
    worker_cpu_seconds: float = 0.0
    peak_rss_kb: int = 0
    worker_peak_rss_kb: int = 0
    yearly_peak_kb: dict[str, int] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready dictionary."""
        return {
            k: dict(v) if isinstance(v, dict) else list(v) if isinstance(v, list) else v
            for k, v in self.__dict__.items()
        }


class SummaryListener:
    """Keeps a :class:`GameSummary` from the notes (the only place that edits it)."""

    def __init__(self, summary: GameSummary | None = None) -> None:
        self.summary = summary or GameSummary()

    def __call__(self, note: notes.Note) -> None:
        """Take one note into the summary."""
        # Stays whole: one case per note, so that each fact maps to the summary once.
        s = self.summary
        match note:
            case notes.Joined(power=power, passcode=passcode):
                s.power, s.passcode = power, passcode
            case notes.OrdersSubmitted(margin=margin):
                s.submissions += 1
                if margin is not None:
                    s.margins.append(margin)
            case notes.PhaseEnded(last_margin=margin, restated=restated):
                if margin is not None and not restated:
                    s.phase_margins.append(margin)
            case notes.PhasePlayed():
                s.phases_played += 1
            case notes.OrderRefused():
                s.refused_orders += 1
            case notes.CivilDisorder(ours=True, turn=turn) if turn is not None:
                s.missed_deadlines += 1
            case notes.ShadowTotals(checked=checked, mismatches=mismatches, skipped=skipped):
                s.shadow_checked, s.shadow_mismatches, s.shadow_skipped = (
                    checked,
                    mismatches,
                    skipped,
                )
            case notes.Reconnecting():
                s.reconnections += 1
            case notes.BadMessage() | notes.NotUnderstood():
                s.bad_messages += 1
            case notes.MessageIgnored(kind=kind) | notes.HandlerError(kind=kind):
                s.ignored_messages += 1
                s.ignored_by_kind[kind] = s.ignored_by_kind.get(kind, 0) + 1
            case notes.ConnectionDropped(violation=True):
                s.wire_errors += 1
            case notes.HeldBack():
                s.held_back += 1
            case notes.SearchStarted():
                s.searched_phases += 1
            case notes.SearchUnavailable():
                s.searched_phases -= 1  # it never ran
            case notes.FinalAnswer(submitted=submitted, stale_helper_answers=stale):
                s.final_answers += submitted
                if stale is not None:
                    s.stale_helper_answers = stale
            case notes.StaleSearchMessage():
                s.stale_worker_messages += 1
            case notes.GameResult(text=text):
                s.result = text
            case notes.ScoresReceived(text=text, centres=centres):
                s.smr = text
                if centres is not None:
                    s.centres = centres
            case notes.GameEnded():
                s.ended_cleanly = True
            case notes.Stopping(reason=reason):
                s.stopped_by = reason
            case notes.ResourceTotals(totals=totals, yearly_peak_kb=yearly):
                for key, value in totals.items():
                    setattr(s, key, value)
                s.yearly_peak_kb = dict(yearly)
