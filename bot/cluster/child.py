"""One game of a cluster tournament, in its own process: ``python -m bot.cluster.child WORKDIR``.

``WORKDIR/config.json`` holds the game (see :func:`bot.cluster.task.config_to_dict`);
the game is played into ``WORKDIR/game`` by the local runner and
``WORKDIR/outcome.json`` says how it went.  SIGTERM stops the game cleanly
(its server and bots included): the node's task sends it when the watchdog
fires, and the kernel sends it when the task's process dies.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import sys
from pathlib import Path
from typing import Any

from bot.cluster.task import CONFIG_FILE, GAME_DIR, OUTCOME_FILE, config_from_dict
from bot.local.record import LiveState
from bot.local.runner import GameError, run_game
from bot.servers.parlance_install import ParlanceUnavailableError, install
from bot.toolkit.jsonfiles import write_json_object
from bot.toolkit.paths import local_dir
from bot.tournament.saved import GameEntry


class NodeLog:
    """The game's view on a node: its notes and phases, one line each, to the child's log."""

    def __init__(self) -> None:
        self._turn: object = None

    def note(self, text: str) -> None:
        """Print it."""
        print(text, flush=True)

    def update(self, state: LiveState) -> None:
        """Print the phase when it changes."""
        if state.turn != self._turn:
            self._turn = state.turn
            print(f"phase {state.turn}", flush=True)

    def close(self, state: LiveState | None) -> None:
        """The game is over."""
        print("game over", flush=True)


def provision_parlance() -> None:
    """Install Parlance on this node once, whichever game comes first (a file lock across games)."""
    folder = local_dir()
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / "parlance-install.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        # Without Python 2.7 the runner falls back to MILA's server, or says why it cannot.
        with contextlib.suppress(ParlanceUnavailableError):
            install()


def play(workdir: Path) -> dict[str, Any]:
    """Play the game of ``workdir``; the outcome as saved in ``outcome.json``."""
    data = json.loads((workdir / CONFIG_FILE).read_text())
    index = int(data["index"])
    config = config_from_dict(data["config"])
    if config.server != "mila":
        provision_parlance()
    try:
        outcome = run_game(config, workdir / GAME_DIR, NodeLog(), index=index)
    except GameError as exc:
        return {"error": str(exc), "problems": [str(exc)]}
    result: dict[str, Any] = {
        "ended_cleanly": outcome.ended_cleanly,
        "problems": list(outcome.problems),
        "entry": None,
    }
    if outcome.record is not None and outcome.ended_cleanly:
        result["entry"] = GameEntry.from_outcome(index, outcome).to_dict()
    return result


def main(argv: list[str]) -> int:
    """Entry point; exit 0 when the outcome was written."""
    workdir = Path(argv[0])
    try:
        outcome = play(workdir)
    except KeyboardInterrupt:
        return 130
    write_json_object(workdir / OUTCOME_FILE, outcome, indent=None)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
