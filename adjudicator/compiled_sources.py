"""The files each compiled module is built from, and the hash that tells a stale build.

``setup.py`` builds each extension with :func:`digest` of its files (the
``SOURCE_SHA256`` define, the module's ``SOURCE_HASH``) and
:func:`adjudicator.compiled_rules.is_current` compares it with the files as they
are now: a changed ``.pyx``, or a changed ``.pxd`` it is built with, marks the
build stale.  Standard library only: ``setup.py`` loads this file by its path,
before the package can be imported.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from pathlib import Path

DECLARATIONS: dict[str, tuple[str, ...]] = {
    "adjudicator._fastmove": ("adjudicator/_fastmove.pxd",),
    "adjudicator._fastlegal": (),
    "search._fastbot": ("adjudicator/_fastmove.pxd",),
    "search._fasttree": (),
}
"""Each compiled module's ``.pxd`` files (its own, and the ones it cimports), from the root."""


def pyx(name: str) -> str:
    """The ``.pyx`` of the compiled module ``name``, from the root."""
    return name.replace(".", "/") + ".pyx"


def digest(files: Iterable[Path]) -> str:
    """The SHA-256 of the files' bytes, one after another (of the ``.pyx`` alone: its own)."""
    sha = hashlib.sha256()
    for path in files:
        sha.update(path.read_bytes())
    return sha.hexdigest()
