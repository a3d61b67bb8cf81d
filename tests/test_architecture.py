"""The pure cores never touch sockets or the event loop; nothing imports bot."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PURE = ("protocol", "adjudicator", "search")
FORBIDDEN = {"asyncio", "socket", "selectors", "bot"}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize("package", PURE)
def test_pure_core_has_no_io_imports(package: str) -> None:
    files = sorted((ROOT / package).rglob("*.py"))
    assert files, f"{package}/ has no modules"
    offenders = {
        str(f.relative_to(ROOT)): sorted(_imports(f) & FORBIDDEN)
        for f in files
        if _imports(f) & FORBIDDEN
    }
    assert offenders == {}


def test_protocol_does_not_depend_on_rules_or_search() -> None:
    for f in (ROOT / "protocol").rglob("*.py"):
        assert not _imports(f) & {"adjudicator", "search"}, f


def test_adjudicator_does_not_depend_on_search() -> None:
    for f in (ROOT / "adjudicator").rglob("*.py"):
        assert "search" not in _imports(f), f
