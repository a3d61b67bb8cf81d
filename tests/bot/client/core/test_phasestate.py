"""The phase's stages: one table of steps (docs/client.md), and nothing outside it."""

from __future__ import annotations

import pytest

from bot.client.core.phasestate import (
    TRANSITIONS,
    PhaseStage,
    PhaseStageError,
    PhaseStep,
    next_stage,
)

S = PhaseStage
E = PhaseStep

ALLOWED = [
    (S.IDLE, E.PLAY, S.CHOOSING),
    (S.IDLE, E.SET_IN, S.STANDING),
    (S.IDLE, E.STOP, S.IDLE),
    (S.IDLE, E.END, S.ENDED),
    (S.CHOOSING, E.FINISH, S.FINAL),
    (S.CHOOSING, E.SET_IN, S.STANDING),
    (S.CHOOSING, E.STOP, S.IDLE),
    (S.CHOOSING, E.END, S.ENDED),
    (S.STANDING, E.SET_IN, S.STANDING),
    (S.STANDING, E.STOP, S.FINAL),
    (S.STANDING, E.END, S.ENDED),
    (S.FINAL, E.SET_IN, S.STANDING),
    (S.FINAL, E.STOP, S.FINAL),
    (S.FINAL, E.END, S.ENDED),
]
"""The table as docs/client.md draws it."""


@pytest.mark.parametrize(("stage", "step", "after"), ALLOWED)
def test_each_allowed_step_leads_where_the_table_says(
    stage: PhaseStage, step: PhaseStep, after: PhaseStage
) -> None:
    assert next_stage(stage, step) is after


FORBIDDEN = [
    (stage, step)
    for stage in PhaseStage
    for step in PhaseStep
    if (stage, step) not in {(a, b) for a, b, _ in ALLOWED}
]


@pytest.mark.parametrize(("stage", "step"), FORBIDDEN)
def test_any_other_step_is_a_bug(stage: PhaseStage, step: PhaseStep) -> None:
    with pytest.raises(PhaseStageError, match=stage.value):
        next_stage(stage, step)


def test_the_table_is_the_documented_one() -> None:
    table = {(a, b): c for a, b, c in ALLOWED}
    assert {(a, b): c for a, row in TRANSITIONS.items() for b, c in row.items()} == table
    assert FORBIDDEN  # a phase cannot be played twice, nor moved once ended
    assert (S.FINAL, E.PLAY) in FORBIDDEN and (S.ENDED, E.END) in FORBIDDEN
