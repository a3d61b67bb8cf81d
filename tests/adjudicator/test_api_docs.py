"""The documented adjudicator API examples run and print what the documents say.

Runs the doctests of the README's "Adjudicator API" section and of
:mod:`adjudicator.daide`'s docstring, so the documentation stays true.
"""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import adjudicator.daide

README = Path(__file__).resolve().parents[2] / "README.md"


def _section(text: str, title: str) -> str:
    match = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", text, re.M | re.S)
    assert match, f"README has no '## {title}' section"
    return match.group(1)


def _run(text: str, name: str) -> doctest.TestResults:
    parser = doctest.DocTestParser()
    test = parser.get_doctest(text, {}, name, str(README), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    return runner.summarize(verbose=False)


def test_readme_adjudicator_api_examples() -> None:
    section = _section(README.read_text(encoding="utf-8"), "Adjudicator API")
    results = _run(section, "README Adjudicator API")
    assert results.attempted >= 8, "the section's examples went missing"
    assert results.failed == 0


def test_entry_point_docstring_examples() -> None:
    results = doctest.testmod(adjudicator.daide, optionflags=doctest.ELLIPSIS)
    assert results.attempted >= 4
    assert results.failed == 0
