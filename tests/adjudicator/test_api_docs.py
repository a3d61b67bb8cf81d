"""The documented adjudicator API examples run and print what the documents say.

Runs the doctests of the adjudicator API guide (docs/adjudicator-api.md) and of
:mod:`adjudicator.daide`'s docstring, so the documentation stays true.
"""

from __future__ import annotations

import doctest
from pathlib import Path

import adjudicator.daide

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "adjudicator-api.md"


def _run(text: str, name: str) -> doctest.TestResults:
    parser = doctest.DocTestParser()
    test = parser.get_doctest(text, {}, name, str(GUIDE), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    return runner.summarize(verbose=False)


def test_the_guides_examples() -> None:
    results = _run(GUIDE.read_text(encoding="utf-8"), "docs/adjudicator-api.md")
    assert results.attempted >= 8, "the guide's examples went missing"
    assert results.failed == 0


def test_entry_point_docstring_examples() -> None:
    results = doctest.testmod(adjudicator.daide, optionflags=doctest.ELLIPSIS)
    assert results.attempted >= 4
    assert results.failed == 0
