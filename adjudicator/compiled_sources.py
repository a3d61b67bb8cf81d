"""The files each compiled module is built from, and the hash that tells a stale build.

``setup.py`` builds each extension with :func:`digest` of its files (the
``SOURCE_SHA256`` define, the module's ``SOURCE_HASH``) and
:func:`adjudicator.compiled_rules.is_current` compares it with the files as they
are now: a changed ``.pyx``, or a changed ``.pxd`` or C header it is built with, marks
the build stale.  Standard library only: ``setup.py`` loads this file by its path,
before the package can be imported.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from pathlib import Path

DECLARATIONS: dict[str, tuple[str, ...]] = {
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
        "adjudicator/_resolver.pxd",
    ),
    "adjudicator._fastlegal": (),
    "search._maptables": ("search/_maptables.pxd",),
    "search._draws": ("search/_draws.pxd",),
    "search._valuation": ("search/_maptables.pxd", "search/_valuation.pxd"),
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
        "adjudicator/_resolver.pxd",
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
        "search/_draws.pxd",
        "search/_dumbbot.pxd",
        "search/_fastbot.pxd",
        "search/_maptables.pxd",
        "search/_policy.pxd",
        "search/_rollout.pxd",
        "search/_valuation.pxd",
    ),
    "search._fasttree": (
        "search/_fastbot.pxd",
        "search/_maptables.pxd",
        "search/_policy.pxd",
        "search/_rollout.pxd",
    ),
}
"""Each compiled module's ``.pxd`` files (its own, and the ones it cimports), from the root,
in path order.  A module is built after the ones whose ``.pxd`` it cimports (this order)."""

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
    """The files the compiled module ``name`` is built with besides its ``.pyx``, from the root.

    Its ``.pxd`` files, then its C headers.
    """
    return [*DECLARATIONS[name], *HEADERS.get(name, ())]


def pyx(name: str) -> str:
    """The ``.pyx`` of the compiled module ``name``, from the root."""
    return name.replace(".", "/") + ".pyx"


def digest(files: Iterable[Path]) -> str:
    """The SHA-256 of the files' bytes, one after another (of the ``.pyx`` alone: its own)."""
    sha = hashlib.sha256()
    for path in files:
        sha.update(path.read_bytes())
    return sha.hexdigest()
