"""The compiled movement resolver's rooms: ``adjudicator._movetables`` (the map's tables),
``adjudicator._resolver`` (the decisions), ``adjudicator._moveorders`` (the orders read in
and matched, convoy routes), and ``adjudicator._fastmove`` on them (cimported through their
``.pxd`` files); ``adjudicator/_phaserules.pxd``, a phase's rules the compiled search calls too.

Each room small enough to read, the C-level interfaces between them, each phase rule naming
its Python twin (what they are held to: tests/adjudicator/test_speedups.py through the
compiled movement, tests/search/test_compiled_phase_rules.py through the search), and a
stale room keeping the compiled resolver from running.
"""

from __future__ import annotations

import importlib
import re
from functools import reduce
from types import ModuleType

import pytest

from adjudicator import compiled_rules as switch
from adjudicator import compiled_sources
from tests.sources import source_text, sources_root

ROOMS = ("adjudicator._movetables", "adjudicator._resolver", "adjudicator._moveorders")
ROOM_LINES = 700
"""A room's ``.pyx`` stays under this many lines."""
PHASE_RULES = "adjudicator/_phaserules.pxd"
RULES_CALLERS = ("adjudicator._fastmove", "search._rollout", "search._fasttree")
"""The compiled modules that apply a phase's rules: each calls those of :data:`PHASE_RULES`
(inline: compiled into each, hashed with each)."""
RULE = re.compile(r'^cdef inline \w+ (\w+)\(.*?\)[^:]*:\n    """(.*?)"""', re.MULTILINE | re.DOTALL)
"""An inline function of :data:`PHASE_RULES`: its name and docstring."""
TWIN = re.compile(r"\badjudicator\.[a-z]\w*\.[\w.]+\w")
"""A Python twin's dotted name, as a rule's docstring gives it (a module of Python's: not
one of the compiled ``adjudicator._*`` rooms)."""


@pytest.mark.parametrize("name", [*ROOMS, "adjudicator._fastmove"])
def test_each_room_is_small(name: str) -> None:
    lines = source_text(name).count("\n")
    assert lines < ROOM_LINES, f"{name}: {lines} lines"


def test_the_compiled_resolver_cimports_its_rooms() -> None:
    assert set(switch.cimported("adjudicator._fastmove")) == {*ROOMS, "adjudicator.per_map"}
    assert switch.cimported("adjudicator._moveorders") == [
        "adjudicator._movetables",
        "adjudicator._resolver",
    ]
    assert switch.cimported("adjudicator._resolver") == ["adjudicator._movetables"]
    assert switch.cimported("adjudicator._movetables") == []


@pytest.mark.parametrize("name", RULES_CALLERS)
def test_the_phase_rules_are_written_once_for_the_adjudicator_and_the_rollouts(name: str) -> None:
    text = source_text(name)
    assert "from adjudicator._phaserules cimport" in text
    assert PHASE_RULES in compiled_sources.DECLARATIONS[name]
    assert "adjudicator._phaserules" not in switch.EXTENSIONS  # no module of its own


def _resolve(dotted: str) -> object:
    """The object ``adjudicator.module.name[.attribute]`` names."""
    module, name, *rest = dotted.split(".")[1:]
    found = importlib.import_module(f"adjudicator.{module}")
    return reduce(getattr, [name, *rest], found)


def test_each_phase_rule_names_its_python_twin() -> None:
    rules = RULE.findall((sources_root("adjudicator._fastmove") / PHASE_RULES).read_text())
    assert {name for name, _ in rules} >= {"solo_winner", "bounce_retreats", "take_centres"}
    for name, doc in rules:
        twins = TWIN.findall(doc)
        assert twins, f"{name} names no Python twin"
        for twin in twins:
            assert callable(_resolve(twin)), (name, twin)


def test_the_rooms_are_built_before_their_users() -> None:
    order = list(compiled_sources.DECLARATIONS)
    for name in order:
        for room in switch.cimported(name):
            assert order.index(room) < order.index(name), (room, name)


@pytest.mark.parametrize("stale", ROOMS)
def test_a_stale_room_keeps_the_compiled_resolver_from_running(
    compiled: None, monkeypatch: pytest.MonkeyPatch, stale: str
) -> None:
    def current(module: ModuleType) -> bool:
        return module.__name__ != stale

    monkeypatch.setattr(switch, "is_current", current)
    with pytest.warns(switch.StaleExtensionWarning, match=re.escape(stale)):
        assert switch.load("adjudicator._fastmove") is None
    assert switch.load("adjudicator._fastlegal") is not None  # it cimports the cache alone


def test_a_missing_room_keeps_the_compiled_resolver_from_running(
    compiled: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A build older than the sources' rooms (a pull without make setup) runs pure Python."""
    missing = "adjudicator._no_such_room"
    monkeypatch.setattr(switch, "cimported", lambda name: [missing])
    with pytest.warns(switch.StaleExtensionWarning, match=re.escape(missing)):
        assert switch.load("adjudicator._fastmove") is None
