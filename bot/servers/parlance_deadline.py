"""Parlance's server, run under Python 2.7 with one fix: a deadline that has passed is kept.

Parlance 1.4.1's main loop waits on its sockets for as long as the game's next
event is away (``ThreadManager.get_timeout``) and runs the game's clock only
when that wait ends with no traffic.  When a message arrives within the last
moments before a deadline, the next wait is computed after the deadline: a
negative number of seconds, which ``select.poll`` takes to mean *forever*.  The
deadline is then never processed, and a game where every player waits for the
server (Albert with its press on sends its orders at the last moment) stands
still until someone speaks, often for ever.  Seen on 2026-12-07: 2 games in 7
at a level-10 table of Albert and PeaceBots, each stopped at the game's time
limit; ``py-spy dump`` of the server showed ``poll`` with ``timeout:
-3.33``.

Run as ``python2.7 parlance_deadline.py ARGS`` (the arguments of
``parlance-server``); :func:`keep_deadlines` clamps the wait at zero, so a
passed deadline is handled at once, then the server runs as usual.  The file is
Python 2 and 3 alike (types in comments, as Python 2 has no annotations); it
imports Parlance only when run.
"""

import sys

if False:  # for the type checker only: Python 2.7 has no typing module
    from typing import Any, Optional  # noqa: F401


def keep_deadlines(manager_class):  # type: (Any) -> None  # noqa: ANN001, ANN201
    """Make ``manager_class.get_timeout`` (Parlance's ThreadManager) never negative."""
    waited = manager_class.get_timeout

    def get_timeout(self):  # type: (Any) -> Optional[float]  # noqa: ANN001, ANN202
        seconds = waited(self)
        return seconds if seconds is None else max(seconds, 0.0)

    get_timeout.__doc__ = waited.__doc__
    manager_class.get_timeout = get_timeout


def main():  # type: () -> Any  # noqa: ANN201
    """Start Parlance's server (``parlance.server.run``) with :func:`keep_deadlines` applied."""
    from parlance import main as parlance_main  # type: ignore[import-not-found]
    from parlance import server

    keep_deadlines(parlance_main.ThreadManager)
    sys.argv[0] = "parlance-server"
    return server.run()


if __name__ == "__main__":
    sys.exit(main())
