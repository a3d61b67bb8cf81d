"""Wine and a virtual X display, the programs that run Albert (a Win32 bot) on Linux.

Debian's ``wine`` with its 32-bit half (``wine32:i386``, hence the i386
architecture) and ``xvfb`` (``xvfb-run``) are installed system-wide with apt,
as root: :func:`install_wine` (``daide-mcts albert --install``) or by hand with
:data:`APT_LINE`.  :func:`missing_wine_programs` says, in one line, what is
missing and how to install it.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

from bot.servers.apt import Apt, AptError

WINE_PACKAGES = ("wine", "wine32:i386", "xvfb", "xauth")
"""Debian's packages that run a 32-bit Windows program on a virtual display."""

FOREIGN_ARCHITECTURE = "i386"
"""The architecture ``wine32`` comes from."""

APT_LINE = (
    f"dpkg --add-architecture {FOREIGN_ARCHITECTURE} && apt-get update && "
    f"apt-get install -y {' '.join(WINE_PACKAGES)}"
)
"""How to install them by hand, as root."""

WINE_PROGRAMS = ("wine", "wineboot", "wineserver", "xvfb-run", "xauth")
"""The programs the Albert seat runs, looked up on the PATH."""

WINE32_LOADER = Path("/usr/lib/wine/wine")
"""Debian's 32-bit Wine loader (package ``wine32:i386``); without it no 32-bit program runs."""


class WineUnavailableError(RuntimeError):
    """Wine cannot be installed here; the message says why."""


def missing_wine_programs(
    which: Callable[[str], str | None] = shutil.which, wine32: Path = WINE32_LOADER
) -> str:
    """One line naming the missing programs and how to install them, or ``""`` if none is."""
    missing = [name for name in WINE_PROGRAMS if which(name) is None]
    if not missing and not wine32.exists():
        missing = [f"32-bit Wine ({wine32})"]
    if not missing:
        return ""
    return (
        f"{', '.join(missing)} not found: install Wine and Xvfb as root with "
        f"`{APT_LINE}` (or `daide-mcts albert --install`)"
    )


def install_wine(apt: Apt | None = None) -> None:
    """Install :data:`WINE_PACKAGES` with apt (root); WineUnavailableError in one line if it fails.

    The i386 architecture is added first, so that the refresh before the
    install fetches its package lists (:class:`bot.servers.apt.Apt`: a refresh
    that fails in part is noted and the install goes on).
    """
    apt = apt or Apt()
    try:
        apt.run(["dpkg", "--add-architecture", FOREIGN_ARCHITECTURE])
        apt.install(WINE_PACKAGES)
    except AptError as exc:
        raise WineUnavailableError(str(exc)) from exc
    missing = missing_wine_programs()
    if missing:
        raise WineUnavailableError(f"apt installed the packages, yet {missing}")
