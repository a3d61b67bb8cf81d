"""Chromium, the browser the viewer's tests drive (with playwright), from Debian's packages.

:func:`install` unpacks Debian's ``chromium-headless-shell`` (Chromium's
headless build: the same browser engine as the ``chromium`` package without
its desktop interface, so some forty library packages fewer) and
``chromium-common`` into ``.local/chromium``, with whatever libraries the
machine lacks, as :mod:`bot.servers.debian` does for mosquitto.
``DAIDE_CHROMIUM`` names a Chromium binary to use instead.

:data:`LAUNCH_FLAGS` are the flags it runs with here (as root, without a GPU
or a display): no sandbox, no GPU, no background traffic, a fresh profile.
"""

from __future__ import annotations

import re
import subprocess
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from bot.servers.debian import UnpackedTree, install_command, install_program
from bot.toolkit.paths import local_dir

PACKAGES = ("chromium-headless-shell", "chromium-common")
BINARY = "usr/lib/chromium/chromium-headless-shell"
"""The browser's path inside the unpacked packages (``usr/bin``'s is a wrapper script)."""

LAUNCH_FLAGS = (
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)
"""Flags that let Chromium run headless here, as root and without a GPU (plus ``--headless``)."""


class ChromiumUnavailableError(RuntimeError):
    """Chromium cannot be installed or started here; the message says why."""


@dataclass(frozen=True)
class ChromiumInstall:
    """A runnable Chromium: the binary and the folders its private libraries are in."""

    binary: Path
    library_dirs: tuple[Path, ...] = ()

    def env(self) -> dict[str, str]:
        """Environment for running the browser (its private libraries first)."""
        return UnpackedTree(self.binary.parent, self.library_dirs).env()

    def version(self) -> str:
        """The version the browser reports (``150.0.7871.100``); ChromiumUnavailableError."""
        with tempfile.TemporaryDirectory(prefix="chromium-") as profile:
            argv = [str(self.binary), "--headless", *LAUNCH_FLAGS, f"--user-data-dir={profile}"]
            try:
                proc = subprocess.run(
                    [*argv, "--version"], capture_output=True, text=True, env=self.env(), timeout=60
                )
            except (OSError, subprocess.TimeoutExpired) as exc:
                raise ChromiumUnavailableError(f"cannot run {self.binary}: {exc}") from exc
        found = re.search(r"(\d+\.\d+\.\d+\.\d+)", proc.stdout + proc.stderr)
        if proc.returncode != 0 or found is None:
            raise ChromiumUnavailableError(
                f"{self.binary} does not run:\n{(proc.stdout + proc.stderr)[-2000:]}"
            )
        return found.group(1)


def install(root: Path | None = None, *, quiet: bool = True) -> ChromiumInstall:
    """A runnable Chromium, unpacking Debian's packages into ``root`` if needed; idempotent.

    ``root`` defaults to ``.local/chromium``; ``DAIDE_CHROMIUM`` (a path to a
    Chromium binary) skips the install.
    """
    return install_program(
        root or (local_dir() / "chromium"),
        PACKAGES,
        binary=BINARY,
        override_env="DAIDE_CHROMIUM",
        given=ChromiumInstall,
        in_tree=_install_in,
        error=ChromiumUnavailableError,
        quiet=quiet,
    )


def _install_in(tree: UnpackedTree) -> ChromiumInstall:
    return ChromiumInstall(tree.tree / BINARY, tree.library_dirs)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m bot.servers.chromium``: install Chromium and print where."""
    return install_command("chromium", lambda: install(quiet=False), ChromiumUnavailableError)


if __name__ == "__main__":
    raise SystemExit(main())
