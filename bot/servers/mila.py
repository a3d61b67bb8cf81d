"""MILA's ``diplomacy`` server (Python 3) with its DAIDE front end, as a subprocess.

``python -m bot.servers.mila --daide-port P --deadline S`` starts MILA's
server on a private web port, creates one no-press standard game for seven
players, and opens the game's DAIDE server on ``P``.  :class:`MilaServer`
runs that in a subprocess (its own tornado loop and working folder) for the
tests and the local game runner.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, ClassVar

from bot.servers.ports import free_port
from bot.servers.process import ServerProcess

MILA_EXTRA = "mila"
"""The optional extra that installs MILA's ``diplomacy`` package."""


class MilaUnavailableError(RuntimeError):
    """MILA's server cannot be started here; the message says why."""


@dataclass
class MilaServer(ServerProcess):
    """A MILA DAIDE server on loopback for one game; use as a context manager.

    ``deadline`` is the seconds per phase (MILA has one deadline for all
    phase types; 0 means none).
    """

    unavailable: ClassVar[type[Exception]] = MilaUnavailableError
    what: ClassVar[str] = "MILA's DAIDE server"

    deadline: int = 5
    host: str = "127.0.0.1"
    port: int = 0
    players: int = 7
    _proc: subprocess.Popen[bytes] | None = field(default=None, init=False, repr=False)
    _workdir: Path | None = field(default=None, init=False, repr=False)
    _log: IO[bytes] | None = field(default=None, init=False, repr=False)
    log_path: Path | None = None

    def start(self, timeout: float = 60.0) -> MilaServer:
        """Start the server and wait until the game's DAIDE port accepts connections."""
        try:
            import diplomacy  # noqa: F401 - only checking that it is installed
        except ImportError as exc:
            raise MilaUnavailableError(
                f"MILA's DAIDE server needs the {MILA_EXTRA} extra, which is not installed: "
                f"pip install 'daide-mcts[{MILA_EXTRA}]'"
            ) from exc
        workdir = self._prepare("mila-")
        self.log_path = workdir / "server.log"
        argv = [
            sys.executable, "-m", "bot.servers.mila",
            "--daide-port", str(self.port), "--deadline", str(self.deadline),
            "--players", str(self.players),
        ]  # fmt: skip
        env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
        self._spawn(argv, env, self.log_path, timeout)
        return self


def serve(daide_port: int, deadline: int, players: int) -> None:
    """Run MILA's server with one game and its DAIDE port until killed."""
    from diplomacy import Map, Server
    from diplomacy.server.server_game import ServerGame
    from tornado import gen
    from tornado.ioloop import IOLoop

    def load_standard_map_only(self: Server) -> None:
        # MILA loads every map it ships at start-up, generating convoy-path caches for
        # minutes on a fresh machine; a standard game needs only the standard map.
        available = Map("standard")
        self.available_maps["standard"] = {
            "powers": list(available.powers),
            "supply_centers": list(available.scs),
            "loc_type": available.loc_type.copy(),
            "loc_abut": available.loc_abut.copy(),
            "aliases": available.aliases.copy(),
        }

    Server._load_available_maps = load_standard_map_only  # type: ignore[method-assign]
    web_port = free_port()
    server = Server()
    loop = IOLoop.current()

    @gen.coroutine
    def setup() -> object:
        server.start(port=web_port)
        game = ServerGame(
            map_name="standard",
            n_controls=players,
            rules=["NO_PRESS", "POWER_CHOICE"],
            deadline=deadline,
            server=server,
        )
        server.add_new_game(game)
        server.stop_daide_server(game.game_id)
        server.start_new_daide_server(game.game_id, port=daide_port)
        print(f"MILA DAIDE server for game {game.game_id} on port {daide_port}", flush=True)
        yield gen.sleep(0)

    loop.run_sync(setup)
    loop.start()


def main(argv: Sequence[str] | None = None) -> int:
    """Command line of the server subprocess."""
    parser = argparse.ArgumentParser(description="MILA's DAIDE server for one game")
    parser.add_argument("--daide-port", type=int, required=True)
    parser.add_argument("--deadline", type=int, default=5)
    parser.add_argument("--players", type=int, default=7)
    args = parser.parse_args(argv)
    serve(args.daide_port, args.deadline, args.players)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
