"""apt for the set-up steps, going on when the package lists refresh only in part.

``apt-get update`` exits with 100 when any one index fails to download (a
mirror in the middle of a sync, a foreign architecture's index, a third-party
repository gone), although it has refreshed every other list and kept the
old copy of the failed ones.  A set-up step that stops there never installs
what it could have.  So here a refresh that fails is reported in one line and
the step goes on; only the failure of the step itself (the install, the
download, the query) counts, and it is told in one line too.

Every set-up step that uses apt goes through :class:`Apt`: ``make setup``'s
Docker part (``docker/engine.sh`` runs ``python -m bot.servers.apt install``)
and the Debian packages unpacked for mosquitto and Chromium
(:mod:`bot.servers.debian`).  Only the standard library is imported: the
script may run before the project's environment exists.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

APT_TIMEOUT = 900
"""Seconds one apt call may take (a large package on a slow mirror)."""

FAILED_FETCH = "Failed to fetch"
"""What apt says of each index (or package) it could not download."""

MAX_REASON = 300
"""Characters of apt's message kept in a one-line reason."""


class AptError(RuntimeError):
    """An apt step failed; the message is one line that says why."""


@dataclass(frozen=True)
class Refresh:
    """What ``apt-get update`` did: ``problem`` is empty when every list was refreshed."""

    problem: str = ""

    @property
    def complete(self) -> bool:
        """Whether every package list was refreshed."""
        return not self.problem


def one_line(text: str, limit: int = MAX_REASON) -> str:
    """``text`` with its whitespace runs made single spaces, cut to ``limit`` characters."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def update_problem(returncode: int, output: str) -> str:
    """One line saying what went wrong in an ``apt-get update`` that exited with ``returncode``.

    The first index that could not be fetched is named, with how many more
    failed; without such a line, apt's first error (or its last line).
    """
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    failed = [line for line in lines if FAILED_FETCH in line]
    if failed:
        first = failed[0][failed[0].index(FAILED_FETCH) :]
        more = f" (and {len(failed) - 1} more)" if len(failed) > 1 else ""
        return one_line(f"{first}{more}")
    return _reason(returncode, output)


def _reason(returncode: int, output: str) -> str:
    """The first ``E:`` line of apt's ``output``, else its last line, else the exit status."""
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    errors = [line for line in lines if line.startswith("E:")]
    if errors:
        return one_line(errors[0])
    if lines:
        return one_line(lines[-1])
    return f"exit status {returncode}"


def may_refresh() -> bool:
    """Whether this process may refresh the package lists (only root can)."""
    return os.geteuid() == 0


class Apt:
    """apt calls of one set-up step; the package lists are refreshed at most once.

    ``refresh_allowed`` (default: when running as root) says whether a failed
    call may refresh the lists and try again; ``note`` receives the one-line
    warnings (default: standard error).
    """

    def __init__(
        self,
        *,
        refresh_allowed: bool | None = None,
        note: Callable[[str], None] | None = None,
        timeout: float = APT_TIMEOUT,
    ) -> None:
        self.refresh_allowed = may_refresh() if refresh_allowed is None else refresh_allowed
        self._note = note or (lambda line: print(line, file=sys.stderr))
        self._timeout = timeout
        self.refreshed: Refresh | None = None
        """The refresh done, or None before any."""

    def _call(
        self, argv: Sequence[str], cwd: Path | None = None
    ) -> subprocess.CompletedProcess[str]:
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        try:
            return subprocess.run(
                list(argv),
                capture_output=True,
                text=True,
                timeout=self._timeout,
                cwd=cwd,
                env=env,
                check=False,
            )
        except FileNotFoundError as exc:
            raise AptError(f"`{argv[0]}` not found: {exc.strerror}") from exc
        except OSError as exc:
            raise AptError(f"`{argv[0]}` could not run: {exc}") from exc
        except subprocess.TimeoutExpired as exc:
            raise AptError(f"`{' '.join(argv)}` took more than {self._timeout:.0f}s") from exc

    def refresh(self) -> Refresh:
        """``apt-get update``, once; a failure (of some lists or all) is noted, never raised."""
        if self.refreshed is not None:
            return self.refreshed
        try:
            proc = self._call(["apt-get", "update", "-q"])
        except AptError as exc:
            self.refreshed = Refresh(str(exc))
        else:
            if proc.returncode == 0:
                self.refreshed = Refresh()
            else:
                problem = update_problem(proc.returncode, proc.stdout + "\n" + proc.stderr)
                self.refreshed = Refresh(f"apt-get update exited with {proc.returncode}: {problem}")
        if not self.refreshed.complete:
            self._note(
                f"apt: the package lists were refreshed only in part, going on with them "
                f"({self.refreshed.problem})"
            )
        return self.refreshed

    def run(
        self, argv: Sequence[str], *, cwd: Path | None = None, refresh_first: bool = False
    ) -> subprocess.CompletedProcess[str]:
        """Run the apt command ``argv``; AptError with one line if it fails.

        With ``refresh_first`` (a root step, such as an install) the lists are
        refreshed before; otherwise a failed call refreshes them (if
        ``refresh_allowed`` and not done yet) and is tried once more, for lists
        that are missing (a fresh image) or stale.
        """
        if refresh_first:
            self.refresh()
        proc = self._call(argv, cwd)
        if proc.returncode != 0 and self.refresh_allowed and self.refreshed is None:
            self.refresh()
            proc = self._call(argv, cwd)
        if proc.returncode != 0:
            reason = (
                f"`{' '.join(argv)}` failed: {_reason(proc.returncode, proc.stderr + proc.stdout)}"
            )
            if self.refreshed is not None and not self.refreshed.complete:
                reason += (
                    f" (the package lists were refreshed only in part: {self.refreshed.problem})"
                )
            raise AptError(reason)
        return proc

    def install(self, packages: Sequence[str]) -> None:
        """``apt-get install`` of ``packages`` (root), after refreshing the package lists."""
        self.run(["apt-get", "install", "-y", "-q", *packages], refresh_first=True)


USAGE = "usage: python -m bot.servers.apt install PACKAGE..."


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m bot.servers.apt install PACKAGE...``: the install of a set-up script.

    Exit 0 when the packages are installed (a partial refresh of the lists is
    noted on standard error); otherwise 1, with the one-line reason on
    standard output for the calling script to say; 2 for a wrong command line.
    """
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) < 2 or args[0] != "install":
        print(USAGE, file=sys.stderr)
        return 2
    try:
        Apt().install(args[1:])
    except AptError as exc:
        print(exc)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
