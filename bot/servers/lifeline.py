"""Child processes that end with the process that started them, even when it is killed.

A server or bot started by ``daide-mcts game`` must not outlive it: when the
game runner is killed (``kill -9``, the machine's OOM killer), nobody is left
to stop its children.  :func:`tied` wraps a child's command line in a tiny
launcher that asks Linux to send it a signal when its parent goes
(``PR_SET_PDEATHSIG``), then ``exec``s the program; the setting survives the
``exec``.

A launcher rather than a ``preexec_fn``: with a ``preexec_fn`` Python must
``fork()`` (not ``vfork()``), and libraries that register fork handlers (gRPC,
which Ray loads) then run them in the child, which can break it before its
``exec``.

The kernel's "parent" is the *thread* that started the child: start servers
from a thread that lives as long as they should (the main thread, or an
executor thread kept until the event loop closes, as ``asyncio.to_thread``'s
are).  Elsewhere than Linux the command line is returned as it is.
"""

from __future__ import annotations

import errno
import os
import shutil
import signal
import sys
from collections.abc import Sequence

PR_SET_PDEATHSIG = 1
"""``prctl`` option: the signal the calling process gets when its parent dies (<linux/prctl.h>)."""

SERVER_SIGNAL = signal.SIGKILL
"""What a server gets when its starter dies: it has nothing to save, and must not linger."""

SEAT_SIGNAL = signal.SIGTERM
"""What a bot gets when its starter dies: bots of ours then write their records and leave."""

LAUNCHER = (
    "import ctypes, os, sys\n"
    f"ctypes.CDLL(None).prctl({PR_SET_PDEATHSIG}, int(sys.argv[1]), 0, 0, 0)\n"
    "if os.getppid() != int(sys.argv[2]):\n"
    "    os._exit(1)\n"
    "os.execv(sys.argv[3], sys.argv[4:])\n"
)
"""The launcher's program: the signal, the expected parent, the executable, then argv.
If the parent is already gone when it runs, it exits at once."""


def tied(argv: Sequence[str], sig: signal.Signals = SERVER_SIGNAL) -> list[str]:
    """``argv`` run so that the child gets ``sig`` when this process (thread) dies.

    The program is looked up on ``PATH`` here, so a missing one raises
    :class:`FileNotFoundError` as ``subprocess`` would.  The child's ``argv`` (and so
    its ``/proc/PID/cmdline``) is ``argv`` itself once the launcher has ``exec``ed it.
    """
    if not argv:
        raise ValueError("an empty command line")
    if not sys.platform.startswith("linux"):
        return list(argv)
    program = argv[0]
    executable = program if os.sep in program else shutil.which(program)
    if executable is None:
        raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), program)
    return [
        sys.executable, "-I", "-S", "-c", LAUNCHER,
        str(int(sig)), str(os.getpid()), executable, *argv,
    ]  # fmt: skip
