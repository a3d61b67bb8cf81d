"""No module on a game's path reaches for the standard map or token table (issue 47).

A game's map and token table come from its server (``MAP``, ``MDF``, ``RM``). The
protocol's functions take the table as an argument and, for the convenience of
tests and of tools that only ever handle the standard map, default it to the
standard one; a module that handles a game must always pass the game's own. This
test reads every such module's syntax tree and fails on

* a name of the standard map or table (``STANDARD``, ``standard_map`` ...);
* a call of a protocol function that takes a table, without one;
* ``.to_text()`` or ``.to_tokens()`` of a message without a table.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
from pathlib import Path

import pytest

import protocol
from protocol.tokens import STANDARD

ROOT = Path(__file__).resolve().parent.parent

GAME_PATH = (
    "bot/client",
    "bot/human",
    "bot/local",
    "bot/tournament",
    "bot/view/server.py",
    "bot/view/sources.py",
    "bot/view/timeline.py",
    "bot/commands/play.py",
    "bot/commands/game.py",
    "bot/commands/human.py",
    "bot/commands/view.py",
    "bot/commands/tournament.py",
    "bot/toolkit",
    "search",
    "adjudicator",
)
"""Folders and modules that handle a game served on any map."""

EXEMPT = {
    "adjudicator/maps.py": "defines the standard map",
    "adjudicator/standard.py": "reads the standard map's MDF",
    "adjudicator/daide.py": "the text adjudicator's map when its caller names none",
}
"""Modules on a game's path that may name the standard map, and why."""

STANDARD_NAMES = frozenset(
    {
        "STANDARD",
        "STANDARD_ENTRIES",
        "STANDARD_POWERS",
        "STANDARD_PROVINCES",
        "STANDARD_MDF_PATH",
        "MDF_PATH",
        "standard_map",
        "standard_mdf",
        "standard_map_definition",
    }
)
"""The names by which a module reaches the standard map or token table."""

TABLE_METHODS = frozenset({"to_text", "to_tokens"})
"""Message methods that take a token table."""


def _table_functions() -> dict[str, int]:
    """Every protocol function whose ``table`` defaults to the standard one: name -> its index."""
    found: dict[str, int] = {}
    for info in pkgutil.iter_modules(protocol.__path__, "protocol."):
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            if not inspect.isfunction(value) or value.__module__ != module.__name__:
                continue
            parameters = list(inspect.signature(value).parameters.values())
            for index, parameter in enumerate(parameters):
                if parameter.name == "table" and parameter.default is STANDARD:
                    found[name] = index
    return found


TABLE_FUNCTIONS = _table_functions()


def _files() -> list[Path]:
    files: list[Path] = []
    for place in GAME_PATH:
        path = ROOT / place
        files.extend(sorted(path.rglob("*.py")) if path.is_dir() else [path])
    return [f for f in files if str(f.relative_to(ROOT)) not in EXEMPT]


def _protocol_imports(tree: ast.AST) -> set[str]:
    """The local names a module imports from the protocol package."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("protocol"):
            names.update(alias.asname or alias.name for alias in node.names)
    return names


def _has_table(call: ast.Call, index: int) -> bool:
    if any(k.arg == "table" or k.arg is None for k in call.keywords):
        return True
    return len(call.args) > index or any(isinstance(a, ast.Starred) for a in call.args)


def offences(source: str) -> list[str]:
    """Where ``source`` reaches for the standard map or table, one line each."""
    tree = ast.parse(source)
    imported = _protocol_imports(tree)
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            for alias in node.names:
                if alias.name in STANDARD_NAMES:
                    found.append(f"line {node.lineno}: imports {alias.name}")
        elif isinstance(node, ast.Attribute) and node.attr in STANDARD_NAMES:
            found.append(f"line {node.lineno}: uses {node.attr}")
        elif isinstance(node, ast.Name) and node.id in STANDARD_NAMES:
            found.append(f"line {node.lineno}: names {node.id}")
        elif isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Name) and func.id in imported and func.id in TABLE_FUNCTIONS:
                if not _has_table(node, TABLE_FUNCTIONS[func.id]):
                    found.append(f"line {node.lineno}: {func.id}() without the game's table")
            elif (
                isinstance(func, ast.Attribute)
                and func.attr in TABLE_METHODS
                and not node.args
                and not node.keywords
            ):
                found.append(f"line {node.lineno}: .{func.attr}() without the game's table")
    return found


def test_the_protocol_functions_that_take_a_table_are_found() -> None:
    for name in ("format_order", "parse_text", "encode_message", "format_tokens", "parse_message"):
        assert name in TABLE_FUNCTIONS


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("from protocol.tokens import STANDARD\n", ["line 1: imports STANDARD"]),
        ("STANDARD_POWERS = ('AUS', 'ENG')\n", ["line 1: names STANDARD_POWERS"]),
        ("from adjudicator.maps import standard_map\n", ["line 1: imports standard_map"]),
        ("import protocol.tokens\nprotocol.tokens.STANDARD\n", ["line 2: uses STANDARD"]),
        (
            "from protocol.notation import format_order\nformat_order(o)\n",
            ["line 2: format_order() without the game's table"],
        ),
        ("from protocol.notation import format_order\nformat_order(o, t)\n", []),
        ("from protocol.notation import format_order\nformat_order(o, table=t)\n", []),
        ("def format_order(o): ...\nformat_order(o)\n", []),
        ("m.to_text()\n", ["line 1: .to_text() without the game's table"]),
        ("m.to_text(table)\nm.to_tokens(t)\n", []),
    ],
)
def test_the_scan_finds_each_kind_of_offence(source: str, expected: list[str]) -> None:
    assert offences(source) == expected


@pytest.mark.parametrize("path", _files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_standard_map_on_a_game_path(path: Path) -> None:
    assert offences(path.read_text()) == []
