"""Where the tests read the compiled modules' sources (``.pyx``, ``.pxd``, headers).

In a checkout, beside the tests; when the tests run from a copy against the installed
package (``make pythons``), in the checkout :data:`SOURCES_ENV` names: an installed
package holds its built modules, not all of their sources.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from adjudicator import compiled_sources

SOURCES_ENV = "DAIDE_MCTS_SOURCES"
"""The checkout an installed package was built from, when the tests run from a copy
(``make pythons`` sets it): the sources its builds' hashes are checked against."""

TESTS_ROOT = Path(__file__).resolve().parents[1]
"""The folder holding ``tests/``: the checkout, or the copy ``make pythons`` runs."""


def sources_root(name: str) -> Path:
    """The root of the sources compiled module ``name`` was built from: :data:`SOURCES_ENV`
    when set, else the checkout beside the tests (a test fails when neither holds them)."""
    given = os.environ.get(SOURCES_ENV)
    for root in (*([Path(given)] if given else []), TESTS_ROOT):
        if (root / compiled_sources.source(name)).is_file():
            return root
    pytest.fail(f"no sources of {name} beside the tests: set {SOURCES_ENV} to its checkout")


def source_text(name: str) -> str:
    """The text of compiled module ``name``'s source (its ``.pyx``, or ``.py`` in pure mode)."""
    return (sources_root(name) / compiled_sources.source(name)).read_text()
