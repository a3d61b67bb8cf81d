"""The compiled fast paths, and the one switch back to pure Python.

The hot paths have compiled twins (Cython), built by ``pip install -e .``
(``make setup``) with Cython from PyPI and the C compiler:

* ``adjudicator/_fastmove.pyx`` — :func:`adjudicator.movement.next_position`
  and :func:`adjudicator.movement.adjudicate_movement`, convoys included
  (every rollout's adjudication, and the server's), on its rooms
  ``adjudicator/_movetables.pyx`` (the map's tables), ``adjudicator/_resolver.pyx``
  (the decisions), ``adjudicator/_moveorders.pyx`` (the orders read in and matched,
  convoy routes) and ``adjudicator/_phaserules.pxd`` (a phase's rules, which the
  search's compiled rollouts call too: inline, no module of its own);
* ``adjudicator/_fastlegal.pyx`` — :func:`adjudicator.legal.movement_orders`
  (every legal order of a unit, convoys included);
* ``adjudicator/per_map.py`` — the one per-map cache every compiled room and
  :func:`search.tables.tables_for` keep their tables and scratch space in, compiled from
  the same ``.py`` that runs where it is not built (Cython's pure Python mode, its C
  declared in ``adjudicator/per_map.pxd``): not an oracle, plain Python imports whichever
  there is;
* ``search/_fastbot.pyx`` — DumbBot's and the learned policy's movement orders, and the
  whole ``dm`` rollout and tree step (see :mod:`search.compiled_search`), on its rooms
  ``search/_maptables.pyx`` (the map's tables and DumbBot's weights),
  ``search/_draws.pyx`` (the random generator), ``search/_valuation.pyx``
  (DumbBot's valuation), ``search/_dumbbot.pyx`` (DumbBot's choice),
  ``search/_policy.pyx`` (the learned policy) and ``search/_rollout.pyx`` (the
  rollout's phases);
* ``search/_fasttree.pyx`` — the ``dm`` search tree's iterations (see
  :mod:`search.mcts.compiled_tree`).

Each gives exactly what its pure-Python original gives (for DumbBot: the same
orders for the same random generator state, drawing the same numbers); the
originals are the oracles the tests hold them to, and the fallback:

* without the extensions (no C compiler at install time) pure Python runs,
  and so it does, with a warning, when an extension is older than its source;
* ``DAIDE_MCTS_PURE_PYTHON=1`` in the environment makes a process run pure
  Python;
* :func:`use_compiled` and :func:`pure_python` switch in-process (tests,
  benchmarks).
"""

from __future__ import annotations

import importlib
import os
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any

from adjudicator import compiled_sources

ENV_PURE_PYTHON = "DAIDE_MCTS_PURE_PYTHON"
"""Environment variable: set to 1 to run pure Python even where compiled code exists."""

EXTENSIONS = (
    "adjudicator.per_map",
    "adjudicator._movetables",
    "adjudicator._resolver",
    "adjudicator._moveorders",
    "adjudicator._fastmove",
    "adjudicator._fastlegal",
    "search._maptables",
    "search._draws",
    "search._valuation",
    "search._dumbbot",
    "search._policy",
    "search._rollout",
    "search._fastbot",
    "search._fasttree",
)
"""The compiled modules, by import name (each cimports only modules listed before it)."""


class StaleExtensionWarning(UserWarning):
    """A compiled module was built from an older version of its source (it is not used)."""


class NotCompiledWarning(UserWarning):
    """A compiled module was not built (no C compiler at install time): pure Python runs."""


_told_not_compiled = False


def source_of(module: ModuleType) -> Path:
    """The source beside a compiled module (a ``.pyx`` is absent from a non-editable install).

    Its ``.pyx``, or its ``.py`` (see :data:`adjudicator.compiled_sources.PURE_MODE`).
    """
    assert module.__file__ is not None
    source = Path(compiled_sources.source(module.__name__))
    return Path(module.__file__).with_name(source.name)


def built_from(module: ModuleType) -> list[Path]:
    """The files ``module`` is built from: its source, then its ``.pxd`` files and C headers.

    See :mod:`adjudicator.compiled_sources`.
    """
    assert module.__file__ is not None
    root = Path(module.__file__).parents[module.__name__.count(".")]
    name = module.__name__
    built_with = compiled_sources.built_with(name) if name in compiled_sources.DECLARATIONS else []
    return [source_of(module), *(root / path for path in built_with)]


def is_current(module: ModuleType) -> bool:
    """Whether ``module`` was built from its files as they are now.

    True if some are absent: an installed wheel ships no source to compare.
    """
    files = built_from(module)
    if not all(path.exists() for path in files):
        return True
    built_hash: str = module.SOURCE_HASH
    return compiled_sources.digest(files) == built_hash


def load(name: str) -> ModuleType | None:
    """The compiled module ``name`` (one of :data:`EXTENSIONS`), or None.

    None when it was not built (a :class:`NotCompiledWarning`, once per
    process, unless pure Python was asked for), or (with a
    :class:`StaleExtensionWarning`) when it, or a compiled module it cimports
    (:func:`cimported`), was built from an older source or is missing, or its C types
    are no longer theirs: pure Python runs then.
    """
    global _told_not_compiled
    try:
        module = import_build(name)
    except ImportError:
        if not _told_not_compiled and _enabled:
            _told_not_compiled = True
            warnings.warn(
                f"{name} is not built (no C compiler when it was installed?): running pure "
                "Python, several times slower; make setup builds it",
                NotCompiledWarning,
                stacklevel=2,
            )
        return None
    except (TypeError, ValueError) as exc:  # Cython's check of the C types it cimports
        warnings.warn(
            f"{name} was built against other compiled modules than there are ({exc}): "
            "running pure Python until it is rebuilt (make setup)",
            StaleExtensionWarning,
            stacklevel=2,
        )
        return None
    rooms = []
    for room in cimported(name):
        try:
            rooms.append(import_build(room))
        except ImportError:
            warnings.warn(
                f"{name} is built but {room}, which it needs, is not (sources newer than the "
                "build?): running pure Python until it is rebuilt (make setup)",
                StaleExtensionWarning,
                stacklevel=2,
            )
            return None
    for built in (module, *rooms):
        if not is_current(built):
            warnings.warn(
                f"{built.__name__} was built from older sources than "
                f"{', '.join(path.name for path in built_from(built))}; running pure Python "
                "until it is rebuilt (make setup)",
                StaleExtensionWarning,
                stacklevel=2,
            )
            return None
    return module


def import_build(name: str) -> ModuleType:
    """The compiled module ``name``; ImportError if it is not built.

    A module of :data:`adjudicator.compiled_sources.PURE_MODE` not built imports as Python,
    without a ``SOURCE_HASH``.
    """
    module = importlib.import_module(name)
    if getattr(module, "SOURCE_HASH", None) is None:
        raise ImportError(f"{name} is not built: its source runs as Python")
    return module


def cimported(name: str) -> list[str]:
    """The project's compiled modules ``name`` cimports: the compiled code it runs.

    Their ``.pxd`` files are among its own (see :mod:`adjudicator.compiled_sources`);
    :func:`load` takes ``name`` only when they are current too.
    """
    own = name.replace(".", "/") + ".pxd"
    return [
        path.removesuffix(".pxd").replace("/", ".")
        for path in compiled_sources.DECLARATIONS.get(name, ())
        if path != own and path.removesuffix(".pxd").replace("/", ".") in EXTENSIONS
    ]


_enabled = os.environ.get(ENV_PURE_PYTHON, "") in ("", "0")

MOVEMENT: ModuleType | None = load("adjudicator._fastmove")
"""The compiled movement resolver, or None."""

LEGAL: ModuleType | None = load("adjudicator._fastlegal")
"""The compiled legal order generator, or None."""

legal_generator: ModuleType | None = LEGAL if _enabled else None
"""The compiled legal generator while compiled code runs, else None (one read per
:func:`adjudicator.legal.movement_orders` call, its hot caller)."""

generation = 0
"""Counts the switches (:func:`use_compiled`): a caller that memoises its choice of path
compares it with the count it saw."""


def enabled() -> bool:
    """Whether compiled code runs where it exists (not switched off)."""
    return _enabled


def use_compiled(flag: bool) -> None:
    """Run the compiled code where it exists or, with False, pure Python everywhere."""
    global _enabled, generation, legal_generator
    _enabled = flag
    legal_generator = LEGAL if flag else None
    generation += 1


@contextmanager
def pure_python() -> Iterator[None]:
    """Run pure Python inside the ``with`` block."""
    saved = _enabled
    use_compiled(False)
    try:
        yield
    finally:
        use_compiled(saved)


def fast_movement() -> ModuleType | None:
    """The compiled movement resolver if it exists and compiled code is switched on."""
    return MOVEMENT if _enabled else None


def fast_legal(game_map: object) -> Any:
    """The compiled legal order tables of ``game_map`` if compiled code runs, else None.

    Built once per map (maps are immutable; the compiled module keeps them in a
    :class:`~adjudicator.per_map.PerMap`, of up to ``MAPS_KEPT`` maps).
    """
    return None if legal_generator is None else legal_generator.tables(game_map)
