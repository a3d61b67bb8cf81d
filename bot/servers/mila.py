"""MILA's ``diplomacy`` server (Python 3) with its DAIDE front end, as a subprocess.

``python -m bot.servers.mila --daide-port P --deadline S`` starts MILA's
server on a private web port, creates one standard game for seven players
(no press, or with ``--press`` the press MILA allows: it announces level 30),
and opens the game's DAIDE server on ``P``.  :class:`MilaServer`
runs that in a subprocess (its own tornado loop and working folder) for the
tests and the local game runner.

MILA listens on every interface and creates an ``admin`` account whose
password is ``password`` (and a bot account whose password is published in
its source).  This launcher binds every socket MILA opens to ``--host``
(loopback by default) and gives both accounts a random password that is never
written down, so nobody can sign in with them.
"""

from __future__ import annotations

import argparse
import os
import secrets
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, ClassVar

from bot.servers.ports import free_port
from bot.servers.process import ServerProcess

LOOPBACK = "127.0.0.1"
"""Where the server listens unless told otherwise."""

BCRYPT_MIN_ROUNDS = 4
"""bcrypt's lowest cost factor."""

SECRET_BYTES = 32
"""Random bytes in the password of each of MILA's built-in accounts."""
MILA_EXTRA = "mila"
"""The optional extra that installs MILA's ``diplomacy`` package."""


class MilaUnavailableError(RuntimeError):
    """MILA's server cannot be started here; the message says why."""


@dataclass
class MilaServer(ServerProcess):
    """A MILA DAIDE server on loopback for one game; use as a context manager.

    ``deadline`` is the seconds per phase (MILA has one deadline for all
    phase types; 0 means none); ``press`` opens the game to press (MILA's
    ``HLO`` then says ``LVL 30`` and it relays every ``SND`` as ``FRM``).
    """

    unavailable: ClassVar[type[Exception]] = MilaUnavailableError
    what: ClassVar[str] = "MILA's DAIDE server"

    deadline: int = 5
    host: str = LOOPBACK
    port: int = 0
    players: int = 7
    press: bool = False
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
            sys.executable, "-m", "bot.servers.mila", "--host", self.host,
            "--daide-port", str(self.port), "--deadline", str(self.deadline),
            "--players", str(self.players), *(("--press",) if self.press else ()),
        ]  # fmt: skip
        env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
        self._spawn(argv, env, self.log_path, timeout)
        return self


def listen_only_on(host: str) -> None:
    """Make every tornado server of this process bind to ``host`` (MILA's bind to all interfaces).

    MILA's web server (``Application.listen``) and its DAIDE servers
    (``TCPServer.listen``) both end in ``TCPServer.listen`` with no address;
    an address other than ``host`` asked for explicitly is refused.
    """
    from tornado.tcpserver import TCPServer

    listen = TCPServer.listen

    def listen_on_host(
        self: TCPServer, port: int, address: str | None = None, *args: Any, **kwargs: Any
    ) -> None:
        if address not in (None, "", host):
            raise ValueError(f"MILA asked to listen on {address!r}; this server serves {host} only")
        listen(self, port, host, *args, **kwargs)

    TCPServer.listen = listen_on_host  # type: ignore[method-assign]


ADMIN_ACCOUNT = "admin"
"""MILA's built-in administrator (its password is ``password``)."""


def lock_default_accounts(server: Any) -> None:
    """Give MILA's built-in accounts a random password nobody knows (bcrypt, as MILA hashes).

    They are the administrator and MILA's bot account, whose password is in
    its source; replaced rather than removed, so nobody can register them anew.
    """
    import bcrypt
    from diplomacy.server.user import User
    from diplomacy.utils.constants import PRIVATE_BOT_USERNAME

    for name in (ADMIN_ACCOUNT, PRIVATE_BOT_USERNAME):
        secret = secrets.token_urlsafe(SECRET_BYTES).encode()
        # A random secret needs no slow hash: the lowest bcrypt cost keeps start-up quick.
        hashed = bcrypt.hashpw(secret, bcrypt.gensalt(BCRYPT_MIN_ROUNDS)).decode()
        server.users.replace_user(name, User(username=name, password_hash=hashed))


NO_PRESS_RULES = ("NO_PRESS", "POWER_CHOICE")
"""MILA's rules of a no-press game whose players choose no power (MILA deals them)."""
PRESS_RULES = ("POWER_CHOICE",)
"""The same game with press (MILA's HLO then announces its level, 30)."""


def serve(
    daide_port: int, deadline: int, players: int, host: str = LOOPBACK, press: bool = False
) -> None:
    """Run MILA's server on ``host`` with one game and its DAIDE port until killed."""
    from diplomacy import Map, Server
    from diplomacy.server.server_game import ServerGame
    from tornado import gen
    from tornado.ioloop import IOLoop

    listen_only_on(host)

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

    Server._load_available_maps = load_standard_map_only
    web_port = free_port(host)
    server = Server()
    lock_default_accounts(server)
    loop = IOLoop.current()

    @gen.coroutine
    def setup() -> object:
        server.start(port=web_port)
        game = ServerGame(
            map_name="standard",
            n_controls=players,
            rules=list(PRESS_RULES if press else NO_PRESS_RULES),
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
    parser.add_argument("--host", default=LOOPBACK, help="the address every port binds to")
    parser.add_argument("--daide-port", type=int, required=True)
    parser.add_argument("--deadline", type=int, default=5)
    parser.add_argument("--players", type=int, default=7)
    parser.add_argument("--press", action="store_true", help="allow press (level 30)")
    args = parser.parse_args(argv)
    serve(args.daide_port, args.deadline, args.players, args.host, press=args.press)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
