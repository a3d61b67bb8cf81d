"""How many examples a property test (hypothesis) draws: its full count, or fewer under mutation.

``make mutants`` (tests/mutants.py) sets :data:`MUTATION_EXAMPLES_ENV`: each of the
thousands of mutants runs the property tests that reach its function, and at their full
count (hundreds of examples, about fifteen seconds) they would take most of the run. A
mutant the property catches is almost always caught in its first examples; the explicit
``@example`` cases run in full either way.
"""

from __future__ import annotations

import os

MUTATION_EXAMPLES_ENV = "DAIDE_MCTS_MUTATION_EXAMPLES"
"""Set (to a positive count): the most examples a property test draws."""


def examples(full: int) -> int:
    """``full``, or at most the count :data:`MUTATION_EXAMPLES_ENV` gives when it is set."""
    cap = os.environ.get(MUTATION_EXAMPLES_ENV, "")
    if not cap.isdigit() or int(cap) < 1:
        return full
    return min(full, int(cap))
