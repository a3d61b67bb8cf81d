"""The launcher that keeps Parlance's passed deadlines, on Parlance's own main loop (Python 2.7)."""

from __future__ import annotations

import subprocess
from pathlib import Path

from bot.servers.parlance_install import DEADLINE_KEEPER, ParlanceInstall, ParlanceServer

LATE_CLIENT = """
import sys
sys.path.insert(0, sys.argv[1])
from parlance.main import ThreadManager
import parlance_deadline

class Late(object):
    closed = False
    prefix = 'late'
    def time_left(self, now):
        return -3.0

manager = ThreadManager()
manager.add_dynamic(Late())
before = manager.get_timeout()
parlance_deadline.keep_deadlines(ThreadManager)
print('%r %r' % (before, manager.get_timeout()))
"""


def test_a_passed_deadline_makes_parlance_wait_no_more(
    parlance_install: ParlanceInstall, tmp_path: Path
) -> None:
    """Parlance alone computes a negative wait (poll's "forever"); the launcher makes it zero."""
    proc = subprocess.run(
        [str(parlance_install.python2), "-c", LATE_CLIENT, str(DEADLINE_KEEPER.parent)],
        capture_output=True,
        text=True,
        timeout=60,
        env=parlance_install.env(tmp_path),
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["-3.0", "0.0"]


def test_the_server_is_started_through_the_launcher(parlance_install: ParlanceInstall) -> None:
    argv = ParlanceServer(parlance_install, port=4000).argv()
    assert argv[:2] == [str(parlance_install.python2), str(DEADLINE_KEEPER)]
    assert DEADLINE_KEEPER.is_file()
    assert "--port=4000" in argv
