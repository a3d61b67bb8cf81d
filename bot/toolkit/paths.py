"""Where the project keeps what it installs and writes on this machine."""

from __future__ import annotations

import os
import time
from pathlib import Path

_REPO_ROOT = Path(__file__).resolve().parent.parent.parent

STAMP = "%Y%m%d-%H%M%S"
"""How a run's folder names the local time it was made (``20261207-143200``)."""


def local_dir() -> Path:
    """The project-local, git-ignored folder for installed peers (Parlance, ...).

    ``DAIDE_MCTS_LOCAL`` overrides it; in a source checkout it is ``.local`` at
    the repository root; otherwise a per-user cache folder.
    """
    override = os.environ.get("DAIDE_MCTS_LOCAL")
    if override:
        return Path(override).expanduser().resolve()
    if (_REPO_ROOT / "pyproject.toml").is_file():
        return _REPO_ROOT / ".local"
    return Path.home() / ".cache" / "daide-mcts"


def dated_folder(runs: Path, prefix: str) -> Path:
    """A new ``prefix-<date>-<time>`` folder's path under ``runs`` (not created).

    A second one in the same second gets ``-2``, then ``-3``...
    """
    stamp = time.strftime(STAMP)
    path = runs / f"{prefix}-{stamp}"
    k = 1
    while path.exists():
        k += 1
        path = runs / f"{prefix}-{stamp}-{k}"
    return path
