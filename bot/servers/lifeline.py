"""Child processes that end with the process that started them, even when it is killed.

A server or bot started by ``daide-mcts game`` must not outlive it: when the
game runner is killed (``kill -9``, the machine's OOM killer), nobody is left
to stop its children.  :func:`die_with_parent` gives ``subprocess.Popen`` (or
``asyncio.create_subprocess_exec``) a ``preexec_fn`` that asks Linux to send
the child a signal when its parent goes (``PR_SET_PDEATHSIG``); the setting
survives the ``exec`` of the child's program.

The kernel's "parent" is the *thread* that started the child: start servers
from a thread that lives as long as they should (the main thread, or an
executor thread kept until the event loop closes, as ``asyncio.to_thread``'s
are).  Elsewhere than Linux the function returns None and nothing changes.
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import os
import signal
import sys
from collections.abc import Callable

PR_SET_PDEATHSIG = 1
"""``prctl`` option: the signal the calling process gets when its parent dies (<linux/prctl.h>)."""

SERVER_SIGNAL = signal.SIGKILL
"""What a server gets when its starter dies: it has nothing to save, and must not linger."""

SEAT_SIGNAL = signal.SIGTERM
"""What a bot gets when its starter dies: bots of ours then write their records and leave."""


@functools.cache
def _prctl() -> Callable[..., int] | None:
    """The C library's ``prctl``, looked up once in the parent (never between fork and exec)."""
    if not sys.platform.startswith("linux"):
        return None
    with contextlib.suppress(OSError, AttributeError):
        prctl: Callable[..., int] = ctypes.CDLL(None, use_errno=True).prctl
        return prctl
    return None


def die_with_parent(sig: signal.Signals = SERVER_SIGNAL) -> Callable[[], None] | None:
    """A ``preexec_fn`` that makes the child get ``sig`` when this process (thread) dies.

    If this process has already died when the child runs it (it was killed
    between the fork and the ``prctl``), the child exits at once.  None where
    the kernel has no such setting.
    """
    prctl = _prctl()
    if prctl is None:
        return None
    parent = os.getpid()

    def preexec() -> None:
        prctl(PR_SET_PDEATHSIG, int(sig), 0, 0, 0)
        if os.getppid() != parent:
            os._exit(1)

    return preexec
