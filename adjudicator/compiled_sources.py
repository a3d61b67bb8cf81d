"""The files each compiled module is built from, and the hash that tells a stale build.

``setup.py`` builds each extension with :func:`digest` of its files (the
``SOURCE_SHA256`` define, the module's ``SOURCE_HASH``) and
:func:`adjudicator.compiled_rules.is_current` compares it with the files as they
are now: a changed source (a ``.pyx``, or the ``.py`` of a module of :data:`PURE_MODE`),
or a changed ``.pxd`` or C header it is built with, marks the build stale.  Standard
library only: ``setup.py`` loads this file by its path, before the package can be
imported.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from pathlib import Path

DECLARATIONS: dict[str, tuple[str, ...]] = {
    "adjudicator.per_map": ("adjudicator/per_map.pxd",),
    "adjudicator._movetables": ("adjudicator/_movetables.pxd",),
    "adjudicator._resolver": ("adjudicator/_movetables.pxd", "adjudicator/_resolver.pxd"),
    "adjudicator._moveorders": (
        "adjudicator/_moveorders.pxd",
        "adjudicator/_movetables.pxd",
        "adjudicator/_resolver.pxd",
    ),
    "adjudicator._fastmove": (
        "adjudicator/_moveorders.pxd",
        "adjudicator/_movetables.pxd",
        "adjudicator/_phaserules.pxd",
        "adjudicator/_resolver.pxd",
        "adjudicator/per_map.pxd",
    ),
    "adjudicator._fastlegal": ("adjudicator/per_map.pxd",),
    "search._maptables": ("adjudicator/per_map.pxd", "search/_maptables.pxd"),
    "search._draws": ("search/_draws.pxd",),
    "search._valuation": (
        "adjudicator/per_map.pxd",
        "search/_maptables.pxd",
        "search/_valuation.pxd",
    ),
    "search._dumbbot": (
        "search/_draws.pxd",
        "search/_dumbbot.pxd",
        "search/_maptables.pxd",
        "search/_valuation.pxd",
    ),
    "search._policy": (
        "search/_draws.pxd",
        "search/_dumbbot.pxd",
        "search/_maptables.pxd",
        "search/_policy.pxd",
        "search/_valuation.pxd",
    ),
    "search._rollout": (
        "adjudicator/_moveorders.pxd",
        "adjudicator/_movetables.pxd",
        "adjudicator/_phaserules.pxd",
        "adjudicator/_resolver.pxd",
        "adjudicator/per_map.pxd",
        "search/_draws.pxd",
        "search/_dumbbot.pxd",
        "search/_maptables.pxd",
        "search/_policy.pxd",
        "search/_rollout.pxd",
        "search/_valuation.pxd",
    ),
    "search._fastbot": (
        "adjudicator/_moveorders.pxd",
        "adjudicator/_movetables.pxd",
        "adjudicator/_resolver.pxd",
        "adjudicator/per_map.pxd",
        "search/_draws.pxd",
        "search/_dumbbot.pxd",
        "search/_fastbot.pxd",
        "search/_maptables.pxd",
        "search/_policy.pxd",
        "search/_rollout.pxd",
        "search/_valuation.pxd",
    ),
    "search._fasttree": (
        "adjudicator/_phaserules.pxd",
        "search/_fastbot.pxd",
        "search/_maptables.pxd",
        "search/_policy.pxd",
        "search/_rollout.pxd",
    ),
}
"""Each compiled module's ``.pxd`` files (its own, and the ones it cimports), from the root,
in path order.  A module is built after the ones whose ``.pxd`` it cimports (this order).
``adjudicator/_phaserules.pxd`` (a phase's rules, inline functions) has no module of its own:
it is compiled into each of its callers."""

PURE_MODE = frozenset({"adjudicator.per_map"})
"""The compiled modules built from a ``.py`` file (Cython's pure Python mode, their ``.pxd``
declaring the C types): where they are not built, the same file runs as Python."""

HEADERS: dict[str, tuple[str, ...]] = {
    "search._valuation": ("search/db_lanes.h", "search/db_levels.h"),
    "search._dumbbot": ("search/db_lanes.h",),
    "search._policy": ("search/db_lanes.h",),
    "search._rollout": ("search/db_lanes.h",),
    "search._fastbot": ("search/db_lanes.h",),
}
"""The C headers each compiled module includes (through its ``.pyx`` or a ``.pxd`` it
cimports), from the root: hashed with it as its ``.pxd`` files are."""


def built_with(name: str) -> list[str]:
    """The files the compiled module ``name`` is built with besides its source, from the root.

    Its ``.pxd`` files, then its C headers.
    """
    return [*DECLARATIONS[name], *HEADERS.get(name, ())]


def source(name: str) -> str:
    """The source of the compiled module ``name``, from the root.

    Its ``.pyx``, or the ``.py`` of a module of :data:`PURE_MODE`.
    """
    return name.replace(".", "/") + (".py" if name in PURE_MODE else ".pyx")


def digest(files: Iterable[Path]) -> str:
    """The SHA-256 of the files' bytes, one after another (of the source alone: its own)."""
    sha = hashlib.sha256()
    for path in files:
        sha.update(path.read_bytes())
    return sha.hexdigest()
