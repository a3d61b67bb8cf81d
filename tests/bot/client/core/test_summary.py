"""The game's summary: each note counted once, in its own field, and nothing else moved."""

from __future__ import annotations

import json

import pytest

from bot.client.core import notes
from bot.client.core.summary import GameSummary, SummaryListener
from protocol.values import Hold, Location, Season, Turn, Unit, UnitType

SPRING = Turn(Season.SPRING, 1901)
ARMY = Unit("FRA", UnitType.ARMY, Location("PAR"))


def summary_after(*heard: notes.Note) -> GameSummary:
    listener = SummaryListener()
    for note in heard:
        listener(note)
    return listener.summary


def changed(summary: GameSummary) -> dict[str, object]:
    """The fields that differ from a fresh summary's."""
    fresh = GameSummary().as_dict()
    return {k: v for k, v in summary.as_dict().items() if fresh[k] != v}


@pytest.mark.parametrize(
    ("heard", "fields"),
    [
        (
            [notes.Joined("FRA", 1234, "STANDARD", 60, 30, 30)],
            {"power": "FRA", "passcode": 1234},
        ),
        (
            [
                notes.OrdersSubmitted(SPRING, (), 2.5),
                notes.OrdersSubmitted(SPRING, (), None),
                notes.OrdersSubmitted(SPRING, (), 0.5),
            ],
            {"submissions": 3, "margins": [2.5, 0.5]},
        ),
        (
            [
                notes.PhaseEnded(SPRING, 1.5),
                notes.PhaseEnded(SPRING, None),
                notes.PhaseEnded(SPRING, 9.0, restated=True),
                notes.PhaseEnded(SPRING, 0.25),
            ],
            {"phase_margins": [1.5, 0.25]},
        ),
        ([notes.PhasePlayed(SPRING), notes.PhasePlayed(SPRING)], {"phases_played": 2}),
        ([notes.OrderRefused(Hold(ARMY), "FAR")] * 3, {"refused_orders": 3}),
        (
            [
                notes.CivilDisorder("FRA", SPRING, ours=True),
                notes.CivilDisorder("FRA", SPRING, ours=True),
                notes.CivilDisorder("FRA", None, ours=True),
                notes.CivilDisorder("ENG", SPRING, ours=False),
            ],
            {"missed_deadlines": 2},
        ),
        (
            [notes.ShadowTotals(1, 2, 3), notes.ShadowTotals(7, 5, 4)],
            {"shadow_checked": 7, "shadow_mismatches": 5, "shadow_skipped": 4},
        ),
        ([notes.Reconnecting(), notes.Reconnecting()], {"reconnections": 2}),
        (
            [
                notes.BadMessage("bad", "XYZ"),
                notes.NotUnderstood("HUH"),
                notes.NotUnderstood("PRN"),
            ],
            {"bad_messages": 3},
        ),
        (
            [
                notes.MessageIgnored("stale", "NOW", "NOW"),
                notes.HandlerError("boom", "ORD", "ORD"),
                notes.MessageIgnored("stale", "NOW", "NOW"),
            ],
            {"ignored_messages": 3, "ignored_by_kind": {"NOW": 2, "ORD": 1}},
        ),
        (
            [
                notes.ConnectionDropped("EM", 1.0, rejoin=True, violation=True),
                notes.ConnectionDropped("EM", 1.0, rejoin=True, violation=True),
                notes.ConnectionDropped("closed", 1.0, rejoin=True),
            ],
            {"wire_errors": 2},
        ),
        ([notes.HeldBack("not joined")] * 2, {"held_back": 2}),
        (
            [
                notes.SearchStarted(SPRING, 1, 5.0),
                notes.SearchStarted(SPRING, 2, 5.0),
                notes.SearchStarted(SPRING, 3, 5.0),
                notes.SearchUnavailable(SPRING, 3, "no worker"),
            ],
            {"searched_phases": 2},
        ),
        (
            [
                notes.FinalAnswer(SPRING, 1, True, None),
                notes.FinalAnswer(SPRING, 2, False, 4),
                notes.FinalAnswer(SPRING, 3, True, None),
                notes.FinalAnswer(SPRING, 4, True, None),
            ],
            {"final_answers": 3, "stale_helper_answers": 4},
        ),
        ([notes.StaleSearchMessage(3)] * 2, {"stale_worker_messages": 2}),
        ([notes.GameResult("SLO FRA")], {"result": "SLO FRA"}),
        (
            [notes.ScoresReceived("SMR 1", 9), notes.ScoresReceived("SMR 2", None)],
            {"smr": "SMR 2", "centres": 9},
        ),
        ([notes.GameEnded()], {"ended_cleanly": True}),
        ([notes.Stopping("SIGTERM")], {"stopped_by": "SIGTERM"}),
        (
            [
                notes.ResourceTotals(
                    {"cpu_seconds": 1.5, "peak_rss_kb": 2048}, {"1901": 4096, "1902": 5000}
                )
            ],
            {
                "cpu_seconds": 1.5,
                "peak_rss_kb": 2048,
                "yearly_peak_kb": {"1901": 4096, "1902": 5000},
            },
        ),
        ([notes.PressIn("ENG", "PRP (PCE (ENG FRA))"), notes.GameFinished({})], {}),
    ],
    ids=lambda v: type(v[0]).__name__ if isinstance(v, list) and v else None,
)
def test_each_note_moves_its_own_fields_only(
    heard: list[notes.Note], fields: dict[str, object]
) -> None:
    assert changed(summary_after(*heard)) == fields


def test_the_summary_given_is_the_one_kept() -> None:
    kept = GameSummary(phases_played=4)
    listener = SummaryListener(kept)
    listener(notes.PhasePlayed(SPRING))
    assert listener.summary is kept
    assert kept.phases_played == 5
    assert SummaryListener().summary == GameSummary()


def test_the_dictionary_is_json_and_a_copy() -> None:
    summary = summary_after(
        notes.OrdersSubmitted(SPRING, (), 2.5),
        notes.MessageIgnored("stale", "NOW", "NOW"),
        notes.ResourceTotals({"cpu_seconds": 1.0}, {"1901": 10}),
    )
    data = summary.as_dict()
    assert json.loads(json.dumps(data)) == data
    assert set(data) == set(GameSummary.__dataclass_fields__)
    data["margins"].append(9.0)
    data["ignored_by_kind"]["ORD"] = 1
    data["yearly_peak_kb"]["1902"] = 1
    assert summary.margins == [2.5]
    assert summary.ignored_by_kind == {"NOW": 1}
    assert summary.yearly_peak_kb == {"1901": 10}
