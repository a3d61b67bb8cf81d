"""apt for the set-up steps, going on when the package lists refresh only in part.

``apt-get update`` exits with 100 when any one index fails to download (a
mirror in the middle of a sync, a foreign architecture's index, a third-party
repository gone), although it has refreshed every other list and kept the
old copy of the failed ones.  A set-up step that stops there never installs
what it could have.  So here a refresh that fails is reported in one line and
the step goes on; only the failure of the step itself (the install, the
download, the query) counts, and it is told in one line too.

A partial refresh can also leave two architectures' copies of a library at
different versions (the amd64 one from a security index that refreshed, the
i386 one from an old or missing list), and then ``apt-get install`` of a
multi-arch package stops with "held broken packages".  An install that fails
after a partial refresh is therefore tried once more with the sources whose
lists failed left out (:func:`sources_without`): every package then comes
from the lists that did refresh.

Every set-up step that uses apt goes through :class:`Apt`: ``make setup``'s
Docker part (``docker/engine.sh`` runs ``python -m bot.servers.apt install``)
and the Debian packages unpacked for mosquitto and Chromium
(:mod:`bot.servers.debian`).  Only the standard library is imported: the
script may run before the project's environment exists.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

APT_TIMEOUT = 900
"""Seconds one apt call may take (a large package on a slow mirror)."""

FAILED_FETCH = "Failed to fetch"
"""What apt says of each index (or package) it could not download."""

MAX_REASON = 300
"""Characters of apt's message kept in a one-line reason."""

APT_ETC = Path("/etc/apt")
"""Where apt's source lists are: ``sources.list`` and ``sources.list.d/*.list|*.sources``."""

MAIN_LIST = "sources.list"
"""The one source list outside ``sources.list.d``."""

_FAILED_URL = re.compile(re.escape(FAILED_FETCH) + r"\s+(\S+)")


class AptError(RuntimeError):
    """An apt step failed; the message is one line that says why."""


@dataclass(frozen=True)
class Refresh:
    """What ``apt-get update`` did: ``problem`` is empty when every list was refreshed.

    ``failed`` holds the addresses apt could not fetch (its "Failed to fetch" lines).
    """

    problem: str = ""
    failed: tuple[str, ...] = ()

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


def failed_urls(output: str) -> tuple[str, ...]:
    """The addresses of apt's "Failed to fetch" lines in ``output``, in order, once each."""
    return tuple(dict.fromkeys(_FAILED_URL.findall(output)))


def _serves(uri: str, suite: str, failed: Iterable[str]) -> bool:
    """Whether one of the ``failed`` addresses is an index of ``suite`` at ``uri``."""
    prefix = f"{uri.rstrip('/')}/dists/{suite.strip('/')}/"
    return any(url.startswith(prefix) for url in failed)


def _one_line_sources(text: str, failed: tuple[str, ...]) -> tuple[str, bool]:
    """A one-line-style ``.list`` file without its entries for a failed suite; whether any went."""
    kept: list[str] = []
    dropped = False
    for line in text.splitlines():
        words = re.sub(r"\[[^\]]*\]", " ", line.split("#", 1)[0]).split()
        if (
            len(words) >= 3
            and words[0] in ("deb", "deb-src")
            and _serves(words[1], words[2], failed)
        ):
            dropped = True
            continue
        kept.append(line)
    return "\n".join(kept) + "\n", dropped


def _deb822_sources(text: str, failed: tuple[str, ...]) -> tuple[str, bool]:
    """A deb822 ``.sources`` file without its failed suites (a stanza left with none goes)."""
    stanzas: list[str] = []
    dropped = False
    for stanza in re.split(r"\n\s*\n", text.strip()):
        fields = {
            key.strip().lower(): value.split()
            for key, sep, value in (line.partition(":") for line in stanza.splitlines())
            if sep and not key.startswith((" ", "\t", "#"))
        }
        uris, suites = fields.get("uris", []), fields.get("suites", [])
        bad = {s for s in suites if any(_serves(u, s, failed) for u in uris)}
        if not bad:
            stanzas.append(stanza)
            continue
        dropped = True
        left = [s for s in suites if s not in bad]
        if left:
            stanzas.append(
                re.sub(r"(?im)^suites:.*$", "Suites: " + " ".join(left), stanza, count=1)
            )
    return "\n\n".join(stanzas) + "\n", dropped


def sources_without(failed: Sequence[str], etc: Path = APT_ETC) -> dict[str, str] | None:
    """The source files of apt under ``etc`` without the suites whose indexes ``failed``.

    The result maps a file name to its text (:data:`MAIN_LIST` for apt's
    ``Dir::Etc::SourceList``, the others for a ``Dir::Etc::SourceParts``
    folder); None when no source serves a failed address (nothing to
    leave out).  Files apt itself ignores (other extensions) are not read.
    """
    urls = tuple(failed)
    files: dict[str, str] = {}
    dropped = False
    candidates = [(MAIN_LIST, etc / MAIN_LIST)]
    parts = etc / "sources.list.d"
    if parts.is_dir():
        candidates += [(p.name, p) for p in sorted(parts.iterdir())]
    for name, path in candidates:
        if not path.is_file() or not name.endswith((".list", ".sources")):
            continue
        try:
            text = path.read_text()
        except (OSError, UnicodeDecodeError):
            continue
        edit = _deb822_sources if name.endswith(".sources") else _one_line_sources
        files[name], gone = edit(text, urls)
        dropped = dropped or gone
    return files if dropped else None


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
    warnings (default: standard error); ``etc`` is where apt's source lists are.
    """

    def __init__(
        self,
        *,
        refresh_allowed: bool | None = None,
        note: Callable[[str], None] | None = None,
        timeout: float = APT_TIMEOUT,
        etc: Path = APT_ETC,
    ) -> None:
        self.etc = etc
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
                output = proc.stdout + "\n" + proc.stderr
                problem = update_problem(proc.returncode, output)
                self.refreshed = Refresh(
                    f"apt-get update exited with {proc.returncode}: {problem}", failed_urls(output)
                )
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
        """``apt-get install`` of ``packages`` (root), after refreshing the package lists.

        If it fails after a partial refresh, it is tried once more with the
        sources whose lists failed left out (:func:`sources_without`); if that
        fails too, both reasons are told.
        """
        argv = ["apt-get", "install", "-y", "-q", *packages]
        try:
            self.run(argv, refresh_first=True)
        except AptError as first:
            failed = self.refreshed.failed if self.refreshed is not None else ()
            files = sources_without(failed, self.etc) if failed else None
            if files is None:
                raise
            self._note(
                "apt: the install failed after a partial refresh; trying again without "
                f"the sources whose lists failed ({one_line(str(first), 120)})"
            )
            with tempfile.TemporaryDirectory(prefix="apt-sources-") as folder:
                main_list, parts = Path(folder) / MAIN_LIST, Path(folder) / "parts"
                parts.mkdir()
                main_list.write_text(files.pop(MAIN_LIST, ""))
                for name, text in files.items():
                    (parts / name).write_text(text)
                options = [
                    "-o",
                    f"Dir::Etc::SourceList={main_list}",
                    "-o",
                    f"Dir::Etc::SourceParts={parts}",
                ]
                try:
                    self.run([argv[0], *options, *argv[1:]])
                except AptError as second:
                    raise AptError(f"{first}; without the failed sources: {second}") from second


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
