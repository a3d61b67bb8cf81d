"""The hostile-server fuzzer in the test suite: a real Parlance game, mutated, to our real client.

Each case changes one thing in the recorded game (a message dropped,
duplicated, swapped or corrupted; a mutated MDF, NOW, SCO, ORD, HLO, MIS, REJ
or TME; a message from another game) and replays it over loopback to our
client, which must survive, send nothing before the handshake, order every
phase it can play before the deadline, and count what it ignored.  A failure
names the case and the command that runs it again.
"""

from __future__ import annotations

import pytest

from bot.stress.fuzz import Invariant, run_fuzz
from bot.stress.fuzz_mutations import KINDS

FUZZ_CASES = 20 * len(KINDS)
"""Twenty cases of each kind of mutation."""
FUZZ_SEED = 0

pytestmark = pytest.mark.slow


@pytest.mark.timeout(1200)  # about 1.5 minutes on two idle cores; far longer on a busy machine
async def test_every_invariant_holds_on_mutated_game_streams() -> None:
    report = await run_fuzz(range(FUZZ_CASES), FUZZ_SEED, parallel=2)

    failures = ["\n    ".join([result.headline(), *result.problems]) for result in report.failures]
    summary = f"{len(failures)} of {len(report.results)} cases failed:\n" + "\n".join(failures)
    assert not failures, summary + "\n" + report.table()
    total = report.totals()
    assert total.cases == FUZZ_CASES
    # Every invariant was checked, in most cases (a changed map owes no orders).
    assert total.held[Invariant.SURVIVES] == FUZZ_CASES
    assert total.held[Invariant.ORDERS] >= FUZZ_CASES // 2
