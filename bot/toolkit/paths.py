"""Where the project keeps what it installs and writes on this machine."""

from __future__ import annotations

import os
from pathlib import Path

_REPO_ROOT = Path(__file__).resolve().parent.parent.parent


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
